"""RR secret RG purchases (2.518, 2.5184–2.5188), expectations typed by hand from seed 001 (the RG charts and notes)."""
from __future__ import annotations

import tracemalloc
from decimal import Decimal
from pathlib import Path

import pytest

from rules_engine.errors import SubmissionError
from rules_engine.ledger import SideLedger, new_ledger
from rules_engine.loader import parse_system
from rules_engine.model import System
from rules_engine.purchases import (
    AttackOptionOrder,
    PatrolOrder,
    RgOrder,
    apply_order,
    record_initial_ob,
    validate_order,
)

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def rr() -> System:
    return parse_system((ROOT / "fixtures/rr.yaml").read_text(), "fixtures/rr.yaml")


def german(cpp: int = 80) -> SideLedger:
    return new_ledger("german", {"CPP": cpp})


def canadian(cpp: int = 40) -> SideLedger:
    return new_ledger("canadian", {"CPP": cpp})


def messages(rr: System, ledger: SideLedger, date: str, *orders: object, initial: bool = False,
             at_recon_step: bool = False) -> list[str]:
    return [v.message for v in validate_order(rr, ledger, ledger.side, date, orders, initial=initial,  # type: ignore[arg-type]
                                              at_recon_step=at_recon_step)]


def test_german_buys_para_company_on_19_pm_and_has_52_cpp_left(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("I1")], initial=False)
    assert ledger.balance("CPP") == Decimal(52)
    line = ledger.purchases[0]
    assert (line.rg_id, line.group_type, line.cost) == ("I1", "Para Inf Coy", Decimal(28))
    assert (line.number_purchased, line.remaining) == (1, 3)  # CG Max 4
    roster = ledger.roster_line("19 PM")
    assert roster is not None
    assert (roster.start, roster.purchased, roster.spent, roster.left) == (
        Decimal(80), (("I1", Decimal(28)),), Decimal(28), Decimal(52))


def test_second_para_company_counts_towards_p_and_r(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("I1"), RgOrder("I1")], initial=False)
    assert [(p.line, p.number_purchased, p.remaining) for p in ledger.purchases] == [(1, 1, 3), (2, 2, 2)]
    assert ledger.balance("CPP") == Decimal(24)


def test_on_map_infantry_company_costs_eight_more(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("I1", setup_mode="on-map")], initial=False)
    assert ledger.purchases[0].cost == Decimal(36)
    assert ledger.balance("CPP") == Decimal(44)


def test_on_map_platoon_with_note_o_costs_three_more(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("V2", setup_mode="on-map")], initial=False)
    assert ledger.purchases[0].cost == Decimal(17)


def test_guns_and_canadian_i2_set_up_on_map_at_no_extra_cost(rr: System) -> None:
    g = apply_order(rr, german(80), "german", "19 PM", [RgOrder("G1", setup_mode="on-map")], initial=False)
    assert g.purchases[0].cost == Decimal(8)
    c = apply_order(rr, canadian(40), "canadian", "19 PM", [RgOrder("I2", setup_mode="on-map")], initial=False)
    assert c.purchases[0].cost == Decimal(5)


def test_panzer_lehr_and_canadian_v4_may_not_set_up_on_board(rr: System) -> None:
    found = messages(rr, german(80), "19 PM", RgOrder("V1", setup_mode="on-map"))
    assert found == ["RG V1 (Pz IV Pltn (Lehr)) may not set up on board (2.5184)"]
    found = messages(rr, canadian(40), "19 PM", RgOrder("V4", setup_mode="on-map"))
    assert found == ["RG V4 (Transport Sect) may not set up on board (2.5184)"]


def test_not_enough_cpp_names_the_cost_and_what_is_left(rr: System) -> None:
    found = messages(rr, canadian(20), "19 PM", RgOrder("I1", setup_mode="on-map"))
    assert found == ["RG I1 (Inf Coy) costs 28 CPP; you have 20 CPP left (2.518)"]


