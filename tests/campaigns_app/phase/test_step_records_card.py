"""The step-records card: printed from each record's RecordLine alone, rendered once per process for the same records."""
from __future__ import annotations

import pytest
from django.template import Context, Engine

from campaigns_app.phase.step_records import ModifierLine, record_line
from campaigns_app.templatetags.rendered_once import REMEMBERED

pytestmark = pytest.mark.usefixtures("nothing_remembered")  # the renderings store, empty around each test

CARD = '{% include "campaigns/phase/live.html#step_records" %}'
ROLL = {"kind": "table-result", "secret": True, "step": "2.516", "side_name": "German", "you": True,
        "title": "CPP Replenishment", "breakdown": True, "step_caution": False, "caution": None, "column": "German",
        "rg_id": None, "dice": [3, 4], "original": 7, "final": 8, "result": "+1 CPP",
        "modifiers": [{"value": 1, "reason": "Night", "text": "+1"}]}


def card(*records: dict[str, object], live_version: str = "") -> str:
    page = Engine.get_default().from_string(CARD)
    lines = tuple(record_line(r) for r in records)
    return page.render(Context({"phase": {"record_lines": lines}, "live_version": live_version, "seat": {"pk": 7}}))


def test_a_roll_prints_its_dice_modifiers_and_result_from_its_line() -> None:
    html = card(ROLL, live_version="7")
    assert 'id="step-records"' in html and 'data-live-version="7"' in html and " hidden" not in html
    assert '<span class="badge badge-secret">Only you</span> <span class="check-ref">2.516</span>' in html
    assert '<span class="visually-hidden">dice 3 and 4</span>' in html
    assert 'Original 7 <span class="drm" title="Night">+1</span> = <strong>Final 8</strong>' in html
    assert '<span class="muted">German:</span> <strong>+1 CPP</strong>' in html


def test_a_card_without_records_is_hidden() -> None:
    assert 'class="card records-card" aria-labelledby="records-title" hidden>' in card()


def test_the_same_records_are_rendered_once() -> None:
    first = card(ROLL)
    assert card(ROLL) == first and REMEMBERED.hits == 1
    changed = card({**ROLL, "final": 9})
    assert "Final 9" in changed and REMEMBERED.misses == 2


def test_a_line_holds_lists_and_mappings_as_tuples() -> None:
    line = record_line({**ROLL, "result": {"cpp": 1}, "step": ["2.516"]})
    assert (line.dice, line.result, line.step) == ((3, 4), (("cpp", 1),), ("2.516",))
    assert line.modifiers == (ModifierLine("+1", "Night"),)
    hash(line)
