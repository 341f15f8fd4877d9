"""PHD C5 Consolidation Phase: the Initial TM Scenario without a TP roll (I5), C4.2 "US Attack: German sets up first",
C5.29 TP Replenishment by side, and a Lull (C5.37) looping the ConPh into the next TM Scenario.
Values typed by hand from seed 003 (C4.2, C5.23, C5.29 table legible cells).
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.loader import parse_system
from rules_engine.model import System
from rules_engine.results import submit_results
from rules_engine.state import CampaignState, ScenarioResult, mark_step_done
from rules_engine.vocabulary import Chit
from tests.rules_engine.test_sequence_rr import drive, refs

GE, US = "german", "us"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@cache
def phd() -> System:
    return parse_system((FIXTURES / "phd.yaml").read_text(), "phd.yaml")


def initial(dice: FixedDice) -> CampaignState:
    state, _ = sequence.start(phd(), dice)
    state, _ = drive(phd(), state, dice, lambda s: s.step == "results", (GE, US))
    result = ScenarioResult(cvp={GE: 6, US: 9}, attacked={GE: False, US: True})
    state, _ = submit_results(phd(), state, GE, result)
    state, _ = submit_results(phd(), state, US, result)
    return state


def test_the_initial_tm_scenario_requisitions_without_a_tp_roll() -> None:
    state, events = sequence.start(phd(), FixedDice())
    assert refs(phd(), state) == [
        "C5.12", "C5.30", "C5.31", "C5.32", "C5.33", "C5.34", "C5.35", "C5.39", "C5.41", "@initial-scenario",
    ]
    state, more = drive(phd(), state, FixedDice(), lambda s: s.step == "initial-scenario", (GE, US))
    kinds = [e.kind for e in [*events, *more, *state.records]]
    assert "roll" not in kinds and "replenished" not in kinds  # I5: neither side rolls for TP
    assert (dict(state.tracks[GE]), dict(state.tracks[US])) == ({"elr": 3, "san": 3}, {"elr": 4, "san": 2})  # C4.2 OB


def test_c4_2_the_german_sets_up_first_in_the_initial_scenario() -> None:
    state, _ = sequence.start(phd(), FixedDice())
    state, _ = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.39", (GE, US))
    with pytest.raises(SubmissionError, match="German goes first"):
        mark_step_done(phd(), state, US)
    state, _ = mark_step_done(phd(), state, GE)
    state, _ = mark_step_done(phd(), state, US)
    assert state.phase_ref == "C5.41"


def test_c5_14_redeployment_goes_attacker_first_the_us_attacked() -> None:
    state = initial(FixedDice())
    state, _ = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.14", (GE, US))
    with pytest.raises(SubmissionError, match="US goes first"):
        mark_step_done(phd(), state, GE)


def test_a_lull_runs_the_conph_again_into_the_next_tm_scenario() -> None:
    # C5.23 DR 1+2 = 3 → "3-4": 2 MMC each. C5.29 (II): German DR 3+4 = 7 → 20 TP; US 3+3 = 6, +1 (Attack in the
    # Initial Scenario) = 7 → 30 TP. After the Lull: C5.23 again; C5.29 (III) no Attack: German 7 → 20, US 7 → 30.
    dice = FixedDice(1, 2, 1, 2, 3, 4, 3, 3, 1, 2, 1, 2, 3, 4, 3, 4)
    state = initial(dice)
    state, events = drive(phd(), state, dice, lambda s: s.step == "initiative", (GE, US))
    assert [(e.side, e.payload["result"]) for e in events if e.kind == "table-result" and e.payload["step"] == "C5.23"] \
        == [(GE, "2"), (US, "2")]
    assert (state.date_id, str(state.ledgers[GE].balance("TP")), str(state.ledgers[US].balance("TP"))) == ("II", "20", "30")
    state, _ = sequence.submit_chit(phd(), state, GE, Chit.IDLE, dice)
    state, revealed = sequence.submit_chit(phd(), state, US, Chit.IDLE, dice)
    assert [e.payload["label"] for e in revealed if e.kind == "chits-revealed"] == ["Lull Date"]
    assert state.pass_kind == "idle" and refs(phd(), state)[0] == "C5.1" and "C5.12" not in refs(phd(), state)
    state, _ = drive(phd(), state, dice, lambda s: s.step == "initiative", (GE, US))
    assert (state.date_id, str(state.ledgers[GE].balance("TP")), str(state.ledgers[US].balance("TP"))) == ("III", "40", "60")
    assert [r.kind for r in state.history] == ["initial", "idle"]
