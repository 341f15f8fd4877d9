"""KGP 8.2 "One CG scenario may be played per Map Group per CG Date": the scenario step and its results entry run once per
Map Group in play; the CG Date's RePh starts only when every Map Group's scenario is finished and its results agreed.
Rolls made at the board in the scenario (CG23 Game End dr …) are made for one Map Group's scenario and record it.
The 8.616 Secret DR (the system's ``secret-roll`` step) is halved (FRD) for the side the 8.31 Balance names.

The card below is TEST DATA (which Map Groups a CG uses and when, the step list and the matrix are not in seed 004);
the Map Groups St/Lg (2 Map Sections each) and Ch (1) come from fixtures/kgp.yaml (8.2).
"""
from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from rules_engine import board, map_groups, sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import MapGroup, System
from rules_engine.results import submit_results
from rules_engine.sequence import owes
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import Visibility
from tests.rules_engine.phase.test_sequence_rr import drive, rr

US, GE = "us", "german"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"

CARD = """
format: refit-cg/1
kind: cg-card
id: test-kgp-unit
extends: kgp
name: "TEST DATA — unit tests of the per-Map-Group pass (not a published CG)"
settings_values: {balance: %s}
map_groups_in_play: [St, Lg]
calendar:
  - {id: "18 AM", initial: true}
  - {id: "18 PM", map_groups: [Lg]}
  - {id: "18 Night"}
steps:
  - {ref: "8.603", name: CG-LVP Totals, automation: automatic, action: record-lvp,
     params: {part: post-scenario, recorder: each-side, cumulative: true}}
  - {ref: "8.612", name: SAN, sides: none}
  - {ref: "8.616", name: Secret DR, loop_on_idle: true, secret: roll, automation: automatic, action: secret-roll,
     params: {part: new-date, dice: DR, balance_setting: balance, balance_halves: true, rounding: down}}
  - {ref: "8.623", name: Initiative, loop_on_idle: true, secret: choice, action: initiative}
  - {ref: "8.624", name: Setup, sides: none}
initiative:
  ref: "8.623"
  mode: chit
  matrix:
    attack/attack: {result: dual-attack, label: Dual Attack, setup_first: us, moves_first: german}
    attack/idle: {result: axis-assault, label: German Attack, setup_first: us, moves_first: german}
    idle/attack: {result: allied-assault, label: U.S. Attack, setup_first: german, moves_first: us}
    idle/idle: {result: idle, label: Idle Date}
idle: {name: Idle Date, loop: steps-marked-loop, then: next-date}
"""


@cache
def kgp(balance: str = "none") -> System:
    base = parse_system((FIXTURES / "kgp.yaml").read_text(), "kgp.yaml")
    return parse_card(CARD % balance, "test-kgp-unit.yaml", base)


def result(us_cvp: int, ge_cvp: int, us_lvp: int | None = None, ge_lvp: int | None = None,
           attacker: str = GE) -> ScenarioResult:
    lvp = {s: v for s, v in ((US, us_lvp), (GE, ge_lvp)) if v is not None}
    return ScenarioResult(cvp={US: us_cvp, GE: ge_cvp}, attacked={US: attacker == US, GE: attacker == GE}, lvp=lvp)


def scenario_items(system: System, state: CampaignState) -> list[tuple[str, str, object, str]]:
    return [(str(i["ref"]), str(i["name"]), i.get("map_group"), str(i["status"]))
            for i in sequence.checklist(system, state) if i["kind"] == "mark"]


def at_initial_scenario(balance: str = "none") -> CampaignState:
    state, _ = sequence.start(kgp(balance), FixedDice())
    assert (state.step, state.phase_ref) == ("initial-scenario", "@initial-scenario")
    return state


def test_the_checklist_shows_one_scenario_entry_per_map_group_with_its_map_sections() -> None:
    system, state = kgp(), at_initial_scenario()
    assert scenario_items(system, state) == [
        ("@initial-scenario", "Initial Scenario on Map Group St (2 Map Sections)", "St", "current"),
        ("@initial-scenario", "Initial Scenario on Map Group Lg (2 Map Sections)", "Lg", "current"),
    ]
    [st, lg] = [i for i in sequence.checklist(system, state)]
    assert st["sections"] == 2 and st["done"] == {US: False, GE: False}


