"""KGP scripted campaign at the service level (issue 4 item 10): two CG Dates with a TEST DATA CG Card
(tests/campaigns_app/cards/kgp-test.yaml) supplying what seed 004 does not have — CG Dates with CPP base numbers, the RePh
steps (the KGP step numbers the seed cites, on the RR 2.5 pattern), RG charts, set-up costs, a leader table and the
initiative matrix. From the seed: 8.603 CG-LVP Total = Current-LVP Total + the preceding CG-LVP Total (8.6032–.6033).
Every other figure comes from the card (quoted) and the scripted dice. One Map Group only (the card's
map_groups_in_play: St); two Map Groups per CG Date and the 8.31 Balance: test_campaign_kgp_map_groups.py.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

CARD = CARDS / "kgp-test.yaml"

DICE = (
    # 18 PM 8.616 (card, TEST DATA: Base Number − secret DR): U.S. 35 − (3+3 = 6) = 29; German 45 − (6+5 = 11) = 34
    3, 3, 6, 5,
    # 8.620 leader DR (card table, TEST DATA): U.S. I1 2+1 = 3 → ≤4 → 9-2; German A1 5+2 = 7 → 5-7 → 8-1
    2, 1, 5, 2,
)


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def lvp(play: Play, date: str) -> dict[str, tuple[int, int]]:
    return {r.payload["side"]: (r.payload["current_lvp"], r.payload["cg_lvp"]) for r in play.records("lvp-recorded", date=date)}


def test_kgp_through_two_cg_dates_with_a_test_card(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "kgp", "german", dice, card=CARD)

    # --- 18 AM, the Initial Scenario: no 8.616 roll (replenishment_roll: false, base 0) → nothing to buy
    assert play.at() == ("18 AM", "phase", "8.619")
    play.order("german")
    play.order("us")
    assert play.until("@initial-scenario") == []
    play.both_done()
    play.results(cvp={"us": 6, "german": 11}, attacked={"german": True, "us": False}, lvp={"us": 2, "german": 1})

    # --- RePh → 18 PM: 8.603 automatic (Current-LVP 2 / 1; CG-LVP = Current + 0 = 2 / 1), 8.612 on the board
    assert play.until("8.619") == ["8.612"]
    assert lvp(play, "18 AM") == {"us": (2, 2), "german": (1, 1)}
    assert play.at() == ("18 PM", "phase", "8.619")
    replenished = {r.side: (r.payload["amount"], r.visibility) for r in play.records("replenished", date_id="18 PM")}
    assert replenished == {"us": ("29", "cg-end"), "german": ("34", "cg-end")}
    # 8.619: U.S. I1 on map 10 + 2 (card, TEST DATA) = 12 → 29 − 12 = 17; German A1 entering 20 → 34 − 20 = 14
    play.order("us", rg("I1", "on-map"))
    play.order("german", rg("A1"))
    assert (play.ledger("us").balance("CPP"), play.ledger("german").balance("CPP")) == (Decimal(17), Decimal(14))
    assert play.ledger("us").purchases[0].leaders == ("9-2",)
    assert play.ledger("german").purchases[0].leaders == ("8-1",)
    # 8.623: German Attack, U.S. Idle → "German Attack": the U.S. sets up first (8.624), the German moves first
    assert play.at() == ("18 PM", "initiative", "8.623")
    play.chit("german", "attack")
    play.chit("us", "idle")
    assert [(r.payload["label"], r.payload["setup_first"], r.payload["moves_first"])
            for r in play.records("chits-revealed", date="18 PM")] == [("German Attack", "us", "german")]
    assert play.until("@scenario") == ["8.624"]
    play.both_done()
    play.results(cvp={"us": 10, "german": 12}, attacked={"german": True, "us": False}, lvp={"us": 3, "german": 0})
    for _ in range(10):
        if play.state.ended:
            break
        play.both_done()
    # the last CG Date's 8.603: CG-LVP U.S. 3 + 2 = 5, German 0 + 1 = 1; then the CG ends
    assert lvp(play, "18 PM") == {"us": (3, 5), "german": (0, 1)}
    assert play.state.ended and play.state.cg_end.reason == "last-date"
    line = play.roster("german", "18 PM")
    assert (line.start, line.replenished, line.purchased, line.spent, line.left) == (
        Decimal(0), Decimal(34), (("A1", Decimal(20)),), Decimal(20), Decimal(14))
    assert dice.remaining == 0
