"""RR scripted campaign at the service level (issue 4 item 10): 19 AM (Initial Scenario) → 19 PM (German Assault) →
19 Night (Idle Date, its 2.503/2.512–2.522 loop) → 20 AM (Canadian Assault) → 20 PM, two players, scripted dice.

Every expected number is worked by hand from seed 001 (fixtures/rr.yaml as typed from it); the arithmetic is in the
comments. Dice are listed in the order the rules roll them (see campaign_script: FixedDice replaces the committed dice).
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.campaigns_app.campaign_script import Play, ScriptedDice

pytestmark = pytest.mark.django_db

DICE = (
    # 19 PM 2.512 German SAN adjustment dr (SAN 6 > 5): dr 4, drm = SAN − 4 = +2, Final 6 > 5 → SAN 6 − 2 = 4
    4,
    # 19 PM 2.516 CPP Replenishment (Canadian then German, each secret): Canadian DR 2+3 = 5; German DR 3+4 = 7
    2, 3, 3, 4,
    # 19 PM 2.519 Canadian I1: RG Strength DR 3+4 = 7, −1 Canadian = 6 ≤ 8 → Full; Company Leader DR 3+4 = 7
    3, 4, 3, 4,
    # 19 PM 2.519 German I1: Strength DR 6+4 = 10 ≥ 9 → Depleted; SW dr per SW (LMG ×3, PSK ×1): 2, 5, 4, 6;
    # Company Leader DR 1+2 = 3, +2 Depleted = 5
    6, 4, 2, 5, 4, 6, 1, 2,
    # 19 PM 2.521 German Recon dr 5 (+1 for 1 extra CPP, −1 attacked in the previous CG Scenario) = 5
    5,
    # 19 Night 2.516: Canadian DR 1+1 = 2; German DR 6+6 = 12
    1, 1, 6, 6,
    # 20 AM 2.516: Canadian DR 4+4 = 8; German DR 5+6 = 11
    4, 4, 5, 6,
    # 20 AM 2.519 Canadian G1 (notes b, d): Strength DR 3+4 = 7, −1 Canadian = 6 → Full
    3, 4,
    # 20 AM 2.521 Canadian Recon dr 3 (no extra CPP; the Canadian did not attack in 19 PM) = 3
    3,
    # 20 PM 2.516: Canadian DR 4+3 = 7; German DR 4+3 = 7
    4, 3, 4, 3,
)

POST_SCENARIO = ["2.501", "2.502", "2.503", "2.504", "2.505", "2.506", "2.507", "2.508", "2.509", "2.510", "2.511"]


def rg(rg_id: str, **more: Any) -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, **more}


def test_rr_campaign_through_five_cg_dates_with_an_idle_date(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "rr", "german", dice)

    # --- 19 AM: the steps before the CG Initial Scenario (RR ††: 2.518–2.520); no CPP yet ("no DR is made for 19AM",
    # Base Numbers 0/0), so both sides buy nothing.
    assert play.at() == ("19 AM", "phase", "2.518")
    assert play.ledger("german").balance("CPP") == 0 and play.ledger("canadian").balance("CPP") == 0
    play.order("german")
    play.order("canadian")
    assert play.at() == ("19 AM", "phase", "2.520")
    play.both_done()
    assert play.at() == ("19 AM", "initial-scenario", "@initial-scenario")
    play.both_done()
    play.results(cvp={"canadian": 5, "german": 8}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})

    # --- RePh after 19 AM: 2.501 is ordered ATTACKER then DEFENDER (the German attacked): the Canadian must wait.
    assert play.at() == ("19 AM", "phase", "2.501")
    from campaigns_app.services import ServiceError

    with pytest.raises(ServiceError, match="German goes first"):
        play.done("canadian")
    passed = play.until("2.512")
    # 2.503: the app records the LVP totals, then both players do 2.5031 Rally & Unloading on the board and mark it
    # (issue 14 item 9); the date change to 19 PM (@new-date) is automatic
    assert passed == POST_SCENARIO
    # 2.5032/2.5033: Current-LVP 3; CG-LVP = 3 + 0 (no preceding date) = 3
    lvp = play.records("lvp-recorded", date="19 AM")
    assert [(r.payload["current_lvp"], r.payload["cg_lvp"]) for r in lvp] == [(3, 3)]
    assert play.at() == ("19 PM", "phase", "2.512")

    # --- 19 PM 2.512: the SANs are not known yet; each side supplies its own, then the step runs
    play.supply("german", "san", 6)
    play.supply("canadian", "san", 3)
    san = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("san-adjusted", date="19 PM")}
    assert san == {"german": (6, 4), "canadian": (3, 3)}  # German: dr 4 + (6 − 4) = 6 > 5 → 6 − 2 = 4
    play.until("2.518")
    # 2.516: Canadian 40 − 5 = 35; German 80 − 7 = 73 (the 19 PM Base Numbers)
    assert play.roster("canadian", "19 PM").replenished == Decimal(35)
    assert play.roster("german", "19 PM").replenished == Decimal(73)
    replenished = play.records("replenished", date_id="19 PM")
    assert {r.side: r.visibility for r in replenished} == {"canadian": "cg-end", "german": "cg-end"}

    # 2.518: German I1 Para Inf Coy (28 CPP), Canadian I1 Inf Coy (20 CPP)
    play.order("german", rg("I1"))
    play.order("canadian", rg("I1"))
    assert play.at() == ("19 PM", "phase", "2.520")
    canadian_i1 = play.ledger("canadian").purchases[0]
    assert (canadian_i1.rg_id, canadian_i1.cost, canadian_i1.strength) == ("I1", Decimal(20), "F")
    assert canadian_i1.units == ((5, "4-5-8"), (5, "4-5-7"))  # Full: the numbers left of the "/"
    assert dict(canadian_i1.sw) == {"LMG": 3, "PIAT": 2, "51mm MTR": 1}  # a Full RG receives all its SW
    assert canadian_i1.leaders == ("9-1", "8-0")  # Company Leader Table row 7
    german_i1 = play.ledger("german").purchases[0]
    assert (german_i1.strength, german_i1.units) == ("D", ((7, "5-4-8"),))  # Depleted: 7 × 5-4-8
    assert dict(german_i1.sw) == {"LMG": 2}  # LMG drs 2, 5, 4 → two ≤ 4; PSK dr 6 → none
    assert german_i1.leaders == ("9-1", "8-1", "7-0")  # Final DR 5 → row 5
    assert (german_i1.number_purchased, german_i1.remaining) == (1, 3)  # #P 1, #R = CG Max 4 − 1

    play.both_done()  # 2.520 no fortifications
    assert play.at() == ("19 PM", "phase", "2.521")
    play.recon("german", 1)
    play.recon("canadian", None)
    # --- 2.522: German Attack, Canadian Idle → German Assault; Canadian sets up first, German moves first
    assert play.at() == ("19 PM", "initiative", "2.522")
    play.chit("german", "attack")
    play.chit("canadian", "idle")
    revealed = play.records("chits-revealed", date="19 PM")
    assert [(r.payload["label"], r.payload["setup_first"], r.payload["moves_first"]) for r in revealed] == [
        ("German Assault", "canadian", "german")]
    assert play.at() == ("19 PM", "phase", "2.523")
    with pytest.raises(ServiceError, match="Canadian goes first"):
        play.done("german")  # 2.523 ordered: set-up first side (Canadian) first
    # 2.5232 in its four parts: 2.52321 Isolated (Canadian, German), then 2.52322 non-Isolated (Canadian, German)
    play.done("canadian")
    play.done("german")
    assert play.at() == ("19 PM", "phase", "2.52322")
    with pytest.raises(ServiceError, match="Canadian goes first"):
        play.done("german")
    play.until("@scenario")

    # German 19 PM roster: Start 0; Replenished 73; RG Purchased I1 28 and M3 Recon 3 + 1 extra = 4 (2.521 buys RG M3);
    # Spent 28 + 4 = 32; Left 73 − 32 = 41;
    # Recon = Final dr 5 (dr 5 + 1 extra CPP − 1 attacked in the previous CG Scenario)
    german = play.roster("german", "19 PM")
    assert (german.start, german.replenished, german.purchased, german.spent, german.left, german.recon, german.san) == (
        Decimal(0), Decimal(73), (("I1", Decimal(28)), ("M3", Decimal(4))), Decimal(32), Decimal(41), 5, 4)
    # Canadian: 35 − 20 = 15 left, no Recon
    canadian = play.roster("canadian", "19 PM")
    assert (canadian.start, canadian.replenished, canadian.spent, canadian.left, canadian.recon, canadian.san) == (
        Decimal(0), Decimal(35), Decimal(20), Decimal(15), None, 3)

    play.both_done()  # the scenario is played
    play.results(cvp={"canadian": 12, "german": 6}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})
    play.until("2.522")
    # 2.503: Current-LVP 4; CG-LVP = 4 + 3 (19 AM) = 7
    assert [(r.payload["current_lvp"], r.payload["cg_lvp"]) for r in play.records("lvp-recorded", date="19 PM")] == [(4, 7)]

    # --- 19 Night: Canadian 25 − 2 = 23 → 15 + 23 = 38; German 80 − 12 = 68 → 41 + 68 = 109. Both Idle: an Idle Date.
    assert play.ledger("canadian").balance("CPP") == Decimal(38)
    assert play.ledger("german").balance("CPP") == Decimal(109)
    play.chit("german", "idle")
    play.chit("canadian", "idle")
    idle = play.records("idle", date="19 Night")
    assert len(idle) == 1
    # the Idle Date loop: the "*" steps 2.503, then the new date's 2.512–2.522
    assert idle[0].payload["loop"] == ["2.503", "@new-date", "2.512", "2.513", "2.514", "2.515", "2.516", "2.517",
                                       "2.518", "2.519", "2.520", "2.521", "2.522"]
    # 2.503 on the Idle Date: no scenario was played, the Current-LVP stays 4 [interp]; CG-LVP = 4 + 7 = 11
    assert [(r.payload["current_lvp"], r.payload["cg_lvp"]) for r in play.records("lvp-recorded", date="19 Night")] == [
        (4, 11)]
    # the Idle Date's 2.503 waits for both players' 2.5031 Rally & Unloading (issue 14 item 9), then 20 AM begins
    assert play.at() == ("19 Night", "phase", "2.503")
    play.both_done()
    state = play.state
    assert (state.date_id, state.pass_kind) == ("20 AM", "idle")
    assert [(h.date_id, h.kind) for h in state.history] == [
        ("19 AM", "initial"), ("19 PM", "scenario"), ("19 Night", "idle")]

    # --- 20 AM: Canadian 40 − 8 = 32 → 38 + 32 = 70; German 60 − 11 = 49 → 109 + 49 = 158
    play.until("2.518")
    assert play.roster("canadian", "20 AM").start == Decimal(38)
    assert play.roster("german", "20 AM").start == Decimal(109)
    assert play.ledger("canadian").balance("CPP") == Decimal(70)
    assert play.ledger("german").balance("CPP") == Decimal(158)
    play.order("canadian", rg("G1"))  # AT Sect I, 6 CPP
    play.order("german")
    g1 = play.ledger("canadian").purchases[1]
    assert (g1.rg_id, g1.strength, g1.units, g1.leaders) == ("G1", "F", ((2, "57L 6-pdr AT"),), ())
    play.both_done()  # 2.520
    play.recon("canadian", 0)
    play.recon("german", None)
    play.chit("german", "idle")
    play.chit("canadian", "attack")
    assert [r.payload["label"] for r in play.records("chits-revealed", date="20 AM")] == ["Canadian Assault"]
    play.until("@scenario")
    # Canadian 20 AM roster: Start 38; Replenished 32; G1 6 + M3 Recon 3 = Spent 9; Left 70 − 9 = 61; Recon 3
    canadian = play.roster("canadian", "20 AM")
    assert (canadian.start, canadian.replenished, canadian.purchased, canadian.spent, canadian.left, canadian.recon) == (
        Decimal(38), Decimal(32), (("G1", Decimal(6)), ("M3", Decimal(3))), Decimal(9), Decimal(61), 3)
    play.both_done()
    play.results(cvp={"canadian": 9, "german": 11}, attacked={"german": False, "canadian": True}, lvp={"canadian": 5})

    # --- 20 PM: Canadian 40 − 7 = 33 → 61 + 33 = 94; German 75 − 7 = 68 → 158 + 68 = 226; CG-LVP 5 + 11 = 16
    play.until("2.518")
    assert play.at() == ("20 PM", "phase", "2.518")
    assert [(r.payload["current_lvp"], r.payload["cg_lvp"]) for r in play.records("lvp-recorded", date="20 AM")] == [(5, 16)]
    assert (play.roster("canadian", "20 PM").start, play.ledger("canadian").balance("CPP")) == (Decimal(61), Decimal(94))
    assert (play.roster("german", "20 PM").start, play.ledger("german").balance("CPP")) == (Decimal(158), Decimal(226))
    assert [(h.date_id, h.kind, h.label) for h in play.state.history] == [
        ("19 AM", "initial", "initial"), ("19 PM", "scenario", "German Assault"), ("19 Night", "idle", "Idle Date"),
        ("20 AM", "scenario", "Canadian Assault")]

    # every scripted die was rolled, and the secret ones in each side's own stream (numbered per stream)
    assert dice.remaining == 0
    assert play.campaign.dice_counters == {"public": 2, "canadian": 9, "german": 12}
    secret = [r for r in play.records("roll") if r.visibility != "public"]
    assert {r.side for r in secret} == {"canadian", "german"}
    assert all(r.payload["stream"] == r.side for r in secret)
