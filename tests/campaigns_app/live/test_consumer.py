"""The live page's websocket through the real ASGI stack (Origin check, session auth, channel layer — Redis under make test)."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from campaigns_app import services
from campaigns_app.asgi import application
from campaigns_app.live import pages as live
from campaigns_app.live import presence_store
from tests.campaigns_app.conftest import load_rr, make_user, new_campaign
from tests.campaigns_app.live.conftest import PresenceClock

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Any:
    """A new layer object per test: the Redis layer's receive lock is bound to the event loop that first used it."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()

ORIGIN = b"http://testserver"


def _session_cookie(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def open_socket(user: Any, public_id: str, origin: bytes = ORIGIN) -> tuple[WebsocketCommunicator, bool]:
    headers = [(b"origin", origin)]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(_session_cookie)(user)))
    communicator = WebsocketCommunicator(application, f"/ws/campaigns/{public_id}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return communicator, connected


async def drain(communicator: WebsocketCommunicator, quiet: float = 0.4, until: str | None = None,
                wait: float = 15.0) -> list[str]:
    """Every frame until the socket has been quiet for ``quiet`` seconds; with ``until``, first every frame until one
    contains that text (up to ``wait`` seconds: a loaded machine may take longer than ``quiet`` to push)."""
    frames: list[str] = []
    if until is not None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while not any(until in frame for frame in frames):
            left = deadline - loop.time()
            assert left > 0, f"no frame with {until!r} within {wait} s (got {len(frames)} frames)"
            frames.append(await communicator.receive_from(timeout=left))
    while not await communicator.receive_nothing(timeout=quiet):
        frames.append(await communicator.receive_from(timeout=2))
    return frames


async def setup_campaign(name: str = "Hill 112") -> tuple[Any, Any, Any, Any]:
    def build() -> tuple[Any, Any, Any, Any]:
        load_rr()
        german, canadian, carol = make_user("gerd"), make_user("cana"), make_user("carol")
        return new_campaign(german, canadian, name=name), german, canadian, carol

    return await database_sync_to_async(build)()


async def submit(user: Any, campaign: Any, side: str, chit: str) -> None:
    await database_sync_to_async(services.chit_submit)(user=user, public_id=campaign.public_id, side=side, chit=chit)


async def test_the_opponents_socket_never_receives_the_choice_before_the_reveal_and_both_receive_the_reveal() -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, ok_g = await open_socket(german, campaign.public_id)
    canadian_socket, ok_c = await open_socket(canadian, campaign.public_id)
    assert ok_g and ok_c
    await drain(german_socket)
    initial = await drain(canadian_socket)
    assert any('id="chit-form"' in frame for frame in initial)  # the connect frame carries the whole page state

    await submit(german, campaign, "german", "attack")
    german_frames, canadian_frames = await drain(german_socket), await drain(canadian_socket)

    assert any("Your <strong>Attack</strong> chit is sealed" in frame for frame in german_frames)
    assert canadian_frames, "the opponent's page is told that the German has chosen"
    seen = "".join(canadian_frames)
    assert "Has chosen" in seen
    for secret in ("chit is sealed", "chit-reveal", "German Assault", "Dual Attack", "chose Attack", "chose Idle",
                   "chit chit-attack", "chit chit-idle"):
        assert secret not in seen

    await submit(canadian, campaign, "canadian", "idle")
    for frames in (await drain(german_socket), await drain(canadian_socket)):
        revealed = "".join(frames)
        assert '<p class="reveal-label">German Assault</p>' in revealed  # RR 2.522: German Attack + Canadian Idle
        assert "Canadian sets up first." in revealed and "German moves first." in revealed

    await german_socket.disconnect()
    await canadian_socket.disconnect()


async def _canadian_frames_after_german_seals(german_chit: str) -> list[str]:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(german_socket)
    await drain(canadian_socket)
    await submit(german, campaign, "german", german_chit)
    frames = [frame.replace(campaign.public_id, "PUBLIC-ID") for frame in await drain(canadian_socket)]
    await german_socket.disconnect()
    await canadian_socket.disconnect()
    await database_sync_to_async(_wipe)()
    return frames


def _wipe() -> None:
    from django.contrib.auth.models import User

    from campaigns_app.models import Campaign

    Campaign.objects.all().delete()
    User.objects.all().delete()


async def test_the_opponents_frames_are_identical_whether_the_german_chose_attack_or_idle() -> None:
    after_attack = await _canadian_frames_after_german_seals("attack")
    after_idle = await _canadian_frames_after_german_seals("idle")
    assert after_attack and after_attack == after_idle


async def test_a_third_users_anonymous_and_foreign_origin_sockets_are_refused() -> None:
    campaign, german, _, carol = await setup_campaign()
    for user, origin in ((carol, ORIGIN), (None, ORIGIN), (german, b"http://evil.example")):
        communicator, connected = await open_socket(user, campaign.public_id, origin)
        assert connected is False
        await communicator.wait()
    unknown, connected = await open_socket(german, "A" * 22)
    assert connected is False
    assert presence_store.store().entries(campaign.public_id) == {}
    assert presence_store.store().entries("A" * 22) == {}


async def test_presence_shows_on_the_other_page_and_a_reconnect_resyncs_from_the_database() -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    await drain(german_socket)

    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(canadian_socket)
    players = "".join(await drain(german_socket))
    assert 'id="players"' in players and players.count("presence-online") == 2

    await canadian_socket.disconnect()
    players = "".join(await drain(german_socket))
    assert players.count("presence-online") == 1 and "presence-offline" in players

    await german_socket.disconnect()
    await submit(canadian, campaign, "canadian", "idle")  # happens while the German's page is away
    german_socket, _ = await open_socket(german, campaign.public_id)
    resync = "".join(await drain(german_socket))
    for fragment_id in ("campaign-status", "players", "owes", "chit-panel", "history-latest"):
        assert f'id="{fragment_id}"' in resync
    assert "Has chosen" in resync
    await german_socket.disconnect()


async def beat_and_wait(socket: WebsocketCommunicator) -> list[str]:
    """Send the page's heartbeat, then a resync: its frames come after the beat was handled (in order)."""
    await socket.send_to(text_data='{"heartbeat": 1, "HEADERS": {}}')
    await socket.send_to(text_data='{"resync": 1}')
    return await drain(socket, until='id="players"')


async def test_a_heartbeat_keeps_the_seat_online(presence_clock: PresenceClock) -> None:
    campaign, german, _, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    await drain(german_socket)
    presence_clock.advance(presence_store.ONLINE_WITHIN_SECONDS - 5)
    await beat_and_wait(german_socket)
    presence_clock.advance(10)  # the page opened longer ago than ONLINE_WITHIN, but beat 10 s ago

    assert presence_store.online(campaign.public_id) == {"german"}
    await german_socket.disconnect()
    assert presence_store.store().entries(campaign.public_id) == {}


async def test_a_heartbeat_that_changes_no_presence_pushes_nothing_and_renders_nothing(monkeypatch: Any) -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(german_socket, until="presence-online")
    await drain(canadian_socket, until="presence-online")
    await drain(german_socket)
    reads: list[Any] = []
    published = live.published

    def counted(seat_id: Any, notes: bool = False) -> Any:
        reads.append(seat_id)
        return published(seat_id, notes)

    monkeypatch.setattr(live, "published", counted)
    frames = await beat_and_wait(german_socket)

    assert len(reads) == 1, "only the resync read the seat's view: the heartbeat read nothing"
    assert len(frames) == 1  # the resync's frame, nothing before it
    assert await canadian_socket.receive_nothing(timeout=0.5)
    await german_socket.disconnect()
    await canadian_socket.disconnect()