def test_cg_date_max_is_enforced_within_one_order(rr: System) -> None:
    found = messages(rr, german(80), "19 PM", RgOrder("G2"), RgOrder("G2"))
    assert found == ["RG G2 (AT Sect 2): CG Date Max is 1 and 1 is already bought on this date (2.518)"]


def test_note_f_two_g2_then_a_g3_is_refused(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("G2")], initial=False)
    ledger = apply_order(rr, ledger, "german", "19 Night", [RgOrder("G2")], initial=False)
    found = messages(rr, ledger, "20 AM", RgOrder("G3"))
    assert found == ["RG G3 (AT Sect 3): at most 2 RG combined from G2 and G3 for the CG; 2 already bought "
                     "(2.518 note f)"]


def test_cg_max_counts_earlier_dates(rr: System) -> None:
    ledger = german(400)
    for date in ("19 PM", "19 Night", "20 AM", "20 PM"):
        ledger = apply_order(rr, ledger, "german", date, [RgOrder("I1")], initial=False)
    found = messages(rr, ledger, "20 Night", RgOrder("I1"))
    assert found == ["RG I1 (Para Inf Coy): CG Max is 4 and 4 are already bought in the CG (2.518)"]


def test_initial_scenario_ob_rg_are_recorded_but_not_counted_for_maxima(rr: System) -> None:
    ledger = record_initial_ob(rr, german(0), "german", "19 AM", ["G2", "G3"])
    assert [(p.rg_id, p.initial_ob, p.cost) for p in ledger.purchases] == [("G2", True, Decimal(0)), ("G3", True, Decimal(0))]
    ledger = ledger.with_points("CPP", 80)
    assert messages(rr, ledger, "19 PM", RgOrder("G2")) == []
    after = apply_order(rr, ledger, "german", "19 PM", [RgOrder("G2")], initial=False)
    assert (after.purchases[-1].number_purchased, after.purchases[-1].remaining) == (1, 1)


def test_m4_is_only_available_after_19_pm(rr: System) -> None:
    assert messages(rr, german(80), "19 PM", RgOrder("M4")) == [
        "RG M4 (Activate A20 Entry) is only available after 19 PM (2.518)"]
    assert messages(rr, german(80), "19 Night", RgOrder("M4")) == []


def test_m1_gives_15_fpp(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("M1")], initial=False)
    assert ledger.balance("FPP") == Decimal(15)
    assert ledger.balance("CPP") == Decimal(79)


def test_pre_registered_hexes_cost_one_each_and_at_most_two(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("O1", pre_registered=2)], initial=False)
    assert ledger.purchases[0].cost == Decimal(7)
    assert messages(rr, german(80), "19 PM", RgOrder("O1", pre_registered=3)) == [
        "RG O1 (Btln Mtr): no module may have more than 2 Pre-Registered hexes; 3 ordered (2.518 note p)"]
    assert messages(rr, german(80), "19 PM", RgOrder("I1", pre_registered=1)) == [
        "RG I1 (Para Inf Coy): Pre-Registered hexes are bought only with an OBA module whose note allows them "
        "(2.518)"]


def test_recon_extra_cpp_at_most_three_and_never_for_the_initial_scenario(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("M3", extra=3)], initial=False, at_recon_step=True)
    assert ledger.purchases[0].cost == Decimal(6)
    assert messages(rr, german(80), "19 PM", RgOrder("M3", extra=4), at_recon_step=True) == [
        "RG M3 (Recon): at most 3 extra points (x ≤ 3); 4 ordered (2.518 note r)"]
    assert messages(rr, german(80), "19 AM", RgOrder("M3"), initial=True, at_recon_step=True) == [
        "RG M3 (Recon): Recon may not be bought when preparing to play the Initial Scenario (2.521)"]


def test_recon_rg_m3_is_bought_at_2_521_not_at_2_518(rr: System) -> None:
    # note r "May spend extra CPP (2.521)": M3 is the 2.521 Recon purchase, which alone makes the Recon dr
    assert messages(rr, german(80), "19 PM", RgOrder("M3")) == [
        "RG M3 (Recon) is bought at 2.521 Purchasing Reconnaissance with its Recon dr, not here (2.521)"]


