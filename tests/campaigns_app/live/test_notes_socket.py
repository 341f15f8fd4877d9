"""The notes page's websocket (/ws/campaigns/<id>/notes/): it keeps its side online like the campaign page's, and the
opponent's seal, secret roll and reveal reach it without a reload — only as that side may see them."""
from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from campaigns_app import services
from campaigns_app.asgi import application
from campaigns_app.campaigns.selectors import seat_online
from campaigns_app.live import presence_store
from tests.campaigns_app.live.conftest import PresenceClock
from tests.campaigns_app.live.test_consumer import (
    ORIGIN,
    beat_and_wait,
    drain,
    fresh_channel_layer,
    open_socket,
    setup_campaign,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["fresh_channel_layer"]  # the autouse fixture, used here too
FORM = "a" * 32


def session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_notes_socket(user: Any, public_id: str) -> WebsocketCommunicator:
    """The player's notes page's socket (Origin header and session cookie, as a browser sends them)."""
    headers = [(b"origin", ORIGIN), (b"cookie", await database_sync_to_async(session_cookie)(user))]
    communicator = WebsocketCommunicator(application, f"/ws/campaigns/{public_id}/notes/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


async def test_the_opponents_notes_page_gets_the_shadow_of_a_sealed_note_and_a_secret_roll_then_their_reveals() -> None:
    campaign, german, canadian, _ = await setup_campaign()
    notes_socket = await open_notes_socket(canadian, campaign.public_id)
    first = "".join(await drain(notes_socket, until='id="secret-rolls-list"'))
    assert 'id="notes-list"' in first and "has sealed no note" in first
    assert 'id="campaign-status"' not in first, "the notes page's socket sends only the notes page's fragments"

    seal = database_sync_to_async(services.note_seal)
    await seal(public_id=campaign.public_id, user=german, text="HIP 9-1 in K5", form_id=FORM)
    frames = "".join(await drain(notes_socket, until="Note #1"))
    assert 'id="notes-list"' in frames and "Sealed: its text stays hidden" in frames and "K5" not in frames

    roll = database_sync_to_async(services.secret_roll)
    await roll(public_id=campaign.public_id, user=german, kind="DR", purpose="Quagmire check O7", form_id=FORM)
    frames = "".join(await drain(notes_socket, until="Secret DR #1"))
    assert 'id="secret-rolls-list"' in frames and "Hidden: its purpose and dice" in frames
    assert "Quagmire" not in frames and 'id="notes-list"' not in frames, "only the fragment that changed"

    await database_sync_to_async(services.note_reveal)(public_id=campaign.public_id, user=german, number=1)
    assert "HIP 9-1 in K5" in "".join(await drain(notes_socket, until="Matches the commitment"))
    await database_sync_to_async(services.secret_roll_reveal)(public_id=campaign.public_id, user=german, number=1)
    assert "Quagmire check O7" in "".join(await drain(notes_socket, until="Quagmire"))
    await notes_socket.disconnect()


async def test_a_notes_page_socket_counts_its_side_online_on_the_other_page_and_while_it_beats(
    presence_clock: PresenceClock,
) -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    await drain(german_socket)

    notes_socket = await open_notes_socket(canadian, campaign.public_id)
    await drain(notes_socket)
    players = "".join(await drain(german_socket, until="presence-online"))
    assert players.count("presence-online") == 2
    assert await database_sync_to_async(seat_online)(campaign.public_id, "canadian")

    presence_clock.advance(presence_store.ONLINE_WITHIN_SECONDS - 5)
    await notes_socket.send_to(text_data='{"heartbeat": 1}')
    await notes_socket.send_to(text_data='{"resync": 1}')
    await drain(notes_socket, until='id="notes-list"')  # sent after the beat was handled (in order)
    await beat_and_wait(german_socket)
    presence_clock.advance(10)  # the notes page opened longer ago than ONLINE_WITHIN, but beat 10 s ago
    assert presence_store.online(campaign.public_id) == {"german", "canadian"}

    await notes_socket.disconnect()
    assert presence_store.online(campaign.public_id) == {"german"}
    await german_socket.disconnect()


async def test_a_reconnecting_notes_page_resyncs_what_it_missed_from_the_database() -> None:
    campaign, german, canadian, _ = await setup_campaign()
    notes_socket = await open_notes_socket(canadian, campaign.public_id)
    await drain(notes_socket)
    await notes_socket.disconnect()

    await database_sync_to_async(services.note_seal)(public_id=campaign.public_id, user=german, text="Plan B",
                                                     form_id=FORM)  # while the Canadian's notes page is away
    notes_socket = await open_notes_socket(canadian, campaign.public_id)
    resync = "".join(await drain(notes_socket, until="Note #1"))
    assert 'id="notes-list"' in resync and 'id="secret-rolls-list"' in resync and "Plan B" not in resync
    await notes_socket.disconnect()