def test_each_map_groups_scenario_is_marked_finished_by_both_before_the_results() -> None:
    system, state = kgp(), at_initial_scenario()
    assert owes(system, state, US) == ("mark the Initial Scenario on St finished", "mark the Initial Scenario on Lg finished")
    with pytest.raises(SubmissionError, match=r"Say which Map Group's scenario you mark finished \(in play on 18 AM: St, Lg\)"):
        sequence.mark_done(system, state, US)
    with pytest.raises(SubmissionError, match=r"No CG scenario is played on Map Group 'Ch' on 18 AM \(in play: St, Lg\)"):
        sequence.mark_done(system, state, US, "Ch")
    state, events = sequence.mark_done(system, state, US, "St")
    assert [(e.kind, e.payload["map_group"]) for e in events] == [("step-done", "St")]
    state, _ = sequence.mark_done(system, state, GE, "St")
    assert state.step == "initial-scenario" and state.done == frozenset()
    assert [s for _, _, _, s in scenario_items(system, state)] == ["done", "current"]
    with pytest.raises(SubmissionError, match="already marked the scenario on St finished"):
        sequence.mark_done(system, state, GE, "St")
    state, _ = sequence.mark_done(system, state, GE, "Lg")
    assert state.done == frozenset({GE}) and owes(system, state, GE) == ()
    assert owes(system, state, US) == ("mark the Initial Scenario on Lg finished",)
    state, _ = sequence.mark_done(system, state, US, "Lg")
    assert (state.step, state.phase_ref, dict(state.map_done)) == ("results", "@results", {})
    assert [(n, s) for _, n, _, s in scenario_items(system, state)][:2] == [
        ("Scenario results on Map Group St (2 Map Sections)", "current"),
        ("Scenario results on Map Group Lg (2 Map Sections)", "current")]


def at_results(balance: str = "none") -> CampaignState:
    system, state = kgp(balance), at_initial_scenario(balance)
    for group in ("St", "Lg"):
        for side in (US, GE):
            state, _ = sequence.mark_done(system, state, side, group)
    return state


def test_differing_results_on_one_map_group_block_the_cg_date_until_the_sides_agree() -> None:
    system, state = kgp(), at_results()
    st, lg = result(6, 11, 2, 1), result(3, 4, 5, 7)
    with pytest.raises(SubmissionError, match=r"Say which Map Group's scenario you enter the results of"):
        submit_results(system, state, US, st)
    state, _ = submit_results(system, state, US, st, "St")
    state, events = submit_results(system, state, GE, st, "St")
    assert [e.kind for e in events][-1] == "map-group-results-confirmed" and state.step == "results"
    state, _ = submit_results(system, state, US, replace(lg, cvp={US: 3, GE: 5}), "Lg")
    state, events = submit_results(system, state, GE, lg, "Lg")
    [differ] = [e for e in events if e.kind == "results-differ"]
    assert (differ.payload["map_group"], differ.payload["fields"]) == ("Lg", ["cvp"])
    assert (state.step, state.phase_ref) == ("results", "@results")
    assert owes(system, state, US) == ("agree the scenario results on Lg (the entries differ)",)
    with pytest.raises(SubmissionError, match=r"results of the scenario on St \(18 AM\) are already confirmed"):
        submit_results(system, state, US, st, "St")
    state, events = submit_results(system, state, US, lg, "Lg")
    assert [e.kind for e in events][-2:] == ["map-group-results-confirmed", "results-confirmed"]
    assert state.phase_ref == "8.603"  # the RePh goes on: 8.603 is automatic
    state, _ = sequence.advance(system, state, FixedDice())
    assert state.phase_ref == "8.612"
    [record] = state.history
    assert dict(record.map_results) == {"St": st, "Lg": lg}
    # the date's figures: CVP 6 + 3 = 9 / 11 + 4 = 15; Current-LVP Total 2 + 5 = 7 / 1 + 7 = 8 (8.2, all Map Groups)
    assert record.result == ScenarioResult(cvp={US: 9, GE: 15}, attacked={US: False, GE: True}, lvp={US: 7, GE: 8},
                                           leaders_lost={}, units_lost={})
    assert state.tracks[US]["lvp"] == 7 and state.tracks[US]["cg_lvp"] == 7
    assert (state.tracks[US]["lvp@St"], state.tracks[US]["lvp@Lg"]) == (2, 5)


def test_the_opponents_entry_for_a_map_group_is_seen_only_once_both_are_in() -> None:
    system, state = kgp(), at_results()
    state, _ = submit_results(system, state, GE, result(6, 11), "St")
    us_view = view_for(system, state, US)["map_groups"]
    assert [(g["id"], g["own"], g["opponent_submitted"], g["entries"]) for g in us_view] == [
        ("St", None, True, None), ("Lg", None, False, None)]
    german_view = view_for(system, state, GE)["map_groups"]
    assert german_view[0]["own"] == result(6, 11).to_json() and german_view[0]["label"] == "St (2 Map Sections)"


