"""The notes page is a live page: it opens its seat's notes socket, its two lists carry the version of the seat's view
(so the socket's first push swaps nothing), and a write renders the notes page's fragments only while a notes page of
the seat is open."""
from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import presence_store
from campaigns_app.models import LiveView, Seat
from tests.campaigns_app.conftest import client_for, new_campaign
from tests.campaigns_app.live.test_push import pages_open

FORM = "a" * 32


def test_the_notes_page_opens_its_socket_and_its_lists_carry_the_version_of_the_seats_view(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])

    page = client_for(users["cana"]).get(reverse("campaign_notes", args=[campaign.public_id])).content.decode()

    assert f'ws-connect="/ws/campaigns/{campaign.public_id}/notes/"' in page and 'id="live-indicator"' in page
    stored = LiveView.objects.get(seat=Seat.objects.get(campaign=campaign, side="canadian"))
    for fragment_id in ("notes-list", "secret-rolls-list"):
        found = re.search(rf'id="{fragment_id}" data-live-version="(\d+)"', page)
        assert found and int(found.group(1)) == stored.version
        assert fragment_id in stored.fragments


def test_a_write_renders_no_notes_fragment_while_only_the_campaign_pages_are_open(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)

    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text="Plan B", form_id=FORM)

    for view in LiveView.objects.filter(seat__campaign=campaign):
        assert "history-latest" in view.fragments and "notes-list" not in view.fragments


def test_a_write_publishes_the_notes_fragments_of_a_seat_whose_notes_page_is_open(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    socket = presence_store.socket_key("test.notes!canadian", presence_store.NOTES_PAGE)
    presence_store.store().beat(campaign.public_id, "canadian", socket, presence_store.clock())

    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text="Plan B", form_id=FORM)

    canadian = LiveView.objects.get(seat=Seat.objects.get(campaign=campaign, side="canadian"))
    assert "Note #1" in canadian.fragments["notes-list"] and "Plan B" not in canadian.fragments["notes-list"]
    assert not LiveView.objects.filter(seat__campaign=campaign, seat__side="german").exists()
    assert presence_store.online(campaign.public_id) == {"canadian"}, "a notes page counts its side online"
