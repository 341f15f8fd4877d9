"""``{% rendered_once "template#partial" seat.pk name=value … %}``: a partial rendered with exactly the values given
and nothing else of the page, remembered per process for the same seat and values — a part of a live fragment that is
rendered again on every change while its own words seldom change (issue 12: the checklist's forty items were half of
the template work of a reveal).

Remembered per seat (the second argument, whose page it is: not given to the partial): whether a rendering is
remembered — a little CPU time, which the player whose write publishes both pages waits for — then depends only on
what that seat's own pages showed before, never on what another seat or campaign of the worker rendered.

Only the values given reach the partial (as ``{% include … with … only %}`` would give them), so the same values
give the same bytes: what is remembered is what rendering it again would give. The values must be hashable (a frozen
record, strings, numbers): a list or a dict is refused (TypeError) rather than compared by identity. Each value is
remembered with its type; a frozen record's fields are compared by value alone, so a record holds plain text (the
partial escapes it) or markup already made safe, never either for the same field. The partial is
looked up through the rendering engine each time, so an edited template (its cached copy dropped) renders anew.
"""
from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache
from typing import Protocol

from django import template
from django.template import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

class Renders(Hashable, Protocol):
    """An engine's template or partial (django.template.base.Template, PartialTemplate), hashed by identity."""

    def render(self, context: Context) -> str: ...


REMEMBERED = 4096  # renderings kept per process (an item is under a kilobyte: a few megabytes at most)


@register.simple_tag(takes_context=True)
def rendered_once(context: Context, name: str, seat: Hashable, **values: Hashable) -> SafeString:
    """The partial ``name`` rendered with ``values`` alone (autoescaped as the page is), once per process for the
    ``seat`` whose page it is and these values."""
    if context.template is None:
        raise template.TemplateSyntaxError("rendered_once renders inside a template only")
    partial: Renders = context.template.engine.get_template(name)
    return rendering(partial, seat, tuple((key, type(value), value) for key, value in sorted(values.items())),
                     context.autoescape)


@lru_cache(maxsize=REMEMBERED)
def rendering(partial: Renders, seat: Hashable, values: tuple[tuple[str, type, Hashable], ...],
              autoescape: bool) -> SafeString:
    """``partial`` (an engine's template or partial) rendered for ``seat`` with ``values`` alone (each with its type: text marked
    safe and the same plain text are equal, yet one is escaped and the other not; so are True and 1, printed apart)."""
    return mark_safe(partial.render(Context({key: value for key, _, value in values}, autoescape=autoescape)))
