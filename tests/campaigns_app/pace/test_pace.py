"""Pace in the web app: proposed at creation and accepted by joining, deadlines on the page and in My campaigns,
reminders by `manage.py send_reminders` with a fixed clock (once each, never to a player on the page, never while
paused), overdue recorded in the history and shown, pauses asked for and agreed or declined."""
from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.engine import app_event
from campaigns_app.live import presence_store
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.services import pace as pace_services
from campaigns_app.services.core import append_events
from rules_engine.events import EventKind
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.lost_test_values import RR as RR_LOST


def _paced(users: Any, hours: int = 48) -> Campaign:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                        lost_values=RR_LOST, pace_hours=hours)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    return Campaign.objects.get(pk=campaign.pk)


@pytest.fixture
def remind(django_capture_on_commit_callbacks: Any) -> Callable[[datetime], str]:
    """Run the command as the scheduler would, at a fixed moment (its e-mails go out after commit)."""
    def run(moment: datetime) -> str:
        out = StringIO()
        with django_capture_on_commit_callbacks(execute=True):
            call_command("send_reminders", now=moment.isoformat(), stdout=out)
        return out.getvalue().strip()
    return run


def _since(campaign: Campaign, side: str) -> datetime:
    return datetime.fromisoformat(campaign.due[side]["since"])


def test_the_pace_is_on_the_invitation_and_the_join_page_and_the_clock_starts_at_joining(rr: Any, users: Any) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                        lost_values=RR_LOST, pace_hours=48)
    invite = client_for(users["gerd"]).get(reverse("campaign_invite", args=[campaign.public_id])).content.decode()
    token = campaign.invitations.get().token
    join = client_for(users["cana"]).get(reverse("campaign_join", args=[token])).content.decode()

    assert "<strong>Pace:</strong> 2 days per action" in invite
    assert "<strong>Pace:</strong> 2 days per action — agreed by joining" in join
    assert Campaign.objects.get(pk=campaign.pk).due == {}

    services.campaign_join(user=users["cana"], token=token)
    due = Campaign.objects.get(pk=campaign.pk).due  # RR: both sides play the Initial Scenario first
    assert set(due) == {"german", "canadian"} and due["german"] == due["canadian"]
    assert due["german"]["reminded"] == ""


def test_a_pace_not_offered_is_refused(rr: Any, users: Any) -> None:
    with pytest.raises(services.ServiceError, match="A pace is no time limit or one of 24, 48, 72, 168 hours"):
        services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                 lost_values=RR_LOST, pace_hours=5)


