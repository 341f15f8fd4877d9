"""Values lost in the rule text are settled before play (issue 9 item 2): ``needed_values`` lists every one a campaign
could need, with its rule number and printed chart; ``settle`` checks the typed values; the campaign's system is built
``with_cells`` of them, and a roll never pauses — a roll on an unsupplied value is a domain error.

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

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.events import Event
from rules_engine.ledger import new_ledger
from rules_engine.loader import parse_system
from rules_engine.lost_values import MAX_NUMBER, UnsuppliedValueError, needed_values, parse_value, settle, with_cells
from rules_engine.model import System
from rules_engine.purchases import RgOrder
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, owes
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import Visibility

CDN, GER = "canadian", "german"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
NEED = "table-value:company-leader|11|leaders"  # the 12th row (index 11) of 2.5193, the Leader Received column


@cache
def rr() -> System:
    return parse_system((FIXTURES / "rr.yaml").read_text(), "rr.yaml")


def german_buys(*rg: str, dice: FixedDice, system: System | None = None) -> tuple[CampaignState, list[Event]]:
    """Start RR with 60 CPP for the German (test data: the Initial Scenario card's CPP are not in the seed), the
    German buys ``rg`` at 2.518, the Canadian nothing; then 2.519 runs."""
    sys_ = system or rr()
    ledgers = {GER: new_ledger(GER, {"CPP": 60}), CDN: new_ledger(CDN, {"CPP": 0})}
    state, events = sequence.start(sys_, dice, tracks={CDN: {"san": 3}, GER: {"san": 2}}, ledgers=ledgers)
    out = list(events)
    state, more = sequence.submit_order(sys_, state, GER, [RgOrder(r) for r in rg])
    out.extend(more)
    state, more = sequence.submit_order(sys_, state, CDN, [])
    out.extend(more)
    state, more = sequence.advance(sys_, state, dice)
    out.extend(more)
    return state, out


TYPED = {"company-leader|11|leaders": "9-1, 8-0", "escape-equipment|1|result": "Captured"}  # TEST DATA (see above)


def test_rr_needs_its_two_lost_rows_named_by_rule_number_and_chart() -> None:
    needed = needed_values(rr())
    assert [(v.key, v.table_ref, v.row, v.column, v.shape) for v in needed] == [
        ("escape-equipment|1|result", "2.5061", "3-4", "result", "text"),
        ("company-leader|11|leaders", "2.5193", "12", "leaders", "leaders"),
    ]
    assert needed[1].label == "2.5193 Company Leader Allotment Table (RG Note L), final DR 12, Leader Received"


def test_settling_refuses_a_missing_value_a_wrong_shape_and_an_unknown_key_one_line_each() -> None:
    with pytest.raises(SubmissionError) as caught:
        settle(rr(), {"company-leader|11|leaders": "12", "nothing|0|x": "1"})
    lines = str(caught.value).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("not a value lost in the rule text of this CG: nothing|0|x")
    assert lines[1].startswith("2.5061 Escape Results") and "type it as printed" in lines[1]
    assert lines[2].startswith("2.5193 Company Leader Allotment Table") and "this column lists leaders" in lines[2]
    assert settle(rr(), TYPED) == {"company-leader|11|leaders": ["9-1", "8-0"], "escape-equipment|1|result": "Captured"}


@pytest.mark.parametrize("shape,typed,message", [
    ("number", "1001", "out of range"),
    ("number", "9" * 40, "type a number as printed"),
    ("leaders", ", ".join(["8-0"] * 11), "at most 10 leaders"),
    ("text", "x" * 201, "1 to 200 characters"),
])
def test_a_typed_value_is_bounded(shape: str, typed: str, message: str) -> None:
    assert MAX_NUMBER == 1000
    with pytest.raises(SubmissionError, match=message):
        parse_value(shape, typed, "2.5193")


def test_a_company_leader_dr_of_12_uses_the_settled_leaders_without_a_pause() -> None:
    # Strength DR 3+3 = 6 ≤ 8: Full. Company leader DR 6+6 = 12: the row lost in the seed, settled as "9-1, 8-0".
    system = with_cells(rr(), settle(rr(), TYPED))
    state, events = german_buys("I2", dice=FixedDice(3, 3, 6, 6), system=system)
    assert state.phase_ref == "2.520" and not state.pending
    line = state.ledgers[GER].purchases[0]
    assert (line.rg_id, line.strength, line.leaders, line.rolled) == ("I2", "F", ("9-1", "8-0"), True)
    assert not any(e.kind in ("value-needed", "value-supplied") for e in events)
    assert sequence.needs(system, state, GER) == () and sequence.needs(system, state, CDN) == ()
    assert CampaignState.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_a_roll_on_an_unsupplied_lost_value_is_refused_not_paused() -> None:
    with pytest.raises(UnsuppliedValueError, match="was not supplied before the campaign started"):
        german_buys("I2", dice=FixedDice(3, 3, 6, 6))


def test_settled_values_are_the_same_for_both_sides() -> None:
    system = with_cells(rr(), settle(rr(), TYPED))
    assert system.tables["company-leader"].cell(12, "leaders").value == ("9-1", "8-0")
    assert system.tables["escape-equipment"].cell(3).value == "Captured"
    assert needed_values(system) == ()


RESULT = ScenarioResult(cvp={CDN: 5, GER: 12}, attacked={CDN: False, GER: True}, lvp={CDN: 7})


def at_escape_step(system: System) -> CampaignState:
    """RR from the start to 2.506 Escape of the first cycle (after the Initial Scenario's results)."""
    state, _ = german_buys(dice=FixedDice(), system=system)
    while state.step != "initial-scenario":
        for side in (CDN, GER):
            if owes(system, state, side):
                state, _ = mark_done(system, state, side)
        state, _ = sequence.advance(system, state, FixedDice())
    for side in (CDN, GER):
        state, _ = mark_done(system, state, side)
    state, _ = sequence.advance(system, state, FixedDice())
    state, _ = submit_results(system, state, CDN, RESULT)
    state, _ = submit_results(system, state, GER, RESULT)
    while state.phase_ref != "2.506":
        for side in (GER, CDN):
            if owes(system, state, side):
                state, _ = mark_done(system, state, side)
        state, _ = sequence.advance(system, state, FixedDice())
    return state


def test_a_public_escape_equipment_dr_on_the_lost_rows_3_4_gives_the_settled_result() -> None:
    system = with_cells(rr(), settle(rr(), TYPED))
    state = at_escape_step(system)
    state, events = sequence.assisted_roll(system, state, CDN, "2.506", "escape-equipment", None, {}, FixedDice(3))
    (roll,) = [e for e in events if e.kind == "roll"]
    assert (roll.visibility, roll.payload["dice"], roll.payload["stream"]) == (Visibility.PUBLIC, [3], "public")
    result = next(e for e in events if e.kind == "table-result")
    assert (result.payload["original"], result.payload["result"]) == (3, "Captured")
    assert sequence.needs(system, state, CDN) == ()
    state, _ = mark_done(system, state, CDN)
    assert CDN in state.done
    assert "value-needed" not in json.dumps(view_for(system, state, GER))


def test_an_escape_dr_reads_the_night_fact_from_the_calendar_only_in_the_column_it_applies_to() -> None:
    """2.506 "-1 if current CG Date is Night" (NA to vehicles): the Infantry column's DRM reads the date's night fact
    (19 AM is a day date: no DRM); the Mobile Vehicle column reads no fact at all, and rolls the same."""
    system = with_cells(rr(), settle(rr(), TYPED))
    state = at_escape_step(system)
    for column in ("infantry", "vehicle"):
        _, events = sequence.assisted_roll(system, state, CDN, "2.506", "escape", column, {0: True}, FixedDice(4, 5))
        result = next(e for e in events if e.kind == "table-result")
        assert (result.payload["column"], result.payload["final"]) == (column, 8)
        assert [m["reason"] for m in result.payload["modifiers"]] == ["-1 if lone, unwounded SMC"]
