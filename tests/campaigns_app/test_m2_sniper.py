"""RR M2 Sniper "SAN Increase +1" through the app: the German buys it in secret at 2.518 (19 PM); his own CG Roster
shows the raised SAN at once, while everything the Canadian gets — page, fragments, history, CG Roster page and CSV,
RG Purchase Record, dice log — is byte-identical to the German buying nothing, until 2.525 BEGIN PLAY, when "Each side
announces its SAN": from then on the Canadian sees the German SAN one higher (seed 001: "M2 Sniper SAN Increase +1";
2.518 "the RG purchased may all be kept secret"; 2.525).
"""
from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import fragments
from campaigns_app.models import Seat
from tests.campaigns_app.conftest import client_for, deterministic_csrf, drive
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm, players, state_of

M2 = [{"type": "rg", "rg_id": "M2"}]
PAGES = ("campaign_detail", "campaign_fragments", "campaign_history", "records_roster", "records_roster_csv",
         "records_purchases", "records_dice")


def renders(campaign: Any, user: Any) -> dict[str, bytes]:
    client = client_for(user)
    return {name: client.get(reverse(name, args=[campaign.public_id])).content for name in PAGES}


def san_cells(html: str, side_name: str) -> list[str]:
    """The SAN column of one side's CG Roster table on the roster page."""
    start = html.index(f"{side_name}</h2>") if f"{side_name}</h2>" in html else html.index(side_name)
    table = html[start:html.index("</table>", start)]
    headers = re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", table, re.S)
    column = [h.strip() for h in headers].index("SAN")
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table[table.index("<tbody"):], re.S)
    return [re.sub(r"<[^>]+>", "", re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)[column]).strip()
            for row in rows]


def test_the_canadian_learns_nothing_of_the_m2_before_2_525_and_sees_the_san_announced_there(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)

    seen: dict[str, dict[str, bytes]] = {}
    for name, orders in (("nothing", []), ("M2", M2)):
        with transaction.atomic():
            services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=orders)
            assert state_of(campaign).phase_ref == "2.520"
            seen[name] = {**renders(campaign, users["cana"]),
                          "socket": str(fragments.live_fragments(Seat.objects.get(campaign=campaign,
                                                                                  side="canadian"))).encode()}
            if name == "M2":
                german_roster = renders(campaign, users["gerd"])["records_roster"].decode()
            transaction.set_rollback(True)
    assert seen["nothing"] == seen["M2"]
    assert san_cells(german_roster, "German")[-1] == "4 (incl. +1 bought: secret until each side announces its SAN)"

    services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=M2)
    roster = renders(campaign, users["cana"])["records_roster"].decode()
    assert san_cells(roster, "German")[-1] == "3" and "+1 bought" not in roster
    drive(campaign, players(users), lambda s: s.phase_ref == "@scenario")  # chits: German Attack, Canadian Idle
    roster = renders(campaign, users["cana"])["records_roster"].decode()
    assert san_cells(roster, "German")[-1] == "4"
    history = renders(campaign, users["cana"])["campaign_history"].decode()
    assert "Each side announced its SAN." in history
    assert state_of(campaign).tracks["german"]["san"] == 4
