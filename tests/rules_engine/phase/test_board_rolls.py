"""Public rolls at the board (rules_engine.board): RR 2.504's free rolls, the on-board default, the scenario's own rolls
(PL CG2 / KGP CG23 / ER CG21 Game End dr, KGP CG16 / ER CG13 Sniper choice dr, ER CG18 FPF Barrage drs).

Golden values typed from the seeds: s000:594 / s000:901 (PL 2.9, CG2: "If the moving player makes a Game End dr <= the
circled number in the current turn's box the CG Firefight ends immediately. After the first Game Turn that the firefight
could end, the player moving second receives a -1 drm."); s004:174-176 (KGP CG23: from Turn 6, +1 drm at night, "EX:
… Game Turn 7 in a daytime scenario, play ends immediately on a Game-End Original dr of ≤ 3"); s002:49 (ER CG21 "≤");
s002:33 / s004:158 (Sniper choice dr); s001 2.504 (2.5041–2.5044).
"""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest

from rules_engine import board, sequence
from rules_engine.dice import CommittedDice, FixedDice
from rules_engine.errors import DefinitionErrors, SubmissionError
from rules_engine.ledger import PurchaseLine, new_ledger
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.state import CampaignState, new_campaign
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import DiceKind, Visibility
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, at, drive, rr, through_initial

ROOT = Path(__file__).resolve().parents[3]
DR, dr = DiceKind.DR, DiceKind.dr


CARDS = ROOT / "tests" / "campaigns_app" / "cards"


@cache
def system(system_id: str, card: Path | None = None) -> System:
    base = parse_system((ROOT / "fixtures" / f"{system_id}.yaml").read_text(), f"{system_id}.yaml")
    return base if card is None else parse_card(card.read_text(), card.name, base)


def pl() -> System:
    return system("pl25", ROOT / "fixtures" / "cards" / "example-pl25.yaml")


def kgp() -> System:
    return system("kgp", CARDS / "kgp-test.yaml")  # TEST DATA calendar (the KGP CG Dates are not in the seed)


def er() -> System:
    return system("er", CARDS / "er-test.yaml")


def playing(sys_: System, night: bool = False) -> tuple[System, CampaignState]:
    """A campaign of ``sys_`` whose Initial Scenario is being played (its first calendar entry, day or night)."""
    if night:
        sys_ = replace(sys_, calendar=(replace(sys_.calendar[0], night=True), *sys_.calendar[1:]))
    state = replace(new_campaign(sys_), step="initial-scenario", pass_kind="initial",
                    phase_ref="@initial-scenario")
    return sys_, state


def at_2_504() -> CampaignState:
    dice = FixedDice()
    state = through_initial(dice)
    state, _ = drive(rr(), state, dice, at("2.504"), (GER, CDN))
    return state


# ------------------------------------------------------------------------------------------------ which steps offer it


def test_rr_2_504_offers_public_dr_and_dr_because_its_data_says_so() -> None:
    assert board.step_board_kinds(rr(), rr().step("2.504")) == (DR, dr)


def test_an_on_board_step_offers_both_kinds_by_default_and_a_step_with_its_own_tables_none() -> None:
    assert board.step_board_kinds(rr(), rr().step("2.501")) == (DR, dr)  # Conclusion of Melee: CC at the board
    assert board.step_board_kinds(rr(), rr().step("2.506")) == ()  # Escape: assisted, its own tables
    assert board.step_board_kinds(pl(), pl().step("3.17")) == (DR, dr)  # PL Encircled Units: 1TC each


def test_a_step_whose_rolls_are_secret_is_never_an_on_board_roll() -> None:
    assert board.step_board_kinds(rr(), rr().step("2.513")) == ()  # Shift: "A separate Secret DR"
    assert board.step_board_kinds(rr(), rr().step("2.516")) == ()  # CPP Replenishment: secret DR
    text = (ROOT / "fixtures" / "rr.yaml").read_text().replace(
        "    tables: [shift]\n", "    tables: [shift]\n    board_rolls: [DR]\n", 1)
    with pytest.raises(DefinitionErrors, match=r"steps\[12\]\.board_rolls: a step whose rolls are secret"):
        parse_system(text, "rr.yaml")


