"""RR 2.5 Refit Phase as a checklist: the †† steps before the Initial Scenario, the RePh after it, an Idle Date loop
(2.503, 2.512–2.522 again) and the next CG Date. Expectations typed by hand from seed 001 (2.501–2.525, 2.5161).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.events import Event
from rules_engine.loader import parse_system
from rules_engine.model import System
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, owes
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import Chit, Visibility

CDN, GER = "canadian", "german"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@cache
def rr() -> System:
    return parse_system((FIXTURES / "rr.yaml").read_text(), "rr.yaml")


def refs(system: System, state: CampaignState) -> list[str]:
    return [str(item["ref"]) for item in sequence.checklist(system, state)]


def drive(
    system: System, state: CampaignState, dice: FixedDice, stop: Callable[[CampaignState], bool],
    sides: tuple[str, ...],
    supplies: Mapping[str, int | bool] | None = None,
) -> tuple[CampaignState, list[Event]]:
    """Mark every on-board/assisted/input step done (sides in ``sides`` order), supply what an automatic step needs
    from ``supplies``, and advance, until ``stop``."""
    events: list[Event] = []
    for _ in range(200):
        if stop(state):
            return state, events
        moved = False
        for side in sides:
            wanted = tuple(n.id for n in sequence.needs(system, state, side))
            if wanted == ("roll-answers",) and (supplies is None or "roll-answers" not in supplies):
                state, more = sequence.supply(system, state, side, {"roll-answers": {}})  # no tick (issue 14 item 7)
                events.extend(more)
                moved = True
            elif wanted and supplies is not None and all(w in supplies for w in wanted):
                state, more = sequence.supply(system, state, side, {w: supplies[w] for w in wanted})
                events.extend(more)
                moved = True
            elif owes(system, state, side) and not wanted and state.step not in ("results", "initiative"):
                state, more = mark_done(system, state, side)
                events.extend(more)
                moved = True
        state, more = sequence.advance(system, state, dice)
        events.extend(more)
        if not moved and not more and not stop(state):
            raise AssertionError(f"stuck at {state.step} {state.phase_ref}: {[owes(system, state, s) for s in sides]}")
    raise AssertionError("no end")


def at(ref: str) -> Callable[[CampaignState], bool]:
    return lambda state: state.phase_ref == ref


RESULT = ScenarioResult(cvp={CDN: 5, GER: 12}, attacked={CDN: False, GER: True}, lvp={CDN: 7})


def through_initial(dice: FixedDice, san: tuple[int, int] = (3, 2)) -> CampaignState:
    """Start, the †† steps with no purchases, the Initial Scenario played, results agreed (German attacked)."""
    state, _ = sequence.start(rr(), dice, tracks={CDN: {"san": san[0]}, GER: {"san": san[1]}})
    state, _ = drive(rr(), state, dice, lambda s: s.step == "results", (CDN, GER))
    state, _ = submit_results(rr(), state, CDN, RESULT)
    state, _ = submit_results(rr(), state, GER, RESULT)
    return state


def test_only_the_double_dagger_steps_2_518_to_2_520_come_before_the_initial_scenario() -> None:
    state, events = sequence.start(rr(), FixedDice(), tracks={CDN: {"san": 3}, GER: {"san": 2}})
    assert refs(rr(), state) == ["2.518", "2.519", "2.520", "@initial-scenario"]
    assert (state.step, state.phase_ref, state.date_id) == ("phase", "2.518", "19 AM")
    assert owes(rr(), state, CDN) == ("2.518 Purchasing Reinforcement Groups: submit your order (or finish with none)",)
    assert [e.kind for e in events] == ["campaign-started"]  # no roll before the Initial Scenario


def test_after_the_initial_scenario_the_reph_runs_2_501_to_2_511_then_the_new_date_to_2_522() -> None:
    state = through_initial(FixedDice())
    assert refs(rr(), state) == [
        "@results", "2.501", "2.502", "2.503", "2.504", "2.505", "2.506", "2.507", "2.508", "2.509", "2.510", "2.511",
        "@new-date", "2.512", "2.513", "2.514", "2.515", "2.516", "2.517", "2.518", "2.519", "2.520", "2.521", "2.522",
    ]
    assert state.phase_ref == "2.501"


def test_2_501_melee_is_done_attacker_first_the_german_attacked() -> None:
    state = through_initial(FixedDice())
    with pytest.raises(SubmissionError, match="German goes first") as error:
        mark_done(rr(), state, CDN)
    assert error.value.ref == "2.501"
    assert owes(rr(), state, CDN) == ()
    state, _ = mark_done(rr(), state, GER)
    assert owes(rr(), state, CDN) == ("2.501 Conclusion of Melee: do it on the board, then mark it done",)
    state, _ = mark_done(rr(), state, CDN)
    assert state.phase_ref == "2.502"


def test_2_503_records_the_canadian_current_and_cg_lvp_totals() -> None:
    state = through_initial(FixedDice())
    state, events = drive(rr(), state, FixedDice(), at("2.504"), (GER, CDN))
    lvp = [e.payload for e in events if e.kind == "lvp-recorded"]
    assert lvp == [{"date": "19 AM", "step": "2.503", "side": CDN, "current_lvp": 7, "cg_lvp": 7, "carried": False}]
    assert state.ledgers[CDN].roster_line("19 AM").lvp_cg == 7  # type: ignore[union-attr]


def test_19_pm_cpp_replenishment_is_the_base_number_minus_a_secret_dr() -> None:
    # 2.5161 19 PM base numbers: Canadian 40, German 80. DR: Canadian 4+5 = 9, German 6+6 = 12.
    dice = FixedDice(4, 5, 6, 6)
    state = through_initial(dice)
    state, events = drive(rr(), state, dice, at("2.518"), (GER, CDN))
    assert state.date_id == "19 PM"
    assert (str(state.ledgers[CDN].balance("CPP")), str(state.ledgers[GER].balance("CPP"))) == ("31", "68")
    rolls = [e for e in events if e.kind == "roll"]
    assert [(e.side, e.visibility, e.payload["stream"], e.payload["dice"]) for e in rolls] == [
        (CDN, Visibility.CG_END, CDN, [4, 5]), (GER, Visibility.CG_END, GER, [6, 6]),
    ]
    weather = [e.payload for e in events if e.kind == "weather"]
    assert [(w["ec"], w["weather"]) for w in weather] == [("Wet/Soft Ground", "Overcast")]
    # the German sees nothing of the Canadian CPP: not in his view, only public roster columns of the opponent
    seen: Any = json.loads(json.dumps(view_for(rr(), state, GER)))
    assert set(seen["opponent_ledger"]) == {"side", "roster"}
    for line in seen["opponent_ledger"]["roster"]:
        assert not {"start", "replenished", "spent", "left", "purchased", "recon", "fortifications"} & set(line)
    assert all(r["side"] != CDN or r["visibility"] == "public" for r in seen["records"])
    assert "31" not in json.dumps(seen["opponent_ledger"])


@pytest.mark.parametrize("dr,after", [(2, 7), (3, 5)])
def test_2_5122_a_san_above_5_rolls_a_dr_plus_san_minus_4_and_a_final_above_5_loses_two(dr: int, after: int) -> None:
    # German SAN 7: drm +3; dr 2 → Final 5 (not > 5) keeps 7; dr 3 → Final 6 > 5 → 7 − 2 = 5.
    dice = FixedDice(dr, 1, 1, 1, 1)
    state = through_initial(dice, san=(1, 7))
    state, events = drive(rr(), state, dice, at("2.513"), (GER, CDN))
    adjusted = {e.payload["side"]: (e.payload["before"], e.payload["after"]) for e in events if e.kind == "san-adjusted"}
    assert adjusted == {CDN: (1, 2), GER: (7, after)}  # the Canadian SAN 1 (< 2) is raised to 2 without a roll
    assert state.tracks[GER]["san"] == after


def test_an_idle_date_repeats_2_503_and_2_512_to_2_522_for_the_next_date() -> None:
    dice = FixedDice(*([1] * 12))
    state = through_initial(dice)
    state, _ = drive(rr(), state, dice, lambda s: s.step == "initiative", (GER, CDN))
    assert (state.date_id, state.phase_ref) == ("19 PM", "2.522")
    state, _ = sequence.submit_chit(rr(), state, CDN, Chit.IDLE, dice)
    state, events = sequence.submit_chit(rr(), state, GER, Chit.IDLE, dice)
    assert "idle" in [e.kind for e in events]
    assert refs(rr(), state) == [
        "2.503", "@new-date", "2.512", "2.513", "2.514", "2.515", "2.516", "2.517", "2.518", "2.519", "2.520",
        "2.521", "2.522",
    ]
    # 2.503 on the Idle Date: no scenario changed control, the Current-LVP 7 carries; CG-LVP 7 + 7 = 14.
    assert [e.payload["cg_lvp"] for e in events if e.kind == "lvp-recorded"] == [14]
    # 2.5031 Rally & Unloading is left to the players on the board (issue 14 item 9): 2.503 waits for both.
    assert (state.phase_ref, sequence.current_kind(rr(), state, rr().step("2.503"))) == ("2.503", "on-board")
    assert state.date_id == "19 PM"
    state, _ = mark_done(rr(), state, CDN)
    state, events = mark_done(rr(), state, GER)
    state, _ = sequence.advance(rr(), state, dice)
    assert state.date_id == "19 Night"  # 2.512 began the next CG Date
    state, _ = drive(rr(), state, dice, lambda s: s.step == "initiative", (GER, CDN))
    # 2.5161 19 PM then 19 Night, each minus DR 1+1: Canadian (40 − 2) + (25 − 2) = 61, German (80 − 2) + (80 − 2) = 156.
    assert (str(state.ledgers[CDN].balance("CPP")), str(state.ledgers[GER].balance("CPP"))) == ("61", "156")
    assert [r.kind for r in state.history] == ["initial", "idle"]


def test_an_assault_prepares_the_scenario_with_2_523_in_set_up_order_then_the_scenario() -> None:
    dice = FixedDice(*([1] * 8))
    state = through_initial(dice)
    state, _ = drive(rr(), state, dice, lambda s: s.step == "initiative", (GER, CDN))
    state, _ = sequence.submit_chit(rr(), state, CDN, Chit.IDLE, dice)
    state, _ = sequence.submit_chit(rr(), state, GER, Chit.ATTACK, dice)  # German Assault: the Canadian sets up first
    assert refs(rr(), state) == ["2.523", "2.52322", "2.524", "2.525", "@scenario"]
    # 2.5232 in four parts: Isolated (2.52321) Canadian then German, then non-Isolated (2.52322) Canadian then German
    for part in ("2.523", "2.52322"):
        assert state.phase_ref == part
        with pytest.raises(SubmissionError, match="Canadian goes first"):
            mark_done(rr(), state, GER)
        state, _ = mark_done(rr(), state, CDN)
        state, _ = mark_done(rr(), state, GER)
    assert state.phase_ref == "2.524"
    # 2.524 "The sides take turns declaring one Location at a time, with the German player declaring first": with
    # Recon 2 (German) and 3 (Canadian) on this date's roster lines the turns go G, C, G, C, C.
    from rules_engine import recon_turns

    state = sequence.roster_update(state, GER, state.date_id, recon=2)
    state = sequence.roster_update(state, CDN, state.date_id, recon=3)
    step = rr().step("2.524")
    with pytest.raises(SubmissionError, match="the German declares now"):
        recon_turns.declare(rr(), state, step, CDN, "K5")
    state, _ = recon_turns.declare(rr(), state, step, GER, "K5")
    with pytest.raises(SubmissionError, match="the Canadian declares now"):
        recon_turns.declare(rr(), state, step, GER, "L6")
    for side, where in ((CDN, "M7"), (GER, "N8"), (CDN, "O9")):
        state, _ = recon_turns.declare(rr(), state, step, side, where)
    assert GER in state.done and state.phase_ref == "2.524"  # the German's 2 are declared; the Canadian has one left
    state, _ = recon_turns.declare(rr(), state, step, CDN, "P10")
    declared = [(e.payload["side"], e.payload["location"]) for e in state.records if e.kind == "recon-declared"]
    assert declared == [(GER, "K5"), (CDN, "M7"), (GER, "N8"), (CDN, "O9"), (CDN, "P10")]
    assert state.phase_ref == "2.525"
    with pytest.raises(SubmissionError, match="takes no Recon declarations"):
        recon_turns.declare(rr(), state, rr().step("2.525"), CDN, "Q1")


def test_the_phased_state_survives_a_json_round_trip() -> None:
    dice = FixedDice(4, 5, 6, 6)
    state = through_initial(dice)
    state, _ = drive(rr(), state, dice, at("2.518"), (GER, CDN))
    text = json.dumps(state.to_json())
    again = CampaignState.from_json(json.loads(text))
    assert again == state
    assert json.dumps(again.to_json()) == text


def test_2_521_recon_is_one_m3_purchase_with_the_extra_cpp_and_the_recon_dr_in_the_roster() -> None:
    # 19 PM: both CPP DR 1+1 (Canadian 40 − 2 = 38, German 80 − 2 = 78). German Recon with 1 extra CPP: 3 + 1 = 4 CPP
    # (M3 cost 3, note r); Recon dr 5 + 1 (x = 1) − 1 (the German attacked in the previous CG Scenario) = Final 5.
    dice = FixedDice(1, 1, 1, 1, 5)
    state = through_initial(dice)
    state, _ = drive(rr(), state, dice, at("2.521"), (GER, CDN))
    state, events = sequence.submit_recon(rr(), state, GER, 1, dice)
    line = state.ledgers[GER].purchases[-1]
    assert (line.rg_id, line.date_id, line.cost, line.extra, line.number_purchased, line.remaining) == (
        "M3", "19 PM", 4, 1, 1, 7)  # M3 CG Max 8
    roster = state.ledgers[GER].roster_line("19 PM")
    assert roster is not None
    assert (roster.purchased, roster.spent, roster.left, roster.recon) == ((("M3", 4),), 4, 74, 5)
    result = next(e for e in events if e.kind == "table-result")
    assert [(m["reason"], m["value"]) for m in result.payload["modifiers"]] == [  # type: ignore[union-attr]
        ("+x Spent x CPP extra (x ≤ 3)", 1), ("-1 Attacked in the previous CG Scenario", -1)]
    assert (result.payload["original"], result.payload["final"], result.visibility) == (5, 5, Visibility.SIDE)
    with pytest.raises(SubmissionError, match="extra CPP must be 0 to 3"):
        sequence.submit_recon(rr(), state, CDN, 4, dice)
