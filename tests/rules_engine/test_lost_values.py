"""Values lost in the rule text met during play: the roll is kept, the step pauses with a "table-value" Need for the
roll's owner, the value typed as printed is checked and stored for that side, and the step resumes with it.

Seed facts used (typed by hand from seed 001): 2.5191 RG Strength Table DR ≤ 8 Full; German RG I2 PzGr Coy (Lehr)
costs 27 CPP, notes d, e, L (depletable, company leaders); 2.5193 Company Leader Allotment Table has no row for final
DR 12 (11 is followed by "≥ 13"); 2.5061 Equipment of a unit Eliminated by Escape gives results for dr < 3 and > 4
only. The values typed below ("9-1, 8-0", "Captured") are TEST DATA standing for what a player reads on their own
chart — not values of the rule text.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import LostCellError, SubmissionError
from rules_engine.events import Event
from rules_engine.ledger import new_ledger
from rules_engine.loader import parse_system
from rules_engine.model import System
from rules_engine.purchases import RgOrder
from rules_engine.results import submit_results
from rules_engine.state import CampaignState, ScenarioResult, mark_step_done, owes
from rules_engine.view import view_for
from rules_engine.vocabulary import Visibility

CDN, GER = "canadian", "german"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
NEED = "table-value:company-leader|11|leaders"  # the 12th row (index 11) of 2.5193, the Leader Received column


@cache
def rr() -> System:
    return parse_system((FIXTURES / "rr.yaml").read_text(), "rr.yaml")


def german_buys(*rg: str, dice: FixedDice) -> tuple[CampaignState, list[Event]]:
    """Start RR with 60 CPP for the German (test data: the Initial Scenario card's CPP are not in the seed), the
    German buys ``rg`` at 2.518, the Canadian nothing; then 2.519 runs."""
    ledgers = {GER: new_ledger(GER, {"CPP": 60}), CDN: new_ledger(CDN, {"CPP": 0})}
    state, events = sequence.start(rr(), dice, tracks={CDN: {"san": 3}, GER: {"san": 2}}, ledgers=ledgers)
    out = list(events)
    state, more = sequence.submit_order(rr(), state, GER, [RgOrder(r) for r in rg])
    out.extend(more)
    state, more = sequence.submit_order(rr(), state, CDN, [])
    out.extend(more)
    state, more = sequence.advance(rr(), state, dice)
    out.extend(more)
    return state, out


def test_a_company_leader_dr_of_12_keeps_both_rolls_and_pauses_2_519_for_the_german_only() -> None:
    # Strength DR 3+3 = 6 ≤ 8: Full. Company leader DR 6+6 = 12: the row lost in the seed.
    dice = FixedDice(3, 3, 6, 6)
    state, events = german_buys("I2", dice=dice)
    assert state.phase_ref == "2.519"
    rolls = [e for e in events if e.kind == "roll"]
    assert [(e.side, e.visibility, e.payload["dice"], e.payload["result"]) for e in rolls] == [
        (GER, Visibility.CG_END, [3, 3], "Full"), (GER, Visibility.CG_END, [6, 6], None),
    ]
    (need,) = sequence.needs(rr(), state, GER)
    assert (need.id, need.kind, need.side, need.table, need.table_ref, need.final, need.row, need.column) == (
        NEED, "table-value", GER, "company-leader", "2.5193", 12, "12", "leaders")
    assert need.shape == "leaders" and need.public is False
    assert "type it as printed" in need.text
    assert owes(rr(), state, GER) == (f"2.519 RG Strength, Weapons, and Leaders: {need.text}",)
    # the Canadian learns nothing of it: no need, no public need, nothing owed, no trace in his view
    assert sequence.needs(rr(), state, CDN) == ()
    assert sequence.public_needs(rr(), state, CDN) == ()
    assert owes(rr(), state, CDN) == ()
    seen = json.dumps(view_for(rr(), state, CDN))
    assert "value-needed" not in seen and "table-value" not in seen and "company-leader|" not in seen
    own: Any = view_for(rr(), state, GER)
    assert [n["id"] for n in own["phase"]["needs"]] == [NEED]
    # advancing again rolls nothing and does not move on
    again, more = sequence.advance(rr(), state, FixedDice())
    assert (again, more) == (state, ())
    assert CampaignState.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("typed,message", [
    ("12", "this column lists leaders"),
    ("9-1, eight", "not a leader: eight"),
    ("", "got nothing"),
])
def test_a_typed_value_must_have_the_shape_of_its_column(typed: str, message: str) -> None:
    state, _ = german_buys("I2", dice=FixedDice(3, 3, 6, 6))
    with pytest.raises(SubmissionError, match=message):
        sequence.supply(rr(), state, GER, NEED, typed)
    with pytest.raises(SubmissionError, match="is not needed now"):
        sequence.supply(rr(), state, CDN, NEED, "9-1, 8-0")


def test_the_typed_leaders_finish_2_519_with_the_rolls_already_made() -> None:
    state, _ = german_buys("I2", dice=FixedDice(3, 3, 6, 6))
    state, events = sequence.supply(rr(), state, GER, NEED, "9-1, 8-0")
    line = state.ledgers[GER].purchases[0]
    assert (line.rg_id, line.strength, line.leaders, line.rolled) == ("I2", "F", ("9-1", "8-0"), True)
    kinds = [e.kind for e in events]
    assert "roll" not in kinds  # nothing rolled again
    supplied = next(e for e in events if e.kind == "value-supplied")
    assert (supplied.visibility, supplied.side, supplied.payload["value"]) == (Visibility.CG_END, GER, "9-1, 8-0")
    resolved = next(e for e in events if e.kind == "roll-resolved")
    assert (resolved.payload["dice"], resolved.payload["leaders"], resolved.payload["supplied"]) == ([6, 6], ["9-1", "8-0"], True)
    assert state.supplied_cells[GER] == {"company-leader|11|leaders": ["9-1", "8-0"]}
    assert sequence.needs(rr(), state, GER) == ()
    state, _ = sequence.advance(rr(), state, FixedDice())
    assert state.phase_ref == "2.520"
    # revealed at CG end for audit, and only then to the Canadian
    assert "9-1, 8-0" not in json.dumps(view_for(rr(), state, CDN))
    ended, _ = sequence.end_cg(rr(), state, "mutual-agreement")
    assert "9-1, 8-0" in json.dumps(view_for(rr(), ended, CDN))


def test_a_resume_that_needs_new_rolls_waits_for_advance_and_later_lookups_use_the_typed_value() -> None:
    # I2: strength 3+3 Full, leaders 6+6 = 12 (lost) → typed "9-1, 8-0"; I3 then: strength 2+2 Full, leaders 6+6 = 12
    # again: the German's typed value is used without a pause.
    state, _ = german_buys("I2", "I3", dice=FixedDice(3, 3, 6, 6))
    state, events = sequence.supply(rr(), state, GER, NEED, "9-1, 8-0")
    assert [e.kind for e in events] == ["value-supplied"]  # I3 needs new rolls: advance resumes it
    assert state.phase_ref == "2.519" and state.pending[GER]
    dice = FixedDice(2, 2, 6, 6)
    state, events = sequence.advance(rr(), state, dice)
    assert dice.remaining == 0
    assert [p.leaders for p in state.ledgers[GER].purchases] == [("9-1", "8-0"), ("9-1", "8-0")]
    assert [e.payload["dice"] for e in events if e.kind == "roll"] == [[2, 2], [6, 6]]
    assert state.phase_ref == "2.520" and not state.pending
    # the Canadian's own lookup of that cell is still lost: the value is the German's
    with pytest.raises(LostCellError):
        sequence._for_side(rr(), state, CDN).tables["company-leader"].cell(12)  # type: ignore[attr-defined]


RESULT = ScenarioResult(cvp={CDN: 5, GER: 12}, attacked={CDN: False, GER: True}, lvp={CDN: 7})


def test_a_public_escape_equipment_dr_on_the_lost_rows_3_4_is_kept_and_its_need_is_public() -> None:
    state, _ = german_buys(dice=FixedDice())
    while state.step != "initial-scenario":
        for side in (CDN, GER):
            if owes(rr(), state, side):
                state, _ = mark_step_done(rr(), state, side)
        state, _ = sequence.advance(rr(), state, FixedDice())
    for side in (CDN, GER):
        state, _ = mark_step_done(rr(), state, side)
    state, _ = sequence.advance(rr(), state, FixedDice())
    state, _ = submit_results(rr(), state, CDN, RESULT)
    state, _ = submit_results(rr(), state, GER, RESULT)
    while state.phase_ref != "2.506":
        for side in (GER, CDN):
            if owes(rr(), state, side):
                state, _ = mark_step_done(rr(), state, side)
        state, _ = sequence.advance(rr(), state, FixedDice())
    state, events = sequence.assisted_roll(rr(), state, CDN, "2.506", "escape-equipment", None, {}, FixedDice(3))
    (roll,) = [e for e in events if e.kind == "roll"]
    assert (roll.visibility, roll.payload["dice"], roll.payload["stream"]) == (Visibility.PUBLIC, [3], "public")
    (need,) = sequence.needs(rr(), state, CDN)
    assert (need.table, need.final, need.row, need.shape, need.public) == ("escape-equipment", 3, "3-4", "text", True)
    assert sequence.public_needs(rr(), state, GER) == (need,)
    with pytest.raises(SubmissionError, match="type it first"):
        mark_step_done(rr(), state, CDN)
    with pytest.raises(SubmissionError, match="type it first"):
        sequence.assisted_roll(rr(), state, CDN, "2.506", "escape-equipment", None, {}, FixedDice(1))
    state, events = sequence.supply(rr(), state, CDN, need.id, "Captured")
    result = next(e for e in events if e.kind == "table-result")
    assert (result.payload["original"], result.payload["result"]) == (3, "Captured")
    assert [e.kind for e in events if e.kind.startswith("roll")] == ["roll-resolved"]
    state, _ = mark_step_done(rr(), state, CDN)
    assert CDN in state.done
