"""The live page's published views (campaigns_app.live.pages): one rendering per seat and campaign revision, shared by the
seat's websocket frames and htmx responses, and a version per side that moves exactly when that side's page changes —
never with the opponent's secret actions."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import fragments, presence_store
from campaigns_app.live import pages as live
from campaigns_app.models import Campaign, Seat
from campaigns_app.phase import history as phase_history
from tests.campaigns_app.conftest import client_for, drive
from tests.campaigns_app.live.conftest import PresenceClock
from tests.campaigns_app.live.test_consumer import drain, open_socket, setup_campaign
from tests.campaigns_app.phase.test_phase_flow import players, started

VERSION = re.compile(r'data-live-version="(\d+)"')


def versions_in(html: str) -> set[int]:
    return {int(v) for v in VERSION.findall(html)}


def seat_of(campaign: Campaign, side: str) -> Seat:
    return Seat.objects.select_related("user").get(campaign=campaign, side=side)


def version_of(campaign: Campaign, side: str) -> int:
    view = live.published(seat_of(campaign, side).pk)
    assert view is not None
    return view.version


def test_every_action_moves_a_sides_version_exactly_when_its_page_changes(rr: Any, users: Any) -> None:
    campaign = started(users)
    seats = [seat_of(campaign, side) for side in ("german", "canadian")]
    last: dict[int, tuple[dict[str, str], int]] = {}
    moves = {seat.side: 0 for seat in seats}

    def check(state: Any) -> bool:
        for seat in seats:
            fresh = fragments.live_fragments(seat, live_version=live.VERSION_MARK)
            view = live.published(seat.pk)
            assert view is not None
            # a write that forgot to move the revision would leave the stored rendering behind the page's truth
            assert view.fragments == fresh, f"{seat.side}: stale published view at {state.date_id} {state.phase_ref}"
            if seat.pk in last:
                before, version = last[seat.pk]
                assert view.version == (version if fresh == before else version + 1), (seat.side, state.phase_ref)
                moves[seat.side] += view.version - version
            last[seat.pk] = (fresh, view.version)
        return bool(state.step == "results")

    drive(campaign, players(users), check)
    assert moves["german"] > 5 and moves["canadian"] > 5


def test_the_opponents_secret_roll_moves_the_revision_but_not_the_other_sides_version(rr: Any, users: Any) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.513")
    german, canadian = version_of(campaign, "german"), version_of(campaign, "canadian")
    revision = Campaign.objects.get(pk=campaign.pk).revision

    services.assisted_roll_submit(user=users["gerd"], public_id=campaign.public_id, step_ref="2.513",
                                  table_id="shift", answers={})  # RR 2.513: a secret Shift DR

    assert Campaign.objects.get(pk=campaign.pk).revision > revision
    assert version_of(campaign, "german") == german + 1  # his page shows his own roll
    assert version_of(campaign, "canadian") == canadian  # the Canadian's page is the same, and so is its version


def test_every_live_fragment_of_the_page_and_of_a_response_carries_the_published_version(
    rr: Any, users: Any
) -> None:
    campaign = started(users)
    version = version_of(campaign, "german")
    client = client_for(users["gerd"])
    page = client.get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    response = client.get(reverse("campaign_fragments", args=[campaign.public_id]), HTTP_HX_REQUEST="true")
    for html in (page, response.content.decode()):
        assert html.count("data-live-version=") == len(fragments.FRAGMENTS)
        assert versions_in(html) == {version}
    assert live.VERSION_MARK not in page + response.content.decode()


def test_the_latest_events_read_from_the_newest_back_are_the_end_of_the_whole_history(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.step == "initiative")
    for user, side, chit in ((users["gerd"], "german", "attack"), (users["cana"], "canadian", "idle")):
        # a pair each: the side's own "chose …" and the public "has chosen", which its own history shows once
        services.chit_submit(user=user, public_id=campaign.public_id, side=side, chit=chit)
    campaign.refresh_from_db()
    for window in range(1, 9):  # windows of 2 to 8 events: some start between a pair
        monkeypatch.setattr(phase_history, "HISTORY_WINDOW", window)
        for side in ("german", "canadian"):
            seat = seat_of(campaign, side)
            whole = phase_history.history(campaign, seat)
            for latest in range(1, 8):
                assert phase_history.history(campaign, seat, latest=latest) == whole[-latest:], (window, side, latest)


# --- over the websocket --------------------------------------------------------------------------------------------

pytest_async = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_channel_layer() -> Any:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@dataclass
class Pages:
    """A campaign with both players' live pages open, their first frames read."""

    campaign: Any
    german: Any
    canadian: Any
    german_socket: Any
    canadian_socket: Any
    german_seen: str

    async def close(self) -> None:
        await self.german_socket.disconnect()
        await self.canadian_socket.disconnect()


