"""Secret replenishment: RR 2.516 (Base − DR), PL 2.1/2.12 (Intensity column), PHD C5.29 (by side) — from the seeds."""
from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from rules_engine.dice import FixedDice
from rules_engine.errors import MissingValueError, RulesError
from rules_engine.ledger import RosterLine, new_ledger
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.purchases import AttackOptionOrder, apply_order
from rules_engine.replenishment import ReplenishmentMissingValueError, reads_facts, replenish
from rules_engine.vocabulary import Visibility

ROOT = Path(__file__).resolve().parents[3]


def load(name: str) -> System:
    return parse_system((ROOT / f"fixtures/{name}.yaml").read_text(), f"fixtures/{name}.yaml")


@pytest.fixture(scope="module")
def rr() -> System:
    return load("rr")


@pytest.fixture(scope="module")
def pl() -> System:
    return parse_card((ROOT / "fixtures/cards/example-pl25.yaml").read_text(), "example-pl25.yaml", load("pl25"))


@pytest.fixture(scope="module")
def phd() -> System:
    return load("phd")


def test_rr_german_19_pm_is_80_minus_a_secret_dr(rr: System) -> None:
    ledger, events = replenish(rr, new_ledger("german", {"CPP": 5}), "german", "19 PM", FixedDice(3, 4))
    assert ledger.balance("CPP") == Decimal(78)  # 5 + (80 − 7)
    roll, summary = events
    assert roll.kind == "roll" and roll.visibility is Visibility.CG_END and roll.payload["stream"] == "german"
    assert roll.payload["purpose"] == "2.516 CPP Replenishment DR — 19 PM"
    assert summary.payload["amount"] == "73" and summary.visibility is Visibility.CG_END
    assert not summary.visible_to("canadian", cg_ended=False)
    line = ledger.roster_line("19 PM")
    assert line is not None and (line.start, line.replenished, line.left) == (Decimal(5), Decimal(73), Decimal(78))


def test_rr_no_dr_is_made_for_19_am(rr: System) -> None:
    dice = FixedDice()
    ledger, events = replenish(rr, new_ledger("canadian"), "canadian", "19 AM", dice)
    assert ledger.balance("CPP") == Decimal(0)
    assert [e.kind for e in events] == ["replenished"] and dice.made == []


def test_rr_canadian_night_base_25(rr: System) -> None:
    ledger, _ = replenish(rr, new_ledger("canadian"), "canadian", "19 Night", FixedDice(6, 6))
    assert ledger.balance("CPP") == Decimal(13)


def test_pl_mid_column_with_the_cards_hist_cp_drm(pl: System) -> None:
    ledger, events = replenish(pl, new_ledger("axis", {"CP": 2}), "axis", "2", FixedDice(3, 4),
                               facts={"cvp_suffered_previous": 0})
    assert ledger.balance("CP") == Decimal(23)  # DR 7 − 1 = 6 → MID 21
    assert events[0].payload["modifiers"] == [{"reason": "+/– HIST/CP DRM (CG Card)", "value": -1}]


def test_pl_attack_option_and_cvp_suffered_in_the_previous_firefight(pl: System) -> None:
    # bought in a RePh (not for the Initial Firefight, whose Attacker the card assigns: 1.4)
    ledger = apply_order(pl, new_ledger("allied", {"CP": 10}), "allied", "1", [AttackOptionOrder()], initial=False)
    line = ledger.roster_line("1")
    assert line is not None
    ledger = ledger.with_roster_line(replace(line, cvp_suffered=25))
    ledger, events = replenish(pl, ledger, "allied", "2", FixedDice(3, 4))
    assert ledger.balance("CP") == Decimal(6 + 21)  # DR 7 + 1 − 2 = 6 → MID 21
    assert events[0].payload["modifiers"] == [
        {"reason": "+1 if Friendly selected Attack Option on previous CG Firefight", "value": 1},
        {"reason": "–1 per each 10 CVP suffered by friendly side in previous CG Firefight (include units lost "
                   "during previous RePh)", "value": -2},
    ]


def test_pl_needs_the_cvp_suffered_fact(pl: System) -> None:
    dice = FixedDice(3, 4)
    with pytest.raises(RulesError, match="cvp_suffered_previous"):
        replenish(pl, new_ledger("axis"), "axis", "2", dice)
    assert dice.made == []  # refused before rolling: no secret roll is wasted


def test_pl_initial_firefight_has_no_replenishment(pl: System) -> None:
    ledger, events = replenish(pl, new_ledger("axis", {"CP": 30}), "axis", "1", FixedDice())
    assert ledger.balance("CP") == Decimal(30) and events[0].kind == "replenishment-skipped"


def test_phd_tp_by_side_column(phd: System) -> None:
    none = {"cvp_suffered_previous": 0}
    german, _ = replenish(phd, new_ledger("german"), "german", "II", FixedDice(3, 4), facts=none)
    us, _ = replenish(phd, new_ledger("us"), "us", "II", FixedDice(3, 4), facts=none)
    assert (german.balance("TP"), us.balance("TP")) == (Decimal(20), Decimal(30))


def test_phd_attack_chit_in_the_previous_scenario_adds_one(phd: System) -> None:
    ledger = new_ledger("us").with_roster_line(RosterLine("I", initiative="attack", cvp_suffered=0))
    ledger, _ = replenish(phd, ledger, "us", "II", FixedDice(3, 3))
    assert ledger.balance("TP") == Decimal(30)  # DR 6 + 1 = 7 → US +30


def test_phd_lost_cell_is_refused_and_the_roll_is_kept(phd: System) -> None:
    with pytest.raises(MissingValueError) as error:
        replenish(phd, new_ledger("us"), "us", "II", FixedDice(1, 3), facts={"cvp_suffered_previous": 0})
    assert "the US value for final DR 4 is lost in the rule text" in str(error.value)
    assert isinstance(error.value, ReplenishmentMissingValueError) and len(error.value.events) == 1


def test_phd_a_cg_card_may_supply_the_lost_cell(phd: System) -> None:
    card = parse_card("""
format: refit-cg/1
kind: cg-card
id: test-phd-values
extends: phd
example: true
name: "Test card — not a published campaign"
supply:
  - {table: tp-replenishment, row: 4, column: us, value: 99, note: "test value, not from a printed chart"}
""", "test-phd-values.yaml", phd)
    ledger, _ = replenish(card, new_ledger("us"), "us", "II", FixedDice(1, 3), facts={"cvp_suffered_previous": 0})
    assert ledger.balance("TP") == Decimal(99)


def test_phd_initial_tm_scenario_has_no_tp_roll(phd: System) -> None:
    ledger, events = replenish(phd, new_ledger("german", {"TP": 20}), "german", "I", FixedDice())
    assert ledger.balance("TP") == Decimal(20) and events[0].kind == "replenishment-skipped"


def test_only_a_replenishment_table_reads_drm_facts(rr: System, pl: System, phd: System) -> None:
    # RR 2.516: "Base Number minus a DR" has no DRM; PL 2.1 (table 2.12 by Intensity) and PHD C5.29 roll on a table
    assert reads_facts(rr) is False
    assert reads_facts(pl) is True and reads_facts(phd) is True
    no_step = replace(rr, steps=tuple(s for s in rr.steps if s.ref != "2.516"))
    assert reads_facts(no_step) is False
    with pytest.raises(MissingValueError, match="replenishment rule is not in the rule text"):
        replenish(no_step, new_ledger("german"), "german", "19 PM", FixedDice(3, 4))
