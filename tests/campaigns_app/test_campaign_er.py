"""ER scripted campaign at the service level (issue 4 item 10): two CG Dates with a TEST DATA CG Card
(tests/campaigns_app/cards/er-test.yaml) supplying everything seed 002 does not have — calendar with CPP base numbers,
the RePh steps (on the RR 2.5 pattern, ER step numbers 1.509/1.5122/1.517/1.5232 from the seed, the rest invented),
RG charts, a leader table and the initiative matrix. Only CG7 is from the seed: on-map set-up +1 CPP, Reserve −1 CPP
per RU. Every other figure below comes from the card (quoted) and the scripted dice.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

CARD = CARDS / "er-test.yaml"

DICE = (
    # D1 PM 1.516 (card, TEST DATA: Base Number − secret DR): U.S. 30 − (2+5 = 7) = 23; Japanese 20 − (1+3 = 4) = 16
    2, 5, 1, 3,
    # 1.519 leader DR (card table, TEST DATA): U.S. I1 4+4 = 8 → 6-8 → 8-0; Japanese I1 1+2 = 3 → ≤5 → 9-1
    4, 4, 1, 2,
)


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def test_er_through_two_cg_dates_with_a_test_card(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "er", "us", dice, card=CARD)

    # --- D1 AM, the Initial Scenario: no 1.516 roll (replenishment_roll: false, base 0) → nothing to buy
    assert play.at() == ("D1 AM", "phase", "1.518")
    assert play.ledger("us").balance("CPP") == 0 and play.ledger("japanese").balance("CPP") == 0
    play.order("us")
    play.order("japanese")
    assert play.until("@initial-scenario") == []
    play.both_done()
    play.results(cvp={"us": 7, "japanese": 4}, attacked={"us": True, "japanese": False})

    # --- RePh → D1 PM: 1.509, 1.5122 on the board; 1.516 and 1.517 automatic
    assert play.until("1.518") == ["1.509", "1.5122"]
    assert play.at() == ("D1 PM", "phase", "1.518")
    replenished = {r.side: (r.payload["amount"], r.visibility) for r in play.records("replenished", date_id="D1 PM")}
    assert replenished == {"us": ("23", "cg-end"), "japanese": ("16", "cg-end")}
    weather = play.records("weather", date="D1 PM")
    assert [r.payload["weather"] for r in weather] == ["Rain"]
    # CG15/CG18 (fixtures/er.yaml): the chits are sealed at the purchase step (1.518 on this card), revealed at 1.522
    play.chit("us", "attack")
    play.chit("japanese", "idle")
    # 1.518 with CG7: U.S. I1 on map 9 + 1 = 10 → 23 − 10 = 13; Japanese I1 In Reserve 7 − 1 = 6 → 16 − 6 = 10
    play.order("us", rg("I1", "on-map"))
    play.order("japanese", rg("I1", "reserve"))
    assert (play.ledger("us").balance("CPP"), play.ledger("japanese").balance("CPP")) == (Decimal(13), Decimal(10))
    us_i1, jp_i1 = play.ledger("us").purchases[0], play.ledger("japanese").purchases[0]
    assert (us_i1.cost, us_i1.leaders, jp_i1.cost, jp_i1.leaders) == (Decimal(10), ("8-0",), Decimal(6), ("9-1",))
    # 1.522: U.S. Attack, Japanese Idle → "U.S. Attack" (card matrix): the Japanese set up first, the U.S. moves first
    assert play.at() == ("D1 PM", "phase", "1.5232")
    assert [(r.payload["label"], r.payload["setup_first"], r.payload["moves_first"])
            for r in play.records("chits-revealed", date="D1 PM")] == [("U.S. Attack", "japanese", "us")]
    assert play.until("@scenario") == ["1.5232"]  # 1.522 revealed the chits sealed at 1.518
    line = play.roster("us", "D1 PM")
    assert (line.start, line.replenished, line.purchased, line.spent, line.left) == (
        Decimal(0), Decimal(23), (("I1", Decimal(10)),), Decimal(10), Decimal(13))
    play.both_done()
    play.results(cvp={"us": 5, "japanese": 9}, attacked={"us": True, "japanese": False})
    # the last CG Date: its RePh, then the CG ends
    for _ in range(10):
        if play.state.ended:
            break
        play.both_done()
    assert play.state.ended and play.state.cg_end.reason == "last-date"
    assert [(h.date_id, h.kind) for h in play.state.history] == [("D1 AM", "initial"), ("D1 PM", "scenario")]
    assert dice.remaining == 0
