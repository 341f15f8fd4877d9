"""The example PL 2.5 CG Card (fixtures/cards/example-pl25.yaml): an invented card that fills in what the PL rules leave
to a CG Card. Its own values are invented (it says so); the PL rule values it relies on are checked against seed 000."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.dice import FixedDice
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.tables import resolve
from rules_engine.vocabulary import DiceKind

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def base() -> System:
    return parse_system((ROOT / "fixtures" / "pl25.yaml").read_text(encoding="utf-8"), "fixtures/pl25.yaml")


@pytest.fixture(scope="module")
def card(base: System) -> System:
    path = ROOT / "fixtures" / "cards" / "example-pl25.yaml"
    return parse_card(path.read_text(encoding="utf-8"), "fixtures/cards/example-pl25.yaml", base)


def test_the_example_card_says_it_is_not_a_published_campaign(card: System) -> None:
    assert card.card is not None
    assert card.card.example is True
    assert card.card.extends == "pl25"
    assert "Example CG Card — not a published campaign" in card.card.name
    assert card.card.source is not None and "Invented" in card.card.source


def test_the_card_supplies_a_calendar_of_four_firefights(card: System) -> None:
    assert [e.id for e in card.calendar] == ["1", "2", "3", "4"]
    assert [e.date for e in card.calendar] == ["5 June 1944", "5 June 1944", "5 June 1944", "6 June 1944"]
    assert [e.night for e in card.calendar] == [False, False, True, False]
    assert card.calendar[0].initial is True and card.calendar[0].replenishment_roll is False
    assert all(e.weather is not None for e in card.calendar)


def test_the_card_fills_the_parts_the_rules_leave_missing(base: System, card: System) -> None:
    assert {"calendar", "rg_charts"} <= {m.part for m in base.missing_parts}
    assert not {"calendar", "rg_charts"} & {m.part for m in card.missing_parts}


def test_the_card_sets_the_campaign_settings(card: System) -> None:
    values = card.settings_values
    assert values["intensity"] == "mid"
    assert values["attack_option_cost"] == {"allied": 4, "axis": 5}
    assert values["hist_cp_drm"] == {"allied": 0, "axis": -1}
    assert values["nationality"] == {"allied": "american", "axis": "german"}
    assert values["initial_attacker"] == "allied"


def test_each_side_has_a_short_rg_table_with_i_g_a_hw_o_rows(card: System) -> None:
    for side in ("allied", "axis"):
        chart = card.rg_chart(side)
        assert [row.type for row in chart.rows] == ["I", "I", "G", "HW", "A", "O"]
        assert all(isinstance(row.cost.value, int) and row.cost.value > 0 for row in chart.rows)
        assert chart.notes["l"].leader_table == "leader"
    assert card.rg_chart("allied").row("I1").cost.value == 6
    assert card.rg_chart("axis").row("A1").cost.value == 11


def test_the_card_allows_a_subset_of_fortifications_at_the_rule_costs(base: System, card: System) -> None:
    assert card.fortifications is not None and base.fortifications is not None
    rule_costs = {r.type: r.cost for r in base.fortifications.rows}
    assert [r.type for r in card.fortifications.rows] == ["Foxhole", "Roadblock", "Wire", "A-P Mine", "Trip Flares"]
    for row in card.fortifications.rows:
        assert row.cost == rule_costs[row.type], row.type
    assert card.fortifications.rows[1].cost.amount is not None and card.fortifications.rows[1].cost.amount.value == 12


def test_the_card_does_not_change_the_rule_tables(base: System, card: System) -> None:
    assert card.table("cp-replenishment") == base.table("cp-replenishment")
    assert card.table("cp-replenishment").cell(7, "mid").text == "20"


def test_cp_replenishment_uses_the_card_intensity_column_and_drm(card: System) -> None:
    # Axis: original DR 7, HIST/CP DRM -1 from the card → final 6 → MID column "21" (2.12 as printed).
    intensity = card.settings_values["intensity"]
    hist = card.settings_values["hist_cp_drm"]
    assert isinstance(intensity, str) and isinstance(hist, dict)
    roll = FixedDice(5, 2).roll(DiceKind.DR, "2.1 CP Replenishment", "axis", "axis")
    result = resolve(
        card.table("cp-replenishment"),
        roll,
        intensity,
        facts={"own_attack_previous": False, "cvp_suffered_previous": 0},
        settings={"hist_cp_drm": hist["axis"]},
    )
    assert (result.original, result.final, result.cell.text) == (7, 6, "21")


def test_the_card_mid_intensity_allows_two_patrols(card: System) -> None:
    patrols = next(limit for limit in card.limits if limit.id == "patrols")
    intensity = card.settings_values["intensity"]
    assert isinstance(intensity, str)
    assert patrols.by_choice[intensity].value == 2
