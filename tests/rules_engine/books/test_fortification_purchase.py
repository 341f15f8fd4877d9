"""Fortification purchases (RR 2.520, PL 2.38, PHD C5.35) and forfeiture; costs typed from the seeds' tables."""
from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from rules_engine.errors import SubmissionError
from rules_engine.fortification_purchase import (
    FortOrder,
    apply_fortifications,
    evaluate_formula,
    forfeit_unspent,
    formula_words,
    fortification_cost,
    validate_fortifications,
)
from rules_engine.ledger import SideLedger, new_ledger
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.purchases import Order, RgOrder, apply_order, validate_order
from rules_engine.vocabulary import Visibility

ROOT = Path(__file__).resolve().parents[3]


def load(name: str) -> System:
    return parse_system((ROOT / f"fixtures/{name}.yaml").read_text(), f"fixtures/{name}.yaml")


@pytest.fixture(scope="module")
def rr() -> System:
    return load("rr")


@pytest.fixture(scope="module")
def pl() -> System:
    return load("pl25")


@pytest.fixture(scope="module")
def phd() -> System:
    return load("phd")


def messages(system: System, ledger: SideLedger, date: str, *orders: FortOrder, initial: bool = False) -> list[str]:
    found, _ = validate_fortifications(system, ledger, ledger.side, date, orders, initial=initial)
    return [v.message for v in found]


def test_rr_costs_fixed_by_capacity_per_factor_and_by_unit(rr: System) -> None:
    assert fortification_cost(rr, FortOrder("Trench")) == Decimal(7)
    assert fortification_cost(rr, FortOrder("Foxhole", quantity=2, capacity=3)) == Decimal(6)
    assert fortification_cost(rr, FortOrder("Foxhole", capacity=1)) == Decimal(1)
    assert fortification_cost(rr, FortOrder("A-P Mine Factor", quantity=5)) == Decimal("7.5")
    assert fortification_cost(rr, FortOrder("HIP", quantity=2, unit="hs")) == Decimal(4)
    assert fortification_cost(rr, FortOrder("?")) == Decimal(1)


def test_german_buys_trench_and_mines_in_the_initial_scenario(rr: System) -> None:
    ledger = new_ledger("german", {"CPP": 0, "FPP": 15})
    ledger = apply_fortifications(rr, ledger, "german", "19 AM",
                                  [FortOrder("Trench"), FortOrder("A-P Mine Factor", quantity=3)], initial=True)
    assert ledger.balance("FPP") == Decimal("3.5")  # 15 − 7 − 4.5
    assert [(f.type, f.cost) for f in ledger.fortifications] == [("Trench", 7), ("A-P Mine Factor", Decimal("4.5"))]


def test_german_only_and_initial_only_items_are_refused(rr: System) -> None:
    canadian = new_ledger("canadian", {"FPP": 30})
    assert messages(rr, canadian, "19 AM", FortOrder("Wire"), initial=True) == [
        "Wire is only available for German purchase (2.520)"]
    german = new_ledger("german", {"FPP": 30})
    assert messages(rr, german, "20 AM", FortOrder("Trench")) == [
        "Trench is only available for purchase during the Initial Scenario (2.520)"]


def test_missing_order_details_and_unknown_types_are_named(rr: System) -> None:
    german = new_ledger("german", {"FPP": 30})
    assert messages(rr, german, "20 AM", FortOrder("Foxhole"), FortOrder("HIP", unit="tank"), FortOrder("Bunker")) == [
        "Foxhole is priced by capacity: give the capacity (allowed: 3, 2, 1) (2.520)",
        "HIP is priced by unit: give the unit (allowed: squad, hs, crew, smc) (2.520)",
        "unknown fortification 'Bunker' (allowed: Trench, Foxhole, A-P Mine Factor, A-T Mine Factor, Wire, "
        "Fortified Building Location, \"?\", HIP) (2.520)",
    ]


def test_not_enough_fpp(rr: System) -> None:
    assert messages(rr, new_ledger("german", {"FPP": 5}), "20 AM", FortOrder("Fortified Building Location")) == [
        "Fortified Building Location costs 10 FPP; you have 5 FPP left (2.520)"]


def test_m1_fpp_bought_in_the_same_order_pay_for_fortifications(rr: System) -> None:
    ledger = new_ledger("german", {"CPP": 10})
    orders: list[Order] = [RgOrder("M1"), FortOrder("Fortified Building Location")]
    assert validate_order(rr, ledger, "german", "20 AM", orders, initial=False) == ()
    ledger = apply_order(rr, ledger, "german", "20 AM", orders, initial=False)
    assert (ledger.balance("CPP"), ledger.balance("FPP")) == (Decimal(9), Decimal(5))
    roster = ledger.roster_line("20 AM")
    assert roster is not None and roster.fortifications == ("Fortified Building Location",)


