"""The card builder labels the calendar, Initial OB, CG Victory Conditions and RG-chart parts with the rule number the
rules catalog gives for each system (../shared/rules-catalog.md), and leaves it blank where the catalog gives none.

Golden values typed from the catalog: PL 1.7 (the CG Firefights: 1.2, 2.2, 2.42), 1.8 (CG End 1.3), 1.2 (2.3
Purchasing Reinforcements); RR 2.6 (2.5161 CPP Base Numbers, 2.517 weather); ER 3.5 (1.517); PHD 4.6 (C4.2, C5.30),
4.4 (C5.31; Initial TM OB C4.2), 4.8 (TM Objective C4.2); KGP 5.6 (8.51–.53, 8.617; 8.3), 5.1 (8.619).
"""
from __future__ import annotations

import pytest

from rules_engine.card_form import initial_form
from rules_engine.card_schema import card_sections
from rules_engine.cli import load_system


@pytest.mark.parametrize(("system_id", "expected"), [
    ("pl25", {"calendar": "1.2, 2.2, 2.42", "initial_ob": "", "victory_conditions": "1.3", "rg_charts": "2.3"}),
    ("rr", {"calendar": "2.5161, 2.517", "initial_ob": "", "victory_conditions": ""}),
    ("er", {"calendar": "1.517", "initial_ob": "", "victory_conditions": "", "rg_charts": ""}),
    ("phd", {"calendar": "C4.2, C5.30", "initial_ob": "C4.2", "victory_conditions": "C4.2", "rg_charts": "C5.31"}),
    ("kgp", {"calendar": "8.51–.53, 8.617", "initial_ob": "8.51–.53", "victory_conditions": "8.3, 8.51–.53",
             "rg_charts": "8.619"}),
])
def test_each_card_part_is_labelled_with_the_rule_number_the_catalog_gives(
        system_id: str, expected: dict[str, str]) -> None:
    system = load_system(system_id)
    sections = {s.id: s for s in card_sections(system, initial_form(system))}
    assert {part: sections[part].ref for part in expected} == expected


def test_the_fields_and_grids_of_a_part_carry_its_rule_number() -> None:
    phd = load_system("phd")
    sections = {s.id: s for s in card_sections(phd, initial_form(phd))}
    calendar = sections["calendar"].blocks[0].grids[0]
    assert calendar.ref == "C4.2, C5.30" and {f.ref for _, row in calendar.rows for f in row if f.kind != "yaml"} == {
        "C4.2, C5.30"}
    ob = {f.name: f.ref for b in sections["initial_ob"].blocks for f in b.fields}
    assert ob["initial_ob.sides.german.san"] == "C4.2" and ob["initial_ob.ref"] == "C4.2"
    assert [g.ref for b in sections["rg_charts"].blocks for g in b.grids] == ["C5.31"] * 4  # each side: its rows and its notes
    victory = sections["victory_conditions"].blocks[0]
    assert victory.grids[0].ref == "C4.2"
    assert {f.name: f.ref for f in victory.fields}["victory_conditions.text"] == "C4.2"


def test_a_rule_number_typed_for_an_rg_chart_labels_its_rows() -> None:
    pl = load_system("pl25")
    data = {**initial_form(pl), "rg_charts.0.ref": "CG Card A"}
    (chart, _) = [b for s in card_sections(pl, data) if s.id == "rg_charts" for b in s.blocks]
    assert chart.grids[0].ref == "CG Card A"
    assert {f.name: f.value for f in chart.fields}["rg_charts.0.ref"] == "CG Card A"


def test_the_map_groups_column_of_the_kgp_calendar_keeps_its_own_rule() -> None:
    kgp = load_system("kgp")
    data = {**initial_form(kgp), "calendar.0._row": "1"}
    (calendar,) = [s for s in card_sections(kgp, data) if s.id == "calendar"]
    row = calendar.blocks[0].grids[0].rows[0][1]
    refs = {f.name.split(".", 2)[2]: f.ref for f in row}
    assert refs["map_groups"] == "8.2" and refs["date"] == "8.51–.53, 8.617"