def test_board_rolls_name_dice_kinds_only() -> None:
    text = (ROOT / "fixtures" / "rr.yaml").read_text().replace("board_rolls: [DR, dr]", "board_rolls: [2d6]", 1)
    with pytest.raises(DefinitionErrors, match=r"board_rolls\[0\]: unknown dice kind '2d6' \(allowed: DR, dr\)"):
        parse_system(text, "rr.yaml")


def test_the_results_entry_offers_no_roll_at_the_board() -> None:
    state = at_2_504()
    assert board.board_kinds(rr(), state) == (DR, dr)
    results = replace(state, step="results", phase_ref="@results")
    assert board.board_kinds(rr(), results) == ()
    with pytest.raises(SubmissionError, match="No dice are rolled at the board at results"):
        board.board_roll(rr(), results, GER, "results", "DR", 1, "1TC", FixedDice(1, 1))


# ------------------------------------------------------------------------------------------------------- board rolls


def test_three_encircled_units_get_three_public_drs_with_the_purpose_and_the_roller() -> None:
    state = at_2_504()
    dice = FixedDice(3, 4, 6, 6, 1, 2)
    new, events = board.board_roll(rr(), state, GER, "2.504", "DR", 3, "  1TC Encircled   4-6-7 in 23Q5 ", dice)
    assert [(e.kind, e.visibility, e.payload["stream"], e.payload["roller"]) for e in events] == [
        ("roll", Visibility.PUBLIC, "public", GER)] * 3
    assert [e.payload["dice"] for e in events] == [[3, 4], [6, 6], [1, 2]]
    assert [e.payload["purpose"] for e in events] == [
        "2.504: 1TC Encircled 4-6-7 in 23Q5 (1 of 3)", "2.504: 1TC Encircled 4-6-7 in 23Q5 (2 of 3)",
        "2.504: 1TC Encircled 4-6-7 in 23Q5 (3 of 3)"]
    assert {e.payload["text"] for e in events} == {"1TC Encircled 4-6-7 in 23Q5"}
    assert new.board_log == events and dict(new.board_counts) == {GER: 3}
    assert dice.remaining == 0


def test_board_rolls_continue_the_public_stream_without_a_gap() -> None:
    state = at_2_504()
    seed = bytes(range(32))
    dice = CommittedDice(seed, "camp", ("a", "b"), {"public": 7, GER: 4})
    _, first = board.board_roll(rr(), state, CDN, "2.504", "dr", 2, "Bog removal Sherman in 12K4", dice)
    assert [e.payload["number"] for e in first] == [7, 8]
    assert dice.counters == {"public": 9, GER: 4}  # the German's secret stream is untouched


def test_each_side_sees_the_other_sides_board_rolls_in_its_view() -> None:
    state = at_2_504()
    state, _ = board.board_roll(rr(), state, GER, "2.504", "dr", 1, "Shock recuperation PzIV 3", FixedDice(5))
    for side in (CDN, GER):
        log = view_for(rr(), state, side)["board"]["log"]
        assert [(e["payload"]["text"], e["payload"]["dice"]) for e in log] == [("Shock recuperation PzIV 3", [5])]


@pytest.mark.parametrize(("purpose", "message"), [
    ("", "Say what the roll is for"),
    ("   ", "Say what the roll is for"),
    ("x" * 81, "The purpose is 81 characters long; at most 80 are allowed."),
    ("1TC\x07", "cannot be printed"),
    (None, "Say what the roll is for"),
])
def test_a_bad_purpose_is_refused_before_anything_is_rolled(purpose: object, message: str) -> None:
    state = at_2_504()
    dice = FixedDice(1, 1)
    with pytest.raises(SubmissionError, match=message):
        board.board_roll(rr(), state, GER, "2.504", "DR", 1, purpose, dice)
    assert dice.remaining == 2