def test_an_idle_date_plays_no_scenario_on_any_map_group_and_a_map_group_not_played_keeps_its_lvp() -> None:
    system, state = kgp(), at_results()
    dice = FixedDice(3, 3, 4, 4, 2, 2, 1, 1)  # 18 PM and 18 Night 8.616: U.S. then German, DR each
    for group, entry in (("St", result(6, 11, 2, 1)), ("Lg", result(3, 4, 5, 7))):
        for side in (US, GE):
            state, _ = submit_results(system, state, side, entry, group)
    state, _ = drive(system, state, dice, lambda s: s.step == "initiative", (US, GE))
    assert state.date_id == "18 PM"
    state, _ = sequence.submit_chit(system, state, GE, "attack", dice)
    state, _ = sequence.submit_chit(system, state, US, "idle", dice)
    state, _ = drive(system, state, dice, lambda s: s.step == "scenario", (US, GE))
    assert [(g, s) for _, _, g, s in scenario_items(system, state)] == [("Lg", "current")]  # 18 PM: Lg only
    state, _ = sequence.mark_done(system, state, US)  # the only Map Group may be left out
    state, _ = sequence.mark_done(system, state, GE, "Lg")
    for side in (US, GE):
        state, _ = submit_results(system, state, side, result(1, 2, 9, 0), None)
    state, _ = sequence.advance(system, state, dice)
    # 8.603: St not played keeps U.S. 2 / German 1, Lg now 9 / 0 → Current 11 / 1; CG-LVP 11 + 7 = 18, 1 + 8 = 9
    assert (state.tracks[US]["lvp"], state.tracks[US]["cg_lvp"]) == (11, 18)
    assert (state.tracks[GE]["lvp"], state.tracks[GE]["cg_lvp"]) == (1, 9)
    state, _ = drive(system, state, dice, lambda s: s.step == "initiative", (US, GE))
    assert state.date_id == "18 Night"
    state, _ = sequence.submit_chit(system, state, GE, "idle", dice)
    state, events = sequence.submit_chit(system, state, US, "idle", dice)
    assert state.ended and state.history[-1].kind == "idle" and not state.history[-1].map_results
    assert not [e for e in events if e.kind == "step-done"]
    assert dice.remaining == 0


def test_combine_keeps_a_single_map_groups_result_as_entered() -> None:
    st = MapGroup("St", 2)
    entered = ScenarioResult(cvp={US: 1, GE: 2}, attacked={US: True, GE: False}, winner=US, lvp={US: 4})
    combined, tracks = map_groups.combine((st,), {"St": entered}, (US, GE), {})
    assert combined == entered and tracks == {US: {"lvp@St": 4}, GE: {}}


def test_combine_adds_map_groups_and_leaves_the_lvp_total_out_when_a_map_group_in_play_has_none() -> None:
    st, lg = MapGroup("St", 2), MapGroup("Lg", 2)
    a = ScenarioResult(cvp={US: 1, GE: 2}, attacked={US: False, GE: True}, winner=GE, lvp={US: 4, GE: 3},
                       units_lost={GE: 2})
    b = ScenarioResult(cvp={US: 5, GE: 0}, attacked={US: True, GE: False}, winner=US, lvp={US: 1},
                       units_lost={GE: 1, US: 3})
    combined, _ = map_groups.combine((st, lg), {"St": a, "Lg": b}, (US, GE), {GE: {"lvp@Ch": 9}})
    assert combined.cvp == {US: 6, GE: 2} and combined.attacked == {US: True, GE: True}
    assert combined.winner is None and combined.units_lost == {US: 3, GE: 3}
    assert combined.lvp == {US: 5}  # German: Lg has no value (entered or earlier) → 8.603 keeps his total


def test_the_8_616_secret_dr_is_halved_rounding_down_for_the_balanced_side_only_and_seen_by_it_alone() -> None:
    system = kgp("us")
    state = at_results("us")
    dice = FixedDice(5, 6, 4, 5)  # 18 PM 8.616: U.S. 5+6 = 11 → halved FRD → 5; German 4+5 = 9 (not halved)
    for group in ("St", "Lg"):
        for side in (US, GE):
            state, _ = submit_results(system, state, side, result(0, 0, 0, 0), group)
    state, events = drive(system, state, dice, lambda s: s.step == "initiative", (US, GE))
    secret = {e.side: e for e in events if e.kind == "secret-dr"}
    assert (secret[US].payload["original"], secret[US].payload["final"]) == (11, 5)
    assert secret[US].payload["text"] == "8.616: U.S. Secret DR 11, halved (FRD) by the 8.31 CG Balance = 5"
    assert (secret[GE].payload["original"], secret[GE].payload["final"], "balance" in secret[GE].payload) == (9, 9, False)
    rolls = [e for e in events if e.kind == "roll"]
    assert [(e.side, e.payload["original"], e.payload["final"], e.visibility) for e in rolls] == [
        (US, 11, 5, Visibility.SIDE), (GE, 9, 9, Visibility.SIDE)]
    seen_by_german = str(view_for(system, state, GE)["records"])
    assert "halved" not in seen_by_german and "8.31" not in seen_by_german and "'original': 11" not in seen_by_german
    assert "halved" in str(view_for(system, state, US)["records"])


