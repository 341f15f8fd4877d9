"""Platoon Leader 2.5 scripted campaign at the service level (issue 4 item 10), with the bundled example CG Card
(fixtures/cards/example-pl25.yaml): Firefight 1 (the Initial Firefight, Allied attack assigned by the card) → its RePh →
Firefight 2 (neither side buys an Attack Option: an Idle Firefight, 3.41/3.46/3.461/3.52 then 2.1) → Firefight 3
(Allied Attack Option: Allied Assault) → its RePh → Firefight 4's 2.1 CP Replenishment.

Every expected number is worked by hand from seed 000 (the 2.12, 2.351, 2.361, 3.44, T12 tables and 2.34 set-up costs as
printed) and the example card's settings (Intensity MID; HIST/CP DRM Allied 0 / Axis −1; Leader DRM 0 / −1; OBA DRM
−1 / +1; Attack Option 4 / 5 CP; ELR 3 / 4; SAN 3 / 2; RG costs from its invented RG tables). Dice are listed in the
order the rules roll them (campaign_script: FixedDice replaces the committed dice).
"""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from campaigns_app import services
from tests.campaigns_app.campaign_script import Play, ScriptedDice

pytestmark = pytest.mark.django_db

EXAMPLE_CARD = Path(settings.REFIT_FIXTURES_DIR) / "cards" / "example-pl25.yaml"

DICE = (
    # --- RePh after Firefight 1 (Allied 14 CVP amassed / 23 suffered, won; Axis 23 amassed / 14 suffered)
    # 3.44 Battlefield Promotion, secret dr per side: Allied dr 4 −1 (won) = 3 → row 2-3 → 2 MMC;
    #      Axis dr 6 −1 (23 CVP amassed: one 20) = 5 → row 4-5 → 1 MMC
    4, 6,
    # 3.45 the same table, CVP drm ignored, +2: Allied dr 2 −1 (won) +2 = 3 → 2 leaders; Axis dr 5 +2 = 7 → ">6" → 0
    2, 5,
    # 3.47 ELR DR (T12): Allied 6+6 = 12 −1 (won) +2 (attack option: the card assigned the Initial attack, 2.4
    #      "purchased (or were assigned by the CG card)") +1 (one firefight, no Idle yet) = 14 → "> 13" → ELR 3 − 1 = 2;
    #      Axis 1+1 = 2 +1 (one firefight, no Idle) = 3 → "< 3" → +1, but ELR 4 is the maximum → stays 4
    6, 6, 1, 1,
    # --- Firefight 2, 2.1 CP Replenishment (MID column), secret DR per side:
    #      Allied 2+3 = 5 +0 HIST +1 (attack previous) −2 (23 CVP suffered: two 10s) = 4 → MID 23 CP
    #      Axis   4+4 = 8 −1 HIST −1 (14 CVP suffered: one 10) = 6 → MID 21 CP
    2, 3, 4, 4,
    # 2.35/2.36, Allied lines in purchase order: I1 Rifle Platoon (note l) leader DR 3+3 = 6 +0 → row 5-6 → "8-1*";
    #      O1 81mm MTR OBA DR 2+2 = 4 −1 (OBA DRM) = 3 → "<4" → Plentiful.  (Axis G1 75mm AT Gun: no roll.)
    3, 3, 2, 2,
    # --- Firefight 3 (after the Idle Firefight: no Attack Option and no CVP in the previous CG Firefight), 2.1:
    #      Allied 6+5 = 11 → MID 16 CP; Axis 1+2 = 3 −1 HIST = 2 → "<2" → MID 25 CP
    6, 5, 1, 2,
    # 2.35/2.36 Allied: A1 Sherman Platoon armor leader DR 4+5 = 9 → row 9-10, Armor Ldr. column "-" → no leader;
    #      O1 OBA DR 6+6 = 12 −1 (OBA DRM) −1 (Attack Option purchased also) = 10 → 5-10 → Normal
    4, 5, 6, 6,
    # Axis: I1 Grenadier Platoon leader DR 2+3 = 5 −1 (Leader DRM) = 4 → "9-1";
    #      A1 StuG Platoon armor leader DR 1+2 = 3 −1 = 2 → "<2" → "10-2"
    2, 3, 1, 2,
    # --- RePh after Firefight 3 (Allied 31 CVP amassed / 12 suffered, won, attacked; Axis 12 amassed / 31 suffered)
    # 3.44: Allied dr 1 −1 (won) −1 (31 CVP: one 20) = −1 → "< 0" → 4 MMC; Axis dr 4 → row 4-5 → 1 MMC
    1, 4,
    # 3.45: Allied dr 6 −1 +2 = 7 → 0; Axis dr 1 +2 = 3 → 2
    6, 1,
    # 3.47: Allied 1+1 = 2 −1 (won) +2 (Attack Option) +0 (an Idle Firefight occurred) = 3 → "< 3" → ELR 2 + 1 = 3;
    #       Axis 6+6 = 12 −1 (one 1st Line Infantry Pltn purchased: I1 Grenadier Platoon, "quality: first-line" on the
    #       card, read from the RG Purchase Record) = 11 → no change
    1, 1, 6, 6,
    # --- Firefight 4, 2.1: Allied 3+3 = 6 +1 (Attack Option in Firefight 3) −1 (12 CVP suffered) = 6 → MID 21 CP;
    #      Axis 3+3 = 6 −1 HIST −3 (31 CVP suffered: three 10s) = 2 → MID 25 CP
    3, 3, 3, 3,
)


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def tables(play: Play, date: str, step: str) -> dict[str, tuple[int, int, str]]:
    return {r.payload["side"]: (r.payload["original"], r.payload["final"], r.payload["result"])
            for r in play.records("table-result", date=date, step=step)}