@pytest.mark.parametrize(("kind", "count", "message"), [
    ("2d6", 1, "Choose the dice: DR or dr"),
    ("DR", 0, "a whole number from 1 to 12"),
    ("DR", 13, "a whole number from 1 to 12"),
    ("DR", "3", "a whole number from 1 to 12"),
    ("DR", True, "a whole number from 1 to 12"),
])
def test_the_dice_kind_and_count_are_checked(kind: str, count: object, message: str) -> None:
    with pytest.raises(SubmissionError, match=message):
        board.board_roll(rr(), at_2_504(), GER, "2.504", kind, count, "1TC", FixedDice(1, 1))


def test_a_roll_asked_for_at_another_step_is_refused() -> None:
    with pytest.raises(SubmissionError, match=r"asked for at '2.503', which is not the current step \(now: 2.504\)"):
        board.board_roll(rr(), at_2_504(), GER, "2.503", "DR", 1, "1TC", FixedDice(1, 1))


def test_the_log_starts_afresh_at_the_next_step() -> None:
    state = at_2_504()
    state, _ = board.board_roll(rr(), state, GER, "2.504", "dr", 1, "NTC A-P minefield", FixedDice(2))
    state, _ = drive(rr(), state, FixedDice(), at("2.505"), (GER, CDN))
    assert state.board_log == () and dict(state.board_counts) == {}
    assert board.board_kinds(rr(), state) == (DR, dr)  # 2.505 is on the board, nothing secret


# ------------------------------------------------------------------------------------------ PL 2.8 / 2.9 and the game end


def test_pl_2_8_and_2_9_are_played_during_the_firefight_not_before_it() -> None:
    assert "2.8" not in sequence.program(pl(), "scenario") and "2.9" not in sequence.program(pl(), "scenario")
    assert sequence.program(pl(), "scenario")[-3:] == ("2.6", "2.7", "@scenario")
    assert [s.ref for s in pl().steps if s.in_scenario] == ["2.8", "2.9"]
    assert pl().scenario_rolls[0].step == "2.9"


def test_scenario_rolls_are_offered_while_a_scenario_is_played_only() -> None:
    sys_, state = playing(pl())
    assert [r.id for r in board.scenario_rolls(sys_, state)] == ["game-end"]
    assert board.board_kinds(sys_, state) == (DR, dr)
    assert board.scenario_rolls(sys_, replace(state, step="results", phase_ref="@results")) == ()


@pytest.mark.parametrize(("die", "circled", "moving_second", "words"), [
    (2, 3, False, "dr 2 ≤ 3: the CG Firefight ends (2.9: play moves immediately to the Reorganization Phase)"),
    (3, 3, False, "dr 3 ≤ 3: the CG Firefight ends (2.9: play moves immediately to the Reorganization Phase)"),
    (4, 3, False, "dr 4 > 3: the CG Firefight continues"),
    (4, 3, True, "Final dr 3 (dr 4 −1) ≤ 3: the CG Firefight ends (2.9: play moves immediately to the "
                 "Reorganization Phase)"),
    (1, 0, False, "dr 1 > 0: the CG Firefight continues"),
])
def test_pl_cg2_game_end_dr_against_the_circled_number_typed(die: int, circled: int, moving_second: bool,
                                                            words: str) -> None:
    sys_, state = playing(pl())
    answers = {0: True} if moving_second else {}
    new, events = board.scenario_roll(sys_, state, "axis", "game-end", threshold=circled, answers=answers,
                                      dice=FixedDice(die))
    (event,) = events
    assert event.visibility is Visibility.PUBLIC and event.payload["stream"] == "public"
    assert event.payload["result"] == words
    assert event.payload["met"] is words.split(": ")[1].startswith("the CG Firefight ends")
    assert event.payload["purpose"] == "CG2 Game End dr, circled number in the current turn's box " + str(circled)
    assert new.board_log == events


