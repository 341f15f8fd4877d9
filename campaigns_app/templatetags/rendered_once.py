"""``{% rendered_once "template#partial" seat.pk name=value … %}``: a partial rendered with exactly the values given
and nothing else of the page, remembered per process for the same seat and values — a part of a live fragment that is
rendered again on every change while its own words seldom change (issue 12: at the Initiative step the checklist's
forty items made half of the Python calls of rendering a seat's live page).

Remembered per seat (the second argument, whose page it is: not given to the partial): whether a rendering is
remembered — a little CPU time, which the player whose write publishes both pages waits for — then depends only on
what that seat's own pages showed before, never on what another seat or campaign of the worker rendered.

Only the values given reach the partial (as ``{% include … with … only %}`` would give them), so the same values
give the same bytes: what is remembered is what rendering it again would give. The values must be hashable (a frozen
record, strings, numbers): a list or a dict is refused (TypeError) rather than compared by identity. Each value is
remembered with its type; a frozen record's fields are compared by value alone, so a record holds plain text (the
partial escapes it) or markup already made safe, never either for the same field. The partial is looked up through
the rendering engine each time, so an edited template (its cached copy dropped) renders anew.

What is remembered is bounded by its size (``REMEMBERED``), the least recently used dropped first: a worker serving
many campaigns keeps the seats it served last, whatever the records hold.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Protocol

from django import template
from django.template import Context
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


class Renders(Hashable, Protocol):
    """An engine's template or partial (django.template.base.Template, PartialTemplate), hashed by identity."""

    def render(self, context: Context) -> str: ...


class Remembered:
    """Renderings by key, the least recently used dropped once all of them hold more than ``budget`` characters (each
    counted twice: its key's record is about as large); one that would count more than ``largest`` (by default a 64th
    of the budget) is not kept."""

    def __init__(self, budget: int, largest: int | None = None) -> None:
        self.budget, self.size, self.hits, self.misses = budget, 0, 0, 0
        self.largest = budget // 64 if largest is None else largest
        self._kept: OrderedDict[Hashable, SafeString] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> SafeString | None:
        """The rendering kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                self.misses += 1
                return None
            self._kept.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: Hashable, rendered: SafeString) -> None:
        """Keep ``rendered`` for ``key``, dropping the least recently used beyond the budget."""
        cost = 2 * len(rendered)
        if cost > self.largest:
            return
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = rendered
            self.size += cost
            while self.size > self.budget:
                _, dropped = self._kept.popitem(last=False)
                self.size -= 2 * len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.size = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)


REMEMBERED = Remembered(16_000_000)  # per process: a checklist item is ~600 characters, a records card a few thousand


@register.simple_tag(takes_context=True)
def rendered_once(context: Context, name: str, seat: Hashable, **values: Hashable) -> SafeString:
    """The partial ``name`` rendered with ``values`` alone (autoescaped as the page is), once per process for the
    ``seat`` whose page it is and these values."""
    if context.template is None:
        raise template.TemplateSyntaxError("rendered_once renders inside a template only")
    partial: Renders = context.template.engine.get_template(name)
    setting = context.render_context.get(SETTING)  # read once per rendering of the page (a thread-local read each)
    if setting is None:
        setting = context.render_context[SETTING] = (timezone.get_current_timezone_name(), translation.get_language())
    return rendering(partial, seat, tuple((key, type(value), value) for key, value in sorted(values.items())),
                     context.autoescape, setting)


SETTING = "rendered_once: time zone and language"  # their key in the render context (one page rendering)


def rendering(partial: Renders, seat: Hashable, values: tuple[tuple[str, type, Hashable], ...],
              autoescape: bool, setting: tuple[str, str | None]) -> SafeString:
    """``partial`` rendered for ``seat`` with ``values`` alone, as remembered or made now (each value with its type:
    text marked safe and the same plain text are equal, yet one is escaped and the other not; True and 1 print apart;
    ``setting``: the active time zone and language, which filters read besides the values — a moment prints in the
    one, a month's name in the other)."""
    key = (partial, seat, values, autoescape, setting)
    found = REMEMBERED.get(key)
    if found is None:
        found = mark_safe(partial.render(Context({name: value for name, _, value in values}, autoescape=autoescape)))
        REMEMBERED.put(key, found)
    return found
