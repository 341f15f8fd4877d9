"""A broken definition is refused with every problem listed: file, path in the document, what is wrong, what is allowed."""
from __future__ import annotations

import pytest

from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.loader import parse_card, parse_system
from tests.rules_engine.loader.test_loader import MINI, mini

HEAD = """
format: refit-cg/1
id: tiny
kind: system
name: Tiny
source: written for the error tests
sides:
  - {id: blue, name: Blue, nationality: american, matrix_role: allied}
  - {id: grey, name: Grey, nationality: german, matrix_role: axis}
"""

TABLE = """
tables:
  - id: t
    ref: "1.1"
    name: T
    dice: dr
    columns: [{id: a, label: A}, {id: b, label: B}]
    rows:
      - {max: 2, cells: [1, 2]}
      - {min: 3, cells: [3, 4]}
"""


def errors_of(text: str, filename: str = "bad.yaml") -> list[DefinitionError]:
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(text, filename)
    return caught.value.errors


def only(errors: list[DefinitionError], path: str) -> DefinitionError:
    found = [e for e in errors if e.path == path]
    assert len(found) == 1, f"expected one error at {path}, got {[str(e) for e in errors]}"
    return found[0]


def test_the_head_alone_is_a_valid_system() -> None:
    assert parse_system(HEAD, "ok.yaml").id == "tiny"


def test_an_unknown_key_is_named_with_the_allowed_keys() -> None:
    errors = errors_of(HEAD + TABLE.replace("    dice: dr", "    dice: dr\n    colour: red"))
    error = only(errors, "tables[t].colour")
    assert error.file == "bad.yaml"
    assert error.problem == "unknown key 'colour'"
    assert error.allowed is not None and "columns" in error.allowed and "modifiers" in error.allowed
    assert str(error).startswith("bad.yaml: tables[t].colour: unknown key 'colour' (allowed: id, ref, name, dice,")


def test_a_misspelt_top_level_part_is_refused() -> None:
    error = only(errors_of(HEAD + "tabels: []\n"), "tabels")
    assert error.problem == "unknown key 'tabels'"
    assert error.allowed is not None and "tables" in error.allowed


def test_every_problem_is_reported_in_one_pass() -> None:
    text = HEAD + TABLE.replace("dice: dr", "dice: 3d6").replace("[3, 4]", "[3]") + "steps: [{ref: '1', name: X, tables: [nope]}]\n"
    errors = errors_of(text)
    paths = {e.path for e in errors}
    assert {"tables[t].dice", "tables[t].rows[1].cells", "steps[0].tables[0]"} <= paths
    assert only(errors, "tables[t].dice").allowed == "DR, dr"


def test_wrong_types_say_what_was_found() -> None:
    errors = errors_of(HEAD + TABLE.replace("dice: dr", "dice: dr\n    secret: 1"))
    error = only(errors, "tables[t].secret")
    assert error.problem == "expected true or false, got the number 1"


def test_a_bad_id_is_refused_with_the_id_rules() -> None:
    error = only(errors_of(HEAD + TABLE.replace("id: t\n", "id: CP Table\n")), "tables[CP Table].id")
    assert error.problem == "bad table id 'CP Table'"
    assert error.allowed is not None and "lower-case letters, digits and hyphens" in error.allowed


def test_duplicate_table_ids_are_refused() -> None:
    twice = TABLE + TABLE.replace("tables:\n", "")
    error = only(errors_of(HEAD + twice), "tables[t].id")
    assert error.problem == "duplicate table id 't' (first used at tables[t].id)"


def test_duplicate_yaml_keys_are_refused_rather_than_silently_overwritten() -> None:
    errors = errors_of(HEAD + "name: Again\n")
    assert errors[0].problem == "key 'name' appears twice in the same mapping"
    assert errors[0].path.startswith("line ")


def test_a_gap_between_rows_must_be_declared_missing() -> None:
    text = HEAD + TABLE.replace("{min: 3, cells: [3, 4]}", "{min: 3, max: 3, cells: [3, 4]}\n      - {min: 5, cells: [5, 6]}")
    error = only(errors_of(text), "tables[t].rows[2]")
    assert error.problem == "rows are not contiguous: finals 4 fall between rows[1] and rows[2]"
    assert error.allowed == 'declare the gap as a row {min: 4, max: 4, missing: "…"}'


