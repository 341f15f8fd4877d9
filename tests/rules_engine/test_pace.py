"""Pace (rules_engine.pace): deadlines, pauses and reminders, with moments typed by hand."""
from __future__ import annotations

from datetime import UTC, date, datetime

from rules_engine.pace import (
    Pause,
    Reminder,
    ask_again,
    change_problem,
    deadline,
    minute_words,
    next_due,
    pace_words,
    pause_end,
    pauses_of,
    reminder_due,
    repaced,
)


def at(day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


def test_a_pause_ends_at_midnight_utc_after_its_last_day() -> None:
    assert pause_end(date(2026, 11, 30)) == datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    assert pause_end(date(2026, 12, 31)) == datetime(2027, 1, 1, 0, 0, tzinfo=UTC)


def test_a_deadline_is_the_due_moment_plus_the_pace() -> None:
    assert deadline(at(1, 10), 48, (), at(2)) == at(3, 10)


def test_a_pause_stops_the_clock_and_moves_the_deadline_by_its_length() -> None:
    pauses = (Pause(at(2, 10), at(5, 10)),)  # three days

    assert deadline(at(1, 10), 48, pauses, at(3)) is None  # while paused, no deadline runs
    assert deadline(at(1, 10), 48, pauses, at(6)) == at(6, 10)


def test_a_pause_before_the_action_fell_due_moves_nothing() -> None:
    assert deadline(at(10, 10), 24, (Pause(at(1), at(5)),), at(10, 12)) == at(11, 10)


def test_reminders_go_out_once_when_a_quarter_is_left_and_once_when_overdue() -> None:
    since = at(1, 0)  # 48 h: due by 3rd 00:00, a quarter (12 h) left from the 2nd 12:00

    assert reminder_due(since, 48, (), at(2, 11, 59), Reminder.NONE) is Reminder.NONE
    assert reminder_due(since, 48, (), at(2, 12), Reminder.NONE) is Reminder.SOON
    assert reminder_due(since, 48, (), at(2, 13), Reminder.SOON) is Reminder.NONE
    assert reminder_due(since, 48, (), at(3, 0), Reminder.SOON) is Reminder.OVERDUE
    assert reminder_due(since, 48, (), at(3, 0), Reminder.NONE) is Reminder.OVERDUE  # late scheduler: straight to it
    assert reminder_due(since, 48, (), at(9, 0), Reminder.OVERDUE) is Reminder.NONE
    assert reminder_due(since, 48, (Pause(at(2), at(4)),), at(3, 0), Reminder.NONE) is Reminder.NONE


def test_a_side_owing_the_same_keeps_its_clock_and_a_new_debt_restarts_it() -> None:
    due = {"german": {"since": "a", "reminded": "soon"}, "canadian": {"since": "a", "reminded": ""}}
    before = {"german": ["2.518 buy"], "canadian": ["2.518 buy"]}
    after = {"german": ["2.518 buy"], "canadian": ["2.519 roll"], "third": []}

    assert next_due(due, before, after, "b") == {"german": {"since": "a", "reminded": "soon"},
                                                "canadian": {"since": "b", "reminded": ""}}


def test_pace_words_and_stored_pauses() -> None:
    assert [pace_words(h) for h in (None, 24, 48, 168, 36)] == [
        "No time limit", "1 day per action", "2 days per action", "1 week per action", "36 hours per action"]
    assert pauses_of([["2026-11-01T00:00:00+00:00", "2026-11-02T00:00:00+00:00"], ["bad"], "x"]) == (
        Pause(at(1), at(2)),)
    assert pauses_of(None) == ()


def test_a_new_pace_agreed_after_10_hours_of_a_48_hour_action_makes_it_due_24_hours_after_the_change() -> None:
    due = {"german": {"since": "2026-11-01T00:00:00+00:00", "reminded": "soon"}}
    assert deadline(at(1, 0), 48, (), at(1, 10)) == at(3, 0)  # before: due by the 3rd 00:00

    after = repaced(due, "2026-11-01T10:00:00+00:00")

    assert after == {"german": {"since": "2026-11-01T10:00:00+00:00", "reminded": ""}}
    assert deadline(at(1, 10), 24, (), at(1, 11)) == at(2, 10)


def test_a_longer_pace_restarts_an_overdue_action_with_the_whole_new_time_and_no_reminder_sent() -> None:
    due = {"german": {"since": "2026-11-01T00:00:00+00:00", "reminded": "overdue"},
           "canadian": {"since": "2026-11-02T06:00:00+00:00", "reminded": ""}}

    after = repaced(due, "2026-11-03T12:00:00+00:00")

    assert after == {"german": {"since": "2026-11-03T12:00:00+00:00", "reminded": ""},
                     "canadian": {"since": "2026-11-03T12:00:00+00:00", "reminded": ""}}
    assert deadline(at(3, 12), 168, (), at(4)) == at(10, 12)
    assert repaced({}, "2026-11-03T12:00:00+00:00") == {}  # nothing due: nothing to restart


def test_a_pace_agreed_during_a_pause_starts_its_clock_when_the_pause_ends() -> None:
    pauses = (Pause(at(1, 5), at(4, 0)),)

    assert deadline(at(2, 0), 72, pauses, at(3)) is None  # still paused
    assert deadline(at(2, 0), 72, pauses, at(5)) == at(7, 0)  # 72 h from the pause's end, the 4th 00:00


def test_a_new_pace_is_one_offered_on_the_create_page_and_not_the_current_one() -> None:
    assert change_problem(48, 24) == ""
    assert change_problem(48, None) == ""
    assert change_problem(None, 168) == ""
    assert change_problem(48, 48) == "2 days per action is the pace already: propose a different one."
    assert change_problem(None, None) == "No time limit is the pace already: propose a different one."
    assert change_problem(48, 5) == "A pace is no time limit or one of 24, 48, 72, 168 hours per action."


def test_a_side_asks_at_most_5_times_a_day_and_the_6th_waits_until_the_first_of_the_5_is_a_day_old() -> None:
    five = [at(2, 9), at(2, 10), at(2, 11), at(2, 12), at(2, 13, 30)]

    assert ask_again(five[:4], at(2, 14)) is None
    assert ask_again(five, at(2, 14)) == at(3, 9)
    assert ask_again(five, at(3, 8, 59)) == at(3, 9)
    assert ask_again(five, at(3, 9)) is None
    assert ask_again([at(1, 1), *five], at(2, 14)) == at(3, 9)  # only the latest five count


def test_a_moment_is_said_as_the_first_whole_minute_from_which_it_holds() -> None:
    assert minute_words(at(3, 9)) == "09:00 UTC on 03 Nov 2026"
    assert minute_words(datetime(2026, 11, 3, 9, 0, 1, tzinfo=UTC)) == "09:01 UTC on 03 Nov 2026"
