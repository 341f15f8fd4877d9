"""The CG Card form: its sections per system (what each system leaves to a card), and form data → `refit-cg/1` → the
loader → form data again, for PL, RR, PHD, ER and KGP. ER and KGP values below are TEST DATA (not printed values)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules_engine.card_build import form_to_document
from rules_engine.card_form import document_to_form, initial_form
from rules_engine.card_paths import apply_action, card_yaml, field_for_path, yaml_line
from rules_engine.card_schema import card_sections
from rules_engine.cli import load_system
from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_card
from rules_engine.model import System

REPO = Path(__file__).resolve().parents[2]


def _names(system: System, data: dict[str, str]) -> set[str]:
    names = set()
    for section in card_sections(system, data):
        for block in section.blocks:
            names |= {f.name for f in block.fields}
            for grid in block.grids:
                names |= {f.name for _, fields in grid.rows for f in fields}
    return names


def _round_trip(system: System, data: dict[str, str]) -> System:
    """The card the form makes loads, and showing it again in the form gives the same document."""
    built = form_to_document(system, data)
    assert built.problems == []
    card = parse_card(card_yaml(built.doc), "form", system)
    again = form_to_document(system, document_to_form(system, built.doc))
    assert again.doc == built.doc
    return card


def test_pl25_form_offers_each_cg_card_setting_per_side_with_its_rule_and_the_players_choice_apart() -> None:
    pl = load_system("pl25")
    sections = {s.id: s for s in card_sections(pl, initial_form(pl))}
    assert {"card", "settings", "choices", "calendar", "initial_ob", "rg_charts", "victory_conditions", "other"} <= set(
        sections)
    fields = {f.name: f for b in sections["settings"].blocks for f in b.fields}
    assert {"settings_values.hist_cp_drm.allied", "settings_values.hist_cp_drm.axis", "settings_values.intensity"} <= set(
        fields)
    assert fields["settings_values.intensity"].ref == "2.11"
    assert [v for v, _ in fields["settings_values.intensity"].choices] == ["", "low", "mid", "high"]
    assert fields["settings_values.hist_cp_drm.allied"].chart == "the CG Card"
    choices = {f.name for b in sections["choices"].blocks for f in b.fields}
    assert choices == {"settings_values.redeployment_option"}
    # one RG chart per side to fill, no Map Groups column (PL has none)
    charts = [b for b in sections["rg_charts"].blocks]
    assert [f.value for b in charts for f in b.fields if f.name.endswith(".side")] == ["allied", "axis"]
    assert "calendar.0.map_groups" not in _names(pl, initial_form(pl))


def test_pl25_card_typed_in_the_form_loads_with_the_typed_values() -> None:
    pl = load_system("pl25")
    data = initial_form(pl) | {
        "id": "test-pl-form", "name": "TEST DATA card for the PL form test", "example": "true",
        "settings_values.intensity": "mid", "settings_values.initial_elr.allied": "3",
        "settings_values.initial_elr.axis": "4", "settings_values.reserves_allowed": "true",
        "settings_values.redeployment_option": "A",
        "calendar.0.id": "FF1", "calendar.0.initial": "true", "calendar.0.weather": "Clear", "calendar.0.ec": "Moist",
        "calendar.1._row": "1", "calendar.1.id": "FF2", "calendar.1.night": "true", "calendar.1.date": "6 June",
        "rg_charts.0.ref": "CG Card", "rg_charts.0.name": "Allied RG Table (TEST DATA)", "rg_charts.0.columns.cost": "CP",
        "rg_charts.0.rows.0.id": "I1", "rg_charts.0.rows.0.type": "I", "rg_charts.0.rows.0.group_type": "Rifle Pltn",
        "rg_charts.0.rows.0.cost": "12", "rg_charts.0.rows.0.cg_max": "6",
        "initial_ob.sides.allied.points.CP": "10", "initial_ob.sides.allied.rg.0.id": "I1",
        "initial_ob.sides.allied.rg.0.count": "2",
        "victory_conditions.text": "TEST DATA: the Allies win with 40 CG TVP",
        "victory_conditions.conditions.0.side": "allied", "victory_conditions.conditions.0.measure": "tvp",
        "victory_conditions.conditions.0.op": ">=", "victory_conditions.conditions.0.value": "40",
        "victory_conditions.otherwise": "axis",
    }
    card = _round_trip(pl, data)
    assert card.card is not None and card.card.example
    assert card.settings_values["intensity"] == "mid"
    assert card.settings_values["initial_elr"] == {"allied": 3, "axis": 4}
    assert card.settings_values["reserves_allowed"] is True
    assert [(e.id, e.initial, e.night, e.date) for e in card.calendar] == [("FF1", True, False, None),
                                                                           ("FF2", False, True, "6 June")]
    assert card.calendar[0].weather is not None and card.calendar[0].weather.text == "Clear"
    allied = next(c for c in card.rg_charts if c.side == "allied")
    assert (allied.rows[0].id, allied.rows[0].cost.value) == ("I1", 12)
    assert card.initial_ob is not None and card.initial_ob.sides["allied"].points == {"CP": 10}
    assert card.victory_conditions is not None and card.victory_conditions.otherwise == "axis"


def test_rr_form_starts_from_the_printed_calendar_and_leaves_it_out_of_the_card_when_unchanged() -> None:
    rr = load_system("rr")
    data = initial_form(rr)
    assert data["calendar.0.id"] == "19 AM" and data["calendar.0.base_numbers.german"] == "0"
    built = form_to_document(rr, data | {"name": "TEST DATA RR card"})
    assert "calendar" not in built.doc and "initial_ob" not in built.doc
    data |= {"name": "TEST DATA RR card", "initial_ob.ref": "Initial Scenario card",
             "initial_ob.sides.german.points.CPP": "12", "initial_ob.sides.german.elr": "3",
             "initial_ob.sides.german.san": "2", "calendar.1.weather": "Mist (TEST DATA)"}
    card = _round_trip(rr, data)
    assert "calendar" in form_to_document(rr, data).doc
    assert card.calendar[1].weather is not None and card.calendar[1].weather.text == "Mist (TEST DATA)"
    assert card.initial_ob is not None
    german = card.initial_ob.sides["german"]
    assert (german.points, german.elr, german.san) == ({"CPP": 12}, 3, 2)


def test_phd_lost_values_are_fields_named_by_table_row_and_column_and_become_supply_entries() -> None:
    phd = load_system("phd")
    data = initial_form(phd)
    assert "supply.tp-replenishment.2.us" in _names(phd, data)  # row 2 (final DR 4), US column: lost
    card = _round_trip(phd, data | {"name": "TEST DATA PHD values", "supply.tp-replenishment.2.us": "33"})
    assert card.table("tp-replenishment").cell(4, "us").value == 33
    built = form_to_document(phd, data | {"name": "x", "supply.tp-replenishment.2.us": "33"})
    assert built.doc["supply"] == [{"table": "tp-replenishment", "row": 4, "column": "us", "value": 33}]


def test_er_card_of_test_data_adds_a_table_with_its_dice_column_and_both_rg_charts() -> None:
    er = load_system("er")
    sections = {s.id: s for s in card_sections(er, initial_form(er))}
    assert sections["tables"].add == "tables"
    data = apply_action(initial_form(er), "add:tables")
    data |= {
        "id": "test-er-form", "name": "TEST DATA — ER card typed in the form test",
        "calendar.0.id": "D1 AM", "calendar.0.initial": "true", "calendar.0.base_numbers.us": "0",
        "calendar.0.base_numbers.japanese": "0", "calendar.0.extra": "{replenishment_roll: false}",
        "tables.0.id": "er-leader", "tables.0.ref": "1.519", "tables.0.name": "Leader Table (TEST DATA)",
        "tables.0.dice": "DR", "tables.0.per": "rg", "tables.0.secret": "true", "tables.0.columns": "leader: Leader",
        "tables.0.rows.0._row": "1", "tables.0.rows.0.label": "≤5", "tables.0.rows.0.max": "5",
        "tables.0.rows.0.cells.0": "9-1",
        "tables.0.rows.1._row": "1", "tables.0.rows.1.label": "≥6", "tables.0.rows.1.min": "6",
        "tables.0.rows.1.cells.0": "8-0",
        "rg_charts.0.ref": "1.518", "rg_charts.0.name": "U.S. RG Chart (TEST DATA)",
        "rg_charts.0.rows.0.id": "I1", "rg_charts.0.rows.0.type": "I", "rg_charts.0.rows.0.group_type": "Rifle Pl",
        "rg_charts.0.rows.0.cost": "9",
        "rg_charts.1.ref": "1.518", "rg_charts.1.name": "Japanese RG Chart (TEST DATA)",
        "rg_charts.1.rows.0.id": "I1", "rg_charts.1.rows.0.type": "I", "rg_charts.1.rows.0.group_type": "Rifle Pl",
        "rg_charts.1.rows.0.cost": "7",
    }
    card = _round_trip(er, data)
    table = card.table("er-leader")
    assert (table.dice.value, table.secret, table.cell(3).text, table.cell(11).text) == ("DR", True, "9-1", "8-0")
    assert card.calendar[0].replenishment_roll is False
    assert {c.side: c.rows[0].cost.value for c in card.rg_charts} == {"us": 9, "japanese": 7}


def test_kgp_card_of_test_data_names_map_groups_per_date_and_preselects_the_players_choices() -> None:
    kgp = load_system("kgp")
    data = initial_form(kgp)
    assert "calendar.0.map_groups" in _names(kgp, data)
    choices = {f.name for s in card_sections(kgp, data) if s.id == "choices" for b in s.blocks for f in b.fields}
    assert choices == {"settings_values.balance", "settings_values.kgp_cg"}
    data |= {"id": "test-kgp-form", "name": "TEST DATA — KGP card typed in the form test",
             "settings_values.balance": "german",
             "calendar.0.id": "D1 AM", "calendar.0.initial": "true", "calendar.0.map_groups": "St, Lg",
             "calendar.1._row": "1", "calendar.1.id": "D1 PM", "calendar.1.map_groups": "Ch"}
    card = _round_trip(kgp, data)
    assert card.settings_values["balance"] == "german"
    assert [e.map_groups for e in card.calendar] == [("St", "Lg"), ("Ch",)]


@pytest.mark.parametrize("path", ["fixtures/cards/example-pl25.yaml", "tests/campaigns_app/cards/er-test.yaml",
                                  "tests/campaigns_app/cards/kgp-test.yaml", "tests/campaigns_app/cards/phd-test.yaml"])
def test_an_existing_card_opens_in_the_form_and_saves_to_the_same_rules(path: str) -> None:
    text = (REPO / path).read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    base = load_system(doc["extends"])
    before = parse_card(text, path, base)
    built = form_to_document(base, document_to_form(base, doc))
    after = parse_card(card_yaml(built.doc), path, base)
    for part in ("calendar", "rg_charts", "initial_ob", "settings_values", "steps", "initiative", "currencies",
                 "victory_conditions"):
        assert getattr(after, part) == getattr(before, part), part
    assert dict(after.tables) == dict(before.tables)


def test_a_loader_problem_is_put_beside_the_field_it_names() -> None:
    kgp = load_system("kgp")
    data = initial_form(kgp) | {"name": "x", "calendar.0.id": "D1 AM", "calendar.0.map_groups": "St, Xx",
                                "calendar.1._row": "1", "calendar.1.id": "D1 PM", "calendar.1.weather": "{missing"}
    built = form_to_document(kgp, data)
    assert built.problems and built.problems[0][0] == "calendar.1.weather"
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card_yaml(built.doc), "form", kgp)
    paths = [e.path for e in caught.value.errors]
    assert "calendar[D1 AM].map_groups[1]" in paths
    assert field_for_path(built, "calendar[D1 AM].map_groups[1]") == "calendar.0.map_groups"
    assert field_for_path(built, "calendar[D1 PM].weather") == "calendar.1.weather"
    assert field_for_path(built, "steps[3].params") is None


def test_rows_are_added_moved_up_and_removed_without_touching_other_rows() -> None:
    data = {"calendar.0.id": "A", "calendar.1.id": "B", "calendar.2.id": "C", "calendar.10.id": "K"}
    moved = apply_action(data, "up:calendar.2")
    assert (moved["calendar.1.id"], moved["calendar.2.id"]) == ("C", "B")
    assert "calendar.3.id" not in apply_action(data, "remove:calendar.1") and "calendar.1.id" not in apply_action(
        data, "remove:calendar.1")
    assert apply_action(data, "remove:calendar.1")["calendar.10.id"] == "K"
    assert apply_action(data, "add:calendar")["calendar.11._row"] == "1"
    assert apply_action(data, "up:calendar.0") == data
    assert apply_action(data, "remove:../x") == data


def test_a_yaml_problem_path_gives_its_line() -> None:
    text = "format: refit-cg/1\nkind: cg-card\ncalendar:\n  - {id: A}\n  - id: B\n    weather: 7\n"
    assert yaml_line(text, "calendar[B].weather") == 6
    assert yaml_line(text, "calendar[0]") == 4
    assert yaml_line(text, "kind") == 2
    assert yaml_line("a: [", "a") is None
