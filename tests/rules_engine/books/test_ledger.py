"""The side ledger: frozen, Decimal points (A-P mine factors cost 1.5 FPP), JSON round trip with Decimals as strings."""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest

from rules_engine.ledger import (
    FortificationLine,
    ItemLine,
    PurchaseLine,
    RosterLine,
    SideLedger,
    new_ledger,
)


def sample() -> SideLedger:
    ledger = new_ledger("german", {"CPP": 80, "FPP": "1.5"}, elr=3, san=2)
    line = PurchaseLine(1, "19 PM", "I1", "Para Inf Coy", Decimal(28), setup_mode="on-map", number_purchased=1,
                        remaining=3, strength="D", units=((7, "5-4-8"),), sw={"LMG": 2}, leaders=("8-1", "7-0"),
                        setup_area="A3", leader_column="leaders", rolled=True)
    fort = FortificationLine(1, "19 AM", "A-P Mine Factor", 3, Decimal("4.5"), "FPP")
    item = ItemLine(1, "19 PM", "points", 10, Decimal(5), "CP", gives={"FP": Decimal(10)})
    roster = RosterLine("19 PM", start=Decimal(80), replenished=Decimal(73), purchased=(("I1", Decimal(28)),),
                        spent=Decimal(28), left=Decimal(52), recon=2, initiative="attack", lvp_current=4, lvp_cg=9,
                        fortifications=("Trench",), cvp_suffered=12)
    return SideLedger("german", ledger.points, (line,), (fort,), (roster,), 3, 2, (item,))


def test_points_are_decimals_and_amounts_are_strings_in_json() -> None:
    ledger = sample()
    assert ledger.balance("FPP") == Decimal("1.5")
    data = ledger.to_json()
    assert data["points"] == {"CPP": "80", "FPP": "1.5"}
    assert data["fortifications"] == [{"line": 1, "date_id": "19 AM", "type": "A-P Mine Factor", "quantity": 3,
                                       "cost": "4.5", "currency": "FPP", "detail": "", "notes": ""}]


def test_json_round_trip_keeps_everything() -> None:
    ledger = sample()
    assert SideLedger.from_json(ledger.to_json()) == ledger


def test_ledgers_are_frozen_and_changes_make_new_ledgers() -> None:
    ledger = sample()
    with pytest.raises(FrozenInstanceError):
        ledger.side = "canadian"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ledger.points["CPP"] = Decimal(0)  # type: ignore[index]
    after = ledger.adjust("CPP", -28)
    assert (after.balance("CPP"), ledger.balance("CPP")) == (Decimal(52), Decimal(80))


def test_counts_leave_out_initial_ob_rg() -> None:
    ledger = sample().with_purchase(PurchaseLine(2, "19 AM", "I1", "Para Inf Coy", Decimal(0), initial_ob=True))
    assert ledger.purchased_count(["I1"]) == 1
    assert ledger.purchased_count(["I1"], "19 PM") == 1
    assert ledger.next_line == 3
    more = ledger.with_purchase(PurchaseLine(3, "20 AM", "I1", "Para Inf Coy", Decimal(10)))
    for date in ("19 AM", "19 PM", "20 AM", "21 AM"):  # both counts of ``_maxima`` in one pass, as two counts give them
        assert more.bought_counts("I1", date) == (more.purchased_count(["I1"], date), more.purchased_count(["I1"]))


def test_bad_json_names_the_field() -> None:
    data = sample().to_json()
    data["purchases"] = [{"line": "one"}]
    with pytest.raises(ValueError, match="line must be a whole number"):
        SideLedger.from_json(data)


def test_bad_set_up_mode_and_strength_are_refused() -> None:
    with pytest.raises(ValueError, match="allowed: entry, on-map, reserve"):
        PurchaseLine(1, "19 PM", "I1", "Para Inf Coy", Decimal(28), setup_mode="air-drop")
    with pytest.raises(ValueError, match="F or D"):
        PurchaseLine(1, "19 PM", "I1", "Para Inf Coy", Decimal(28), strength="X")


def test_a_purchase_line_evolved_equals_the_same_line_built_whole() -> None:
    line = sample().purchases[0]
    changed = line.evolve(strength="F", units=[(9, "6-5-8")], sw={"MMG": 1}, leaders=["9-1"], cost=30, rolled=False)
    assert changed == PurchaseLine(1, "19 PM", "I1", "Para Inf Coy", Decimal(30), setup_mode="on-map",
                                   number_purchased=1, remaining=3, strength="F", units=((9, "6-5-8"),),
                                   sw={"MMG": 1}, leaders=("9-1",), setup_area="A3", leader_column="leaders")
    assert changed.cost == Decimal(30) and type(changed.cost) is Decimal
    assert changed.units == ((9, "6-5-8"),) and changed.leaders == ("9-1",)
    with pytest.raises(TypeError):
        changed.sw["MMG"] = 2  # type: ignore[index]
    assert line.strength == "D" and line.rolled  # the line it came from is unchanged


def test_a_purchase_line_evolved_refuses_what_the_constructor_refuses() -> None:
    line = sample().purchases[0]
    with pytest.raises(ValueError, match="set-up mode"):
        line.evolve(setup_mode="airdrop")
    with pytest.raises(ValueError, match="strength is F or D"):
        line.evolve(strength="X")
    with pytest.raises(TypeError, match="no field 'colour'"):
        line.evolve(colour="red")  # type: ignore[call-arg]


def test_a_roster_line_evolved_equals_the_same_line_built_whole() -> None:
    roster = sample().roster[0]
    changed = roster.evolve(left=40, spent=40, purchased=[("I1", 28), ("M2", "12")], replenished=None, san=3)
    assert changed == RosterLine("19 PM", start=Decimal(80), replenished=None,
                                 purchased=(("I1", Decimal(28)), ("M2", Decimal(12))), spent=Decimal(40),
                                 left=Decimal(40), recon=2, san=3, initiative="attack", lvp_current=4, lvp_cg=9,
                                 fortifications=("Trench",), cvp_suffered=12)
    assert type(changed.left) is Decimal and type(changed.purchased[1][1]) is Decimal
    assert roster.left == Decimal(52)  # the line it came from is unchanged
