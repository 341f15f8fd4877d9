"""The loader builds a System from a small, hand-written definition (docs/cg-format.md), and applies a CG Card."""
from __future__ import annotations

import pytest

from rules_engine.errors import DefinitionErrors, MissingValueError, UnknownNameError
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.vocabulary import Automation, Chit, DiceKind, Provenance, Visibility

# A small system written for these tests (not one of the five campaign systems).
MINI = """
format: refit-cg/1
id: mini
kind: system
name: Mini CG
source: written for the loader tests
time_unit: {id: cg-date, name: CG Date}
between_phase: {name: Refit Phase, abbrev: RePh}
sides:
  - {id: blue, name: Blue, nationality: american, matrix_role: allied}
  - {id: grey, name: Grey, nationality: german, matrix_role: axis}
currencies:
  - {code: CPP, name: Campaign Purchase Points, carry_over: true, ref: "1.1"}
  - {code: FPP, name: Fortification Purchase Points, carry_over: false, forfeit_at_step: "1.3",
     bought_with: {currency: CPP, via: "RG M1"}}
calendar:
  - {id: "1 AM", replenishment_roll: false, base_numbers: {blue: 0, grey: 0}, ec: Moist, weather: Clear}
  - id: "1 Night"
    night: true
    base_numbers: {blue: 25, grey: {value: 50, as_written: "50", interpreted: "other nights read 25", verify: true}}
    ec: Moist
    weather: Clear
    moon: "-"
steps:
  - {ref: "1.1", name: CPP Replenishment, loop_on_idle: true, secret: roll, automation: automatic,
     action: replenish-base-minus-dr, params: {currency: CPP}, tables: [cpp]}
  - {ref: "1.2", name: Purchase, secret: purchase, revealed: cg-end, automation: on-board}
  - {ref: "1.3", name: Initiative, sides: ordered, order: [grey, blue], secret: choice, revealed: at-step "1.3"}
idle: {name: Idle Date, loop: steps-marked-loop, then: next-date}
settings:
  - {id: intensity, label: Intensity column, choices: [low, mid], source: cg-card, ref: "1.0"}
  - {id: hist_drm, label: HIST DRM, type: int, per_side: true, source: cg-card}
tables:
  - id: cpp
    ref: "1.11"
    name: CPP Table
    dice: DR
    per: side
    secret: true
    columns: [{id: low, label: LOW}, {id: mid, label: MID}]
    rows:
      - {label: "<2", max: 2, edge: interpreted, cells: [16, 25]}
      - {label: "3-10", min: 3, max: 10, cells: [12, {missing: "OCR-LOST: MID value for DR 3-10"}]}
      - {min: 11, max: 11, missing: "no row for 11 in the seed"}
      - {label: {missing: "OCR-LOST: row label"}, min: 12, edge: interpreted, cells: [8, 15]}
    modifiers:
      - {reason: "+/- HIST DRM (CG Card)", value: {setting: hist_drm}}
      - {reason: "+1 if Friendly attacked previously", value: 1, when: own_attack_previous}
      - {reason: "-1 per each 10 CVP suffered", value: -1, per: {fact: cvp_suffered_previous, every: 10}}
      - {reason: "-1 if Grey", value: -1, when: "side_is:grey", columns: [mid]}
      - {reason: "+1 per HS-equivalent > one HS", value: 1, ask: count}
      - {reason: "+x Leader DRM", ask: value, range: [-3, 3], na_for: [low]}
    original: [{roll: 2, effect: "Heat of Battle"}]
    notes: {"*": "a note"}
  - id: leaders
    ref: "1.12"
    name: Leader Table
    dice: DR
    columns: [{id: result, label: Leaders Received}]
    rows:
      - {label: "≤ 1", max: 1, cells: [["10-3", "9-1", "8-1"]]}
      - {label: "2", min: 2, max: 2, cells: [["8-0", "7-0"]]}
      - {label: "≥ 3", min: 3, cells: ["-"]}
rg_charts:
  - side: grey
    ref: "1.2"
    name: Grey RG Chart
    columns: {cost: CPP Cost, date_max: CG Date Max, cg_max: CG Max}
    rows:
      - {id: I1, type: I, group_type: Inf Coy, company: true, full: [{count: 10, unit: 5-4-8}],
         depleted: [{count: 7, unit: 5-4-8}], notes: [d, L], cost: 28, date_max: 2, cg_max: 4,
         available_after: "1 AM"}
      - {id: M1, type: M, group_type: Fortifications, gives: {FPP: 15},
         cost: {value: 1, as_written: "1", interpreted: "column position", verify: true}, date_max: 3, cg_max: 16}
    notes:
      d: {text: Subject to depletion., depletable: true}
      L: {text: Company leader table., leader_table: leaders}
    combined_max: [{ids: [I1, M1], max: 2, per: cg, ref: "note f"}]
setup_costs:
  ref: "1.4"
  minimum: 1
  modes:
    - {mode: on-map, by_type: {I: 1, G: 0}}
    - {mode: reserve, by_type: {I: -1, G: {missing: "OCR-LOST"}}}
fortifications:
  ref: "1.5"
  currency: FPP
  forfeit_unspent: true
  limits: [{types: [A-P Mine Factor], max_points: 30, per: scenario}]
  rows:
    - {type: Foxhole, cost: {by_capacity: {3: 3, 2: 2, 1: 1}}}
    - {type: A-P Mine Factor, cost: {per_factor: 1.5}}
    - {type: Pillbox, cost: {formula: "(ca_drm + nca_drm) * capacity"}, initial_only: true}
    - {type: Wire, cost: {missing: "OCR-LOST"}, sides: [grey]}
initiative:
  ref: "1.3"
  mode: chit
  choices: [attack, idle]
  matrix:
    attack/attack: {result: dual-attack, label: Dual Attack}
    attack/idle: {result: axis-assault, label: Grey Assault, setup_first: blue, moves_first: grey}
    idle/attack: {result: allied-assault, label: Blue Assault, setup_first: grey, moves_first: blue}
    idle/idle: {result: idle, label: Idle Date}
  chit_limits: {blue: 2, grey: 6, initial_counts: false, ref: "1.31"}
  dual_attack:
    setup: {ref: "1.3", dice: dr, roller: blue, rows: [{label: "≤ 3", max: 3, result: blue}, {min: 4, result: grey}]}
    move: {ref: "1.32", dice: dr, roller: blue,
           rows: [{max: 4, result: grey}, {label: "> 4", min: 5, result: blue, edge: interpreted, verify: true}]}
limits:
  - {id: platoons, text: "Max 3 infantry platoons", ref: "2.3", per: purchase, max: 3}
  - {id: patrols, text: "Patrols per RePh", by_setting: {setting: intensity, values: {low: 1, mid: 2}}}
forms:
  - id: cg-roster
    name: CG Roster
    ref: "1.8"
    per: date
    columns:
      - {id: start, label: Start, visibility: owner}
      - {id: lvp, label: LVP, visibility: both}
      - {id: spent, label: Spent, visibility: cg-end}
special_rules:
  - {id: cg7, ref: CG7, name: No Bore Sighting, text: "Bore Sighting is NA.", enforced: false}
missing_parts:
  - {part: rg_charts, note: "The Blue RG chart is not in the seed."}
"""


