"""KGP scripted campaign on two Map Groups (issue 4: "KGP runs per map group"), at the service level, with the TEST DATA
card tests/campaigns_app/cards/kgp-map-groups-test.yaml (St and Lg on every CG Date, Lg only on 18 Night, the 8.31
Balance set to "german").

From seed 004: one CG scenario per Map Group per CG Date (8.2); St and Lg have two Map Sections each (8.2); the 8.31
Balance halves the chosen side's 8.616 Secret DR, fractions rounded down (FRD); CG-LVP Total = Current-LVP Total + the
preceding CG-LVP Total (8.6033), the Current-LVP Total being the LVP of *all* LVP Locations the side Controls (8.2: the
sum over the Map Groups; a Map Group not played keeps its control [interp]). From the card (TEST DATA): the dates, base
numbers, steps, RG rows, leader table and matrix. The Attack/Idle chit is one per CG Date (catalog 5.5).
Every figure below is worked by hand in the comments.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from campaigns_app import engine
from campaigns_app.services import ServiceError
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

CARD = CARDS / "kgp-map-groups-test.yaml"
US, GE = "us", "german"

DICE = (
    # 18 PM 8.616 (U.S. first: the sides in the system's order). Card base numbers U.S. 35, German 45.
    #   U.S. DR 4+5 = 9, not halved (the balance names the German) → 35 − 9 = 26 CPP
    #   German DR 6+3 = 9, halved FRD → 4 (9 / 2 = 4.5) → 45 − 4 = 41 CPP (without the balance: 45 − 9 = 36)
    4, 5, 6, 3,
    # 18 PM 8.620: German A1's leader DR 2+3 = 5 → "5-7" → 8-1 (card table)
    2, 3,
    # 18 Night 8.616 (base U.S. 20, German 25): U.S. 2+2 = 4 → 16; German 5+6 = 11, halved FRD → 5 (5.5) → 25 − 5 = 20
    2, 2, 5, 6,
    # 19 AM 8.616 (base U.S. 30, German 40): U.S. 1+1 = 2 → 28; German 1+2 = 3, halved FRD → 1 (1.5) → 40 − 1 = 39
    1, 1, 1, 2,
)

# Results entered per Map Group: CVP amassed by each side, who attacked, LVP each side controls on that Map Group.
AM_ST = dict(cvp={US: 6, GE: 11}, attacked={US: False, GE: True}, lvp={US: 2, GE: 1})
AM_LG = dict(cvp={US: 3, GE: 4}, attacked={US: False, GE: True}, lvp={US: 5, GE: 7})
PM_ST = dict(cvp={US: 10, GE: 12}, attacked={US: False, GE: True}, lvp={US: 3, GE: 0})
PM_LG = dict(cvp={US: 1, GE: 2}, attacked={US: False, GE: True}, lvp={US: 4, GE: 6})
NIGHT_LG = dict(cvp={US: 5, GE: 2}, attacked={US: True, GE: False}, lvp={US: 8, GE: 2})


def lvp(play: Play, date: str) -> dict[str, tuple[int, int]]:
    return {r.payload["side"]: (r.payload["current_lvp"], r.payload["cg_lvp"]) for r in play.records("lvp-recorded", date=date)}


def cpp(play: Play) -> tuple[Decimal, Decimal]:
    return play.ledger(US).balance("CPP"), play.ledger(GE).balance("CPP")


def test_kgp_plays_st_and_lg_per_cg_date_with_the_german_balance(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "kgp", GE, dice, card=CARD)

    # --- 18 AM, the Initial Scenario on St and Lg (no 8.616 roll on the Initial date) -------------------------------
    assert play.at() == ("18 AM", "phase", "8.619")
    play.order(GE)
    play.order(US)
    assert play.at() == ("18 AM", "initial-scenario", "@initial-scenario")
    assert play.map_groups() == ["St", "Lg"]
    # each Map Group's Initial Scenario is marked finished by both; St alone is not enough
    play.done(GE, "St")
    play.done(US, "St")
    assert play.at()[1] == "initial-scenario"
    with pytest.raises(ServiceError, match=r"already marked the scenario on St finished"):
        play.done(US, "St")
    with pytest.raises(ServiceError, match=r"Say which Map Group.*in play on 18 AM: St, Lg"):
        play.done(US)
    with pytest.raises(ServiceError, match=r"No CG scenario is played on Map Group 'Ch' on 18 AM \(in play: St, Lg\)"):
        play.done(US, "Ch")
    play.done(US, "Lg")
    play.done(GE, "Lg")
    assert play.at() == ("18 AM", "results", "@results")

    # results per Map Group: St agreed; Lg entries differ (the U.S. typed German CVP 5) — nothing proceeds
    play.results("St", **AM_ST)
    play.enter(US, "Lg", **{**AM_LG, "cvp": {US: 3, GE: 5}})
    play.enter(GE, "Lg", **AM_LG)
    assert play.at() == ("18 AM", "results", "@results")
    [differ] = play.records("results-differ", date="18 AM")
    assert (differ.payload["map_group"], differ.payload["fields"]) == ("Lg", ["cvp"])
    assert engine.owes(play.system, play.state, US) == ("agree the scenario results on Lg (the entries differ)",)
    with pytest.raises(ServiceError, match=r"results of the scenario on St \(18 AM\) are already confirmed"):
        play.enter(US, "St", **AM_ST)
    play.enter(US, "Lg", **AM_LG)  # the U.S. corrects its entry: both agree

    # RePh → 18 PM. 8.603 Current-LVP = St + Lg: U.S. 2 + 5 = 7, German 1 + 7 = 8; CG-LVP = current + 0
    assert play.until("8.619") == ["8.612"]
    assert lvp(play, "18 AM") == {US: (7, 7), GE: (8, 8)}
    [record] = [r for r in play.state.history if r.date_id == "18 AM"]
    assert {g: r.cvp[GE] for g, r in record.map_results.items()} == {"St": 11, "Lg": 4}
    assert record.result is not None and record.result.cvp == {US: 9, GE: 15}  # 6 + 3, 11 + 4

    # --- 18 PM: 8.616 with the German balance (U.S. 26, German 41: see DICE) -----------------------------------------
    assert play.at() == ("18 PM", "phase", "8.619")
    assert cpp(play) == (Decimal(26), Decimal(41))
    [german] = play.records("replenished", date_id="18 PM", rule="8.616", amount="41")
    assert german.payload["balance"] == {"rule": "8.31", "setting": "balance", "rounding": "down", "original": 9, "final": 4}
    assert german.payload["text"] == "8.616: DR 9 halved (FRD) by the 8.31 CG Balance = 4; Base Number 45 − 4 = 41 CPP"
    [us_roll, german_roll] = [r for r in play.records("roll") if r.payload.get("rule") == "8.616"]
    assert (us_roll.payload["original"], us_roll.payload["final"], us_roll.payload["modifiers"]) == (9, 9, [])
    assert (german_roll.payload["original"], german_roll.payload["final"]) == (9, 4)
    assert german_roll.payload["modifiers"][0]["reason"] == "8.31 CG Balance: German DR halved (FRD)"
    assert (german_roll.visibility, german_roll.side) == ("cg-end", GE)
    # 8.619: German A1 entering 20 → 41 − 20 = 21; the U.S. buys nothing
    play.order(GE, {"type": "rg", "rg_id": "A1", "setup_mode": "entry"})
    play.order(US)
    assert cpp(play) == (Decimal(26), Decimal(21))
    assert play.ledger(GE).purchases[0].leaders == ("8-1",)
    # 8.623: one chit per side for the CG Date, for both Map Groups: German Attack, U.S. Idle → "German Attack"
    play.chit(GE, "attack")
    play.chit(US, "idle")
    assert play.until("@scenario") == ["8.624"]
    assert play.map_groups() == ["St", "Lg"]
    play.both_done()
    # St's entries differ (the German typed U.S. LVP 4): Lg is agreed, yet the RePh waits for St
    play.enter(US, "St", **PM_ST)
    play.enter(GE, "St", **{**PM_ST, "lvp": {US: 4, GE: 0}})
    play.results("Lg", **PM_LG)
    assert play.at() == ("18 PM", "results", "@results")
    assert set(play.state.map_agreed) == {"Lg"}
    play.enter(GE, "St", **PM_ST)
    # 8.603: Current-LVP U.S. 3 + 4 = 7, German 0 + 6 = 6; CG-LVP U.S. 7 + 7 = 14, German 6 + 8 = 14
    assert play.until("8.619") == ["8.612"]
    assert lvp(play, "18 PM") == {US: (7, 14), GE: (6, 14)}

    # --- 18 Night: Lg only (the calendar entry's own Map Groups) -----------------------------------------------------
    # 8.616: U.S. 26 + 16 = 42; German 21 + 20 = 41 (DR 11 halved FRD = 5 → 25 − 5 = 20)
    assert play.at() == ("18 Night", "phase", "8.619")
    assert cpp(play) == (Decimal(42), Decimal(41))
    play.order(GE)
    play.order(US)
    play.chit(GE, "idle")
    play.chit(US, "attack")
    assert play.until("@scenario") == ["8.624"]
    assert play.map_groups() == ["Lg"]
    play.done(US)  # the only Map Group in play may be left out
    play.done(GE, "Lg")
    play.results(None, **NIGHT_LG)
    # 8.603: St not played keeps U.S. 3 / German 0; Lg now U.S. 8 / German 2 → Current U.S. 11, German 2;
    # CG-LVP U.S. 11 + 14 = 25, German 2 + 14 = 16
    assert play.until("8.619") == ["8.612"]
    assert lvp(play, "18 Night") == {US: (11, 25), GE: (2, 16)}

    # --- 19 AM: both Idle → Idle Date: no scenario on any Map Group; the last CG Date, so the CG ends -----------------
    # 8.616: U.S. 42 + 28 = 70; German 41 + 39 = 80 (3 halved FRD = 1 → 40 − 1 = 39)
    assert play.at() == ("19 AM", "phase", "8.619")
    assert cpp(play) == (Decimal(70), Decimal(80))
    play.order(GE)
    play.order(US)
    play.chit(GE, "idle")
    play.chit(US, "idle")
    assert play.state.ended and play.state.cg_end is not None and play.state.cg_end.reason == "last-date"
    assert not play.records("step-done", date="19 AM", step="scenario")
    assert [(r.date_id, r.kind, sorted(r.map_results)) for r in play.state.history] == [
        ("18 AM", "initial", ["Lg", "St"]), ("18 PM", "scenario", ["Lg", "St"]), ("18 Night", "scenario", ["Lg"]),
        ("19 AM", "idle", [])]
    # the CG Roster line of each date: CVP amassed / suffered over the Map Groups played (18 PM U.S.: 10 + 1, 12 + 2)
    assert (play.roster(US, "18 PM").cvp_amassed, play.roster(US, "18 PM").cvp_suffered) == (11, 14)
    assert dice.remaining == 0


@pytest.mark.parametrize(("balance", "expected"), [
    # base U.S. 35, German 45; DRs U.S. 4+5 = 9, German 6+3 = 9
    ("none", (35 - 9, 45 - 9)),     # no balance: 26 / 36
    ("german", (35 - 9, 45 - 4)),   # German DR 9 halved FRD = 4: 26 / 41
    ("us", (35 - 4, 45 - 9)),       # U.S. DR 9 halved FRD = 4: 31 / 36
])
def test_the_8_31_balance_halves_only_the_chosen_sides_8_616_dr(monkeypatch: Any, balance: str,
                                                                  expected: tuple[int, int]) -> None:
    text = CARD.read_text(encoding="utf-8").replace("  balance: german ", f"  balance: {balance} ")
    assert f"balance: {balance} " in text
    dice = ScriptedDice(4, 5, 6, 3)
    play = Play(monkeypatch, "kgp", US, dice, card_text=text)
    play.order(GE)
    play.order(US)
    for group in ("St", "Lg"):
        play.done(US, group)
        play.done(GE, group)
    play.results("St", **AM_ST)
    play.results("Lg", **AM_LG)
    assert play.until("8.619") == ["8.612"]
    assert cpp(play) == (Decimal(expected[0]), Decimal(expected[1]))
    halved = [r.side for r in play.records("replenished", date_id="18 PM") if "balance" in r.payload]
    assert halved == ([] if balance == "none" else [balance])
    assert dice.remaining == 0
