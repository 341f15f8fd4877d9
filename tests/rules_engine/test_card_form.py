"""The CG Card form: its sections per system (what each system leaves to a card), and form data → `refit-cg/1` → the
loader → form data again, for PL, RR, PHD, ER and KGP. ER and KGP values below are TEST DATA (not printed values)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rules_engine.card_build import form_to_document
from rules_engine.card_fields import rows_of
from rules_engine.card_form import document_to_form, initial_form
from rules_engine.card_paths import apply_action, card_yaml, field_for_path, yaml_line
from rules_engine.card_schema import card_sections
from rules_engine.cli import load_system
from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_card
from rules_engine.model import System
from tests.rules_engine.card_form_values import ER_FORM, KGP_FORM, form_over

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
                                  "tests/campaigns_app/cards/kgp-test.yaml", "tests/campaigns_app/cards/phd-test.yaml",
                                  "tests/campaigns_app/cards/er-values-test.yaml",
                                  "tests/campaigns_app/cards/kgp-values-test.yaml"])
def test_an_existing_card_opens_in_the_form_and_saves_to_the_same_rules(path: str) -> None:
    text = (REPO / path).read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    base = load_system(doc["extends"])
    before = parse_card(text, path, base)
    built = form_to_document(base, document_to_form(base, doc))
    after = parse_card(card_yaml(built.doc), path, base)
    for part in ("calendar", "rg_charts", "initial_ob", "settings_values", "steps", "initiative", "currencies",
                 "victory_conditions", "idle", "fortifications", "setup_costs"):
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


# --------------------------------------------------------------- RePh steps, currencies, initiative, Idle, RG units


@pytest.mark.parametrize("system_id", ["er", "kgp"])
def test_a_system_that_leaves_its_reph_to_the_card_offers_steps_currencies_initiative_and_idle_as_fields(
        system_id: str) -> None:
    system = load_system(system_id)
    sections = {s.id: s for s in card_sections(system, initial_form(system))}
    assert {"steps", "currencies", "initiative", "idle", "fortifications"} <= set(sections)
    assert ("setup_costs" in sections) == (system_id == "kgp")
    steps = sections["steps"].blocks[0].grids[0]
    assert steps.headers[:8] == ("Step (rule number)", "Name as printed", "Who acts", "Initial (†)", "Loop on Idle",
                                 "Secret", "Revealed", "What Refit does")
    first = {f.name.split(".", 2)[2]: f for f in steps.rows[0][1]}
    actions = dict(first["action"].choices)
    assert actions["purchase-rg"] == "secret RG purchase"
    assert actions["replenish-base-minus-dr"] == "points: the CG Date's base number minus a secret roll"
    assert actions["initiative"] == "sealed Attack/Idle chits, revealed to both at once"
    assert [v for v, _ in first["params.currency"].choices] == ["CPP", "FPP"]
    assert [v for v, _ in first["params.dice"].choices] == ["DR", "dr"]
    assert dict(first["sides"].choices)["order:us"] == "U.S. only"
    matrix = {f.name for b in sections["initiative"].blocks for f in b.fields}
    assert {"initiative.ref", "initiative.mode", "initiative.matrix.attack/idle.result",
            "initiative.matrix.idle/attack.setup_first", "initiative.matrix.idle/idle.label"} <= matrix
    # the steps the rules file already names are shown (their rule number and name) for the player to keep or remove
    refs = [f.value for _, row in steps.rows for f in row if f.name.endswith(".ref")]
    assert refs == [s.ref for s in system.steps]
    # no other part of the card asks for YAML about these parts
    other = sections["other"].help
    assert "still lacks" in other and "steps" not in other.split("lacks:")[1]
    assert "initiative" not in other.split("lacks:")[1] and "currencies" not in other.split("lacks:")[1]


def test_pl25_whose_steps_are_in_the_rule_text_is_not_asked_for_steps() -> None:
    pl = load_system("pl25")
    assert not {"steps", "currencies", "initiative", "idle", "fortifications"} & {
        s.id for s in card_sections(pl, initial_form(pl))}


@pytest.mark.parametrize(("system_id", "values"), [("er", ER_FORM), ("kgp", KGP_FORM)])
def test_the_values_only_card_is_typed_in_form_fields_alone_and_loads(system_id: str, values: dict[str, str]) -> None:
    system = load_system(system_id)
    data = form_over(initial_form(system), values)
    assert not [k for k, v in data.items() if (k == "other" or k.endswith(".extra")) and v.strip()]
    card = _round_trip(system, data)
    purchase = next(s for s in card.steps if s.action == "purchase-rg")
    assert (purchase.initial, purchase.loop_on_idle, purchase.secret, dict(purchase.params)) == (
        True, True, "purchase", {"currency": "CPP"})
    replenish = next(s for s in card.steps if s.action == "replenish-base-minus-dr")
    assert (replenish.secret, replenish.params["base"], replenish.params["currency"]) == (
        "roll", "calendar.base_numbers", "CPP")
    assert [(c.code, c.carry_over) for c in card.currencies] == [("CPP", True), ("FPP", False)]
    assert card.initiative is not None and card.initiative.mode == "chit"
    assert {cell.result for cell in card.initiative.matrix.values()} == {"dual-attack", "axis-assault",
                                                                         "allied-assault", "idle"}
    assert card.idle is not None and (card.idle.name, card.idle.loop) == ("Idle Date", "steps-marked-loop")
    first = card.rg_charts[0].rows[0]
    assert [(u.count.value, u.unit) for u in first.full] == [(3, "6-6-8" if system_id == "er" else "6-6-7")]
    if system_id == "kgp":
        assert card.setup_costs is not None and [(m.mode, {k: c.value for k, c in m.by_type.items()})
                                                 for m in card.setup_costs.modes] == [("on-map", {"I": 2}), ("entry", {})]
    if system_id == "er":
        assert card.fortifications is not None and card.fortifications.currency == "FPP"
        assert [r.type for r in card.fortifications.rows] == ["Jungle Path", "Foxhole"]


def test_kgp_steps_keep_what_the_system_file_says_of_the_same_step() -> None:
    kgp = load_system("kgp")
    card = _round_trip(kgp, form_over(initial_form(kgp), KGP_FORM))
    steps = {s.ref: s for s in card.steps}
    # 8.603's action and part, and the 8.31 Balance on 8.616, come from fixtures/kgp.yaml, not from the form
    assert steps["8.603"].action == "record-lvp" and steps["8.603"].params["part"] == "post-scenario"
    assert steps["8.616"].params["balance_setting"] == "balance"


def test_rg_units_full_and_depleted_are_a_list_of_count_and_unit() -> None:
    er = load_system("er")
    data = form_over(initial_form(er), ER_FORM) | {
        "rg_charts.1.rows.0.depleted.0._row": "1", "rg_charts.1.rows.0.depleted.0.count": "2",
        "rg_charts.1.rows.0.depleted.0.unit": "4-4-7"}
    card = _round_trip(er, data)
    row = card.rg_charts[1].rows[0]
    assert [(u.count.value, u.unit) for u in row.full] == [(3, "4-4-7"), (1, "9-1")]
    assert [(u.count.value, u.unit) for u in row.depleted] == [(2, "4-4-7")]
    assert {k: v.value for k, v in card.rg_charts[0].rows[2].gives.items()} == {"FPP": 10}
    added = apply_action(data, "add:rg_charts.1.rows.0.full")
    assert added["rg_charts.1.rows.0.full.2._row"] == "1"
    removed = apply_action(data, "remove:rg_charts.1.rows.0.full.0")
    assert [(u.count.value, u.unit) for u in _round_trip(er, removed).rg_charts[1].rows[0].full] == [(1, "9-1")]


def test_a_param_the_chosen_action_does_not_take_is_refused_beside_its_field() -> None:
    er = load_system("er")
    data = form_over(initial_form(er), ER_FORM)
    built = form_to_document(er, data | {"steps.3.params.currency": "CPP"})
    assert built.problems == [("steps.3.params.currency",
                               "“sealed Attack/Idle chits, revealed to both at once” takes no params; leave this blank")]


def test_loader_problems_of_steps_matrix_and_units_are_put_beside_their_fields() -> None:
    er = load_system("er")
    data = form_over(initial_form(er), ER_FORM) | {
        "steps.0.secret": "hidden", "initiative.matrix.idle/attack.setup_first": "french",
        "rg_charts.0.rows.0.full.0.count": "three", "currencies.1.code": ""}
    built = form_to_document(er, data)
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card_yaml(built.doc), "form", er)
    fields = {field_for_path(built, e.path): e.problem for e in caught.value.errors}
    assert "steps.0.secret" in fields and "initiative.matrix.idle/attack.setup_first" in fields
    assert "rg_charts.0.rows.0.full" in fields
    assert "currencies.1.code" in fields


def test_untouched_initiative_and_idle_sections_add_nothing_to_the_card() -> None:
    er = load_system("er")
    sections = {s.id: s for s in card_sections(er, initial_form(er))}
    untyped = [f for s in ("initiative", "idle") for b in sections[s].blocks for f in b.fields
               if f.kind == "choice" and f.choices[0][0] != ""]
    assert untyped == []  # every select of those sections starts at "—" (a page posts its first option)
    built = form_to_document(er, initial_form(er) | {"id": "x", "name": "x"})
    assert "initiative" not in built.doc and "idle" not in built.doc and "steps" not in built.doc


def test_a_step_value_the_selects_do_not_list_is_kept_when_the_form_is_posted() -> None:
    kgp = load_system("kgp")
    data = initial_form(kgp)  # fixtures/kgp.yaml 8.623: revealed: at-step "8.623"
    n = next(int(k.split(".")[1]) for k, v in data.items() if k.endswith(".ref") and v == "8.623")
    assert data[f"steps.{n}.revealed"] == 'at-step "8.623"'
    [grid] = next(s for s in card_sections(kgp, data) if s.id == "steps").blocks[0].grids
    revealed = next(f for m, row in grid.rows if m == n for f in row if f.name.endswith(".revealed"))
    assert ('at-step "8.623"', 'at-step "8.623"') in revealed.choices


def test_phd_set_up_costs_have_fields_for_the_lowest_cost_and_a_note_not_yaml() -> None:
    phd = load_system("phd")
    data = initial_form(phd)
    assert {"setup_costs.minimum", "setup_costs.note"} <= _names(phd, data)
    data |= {"name": "TEST DATA PHD set-up costs", "setup_costs.ref": "C5.32", "setup_costs.minimum": "1",
             "setup_costs.note": "TEST DATA: invented set-up modifiers.", "setup_costs.modes.0._row": "1",
             "setup_costs.modes.0.mode": "on-map", "setup_costs.modes.0.by_type.I": "1"}
    card = _round_trip(phd, data)
    assert card.setup_costs is not None
    assert (card.setup_costs.minimum, card.setup_costs.note) == (1, "TEST DATA: invented set-up modifiers.")
    shown = document_to_form(phd, form_to_document(phd, data).doc)
    assert (shown["setup_costs.minimum"], shown["setup_costs.note"]) == ("1", "TEST DATA: invented set-up modifiers.")
    assert "setup_costs.extra" not in shown  # nothing left for the YAML box


def test_rg_chart_notes_are_a_grid_letter_text_leader_table_and_its_column_by_rg_type() -> None:
    phd = load_system("phd")
    data = initial_form(phd)
    assert "rg_charts.1.notes" in {g.prefix for s in card_sections(phd, data) for b in s.blocks for g in b.grids}
    # the system's printed notes are rows of the grid (no YAML): note l names the Leader Table, its column not printed
    k = next(k for k in rows_of(data, "rg_charts.1.notes") if data[f"rg_charts.1.notes.{k}.letter"] == "l")
    assert data[f"rg_charts.1.notes.{k}.leader_table"] == "leader"
    assert not any(name.startswith("rg_charts.1.extra") for name in data)
    data |= {"name": "TEST DATA PHD notes",
             "rg_charts.1.rows.0.id": "I1", "rg_charts.1.rows.0.type": "I", "rg_charts.1.rows.0.group_type": "Rifle Pl",
             "rg_charts.1.rows.0.cost": "9", "rg_charts.1.rows.0.notes": "l",
             f"rg_charts.1.notes.{k}.text": "Leader DR (TEST DATA)", f"rg_charts.1.notes.{k}.columns_by_type": "I: us, A: armour"}
    data = apply_action(data, "add:rg_charts.1.notes")
    new = rows_of(data, "rg_charts.1.notes")[-1]
    data |= {f"rg_charts.1.notes.{new}.letter": "t", f"rg_charts.1.notes.{new}.text": "TEST DATA note",
             f"rg_charts.1.notes.{new}.extra": "{depletable: true}"}
    built = form_to_document(phd, data)
    assert built.problems == []
    us = next(c for c in built.doc["rg_charts"] if isinstance(c, dict) and c.get("side") == "us")  # type: ignore[attr-defined]
    notes = us["notes"]  # type: ignore[index]
    assert notes["l"] == {"text": "Leader DR (TEST DATA)", "leader_table": "leader",
                          "params": {"columns_by_type": {"I": "us", "A": "armour"}}}
    assert notes["t"] == {"text": "TEST DATA note", "depletable": True} and "a" in notes
    card = _round_trip(phd, data | {"supply.leader.0._label": "2-12", "supply.leader.0.german": "8-0",
                                    "supply.leader.0.us": "8-0", "supply.leader.0.armour": "8-0"})
    note = next(c for c in card.rg_charts if c.side == "us").notes["l"]
    assert (note.text, note.leader_table) == ("Leader DR (TEST DATA)", "leader")
    # a column by type not written "type: column", or a letter given twice, is refused beside its field
    bad = form_to_document(phd, data | {f"rg_charts.1.notes.{k}.columns_by_type": "I us",
                                        f"rg_charts.1.notes.{new}.letter": "l"})
    assert {name for name, _ in bad.problems} == {f"rg_charts.1.notes.{k}.columns_by_type",
                                                  f"rg_charts.1.notes.{new}.letter"}