def test_the_circled_number_is_typed_by_the_players_never_invented() -> None:
    sys_, state = playing(pl())
    dice = FixedDice(1)
    for missing in (None, ""):
        with pytest.raises(SubmissionError, match="type circled number in the current turn's box"):
            board.scenario_roll(sys_, state, "axis", "game-end", threshold=missing, dice=dice)
    with pytest.raises(SubmissionError, match=r"a whole number from 0 to 20 \(got 21\)"):
        board.scenario_roll(sys_, state, "axis", "game-end", threshold=21, dice=dice)
    with pytest.raises(SubmissionError, match=r"modifier 5 is not a question"):
        board.scenario_roll(sys_, state, "axis", "game-end", threshold=3, answers={5: True}, dice=dice)
    assert dice.remaining == 1


def test_kgp_cg23_is_made_from_turn_6_on() -> None:
    sys_, state = playing(kgp())
    with pytest.raises(SubmissionError, match="made from Turn 6 on .*; this is Turn 5"):
        board.scenario_roll(sys_, state, "us", "game-end", threshold=3, turn=5, dice=FixedDice(1))
    with pytest.raises(SubmissionError, match="type the Game Turn"):
        board.scenario_roll(sys_, state, "us", "game-end", threshold=3, dice=FixedDice(1))


@pytest.mark.parametrize(("night", "die", "words"), [
    (False, 3, "dr 3 ≤ 3: the scenario ends immediately"),  # the CG23 EX: Game Turn 7, daytime, Original dr ≤ 3
    (False, 4, "dr 4 > 3: the scenario continues"),
    (True, 3, "Final dr 4 (dr 3 +1) > 3: the scenario continues"),  # +1 drm to each CG Night scenario Game End dr
    (True, 2, "Final dr 3 (dr 2 +1) ≤ 3: the scenario ends immediately"),
])
def test_kgp_cg23_game_end_with_the_night_drm_from_the_calendar(night: bool, die: int, words: str) -> None:
    sys_, state = playing(kgp(), night=night)
    _, (event,) = board.scenario_roll(sys_, state, "german", "game-end", threshold=3, turn=7, dice=FixedDice(die))
    assert event.payload["result"] == words
    assert event.payload["turn"] == 7
    assert "lost ≤" in event.payload["caution"]  # as written "<": flagged for the players to check


def test_the_night_reinforcement_dr_is_offered_in_a_night_scenario_only() -> None:
    day_system, day = playing(kgp())
    night_system, night = playing(kgp(), night=True)
    assert "night-reinforcements" not in [r.id for r in board.scenario_rolls(day_system, day)]
    assert "night-reinforcements" in [r.id for r in board.scenario_rolls(night_system, night)]
    _, (event,) = board.scenario_roll(night_system, night, "us", "night-reinforcements", threshold=4,
                                      dice=FixedDice(4))
    assert event.payload["result"] == "dr 4 ≥ 4: they may not enter this RPh"  # as written: "< the current Game Turn"


def test_er_cg21_ends_on_a_dr_equal_to_the_circled_number() -> None:
    sys_, state = playing(er())
    _, (event,) = board.scenario_roll(sys_, state, "japanese", "game-end", threshold=2, turn=6, dice=FixedDice(2))
    assert event.payload["result"] == "dr 2 ≤ 2: the scenario ends immediately"
    assert "caution" not in event.payload  # "≤" is legible in seed 002


