"""The live page's announcements (issue 16 item 4): each line of a side's "Latest events" carries the sentence its
permanent live region says (data-announce), rendered from that side's own view — so the opponent's announcements are
byte-identical whatever the secret (a purchase, a sealed chit), and say "has chosen" and the reveal."""
from __future__ import annotations

import html
import re
from typing import Any

from django.db import transaction

from campaigns_app import services
from campaigns_app.models import Seat
from tests.campaigns_app.conftest import drive, ws_fragments
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm, players, started

ANNOUNCE = re.compile(r'data-announce="([^"]*)"')
ORDERS = {
    "nothing": [],
    "infantry on map and fortifications": [{"type": "rg", "rg_id": "I4", "setup_mode": "on-map"},
                                           {"type": "rg", "rg_id": "M1"}],
    "two AT sections": [{"type": "rg", "rg_id": "G2"}, {"type": "rg", "rg_id": "G3"}],
}


def announcements(campaign: Any, side: str) -> list[str]:
    """The raw data-announce attributes of the side's live fragments, as its socket sends them."""
    sent = ws_fragments(Seat.objects.get(campaign=campaign, side=side))
    return [value for fragment in sent.values() for value in ANNOUNCE.findall(fragment)]


def said(values: list[str]) -> str:
    return " ".join(html.unescape(v) for v in values)


def test_the_opponents_announcements_are_byte_identical_whatever_the_german_bought(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)
    heard: dict[str, tuple[list[str], list[str]]] = {}
    for name, orders in ORDERS.items():
        with transaction.atomic():
            services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=orders)
            heard[name] = (announcements(campaign, "canadian"), announcements(campaign, "german"))
            transaction.set_rollback(True)

    canadian = [c for c, _ in heard.values()]
    assert all(c == canadian[0] for c in canadian[1:])
    assert "The German side finished 2.518" in said(canadian[0])
    for secret in ("I4", "M1", "G2", "G3", "Eng Pltn", "AT Sect", "on-map"):
        assert secret not in said(canadian[0])
    # the buyer's own region may say what it bought (its own view): the variants differ there
    assert heard["nothing"][1] != heard["two AT sections"][1]


def test_the_opponent_hears_has_chosen_never_the_chit_and_then_the_reveal(rr: Any, users: Any, monkeypatch: Any) -> None:
    pin_clock(monkeypatch)
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.step == "initiative")
    before = announcements(campaign, "canadian")
    heard = {}
    for chit in ("attack", "idle"):
        with transaction.atomic():
            services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit=chit)
            heard[chit] = announcements(campaign, "canadian")
            transaction.set_rollback(True)

    assert heard["attack"] == heard["idle"]
    new = said(heard["attack"][len(heard["attack"]) - 1:])
    assert new == "The German side has chosen an Initiative chit for 19 PM."
    assert heard["attack"] != before
    assert not re.search(r"attack|idle", said(heard["attack"]), flags=re.IGNORECASE)

    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="idle")
    for side in ("german", "canadian"):
        # RR 2.522 (rules-catalog §2.7): GER ATTACK × CDN IDLE = German Assault
        assert "Initiative chits revealed for 19 PM: Canadian Idle, German Attack → German Assault." in said(
            announcements(campaign, side)), side
