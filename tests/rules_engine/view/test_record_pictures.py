"""rules_engine.record_view.pictures and .story: the charts' figures come only from what the viewer may see (the
opponent's points never before CG end unless the form makes them public), and the story of a CG Date waits for CG end."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from rules_engine.events import Event, EventKind
from rules_engine.record_view import RecordPart, StoryError, story_for
from rules_engine.record_view.pictures import points_at, points_visible
from rules_engine.record_view.story import date_events
from rules_engine.vocabulary import Visibility
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, rr
from tests.rules_engine.view.test_record_view import SECRET, _state, _view


def test_points_available_are_start_plus_replenished_and_a_line_without_either_has_none() -> None:
    at = points_at("19 PM", {"start": "0", "replenished": "73", "spent": "32"})
    assert (at.date, at.available, at.spent) == ("19 PM", Decimal(73), Decimal(32))
    at = points_at("19 Night", {"start": "41", "replenished": "68", "spent": "0"})
    assert (at.available, at.spent) == (Decimal(109), Decimal(0))  # RR 2.518 Total: 41 + 68
    assert points_at("19 AM", {"date_id": "19 AM"}).available is None  # the opponent's public line: no points


@pytest.mark.parametrize(("fields", "own", "drawn"), [
    (frozenset({"date_id", "san", "elr"}), False, False),  # RR before CG end: the opponent's points are hidden
    (frozenset({"date_id", "start", "spent"}), False, False),  # Replenished hidden: Available would tell it
    (frozenset({"date_id", "start", "replenished", "spent"}), False, True),  # a form with public points
    (frozenset({"date_id"}), True, True),  # the own side's always
    (None, False, True),  # after CG end
])
def test_a_sides_points_are_drawn_only_where_the_viewer_may_see_all_three_figures(
    fields: frozenset[str] | None, own: bool, drawn: bool
) -> None:
    assert points_visible(fields, own) is drawn


def test_the_opponents_points_never_reach_the_pictures_before_cg_end_even_from_a_store_holding_them() -> None:
    view = _view(_state(), CDN, RecordPart.ROSTER)
    assert view.roster is not None and view.roster.pictures is not None
    pictures = view.roster.pictures
    assert [s.side for s in pictures.points] == [CDN]
    assert pictures.points_hidden == ("German",)
    assert SECRET not in repr(pictures)


def test_after_cg_end_both_sides_points_are_in_the_pictures() -> None:
    view = _view(_state(ended=True), GER, RecordPart.ROSTER)
    assert view.roster is not None and view.roster.pictures is not None
    assert [s.side for s in view.roster.pictures.points] == [CDN, GER]
    assert view.roster.pictures.points_hidden == ()


def test_the_story_is_refused_before_cg_end_and_for_a_number_that_is_no_cg_date() -> None:
    with pytest.raises(StoryError, match="once the CG has ended"):
        story_for(rr(), _state(), CDN, 1, (), {}, {})
    with pytest.raises(StoryError, match="No CG Date 9"):
        story_for(rr(), _state(ended=True), CDN, 9, (), {}, {})


def test_a_dates_events_run_from_its_public_date_event_to_the_next_one() -> None:
    def event(kind: EventKind, **payload: str) -> Event:
        return Event(kind, Visibility.PUBLIC, None, payload)

    log = [event(EventKind.CAMPAIGN_STARTED, date="19 AM"), event(EventKind.WEATHER, date="19 AM"),
           event(EventKind.DATE_ADVANCED, date="19 PM"), event(EventKind.WEATHER, date="19 PM"),
           event(EventKind.DATE_ADVANCED, date="19 Night")]
    assert date_events(log, "19 PM") == log[2:4]
    assert date_events(log, "19 AM") == log[:2]
    assert date_events(log, "20 AM") == []


def test_an_ended_state_stays_ended_for_the_story() -> None:
    state = replace(_state(), ended=True)
    story = story_for(rr(), state, GER, 1, (), {}, {})
    assert (story.date.number, story.previous, story.what) == (1, None, "Initial Scenario")


def test_a_one_date_campaign_refuses_date_2_saying_it_reached_only_cg_date_1() -> None:
    state = replace(_state(ended=True), history=_state().history[:1])
    with pytest.raises(StoryError, match=r"^No CG Date 2: the campaign reached only CG Date 1\.$"):
        story_for(rr(), state, CDN, 2, (), {}, {})


def test_the_cg_end_is_told_in_a_chapter_of_its_own_not_as_a_scenario_result() -> None:
    ended = Event(EventKind.CG_ENDED, Visibility.PUBLIC, None,
                  {"date_id": "19 AM", "reason": "concession", "side": "german", "victor": "canadian"})
    log = (Event(EventKind.CAMPAIGN_STARTED, Visibility.PUBLIC, None, {"date": "19 AM"}), ended)
    chapters = {c.title: c.lines for c in story_for(rr(), _state(ended=True), CDN, 1, log, {}, {}).chapters}
    assert chapters["How the CG ended"] == (
        "The Campaign Game ended on 19 AM: the German side conceded; the Canadian side wins.",)
    assert chapters["Scenario result"] == ()
    quiet = {c.title for c in story_for(rr(), _state(ended=True), CDN, 1, log[:1], {}, {}).chapters}
    assert quiet == {"Points and purchases", "Initiative chits", "Scenario result", "Refit Phase outcomes"}