def test_overlapping_rows_are_refused() -> None:
    error = only(errors_of(HEAD + TABLE.replace("{min: 3,", "{min: 2,")), "tables[t].rows[1]")
    assert error.problem == "overlaps rows[0] (finals 2-2 are in both)"


def test_only_the_edge_rows_may_be_open_ended() -> None:
    text = HEAD + TABLE.replace("{min: 3, cells: [3, 4]}", "{min: 3, cells: [3, 4]}\n      - {min: 9, cells: [5, 6]}")
    error = only(errors_of(text), "tables[t].rows[1]")
    assert error.problem == "only the last row may leave out `max:` (open-ended)"


def test_the_cell_count_must_match_the_column_count() -> None:
    error = only(errors_of(HEAD + TABLE.replace("[1, 2]", "[1, 2, 7]")), "tables[t].rows[0].cells")
    assert error.problem == "3 cells for 2 column(s)"
    assert error.allowed == "exactly 2"


def test_a_yaml_boolean_where_text_is_expected_is_refused_with_a_hint_to_quote_it() -> None:
    error = only(errors_of(HEAD + TABLE.replace("[1, 2]", "[no, 2]")), "tables[t].rows[0].cells[0]")
    assert "the YAML boolean false" in error.problem
    assert 'quote the text, e.g. "no"' in error.problem


def test_a_yaml_boolean_as_a_label_is_refused() -> None:
    error = only(errors_of(HEAD + TABLE.replace("{max: 2,", "{label: on, max: 2,")), "tables[t].rows[0].label")
    assert error.problem.startswith("expected text, got the YAML boolean true")


def test_an_interpreted_value_needs_the_text_as_written_and_why() -> None:
    text = HEAD + TABLE.replace("[1, 2]", "[{value: 12, interpreted: superscript}, 2]")
    error = only(errors_of(text), "tables[t].rows[0].cells[0]")
    assert error.problem == "an interpreted value needs `as_written:` (the text exactly as printed)"


def test_an_unknown_fact_in_a_modifier_lists_the_known_facts() -> None:
    text = HEAD + TABLE + "    modifiers: [{reason: '+1 if tired', value: 1, when: tired}]\n"
    error = only(errors_of(text), "tables[t].modifiers[0].when")
    assert error.problem == "unknown fact 'tired'"
    assert error.allowed is not None and "own_attack_previous" in error.allowed and "side_is:<side id>" in error.allowed


def test_a_side_fact_must_name_a_side_of_the_system() -> None:
    text = HEAD + TABLE + "    modifiers: [{reason: '-1 if Red', value: -1, when: 'side_is:red'}]\n"
    error = only(errors_of(text), "tables[t].modifiers[0].when")
    assert error.problem == "unknown side 'red' in fact 'side_is:red'"
    assert error.allowed == "blue, grey"


def test_a_modifier_from_an_unknown_setting_is_refused() -> None:
    text = HEAD + TABLE + "    modifiers: [{reason: '+/- HIST', value: {setting: hist}}]\n"
    error = only(errors_of(text), "tables[t].modifiers[0].value.setting")
    assert error.problem == "unknown setting 'hist'"
    assert error.allowed == "none defined"


def test_a_modifier_limited_to_an_unknown_column_is_refused() -> None:
    text = HEAD + TABLE + "    modifiers: [{reason: '+1 Return only', value: 1, ask: tick, columns: [return]}]\n"
    error = only(errors_of(text), "tables[t].modifiers[0].columns[0]")
    assert error.problem == "unknown column 'return'"
    assert error.allowed == "a, b"


def test_a_step_naming_an_unknown_table_is_refused() -> None:
    error = only(errors_of(HEAD + TABLE + "steps: [{ref: '1.1', name: Roll, tables: [t, u]}]\n"), "steps[0].tables[1]")
    assert error.problem == "unknown table 'u'"
    assert error.allowed == "t"


def test_a_currency_forfeited_at_an_unknown_step_is_refused() -> None:
    text = HEAD + "currencies: [{code: FPP, name: Fort Points, forfeit_at_step: '2.520'}]\n"
    error = only(errors_of(text), "currencies[FPP].forfeit_at_step")
    assert error.problem == "unknown step '2.520'"


