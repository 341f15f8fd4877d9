"""Message bounds (rules_engine.messages): at most 30 a side in any hour and 2,000 a campaign, and the e-mail to a
reader away at most once per 15 minutes while the messages stay unread — moments typed by hand."""
from __future__ import annotations

from datetime import UTC, datetime

from rules_engine.messages import Wait, mail_due, rate_wait


def at(hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, 11, 27, hour, minute, second, tzinfo=UTC)


def test_a_side_may_write_29_messages_in_an_hour_and_a_30th() -> None:
    latest = [at(10, minute) for minute in range(29)]  # 10:00 … 10:28

    assert rate_wait(latest, 29, at(10, 30)) is None


def test_the_31st_message_within_an_hour_waits_until_the_oldest_of_the_30_is_an_hour_old() -> None:
    latest = [at(10, 0, 30)] + [at(10, minute) for minute in range(1, 30)]  # 30 messages, 10:00:30 … 10:29

    assert rate_wait(latest, 30, at(10, 45)) == Wait(at(11, 0, 30))
    assert rate_wait(latest, 30, at(11, 0, 29)) == Wait(at(11, 0, 30))
    assert rate_wait(latest, 30, at(11, 0, 30)) is None


def test_a_campaign_with_2000_messages_takes_no_more_and_says_so() -> None:
    wait = rate_wait([], 2000, at(12))

    assert wait == Wait(None)
    assert wait.words() == "This campaign keeps at most 2,000 messages and holds them all: no more can be written here."
    assert rate_wait([], 1999, at(12)) is None


def test_the_wait_says_the_first_whole_minute_from_which_the_side_may_write_again() -> None:
    assert Wait(at(11, 0, 30)).words() == ("You have written 30 messages within an hour, the most a side may: you may "
                                           "write again at 11:01 UTC on 27 Nov 2026.")
    assert Wait(at(11, 0)).words().endswith("write again at 11:00 UTC on 27 Nov 2026.")


def test_a_reader_away_is_emailed_once_per_15_minutes_unless_they_opened_the_page_since() -> None:
    assert mail_due(None, None, at(9))  # the first message
    assert not mail_due(at(9), None, at(9, 14, 59))
    assert mail_due(at(9), None, at(9, 15))
    assert not mail_due(at(9), at(8, 30), at(9, 5))  # seen before the e-mail: the message is still unread
    assert mail_due(at(9), at(9, 2), at(9, 5))  # the reader came and read: a new message is news again