def test_a_system_without_map_groups_plays_one_scenario_and_refuses_a_map_group() -> None:
    state, _ = sequence.start(rr(), FixedDice(), tracks={"canadian": {"san": 3}, "german": {"san": 2}})
    state, _ = drive(rr(), state, FixedDice(), lambda s: s.step == "initial-scenario", ("canadian", "german"))
    assert map_groups.in_play(rr(), state) == () and view_for(rr(), state, "german")["map_groups"] == []
    assert [i["name"] for i in sequence.checklist(rr(), state) if i["kind"] == "mark"] == ["Initial Scenario"]
    with pytest.raises(SubmissionError, match=r"this system has no Map Groups; got 'St'"):
        sequence.mark_done(rr(), state, "german", "St")


def test_a_dates_map_group_results_keep_their_play_order_through_a_key_sorting_json_store() -> None:
    system, state = kgp(), at_results()
    for group in ("St", "Lg"):
        for side in (US, GE):
            state, _ = submit_results(system, state, side, result(1, 1), group)
    stored = json.loads(json.dumps(state.to_json(), sort_keys=True))  # PostgreSQL jsonb sorts object keys too
    [record] = CampaignState.from_json(stored).history
    assert list(record.map_results) == ["St", "Lg"]


def test_the_checklist_names_each_marks_map_groups_from_the_date_it_belongs_to() -> None:
    # the base KGP steps (no initiative in the seed): the cycle pass is @results (the date played), the new date, its
    # steps and its scenario — a card plays St on 18 AM and Lg + Ch on 18 PM (TEST DATA)
    base = parse_system((FIXTURES / "kgp.yaml").read_text(), "kgp.yaml")
    system = parse_card(CARD.split("steps:")[0].replace("settings_values: {balance: %s}\n", "").replace(
        "map_groups_in_play: [St, Lg]", "map_groups_in_play: [St]").replace('map_groups: [Lg]', 'map_groups: [Lg, Ch]'),
        "card.yaml", base)
    state, _ = sequence.start(system, FixedDice())
    state, _ = drive(system, state, FixedDice(), lambda s: s.step == "results", (US, GE))
    marks = lambda s: [(i["ref"], i.get("map_group")) for i in sequence.checklist(system, s) if i["kind"] == "mark"]  # noqa: E731
    assert marks(state) == [("@results", "St"), ("@new-date", None), ("@scenario", "Lg"), ("@scenario", "Ch")]
    for side in (US, GE):
        state, _ = submit_results(system, state, side, result(1, 2, 3, 4))
    # 8.602 and 8.603 follow the scenario just played (fixtures/kgp.yaml: 8.6031 completes the CG-Scenario End), so
    # the RePh of 18 AM goes on with 8.602 (on the board) before the date advances
    state, _ = sequence.advance(system, state, FixedDice())
    assert (state.date_id, state.phase_ref) == ("18 AM", "8.602")
    assert marks(state) == [("@results", "St"), ("@new-date", None), ("@scenario", "Lg"), ("@scenario", "Ch")]


# ---- rolls at the board in a scenario played per Map Group (KGP 8.2, CG23) -------------------------------------------
# s004:174 CG23 "A Turn Record Chart is printed on one map of each Map Group. … the ATTACKER makes a Game End dr; if it
# is < the circled number in the current turn's box … the scenario ends immediately"; s004:176 "EX: At the end of either
# Player Turn of Game Turn 7 in a daytime scenario, play ends immediately on a Game-End Original dr of ≤ 3".

GAME_END_LG = ("CG23 Game End dr on Map Group Lg, Turn 7, circled number in the current turn's box on the CG Turn "
               "Record Chart 3")


