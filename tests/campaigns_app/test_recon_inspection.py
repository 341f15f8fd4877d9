"""RR 2.524 Recon Inspection: the side that bought Recon at 2.521 sees, at 2.524, how many Locations it may
reconnoiter (its Recon Final dr, 2.521: "the number of Locations in which the opponent will have to reveal units and
Fortifications"); the opponent's page, fragments and history are byte-identical whether or not it bought Recon."""
from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Seat
from tests.campaigns_app.conftest import client_for, deterministic_csrf, drive, ws_fragments
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import page, players, started, state_of


def at_2524(campaign: Any, users: Any, extra: int | None) -> tuple[tuple[Any, ...], str, Any]:
    """From 19 PM 2.521: the German buys Recon (``extra`` CPP more) or none, the Canadian none; both play on to 2.524.
    The Canadian's renders, the German's page and the German's Recon count there (then rolled back)."""
    with transaction.atomic():
        services.recon_submit(user=users["gerd"], public_id=campaign.public_id, extra=extra)
        services.recon_submit(user=users["cana"], public_id=campaign.public_id, extra=None)
        drive(campaign, players(users), lambda s: s.phase_ref == "2.524")
        client = client_for(users["cana"])
        renders = (
            client.get(reverse("campaign_detail", args=[campaign.public_id])).content,
            client.get(reverse("campaign_fragments", args=[campaign.public_id])).content,
            ws_fragments(Seat.objects.get(campaign=campaign, side="canadian")),
            client.get(reverse("campaign_history", args=[campaign.public_id])).content,
        )
        line = state_of(campaign).ledgers["german"].roster_line("19 PM")
        german_page = page(users["gerd"], campaign)
        transaction.set_rollback(True)
    return renders, german_page, line.recon if line is not None else None


def test_at_recon_inspection_the_side_that_bought_recon_sees_its_locations_and_the_opponents_view_is_unchanged(
        rr: Any, users: Any, monkeypatch: Any) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.521")

    none_renders, none_page, none_recon = at_2524(campaign, users, None)
    bought_renders, bought_page, recon = at_2524(campaign, users, 0)

    assert none_recon is None and isinstance(recon, int)
    shown = re.search(r'<p class="turn-line" id="recon-inspection">(.*?)</p>', bought_page, re.S)
    assert shown, "the German page at 2.524 does not say how many Locations it may reconnoiter"
    assert f"You may reconnoiter <strong>{recon}</strong> Location" in shown.group(1)
    assert "Recon Final dr, 2.521" in shown.group(1)
    assert 'id="recon-inspection"' not in none_page
    # 2.521 Recon is revealed at 2.524 and its Locations are declared openly, German first (issue 14 item 8): the
    # Canadian's page may say whose turn it is — nothing else differs, and never the German's count
    def without_turn(render: Any) -> Any:
        if isinstance(render, dict):
            return {key: without_turn(value) for key, value in render.items()}
        turn = "The German declares now."
        return render.replace(turn.encode(), b"") if isinstance(render, bytes) else str(render).replace(turn, "")

    assert [without_turn(r) for r in bought_renders] == [without_turn(r) for r in none_renders]
    assert f"reconnoiter <strong>{recon}</strong>" not in repr(bought_renders)
    assert 'id="recon-inspection"' not in none_renders[0].decode()
