"""Issue 14 item 9: an automatic step does not swallow its board part. RR 2.503: the app records the Current-LVP and
CG-LVP totals (2.5032-.5033), then 2.5031 Rally & Unloading is left to both players on the board (seed 001). PHD C5.25:
the app adjusts the SAN, then the Booby Trap Adjustment ("reduced to Level B") is left to the players (seed 003)."""
from __future__ import annotations

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_system
from rules_engine.sequence import mark_done
from tests.rules_engine.phase.test_sequence_phd import FIXTURES, GE, US, initial, phd
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, at, drive, owes, rr, through_initial


def test_rr_2_503_records_the_lvp_then_leaves_rally_and_unloading_to_both_players() -> None:
    state = through_initial(FixedDice())
    state, events = drive(rr(), state, FixedDice(), at("2.503"), (GER, CDN))
    state, events = sequence.advance(rr(), state, FixedDice())
    # the app's part is done: Current-LVP 7 (the results), CG-LVP 0 + 7 = 7 (2.5033)
    assert [e.payload["cg_lvp"] for e in [*events, *state.records] if e.kind == "lvp-recorded"] == [7]
    assert state.phase_ref == "2.503" and sequence.current_kind(rr(), state, rr().step("2.503")) == "on-board"
    assert owes(rr(), state, CDN) == ("2.503 Rally, Unloading, CG Scenario End, and CG-LVP Totals: do it on the board, "
                                      "then mark it done",)
    left = [e.payload["text"] for e in state.records if e.kind == "board-part"]
    assert len(left) == 1 and "2.5031 Rally & Unloading" in str(left[0]) and "rally automatically" in str(left[0])
    state, _ = mark_done(rr(), state, CDN)
    assert state.phase_ref == "2.503"  # the German has not finished the board part yet
    state, _ = mark_done(rr(), state, GER)
    state, events = sequence.advance(rr(), state, FixedDice())
    assert state.phase_ref == "2.504"
    assert [e.kind for e in events].count("lvp-recorded") == 0  # the automatic part ran once


def test_phd_c5_25_adjusts_the_san_then_leaves_the_booby_trap_adjustment_to_the_players() -> None:
    dice = FixedDice(1, 2, 1, 2, 3, 4, 3, 3)  # C5.23 DR 3 each (row "3-4", legible), then C5.29 after C5.25
    state = initial(dice)
    state, events = drive(phd(), state, dice, lambda s: s.phase_ref == "C5.25", (GE, US))
    state, more = sequence.advance(phd(), state, dice)
    # C4.2: German SAN 3, US SAN 2: both inside 2..4, unchanged by the app's part
    san = {e.payload["side"]: (e.payload["before"], e.payload["after"]) for e in state.records if e.kind == "san-adjusted"}
    assert san == {GE: (3, 3), US: (2, 2)}
    assert state.phase_ref == "C5.25"
    left = [str(e.payload["text"]) for e in state.records if e.kind == "board-part"]
    assert len(left) == 1 and "Booby Trap Level that is > Level B" in left[0]
    state, _ = mark_done(phd(), state, US)
    state, _ = mark_done(phd(), state, GE)
    state, _ = sequence.advance(phd(), state, dice)
    assert state.phase_ref == "C5.26"


def test_a_board_part_on_a_step_the_players_do_entirely_is_refused_by_the_loader() -> None:
    text = (FIXTURES / "rr.yaml").read_text(encoding="utf-8")
    start = text.index('ref: "2.504"')
    bad = text[:start] + text[start:].replace("    automation: assisted\n",
                                              "    automation: assisted\n    params: {board_part: rally}\n", 1)
    with pytest.raises(DefinitionErrors, match="only an automatic step has a board part"):
        parse_system(bad, "rr.yaml")


def test_phd_c5_41_announces_both_sans_then_leaves_the_sniper_counters_to_the_players() -> None:
    # C4.2 Initial OB: German SAN 3, US SAN 2; C5.41 "Each side announces its current SAN and places its Sniper Counter"
    state, _ = sequence.start(phd(), FixedDice())
    state, _ = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.41", (GE, US))
    state, _ = sequence.advance(phd(), state, FixedDice())
    announced = [e.payload["tracks"] for e in state.records if e.kind == "announced"]
    assert announced == [{GE: {"san": 3, "elr": 3}, US: {"san": 2, "elr": 4}}]
    assert [str(e.payload["text"]) for e in state.records if e.kind == "board-part"] == [
        "C5.41: now on the board — Each side places its Sniper Counter on the map."]
    state, _ = mark_done(phd(), state, GE)
    state, _ = mark_done(phd(), state, US)
    assert state.step == "initial-scenario"