def test_pl25_example_card_through_three_firefights_with_an_idle_firefight(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "pl25", "allied", dice, card=EXAMPLE_CARD)

    # --- Firefight 1, the Initial Firefight: it starts at 2.2 (no 2.1 CP Replenishment, 2.0); the card gives no CP
    # for it, so both sides buy nothing. ELR/SAN from the card: Allied 3/3, Axis 4/2.
    assert play.at() == ("1", "phase", "2.3")
    assert play.ledger("allied").balance("CP") == 0 and play.ledger("axis").balance("CP") == 0
    assert dict(play.state.tracks["allied"]) == {"elr": 3, "san": 3}
    assert dict(play.state.tracks["axis"]) == {"elr": 4, "san": 2}
    play.order("allied")
    play.order("axis")
    # 2.7 Patrols: neither side bought any at 2.31, so nobody resolves any (the step passes by itself)
    assert play.until("@initial-scenario") == ["2.31", "2.38", "2.6"]
    assigned = play.records("initiative-assigned", date="1")
    assert [(r.payload["setup_first"], r.payload["moves_first"]) for r in assigned] == [("axis", "allied")]
    play.both_done()
    play.results(cvp={"allied": 14, "axis": 23}, attacked={"allied": True, "axis": False}, winner="allied")

    # --- RePh: 3.11 … 3.461 on the board; 3.44/3.45/3.47 roll by themselves (3.44/3.45 secret; 3.47 counts the
    # Elite / 1st Line infantry platoons from the RG Purchase Record: none bought for the Initial Firefight)
    assert play.until("3.45")[:2] == ["3.11", "3.12"]
    # 3.45: the Allied dr allows 2 leaders to Battle Harden and/or Generate, the Axis dr none; both are asked (no
    # leaders lost were entered), so neither learns the other's secret dr from who is asked; each Generates none
    assert [n["id"] for n in services.engine.needs(play.system, play.state, "axis")] == ["leaders_generated"]
    assert "(0 to 0)" in services.engine.needs(play.system, play.state, "axis")[0]["label"]
    play.supply("allied", "leaders_generated", 0)
    play.supply("axis", "leaders_generated", 0)
    play.until("3.52")
    assert tables(play, "1", "3.44") == {"allied": (4, 3, "2"), "axis": (6, 5, "1")}
    assert tables(play, "1", "3.45") == {"allied": (2, 3, "2"), "axis": (5, 7, "0")}
    assert {r.visibility for r in play.records("table-result", date="1", step="3.44")} == {"side"}
    assert tables(play, "1", "3.47") == {"allied": (12, 14, "-1"), "axis": (2, 3, "1")}
    elr = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("elr-changed", date="1")}
    assert elr == {"allied": (3, 2), "axis": (4, 4)}  # Axis: +1 clamped at the maximum 4
    san = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("san-adjusted", date="1")}
    assert san == {"allied": (3, 3), "axis": (2, 2)}  # 3.51: both inside 2..4
    assert play.at() == ("1", "phase", "3.52")
    play.both_done()

    # --- Firefight 2: 2.1 ran (secret, revealed at CG end): Allied 23, Axis 21 (DR arithmetic above)
    assert play.at() == ("2", "phase", "2.3")
    replenished = {r.side: (r.payload["dr"], r.payload["amount"], r.visibility)
                   for r in play.records("replenished", date_id="2")}
    assert replenished == {"allied": (4, "23", "cg-end"), "axis": (6, "21", "cg-end")}
    # 2.3 with 2.34 set-up costs: Allied I1 on map 6 + 1 = 7, O1 entering 5 + 0 = 5 → 23 − 12 = 11;
    # Axis G1 In Reserve 4 − 1 = 3 → 21 − 3 = 18
    play.order("allied", rg("I1", "on-map"), rg("O1"))
    play.order("axis", rg("G1", "reserve"))
    assert play.ledger("allied").balance("CP") == Decimal(11)
    assert play.ledger("axis").balance("CP") == Decimal(18)
    # 2.31: one Patrol at 1 CP (the card's patrol_cost; MID allows two) → 10 — it will be lost to the Idle Firefight
    play.order("allied", {"type": "patrol", "count": 1})
    play.order("axis")
    allied = play.ledger("allied")
    assert allied.balance("CP") == Decimal(10)
    i1, o1 = allied.purchases
    assert (i1.rg_id, i1.cost, i1.setup_mode, i1.units, i1.leaders) == ("I1", Decimal(7), "on-map", ((3, "6-6-6"),), ("8-1*",))
    assert (o1.rg_id, o1.cost, o1.oba_ammo) == ("O1", Decimal(5), "Plentiful")
    g1 = play.ledger("axis").purchases[0]
    assert (g1.rg_id, g1.cost, g1.setup_mode, g1.leaders) == ("G1", Decimal(3), "reserve", ())

    # 2.38 nothing; 2.4 announces ELR/SAN; 2.41 no Attack Option on either side → Idle Firefight, its short loop
    assert play.at() == ("2", "phase", "2.38")
    play.both_done()
    announced = play.records("announced", date="2")[0].payload["tracks"]
    assert announced == {"allied": {"elr": 2, "san": 3}, "axis": {"elr": 4, "san": 2}}
    revealed = play.records("chits-revealed", date="2")
    assert [(r.payload["chits"], r.payload["label"]) for r in revealed] == [
        ({"allied": "idle", "axis": "idle"}, "Idle Firefight")]
    idle = play.records("idle", date="2")
    assert idle[0].payload["loop"] == ["3.41", "3.46", "3.461", "3.52", "@new-date", "2.1", "2.2", "2.3", "2.31",
                                       "2.35", "2.36", "2.38", "2.4", "2.41"]
    # 3.41 Disease & Starvation is not invoked by the card (disease_starvation: false), so the loop starts at 3.46
    assert play.at() == ("2", "phase", "3.46")
    assert play.until("2.3") == ["3.46", "3.461", "3.52"]

    # --- Firefight 3: 2.1 Allied 16 → 10 + 16 = 26; Axis 25 → 18 + 25 = 43
    assert play.at() == ("3", "phase", "2.3")
    assert (play.roster("allied", "3").start, play.roster("allied", "3").replenished) == (Decimal(10), Decimal(16))
    assert (play.roster("axis", "3").start, play.roster("axis", "3").replenished) == (Decimal(18), Decimal(25))
    # Allied: Attack Option 4 CP (bought with CP, 2.4) + A1 on map 12 + 2 = 14 + O1 5 = 23 → 26 − 23 = 3
    # Axis: I1 on map 5 + 1 = 6 + A1 In Reserve 11 − 1 = 10 = 16 → 43 − 16 = 27
    play.order("allied", {"type": "attack-option"}, rg("A1", "on-map"), rg("O1"))
    play.order("axis", rg("I1", "on-map"), rg("A1", "reserve"))
    assert play.ledger("allied").balance("CP") == Decimal(3)
    assert play.ledger("axis").balance("CP") == Decimal(27)
    play.until("2.5")
    a1, o1b = play.ledger("allied").purchases[2:]
    assert (a1.rg_id, a1.cost, a1.leader_column, a1.leaders) == ("A1", Decimal(14), "armor", ())
    assert (o1b.rg_id, o1b.oba_ammo) == ("O1", "Normal")
    ax_i1, ax_a1 = play.ledger("axis").purchases[1:]
    assert (ax_i1.cost, ax_i1.leaders, ax_a1.cost, ax_a1.leaders) == (Decimal(6), ("9-1",), Decimal(10), ("10-2",))
    # 2.41 matrix: Allied Attack, Axis Idle → Allied Assault: the Axis sets up first, the Allies move first
    revealed = play.records("chits-revealed", date="3")
    assert [(r.payload["label"], r.payload["setup_first"], r.payload["moves_first"]) for r in revealed] == [
        ("Allied Assault", "axis", "allied")]
    from campaigns_app.services import ServiceError

    with pytest.raises(ServiceError, match="Axis Side goes first"):
        play.done("allied")  # 2.5 Redeployment: Defender (Axis), then Attacker
    assert play.until("@scenario") == ["2.5", "2.6"]  # 2.7: no Patrols bought for Firefight 3
    # Allied roster for Firefight 3: Start 10, Replenished 16, RG A1 14 + O1 5, Spent 23 (with the Attack Option), Left 3
    line = play.roster("allied", "3")
    assert (line.start, line.replenished, line.purchased, line.spent, line.left, line.elr, line.san) == (
        Decimal(10), Decimal(16), (("A1", Decimal(14)), ("O1", Decimal(5))), Decimal(23), Decimal(3), 2, 3)
    play.both_done()
    play.results(cvp={"allied": 31, "axis": 12}, attacked={"allied": True, "axis": False}, winner="allied")

    # --- RePh after Firefight 3
    play.until("3.45")
    play.supply("allied", "leaders_generated", 0)  # Allied result 0, Axis 2: both asked; each Generates none
    play.supply("axis", "leaders_generated", 0)
    play.until("3.52")
    assert tables(play, "3", "3.44") == {"allied": (1, -1, "4"), "axis": (4, 4, "1")}
    assert tables(play, "3", "3.45") == {"allied": (6, 7, "0"), "axis": (1, 3, "2")}
    assert tables(play, "3", "3.47") == {"allied": (2, 3, "1"), "axis": (12, 11, "0")}
    elr = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("elr-changed", date="3")}
    assert elr == {"allied": (2, 3), "axis": (4, 4)}
    play.until("2.3")

    # --- Firefight 4, 2.1: Allied 3 + 21 = 24; Axis 27 + 25 = 52
    assert play.at() == ("4", "phase", "2.3")
    drs = {r.side: (r.payload["dr"], r.payload["amount"]) for r in play.records("replenished", date_id="4")}
    assert drs == {"allied": (6, "21"), "axis": (2, "25")}
    assert play.ledger("allied").balance("CP") == Decimal(24)
    assert play.ledger("axis").balance("CP") == Decimal(52)
    assert [(h.date_id, h.kind, h.label) for h in play.state.history] == [
        ("1", "initial", "Allied Side attack (assigned)"), ("2", "idle", "Idle Firefight"), ("3", "scenario", "Allied Assault")]

    assert dice.remaining == 0