async def both_pages_open() -> Pages:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    german_seen = "".join(await drain(german_socket, until="data-live-version"))
    await drain(canadian_socket, until="data-live-version")
    return Pages(campaign, german, canadian, german_socket, canadian_socket, german_seen)


def _chit_post(user: Any, campaign: Any, side: str, chit: str) -> str:
    response = client_for(user).post(reverse("chit_submit", args=[campaign.public_id]),
                                     {"side": side, "chit": chit, "confirmed": "yes"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


@pytest_async
async def test_a_response_and_a_frame_of_one_moment_carry_one_version_and_a_later_moment_a_higher_one(
    fresh_channel_layer: Any,
) -> None:
    pages = await both_pages_open()
    before = max(versions_in(pages.german_seen))  # his page's newest fragments (they showed the Canadian arrive)

    response = await database_sync_to_async(_chit_post)(pages.german, pages.campaign, "german", "attack")
    frame = "".join(await drain(pages.german_socket, until="data-live-version"))

    assert len(versions_in(frame)) == 1 and versions_in(response) == versions_in(frame)
    assert min(versions_in(frame)) > before  # an older rendering can never replace it on the page
    await pages.close()


@pytest_async
async def test_a_resync_makes_the_socket_send_every_fragment_again(fresh_channel_layer: Any) -> None:
    campaign, german, _, _ = await setup_campaign()
    socket, _ = await open_socket(german, campaign.public_id)
    await drain(socket)
    await socket.send_to(text_data='{"heartbeat": 1}')
    assert await drain(socket) == []  # nothing changed: nothing sent

    await socket.send_to(text_data='{"resync": 1}')
    again = "".join(await drain(socket, until='id="players"'))

    for fragment_id in fragments.FRAGMENTS:
        assert f'id="{fragment_id}"' in again
    await socket.disconnect()


@pytest_async
async def test_a_second_page_of_a_side_already_online_sends_the_opponent_nothing(fresh_channel_layer: Any) -> None:
    pages = await both_pages_open()

    second_tab, _ = await open_socket(pages.german, pages.campaign.public_id)
    await drain(second_tab)
    await second_tab.disconnect()
    assert await drain(pages.canadian_socket) == []

    await pages.german_socket.disconnect()
    players_frame = "".join(await drain(pages.canadian_socket, until="presence-offline"))
    assert 'id="players"' in players_frame and "presence-offline" in players_frame
    await pages.canadian_socket.disconnect()


@pytest_async
async def test_a_page_that_stopped_beating_shows_offline_on_the_other_page_at_its_next_heartbeat(
    fresh_channel_layer: Any, presence_clock: PresenceClock,
) -> None:
    pages = await both_pages_open()
    presence_clock.advance(presence_store.ONLINE_WITHIN_SECONDS - 5)
    await pages.canadian_socket.send_to(text_data='{"heartbeat": 1}')
    assert await drain(pages.canadian_socket) == []  # both pages fresh: nothing changed

    presence_clock.advance(10)  # the German's page went away without closing 5 s past ONLINE_WITHIN ago
    await pages.canadian_socket.send_to(text_data='{"heartbeat": 1}')
    seen = "".join(await drain(pages.canadian_socket, until="presence-offline"))

    assert 'id="players"' in seen and seen.count("presence-online") == 1 and "presence-offline" in seen
    await pages.close()


@pytest_async
async def test_a_page_forgotten_while_it_was_away_is_online_again_at_its_next_heartbeat(
    fresh_channel_layer: Any, presence_clock: PresenceClock,
) -> None:
    pages = await both_pages_open()
    presence_clock.advance(presence_store.ONLINE_WITHIN_SECONDS - 5)
    await pages.german_socket.send_to(text_data='{"heartbeat": 1}')
    assert await drain(pages.german_socket) == []
    presence_clock.advance(10)  # the Canadian's laptop slept: no heartbeat for longer than ONLINE_WITHIN, socket open

    await pages.german_socket.send_to(text_data='{"heartbeat": 1}')  # his beat forgets the Canadian's page
    assert "presence-offline" in "".join(await drain(pages.german_socket, until="presence-offline"))

    await pages.canadian_socket.send_to(text_data='{"heartbeat": 1}')  # it wakes up
    seen = "".join(await drain(pages.german_socket, until='id="players"'))

    assert 'id="players"' in seen and seen.count("presence-online") == 2
    await pages.close()
