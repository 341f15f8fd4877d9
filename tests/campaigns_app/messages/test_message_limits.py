"""Message bounds with a fixed clock: at most 30 messages a side in any hour and 2,000 a campaign, refused with 429
(the htmx fragment or the page) saying when the writer may write again, nothing saved; and a reader who is away gets
at most one message e-mail per 15 minutes while the messages stay unread, the next one counting those not e-mailed."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from campaigns_app import services
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign, EventRecord, Seat
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.phase.test_phase_flow import started

HTMX = {"HTTP_HX_REQUEST": "true"}


def at(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, 27, hour, minute, tzinfo=UTC)


def write(user: Any, campaign: Campaign, text: str, moment: datetime) -> Campaign | None:
    side = "german" if user.username == "gerd" else "canadian"
    return services.message_send(public_id=campaign.public_id, user=user, text=text,
                                 form_id=message_form_id(campaign, side), moment=moment)


def post(user: Any, campaign: Campaign, text: str, **headers: str) -> Any:
    side = "german" if user.username == "gerd" else "canadian"
    data = {"text": text, "form_id": message_form_id(campaign, side)}
    return client_for(user).post(reverse("campaign_message", args=[campaign.public_id]), data, **headers)


def count(campaign: Campaign, side: str | None = None) -> int:
    found = EventRecord.objects.filter(campaign=campaign, kind="message")
    return found.filter(side=side).count() if side else found.count()


def test_the_31st_message_within_an_hour_waits_until_the_first_of_the_30_is_an_hour_old(rr: Any, users: Any) -> None:
    campaign = started(users)
    for minute in range(30):  # 10:00 … 10:29
        assert write(users["gerd"], campaign, f"Message {minute}", at(10, minute))

    with pytest.raises(services.RateLimited) as refused:
        write(users["gerd"], campaign, "One too many", at(10, 45))

    assert str(refused.value) == ("You have written 30 messages within an hour, the most a side may: you may write "
                                  "again at 11:00 UTC on 27 Nov 2026.")
    assert refused.value.again == at(11, 0)
    assert count(campaign) == 30
    assert write(users["cana"], campaign, "The other side still writes", at(10, 46))  # the bound is per side
    assert write(users["gerd"], campaign, "An hour later", at(11, 0))
    assert count(campaign, "german") == 31


def test_too_many_messages_are_refused_with_429_saying_when_and_nothing_is_saved(rr: Any, users: Any) -> None:
    campaign = started(users)
    first = timezone.now().replace(second=0, microsecond=0) - timedelta(minutes=30)
    for minute in range(30):
        write(users["gerd"], campaign, f"Message {minute}", first + timedelta(minutes=minute))
    again = first + timedelta(hours=1)
    said = f"you may write again at {again:%H:%M} UTC on {again:%d %b %Y}."

    htmx = post(users["gerd"], campaign, "One too many", **HTMX)
    plain = post(users["gerd"], campaign, "One too many")

    assert htmx.status_code == 429 and plain.status_code == 429
    assert htmx.content.decode().startswith('<div id="message-error"><p class="field-error" role="alert">You have '
                                            "written 30 messages within an hour")
    assert said in htmx.content.decode() and said in plain.content.decode()
    assert 'id="message-text"' in plain.content.decode()  # the page, with the form to write again later
    assert 0 < int(htmx["Retry-After"]) <= 30 * 60
    assert count(campaign) == 30


def test_a_campaign_holding_2000_messages_refuses_more_with_429_and_no_retry(rr: Any, users: Any) -> None:
    campaign = started(users)
    seq = Campaign.objects.get(pk=campaign.pk).event_seq
    EventRecord.objects.bulk_create(
        EventRecord(campaign=campaign, seq=seq + n, kind="message", visibility="public",
                    side=("german", "canadian")[n % 2], payload={"text": f"#{n}", "form": ""},
                    created=at(1) - timedelta(minutes=n))
        for n in range(1, 2001))
    Campaign.objects.filter(pk=campaign.pk).update(event_seq=seq + 2000)

    htmx = post(users["cana"], campaign, "Still here?", **HTMX)
    plain = post(users["cana"], campaign, "Still here?")

    words = "This campaign keeps at most 2,000 messages and holds them all: no more can be written here."
    assert htmx.status_code == 429 and words in htmx.content.decode() and "Retry-After" not in htmx
    assert plain.status_code == 429 and words in plain.content.decode()
    assert count(campaign) == 2000


def test_a_reader_away_gets_one_email_per_15_minutes_and_the_next_counts_the_ones_not_emailed(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = started(users)
    mail.outbox.clear()

    def send(text: str, moment: datetime) -> list[str]:
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            write(users["gerd"], campaign, text, moment)
        return [m.body for m in mail.outbox]

    first = send("Ready at dawn", at(9, 0))
    assert len(first) == 1 and "Ready at dawn" in first[0] and "more message" not in first[0]
    assert send("Bring the Shermans", at(9, 5)) == []
    assert send("And the Fireflies", at(9, 14)) == []
    fourth = send("Well?", at(9, 15))
    assert len(fourth) == 1 and "Well?" in fourth[0]
    assert "gerd also wrote 2 more messages since the last e-mail: read them on the campaign page." in fourth[0]

    Seat.objects.filter(campaign=campaign, side="canadian").update(last_seen=at(9, 20))  # the reader came and read
    fifth = send("Thanks for reading", at(9, 25))
    assert len(fifth) == 1 and "more message" not in fifth[0]
    assert send("One more thing", at(9, 30)) == []