@pytest.mark.parametrize(("sys_name", "die", "result"), [
    ("kgp", 3, "the Sniper numbered 1 attacks"), ("kgp", 4, "the Sniper numbered 2 attacks"),
    ("er", 1, "the Sniper numbered 1 attacks"), ("er", 6, "the Sniper numbered 2 attacks"),
])
def test_the_sniper_choice_dr_gives_each_of_two_snipers_an_equal_chance(sys_name: str, die: int, result: str) -> None:
    sys_, state = playing(kgp() if sys_name == "kgp" else er())
    if sys_name == "er":  # ER CG13: one Sniper each in the Initial Scenario → the dr is made in a later scenario
        state = replace(state, step="scenario", pass_kind="scenario", phase_ref="@scenario")
    _, (event,) = board.scenario_roll(sys_, state, sys_.sides[0].id, "sniper-choice", dice=FixedDice(die))
    assert event.payload["result"] == result
    assert "equal-chance assignment" in event.payload["caution"]


def test_the_fpf_barrage_drs_are_the_us_players_only() -> None:
    sys_, state = playing(er())
    with pytest.raises(SubmissionError, match="made by the U.S. side only"):
        board.scenario_roll(sys_, state, "japanese", "fpf-accuracy", dice=FixedDice(1))
    # CG18: only a U.S. side that bought an FPF Barrage RG rolls for it (this card's chart has none: a line by hand)
    with pytest.raises(SubmissionError, match="the U.S. side has bought no FPF Barrage RG"):
        board.scenario_roll(sys_, state, "us", "fpf-duration", answers={0: True}, dice=FixedDice(5))
    sys_ = replace(sys_, rg_charts=tuple(
        replace(chart, rows=(*chart.rows, replace(chart.rows[0], id="O9", group_type="FPF Barrage")))
        if chart.side == "us" else chart for chart in sys_.rg_charts))
    us = state.ledgers.get("us") or new_ledger("us")
    state = replace(state, ledgers={**state.ledgers, "us": replace(us, purchases=(
        PurchaseLine(1, state.date_id, "O9", "FPF Barrage", Decimal(4)),))})
    _, (event,) = board.scenario_roll(sys_, state, "us", "fpf-duration", answers={0: True}, dice=FixedDice(5))
    # CG18: "On a dr ≥ 5, the Barrage is removed"; the dr on the fourth turn receives a -1 drm → 4
    assert (event.payload["final"], event.payload["result"]) == (4, "Otherwise, all Barrage rules apply")


def test_an_unknown_scenario_roll_names_the_ones_offered() -> None:
    sys_, state = playing(pl())
    with pytest.raises(SubmissionError, match=r"Unknown scenario roll 'sniper-choice' \(allowed: game-end\)"):
        board.scenario_roll(sys_, state, "axis", "sniper-choice", dice=FixedDice(1))


def test_a_scenario_roll_with_a_threshold_needs_its_two_outcomes() -> None:
    text = (ROOT / "fixtures" / "pl25.yaml").read_text().replace(
        '      not_met: "the CG Firefight continues"\n', "", 1).replace(
        '      met: "the CG Firefight ends (2.9: play moves immediately to the Reorganization Phase)"\n', "", 1)
    text = text.replace("    outcomes:\n    modifiers:", "    modifiers:", 1)
    with pytest.raises(DefinitionErrors, match="says its two `outcomes:`"):
        parse_system(text, "pl25.yaml")


def test_a_bad_roller_role_requires_rg_or_initial_scenario_flag_is_reported_once_each() -> None:
    text = (ROOT / "fixtures" / "er.yaml").read_text()
    text = text.replace("    roller_role: attacker\n", "    roller_role: scenario-attacker\n", 1)
    text = text.replace("    requires_rg: true\n", "    requires_rg: maybe\n", 1)
    text = text.replace('    not_in_initial_scenario: "both players', "    not_in_initial_scenario: {text: \"both players", 1)
    text = text.replace('Initial Scenario (CG13)"\n', 'Initial Scenario (CG13)"}\n', 1)
    with pytest.raises(DefinitionErrors) as raised:
        parse_system(text, "er.yaml")
    found = [str(error) for error in raised.value.errors]
    assert [sum(".roller_role" in e for e in found), sum(".requires_rg" in e for e in found),
            sum(".not_in_initial_scenario" in e for e in found)] == [1, 1, 1], found