def test_unknown_rg_lists_the_chart_ids(rr: System) -> None:
    (found,) = messages(rr, german(80), "19 PM", RgOrder("X9"))
    assert "unknown RG 'X9' on the German Reinforcement Group Chart" in found
    assert "I1, I2, I3, I4, V1" in found and found.endswith("(2.518)")


def test_rr_has_no_reserve_set_up_nor_bought_attack_option_nor_patrols(rr: System) -> None:
    found = messages(rr, german(80), "19 PM", RgOrder("I1", setup_mode="reserve"), AttackOptionOrder(),
                     PatrolOrder(1))
    assert found == [
        "RG I1 (Para Inf Coy): rr has no In Reserve set-up (allowed: entry, on-map) (2.5184)",
        "the Attack Option is not bought in rr: initiative is chosen with a chit (2.522)",
        "rr has no Patrol purchases",
    ]


def test_every_violation_is_listed_and_nothing_is_saved(rr: System) -> None:
    ledger = german(20)
    orders = [RgOrder("V1", setup_mode="on-map"), RgOrder("I1"), RgOrder("M4")]
    found = messages(rr, ledger, "19 PM", *orders)
    assert found == [
        "RG V1 (Pz IV Pltn (Lehr)) may not set up on board (2.5184)",
        "RG I1 (Para Inf Coy) costs 28 CPP; you have 20 CPP left (2.518)",
        "RG M4 (Activate A20 Entry) is only available after 19 PM (2.518)",
    ]
    with pytest.raises(SubmissionError) as error:
        apply_order(rr, ledger, "german", "19 PM", orders, initial=False)
    assert "may not set up on board" in str(error.value) and "only available after 19 PM" in str(error.value)
    assert ledger == german(20)
    assert ledger.purchases == () and ledger.roster == ()


def test_ledger_round_trips_through_json(rr: System) -> None:
    ledger = apply_order(rr, german(80), "german", "19 PM", [RgOrder("I1", setup_area="A3"), RgOrder("M1")],
                         initial=False)
    data = ledger.to_json()
    assert data["points"] == {"CPP": "51", "FPP": "15"}
    assert SideLedger.from_json(data) == ledger


# ---- ER (RR pattern): CG7 set-up costs, CG15 Bombardment with the Attack chit, CG18 FPF Barrage with the Idle chit ----

ER_TEST_CARD = """
format: refit-cg/1
kind: cg-card
id: test-er
extends: er
example: true
name: "Test card — not a published campaign (made-up RG rows and costs)"
calendar:
  - {id: "D1", initial: true}
  - {id: "D2"}
rg_charts:
  - side: us
    ref: "1.518"
    name: Test U.S. RG Chart
    rows:
      - {id: I1, type: I, group_type: Rifle Pltn, full: [{count: 3, unit: 6-6-6}], cost: 5, date_max: 2, cg_max: 9}
      - {id: O1, type: O, group_type: FPF Barrage, notes: [x], cost: 4, date_max: 1, cg_max: 9}
      - {id: O2, type: O, group_type: Pre-Game Bombardment, notes: [y], cost: 6, date_max: 1, cg_max: 9}
    notes:
      x: {text: "FPF Barrage (CG18)", params: {special_rule: cg-fpf-barrage}}
      y: {text: "Bombardment (CG15)", params: {special_rule: cg-bombardment}}
  - side: japanese
    ref: "1.518"
    name: Test Japanese RG Chart
    rows:
      - {id: O1, type: O, group_type: FPF Barrage, notes: [x], cost: 4, date_max: 1, cg_max: 9}
      - {id: O2, type: O, group_type: Pre-Game Bombardment, notes: [y], cost: 6, date_max: 1, cg_max: 9}
    notes:
      x: {text: "FPF Barrage (CG18)", params: {special_rule: cg-fpf-barrage}}
      y: {text: "Bombardment (CG15)", params: {special_rule: cg-bombardment}}
"""