def mini() -> System:
    return parse_system(MINI, "mini.yaml")


def test_a_valid_definition_builds_every_part_of_the_system() -> None:
    system = mini()
    assert system.id == "mini"
    assert [side.id for side in system.sides] == ["blue", "grey"]
    assert system.side("grey").matrix_role == "axis"
    assert [c.code for c in system.currencies] == ["CPP", "FPP"]
    assert system.currencies[1].bought_with is not None and system.currencies[1].bought_with.currency == "CPP"
    assert [e.id for e in system.calendar] == ["1 AM", "1 Night"]
    assert system.calendar_entry("1 Night").night is True
    assert system.calendar_entry("1 AM").replenishment_roll is False
    assert system.step("1.1").automation is Automation.AUTOMATIC
    assert system.step("1.1").tables == ("cpp",)
    assert system.step("1.3").revealed == "at-step" and system.step("1.3").revealed_at == "1.3"
    assert system.idle is not None and system.idle.loop == "steps-marked-loop"
    assert list(system.tables) == ["cpp", "leaders"]
    assert system.table("cpp").dice is DiceKind.DR
    chart = system.rg_chart("grey")
    assert chart.row("I1").cost.value == 28 and chart.row("I1").company is True
    assert chart.notes["L"].leader_table == "leaders"
    assert system.fortifications is not None and system.fortifications.rows[1].cost.kind == "per_factor"
    assert system.form("cg-roster").columns[0].visibility is Visibility.SIDE
    assert system.form("cg-roster").columns[1].visibility is Visibility.PUBLIC
    assert system.form("cg-roster").columns[2].visibility is Visibility.CG_END
    assert system.setting("hist_drm").per_side is True
    assert system.limits[1].by_choice["mid"].value == 2
    assert system.missing_parts[0].part == "rg_charts"


def test_interpreted_values_keep_the_text_as_written_and_the_verify_flag() -> None:
    base = mini().calendar_entry("1 Night").base_numbers["grey"]
    assert base.provenance is Provenance.INTERPRETED
    assert base.value == 50 and base.as_written == "50" and base.verify is True
    assert base.caution is not None and "verify against your printed chart" in base.caution
    m1_cost = mini().rg_chart("grey").row("M1").cost
    assert m1_cost.provenance is Provenance.INTERPRETED and m1_cost.verify is True


