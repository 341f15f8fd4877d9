"""Secret rolls on purchase: RR 2.5191 strength, 2.5192 SW, 2.5193 leaders; PL 2.35/2.36/2.362 (typed from the seeds)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rules_engine.dice import FixedDice
from rules_engine.errors import MissingValueError
from rules_engine.ledger import SideLedger, new_ledger
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.purchases import AttackOptionOrder, RgOrder, apply_order
from rules_engine.rg_rolls import RollMissingValueError, roll_for_purchase
from rules_engine.vocabulary import Visibility

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def rr() -> System:
    return parse_system((ROOT / "fixtures/rr.yaml").read_text(), "fixtures/rr.yaml")


@pytest.fixture(scope="module")
def pl() -> System:
    base = parse_system((ROOT / "fixtures/pl25.yaml").read_text(), "fixtures/pl25.yaml")
    return parse_card((ROOT / "fixtures/cards/example-pl25.yaml").read_text(), "example-pl25.yaml", base)


def bought(system: System, side: str, date: str, rg_id: str, points: dict[str, int]) -> SideLedger:
    return apply_order(system, new_ledger(side, points), side, date, [RgOrder(rg_id)], initial=False)


# ---- RR 2.5191 / 2.5192 / 2.5193 -------------------------------------------------------------------------------------


def test_full_para_company_gets_all_its_sw_and_three_company_leaders(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "I1", {"CPP": 80})
    dice = FixedDice(4, 4, 3, 3)  # strength DR 8 → Full; company leader DR 6 → 8-1, 8-0, 7-0
    line, events = roll_for_purchase(rr, ledger.purchases[0], "german", dice, ledger=ledger)
    assert line.strength == "F"
    assert line.units == ((10, "5-4-8"),)
    assert dict(line.sw) == {"LMG": 3, "PSK": 1}
    assert line.leaders == ("8-1", "8-0", "7-0")
    assert line.rolled
    assert [e.payload["purpose"] for e in events] == [
        "2.5191 RG Strength DR — RG I1",
        "2.5193 Company Leader Allotment Table (RG Note L) DR — RG I1",
    ]
    strength = events[0]
    assert strength.visibility is Visibility.CG_END and strength.side == "german"
    assert strength.payload["stream"] == "german"
    assert (strength.payload["original"], strength.payload["final"], strength.payload["result"]) == (8, 8, "Full")
    assert not strength.visible_to("canadian", cg_ended=False)
    assert strength.visible_to("canadian", cg_ended=True)


def test_canadian_strength_dr_9_minus_1_is_8_full(rr: System) -> None:
    ledger = bought(rr, "canadian", "19 PM", "I1", {"CPP": 40})
    line, events = roll_for_purchase(rr, ledger.purchases[0], "canadian", FixedDice(4, 5, 1, 1))
    assert line.strength == "F"
    first = events[0].payload
    assert (first["original"], first["final"]) == (9, 8)
    assert first["modifiers"] == [{"reason": "-1 DRM if Canadian", "value": -1}]
    assert line.leaders == ("10-2", "8-1", "8-0")  # company table DR 2


def test_headquarters_platoon_fact_takes_two_off_the_company_leader_dr(rr: System) -> None:
    ledger = bought(rr, "canadian", "19 PM", "I1", {"CPP": 40})
    line, events = roll_for_purchase(rr, ledger.purchases[0], "canadian", FixedDice(1, 1, 1, 1),
                                     facts={"headquarters": True})
    assert line.leaders == ("10-3", "9-1", "8-1")  # DR 2 − 2 = 0: row ≤ 1
    assert events[-1].payload["final"] == 0


def test_depleted_company_rolls_each_sw_and_adds_two_to_the_leader_dr(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "I1", {"CPP": 80})
    # strength 5+4 = 9 → Depleted; SW drs LMG 4, 5, 1 and PSK 6; leader DR 3+4 = 7 (+2) = 9 → 8-1, 7-0
    line, events = roll_for_purchase(rr, ledger.purchases[0], "german", FixedDice(5, 4, 4, 5, 1, 6, 3, 4))
    assert line.strength == "D"
    assert line.units == ((7, "5-4-8"),)
    assert dict(line.sw) == {"LMG": 2}
    assert line.leaders == ("8-1", "7-0")
    leader = events[-1].payload
    assert (leader["original"], leader["final"]) == (7, 9)
    assert leader["modifiers"] == [{"reason": "+2 DRM if Depleted", "value": 2}]
    assert [e.payload["purpose"] for e in events[1:5]] == [
        "2.5192 SW allotment dr — RG I1 LMG #1", "2.5192 SW allotment dr — RG I1 LMG #2",
        "2.5192 SW allotment dr — RG I1 LMG #3", "2.5192 SW allotment dr — RG I1 PSK #1"]


def test_company_leader_roll_into_the_missing_row_12_is_refused_with_the_catalog_words(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "I1", {"CPP": 80})
    # Depleted (6+6); SW drs 1,1,1,1; leader DR 5+5 = 10 + 2 = 12: no row 12 in the seed
    with pytest.raises(MissingValueError) as error:
        roll_for_purchase(rr, ledger.purchases[0], "german", FixedDice(6, 6, 1, 1, 1, 1, 5, 5))
    assert "no row for final DR 12 in the rule text" in str(error.value)
    assert isinstance(error.value, RollMissingValueError)
    assert len(error.value.events) == 6  # every roll made is kept, the one into the lost row too
    assert error.value.events[-1].payload["total"] == 10
    assert error.value.line.strength == "D"


def test_depleted_hw_platoon_rolls_again_until_at_least_two_sw(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "HW1", {"CPP": 80})
    # strength 6+6 → Depleted; round 1: HMG 5, 6; MMG 5, 3 → only 1 SW → ignore; round 2: HMG 1, 2; MMG 6, 6 → 2 HMG
    line, events = roll_for_purchase(rr, ledger.purchases[0], "german", FixedDice(6, 6, 5, 6, 5, 3, 1, 2, 6, 6))
    assert line.strength == "D"
    assert dict(line.sw) == {"HMG": 2}
    assert line.units == ((2, "HMG"),)
    assert len(events) == 9
    assert "re-roll 2" in str(events[5].payload["purpose"])


def _with_step_params(system: System, ref: str, **changes: object) -> System:
    steps = tuple(replace(s, params={**s.params, **changes}) if s.ref == ref else s for s in system.steps)
    return replace(system, steps=steps)


def test_the_hw_at_least_two_sw_rule_is_read_from_the_2_519_step_data(rr: System) -> None:
    # the same dice as above; with the step's sw_at_least_by_type emptied, the single MMG of round 1 is kept
    loose = _with_step_params(rr, "2.519", sw_at_least_by_type={})
    ledger = bought(loose, "german", "19 PM", "HW1", {"CPP": 80})
    line, events = roll_for_purchase(loose, ledger.purchases[0], "german", FixedDice(6, 6, 5, 6, 5, 3))
    assert dict(line.sw) == {"MMG": 1}
    assert len(events) == 5


def test_a_strength_result_the_step_does_not_name_as_depleted_leaves_the_rg_full(rr: System) -> None:
    # 2.5191 DR 6+6 = 12 ≥ 9 reads "Depleted" on the table; a card naming another word keeps the RG Full
    other = _with_step_params(rr, "2.519", depleted_result="Reduced")
    ledger = bought(other, "german", "19 PM", "HW1", {"CPP": 80})
    line, _ = roll_for_purchase(other, ledger.purchases[0], "german", FixedDice(6, 6))
    assert line.strength == "F"


def test_canadian_replacement_platoon_is_never_depleted_and_rolls_nothing(rr: System) -> None:
    ledger = bought(rr, "canadian", "19 PM", "I2", {"CPP": 40})
    line, events = roll_for_purchase(rr, ledger.purchases[0], "canadian", FixedDice())
    assert events == ()
    assert line.strength is None and line.units == ((3, "4-5-7"),) and line.rolled


def test_armor_platoon_uses_the_armor_column_of_the_platoon_leader_table(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "V2", {"CPP": 80})
    line, events = roll_for_purchase(rr, ledger.purchases[0], "german", FixedDice(3, 3, 2, 3))
    assert line.strength == "F" and line.units == ((3, "Pz IVH/J"),)
    assert line.leaders == ("8-1",)  # Armor column, DR 5
    assert events[1].payload["column"] == "armor"


def test_depleted_engineer_platoon_infantry_leader_gets_plus_one(rr: System) -> None:
    ledger = bought(rr, "german", "19 PM", "I4", {"CPP": 80})
    # strength 5+5 → D; SW DC drs 4, 4, 5 → 2 DC; leader DR 4+4 = 8 +1 = 9 → 7-0 (Infantry column)
    line, _ = roll_for_purchase(rr, ledger.purchases[0], "german", FixedDice(5, 5, 4, 4, 5, 4, 4))
    assert (line.strength, dict(line.sw), line.leaders, line.leader_column) == ("D", {"DC": 2}, ("7-0",), "infantry")


# ---- PL 2.35 / 2.36 / 2.362 --------------------------------------------------------------------------------------------


def test_pl_initial_firefight_allows_one_each_of_the_two_top_leaders(pl: System) -> None:
    ledger = new_ledger("allied", {"CP": 40})
    ledger = apply_order(pl, ledger, "allied", "1", [RgOrder("I1")], initial=True)
    ledger = ledger.with_purchase(roll_for_purchase(pl, ledger.purchases[0], "allied", FixedDice(1, 1),
                                                    ledger=ledger)[0])
    assert ledger.purchases[0].leaders == ("10-2",)
    ledger = apply_order(pl, ledger, "allied", "1", [RgOrder("A1")], initial=True)
    armor, _ = roll_for_purchase(pl, ledger.purchases[1], "allied", FixedDice(1, 1), ledger=ledger)
    assert armor.leaders == ("10-2",) and armor.leader_column == "armor"  # the armor column counts separately
    ledger = ledger.with_purchase(armor)
    second = replace(ledger.purchases[0], line=3, leaders=())  # another platoon line of the Initial Firefight
    line, events = roll_for_purchase(pl, second, "allied", FixedDice(1, 1), ledger=ledger)
    assert line.leaders == ("9-2",)  # a second 10-2 becomes the next leader down
    assert events[0].payload["adjustments"] == ["2.362: a further 10-2 becomes 9-2"]


def test_pl_leader_drm_comes_from_the_cg_card(pl: System) -> None:
    ledger = apply_order(pl, new_ledger("axis", {"CP": 40}), "axis", "2", [RgOrder("I1")], initial=False)
    line, events = roll_for_purchase(pl, ledger.purchases[0], "axis", FixedDice(2, 3))
    assert line.leaders == ("9-1",)  # DR 5 − 1 (Leader DRM) = 4
    assert events[0].payload["final"] == 4


def test_pl_oba_ammunition_with_card_drm_and_attack_option(pl: System) -> None:
    ledger = apply_order(pl, new_ledger("allied", {"CP": 40}), "allied", "2", [RgOrder("O1")], initial=False)
    line, events = roll_for_purchase(pl, ledger.purchases[0], "allied", FixedDice(2, 4), ledger=ledger)
    assert line.oba_ammo == "Normal"  # DR 6 − 1 (OBA DRM) = 5
    ledger = apply_order(pl, ledger, "allied", "2", [AttackOptionOrder()], initial=False)
    line, events = roll_for_purchase(pl, ledger.purchases[0], "allied", FixedDice(2, 4), ledger=ledger)
    assert line.oba_ammo == "Plentiful"  # 6 − 1 − 1 (Attack Option purchased also) = 4
    assert events[0].payload["modifiers"] == [
        {"reason": "+/– as per OBA DRM on CG Card", "value": -1},
        {"reason": "–1 Attack Option purchased also", "value": -1},
    ]
    assert events[0].payload["purpose"] == "2.351 Off Board Artillery Table DR — RG O1"


# ---- KGP 8.2: U.S. RG are always received at Full Strength ----------------------------------------------------------

KGP_TEST_CARD = """
format: refit-cg/1
kind: cg-card
id: test-kgp
extends: kgp
example: true
name: "Test card — not a published campaign (made-up RG rows and costs)"
map_groups_in_play: [St]
calendar:
  - {id: "D1", initial: true}
  - {id: "D2"}
