"""Golden values of the RR Refit Phase (seed 001), typed by hand from the seed text — never from fixtures/rr.yaml."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_engine.errors import MissingValueError
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.tables import resolve
from rules_engine.vocabulary import Automation, Chit, DiceKind, Provenance, Visibility

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rr() -> System:
    return parse_system((ROOT / "fixtures/rr.yaml").read_text(), "fixtures/rr.yaml")


@dataclass(frozen=True)
class _Roll:
    total: int


# ---------------------------------------------------------------------------------------------------------------------
# T-RR1 Escape Table (2.506)
# ---------------------------------------------------------------------------------------------------------------------

ESCAPE = [
    (8, "infantry", "Escapes"),
    (8, "vehicle", "Escapes"),
    (9, "infantry", "Escapes; Replaced"),
    (9, "vehicle", "Abandoned; crew (if any) Escapes"),
    (10, "infantry", "Escapes; Casualty Reduced"),
    (10, "vehicle", "Eliminated; crew (if any) Escapes"),
    (11, "infantry", "Escapes; Replaced, then Casualty Reduced"),
    (11, "vehicle", "Abandoned; crew (if any) is Eliminated"),
    (12, "infantry", "All units and Equipment Eliminated"),
    (12, "vehicle", "Eliminated; crew (if any) is Eliminated"),
]


@pytest.mark.parametrize(("final", "column", "text"), ESCAPE)
def test_escape_table_cells_read_as_printed(rr: System, final: int, column: str, text: str) -> None:
    assert rr.table("escape").cell(final, column).text == text


def test_escape_table_is_a_dr_with_infantry_and_mobile_vehicle_columns(rr: System) -> None:
    table = rr.table("escape")
    assert table.dice is DiceKind.DR
    assert [c.id for c in table.columns] == ["infantry", "vehicle"]
    assert table.column("Mobile Vehicle").id == "vehicle"


def test_escape_table_reversed_edge_glyphs_are_kept_and_read_from_contiguity(rr: System) -> None:
    rows = rr.table("escape").rows
    assert rows[0].label == "≥ 8" and rows[0].max == 8 and rows[0].min is None
    assert rows[-1].label == "≤ 12" and rows[-1].min == 12 and rows[-1].max is None
    assert rows[0].edge_interpreted and rows[0].verify
    assert rows[-1].edge_interpreted and rows[-1].verify


def test_escape_finals_beyond_the_table_take_the_edge_rows(rr: System) -> None:
    table = rr.table("escape")
    assert table.cell(-1, "infantry").text == "Escapes"
    assert table.cell(2, "vehicle").text == "Escapes"
    assert table.cell(17, "infantry").text == "All units and Equipment Eliminated"


def test_escape_cells_keep_their_footnote_marks(rr: System) -> None:
    table = rr.table("escape")
    assert table.cell(8, "infantry").note == "note 1"
    assert table.cell(9, "vehicle").note == "notes 4, 5"
    assert table.cell(10, "vehicle").note == "note 6"
    assert table.notes["2"] == "A crew, or unit that would become Disrupted, is Eliminated instead."
    assert table.notes["*"] == "NA to vehicle Escape attempt."


def test_escape_original_2_gives_heat_of_battle_to_infantry_only(rr: System) -> None:
    table = rr.table("escape")
    [effect] = table.original
    assert effect.roll == 2 and effect.columns == ("infantry",)
    assert "Heat of Battle" in effect.effect
    assert resolve(table, _Roll(2), "infantry", facts={"night": False}).original_effects
    assert resolve(table, _Roll(2), "vehicle", facts={"night": False}).original_effects == ()


def test_escape_drm_list_is_complete_with_its_kinds(rr: System) -> None:
    mods = rr.table("escape").modifiers
    assert [m.reason for m in mods][:4] == [
        "-1 if lone, unwounded SMC",
        "-1 if CT AFV",
        "-1 if current CG Date is Night*",
        "-2 if adjacent to (-1 if two hexes away from) a non-ignorable Friendly Setup Area",
    ]
    assert len(mods) == 13
    values = [(m.value, m.ask, m.when) for m in mods]
    assert values == [
        (-1, "tick", None),
        (-1, "tick", None),
        (-1, None, "night"),
        (None, "value", None),
        (None, "value", None),
        (1, "tick", None),
        (1, "count", None),
        (1, "count", None),
        (1, "tick", None),
        (1, "tick", None),
        (1, "tick", None),
        (2, "tick", None),
        (2, "tick", None),
    ]
    starred = [m.reason for m in mods if m.na_for == ("vehicle",)]
    assert starred == [
        "-1 if current CG Date is Night*",
        "+1 per HS-equivalent > one HS using the same Escape DR*",
        "+1 per PP > IPC being carried (unit with most excess PP determines this DRM for a stack; "
        "a stacked Leader may combine to increase a MMC's EPC)*",
        "+2 if Encircled*",
    ]


def test_night_escape_drm_applies_to_infantry_but_not_to_a_vehicle(rr: System) -> None:
    table = rr.table("escape")
    infantry = resolve(table, _Roll(10), "infantry", facts={"night": True})
    vehicle = resolve(table, _Roll(10), "vehicle", facts={"night": True})
    assert infantry.final == 9 and infantry.cell.text == "Escapes; Replaced"
    assert vehicle.final == 10 and vehicle.cell.text == "Eliminated; crew (if any) Escapes"


# ---------------------------------------------------------------------------------------------------------------------
# 2.5061 Escape equipment dr: as written "> 4" eliminated, "< 3" left; dr 3 and 4 are undefined
# ---------------------------------------------------------------------------------------------------------------------


def test_escape_equipment_dr_as_written(rr: System) -> None:
    table = rr.table("escape-equipment")
    assert table.dice is DiceKind.dr
    for final in (1, 2):
        assert table.cell(final).text == "the Equipment is left in the Eliminated unit's last occupied Location"
    for final in (5, 6):
        assert table.cell(final).text == "Eliminated"


@pytest.mark.parametrize("final", [3, 4])
def test_escape_equipment_dr_3_and_4_are_refused_as_undefined(rr: System, final: int) -> None:
    with pytest.raises(MissingValueError, match="2.5061"):
        rr.table("escape-equipment").cell(final)


# ---------------------------------------------------------------------------------------------------------------------
# T-RR2 … T-RR8
# ---------------------------------------------------------------------------------------------------------------------

SMALL_TABLES = [
    ("wounded-leader", 1, "Retained unwounded"),
    ("wounded-leader", 2, "Retained wounded"),
    ("wounded-leader", 4, "Retained wounded"),
    ("wounded-leader", 5, "Eliminated (evacuated)"),
    ("wounded-leader", 7, "Eliminated (evacuated)"),
    ("wounded-leader", 0, "Retained unwounded"),
    ("shift", 8, "Shifted safely"),
    ("shift", 9, "No Shift"),
    ("shift", 10, "No Shift"),
    ("shift", 11, "Shifted with Casualties"),
    ("shift", 12, "All units, Inherent Crews and Equipment Eliminated"),
    ("shift", 1, "Shifted safely"),
    ("shift", 14, "All units, Inherent Crews and Equipment Eliminated"),
    ("immobilization-repair", 2, "Becomes Mobile"),
    ("immobilization-repair", 3, "No change"),
    ("immobilization-repair", 9, "No change"),
    ("stun-recovery", 2, "Recover, remove Stun"),
    ("stun-recovery", 3, "Retain Stun"),
    ("stun-recovery", 5, "Retain Stun"),
    ("stun-recovery", 6, "Eliminated"),
    ("stun-recovery", 8, "Eliminated"),
    ("weapon-repair", 1, "Repaired"),
    ("weapon-repair", -4, "Repaired"),
    ("weapon-repair", 2, "Eliminated"),
    ("captured-equipment", 5, "Eliminated (Disabled if vehicular)"),
    ("captured-equipment", 6, "Eliminated (Disabled if vehicular)"),
    ("removal", 3, "Eliminated"),
    ("removal", 0, "Eliminated"),
    ("removal", 4, "No Effect"),
    ("removal", 8, "No Effect"),
    ("rg-strength", 8, "Full"),
    ("rg-strength", 1, "Full"),
    ("rg-strength", 9, "Depleted"),
    ("rg-strength", 12, "Depleted"),
]


@pytest.mark.parametrize(("table_id", "final", "text"), SMALL_TABLES)
def test_small_rr_tables_read_as_printed(rr: System, table_id: str, final: int, text: str) -> None:
    assert rr.table(table_id).cell(final).text == text


def test_small_rr_tables_have_the_printed_dice_and_labels(rr: System) -> None:
    dice = {t: rr.table(t).dice for t in ("wounded-leader", "shift", "immobilization-repair", "stun-recovery",
                                           "weapon-repair", "captured-equipment", "removal", "rg-strength")}
    assert dice == {
        "wounded-leader": DiceKind.dr, "shift": DiceKind.DR, "immobilization-repair": DiceKind.dr,
        "stun-recovery": DiceKind.dr, "weapon-repair": DiceKind.dr, "captured-equipment": DiceKind.dr,
        "removal": DiceKind.dr, "rg-strength": DiceKind.DR,
    }
    assert [r.label for r in rr.table("shift").rows] == ["≤ 8", "9-10", "11", "≥ 12"]
    assert [r.label for r in rr.table("wounded-leader").rows] == ["≤ 1", "2-4", "≥ 5"]
    assert [r.label for r in rr.table("stun-recovery").rows] == ["≤ 2", "3-5", "≥ 6"]
    assert rr.table("weapon-repair").columns[0].label == "Effect"


def test_shift_and_rg_strength_rolls_are_secret_but_escape_is_not(rr: System) -> None:
    assert rr.table("shift").secret and rr.table("rg-strength").secret
    assert rr.table("company-leader").secret and rr.table("platoon-leader").secret
    assert not rr.table("escape").secret


def test_small_table_drms_as_printed(rr: System) -> None:
    def drms(table_id: str) -> list[tuple[str, int | None]]:
        return [(m.reason, m.value if isinstance(m.value, int) else None) for m in rr.table(table_id).modifiers]

    assert drms("wounded-leader") == [("+1 if Isolated", 1), ("-1 if Heroic", -1)]
    assert drms("immobilization-repair") == [
        ("+1 if Isolated", 1), ("+1 if only Non-Qualified Use (A21.13) possible", 1), ("+1 if in a Front Line hex", 1)
    ]
    assert drms("stun-recovery") == [("+1 if Isolated", 1), ("+1 if Captured", 1)]
    assert drms("weapon-repair") == [
        ("-1 if vehicular-mounted", -1), ("-1 if FT MA", -1), ("-x (Weapon Repair Number)", None),
        ("+1 if only Non-Qualified Use (A21.13) possible", 1), ("+1 if Isolated", 1),
    ]
    assert [m.value for m in rr.table("shift").modifiers] == [-1, 1]
    assert rr.table("shift").modifiers[1].ask == "count"
    assert [m.value for m in rr.table("removal").modifiers] == [2, 1, -1]
    assert rr.table("removal").modifiers[2].ask == "count"


def test_removal_original_6_casualty_reduces_an_elite_mmc(rr: System) -> None:
    table = rr.table("removal")
    result = resolve(table, _Roll(6))
    assert result.cell.text == "No Effect"
    assert len(result.original_effects) == 1 and "Casualty Reduction of a non-Isolated Elite MMC" in result.original_effects[0]


def test_rg_strength_gives_the_canadian_minus_one(rr: System) -> None:
    table = rr.table("rg-strength")
    [mod] = table.modifiers
    assert mod.reason == "-1 DRM if Canadian" and mod.value == -1 and mod.when == "side_is:canadian"
    assert resolve(table, _Roll(9), facts={"side_is:canadian": True}).cell.text == "Full"
    assert resolve(table, _Roll(9), facts={"side_is:canadian": False}).cell.text == "Depleted"


def test_captured_equipment_edge_is_flagged_for_verification(rr: System) -> None:
    rows = rr.table("captured-equipment").rows
    assert rows[-1].label == "> 4" and rows[-1].min == 5 and rows[-1].verify


# ---------------------------------------------------------------------------------------------------------------------
# T-RR11 / T-RR12 leader tables (2.5193), T-RR10 SW, T-RR13 recon
# ---------------------------------------------------------------------------------------------------------------------

COMPANY = [
    (1, "10-3, 9-1, 8-1"),
    (2, "10-2, 8-1, 8-0"),
    (3, "9-2, 9-1, 8-0"),
    (4, "9-2, 8-1, 7-0"),
    (5, "9-1, 8-1, 7-0"),
    (6, "8-1, 8-0, 7-0"),
    (7, "9-1, 8-0"),
    (8, "8-1, 8-0"),
    (9, "8-1, 7-0"),
    (10, "8-0, 7-0"),
    (11, "8-0, 6+1"),
    (13, "7-0, 6+1"),
    (-1, "10-3, 9-1, 8-1"),
    (15, "7-0, 6+1"),
]


@pytest.mark.parametrize(("final", "text"), COMPANY)
def test_company_leader_table_reads_as_printed(rr: System, final: int, text: str) -> None:
    assert rr.table("company-leader").cell(final).text == text


def test_company_leader_cells_are_lists_of_ratings(rr: System) -> None:
    assert rr.table("company-leader").cell(1).value == ("10-3", "9-1", "8-1")
    assert rr.table("company-leader").cell(11).value == ("8-0", "6+1")


def test_company_leader_row_12_is_missing_and_named(rr: System) -> None:
    with pytest.raises(MissingValueError) as caught:
        rr.table("company-leader").cell(12)
    message = str(caught.value)
    assert "company-leader" in message and "12" in message and "≥ 13" in message


def test_a_cg_card_can_supply_the_missing_row_12_and_nothing_else_changes(rr: System) -> None:
    card = (
        "format: refit-cg/1\nkind: cg-card\nid: my-rr-chart\nextends: rr\nexample: true\n"
        "name: My printed RR chart\n"
        "supply:\n  - {table: company-leader, row: 12, value: [\"7-0\", \"6+1\"], note: from my printed chart}\n"
    )
    filled = parse_card(card, "card.yaml", rr)
    cell = filled.table("company-leader").cell(12)
    assert cell.text == "7-0, 6+1" and cell.supplied
    assert filled.table("company-leader").cell(11).text == "8-0, 6+1"
    with pytest.raises(MissingValueError):
        rr.table("company-leader").cell(12)


def test_company_leader_drms_depleted_and_headquarters(rr: System) -> None:
    table = rr.table("company-leader")
    assert [(m.reason, m.value, m.when) for m in table.modifiers] == [
        ("+2 DRM if Depleted", 2, "depleted"),
        ("-2 DRM if Headquarters Pltn (2.42)", -2, "headquarters"),
    ]
    result = resolve(table, _Roll(9), facts={"depleted": True, "headquarters": False})
    assert result.final == 11 and result.cell.text == "8-0, 6+1"


PLATOON = [
    (2, "10-2", "10-2"),
    (3, "9-2", "9-2"),
    (4, "9-2", "9-1"),
    (5, "9-1", "8-1"),
    (6, "8-1", None),
    (7, "8-1", None),
    (8, "8-0", None),
    (9, "7-0", None),
    (10, "6+1", None),
    (11, "-", None),
    (13, "-", None),
]


@pytest.mark.parametrize(("final", "infantry", "armor"), PLATOON)
def test_platoon_leader_table_reads_as_printed(rr: System, final: int, infantry: str, armor: str | None) -> None:
    table = rr.table("platoon-leader")
    assert table.cell(final, "infantry").text == infantry
    cell = table.cell(final, "armor")
    if armor is None:
        assert cell.provenance is Provenance.INTERPRETED and cell.as_written == "(blank)"
    else:
        assert cell.text == armor and cell.provenance is Provenance.LEGIBLE


def test_platoon_leader_table_columns_and_depleted_drm(rr: System) -> None:
    table = rr.table("platoon-leader")
    assert [c.label for c in table.columns] == ["Infantry Leader Received", "Armor Leader Received"]
    assert [r.label for r in table.rows] == ["2", "3", "4", "5", "6-7", "8", "9", "10", "≥ 11"]
    assert [(m.reason, m.value, m.when) for m in table.modifiers] == [("+1 DRM if Depleted", 1, "depleted")]


def test_sw_allotment_depleted_rg_receives_each_sw_on_dr_4_or_less(rr: System) -> None:
    table = rr.table("sw-allotment")
    assert table.dice is DiceKind.dr and table.secret
    assert table.rows[0].label == "≤ 4" and table.rows[0].max == 4
    assert table.cell(4).text == "SW received"
    assert table.cell(5).text == "SW not received"


def test_recon_drms_extra_cpp_and_attacked_previous(rr: System) -> None:
    table = rr.table("recon")
    extra, attacked = table.modifiers
    assert extra.reason == "+x Spent x CPP extra (x ≤ 3)" and extra.per is not None and extra.per.fact == "extra_cpp_spent"
    assert attacked.reason == "-1 Attacked in the previous CG Scenario" and attacked.value == -1
    result = resolve(table, _Roll(4), facts={"extra_cpp_spent": 3, "own_attacked_previous_scenario": True})
    assert result.final == 6


# ---------------------------------------------------------------------------------------------------------------------
# RG charts (2.518)
# ---------------------------------------------------------------------------------------------------------------------

GERMAN_RG = [  # id, group type, cost, CG Date Max, CG Max, notes
    ("I1", "Para Inf Coy", 28, 2, 4, "deLo"),
    ("I2", "PzGr Coy (Lehr)", 27, 2, 4, "deL"),
    ("I3", "PzGr Coy", 25, 1, 3, "deLo"),
    ("I4", "Eng Pltn", 14, 1, 1, "adelo"),
    ("V1", "Pz IV Pltn (Lehr)", 12, 3, 6, "cdgl"),
    ("V2", "Pz IV Pltn", 14, 1, 2, "cdglo"),
    ("V3", "Pz V Pltn (Lehr)", 21, 3, 8, "dlo"),
    ("V4", "Pz V Pltn", 25, 1, 1, "dlo"),
    ("V5", "JgdPz V Sect (Lehr)", 11, 2, 6, "dl"),
    ("V6", "SPAA Sect (Lehr)", 8, 2, 2, "d"),
    ("G1", "AT Sect 1", 8, 1, 2, "bd"),
    ("G2", "AT Sect 2", 13, 1, 2, "bdf"),
    ("G3", "AT Sect 3", 11, 1, 2, "bdf"),
    ("HW1", "MG Pltn", 12, 1, 3, "bdo"),
    ("O1", "Btln Mtr", 5, 1, 6, "mp"),
    ("O2", "Heavy Mtr", 8, 1, 3, "p"),
    ("O3", "Medium Arty", 7, 1, 3, "p"),
    ("O4", "Heavy Arty", 9, 1, 3, "p"),
    ("M1", "Fortifications", 1, 3, 16, ""),
    ("M2", "Sniper", 2, 1, 8, ""),
    ("M3", "Recon", 3, 1, 8, "r"),
    ("M4", "Activate A20 Entry", 2, 1, 6, ""),
]

CANADIAN_RG = [
    ("I1", "Inf Coy", 20, 2, 4, "deLo"),
    ("I2", "Inf Pltn (replacements)", 5, 1, 2, ""),
    ("I3", "Assault Eng Pltn", 10, 1, 1, "adelo"),
    ("V1", "Tank Troop I", 14, 1, 1, "dlo"),
    ("V2", "Tank Troop II", 13, 1, 1, "dlo"),
    ("V3", "Carriers Sect", 15, 1, 2, "do"),
    ("V4", "Transport Sect", 4, 2, 2, "dh"),
    ("G1", "AT Sect I", 6, 3, 6, "bd"),
    ("G2", "AT Sect II", 10, 2, 4, "bd"),
    ("HW1", "MG Pltn", 10, 1, 3, "bdo"),
    ("O1", "Btln Mtr", 3, 1, 8, "mp"),
    ("O2", "Hvy Mtr", 6, 1, 5, "p"),
    ("O3", "Med Arty", 5, 1, 5, "p"),
    ("M1", "Fortifications", 1, 5, 18, ""),
    ("M2", "Sniper", 2, 1, 8, ""),
    ("M3", "Recon", 3, 1, 8, "r"),
    ("F1", "Typhoon", 2, 1, 5, ""),
]


@pytest.mark.parametrize(("side", "rows"), [("german", GERMAN_RG), ("canadian", CANADIAN_RG)])
def test_rg_chart_rows_cost_maxima_and_notes(rr: System, side: str, rows: list[tuple[str, str, int, int, int, str]]) -> None:
    chart = rr.rg_chart(side)
    assert [r.id for r in chart.rows] == [row[0] for row in rows]
    for rg_id, group, cost, date_max, cg_max, notes in rows:
        row = chart.row(rg_id)
        assert row.group_type == group, rg_id
        assert row.cost.value == cost, rg_id
        assert row.date_max is not None and row.date_max.value == date_max, rg_id
        assert row.cg_max is not None and row.cg_max.value == cg_max, rg_id
        assert "".join(row.notes) == notes, rg_id


def _units(units: tuple[object, ...]) -> list[tuple[int, str]]:
    return [(u.count.value, u.unit) for u in units]  # type: ignore[attr-defined]


def test_german_rg_compositions_full_and_depleted(rr: System) -> None:
    chart = rr.rg_chart("german")
    assert _units(chart.row("I1").full) == [(10, "5-4-8")] and _units(chart.row("I1").depleted) == [(7, "5-4-8")]
    assert _units(chart.row("I2").full) == [(10, "4-6-8"), (4, "SPW 251/1")]
    assert _units(chart.row("I2").depleted) == [(7, "4-6-8"), (2, "SPW 251/1")]
    assert _units(chart.row("I3").full) == [(10, "4-6-7"), (3, "SPW 251/1")]
    assert _units(chart.row("I3").depleted) == [(7, "4-6-7"), (2, "SPW 251/1")]
    assert _units(chart.row("I4").full) == [(3, "8-3-8")] and _units(chart.row("I4").depleted) == [(2, "8-3-8")]
    assert _units(chart.row("V1").full) == [(3, "Pz IVH/J")] and _units(chart.row("V1").depleted) == [(2, "Pz IVH/J")]
    assert _units(chart.row("V3").full) == [(3, "Pz VG")] and _units(chart.row("V4").depleted) == [(2, "Pz VG")]
    assert _units(chart.row("V5").full) == [(2, "JgdPz V")] and _units(chart.row("V5").depleted) == [(1, "JgdPz V")]
    assert _units(chart.row("V6").full) == [(2, "FlakPz IV/20")] and _units(chart.row("V6").depleted) == [(1, "FlakPz IV/20")]
    assert _units(chart.row("G1").full) == [(2, "75L AT PaK 40")] and _units(chart.row("G1").depleted) == [(1, "75L AT PaK 40")]
    assert _units(chart.row("G2").full) == [(2, "88LL AT PaK 43")]
    assert _units(chart.row("G3").full) == [(2, "88LL AT PaK 43/41")]
    assert _units(chart.row("HW1").full) == [(2, "HMG"), (2, "MMG")]


def test_canadian_rg_compositions_full_and_depleted(rr: System) -> None:
    chart = rr.rg_chart("canadian")
    assert _units(chart.row("I1").full) == [(5, "4-5-8"), (5, "4-5-7")]
    assert _units(chart.row("I1").depleted) == [(3, "4-5-8"), (4, "4-5-7")]
    assert _units(chart.row("I2").full) == [(3, "4-5-7")] and chart.row("I2").depleted == ()
    assert _units(chart.row("I3").full) == [(3, "4-5-8")] and _units(chart.row("I3").depleted) == [(2, "4-5-8")]
    assert _units(chart.row("V1").full) == [(1, "Sherman IIC(a)"), (3, "Sherman III(a)")]
    assert _units(chart.row("V1").depleted) == [(1, "Sherman IIC(a)"), (2, "Sherman III(a)")]
    assert _units(chart.row("V2").full) == [(1, "Sherman VC(a)"), (3, "Sherman V(a)")]
    assert _units(chart.row("V2").depleted) == [(1, "Sherman VC(a)"), (2, "Sherman V(a)")]
    assert _units(chart.row("V3").full) == [(3, "Wasp"), (2, "Carrier A"), (1, "Carrier C")]
    assert _units(chart.row("V3").depleted) == [(2, "Wasp"), (1, "Carrier A"), (1, "Carrier C")]
    assert _units(chart.row("V4").full) == [(10, "Ram Kangaroo")] and _units(chart.row("V4").depleted) == [(7, "Ram Kangaroo")]
    assert _units(chart.row("G1").full) == [(2, "57L 6-pdr AT")] and _units(chart.row("G1").depleted) == [(1, "57L 6-pdr AT")]
    assert _units(chart.row("G2").full) == [(2, "76LL 17-pdr AT")]
    assert _units(chart.row("HW1").full) == [(4, "MMG")]


def test_sw_allotment_by_rg(rr: System) -> None:
    german, canadian = rr.rg_chart("german"), rr.rg_chart("canadian")
    assert dict(german.row("I1").sw) == {"LMG": 3, "PSK": 1}
    assert dict(german.row("I2").sw) == {"LMG": 3} and dict(german.row("I3").sw) == {"LMG": 3}
    assert dict(german.row("I4").sw) == {"DC": 3}
    assert dict(canadian.row("I1").sw) == {"LMG": 3, "PIAT": 2, "51mm MTR": 1}
    assert dict(canadian.row("I2").sw) == {}
    assert dict(canadian.row("I3").sw) == {"DC": 3}


def test_m1_fortifications_cost_is_flagged_for_verification_and_gives_15_fpp(rr: System) -> None:
    for side in ("german", "canadian"):
        row = rr.rg_chart(side).row("M1")
        assert row.cost.value == 1 and row.cost.verify and row.cost.provenance is Provenance.INTERPRETED
        assert row.gives["FPP"].value == 15


def test_m4_only_available_after_19_pm_and_g2_g3_combined_max_two(rr: System) -> None:
    german = rr.rg_chart("german")
    assert german.row("M4").available_after == "19 PM"
    [combined] = german.combined_max
    assert set(combined.ids) == {"G2", "G3"} and combined.max == 2 and combined.per == "cg"
    assert german.row("I1").company and german.row("I3").company and not german.row("I4").company
    assert rr.rg_chart("canadian").row("I1").company


def test_rg_notes_carry_their_effects(rr: System) -> None:
    for side in ("german", "canadian"):
        notes = rr.rg_chart(side).notes
        assert notes["d"].text == "Subject to depletion." and notes["d"].depletable
        assert notes["L"].leader_table == "company-leader"
        assert notes["l"].leader_table == "platoon-leader"
        assert notes["o"].on_map_surcharge == 3 and notes["o"].on_map_surcharge_company == 8
        assert notes["p"].pre_registered is not None
        assert (notes["p"].pre_registered.cost, notes["p"].pre_registered.max) == (1, 2)
        assert notes["r"].extra_max == 3
        assert notes["b"].text == "Each MG is accompanied by a 2-2-8 crew; each Gun by a 2-2-8 crew."
        assert notes["m"].text == "Receives the battalion mortar radio maintenance drm."
    assert set(rr.rg_chart("german").notes) == set("abcdefgLlmopr")
    assert set(rr.rg_chart("canadian").notes) == set("abdehLlmopr")


def test_on_map_setup_free_and_forbidden(rr: System) -> None:
    setup = rr.setup_costs
    assert setup is not None and setup.ref == "2.5184"
    assert set(setup.on_map_free_types) == {"G", "O", "M"}
    assert set(setup.never_on_map) == {"german:I2", "german:V1", "german:V3", "german:V5", "german:V6", "canadian:V4"}


# ---------------------------------------------------------------------------------------------------------------------
# Fortifications (2.520)
# ---------------------------------------------------------------------------------------------------------------------


def test_fortification_purchase_table(rr: System) -> None:
    forts = rr.fortifications
    assert forts is not None and forts.currency == "FPP" and forts.forfeit_unspent
    rows = {r.type: r for r in forts.rows}
    assert list(rows) == ["Trench", "Foxhole", "A-P Mine Factor", "A-T Mine Factor", "Wire",
                          "Fortified Building Location", '"?"', "HIP"]
    assert rows["Trench"].cost.amount is not None and rows["Trench"].cost.amount.value == 7
    assert {k: v.value for k, v in rows["Foxhole"].cost.by.items()} == {"3": 3, "2": 2, "1": 1}
    assert rows["A-P Mine Factor"].cost.amount is not None and rows["A-P Mine Factor"].cost.amount.value == 1.5
    assert rows["A-T Mine Factor"].cost.amount is not None and rows["A-T Mine Factor"].cost.amount.value == 4
    assert rows["Wire"].cost.amount is not None and rows["Wire"].cost.amount.value == 15
    assert rows["Fortified Building Location"].cost.amount is not None
    assert rows["Fortified Building Location"].cost.amount.value == 10
    assert rows['"?"'].cost.amount is not None and rows['"?"'].cost.amount.value == 1
    assert {k: v.value for k, v in rows["HIP"].cost.by.items()} == {"squad": 3, "hs": 2, "crew": 1, "smc": 1}
    for german_initial in ("Trench", "A-P Mine Factor", "Wire"):
        assert rows[german_initial].sides == ("german",) and rows[german_initial].initial_only
    assert rows["A-T Mine Factor"].sides == () and not rows["A-T Mine Factor"].initial_only


def test_hip_limits_10_and_35_percent_rounded_up(rr: System) -> None:
    limits = {lim.id: lim for lim in rr.limits}
    day, night = limits["hip-day"], limits["hip-night-defender"]
    assert day.percent is not None and day.percent.value == 10 and day.rounding == "up"
    assert night.percent is not None and night.percent.value == 35 and night.rounding == "up"


# ---------------------------------------------------------------------------------------------------------------------
# Calendar (2.5161 CPP Base Numbers, 2.517 weather)
# ---------------------------------------------------------------------------------------------------------------------

CALENDAR = [  # CG Date, Canadian base, German base, EC, Weather, Moon/Cloud
    ("19 AM", 0, 0, "Wet/Soft Ground", "Overcast", "-"),
    ("19 PM", 40, 80, "Wet/Soft Ground", "Overcast", "-"),
    ("19 Night", 25, 80, "Wet/Soft Ground", "Overcast", "Overcast"),
    ("20 AM", 40, 60, "Wet", "Overcast/V. Heavy Mist*", "-"),
    ("20 PM", 40, 75, "Moist", "Overcast", "-"),
    ("20 Night", 25, 75, "Moist", "Overcast", "Overcast"),
    ("21 AM", 40, 40, "Moist", "Clear", "-"),
    ("21 PM", 40, 40, "Moist", "Clear", "-"),
    ("21 Night", 25, 40, "Moist", "Clear", "Half-Moon/No Cloud"),
    ("Interlude AM", 40, 40, "Moist", "Clear", "-"),
    ("Interlude PM", 40, 40, "Moist", "Clear", "-"),
    ("Interlude Night", 50, 40, "Moist", "Clear", "Half-Moon/No Cloud"),
    ("26 AM", 25, 50, "Moist", "Clear", "-"),
]


def test_calendar_has_the_13_cg_dates_in_order(rr: System) -> None:
    assert [e.id for e in rr.calendar] == [row[0] for row in CALENDAR]


@pytest.mark.parametrize(("date", "canadian", "german", "ec", "weather", "moon"), CALENDAR)
def test_calendar_base_numbers_and_weather(
    rr: System, date: str, canadian: int, german: int, ec: str, weather: str, moon: str
) -> None:
    entry = rr.calendar_entry(date)
    assert entry.base_numbers["canadian"].value == canadian
    assert entry.base_numbers["german"].value == german
    assert entry.ec is not None and entry.ec.text == ec
    assert entry.weather is not None and entry.weather.text == weather
    assert entry.moon is not None and entry.moon.text == moon
    assert entry.night == date.endswith("Night")
    assert entry.replenishment_roll == (date != "19 AM")


def test_interlude_night_canadian_50_is_flagged_for_verification(rr: System) -> None:
    assert rr.calendar_entry("Interlude Night").base_numbers["canadian"].verify
    assert not rr.calendar_entry("21 Night").base_numbers["canadian"].verify


# ---------------------------------------------------------------------------------------------------------------------
# RePh sequence (2.501–2.525)
# ---------------------------------------------------------------------------------------------------------------------

STEPS = [
    ("2.501", "Conclusion of Melee", ()),
    ("2.502", "Marker Removal", ()),
    ("2.503", "Rally, Unloading, CG Scenario End, and CG-LVP Totals", ("*", "†")),
    ("2.504", "Encirclement, Minefields, Shock, and Bog", ()),
    ("2.505", "Setup Area Determination", ()),
    ("2.506", "Escape", ()),
    ("2.507", "Equipment Possession and Hidden Fortifications", ()),
    ("2.508", "Prisoners", ()),
    ("2.509", "Extinguishing Flames and Blazes", ()),
    ("2.510", "Wounded Leaders", ()),
    ("2.511", "Recombining and Battle Hardening", ()),
    ("2.512", "New CG Date and SAN Adjustment", ("*",)),
    ("2.513", "Shift", ("*",)),
    ("2.514", "Equipment Repair and Replenishment", ("*",)),
    ("2.515", "Fortification, Wreck, and Immobile Vehicle Removal", ("*",)),
    ("2.516", "CPP Replenishment", ("*",)),
    ("2.517", "Weather Determination", ("*",)),
    ("2.518", "Purchasing Reinforcement Groups", ("*", "††")),
    ("2.519", "RG Strength, Weapons, and Leaders", ("*", "††")),
    ("2.520", "Purchasing Fortifications", ("*", "††")),
    ("2.521", "Purchasing Reconnaissance", ("*",)),
    ("2.522", "Initiative Determination", ("*",)),
    ("2.523", "Scenario Commencement", ()),
    ("2.52322", "Non-Isolated Setup", ()),
    ("2.524", "Recon Inspection", ()),
    ("2.525", "Begin Play", ()),
]


def test_reph_steps_in_order_with_names_and_markers(rr: System) -> None:
    assert [(s.ref, s.name, s.markers) for s in rr.steps] == STEPS


def test_star_steps_loop_on_an_idle_date_and_double_dagger_steps_precede_the_initial_scenario(rr: System) -> None:
    assert [s.ref for s in rr.steps if s.loop_on_idle] == [
        "2.503", "2.512", "2.513", "2.514", "2.515", "2.516", "2.517", "2.518", "2.519", "2.520", "2.521", "2.522"
    ]
    assert [s.ref for s in rr.steps if s.initial] == ["2.518", "2.519", "2.520"]
    assert rr.idle is not None and rr.idle.name == "Idle Date" and rr.idle.loop == "steps-marked-loop"


def test_steps_are_simultaneous_except_the_ordered_ones(rr: System) -> None:
    ordered = {s.ref: s.order for s in rr.steps if s.sides == "ordered"}
    assert ordered == {
        "2.501": ("attacker", "defender"),
        "2.523": ("setup-first", "setup-second"),
        "2.52322": ("setup-first", "setup-second"),
    }


def test_secret_steps_and_when_they_are_revealed(rr: System) -> None:
    step = rr.step
    assert (step("2.513").secret, step("2.513").revealed) == ("roll", "never")
    assert (step("2.516").secret, step("2.516").revealed) == ("roll", "never")
    assert (step("2.518").secret, step("2.518").revealed) == ("purchase", "never")
    assert (step("2.519").secret, step("2.519").revealed) == ("roll", "cg-end")
    assert (step("2.522").secret, step("2.522").revealed, step("2.522").revealed_at) == ("choice", "at-step", "2.522")
    assert step("2.516").automation is Automation.AUTOMATIC
    assert step("2.506").automation is Automation.ASSISTED and step("2.506").tables == ("escape", "escape-equipment")
    assert step("2.505").automation is Automation.ON_BOARD


def test_currencies_cpp_carry_over_and_fpp_forfeit_at_2_520(rr: System) -> None:
    cpp, fpp = rr.currencies
    assert cpp.code == "CPP" and cpp.carry_over
    assert fpp.code == "FPP" and not fpp.carry_over and fpp.forfeit_at_step == "2.520"
    assert fpp.bought_with is not None and fpp.bought_with.currency == "CPP"


# ---------------------------------------------------------------------------------------------------------------------
# Initiative (2.522, 2.5221, 2.5223, 2.525)
# ---------------------------------------------------------------------------------------------------------------------


def test_initiative_matrix_labels_and_order(rr: System) -> None:
    init = rr.initiative
    assert init is not None and init.mode == "chit"
    a, i = Chit.ATTACK, Chit.IDLE
    assert init.matrix[(a, a)].label == "Dual Attack"
    german = init.matrix[(a, i)]
    assert (german.label, german.setup_first, german.moves_first) == ("German Assault", "canadian", "german")
    canadian = init.matrix[(i, a)]
    assert (canadian.label, canadian.setup_first, canadian.moves_first) == ("Canadian Assault", "german", "canadian")
    assert init.matrix[(i, i)].label == "Idle Date" and init.matrix[(i, i)].result == "idle"


def test_attack_chit_limits_canadian_2_german_6_initial_not_counted(rr: System) -> None:
    init = rr.initiative
    assert init is not None
    assert dict(init.chit_limits) == {"canadian": 2, "german": 6}
    assert init.chit_limits_ref == "2.5221" and init.initial_counts is False


def test_dual_attack_setup_dr_3_or_less_canadian_sets_up_first(rr: System) -> None:
    init = rr.initiative
    assert init is not None and init.dual_attack_setup is not None
    setup = init.dual_attack_setup
    assert setup.roller == "canadian" and setup.dice is DiceKind.dr
    assert [setup.winner(n).result for n in range(1, 7)] == ["canadian"] * 3 + ["german"] * 3


def test_dual_attack_move_dr_greater_than_4_canadian_moves_first_as_written_and_flagged(rr: System) -> None:
    init = rr.initiative
    assert init is not None and init.dual_attack_move is not None
    move = init.dual_attack_move
    assert move.ref == "2.525" and move.roller == "canadian"
    assert [move.winner(n).result for n in range(1, 7)] == ["german"] * 4 + ["canadian"] * 2
    assert move.rows[-1].label == "> 4" and move.rows[-1].verify and move.rows[-1].interpreted


# ---------------------------------------------------------------------------------------------------------------------
# Forms (2.518, 2.5188) and missing parts
# ---------------------------------------------------------------------------------------------------------------------


def test_cg_roster_columns_and_who_sees_them(rr: System) -> None:
    roster = rr.form("cg-roster")
    assert roster.per == "date"
    assert [(c.label, c.visibility) for c in roster.columns] == [
        ("CG Date", Visibility.PUBLIC),
        ("Start", Visibility.SIDE),
        ("Replenished", Visibility.SIDE),
        ("RG Purchased", Visibility.SIDE),
        ("Spent", Visibility.SIDE),
        ("Left", Visibility.SIDE),
        ("Recon", Visibility.SIDE),
        ("LVP", Visibility.PUBLIC),
        ("ELR", Visibility.PUBLIC),
        ("SAN", Visibility.PUBLIC),
        ("Initiative", Visibility.PUBLIC),
        ("Fortifications", Visibility.SIDE),
    ]


def test_rg_purchase_record_columns_with_2_519_results_revealed_at_cg_end(rr: System) -> None:
    record = rr.form("rg-purchase-record")
    assert record.per == "rg"
    assert [(c.label, c.visibility) for c in record.columns] == [
        ("CG Date", Visibility.SIDE),
        ("RG ID", Visibility.SIDE),
        ("Group Type", Visibility.SIDE),
        ("Leaders Received", Visibility.CG_END),
        ("#P", Visibility.SIDE),
        ("#R", Visibility.SIDE),
        ("Str", Visibility.CG_END),
        ("# Units", Visibility.CG_END),
        ("SW Received", Visibility.CG_END),
        ("Setup Area/Entry ID", Visibility.SIDE),
    ]


def test_lost_and_absent_parts_are_declared(rr: System) -> None:
    declared = {(m.part, m.id) for m in rr.missing_parts}
    assert ("steps", "2.502") in declared
    assert ("victory_conditions", None) in declared
    assert ("special_rules", "2.42") in declared
    assert ("rg_charts", "endnotes") in declared
