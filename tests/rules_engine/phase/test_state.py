"""The CG as one state machine: the waiting step, the Initial Scenario on 19 AM, one initiative round per later CG
Date, CG end after 26 AM."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import MissingValueError, SubmissionError
from rules_engine.events import Event, roll_event
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, owes, submit_chit
from rules_engine.state import WAITING, CampaignState, new_campaign, stored_ended
from rules_engine.vocabulary import Chit, DiceKind, Visibility
from tests.rules_engine.phase.test_initiative import (
    CDN,
    GER,
    NO_RESULT,
    RR,
    RR_DATES,
    after_initial_scenario,
    at_initial_scenario,
    finish_scenario,
    play_round,
    rr_initiative,
    rr_system,
)

A, I = Chit.ATTACK, Chit.IDLE


def test_a_campaign_created_and_not_yet_joined_waits_and_owes_nothing() -> None:
    state = new_campaign(RR)
    assert (state.system_id, state.sides) == ("rr", (CDN, GER))
    assert (state.date_index, state.date_id, state.step, state.initial, state.ended) == (0, "19 AM", WAITING, True, False)
    assert (owes(RR, state, CDN), owes(RR, state, GER)) == ((), ())
    assert sequence.advance(RR, state, FixedDice()).state == state  # nothing runs before the second player joins
    with pytest.raises(SubmissionError, match="starts when both players have joined"):
        mark_done(RR, state, CDN)
    with pytest.raises(SubmissionError, match="only at Initiative Determination"):
        submit_chit(RR, state, CDN, A, FixedDice())


def test_stored_state_from_before_the_one_machine_loads() -> None:
    waiting = dict(new_campaign(RR).to_json(), step="initial-scenario", phased=False)  # created, not yet joined
    assert CampaignState.from_json(waiting) == new_campaign(RR)
    started = at_initial_scenario()
    assert CampaignState.from_json(dict(started.to_json(), phased=True)) == started  # the key is ignored
    assert "phased" not in started.to_json()


def test_a_new_rr_campaign_starts_with_the_initial_scenario_on_19_am() -> None:
    state = at_initial_scenario()
    assert (state.date_index, state.date_id, state.step, state.initial, state.ended) == (
        0, "19 AM", "initial-scenario", True, False
    )
    assert dict(state.attack_chits_used) == {CDN: 0, GER: 0}
    assert owes(RR, state, CDN) == ("mark the Initial Scenario finished",)
    assert owes(RR, state, GER) == ("mark the Initial Scenario finished",)


def test_the_first_chit_round_is_for_19_pm_once_both_sides_finish_the_initial_scenario() -> None:
    state = at_initial_scenario()
    state, events = mark_done(RR, state, GER)
    assert (state.step, state.date_id, state.done) == ("initial-scenario", "19 AM", frozenset({GER}))
    assert owes(RR, state, GER) == ()
    state, _ = mark_done(RR, state, CDN)
    assert state.step == "results"
    for side in (CDN, GER):
        state, _ = submit_results(RR, state, side, NO_RESULT)
    state, events = sequence.advance(RR, state, FixedDice())
    assert (state.step, state.date_id, state.initial, state.done) == ("initiative", "19 PM", False, frozenset())
    advanced = [e.payload for e in events if e.kind == "date-advanced"]
    assert advanced == [{"date": "19 PM", "date_index": 1, "step": "initiative"}]
    assert owes(RR, state, CDN) == ("choose your Initiative chit (2.522)",)


def test_owes_follows_each_side_through_a_round() -> None:
    state = after_initial_scenario()
    state, _ = submit_chit(RR, state, GER, A, FixedDice())
    assert owes(RR, state, GER) == ()
    assert owes(RR, state, CDN) == ("choose your Initiative chit (2.522)",)
    state, _ = submit_chit(RR, state, CDN, A, FixedDice(4, 5))  # Dual Attack: the move dr is made at the scenario
    assert owes(RR, state, CDN) == ("mark the scenario finished",)
    assert owes(RR, state, GER) == ("mark the scenario finished",)
    state, _ = mark_done(RR, state, CDN)
    assert owes(RR, state, CDN) == ()
    assert owes(RR, state, GER) == ("mark the scenario finished",)


def test_a_side_cannot_mark_the_same_scenario_finished_twice() -> None:
    state, _ = mark_done(RR, at_initial_scenario(), CDN)
    with pytest.raises(SubmissionError, match="already marked the scenario of 19 AM finished"):
        mark_done(RR, state, CDN)


def test_nothing_can_be_marked_finished_at_the_initiative_step() -> None:
    with pytest.raises(SubmissionError) as error:
        mark_done(RR, after_initial_scenario(), CDN)
    assert error.value.ref == "2.522"


def test_an_unknown_side_cannot_mark_a_step_done() -> None:
    with pytest.raises(SubmissionError, match=r"Unknown side 'us' \(allowed: canadian, german\)"):
        mark_done(RR, at_initial_scenario(), "us")


def test_the_cg_ends_after_the_scenario_of_the_last_date_26_am() -> None:
    state = after_initial_scenario()
    seen = [state.date_id]
    while state.step != "ended":
        state = play_round(RR, state, I, A if len(seen) % 2 else I)  # German Assault / Idle Date in turn
        seen.append(state.date_id)
    assert seen[-2] == "26 AM"
    assert list(dict.fromkeys(seen)) == list(RR_DATES[1:])
    assert (state.ended, owes(RR, state, CDN), owes(RR, state, GER)) == (True, (), ())
    assert state.cg_end is not None and state.cg_end.reason == "last-date"
    with pytest.raises(SubmissionError, match="The CG has ended"):
        mark_done(RR, state, CDN)


def test_whether_a_stored_state_is_of_an_ended_cg_is_read_without_parsing_it() -> None:
    going = after_initial_scenario()
    ended = going
    while ended.step != "ended":
        ended = play_round(RR, ended, I, I)
    assert (stored_ended(going.to_json()), stored_ended(ended.to_json())) == (False, True)
    assert CampaignState.from_json(ended.to_json()).ended is True
    stored = going.to_json()
    del stored["ended"]  # stored before the key was written: not over, as from_json reads it
    assert stored_ended(stored) is False and CampaignState.from_json(stored).ended is False


def test_a_system_without_chits_never_asks_for_a_chit() -> None:
    system = rr_system(initiative=replace(rr_initiative(), mode="purchase"))
    state = finish_scenario(system, at_initial_scenario(system))  # nothing bought: no Attack on any date
    assert state.step != "initiative" and state.sealed == {}
    assert state.ended and state.cg_end is not None and state.cg_end.reason == "last-date"


def test_a_system_whose_calendar_is_missing_cannot_start_a_campaign() -> None:
    with pytest.raises(MissingValueError, match="calendar is not in the rule text; supply it in a CG Card"):
        new_campaign(rr_system(dates=()))


def _states_along_a_cg() -> list[CampaignState]:
    states = [new_campaign(RR), at_initial_scenario()]
    state, _ = mark_done(RR, states[1], CDN)
    states.append(state)
    state = finish_scenario(RR, state)
    states.append(state)
    state, _ = submit_chit(RR, state, GER, A, FixedDice())
    states.append(state)
    state, _ = submit_chit(RR, state, CDN, A, FixedDice(3, 6))
    states.append(state)
    state, _ = mark_done(RR, state, GER)
    states.append(state)
    state = finish_scenario(RR, state)
    states.append(play_round(RR, state, I, I))
    return states


@pytest.mark.parametrize("index", range(8))
def test_the_state_survives_a_json_round_trip(index: int) -> None:
    state = _states_along_a_cg()[index]
    text = json.dumps(state.to_json())
    again = CampaignState.from_json(json.loads(text))
    assert again == state
    assert json.dumps(again.to_json()) == text


def test_a_json_round_trip_keeps_the_dual_attack_rolls() -> None:
    state = _states_along_a_cg()[5]
    again = CampaignState.from_json(json.loads(json.dumps(state.to_json())))
    assert again.last_round is not None
    assert [(r.purpose, r.dice) for r in again.last_round.rolls] == [
        ("2.522 Dual Attack set-up dr", (3,)),
        ("2.525 Dual Attack move-order dr", (6,)),
    ]
    assert (again.last_round.setup_first, again.last_round.moves_first) == (CDN, CDN)


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("sides", ["canadian"], "sides must be a list of two side ids"),
        ("date_index", "1", "date_index must be a whole number"),
        ("step", "refit", "Unknown step 'refit'"),
        ("system_id", None, "system_id must be a string"),
    ],
)
def test_a_damaged_state_record_is_refused_with_the_field_named(field: str, value: object, message: str) -> None:
    data = new_campaign(RR).to_json()
    data[field] = value  # type: ignore[assignment]
    with pytest.raises(ValueError, match=message):
        CampaignState.from_json(data)


def test_the_state_cannot_be_changed_in_place() -> None:
    state = new_campaign(RR)
    with pytest.raises(AttributeError):
        state.step = "ended"  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.attack_chits_used[CDN] = 5  # type: ignore[index]


def test_a_side_event_is_seen_by_its_owner_and_by_both_once_the_cg_ends() -> None:
    secret = Event("chit-chosen", Visibility.SIDE, CDN, {"chit": "attack"})
    public = Event("chit-sealed", Visibility.PUBLIC, CDN, {"side": CDN})
    later = Event("secret-dr", Visibility.CG_END, GER, {"dr": 7})
    assert [secret.visible_to(s, cg_ended=False) for s in (CDN, GER)] == [True, False]
    assert [secret.visible_to(s, cg_ended=True) for s in (CDN, GER)] == [True, True]
    assert [public.visible_to(s, cg_ended=False) for s in (CDN, GER)] == [True, True]
    assert [later.visible_to(s, cg_ended=False) for s in (CDN, GER)] == [False, True]
    assert [later.visible_to(s, cg_ended=True) for s in (CDN, GER)] == [True, True]
    assert Event.from_json(json.loads(json.dumps(later.to_json()))) == later


def test_a_secret_event_must_name_its_owner() -> None:
    with pytest.raises(ValueError, match="needs the side that owns it"):
        Event("chit-chosen", Visibility.SIDE, None, {})


def test_a_roll_event_keeps_secret_rolls_in_the_rollers_own_stream() -> None:
    dice = FixedDice(3, 4, 2)
    secret = dice.roll(DiceKind.DR, "2.516 CPP Replenishment DR", GER, GER)
    event = roll_event(secret, Visibility.SIDE)
    assert (event.side, event.payload["stream"], event.payload["dice"], event.payload["total"]) == (GER, GER, [3, 4], 7)
    with pytest.raises(ValueError, match="stream numbers must not reveal secret rolls"):
        roll_event(secret, Visibility.PUBLIC)
    public = dice.roll(DiceKind.dr, "2.522 Dual Attack set-up dr", CDN)
    with pytest.raises(ValueError, match="stream numbers must not reveal secret rolls"):
        roll_event(public, Visibility.CG_END, CDN)
    with pytest.raises(ValueError, match="would overwrite the roll"):
        roll_event(public, Visibility.PUBLIC, total=9)