def test_a_cg23_game_end_dr_is_made_for_one_map_groups_scenario_and_both_sides_see_it() -> None:
    system, state = kgp(), at_initial_scenario()
    dice = FixedDice(3)
    new, (event,) = board.scenario_roll(system, state, GE, "game-end", threshold=3, turn=7, dice=dice, map_group="Lg")
    assert (event.kind, event.visibility, event.payload["stream"], event.payload["roller"]) == (
        "roll", Visibility.PUBLIC, "public", GE)
    assert (event.payload["map_group"], event.payload["purpose"]) == ("Lg", GAME_END_LG)
    assert event.payload["result"] == "dr 3 ≤ 3: the scenario ends immediately"  # the CG23 EX: Turn 7, day, ≤ 3
    for side in (US, GE):
        [logged] = view_for(system, new, side)["board"]["log"]
        assert (logged["payload"]["map_group"], logged["payload"]["purpose"]) == ("Lg", GAME_END_LG)
    # the dr says the scenario on Lg ends; the players mark it finished (St's scenario goes on)
    assert new.step == "initial-scenario" and [g.id for g in board.open_map_groups(system, new)] == ["St", "Lg"]
    assert dice.remaining == 0


def test_a_roll_in_a_scenario_played_per_map_group_says_which_map_groups_scenario_it_is_for() -> None:
    system, state = kgp(), at_initial_scenario()
    dice = FixedDice(1, 1)
    with pytest.raises(SubmissionError, match=r"Say which Map Group's scenario you roll for \(in play on 18 AM: St, Lg\)"):
        board.scenario_roll(system, state, GE, "game-end", threshold=3, turn=7, dice=dice)
    with pytest.raises(SubmissionError, match=r"No CG scenario is played on Map Group 'Ch' on 18 AM \(in play: St, Lg\)"):
        board.board_roll(system, state, US, "initial-scenario", "DR", 1, "IFT 8 FP vs StK5", dice, "Ch")
    assert dice.remaining == 2
    _, events = board.board_roll(system, state, US, "initial-scenario", "DR", 1, "IFT 8 FP vs StK5", dice, "St")
    assert [(e.payload["map_group"], e.payload["purpose"]) for e in events] == [
        ("St", "Initial Scenario on Map Group St: IFT 8 FP vs StK5")]


def test_a_map_groups_scenario_finished_by_both_sides_takes_no_more_rolls() -> None:
    system, state = kgp(), at_initial_scenario()
    for side in (US, GE):
        state, _ = sequence.mark_done(system, state, side, "St")
    assert [g.id for g in board.open_map_groups(system, state)] == ["Lg"]
    assert view_for(system, state, US)["board"]["map_groups"] == ["Lg"]
    with pytest.raises(SubmissionError, match=r"The scenario on Map Group St is over: both sides marked it finished"):
        board.scenario_roll(system, state, GE, "game-end", threshold=3, turn=7, dice=FixedDice(1), map_group="St")
    _, (event,) = board.scenario_roll(system, state, GE, "game-end", threshold=3, turn=7, dice=FixedDice(4),
                                      map_group="Lg")
    assert event.payload["result"] == "dr 4 > 3: the scenario continues"


def test_each_map_groups_scenario_keeps_its_own_latest_rolls() -> None:
    system, state = kgp(), at_initial_scenario()
    state, _ = board.board_roll(system, state, US, "initial-scenario", "dr", 1, "Sniper LgR4", FixedDice(6), "Lg")
    state, _ = board.board_roll(system, state, GE, "initial-scenario", "dr", board.COUNT_MAX, "Bog", FixedDice(
        *[1] * board.COUNT_MAX), "St")
    state, _ = board.board_roll(system, state, GE, "initial-scenario", "dr", 1, "Bog again", FixedDice(2), "St")
    kept = [(e.payload["map_group"], e.payload["text"]) for e in state.board_log]
    assert kept.count(("Lg", "Sniper LgR4")) == 1  # not pushed out by the busier St scenario
    assert len([k for k in kept if k[0] == "St"]) == board.LOG_SIZE and kept[-1] == ("St", "Bog again")


def test_no_map_group_is_named_for_a_roll_outside_a_scenario_played_per_map_group() -> None:
    state, _ = sequence.start(rr(), FixedDice(), tracks={"canadian": {"san": 3}, "german": {"san": 2}})
    state, _ = drive(rr(), state, FixedDice(), lambda s: s.step == "initial-scenario", ("canadian", "german"))
    with pytest.raises(SubmissionError, match=r"No scenario is played per Map Group here; roll without naming one"):
        board.board_roll(rr(), state, "german", "initial-scenario", "DR", 1, "IFT", FixedDice(1, 1), "St")
    _, (event,) = board.board_roll(rr(), state, "german", "initial-scenario", "DR", 1, "IFT", FixedDice(1, 1))
    assert "map_group" not in event.payload and event.payload["purpose"] == "Initial Scenario: IFT"
