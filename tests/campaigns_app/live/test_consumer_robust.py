"""Websockets survive bad input (issue 10.4): a bad message is ignored, an error while handling one closes the socket
with a close frame and clears its presence, and a socket to an unknown path is refused at the handshake, not a 500."""
from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from campaigns_app.asgi import application
from campaigns_app.live import pages as live
from campaigns_app.live import presence_store
from campaigns_app.live.consumers import CLOSE_ERROR
from tests.campaigns_app.live.test_consumer import ORIGIN, drain, fresh_channel_layer, open_socket, setup_campaign  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def online_sockets(public_id: str) -> int:
    return len(presence_store.store().entries(public_id))


BAD_MESSAGES = ["[" * 2000, "{" * 3000, "not json", "[1, 2]", '"text"', "null", "\ufffd" * 10,
                '{"heartbeat": ' + "9" * 4000 + "}", "x" * 10_000, '{"resync": ' + "[" * 1000 + "}"]


async def test_a_bad_message_is_ignored_and_the_socket_stays_open_and_online() -> None:
    campaign, german, _, _ = await setup_campaign()
    socket, connected = await open_socket(german, campaign.public_id)
    assert connected
    await drain(socket)
    for message in BAD_MESSAGES:
        await socket.send_to(text_data=message)
        assert await socket.receive_nothing(timeout=0.3), message[:20]  # no frame, no close
    await socket.send_to(text_data='{"resync": 1}')
    frames = "".join(await drain(socket))
    assert 'id="players"' in frames, "the socket still answers after the bad messages"
    assert online_sockets(campaign.public_id) == 1
    await socket.disconnect()
    assert online_sockets(campaign.public_id) == 0


async def test_binary_frames_are_ignored() -> None:
    campaign, german, _, _ = await setup_campaign()
    socket, _ = await open_socket(german, campaign.public_id)
    await drain(socket)
    await socket.send_to(bytes_data=b"\x00\xff" * 100)
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect()


async def test_an_error_while_handling_a_message_closes_the_socket_cleanly_and_clears_its_presence(
    monkeypatch: Any,
) -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    await drain(german_socket)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(canadian_socket)
    await drain(german_socket)
    assert online_sockets(campaign.public_id) == 2

    canadian_seat = await database_sync_to_async(lambda: campaign.seats.get(side="canadian").pk)()
    published = live.published

    def broken(seat_id: Any) -> Any:
        if seat_id == canadian_seat:
            raise RuntimeError("a fault injected into rendering the Canadian's view")
        return published(seat_id)

    monkeypatch.setattr(live, "published", broken)
    await canadian_socket.send_to(text_data='{"resync": 1}')
    closed = await canadian_socket.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": CLOSE_ERROR}
    assert online_sockets(campaign.public_id) == 1, "the closed socket's presence is cleared at once"
    players = "".join(await drain(german_socket))
    assert players.count("presence-online") == 1 and "presence-offline" in players
    await german_socket.disconnect()


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/campaigns/", "/", "/ws/campaigns/x/y/z/"])
async def test_a_websocket_to_an_unknown_path_is_refused_at_the_handshake(path: str) -> None:
    communicator = WebsocketCommunicator(application, path, headers=[(b"origin", ORIGIN)])
    connected, code = await communicator.connect(timeout=5)
    assert connected is False and code == 1000  # a refused handshake (HTTP 403), no exception in the server
    await communicator.wait(timeout=1)
