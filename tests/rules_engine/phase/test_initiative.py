"""RR 2.522 Initiative Determination: sealed chits, the matrix, the Dual Attack drs and the 2.5221 chit limits, played
through the one state machine (sequence.start, the phase's own actions).

Every expectation is typed by hand from the seed text (001, 2.522–2.525) and the catalog §2.6/§2.7, and the
Initiative definition is built here by hand; fixtures/rr.yaml gives only the sides, the calendar and the 2.522 step.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from rules_engine import sequence
from rules_engine.dice import CommittedDice, Dice, FixedDice, export_rolls, verify_export
from rules_engine.errors import SubmissionError
from rules_engine.events import Event, roll_from_event
from rules_engine.initiative import validate_chit
from rules_engine.loader import parse_system
from rules_engine.model import Initiative, MatrixCell, OrderRoll, OrderRollRow, System
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, submit_chit
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.vocabulary import Chit, DiceKind, Visibility

A, I = Chit.ATTACK, Chit.IDLE
CDN, GER = "canadian", "german"
RR_DATES = (
    "19 AM", "19 PM", "19 Night", "20 AM", "20 PM", "20 Night", "21 AM", "21 PM", "21 Night",
    "Interlude AM", "Interlude PM", "Interlude Night", "26 AM",
)  # catalog §2.6: 13 CG Dates
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
NO_RESULT = ScenarioResult(cvp={CDN: 0, GER: 0}, attacked={CDN: False, GER: False})


@cache
def _rr_file() -> System:
    return parse_system((FIXTURES / "rr.yaml").read_text(), "rr.yaml")


def rr_initiative() -> Initiative:
    """RR 2.522 as printed: the matrix, 2.5221 limits, the 2.5223a set-up dr and the 2.525 move dr."""
    return Initiative(
        ref="2.522",
        mode="chit",
        matrix={  # key: (German choice, Canadian choice)
            (A, A): MatrixCell("dual-attack", "Dual Attack"),
            (A, I): MatrixCell("axis-assault", "German Assault", setup_first=CDN, moves_first=GER),
            (I, A): MatrixCell("allied-assault", "Canadian Assault", setup_first=GER, moves_first=CDN),
            (I, I): MatrixCell("idle", "Idle Date"),
        },
        chit_limits={CDN: 2, GER: 6},
        chit_limits_ref="2.5221",
        initial_counts=False,
        dual_attack_setup=OrderRoll(
            "2.522", DiceKind.dr, CDN, (OrderRollRow(None, 3, CDN, "≤ 3"), OrderRollRow(4, None, GER, "4-6"))
        ),
        dual_attack_move=OrderRoll(
            "2.525", DiceKind.dr, CDN,
            (OrderRollRow(None, 4, GER, "≤ 4"), OrderRollRow(5, None, CDN, "> 4", interpreted=True, verify=True)),
        ),
    )


def rr_system(dates: Sequence[str] = RR_DATES, initiative: Initiative | None = None) -> System:
    """The RR CG as far as the initiative is concerned: its sides and ``dates``, one step (2.522), no idle loop."""
    full = _rr_file()
    return replace(full, steps=(full.step("2.522"),), idle=None, initiative=initiative or rr_initiative(),
                   calendar=tuple(c for c in full.calendar if c.id in dates))


RR = rr_system()


def finish_scenario(system: System, state: CampaignState, dice: Dice | None = None) -> CampaignState:
    """Both sides mark the scenario finished (those that have not yet) and enter the same results; the phase runs on to the next chit step."""
    dice = dice if dice is not None else FixedDice()
    for side in (CDN, GER):
        if state.step in ("initial-scenario", "scenario") and side not in state.done:
            state = sequence.advance(system, mark_done(system, state, side).state, dice).state
    for side in (CDN, GER):
        state = sequence.advance(system, submit_results(system, state, side, NO_RESULT).state, dice).state
    return state


def at_initial_scenario(system: System = RR) -> CampaignState:
    """The campaign started (sequence.start): the Initial Scenario on 19 AM is being played."""
    return sequence.start(system, FixedDice()).state


def after_initial_scenario(system: System = RR) -> CampaignState:
    """Both sides have finished the Initial Scenario and entered its results: the 19 PM initiative step."""
    return finish_scenario(system, at_initial_scenario(system))


def play_round(system: System, state: CampaignState, cdn: Chit, ger: Chit, *dice: int) -> CampaignState:
    """Both chits (Canadian first); for a Dual Attack the set-up and move drs; then both finish the scenario."""
    fixed = FixedDice(*dice)
    state, _ = submit_chit(system, state, CDN, cdn, fixed)
    state, _ = submit_chit(system, state, GER, ger, fixed)
    if state.step == "scenario":
        state = finish_scenario(system, state, fixed)
    return state


# (German chit, Canadian chit) → label, who sets up first, who moves first — typed from 2.5222 / 2.5223
PRINTED_MATRIX = [
    (A, A, "dual-attack", "Dual Attack", None, None),
    (A, I, "axis-assault", "German Assault", CDN, GER),
    (I, A, "allied-assault", "Canadian Assault", GER, CDN),
    (I, I, "idle", "Idle Date", None, None),
]


@pytest.mark.parametrize("ger,cdn,result,label,setup_first,moves_first", PRINTED_MATRIX)
@pytest.mark.parametrize("german_first", [False, True])
def test_each_pair_of_chits_gives_the_printed_matrix_result_whoever_submits_first(
    ger: Chit, cdn: Chit, result: str, label: str, setup_first: str | None, moves_first: str | None,
    german_first: bool,
) -> None:
    state = after_initial_scenario()
    order = [(GER, ger), (CDN, cdn)] if german_first else [(CDN, cdn), (GER, ger)]
    dice = FixedDice(6, 5)  # a Dual Attack set-up dr of 6: German sets up first; a move dr of 5: Canadian moves first
    state, first_events = submit_chit(RR, state, order[0][0], order[0][1], dice)
    assert state.last_round is None and state.step == "initiative"
    assert [e.kind for e in first_events] == ["chit-chosen", "chit-sealed"]
    state, events = submit_chit(RR, state, order[1][0], order[1][1], dice)
    revealed = state.last_round
    assert revealed is not None
    assert (revealed.date_id, revealed.result, revealed.label) == ("19 PM", result, label)
    assert dict(revealed.chits) == {GER: ger, CDN: cdn}
    if result == "dual-attack":
        assert (revealed.setup_first, revealed.moves_first) == (GER, CDN)  # the move dr is made as the scenario starts
        assert dice.remaining == 0
    else:
        assert (revealed.setup_first, revealed.moves_first) == (setup_first, moves_first)
        assert dice.remaining == 2  # no dr rolled
    reveal = [e for e in events if e.kind == "chits-revealed"]
    assert len(reveal) == 1 and reveal[0].visibility is Visibility.PUBLIC
    assert reveal[0].payload["chits"] == {GER: str(ger), CDN: str(cdn)}
    assert reveal[0].payload["label"] == label
    if result == "idle":
        assert (state.step, state.date_id) == ("initiative", "19 Night")  # 2.522: loop to the next CG Date
    else:
        assert (state.step, state.date_id) == ("scenario", "19 PM")


@pytest.mark.parametrize("dr,sets_up_first", [(1, CDN), (2, CDN), (3, CDN), (4, GER), (5, GER), (6, GER)])
def test_dual_attack_set_up_dr_of_3_or_less_lets_the_canadian_set_up_first(dr: int, sets_up_first: str) -> None:
    state = after_initial_scenario()
    dice = FixedDice(dr, 1)
    state, _ = submit_chit(RR, state, GER, A, dice)
    state, events = submit_chit(RR, state, CDN, A, dice)
    assert state.last_round is not None and state.last_round.setup_first == sets_up_first
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 2  # the set-up dr at the reveal, the move dr as the scenario starts
    roll = rolls[0]
    assert roll.visibility is Visibility.PUBLIC
    assert roll.payload["purpose"] == "2.522 Dual Attack set-up dr"
    assert (roll.payload["roller"], roll.payload["stream"], roll.payload["number"]) == (CDN, "public", 1)
    assert (roll.payload["kind"], roll.payload["dice"], roll.payload["total"]) == ("dr", [dr], dr)
    assert roll.payload["result"] == sets_up_first
    assert [r.dice for r in state.last_round.rolls] == [(dr,), (1,)]


@pytest.mark.parametrize("dr,moves_first", [(1, GER), (2, GER), (3, GER), (4, GER), (5, CDN), (6, CDN)])
def test_dual_attack_move_dr_above_4_lets_the_canadian_move_first(dr: int, moves_first: str) -> None:
    state = after_initial_scenario()
    state, _ = submit_chit(RR, state, GER, A, FixedDice())
    state, events = submit_chit(RR, state, CDN, A, FixedDice(2, dr))  # the move dr is made as the scenario starts
    assert state.step == "scenario"
    assert state.last_round is not None and state.last_round.moves_first == moves_first
    assert state.last_round.setup_first == CDN
    events = tuple(e for e in events if e.kind == "move-order" or e.payload.get("purpose") == "2.525 Dual Attack move-order dr")
    roll = events[0]
    assert roll.kind == "roll" and roll.visibility is Visibility.PUBLIC
    assert roll.payload["purpose"] == "2.525 Dual Attack move-order dr"
    assert roll.payload["verify"] is (dr >= 5)  # the "> 4" edge may be a lost ≥: flagged for checking
    assert events[1].kind == "move-order" and events[1].payload["moves_first"] == moves_first
    state = finish_scenario(RR, state)
    assert (state.step, state.date_id) == ("initiative", "19 Night")


def test_an_assault_has_no_move_order_dr() -> None:
    state = after_initial_scenario()
    state = play_round(RR, state, A, I)  # Canadian Assault
    state, _ = submit_chit(RR, state, CDN, I, FixedDice())
    state, _ = submit_chit(RR, state, GER, A, FixedDice())  # German Assault on 19 Night
    assert state.step == "scenario" and state.last_round is not None and state.last_round.rolls == ()
    assert not any(e.kind == "move-order" for e in state.records)


def test_the_canadian_side_may_play_only_two_attack_chits_per_cg() -> None:
    state = after_initial_scenario()
    state = play_round(RR, state, A, I)
    state = play_round(RR, state, A, I)
    assert dict(state.attack_chits_used) == {CDN: 2, GER: 0}
    with pytest.raises(SubmissionError) as error:
        validate_chit(RR, state, CDN, A)
    assert str(error.value) == (
        "The Canadian side has used its 2 Attack chits for this CG (2.5221); only Idle is allowed."
    )
    assert error.value.ref == "2.5221"
    with pytest.raises(SubmissionError):
        submit_chit(RR, state, CDN, A, FixedDice())
    validate_chit(RR, state, CDN, I)  # Idle is still allowed
    validate_chit(RR, state, GER, A)


def test_the_german_side_may_play_only_six_attack_chits_per_cg() -> None:
    state = after_initial_scenario()
    for _ in range(6):
        state = play_round(RR, state, I, A)
    assert dict(state.attack_chits_used) == {CDN: 0, GER: 6}
    assert state.date_id == "21 PM"
    with pytest.raises(SubmissionError, match=r"^The German side has used its 6 Attack chits for this CG \(2\.5221\)"):
        submit_chit(RR, state, GER, A, FixedDice())
    validate_chit(RR, state, CDN, A)


def test_a_dual_attack_uses_an_attack_chit_of_each_side() -> None:
    state = play_round(RR, after_initial_scenario(), A, A, 1, 1)
    assert dict(state.attack_chits_used) == {CDN: 1, GER: 1}


def test_the_initial_scenario_does_not_count_against_the_attack_chit_limits() -> None:
    state = at_initial_scenario()
    assert (state.date_id, state.step, state.initial) == ("19 AM", "initial-scenario", True)
    with pytest.raises(SubmissionError, match="only at Initiative Determination"):
        validate_chit(RR, state, CDN, A)  # no chit is placed before the Initial Scenario
    state = after_initial_scenario()
    assert dict(state.attack_chits_used) == {CDN: 0, GER: 0}
    state = play_round(RR, state, A, I)
    state = play_round(RR, state, A, I)  # both Canadian Attack chits are still available after it
    assert dict(state.attack_chits_used) == {CDN: 2, GER: 0}


def test_a_submitted_chit_is_final() -> None:
    state, _ = submit_chit(RR, after_initial_scenario(), CDN, I, FixedDice())
    for chit in (A, I):
        with pytest.raises(SubmissionError) as error:
            submit_chit(RR, state, CDN, chit, FixedDice())
        assert str(error.value) == "A submitted chit is final. (rule 2.5222)"


def test_a_third_chit_after_the_reveal_is_rejected() -> None:
    state = after_initial_scenario()
    state, _ = submit_chit(RR, state, CDN, A, FixedDice())
    state, _ = submit_chit(RR, state, GER, I, FixedDice())
    for side in (CDN, GER):
        for chit in (A, I):
            with pytest.raises(SubmissionError, match=r"chits for 19 PM have already been revealed \(Canadian Assault\)"):
                submit_chit(RR, state, side, chit, FixedDice())


def test_after_an_idle_date_the_next_chit_belongs_to_the_next_date() -> None:
    state = play_round(RR, after_initial_scenario(), I, I)
    assert (state.step, state.date_id, dict(state.sealed)) == ("initiative", "19 Night", {})
    state, _ = submit_chit(RR, state, GER, A, FixedDice())
    assert dict(state.sealed) == {GER: A}


def test_an_idle_date_on_the_last_date_ends_the_cg() -> None:
    system = rr_system(("19 AM", "19 PM"))
    state = play_round(system, after_initial_scenario(system), I, I)
    assert (state.step, state.ended) == ("ended", True)
    with pytest.raises(SubmissionError, match="The CG has ended"):
        validate_chit(system, state, CDN, I)


def test_a_chit_for_an_unknown_side_is_rejected() -> None:
    with pytest.raises(SubmissionError) as error:
        submit_chit(RR, after_initial_scenario(), "american", A, FixedDice())
    assert str(error.value) == "Unknown side 'american' (allowed: canadian, german)"


def test_an_unknown_chit_is_rejected() -> None:
    with pytest.raises(SubmissionError, match=r"Unknown Initiative chit 'defend' \(allowed: attack, idle\)"):
        validate_chit(RR, after_initial_scenario(), CDN, "defend")


def test_a_system_that_buys_its_attack_option_takes_no_chits() -> None:
    purchase = replace(rr_initiative(), mode="purchase", ref="2.4")
    system = rr_system(initiative=purchase)
    state = replace(after_initial_scenario(), step="initiative")
    with pytest.raises(SubmissionError, match=r"does not decide initiative with Attack/Idle chits \(initiative mode: purchase\)"):
        validate_chit(system, state, CDN, A)


def test_the_first_chit_is_told_to_the_opponent_only_as_sealed() -> None:
    for chit in (A, I):
        _, events = submit_chit(RR, after_initial_scenario(), CDN, chit, FixedDice())
        seen_by_german = [e.to_json() for e in events if e.visible_to(GER, cg_ended=False)]
        assert seen_by_german == [
            {"kind": "chit-sealed", "visibility": "public", "side": CDN, "payload": {"date": "19 PM", "side": CDN}}
        ]
        own = [e for e in events if e.visible_to(CDN, cg_ended=False) and e.kind == "chit-chosen"]
        assert own == [Event("chit-chosen", Visibility.SIDE, CDN, {"date": "19 PM", "side": CDN, "chit": str(chit)})]


def test_resolution_happens_exactly_once() -> None:
    dice = FixedDice(1, 6, 6)
    state, _ = submit_chit(RR, after_initial_scenario(), CDN, A, dice)
    state, events = submit_chit(RR, state, GER, A, dice)
    assert [e.kind for e in events].count("chits-revealed") == 1
    assert dice.remaining == 1 and len(dice.made) == 2  # the set-up dr and the move dr, once each
    assert dict(state.sealed) == {}


def test_a_cg_played_with_committed_dice_exports_rolls_that_verify() -> None:
    seed = bytes.fromhex("a1" * 32)
    dice = CommittedDice(seed, "campaign-7", ("cdn seed", "ger seed"))
    state, log = after_initial_scenario(), list[Event]()
    for _ in range(2):  # both Canadian Attack chits in Dual Attacks: a set-up dr and a move dr each (at the reveal)
        state, events = submit_chit(RR, state, GER, A, dice)
        log += events
        state, events = submit_chit(RR, state, CDN, A, dice)
        log += events
        state = finish_scenario(RR, state, dice)
    rolls = [roll_from_event(e) for e in log if e.kind == "roll"]
    assert [(r.stream, r.number) for r in rolls] == [("public", n) for n in range(1, 5)]
    assert all(e.visibility is Visibility.PUBLIC for e in log if e.kind == "roll")
    result = verify_export(export_rolls(seed, "campaign-7", ("cdn seed", "ger seed"), rolls))
    assert (result.ok, result.checked) == (True, 4)
    assert dice.counters == {"public": 5}
