"""{% rendered_once %}: a partial rendered with the values given alone, once per process for the same seat and values; the
checklist's items are rendered through it."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Engine
from django.utils import timezone

from campaigns_app.phase.steps import ChecklistLine
from campaigns_app.templatetags.rendered_once import REMEMBERED

pytestmark = pytest.mark.usefixtures("nothing_remembered")  # the renderings store, empty around each test

ITEM = "campaigns/phase/live.html#checklist_item"


def line(**changed: object) -> ChecklistLine:
    fields: dict[str, object] = dict(
        status="current", kind_class="secret", current=True, mark="▸", number="2.518", name="Purchase RG",
        status_words="current step", kind_label="Secret", kind_help="Each side chooses alone.", order_text="",
        show_sides=True, you_words="finished", opponent_words="to do")
    fields.update(changed)
    return ChecklistLine(**fields)  # type: ignore[arg-type]


def page(source: str, partials: str = "") -> Engine:
    """An engine with one page template (and, in ``parts.html``, partials) and the rendered_once library; its templates
    cached as in production (a partial is the same object each time)."""
    templates = {"page.html": source, "parts.html": partials}
    return Engine(loaders=[("django.template.loaders.cached.Loader",
                            [("django.template.loaders.locmem.Loader", templates)])],
                  libraries={"rendered_once": "campaigns_app.templatetags.rendered_once"})


def test_a_checklist_item_prints_its_line_and_the_opponents_name() -> None:
    engine = Engine.get_default()
    outer = engine.from_string('{% load rendered_once %}{% rendered_once "' + ITEM + '" 7 line=line opponent_name=name %}')
    html = outer.render(Context({"line": line(), "name": "German"}))
    assert 'aria-current="step"' in html
    assert '<span class="check-ref">2.518</span> Purchase RG' in html
    assert '<span class="kind kind-secret" title="Each side chooses alone.">Secret</span>' in html
    assert "You: finished · German: to do" in html
    later = outer.render(Context({"line": line(status="done", current=False, show_sides=False), "name": "German"}))
    assert "aria-current" not in later and "You: finished" not in later and 'class="check check-done' in later


def test_the_same_values_are_rendered_once_and_other_values_anew() -> None:
    engine = Engine.get_default()
    outer = engine.from_string('{% load rendered_once %}{% rendered_once "' + ITEM + '" 7 line=line opponent_name=name %}')
    first = outer.render(Context({"line": line(), "name": "German"}))
    again = outer.render(Context({"line": line(), "name": "German"}))
    assert again == first
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 1)
    other = outer.render(Context({"line": line(), "name": "Canadian"}))
    assert "You: finished · Canadian: to do" in other and REMEMBERED.misses == 2
    renamed = outer.render(Context({"line": line(name="Purchase Fortifications"), "name": "German"}))
    assert "Purchase Fortifications" in renamed and REMEMBERED.misses == 3


def test_only_the_values_given_reach_the_partial() -> None:
    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" 7 shown=shown %}',
                  '{% partialdef p %}[{{ shown }}|{{ secret }}]{% endpartialdef %}')
    html = engine.get_template("page.html").render(Context({"shown": "mine", "secret": "theirs"}))
    assert html == "[mine|]"


def test_what_the_partial_prints_is_escaped_as_the_page_is() -> None:
    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" 7 shown=shown %}',
                  '{% partialdef p %}{{ shown }}{% endpartialdef %}')
    assert engine.get_template("page.html").render(Context({"shown": "<b>Hill</b>"})) == "&lt;b&gt;Hill&lt;/b&gt;"
    assert engine.get_template("page.html").render(Context({"shown": "<b>Hill</b>"}, autoescape=False)) == "<b>Hill</b>"


def test_a_list_or_a_dict_is_refused_rather_than_remembered_by_identity() -> None:
    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" 7 shown=shown %}',
                  '{% partialdef p %}{{ shown }}{% endpartialdef %}')
    for unhashable in (["a"], {"a": 1}):
        with pytest.raises(TypeError):
            engine.get_template("page.html").render(Context({"shown": unhashable}))


def test_text_marked_safe_and_the_same_plain_text_are_rendered_apart() -> None:
    from django.utils.safestring import mark_safe

    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" 7 shown=shown %}',
                  '{% partialdef p %}{{ shown }}{% endpartialdef %}')
    assert engine.get_template("page.html").render(Context({"shown": mark_safe("<b>Hill</b>")})) == "<b>Hill</b>"
    assert engine.get_template("page.html").render(Context({"shown": "<b>Hill</b>"})) == "&lt;b&gt;Hill&lt;/b&gt;"


def test_a_seat_never_gets_another_seats_remembered_rendering() -> None:
    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" seat shown=shown %}',
                  '{% partialdef p %}[{{ shown }}]{% endpartialdef %}')
    for seat in (1, 2, 1):
        assert engine.get_template("page.html").render(Context({"seat": seat, "shown": "Hill 112"})) == "[Hill 112]"
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 2)


def test_a_moment_is_rendered_again_in_another_active_time_zone() -> None:
    engine = page('{% load rendered_once %}{% rendered_once "parts.html#p" 7 when=when %}',
                  '{% partialdef p %}{{ when|time:"H:i" }}{% endpartialdef %}')
    when = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
    assert engine.get_template("page.html").render(Context({"when": when})) == "10:00"
    with timezone.override(ZoneInfo("Europe/Paris")):
        assert engine.get_template("page.html").render(Context({"when": when})) == "11:00"
    assert engine.get_template("page.html").render(Context({"when": when})) == "10:00"
    assert (REMEMBERED.hits, REMEMBERED.misses) == (1, 2)


def test_what_is_remembered_is_bounded_by_its_size_the_least_recently_used_dropped_first() -> None:
    from django.utils.safestring import mark_safe

    from campaigns_app.templatetags.rendered_once import Remembered

    kept = Remembered(budget=6400, largest=3000)  # each rendering counts twice: 1,000 characters cost 2,000
    for key in "abc":
        kept.put(key, mark_safe(key * 1000))
    assert kept.get("a") == "a" * 1000  # now the most recently used
    kept.put("d", mark_safe("d" * 1000))  # over the budget: "b", the least recently used, is dropped
    assert (kept.get("b"), len(kept), kept.size) == (None, 3, 6000)
    kept.put("e", mark_safe("e" * 1501))  # would count more than the largest kept: not kept
    assert kept.get("e") is None and kept.get("c") == "c" * 1000
    assert Remembered(budget=6400).largest == 100  # by default a 64th of the budget