def test_pl25_san_is_clamped_to_two_to_four_before_any_cp_expenditure(monkeypatch: Any) -> None:
    """3.51 on a TEST DATA variant of the example card whose SANs start outside 2..4 (Allied 6, Axis 1)."""
    text = EXAMPLE_CARD.read_text(encoding="utf-8")
    for old, new in (("id: example-pl25", "id: test-pl25-san"),
                     ('name: "Example CG Card', 'name: "TEST DATA — not from any published rule text: Example CG Card'),
                     ("initial_san: {allied: 3, axis: 2}", "initial_san: {allied: 6, axis: 1}")):
        assert old in text
        text = text.replace(old, new)
    # 3.44 drs 3, 3; 3.45 drs 3, 3; 3.47 DRs 3+4, 3+4 (Final 7+… inside 4..12: no ELR change)
    dice = ScriptedDice(3, 3, 3, 3, 3, 4, 3, 4)
    play = Play(monkeypatch, "pl25", "allied", dice, card_text=text)
    assert dict(play.state.tracks["allied"])["san"] == 6
    play.order("allied")
    play.order("axis")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"allied": 0, "axis": 0}, attacked={"allied": True, "axis": False}, winner="axis")
    play.until("3.45")  # 3.45 results: Allied 3 + 2 = 5 → 1; Axis 3 + 2 − 1 (won) = 4 → 1: each Generates none
    play.supply("allied", "leaders_generated", 0)
    play.supply("axis", "leaders_generated", 0)
    play.until("3.52")
    assert play.at() == ("1", "phase", "3.52")
    san = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("san-adjusted", date="1")}
    assert san == {"allied": (6, 4), "axis": (1, 2)}
    assert (play.roster("allied", "1").san, play.roster("axis", "1").san) == (4, 2)
    assert dice.remaining == 0
