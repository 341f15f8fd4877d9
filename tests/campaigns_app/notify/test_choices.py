"""Each player's choice — every e-mail, one daily digest, or none — is honoured on all three campaign e-mail paths
(your move, pace reminders, messages), and a campaign's own choice beats the player's default."""
from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command

from campaigns_app import services
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign
from tests.campaigns_app.notify.helpers import choose_default, choose_for, created, queued


def _join(users: Any, campaign: Campaign, capture: Any) -> None:
    with capture(execute=True):
        services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)


def _gerd_mail() -> list[Any]:
    return [message for message in mail.outbox if message.to == ["gerd@example.org"]]


def test_each_sends_the_your_move_email_at_once_ending_with_the_one_click_link(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = created(users)
    _join(users, campaign, django_capture_on_commit_callbacks)

    [message] = _gerd_mail()
    assert message.subject == "Hill 112: your opponent has joined"
    assert message.body.rstrip().splitlines()[-1].startswith("http://refit.test/notifications/link/")
    assert "Choose which e-mails you get about “Hill 112” or about all your campaigns" in message.body
    assert queued(users["gerd"]) == []


def test_digest_queues_the_your_move_line_instead_of_sending(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    choose_default(users["gerd"], "digest")
    campaign = created(users)
    _join(users, campaign, django_capture_on_commit_callbacks)

    assert _gerd_mail() == []
    assert queued(users["gerd"]) == ["Your opponent has joined."]


def test_none_sends_and_queues_nothing_on_the_your_move_path(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    choose_default(users["gerd"], "none")
    campaign = created(users)
    _join(users, campaign, django_capture_on_commit_callbacks)

    assert _gerd_mail() == []
    assert queued(users["gerd"]) == []


@pytest.mark.parametrize(("choice", "sent", "lines"), [
    ("each", 1, []),
    ("digest", 0, ["A message from cana (Canadian): Ready when you are."]),
    ("none", 0, []),
])
def test_a_message_for_a_reader_away_follows_the_readers_choice(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any, choice: str, sent: int, lines: list[str]
) -> None:
    campaign = created(users)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    choose_default(users["gerd"], choice)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.message_send(public_id=campaign.public_id, user=users["cana"], text="Ready when you are.",
                              form_id=message_form_id(campaign, "canadian"))

    assert len(_gerd_mail()) == sent
    assert queued(users["gerd"]) == lines
    if sent:
        assert "Ready when you are." in _gerd_mail()[0].body and "/notifications/link/" in _gerd_mail()[0].body


def test_a_digest_reader_gets_every_message_in_the_digest_even_two_within_the_email_gap(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = created(users)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    choose_default(users["gerd"], "digest")
    for text in ("Ready when you are.", "Coffee first?"):  # the second within 15 minutes of the first
        with django_capture_on_commit_callbacks(execute=True):
            services.message_send(public_id=campaign.public_id, user=users["cana"], text=text,
                                  form_id=message_form_id(campaign, "canadian"))

    assert queued(users["gerd"]) == ["A message from cana (Canadian): Ready when you are.",
                                     "A message from cana (Canadian): Coffee first?"]
    assert _gerd_mail() == []


@pytest.mark.parametrize(("choice", "sent", "queued_lines"), [("each", 1, 0), ("digest", 0, 1), ("none", 0, 0)])
def test_a_pace_reminder_follows_the_players_choice(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any, choice: str, sent: int, queued_lines: int
) -> None:
    campaign = created(users, pace_hours=48)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    choose_default(users["gerd"], choice)
    since = datetime.fromisoformat(Campaign.objects.get(pk=campaign.pk).due["german"]["since"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("send_reminders", now=(since + timedelta(hours=36, minutes=1)).isoformat(), stdout=StringIO())

    assert len(_gerd_mail()) == sent
    assert len(queued(users["gerd"])) == queued_lines
    if queued_lines:
        assert queued(users["gerd"])[0].startswith("Your move is due soon (by ")
    if sent:
        assert _gerd_mail()[0].subject == "Hill 112: your move is due soon" and "/notifications/link/" in _gerd_mail()[0].body


def test_a_campaigns_own_choice_beats_the_players_default_both_ways(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    choose_default(users["gerd"], "none")
    loud, quiet, queued_one = created(users, "Loud"), created(users, "Quiet"), created(users, "Queued")
    choose_for(users["gerd"], loud, "each")
    choose_for(users["gerd"], queued_one, "digest")
    for campaign in (loud, quiet, queued_one):
        _join(users, campaign, django_capture_on_commit_callbacks)

    assert [message.subject for message in _gerd_mail()] == ["Loud: your opponent has joined"]
    assert queued(users["gerd"]) == ["Your opponent has joined."]

    choose_default(users["gerd"], "each")
    choose_for(users["gerd"], loud, "none")
    mail.outbox.clear()
    again = created(users, "Again")
    _join(users, again, django_capture_on_commit_callbacks)
    assert [message.subject for message in _gerd_mail()] == ["Again: your opponent has joined"]


def test_without_any_choice_every_email_goes_out_as_before(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = created(users)
    _join(users, campaign, django_capture_on_commit_callbacks)

    assert len(_gerd_mail()) == 1