def test_reminders_go_out_once_before_and_once_after_the_deadline_and_overdue_is_recorded(
    rr: Any, users: Any, remind: Callable[[datetime], str]
) -> None:
    campaign = _paced(users)
    since = _since(campaign, "german")  # both sides owe the Initial Scenario since joining
    mail.outbox.clear()

    assert remind(since + timedelta(hours=35)) == "0 reminders sent."
    assert remind(since + timedelta(hours=36, minutes=1)) == "2 reminders sent."  # a quarter (12 h) left
    assert remind(since + timedelta(hours=40)) == "0 reminders sent."
    assert sorted(m.to[0] for m in mail.outbox) == ["cana@example.org", "gerd@example.org"]
    assert all("due soon" in m.subject for m in mail.outbox)

    assert remind(since + timedelta(hours=48, minutes=1)) == "2 reminders sent."
    assert remind(since + timedelta(hours=60)) == "0 reminders sent."
    overdue = [m for m in mail.outbox if "overdue" in m.subject]
    assert len(overdue) == 2 and "Nothing is played for you" in overdue[0].body
    assert EventRecord.objects.filter(campaign=campaign, kind="overdue").count() == 2
    page = client_for(users["gerd"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    assert page.count('<span class="badge badge-overdue">Overdue</span>') == 2
    history = client_for(users["cana"]).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()
    assert "Your action is overdue" in history and "The German side’s action is overdue" in history


def test_no_reminder_goes_to_a_player_with_the_page_open(rr: Any, users: Any, remind: Callable[[datetime], str]
                                                         ) -> None:
    campaign = _paced(users)
    for side in campaign.due:
        presence_store.store().beat(campaign.public_id, side, f"test.live!{side}", presence_store.clock())
    mail.outbox.clear()

    assert remind(max(_since(campaign, s) for s in campaign.due) + timedelta(hours=47)) == "0 reminders sent."
    assert mail.outbox == []
    assert all(entry["reminded"] == "" for entry in Campaign.objects.get(pk=campaign.pk).due.values())


def test_no_deadline_runs_while_paused_and_the_pause_moves_it(rr: Any, users: Any,
                                                              remind: Callable[[datetime], str]) -> None:
    campaign = _paced(users)
    start = max(_since(campaign, s) for s in campaign.due)
    services.pace.pause_ask(public_id=campaign.public_id, user=users["gerd"], until=(start + timedelta(days=3)).date(),
                            moment=start)
    services.pace.pause_answer(public_id=campaign.public_id, user=users["cana"], agree=True, moment=start)
    mail.outbox.clear()

    assert remind(start + timedelta(hours=50)) == "0 reminders sent."  # paused
    assert mail.outbox == []
    end = datetime.fromisoformat(Campaign.objects.get(pk=campaign.pk).pauses[0][1])  # the last day's end
    assert remind(end + timedelta(hours=35)) == "0 reminders sent."  # the 48 h run again from the pause's end
    assert remind(end + timedelta(hours=36, minutes=1)) == "2 reminders sent."
    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    assert '<span class="badge badge-wait">Paused</span> until' in page
    history = client_for(users["cana"]).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()
    assert "The German side asked for a pause until" in history and "You agreed to pause the campaign" in history


def test_a_pause_can_be_declined_and_bad_answers_are_refused(rr: Any, users: Any) -> None:
    campaign = _paced(users)
    url = reverse("campaign_pause", args=[campaign.public_id])
    answer = reverse("campaign_pause_answer", args=[campaign.public_id])

    bad = client_for(users["gerd"]).post(url, {"until": "someday"})
    assert bad.status_code == 400 and "is not a date: give the pause&#x27;s last day as YYYY-MM-DD." in bad.content.decode()
    far = (datetime.now().date() + timedelta(days=90)).isoformat()
    assert "at most 60 days from now" in client_for(users["gerd"]).post(url, {"until": far}).content.decode()
    soon = (datetime.now().date() + timedelta(days=5)).isoformat()
    assert client_for(users["gerd"]).post(url, {"until": soon}).status_code == 302
    own = client_for(users["gerd"]).post(answer, {"answer": "agree"})
    assert own.status_code == 400 and "There is no pause of your opponent&#x27;s to answer." in own.content.decode()

    assert client_for(users["cana"]).post(answer, {"answer": "decline"}).status_code == 302
    fresh = Campaign.objects.get(pk=campaign.pk)
    assert fresh.pauses == [] and fresh.pause_request == {}
    assert EventRecord.objects.filter(campaign=campaign, kind="pause-declined").count() == 1


def test_my_campaigns_lists_what_is_due_first_soonest_deadline_first(rr: Any, users: Any) -> None:
    slow, fast = _paced(users, 168), _paced(users, 24)
    Campaign.objects.filter(pk=slow.pk).update(name="Slow")
    Campaign.objects.filter(pk=fast.pk).update(name="Fast")
    page = client_for(users["gerd"]).get(reverse("campaign_list")).content.decode()

    assert page.index(">Fast<") < page.index(">Slow<")
    assert page.count("due by <time datetime=") == 2


def test_send_reminders_refuses_a_moment_without_a_time_zone(rr: Any) -> None:
    with pytest.raises(CommandError, match="--now needs a time zone"):
        call_command("send_reminders", now="2026-11-27T10:00", stdout=StringIO())


def test_a_pause_asked_for_names_its_end_as_a_moment_each_player_reads_in_local_time_and_the_date_box_is_bounded(
    rr: Any, users: Any
) -> None:
    campaign = _paced(users)
    today = datetime.now(UTC).date()
    last_day = today + timedelta(days=3)
    pace_services.pause_ask(public_id=campaign.public_id, user=users["gerd"], until=last_day)
    detail = reverse("campaign_detail", args=[campaign.public_id])

    answering = client_for(users["cana"]).get(detail).content.decode()
    asking = client_for(users["gerd"]).get(detail).content.decode()

    end = f"{today + timedelta(days=4)}T00:00:00+00:00"  # the last day's end: midnight UTC after it
    assert f'asks for a pause until <time datetime="{end}" data-local>' in answering
    assert f'You asked for a pause until <time datetime="{end}" data-local>' in asking
    for bare in (f"until {last_day}:", f"until {last_day};"):  # the card gives no bare date of unknown time zone
        assert bare not in answering + asking

    assert f"The German side asked for a pause until the end of {last_day} (UTC)." in answering  # history too

    pace_services.pause_answer(public_id=campaign.public_id, user=users["cana"], agree=False)
    form = client_for(users["gerd"]).get(detail).content.decode()
    assert (f'<input type="date" id="pause-until" name="until" required min="{today + timedelta(days=1)}" '
            f'max="{today + timedelta(days=60)}"') in form
    assert f"You declined the pause until the end of {last_day} (UTC)." in client_for(users["cana"]).get(detail).content.decode()
    assert "Last day of the pause <span class=\"muted small\">(a UTC day, at most 60 days ahead)</span>" in form


def test_a_pause_day_refused_is_named_with_the_days_allowed(rr: Any, users: Any) -> None:
    campaign = _paced(users)
    today = datetime.now(UTC).date()
    url = reverse("campaign_pause", args=[campaign.public_id])

    refused = client_for(users["gerd"]).post(url, {"until": today.isoformat()})

    assert refused.status_code == 400
    assert (f"{today} is not allowed: a pause&#x27;s last day is a UTC day from {today + timedelta(days=1)} to "
            f"{today + timedelta(days=60)} (at most 60 days from now).") in refused.content.decode()


def test_a_refused_pause_or_pace_keeps_its_form_open_under_the_error(rr: Any, users: Any) -> None:
    campaign = _paced(users)
    htmx = {"HTTP_HX_REQUEST": "true"}

    pause = client_for(users["gerd"]).post(reverse("campaign_pause", args=[campaign.public_id]), {"until": "soon"}, **htmx)
    new_pace = client_for(users["gerd"]).post(reverse("campaign_pace", args=[campaign.public_id]), {"hours": "5"}, **htmx)

    assert pause.status_code == new_pace.status_code == 422
    assert '<details class="pause-ask" open>' in pause.content.decode()
    assert '<details class="pace-change">' in pause.content.decode()
    assert '<details class="pace-change" open>' in new_pace.content.decode()
    assert '<details class="pause-ask">' in new_pace.content.decode()


def test_the_history_gives_an_overdue_lines_deadline_as_a_local_time_with_utc_text_without_javascript(
    rr: Any, users: Any
) -> None:
    campaign = _paced(users)
    with transaction.atomic():
        append_events(Campaign.objects.select_for_update().get(pk=campaign.pk),
                      [app_event(EventKind.OVERDUE, side="german", owes="the Initial Scenario",
                                 deadline="05 Dec 2026 14:00")])
    due = ('<time datetime="2026-12-05T14:00:00+00:00" data-local>5 Dec 2026, 14:00 UTC</time>')

    history = client_for(users["cana"]).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()
    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()

    assert f"The German side’s action is overdue (the Initial Scenario); it was due by {due}." in history
    assert f"The German side’s action is overdue (the Initial Scenario); it was due by {due}." in page
    assert "14:00 UTC." not in history.replace(due, "")