rg_charts:
  - side: us
    ref: "8.619"
    name: Test U.S. RG Chart
    rows:
      - {id: I1, type: I, group_type: Rifle Pltn, full: [{count: 3, unit: 6-6-6}], depleted: [{count: 2, unit: 6-6-6}],
         notes: [d], cost: 5, date_max: 2, cg_max: 9}
    notes:
      d: {text: "Subject to depletion.", depletable: true}
  - side: german
    ref: "8.619"
    name: Test German RG Chart
    rows:
      - {id: I1, type: I, group_type: Gren Pltn, full: [{count: 3, unit: 4-6-7}], depleted: [{count: 2, unit: 4-6-7}],
         notes: [d], cost: 5, date_max: 2, cg_max: 9}
    notes:
      d: {text: "Subject to depletion.", depletable: true}
"""


def test_kgp_us_rg_are_always_full_and_the_german_depletion_table_must_be_supplied() -> None:
    base = parse_system((ROOT / "fixtures/kgp.yaml").read_text(), "fixtures/kgp.yaml")
    kgp = parse_card(KGP_TEST_CARD, "test-kgp.yaml", base)
    us = bought(kgp, "us", "D2", "I1", {"CPP": 10})
    dice = FixedDice()
    line, events = roll_for_purchase(kgp, us.purchases[0], "us", dice)
    assert (line.strength, line.units, events, dice.made) == ("F", ((3, "6-6-6"),), (), [])
    german = bought(kgp, "german", "D2", "I1", {"CPP": 10})
    with pytest.raises(MissingValueError, match="RG I1 is subject to depletion, but no step names its strength_table; supply it in a CG Card"):
        roll_for_purchase(kgp, german.purchases[0], "german", FixedDice(1, 1))