def test_missing_values_stay_missing() -> None:
    table = mini().table("cpp")
    assert table.rows[1].cells[1].provenance is Provenance.MISSING
    assert table.rows[1].cells[1].value is None
    assert table.rows[2].missing == "no row for 11 in the seed"
    assert table.rows[3].label_missing == "OCR-LOST: row label"
    wire = mini().fortifications.rows[3].cost  # type: ignore[union-attr]
    assert wire.amount is not None and wire.amount.missing


def test_the_initiative_matrix_is_keyed_by_axis_choice_then_allied_choice() -> None:
    initiative = mini().initiative
    assert initiative is not None
    cell = initiative.matrix[(Chit.ATTACK, Chit.IDLE)]
    assert cell.label == "Grey Assault" and cell.setup_first == "blue" and cell.moves_first == "grey"
    assert initiative.matrix[(Chit.IDLE, Chit.IDLE)].result == "idle"
    assert initiative.chit_limits == {"blue": 2, "grey": 6}
    assert initiative.chit_limits_ref == "1.31"
    assert initiative.dual_attack_setup is not None and initiative.dual_attack_setup.winner(3).result == "blue"
    assert initiative.dual_attack_move is not None and initiative.dual_attack_move.winner(5).result == "blue"
    assert initiative.dual_attack_move.rows[1].verify is True


def test_unknown_names_are_refused_with_the_allowed_names() -> None:
    system = mini()
    with pytest.raises(UnknownNameError, match="allowed: cpp, leaders"):
        system.table("cp")
    with pytest.raises(UnknownNameError, match="allowed: 1.1, 1.2, 1.3"):
        system.step("9.9")
    with pytest.raises(UnknownNameError, match="allowed: blue, grey"):
        system.side("red")
    with pytest.raises(UnknownNameError, match="allowed: 1 AM, 1 Night"):
        system.calendar_entry("2 AM")


CARD = """
format: refit-cg/1
kind: cg-card
id: example-card
extends: mini
example: true
name: "Example CG Card (not a published campaign)"
settings_values: {intensity: mid, hist_drm: {blue: 0, grey: 1}}
calendar:
  - {id: "5 AM", base_numbers: {blue: 10, grey: 12}}
supply:
  - {table: cpp, row: 4, column: MID, value: 33, note: "from my printed chart"}
  - {table: cpp, row: 11, column: low, value: 9}
  - {table: cpp, row: 12, label: "≥12"}
rg_charts:
  - side: blue
    ref: "C1"
    name: Blue RG Chart
    rows: [{id: I1, type: I, group_type: Rifle Coy, cost: 20}]
"""


def test_a_cg_card_replaces_parts_sets_settings_and_fills_missing_cells() -> None:
    system = parse_card(CARD, "card.yaml", mini())
    assert system.id == "mini"
    assert system.card is not None and system.card.id == "example-card" and system.card.example is True
    assert [e.id for e in system.calendar] == ["5 AM"]
    assert system.settings_values["intensity"] == "mid"
    assert system.settings_values["hist_drm"] == {"blue": 0, "grey": 1}
    supplied = system.table("cpp").cell(4, "mid")
    assert supplied.value == 33 and supplied.supplied is True
    assert supplied.note is not None and "from my printed chart" in supplied.note
    assert system.table("cpp").cell(11, "low").value == 9
    with pytest.raises(MissingValueError, match="MID"):
        system.table("cpp").cell(11, "mid")
    assert system.table("cpp").cell(12, "low").value == 8
    assert system.rg_chart("blue").row("I1").cost.value == 20
    assert system.missing_parts == ()


def test_applying_a_card_leaves_the_base_system_untouched() -> None:
    base = mini()
    parse_card(CARD, "card.yaml", base)
    with pytest.raises(MissingValueError):
        base.table("cpp").cell(4, "mid")
    assert [e.id for e in base.calendar] == ["1 AM", "1 Night"]


def test_a_card_for_another_system_is_refused() -> None:
    with pytest.raises(DefinitionErrors, match="extends 'mini', but it was applied to 'other'"):
        parse_card(CARD, "card.yaml", parse_system(MINI.replace("id: mini", "id: other"), "other.yaml"))


def test_the_example_cg_card_in_the_format_guide_is_valid_for_pl25() -> None:
    from pathlib import Path

    repo = Path(__file__).resolve().parents[3]
    base_file = repo / "fixtures" / "pl25.yaml"
    if not base_file.exists():
        pytest.skip("fixtures/pl25.yaml not written yet")
    guide = (repo / "docs" / "cg-format.md").read_text(encoding="utf-8")
    section = guide.split("### A complete example", 1)[1]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "EXAMPLE ONLY" in example
    system = parse_card(example, "cg-format.md example", parse_system(base_file.read_text(encoding="utf-8"), "pl25.yaml"))
    assert system.card is not None and system.card.example is True
    assert [entry.id for entry in system.calendar] == ["FF1", "FF2", "FF3"]
    assert system.settings_values["intensity"] == "mid"
