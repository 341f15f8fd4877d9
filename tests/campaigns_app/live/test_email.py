"""E-mail: the other player hears when an action becomes due for them — unless their live page is open."""
from __future__ import annotations

from typing import Any

from django.core import mail

from campaigns_app import services
from campaigns_app.live import presence_store
from tests.campaigns_app.lost_test_values import RR as RR_LOST


def test_the_creator_is_emailed_with_a_link_when_the_opponent_joins(
    users: Any, rr: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)

    assert [message.to for message in mail.outbox] == [["gerd@example.org"]]
    message = mail.outbox[0]
    assert "your opponent has joined" in message.subject
    assert f"http://refit.test/campaigns/{campaign.public_id}/" in message.body
    assert "cana has joined" in message.body


def test_the_player_still_to_choose_is_emailed_when_the_opponent_chooses_and_the_choice_is_not_in_it(
    campaign_factory: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")

    assert [message.to for message in mail.outbox] == [["cana@example.org"]]
    text = mail.outbox[0].subject + mail.outbox[0].body
    assert "choose your Initiative chit" in text
    assert "attack" not in text.lower()


def test_the_first_chooser_is_emailed_when_the_reveal_happens(
    campaign_factory: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="idle")

    assert [message.to for message in mail.outbox] == [["gerd@example.org"]]
    assert "revealed" in mail.outbox[0].subject


def test_no_email_goes_to_a_player_who_is_on_the_live_page(
    campaign_factory: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    presence_store.store().beat(campaign.public_id, "canadian", "test.live!1", presence_store.clock())
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="idle")
    assert mail.outbox == []
