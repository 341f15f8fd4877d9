"""Secret purchases and rolls never reach the opponent: the Canadian's page, fragments (HTTP and websocket renders),
history pages and dice log are byte-identical whatever the German secretly bought and rolled; the Canadian's socket
frames carry none of it."""
from __future__ import annotations

import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.db import transaction
from django.urls import reverse

from campaigns_app import event_pages, services
from campaigns_app.models import EventRecord, Seat
from tests.campaigns_app.conftest import (
    client_for,
    deterministic_csrf,
    drive,
    load_rr,
    make_user,
    scrub_random,
    ws_fragments,
)
from tests.campaigns_app.live.test_consumer import drain, open_socket
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_history_pages import every_page
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm, page, players, started, state_of

ORDERS = {
    "nothing": [],
    "infantry on map and fortifications": [{"type": "rg", "rg_id": "I4", "setup_mode": "on-map"},
                                           {"type": "rg", "rg_id": "M1"}],
    "two AT sections": [{"type": "rg", "rg_id": "G2"}, {"type": "rg", "rg_id": "G3"}],
}


def canadian_renders(campaign: Any, users: Any, orders: list[dict[str, Any]]) -> tuple[Any, ...]:
    """The Canadian's page, fragments over HTTP, websocket fragments and history after the German's secret order and
    its 2.519 rolls (then rolled back, so the next variant starts from the same state and dice counters)."""
    with transaction.atomic():
        services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=orders)
        state = state_of(campaign)
        assert state.phase_ref == "2.520"  # both finished 2.518; 2.519 rolled the German's RG in secret
        client = client_for(users["cana"])
        history_url = reverse("campaign_history", args=[campaign.public_id])
        renders = (
            client.get(reverse("campaign_detail", args=[campaign.public_id])).content,
            client.get(reverse("campaign_fragments", args=[campaign.public_id])).content,
            ws_fragments(Seat.objects.get(campaign=campaign, side="canadian")),
            client.get(reverse("campaign_history", args=[campaign.public_id])).content,
            client.get(reverse("campaign_fragments", args=[campaign.public_id]) + "?part=step-panel").content,
            client.get(history_url + "?page=1").content,
            client.get(history_url + "?page=2").content,
            every_page(client, history_url),  # the last page, its count and bounds, included
            every_page(client, reverse("records_dice", args=[campaign.public_id])),
        )
        german_page = page(users["gerd"], campaign)
        events = EventRecord.objects.filter(campaign=campaign).count()
        transaction.set_rollback(True)
    return renders, german_page, events


def test_the_opponents_view_is_byte_identical_whatever_the_german_bought_and_rolled(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 3)  # history and dice log in several pages
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)

    results = {name: canadian_renders(campaign, users, orders) for name, orders in ORDERS.items()}

    seen = [renders for renders, _, _ in results.values()]
    assert all(renders == seen[0] for renders in seen[1:])
    history_pages = re.search(r"Page 2 of (\d+)", seen[0][6].decode())
    assert history_pages and int(history_pages.group(1)) > 3
    assert "1 roll: 0 public, 1 secret of yours." in seen[0][-1]  # the German's secret rolls are not counted
    assert len({events for _, _, events in results.values()}) > 1  # the German's secret events differ in number
    canadian_page = scrub_random(seen[0][0].decode(), campaign)
    for secret in ("I4", "Eng Pltn", "AT Sect", "PzGr", "on-map", "2.519 RG"):
        assert secret not in canadian_page
    german_page = results["infantry on map and fortifications"][1]
    assert "Eng Pltn" in german_page and "Only you" in german_page


@pytest.mark.django_db(transaction=True)
async def test_the_opponents_socket_carries_nothing_of_a_secret_order() -> None:
    channel_layers.backends.clear()

    def build() -> tuple[Any, Any, Any]:
        load_rr()
        users = {"gerd": make_user("gerd"), "cana": make_user("cana")}
        campaign = started(users)
        drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.518")
        return campaign, users["gerd"], users["cana"]

    campaign, german, canadian = await database_sync_to_async(build)()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(german_socket)
    await drain(canadian_socket)

    await database_sync_to_async(services.order_submit)(
        user=german, public_id=campaign.public_id, orders=ORDERS["infantry on map and fortifications"])
    german_seen = "".join(await drain(german_socket, until="Eng Pltn"))
    canadian_seen = "".join(await drain(canadian_socket, until="German: finished"))

    assert "Eng Pltn" in german_seen  # the German's own ledger summary
    assert 'id="checklist"' in canadian_seen and "German: finished" in canadian_seen  # only that he has finished
    for secret in ("I4", "Eng Pltn", "M1", "on-map", "15 FPP", "Bought for"):
        assert secret not in canadian_seen.replace(campaign.public_id, "")
    await german_socket.disconnect()
    await canadian_socket.disconnect()
    channel_layers.backends.clear()
