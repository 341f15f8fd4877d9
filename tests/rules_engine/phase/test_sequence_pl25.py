"""PL 2.5 with the example CG Card: the Initial Firefight starts at 2.2; the RePh 3.x with automatic 3.44/3.45/3.47;
2.1 CP Replenishment with its DRM from the records; an Idle Firefight runs only 3.41, 3.46, 3.461, 3.52 then 2.1.
Table values typed by hand from seed 000 (2.12, 3.44 table, 3.47) — the card's DRMs are the example card's.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.events import Event
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, owes
from rules_engine.state import CampaignState, ScenarioResult
from tests.rules_engine.phase.test_sequence_rr import drive, refs

AL, AX = "allied", "axis"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
# 3.45: how many leaders each side Generates (a side's choice; 0 here). 3.47's Elite / 1st Line platoon counts are read
# from the RG Purchase Record (none bought in these scripts), so they are no longer asked.
NOT_DERIVED = {"leaders_generated": 0}


@cache
def pl() -> System:
    base = parse_system((FIXTURES / "pl25.yaml").read_text(), "pl25.yaml")
    return parse_card((FIXTURES / "cards" / "example-pl25.yaml").read_text(), "example-pl25.yaml", base)


def results_for(kind: str, events: list[Event]) -> dict[str, tuple[int, str]]:
    return {str(e.payload["side"]): (int(str(e.payload["final"])), str(e.payload["result"]))
            for e in events if e.kind == "table-result" and e.payload["step"] == kind}


def through_firefight_1(dice: FixedDice) -> tuple[CampaignState, list[Event]]:
    state, _ = sequence.start(pl(), dice)
    state, _ = drive(pl(), state, dice, lambda s: s.step == "results", (AX, AL))
    result = ScenarioResult(cvp={AL: 14, AX: 25}, attacked={AL: True, AX: False}, winner=AX)
    state, _ = submit_results(pl(), state, AL, result)
    state, _ = submit_results(pl(), state, AX, result)
    return drive(pl(), state, dice, lambda s: s.phase_ref == "2.3", (AX, AL), NOT_DERIVED)


def test_the_initial_firefight_starts_at_2_2_without_cp_replenishment() -> None:
    state, _ = sequence.start(pl(), FixedDice())
    # 2.8 Firefight Commencement and 2.9 CG Firefight End happen while the firefight is played: not steps before it
    assert refs(pl(), state) == [
        "2.2", "2.3", "2.31", "2.35", "2.36", "2.38", "2.4", "2.41", "2.6", "2.7", "@initial-scenario",
    ]
    assert (state.phase_ref, state.date_id) == ("2.3", "1")  # 2.2 weather was looked up automatically
    assert [e.payload["weather"] for e in state.records if e.kind == "weather"] == ["Clear"]
    assert (dict(state.tracks[AL]), dict(state.tracks[AX])) == ({"san": 3, "elr": 3}, {"san": 2, "elr": 4})


def test_the_card_assigns_the_initial_attacker_so_the_axis_sets_up_first_at_2_6() -> None:
    state, _ = sequence.start(pl(), FixedDice())
    state, _ = drive(pl(), state, FixedDice(), lambda s: s.phase_ref == "2.6", (AX, AL))
    assert [e.payload["label"] for e in state.records if e.kind == "initiative-assigned"] == ["Allied Side attack (assigned)"]
    with pytest.raises(SubmissionError, match="Axis Side goes first"):
        mark_done(pl(), state, AL)
    assert owes(pl(), state, AX) == ("2.6 Firefight Setup: do it on the board, then mark it done",)


def test_the_reph_rolls_3_44_3_45_and_3_47_with_drm_from_the_results() -> None:
    _, events = through_firefight_1(FixedDice(*([3] * 40)))
    # 3.44 (dr 3): Allied no DRM → 3 → "2-3" = 2; Axis won (−1) and amassed 25 CVP (−1 per 20) → 1 → 3 MMC.
    assert results_for("3.44", events) == {AL: (3, "2"), AX: (1, "3")}
    # 3.45: +2, CVP drm ignored: Allied 5 → "4-5" = 1; Axis 3 − 1 (won) + 2 = 4 → 1.
    assert results_for("3.45", events) == {AL: (5, "1"), AX: (4, "1")}
    # 3.47 (DR 6): Allied +2 (attacked) +1 (one firefight, no Idle) = 9; Axis −1 (won) +1 = 6 → no change.
    assert results_for("3.47", events) == {AL: (9, "0"), AX: (6, "0")}


def test_2_1_cp_replenishment_uses_the_mid_column_and_the_previous_firefight() -> None:
    state, events = through_firefight_1(FixedDice(*([3] * 40)))
    # DR 6. Allied: +1 Attack Option previous, −2 (25 CVP suffered) → 5 → Mid 22.
    # Axis: HIST/CP DRM −1 (card), −1 (14 CVP suffered) → 4 → Mid 23.
    amounts = {e.side: e.payload["amount"] for e in events if e.kind == "replenished"}
    assert amounts == {AL: "22", AX: "23"}
    assert (str(state.ledgers[AL].balance("CP")), str(state.ledgers[AX].balance("CP"))) == ("22", "23")
    assert state.date_id == "2"


def test_an_idle_firefight_runs_only_3_41_3_46_3_461_3_52_then_2_1() -> None:
    dice = FixedDice(*([3] * 60))
    state, _ = through_firefight_1(dice)
    # nobody buys the Attack Option for firefight 2 → 2.41 Idle Firefight
    state, events = drive(pl(), state, dice, lambda s: s.pass_kind == "idle", (AX, AL))
    assert [e.payload["label"] for e in events if e.kind == "chits-revealed"] == ["Idle Firefight"]
    assert refs(pl(), state) == [
        "3.41", "3.46", "3.461", "3.52", "@new-date", "2.1", "2.2", "2.3", "2.31", "2.35", "2.36", "2.38", "2.4", "2.41",
    ]
    state, events = drive(pl(), state, dice, lambda s: s.phase_ref == "2.3", (AX, AL))
    assert not [e for e in events if e.kind == "table-result" and e.payload["step"] == "3.41"]  # no FSR disease
    assert state.date_id == "3"
    # 2.1 after the Idle Firefight: no Attack Option, no CVP. Allied 6 → Mid 21; Axis 6 − 1 → 5 → Mid 22.
    assert {e.side: e.payload["amount"] for e in events if e.kind == "replenished"} == {AL: "21", AX: "22"}
    assert [r.kind for r in state.history] == ["initial", "idle"]
