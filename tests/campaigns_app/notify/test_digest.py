"""The daily digest: one e-mail per player with their queued lines grouped by campaign, at most once a UTC day
(fixed clock), the queue emptied; bounded; two schedulers running at once send it once."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns_app.models import DIGEST_MAX_LINES, NotificationSetting, Seat
from campaigns_app.notify import deliver
from tests.campaigns_app.notify.helpers import DAY_ONE, choose_default, created, queued


def _queue(users: Any, *campaigns_lines: tuple[Any, str]) -> None:
    for campaign, line in campaigns_lines:
        deliver.enqueue(Seat.objects.select_related("campaign").get(campaign=campaign, user=users["gerd"]), line)


def test_the_digest_groups_the_lines_by_campaign_goes_out_once_a_day_and_empties_the_queue(
    rr: Any, users: Any, digests: Callable[[datetime], str]
) -> None:
    choose_default(users["gerd"], "digest")
    hill, wood = created(users, "Hill 112"), created(users, "Wood")
    _queue(users, (hill, "Your move."), (wood, "A message from cana (Canadian): hello"), (hill, "Your move is due soon."))
    mail.outbox.clear()

    assert digests(DAY_ONE) == "1 digest sent."
    [message] = mail.outbox
    assert message.to == ["gerd@example.org"] and message.subject == "Refit: your daily digest"
    body = message.body
    hill_at, wood_at = body.index("“Hill 112”\n  - Your move.\n  - Your move is due soon.\n"), body.index(
        "“Wood”\n  - A message from cana (Canadian): hello\n")
    assert hill_at < wood_at
    assert f"Open the campaign: http://refit.test/campaigns/{hill.public_id}/" in body
    assert body.count("http://refit.test/notifications/link/") == 2  # one link per campaign
    assert queued(users["gerd"]) == []

    _queue(users, (hill, "Your opponent has chosen — your move."))
    assert digests(DAY_ONE + timedelta(hours=16)) == "0 digests sent."  # the same UTC day: it waits
    assert digests(DAY_ONE + timedelta(hours=17, minutes=1)) == "1 digest sent."  # 00:01 the next day
    assert len(mail.outbox) == 2 and "Your opponent has chosen — your move." in mail.outbox[1].body
    assert "Your move is due soon." not in mail.outbox[1].body
    assert digests(DAY_ONE + timedelta(days=2)) == "0 digests sent."  # nothing queued: no e-mail


def test_a_full_queue_keeps_the_newest_lines_and_the_digest_says_how_many_were_left_out(
    rr: Any, users: Any, digests: Callable[[datetime], str]
) -> None:
    hill = created(users)
    _queue(users, *((hill, f"Line {number}.") for number in range(1, DIGEST_MAX_LINES + 6)))

    lines = queued(users["gerd"])
    assert len(lines) == DIGEST_MAX_LINES and lines[0] == "Line 6." and lines[-1] == f"Line {DIGEST_MAX_LINES + 5}."
    mail.outbox.clear()
    digests(DAY_ONE)
    assert "5 older lines did not fit in this digest and were left out." in mail.outbox[0].body
    assert "  - Line 5.\n" not in mail.outbox[0].body and "  - Line 6.\n" in mail.outbox[0].body
    assert NotificationSetting.objects.get(user=users["gerd"]).dropped == 0


def test_a_bad_now_is_refused_with_what_is_allowed(rr: Any) -> None:
    with pytest.raises(CommandError, match=r"needs a time zone \(e.g. \+00:00\)"):
        call_command("send_digests", now="2026-12-01T07:00:00")
    with pytest.raises(CommandError, match="is not an ISO 8601 moment"):
        call_command("send_digests", now="tomorrow")
