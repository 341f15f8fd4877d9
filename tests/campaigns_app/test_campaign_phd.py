"""Purple Heart Draw (Tactical Mission) scripted campaign at the service level (issue 4 item 10): all five TM Scenarios
I (Initial, US Attack assigned by C4.2) → II (German Attack) → III (Lull) → IV (US Attack) → V (Dual Attack) and the CG
end, two players, scripted dice, with a TEST DATA CG Card (tests/campaigns_app/cards/phd-test.yaml) supplying what the
OCR lost: RG chart rows, set-up costs, the C5.33 Leader Table, the TP price of a DSP, TP Replenishment rows 4 and 6 and
the Battlefield Promotion row 5-6. The values the card leaves lost (among them the TP cell row 10, US: 27) are typed on the
create page before the campaign starts (tests/campaigns_app/lost_test_values.py, TEST DATA): play never pauses for them.

Legible values are typed from seed 003 (fixtures/phd.yaml): C5.29 TP table (German/US) 7 → 20/30, 9 → 18/28,
11 → 16/26, 5 → 22/32; C5.23 Battlefield Promotion 3-4 → 2, ≥7 → 0; DRMs +1 "Attack" chit previous scenario, −1 per
10 CVP (FRD) suffered; C5.23 −1 per 10 CVP amassed. The card's invented values are quoted where they are used.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from rules_engine import sequence
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.lost_test_values import PHD_TEST_CARD

pytestmark = pytest.mark.django_db

CARD = CARDS / "phd-test.yaml"

DICE = (
    # --- TM I, C5.33 Leader Table (card, TEST DATA) for the C4.2 OB-given RG ("each requisitioned/OB given 'I' or 'A'
    # type RG marked with an RG Footnote 'l'"; Gren Pl/Rifle Pl are the card's I1, note l):
    # German I1 #1 DR 1+1 = 2 → ≤4 → 9-2; German I1 #2 DR 3+3 = 6 → 5-7 → 8-1;
    # US I1 #1 DR 4+4 = 8 → 8-10, U.S. → 7-0; US I1 #2 DR 6+6 = 12 → ≥11 → 6+1
    1, 1, 3, 3, 4, 4, 6, 6,
    # --- ConPh after TM I (German 12 CVP amassed / 25 suffered; US 25 amassed / 12 suffered; US attacked)
    # C5.23 secret DR: German 2+2 = 4 −1 (12 CVP: one 10) = 3 → 3-4 → 2 MMC;
    #                  US 4+3 = 7 −2 (25 CVP: two 10s) = 5 → 5-6 (card: TEST DATA) → 1 MMC
    2, 2, 4, 3,
    # C5.29 (TM II) secret DR: German 3+3 = 6 −2 (25 suffered) = 4 → row 4 (card: TEST DATA 23) → 23 TP;
    #                          US 3+4 = 7 +1 (US Attack in TM I) −1 (12 suffered) = 7 → 30 TP
    3, 3, 3, 4,
    # C5.33 Leader Table (card, TEST DATA): German I1 DR 2+3 = 5 → 5-7, German → 8-1; US I1 DR 5+6 = 11 → ≥11, U.S. → 6+1
    2, 3, 5, 6,
    # --- ConPh after TM II (German 8 amassed / 31 suffered, attacked; US 31 amassed / 8 suffered)
    # C5.23: German 3+4 = 7 → ≥7 → 0; US 5+5 = 10 −3 = 7 → 0
    3, 4, 5, 5,
    # C5.29 (TM III): German 4+5 = 9 +1 (Attack chit in II) −3 (31 suffered) = 7 → 20 TP;
    #                 US 5+5 = 10 → row 10, US cell lost in the OCR → typed at creation (27, TEST DATA)
    4, 5, 5, 5,
    # --- TM III is a Lull: the loop_on_idle steps run again (C5.1–C5.24, then C5.25–C5.37 for TM IV)
    # C5.23 (no scenario: no CVP): German 3+1 = 4 → 2; US 2+2 = 4 → 2
    3, 1, 2, 2,
    # C5.29 (TM IV; the Lull had no Attack chit and no CVP): German 6+5 = 11 → 16 TP; US 4+5 = 9 → 28 TP
    6, 5, 4, 5,
    # C5.33 US A1 Sherman Pl (armour column, TEST DATA): DR 1+2 = 3 → ≤4 → 9-1
    1, 2,
    # --- ConPh after TM IV (German 14 amassed / 9 suffered; US 9 amassed / 14 suffered, attacked)
    # C5.23: German 6+6 = 12 −1 = 11 → 0; US 3+3 = 6 → 5-6 → 1
    6, 6, 3, 3,
    # C5.29 (TM V): German 2+3 = 5 → 22 TP; US 3+3 = 6 +1 (Attack chit in IV) −1 (14 suffered) = 6 → row 6
    # (card: TEST DATA 31) → 31 TP
    2, 3, 3, 3,
    # TM V both Attack → Dual Attack: set-up dr 2 → "< 3" German sets up first; (after set-up) move dr 5 → "> 4" US
    2, 5,
    # --- ConPh after TM V (German 10 amassed / 20 suffered; US 20 amassed / 10 suffered)
    # C5.23: German 4+4 = 8 −1 = 7 → 0; US 4+4 = 8 −2 = 6 → 1
    4, 4, 4, 4,
)


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def secret_results(play: Play, date: str, step: str) -> dict[str, tuple[int, int, str]]:
    return {r.payload["side"]: (r.payload["original"], r.payload["final"], r.payload["result"])
            for r in play.records("table-result", date=date, step=step)}


def tp(play: Play, date: str) -> dict[str, tuple[int, str]]:
    return {r.side: (r.payload["dr"], r.payload["amount"]) for r in play.records("replenished", date_id=date)}


def test_phd_through_all_five_tm_scenarios_with_its_missing_values_supplied(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "phd", "german", dice, card=CARD)

    # --- TM I, the Initial TM Scenario: I5 no TP roll. C4.2's OB: German 20 TP + 60 DSP, RG Gren Pl x 2; US 30 TP,
    # RG Rifle Pl x 2 (Initial-OB lines). Nothing is bought; the 60 German DSP are lost unspent at C5.35.
    assert play.at() == ("I", "phase", "C5.12")
    assert (play.ledger("german").balance("TP"), play.ledger("german").balance("DSP")) == (Decimal(20), Decimal(60))
    assert play.ledger("us").balance("TP") == Decimal(30)
    assert play.records("replenished") == []
    assert play.until("C5.31") == ["C5.12"]
    play.order("german")
    play.order("us")
    play.until("C5.35")
    play.order("german")
    play.order("us")
    assert play.until("@initial-scenario") == ["C5.39", "C5.41"]
    assert [(p.rg_id, p.initial_ob, p.leaders) for p in play.ledger("german").purchases] == [
        ("I1", True, ("9-2",)), ("I1", True, ("8-1",))]
    assert [(p.rg_id, p.initial_ob, p.leaders) for p in play.ledger("us").purchases] == [
        ("I1", True, ("7-0",)), ("I1", True, ("6+1",))]
    assert (play.ledger("german").balance("TP"), play.ledger("german").balance("DSP")) == (Decimal(20), Decimal(0))
    play.both_done()
    play.results(cvp={"german": 12, "us": 25}, attacked={"us": True, "german": False})

    # --- ConPh after TM I → TM II
    play.until("C5.31")
    assert secret_results(play, "I", "C5.23") == {"german": (4, 3, "2"), "us": (7, 5, "1")}
    assert {r.visibility for r in play.records("table-result", date="I", step="C5.23")} == {"side"}
    san = {r.payload["side"]: (r.payload["before"], r.payload["after"]) for r in play.records("san-adjusted", date="II")}
    assert san == {"german": (3, 3), "us": (2, 2)}  # C5.25: both inside 2..4 (C4.2 SAN 3 / 2)
    assert tp(play, "II") == {"german": (4, "23"), "us": (7, "30")}
    assert {r.visibility for r in play.records("replenished", date_id="II")} == {"cg-end"}
    assert play.at() == ("II", "phase", "C5.31")
    # C5.31/C5.32: German I1 Gren Pl on map 8 + 1 (card set-up cost, TEST DATA) = 9 → (20 OB + 23) 43 − 9 = 34;
    # US I1 Rifle Pl entering 9 → (30 OB + 30) 60 − 9 = 51. Scen Max 1 (TEST DATA): the two OB-given I1 do not count.
    # C5.31: the Initiative chits are sealed with the requisitions (C2.0 "Requisitioned during ConPh C5.31"; C5.34 counts
    # "-1 Attack Chit was selected"): German Attack, US Idle — revealed only at C5.37
    play.chit("german", "attack")
    play.chit("us", "idle")
    assert play.records("chits-revealed", date="II") == []
    play.order("german", rg("I1", "on-map"))
    play.order("us", rg("I1"))
    assert (play.ledger("german").balance("TP"), play.ledger("us").balance("TP")) == (Decimal(34), Decimal(51))
    play.until("C5.35")
    assert play.ledger("german").purchases[2].leaders == ("8-1",)
    assert play.ledger("us").purchases[2].leaders == ("6+1",)
    # C5.35: German 8 DSP for 8 TP (card: 1 TP per DSP, TEST DATA) → TP 34 − 8 = 26; a Trench 5 DSP → 3 DSP left,
    # forfeit at the end of the step ("Any unspent DSP are lost")
    play.order("german", {"type": "points", "currency": "DSP", "amount": 8}, {"type": "fort", "fort_type": "Trench"})
    assert (play.ledger("german").balance("TP"), play.ledger("german").balance("DSP")) == (Decimal(26), Decimal(3))
    play.order("us")
    assert play.ledger("german").balance("DSP") == Decimal(0)
    forfeit = [r for r in play.records("points-forfeited") if r.side == "german"]
    # TM I: the C4.2 60 DSP, unspent; TM II: the 3 left
    assert [(r.payload.get("currency"), r.payload.get("amount")) for r in forfeit] == [("DSP", "60"), ("DSP", "3")]
    # C5.36 (no recon), then C5.37 reveals the sealed chits: "German Attack": US sets up first, German moves first
    play.until("C5.38")
    assert [(r.payload["label"], r.payload["setup_first"], r.payload["moves_first"])
            for r in play.records("chits-revealed", date="II")] == [("German Attack", "us", "german")]
    play.until("@scenario")
    play.both_done()
    play.results(cvp={"german": 8, "us": 31}, attacked={"german": True, "us": False})

    # --- ConPh after TM II → TM III: the US roll falls on the cell lost in the OCR, settled before play (27, TEST DATA)
    play.until("C5.31")
    assert secret_results(play, "II", "C5.23") == {"german": (7, 7, "0"), "us": (10, 7, "0")}
    assert sequence.needs(play.system, play.state, "us") == () and sequence.needs(play.system, play.state, "german") == ()
    assert tp(play, "III") == {"german": (7, "20"), "us": (10, "27")}
    # German 26 + 20 = 46; US 51 + 27 = 78
    assert (play.ledger("german").balance("TP"), play.ledger("us").balance("TP")) == (Decimal(46), Decimal(78))
    play.until("C5.31")
    # --- TM III: both Idle (sealed at C5.31) → Lull at C5.37: no scenario; the loop_on_idle steps run for TM IV
    play.chit("german", "idle")
    play.chit("us", "idle")
    play.order("german")
    play.order("us")
    play.until("C5.35")
    play.order("german")
    play.order("us")
    play.until("C5.1")
    lull = play.records("idle", date="III")
    assert [r.payload["label"] for r in lull] == ["Lull Date"]
    assert lull[0].payload["loop"][:2] == ["C5.1", "C5.2"] and "@new-date" in lull[0].payload["loop"]
    play.until("C5.31")
    assert play.at() == ("IV", "phase", "C5.31")
    assert secret_results(play, "III", "C5.23") == {"german": (4, 4, "2"), "us": (4, 4, "2")}
    assert tp(play, "IV") == {"german": (11, "16"), "us": (9, "28")}
    # TM IV: US A1 Sherman Pl on map 14 + 2 (TEST DATA) = 16 → 78 + 28 − 16 = 90; German G1 In Reserve 5 − 1 = 4 →
    # 46 + 16 − 4 = 58
    play.chit("german", "idle")
    play.chit("us", "attack")
    play.order("us", rg("A1", "on-map"))
    play.order("german", rg("G1", "reserve"))
    assert (play.ledger("german").balance("TP"), play.ledger("us").balance("TP")) == (Decimal(58), Decimal(90))
    play.until("C5.35")
    assert play.ledger("us").purchases[3].leaders == ("9-1",)
    play.order("german")
    play.order("us")
    play.until("C5.38")
    assert [r.payload["label"] for r in play.records("chits-revealed", date="IV")] == ["US Attack"]
    play.until("@scenario")
    play.both_done()
    play.results(cvp={"german": 14, "us": 9}, attacked={"us": True, "german": False})

    # --- ConPh after TM IV → TM V: German 58 + 22 = 80; US 90 + 31 = 121
    play.until("C5.31")
    assert secret_results(play, "IV", "C5.23") == {"german": (12, 11, "0"), "us": (6, 6, "1")}
    assert tp(play, "V") == {"german": (5, "22"), "us": (6, "31")}
    assert (play.ledger("german").balance("TP"), play.ledger("us").balance("TP")) == (Decimal(80), Decimal(121))
    play.chit("german", "attack")
    play.chit("us", "attack")
    play.order("german")
    play.order("us")
    play.until("C5.35")
    play.order("german")
    play.order("us")
    play.until("C5.38")
    revealed = play.records("chits-revealed", date="V")
    assert [(r.payload["label"], r.payload["setup_first"]) for r in revealed] == [("Dual Attack", "german")]
    play.until("@scenario")
    assert play.state.last_round.moves_first == "us"
    play.both_done()
    play.results(cvp={"german": 10, "us": 20}, attacked={"german": True, "us": True})

    # --- after TM V, the last: its ConPh, then the TM ends
    for _ in range(60):
        if play.state.ended:
            break
        play.both_done()
    assert play.state.ended and play.state.cg_end.reason == "last-date"
    assert secret_results(play, "V", "C5.23") == {"german": (8, 7, "0"), "us": (8, 6, "1")}
    assert [(h.date_id, h.kind, h.label) for h in play.state.history] == [
        ("I", "initial", "US Attack"), ("II", "scenario", "German Attack"), ("III", "idle", "Lull Date"),
        ("IV", "scenario", "US Attack"), ("V", "scenario", "Dual Attack")]
    # roster: German TM II Start 20 (the C4.2 OB TP, unspent in TM I), Replenished 23, I1 9, Spent 9 + 8 (DSP) = 17,
    # Left 20 + 23 − 17 = 26
    line = play.roster("german", "II")
    assert (line.start, line.replenished, line.purchased, line.spent, line.left) == (
        Decimal(20), Decimal(23), (("I1", Decimal(9)),), Decimal(17), Decimal(26))
    assert dice.remaining == 0


def test_phd_initial_ob_gives_its_tp_and_dsp(monkeypatch: Any) -> None:
    play = Play(monkeypatch, "phd", "german", ScriptedDice(), card=CARD)
    assert (play.ledger("german").balance("TP"), play.ledger("german").balance("DSP")) == (Decimal(20), Decimal(60))
    assert play.ledger("us").balance("TP") == Decimal(30)


def test_phd_a_row_with_lost_label_and_cell_is_typed_at_creation_and_used_without_a_pause(monkeypatch: Any) -> None:
    text = CARD.read_text(encoding="utf-8")
    for line in ('  - {table: battlefield-promotion, row: 5, label: "5-6", note: "TEST DATA"}\n',
                 '  - {table: battlefield-promotion, row: 5, value: 1, note: "TEST DATA"}\n'):
        assert line in text
        text = text.replace(line, "")
    text = text.replace("id: test-phd", "id: test-phd-lost-row")
    # C5.33 (TM I) for the C4.2 OB-given I1 x 2 each side: DICE's first eight values (9-2, 8-1; 7-0, 6+1).
    # C5.23: German 3+3 = 6 −1 (12 CVP amassed) = 5 → row 5-6, label and # of MMC lost; US 3+3 = 6 −2 = 4 → 3-4 → 2
    typed = {**PHD_TEST_CARD, "battlefield-promotion|2|@label": "5-6", "battlefield-promotion|2|mmc": 1}  # TEST DATA
    play = Play(monkeypatch, "phd", "german", ScriptedDice(*DICE[:8], 3, 3, 3, 3), card_text=text, lost_values=typed)
    for ref in ("C5.31", "C5.35"):
        play.until(ref)
        play.order("german")
        play.order("us")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"german": 12, "us": 25}, attacked={"us": True, "german": False})
    for _ in range(40):
        if play.records("table-result", date="I", step="C5.23"):
            break
        play.both_done()
    assert sequence.needs(play.system, play.state, "german") == ()
    # the one German DR resolved with the label and value typed at creation
    assert secret_results(play, "I", "C5.23") == {"german": (6, 5, "1"), "us": (6, 4, "2")}