def test_unspent_fpp_are_forfeit(rr: System) -> None:
    ledger = new_ledger("german", {"CPP": 9, "FPP": 5})
    after, events = forfeit_unspent(rr, ledger)
    assert (after.balance("FPP"), after.balance("CPP")) == (Decimal(0), Decimal(9))
    (event,) = events
    assert event.visibility is Visibility.CG_END and event.side == "german"
    assert event.payload["amount"] == "5" and event.payload["currency"] == "FPP"
    assert forfeit_unspent(rr, after) == (after, ())


def test_pl_pillbox_formula_known_minefield_and_panji(pl: System) -> None:
    assert fortification_cost(pl, FortOrder("Pillbox", capacity=2, ca_drm=3, nca_drm=2)) == Decimal(10)
    assert fortification_cost(pl, FortOrder("Known Minefield", base_cost=11)) == Decimal(9)  # 8.8 FRU
    assert fortification_cost(pl, FortOrder("Panji", quantity=3)) == Decimal(6)
    assert fortification_cost(pl, FortOrder("A-T/A-B Mine", quantity=2)) == Decimal(10)
    with pytest.raises(SubmissionError) as pillbox:
        fortification_cost(pl, FortOrder("Pillbox", capacity=2))
    assert "give the CA DRM and the NCA DRM (2.38)" in str(pillbox.value) and "ca_drm" not in str(pillbox.value)


def test_a_dummy_minefield_priced_as_per_f7b_is_refused_in_player_words(pl: System) -> None:
    # PL 2.38 Fortification Points Table: Dummy Minefield "As per F.7B" — a cost the rule text does not give
    with pytest.raises(SubmissionError) as refused:
        fortification_cost(pl, FortOrder("Dummy Minefield"))
    assert str(refused.value) == ("Dummy Minefield costs “as per F.7B”, a cost the rule text does not give: it can be "
                                  "bought only where your CG Card gives its FP cost (type it in the card's "
                                  "fortifications) (2.38)")
    assert "seed" not in str(refused.value)


def test_a_cost_formula_reads_with_the_form_s_words() -> None:
    assert formula_words("(ca_drm + nca_drm) * capacity") == "(CA DRM + NCA DRM) × capacity"


def test_formula_evaluation() -> None:
    assert evaluate_formula("(ca_drm + nca_drm) * capacity", {"ca_drm": 3, "nca_drm": 2, "capacity": 2}) == 10
    assert evaluate_formula("capacity + ca_drm + nca_drm", {"ca_drm": 3, "nca_drm": 2, "capacity": 2}) == 7


def test_phd_lost_costs_are_refused_naming_the_value(phd: System) -> None:
    (found,) = messages(phd, new_ledger("german", {"DSP": 60}), "II", FortOrder("Wire"))
    assert found == ("phd: the DSP cost of Wire is lost in the rule text (OCR-LOST: the DSP cost of Wire is not "
                     "printed); supply it in a CG Card (C5.35)")
    assert messages(phd, new_ledger("german", {"DSP": 60}), "II", FortOrder("Trench", quantity=2)) == []


def test_phd_us_may_not_requisition_defensive_stores_in_the_initial_scenario(phd: System) -> None:
    (found,) = messages(phd, new_ledger("us", {"DSP": 10}), "I", FortOrder("Trench"), initial=True)
    assert found.startswith("US may not buy DSP items in the Initial Scenario") and found.endswith("(C4.2)")


def test_mine_limit_of_30_dsp_per_tm_scenario(phd: System) -> None:
    # Test-only card (not a published campaign): the PHD mines row is illegible, so a made-up per-factor cost is used
    # to exercise the legible limit "A side may not spend > 30 DSP per TM Scenario on Mines".
    card = parse_card("""
format: refit-cg/1
kind: cg-card
id: test-phd-mines
extends: phd
example: true
name: "Test card — not a published campaign"
fortifications:
  ref: "C5.35"
  currency: DSP
  forfeit_unspent: true
  limits: [{types: [A-P Mine Factor], max_points: 30, per: scenario}]
  rows:
    - {type: A-P Mine Factor, cost: {per_factor: 2}}
""", "test-phd-mines.yaml", phd)
    ledger = new_ledger("german", {"DSP": 60})
    ledger = apply_fortifications(card, ledger, "german", "II", [FortOrder("A-P Mine Factor", quantity=10)],
                                  initial=False)
    assert messages(card, ledger, "II", FortOrder("A-P Mine Factor", quantity=6)) == [
        "at most 30 DSP per scenario on A-P Mine Factor; A-P Mine Factor (12 DSP) would make 32 (C5.35)"]
    assert messages(card, ledger, "III", FortOrder("A-P Mine Factor", quantity=6)) == []
    after, events = forfeit_unspent(card, ledger)
    assert after.balance("DSP") == 0 and events[0].payload["amount"] == "40"
