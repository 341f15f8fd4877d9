"""A write's live fragments are rendered once, in its transaction, and pushed with their content to each seat's own
group (campaigns_app.live.pages.publish, notifications.push); a socket holding the version before sends them on
without touching the database, a socket that missed a frame resyncs from it (campaigns_app.live.consumers)."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from django.db.backends import utils as db_utils
from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import notifications, presence_store
from campaigns_app.live import pages as live
from campaigns_app.phase import live_page
from tests.campaigns_app.conftest import client_for, new_campaign
from tests.campaigns_app.live.test_consumer import drain
from tests.campaigns_app.live.test_live import Pages, both_pages_open, pytest_async, seat_of, versions_in


class Queries:
    """Every SQL statement run while ``on``, from any thread (the consumers' database thread included)."""

    def __init__(self) -> None:
        self.count = 0
        self.on = False
        self.lock = threading.Lock()

    def add(self) -> None:
        if self.on:
            with self.lock:
                self.count += 1


def pages_open(campaign: Any) -> None:
    """Both players have their live page open (a write publishes only the views of seats with a page open)."""
    for side in ("german", "canadian"):
        presence_store.store().beat(campaign.public_id, side, f"test.live!{side}", presence_store.clock())


@pytest.fixture
def queries(monkeypatch: pytest.MonkeyPatch) -> Queries:
    found = Queries()
    for name in ("execute", "executemany"):
        original = getattr(db_utils.CursorWrapper, name)

        def counted(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            found.add()
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(db_utils.CursorWrapper, name, counted)
    return found


@pytest.fixture
def fresh_channel_layer() -> Iterator[None]:
    """A new layer object per test: the Redis layer's receive lock is bound to the event loop that first used it."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


class Held:
    """From ``hold()`` on, the frames the writes publish are held back instead of sent (the test delivers them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames: list[live.Frame] = []
        self.monkeypatch = monkeypatch

    def hold(self) -> None:
        self.monkeypatch.setattr(notifications, "push", lambda public_id, made: self.frames.extend(made))

    def of(self, side: str) -> list[live.Frame]:
        return [frame for frame in self.frames if frame.side == side]


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Held:
    return Held(monkeypatch)


class Layer:
    """A channel layer that records what each group is sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))


async def deliver(public_id: str, frame: live.Frame) -> None:
    await get_channel_layer().group_send(notifications.group_name(public_id, frame.side),
                                         notifications.frame_message(frame))


def test_each_seats_group_is_sent_only_its_own_fragments_and_only_those_that_changed(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    layer = Layer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    seats = {side: seat_of(campaign, side) for side in ("german", "canadian")}
    before = {side: live.published(seat.pk) for side, seat in seats.items()}

    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")

    after = {side: live.published(seat.pk) for side, seat in seats.items()}
    assert sorted(group for group, _ in layer.sent) == [f"campaign-{campaign.public_id}-canadian",
                                                       f"campaign-{campaign.public_id}-german"]
    for group, message in layer.sent:
        side = group.rsplit("-", 1)[1]
        old, new = before[side], after[side]
        assert old is not None and new is not None
        assert message == {"type": "campaign.frame", "version": old.version + 1, "previous": old.version,
                           "fragments": {key: html for key, html in new.fragments.items()
                                         if old.fragments[key] != html}}
        assert "dice-card" not in message["fragments"]  # unchanged: not sent
    sent = {group.rsplit("-", 1)[1]: message["fragments"] for group, message in layer.sent}
    assert "Your <strong>Attack</strong> chit is sealed" in sent["german"]["chit-panel"]
    assert "Has chosen" in "".join(sent["canadian"].values())
    assert "Attack</strong> chit is sealed" not in "".join(sent["canadian"].values())


def test_a_write_with_no_page_open_renders_nothing_and_a_page_opened_later_reads_it_fresh(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    layer = Layer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    renders: list[int] = []
    context = live_page.live_context
    monkeypatch.setattr(live_page, "live_context",
                        lambda seat, common=None, only=None: renders.append(seat.pk) or context(seat, common, only))

    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")

    assert renders == [] and layer.sent == []  # nobody is looking: no render, no frame
    view = live.published(seat_of(campaign, "german").pk)
    assert view is not None and "Your <strong>Attack</strong> chit is sealed" in view.fragments["chit-panel"]
    assert len(renders) == 1


def test_the_response_to_a_players_own_chit_reuses_the_rendering_its_write_published(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    monkeypatch.setattr(notifications, "push", lambda public_id, frames: None)
    client = client_for(users["gerd"])
    renders: list[int] = []
    context = live_page.live_context

    def counted(seat: Any, common: Any = None, only: Any = None) -> dict[str, Any]:
        renders.append(seat.pk)
        return context(seat, common, only)

    monkeypatch.setattr(live_page, "live_context", counted)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("chit_submit", args=[campaign.public_id]),
                               {"side": "german", "chit": "attack", "confirmed": "yes"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    assert sorted(renders) == sorted([seat_of(campaign, "german").pk, seat_of(campaign, "canadian").pk])
    view = live.published(seat_of(campaign, "german").pk)
    assert view is not None and response.content.decode() == view.stamped("chit-panel")


@pytest_async
async def test_a_frame_reaches_the_socket_and_is_sent_on_without_a_single_query(
    fresh_channel_layer: Any, queries: Queries, held: Held,
) -> None:
    pages: Pages = await both_pages_open()
    held.hold()
    await database_sync_to_async(services.chit_submit)(user=pages.german, public_id=pages.campaign.public_id,
                                                       side="german", chit="attack")
    (german,), (canadian,) = held.of("german"), held.of("canadian")

    queries.on = True
    await deliver(pages.campaign.public_id, german)
    await deliver(pages.campaign.public_id, canadian)
    german_seen = "".join(await drain(pages.german_socket, until="chit is sealed"))
    canadian_seen = "".join(await drain(pages.canadian_socket, until="Has chosen"))
    queries.on = False

    assert queries.count == 0
    assert german_seen == "".join(live.stamp(html, german.version) for html in german.fragments.values())
    assert canadian_seen == "".join(live.stamp(html, canadian.version) for html in canadian.fragments.values())
    assert versions_in(german_seen) == {german.version} and versions_in(canadian_seen) == {canadian.version}
    await pages.close()


@pytest_async
async def test_a_socket_that_missed_a_frame_resyncs_from_the_database(
    fresh_channel_layer: Any, queries: Queries, held: Held,
) -> None:
    pages: Pages = await both_pages_open()
    held.hold()
    public_id = pages.campaign.public_id
    await database_sync_to_async(services.chit_submit)(user=pages.canadian, public_id=public_id, side="canadian",
                                                       chit="attack")
    await database_sync_to_async(services.chit_submit)(user=pages.german, public_id=public_id, side="german",
                                                       chit="idle")
    missed, reveal = held.of("german")
    assert reveal.previous == missed.version

    queries.on = True
    await deliver(public_id, reveal)  # the socket never got ``missed``: it holds an older version
    seen = "".join(await drain(pages.german_socket, until='id="chit-reveal"'))
    queries.on = False

    assert queries.count > 0  # read from the database
    assert versions_in(seen) == {reveal.version}
    assert 'id="chit-reveal"' in seen and 'id="dice-card"' not in seen  # what changed since its last frame, no more
    await pages.close()


@pytest_async
async def test_a_frame_the_socket_already_sent_or_an_older_one_is_ignored(
    fresh_channel_layer: Any, held: Held,
) -> None:
    pages: Pages = await both_pages_open()
    held.hold()
    public_id = pages.campaign.public_id
    await database_sync_to_async(services.chit_submit)(user=pages.canadian, public_id=public_id, side="canadian",
                                                       chit="attack")
    await database_sync_to_async(services.chit_submit)(user=pages.german, public_id=public_id, side="german",
                                                       chit="idle")
    older, newest = held.of("german")
    await pages.german_socket.send_to(text_data='{"resync": 1}')  # reads the newest version from the database
    assert versions_in("".join(await drain(pages.german_socket, until='id="chit-reveal"'))) == {newest.version}

    await deliver(public_id, newest)
    await deliver(public_id, older)

    assert await drain(pages.german_socket) == []
    await pages.close()