def test_an_rg_available_after_an_unknown_date_is_refused() -> None:
    text = HEAD + """
calendar: [{id: "19 AM"}, {id: "19 PM"}]
rg_charts:
  - side: grey
    ref: "2.518"
    name: Grey RG
    rows: [{id: M4, type: M, group_type: Entry, cost: 2, available_after: "19PM"}]
"""
    error = only(errors_of(text), "rg_charts[grey].rows[M4].available_after")
    assert error.problem == "unknown calendar entry '19PM'"
    assert error.allowed == "19 AM, 19 PM"


def test_an_rg_note_letter_not_in_the_chart_notes_is_refused() -> None:
    text = HEAD + """
rg_charts:
  - side: grey
    ref: "2.518"
    name: Grey RG
    rows: [{id: I1, type: I, group_type: Coy, cost: 28, notes: [d, z]}]
    notes: {d: {text: Subject to depletion., depletable: true}}
"""
    error = only(errors_of(text), "rg_charts[grey].rows[I1].notes[1]")
    assert error.problem == "unknown RG note 'z'"
    assert error.allowed == "d"


def test_an_initiative_matrix_must_cover_the_four_pairs() -> None:
    text = HEAD + """
initiative:
  ref: "2.522"
  mode: chit
  matrix:
    attack/attack: {result: dual-attack, label: Dual Attack}
    attack/idle: {result: axis-assault, label: Grey Assault}
    idle/idle: {result: idle, label: Idle Date}
"""
    error = only(errors_of(text), "initiative.matrix")
    assert error.problem == "the matrix does not cover idle/attack"
    assert error.allowed == "all four: attack/attack, attack/idle, idle/attack, idle/idle"


def test_chit_limits_for_an_unknown_side_are_refused() -> None:
    text = MINI.replace("chit_limits: {blue: 2,", "chit_limits: {canadian: 2,")
    error = only(errors_of(text), "initiative.chit_limits.canadian")
    assert error.problem == "chit limit for unknown side 'canadian'"
    assert error.allowed == "blue, grey, ref, initial_counts"


def test_a_form_column_with_a_bad_visibility_is_refused() -> None:
    text = HEAD + "forms: [{id: roster, name: Roster, per: date, columns: [{id: cpp, label: CPP, visibility: secret}]}]\n"
    error = only(errors_of(text), "forms[roster].columns[0].visibility")
    assert error.problem == "unknown value 'secret'"
    assert error.allowed == "owner, both, cg-end"


def test_a_system_needs_exactly_two_sides_with_different_matrix_roles() -> None:
    text = HEAD.replace("matrix_role: axis", "matrix_role: allied")
    error = only(errors_of(text), "sides[1].matrix_role")
    assert error.problem == "the two sides need different matrix roles"


def test_a_file_that_is_not_yaml_is_refused_with_the_file_name() -> None:
    errors = errors_of("format: [unclosed\n", "broken.yaml")
    assert errors[0].file == "broken.yaml" and errors[0].problem.startswith("not valid YAML")


def test_a_card_may_only_supply_a_cell_that_is_missing() -> None:
    card = """
format: refit-cg/1
kind: cg-card
id: my-card
extends: mini
name: My card
supply: [{table: cpp, row: 3, column: low, value: 99}]
"""
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card, "my-card.yaml", mini())
    error = only(caught.value.errors, "supply[0].value")
    assert error.file == "my-card.yaml"
    assert error.problem.startswith("cpp row 3-10 column low is not missing (12)")
    assert error.allowed is not None and "row 3-10 column mid" in error.allowed and "row 11 column low" in error.allowed


def test_a_card_setting_value_outside_the_choices_is_refused() -> None:
    card = """
format: refit-cg/1
kind: cg-card
id: my-card
extends: mini
name: My card
settings_values: {intensity: extreme, hist_drm: {blue: 0}}
"""
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card, "my-card.yaml", mini())
    errors = caught.value.errors
    assert only(errors, "settings_values.intensity").allowed == "low, mid"
    assert only(errors, "settings_values.hist_drm").problem == "no value for side(s) grey"


def test_a_limit_counting_an_unknown_rg_type_is_refused_with_the_rg_type_letters() -> None:
    text = HEAD + 'limits:\n  - {id: infantry-platoons, text: "Max 3 infantry platoons", max: 3, rg_types: [I, X]}\n'
    error = only(errors_of(text), "limits[infantry-platoons].rg_types[1]")
    assert error.problem == "unknown RG type 'X'"
    assert error.allowed == "I, V, G, HW, O, M, F, A"