@pytest.fixture(scope="module")
def er() -> System:
    from rules_engine.loader import parse_card

    base = parse_system((ROOT / "fixtures/er.yaml").read_text(), "fixtures/er.yaml")
    return parse_card(ER_TEST_CARD, "test-er.yaml", base)


def test_er_on_map_costs_one_more_and_reserve_one_less(er: System) -> None:
    ledger = new_ledger("us", {"CPP": 20})
    ledger = apply_order(er, ledger, "us", "D2", [RgOrder("I1", setup_mode="on-map"),
                                                  RgOrder("I1", setup_mode="reserve")], initial=False)
    assert [p.cost for p in ledger.purchases] == [Decimal(6), Decimal(4)]


def test_er_bombardment_only_with_the_attack_chit_and_fpf_only_with_idle(er: System) -> None:
    from rules_engine.vocabulary import Chit

    us = new_ledger("us", {"CPP": 20})
    assert validate_order(er, us, "us", "D2", [RgOrder("O2")], initial=False, chit=Chit.ATTACK) == ()
    assert validate_order(er, us, "us", "D2", [RgOrder("O1")], initial=False, chit=Chit.IDLE) == ()
    found = [v.message for v in validate_order(er, us, "us", "D2", [RgOrder("O1"), RgOrder("O2")], initial=False,
                                               chit=Chit.ATTACK)]
    assert found == ["RG O1 (FPF Barrage): FPF Barrage may be bought only when selecting the Idle chit, not Attack "
                     "(CG18)"]
    found = [v.message for v in validate_order(er, us, "us", "D2", [RgOrder("O2")], initial=False, chit=Chit.IDLE)]
    assert found == ["RG O2 (Pre-Game Bombardment): Pre-Game Bombardment may be bought only when selecting the "
                     "Attack chit, not Idle (CG15)"]
    japanese = new_ledger("japanese", {"CPP": 20})
    (only,) = validate_order(er, japanese, "japanese", "D2", [RgOrder("O1")], initial=False, chit=Chit.IDLE)
    assert only.message == "RG O1 (FPF Barrage): FPF Barrage is available only to U.S. (CG18)"
    (unchosen,) = validate_order(er, us, "us", "D2", [RgOrder("O2")], initial=False)
    assert unchosen.message == ("RG O2 (Pre-Game Bombardment): Pre-Game Bombardment may be bought only when selecting "
                                "the Attack chit; choose your chit first (CG15)")


def test_er_initial_scenario_purchase_says_no_chit_is_selected_for_it_so_fpf_and_bombardment_cannot_be_bought(
        er: System) -> None:
    # CG15: Bombardment RGs are available "when selecting an Attack Chit"; CG18: the FPF Barrage "if he is selecting an
    # Idle initiative chit for the upcoming scenario". The Initial Scenario is played without a chit, so at its 1.518
    # purchase step neither condition can be met, and the player is not told to choose a chit that is never due.
    us = new_ledger("us", {"CPP": 20})
    found = [v.message for v in validate_order(er, us, "us", "D1", [RgOrder("O1"), RgOrder("O2")], initial=True)]
    assert found == [
        "RG O1 (FPF Barrage): FPF Barrage may be bought only when selecting the Idle chit; no Initiative chit is "
        "selected for the Initial Scenario (CG18)",
        "RG O2 (Pre-Game Bombardment): Pre-Game Bombardment may be bought only when selecting the Attack chit; no "
        "Initiative chit is selected for the Initial Scenario (CG15)",
    ]
    assert validate_order(er, us, "us", "D1", [RgOrder("I1")], initial=True) == ()


def test_orders_with_ever_new_long_rg_names_and_set_up_modes_leave_no_memory_behind(rr: System) -> None:
    ledger = german(80)
    messages(rr, ledger, "19 PM", RgOrder("I1"))  # the engine's lookups of this system made once, before measuring
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for n in range(3000):  # 3,000 orders of 2 KB names: 12 MB if each were remembered by its name and mode
            name = f"{n:04d}" + "X" * 2000
            messages(rr, ledger, "19 PM", RgOrder(name, setup_mode=name, pre_registered=10**9 + n))
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert grown < 1_000_000
