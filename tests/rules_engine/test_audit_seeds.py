"""Second-reader audit of the five CG system files against the seed texts.

Every expected value below was typed by hand from the OCR'd seed text (never from the fixtures or the catalog); the
comment or parameter id names the seed and its line number: ``s000:153`` = /work/shared/seeds/000_*.txt line 153.
Seeds: 000 = Platoon Leader 2.5 (pl25), 001 = RR, 002 = ER, 003 = Purple Heart Draw (phd), 004 = KGP.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine.errors import MissingValueError
from rules_engine.loader import parse_system
from rules_engine.model import Cell, DiceTable, System
from rules_engine.vocabulary import Chit, Provenance

ROOT = Path(__file__).resolve().parents[2]


@cache
def _system(system_id: str) -> System:
    path = ROOT / "fixtures" / f"{system_id}.yaml"
    return parse_system(path.read_text(), f"fixtures/{system_id}.yaml")


def _table(system_id: str, table_id: str) -> DiceTable:
    return _system(system_id).table(table_id)


def _number(cell: Cell | None) -> int | float:
    assert cell is not None
    return cell.number


# =====================================================================================================================
# 1. Dice-table cells: (system, table, final roll, column, expected text as printed, seed:line)
# =====================================================================================================================

CELLS = [
    # --- PL 2.5: 2.12 CP Replenishment Table (s000:148-206) — every cell ---
    *[
        ("pl25", "cp-replenishment", final, col, str(value), f"s000:{line}")
        for final, line, low, mid, high in [
            (2, 153, 16, 25, 34), (3, 158, 15, 24, 33), (4, 163, 14, 23, 32), (5, 168, 13, 22, 31),
            (6, 173, 12, 21, 30), (7, 178, 12, 20, 29), (8, 183, 12, 19, 28), (9, 188, 11, 18, 27),
            (10, 193, 10, 17, 26), (11, 198, 9, 16, 25), (12, 203, 8, 15, 24),
        ]
        for col, value in (("low", low), ("mid", mid), ("high", high))
    ],
    # --- PL 2.351 Off Board Artillery Table (s000:262-271) ---
    ("pl25", "oba-ammo", 4, None, "Plentiful", "s000:262"),
    ("pl25", "oba-ammo", 5, None, "Normal", "s000:266"),
    ("pl25", "oba-ammo", 10, None, "Normal", "s000:266"),
    ("pl25", "oba-ammo", 11, None, "Scarce", "s000:270"),
    # --- PL 2.361 Leader/Armor Leader Table (s000:284-324) — every cell ---
    *[
        ("pl25", "leader", final, col, value, f"s000:{line}")
        for final, line, row in [
            (2, 284, ("10-2", "10-1", "10-1", "10-2")),
            (3, 290, ("9-2", "10-0", "10-0", "9-2")),
            (4, 296, ("9-1", "9-1", "9-1", "9-1")),
            (5, 302, ("8-1*", "9-0", "9-1", "8-1")),
            (8, 308, ("8-0*", "8-0", "9-0", "-")),
            (9, 314, ("7-0", "8+1", "8-0", "-")),
            (11, 320, ("6+1", "8+1", "-", "-")),
        ]
        for col, value in zip(("standard", "japanese", "finn", "armor"), row)
    ],
    # --- PL 2.74 Patrol Detection / Return Tables (s000:470-563) ---
    ("pl25", "patrol-detection", 7, None, "Patrol conducts mission", "s000:470"),
    ("pl25", "patrol-detection", 8, None, "Patrol compromised and returned to friendly MLR", "s000:473"),
    ("pl25", "patrol-detection", 11, None, "Patrol reduced* - returned to friendly MLR", "s000:476"),
    ("pl25", "patrol-detection", 12, None, "Patrol KIA* - returned to friendly MLR", "s000:479"),
    ("pl25", "patrol-detection", 14, None, "Patrol KIA", "s000:482"),
    ("pl25", "patrol-return", 8, None, "Gets back safely", "s000:550"),
    ("pl25", "patrol-return", 9, None, "Loses any prisoner(s), back safely", "s000:553"),
    ("pl25", "patrol-return", 12, None, "Returned, Reduced*", "s000:556"),
    ("pl25", "patrol-return", 13, None, "Patrol KIA", "s000:559"),
    ("pl25", "patrol-return", 14, None, "Captured*, others KIA", "s000:562"),
    # --- PL 3.21 Redeployment Table (s000:678-700); note marks may be written as superscripts ---
    ("pl25", "redeployment", 9, "vehicle", "Redeploys", "s000:684"),
    ("pl25", "redeployment", 10, "vehicle", "Redeploys", "s000:688"),
    ("pl25", "redeployment", 11, "vehicle", "Remains in hex†", "s000:692"),
    ("pl25", "redeployment", 13, "vehicle", "Eliminated CS NA", "s000:696"),
    ("pl25", "redeployment", 14, "infantry", "Eliminated", "s000:699"),
    ("pl25", "redeployment", 14, "vehicle", "Eliminated CS NA", "s000:700"),
    # --- PL 3.32 Evacuation, 3.41 Disease, 3.44 Battlefield Promotion, 3.52 Clearance ---
    ("pl25", "evacuation", 2, None, "Remains in play", "s000:753"),
    ("pl25", "evacuation", 3, None, "Evacuated (removed from play)", "s000:756"),
    ("pl25", "disease", 3, None, "1 Squad", "s000:781"),
    ("pl25", "disease", 6, None, "2 Squads", "s000:785"),
    ("pl25", "disease", 7, None, "3 Squads", "s000:789"),
    ("pl25", "battlefield-promotion", 0, None, "4", "s000:805"),
    ("pl25", "battlefield-promotion", 1, None, "3", "s000:809"),
    ("pl25", "battlefield-promotion", 3, None, "2", "s000:813"),
    ("pl25", "battlefield-promotion", 5, None, "1", "s000:817"),
    ("pl25", "battlefield-promotion", 6, None, "0", "s000:821"),
    ("pl25", "fortification-clearance", 3, None, "Eliminated *", "s000:863"),
    ("pl25", "fortification-clearance", 4, None, "No Effect †", "s000:866"),
    # --- RR 2.506 Escape Table (s001:104-110) ---
    ("rr", "escape", 8, "infantry", "Escapes", "s001:106"),
    ("rr", "escape", 8, "vehicle", "Escapes", "s001:106"),
    ("rr", "escape", 9, "infantry", "Escapes; Replaced", "s001:107"),
    ("rr", "escape", 9, "vehicle", "Abandoned; crew (if any) Escapes", "s001:107"),
    ("rr", "escape", 10, "infantry", "Escapes; Casualty Reduced", "s001:108"),
    ("rr", "escape", 10, "vehicle", "Eliminated; crew (if any) Escapes", "s001:108"),
    ("rr", "escape", 11, "infantry", "Escapes; Replaced, then Casualty Reduced", "s001:109"),
    ("rr", "escape", 11, "vehicle", "Abandoned; crew (if any) is Eliminated", "s001:109"),
    ("rr", "escape", 12, "infantry", "All units and Equipment Eliminated", "s001:110"),
    ("rr", "escape", 12, "vehicle", "Eliminated; crew (if any) is Eliminated", "s001:110"),
    # --- RR 2.510, 2.513, 2.5141b/d, 2.5142, 2.515, 2.5191 ---
    ("rr", "wounded-leader", 1, None, "Retained unwounded", "s001:161"),
    ("rr", "wounded-leader", 2, None, "Retained wounded", "s001:162"),
    ("rr", "wounded-leader", 4, None, "Retained wounded", "s001:162"),
    ("rr", "wounded-leader", 5, None, "Eliminated (evacuated)", "s001:163"),
    ("rr", "shift", 8, None, "Shifted safely", "s001:192"),
    ("rr", "shift", 9, None, "No Shift", "s001:193"),
    ("rr", "shift", 10, None, "No Shift", "s001:193"),
    ("rr", "shift", 11, None, "Shifted with Casualties", "s001:194"),
    ("rr", "shift", 12, None, "All units, Inherent Crews and Equipment Eliminated", "s001:195"),
    ("rr", "immobilization-repair", 2, None, "Becomes Mobile", "s001:214"),
    ("rr", "immobilization-repair", 3, None, "No change", "s001:215"),
    ("rr", "stun-recovery", 2, None, "Recover, remove Stun", "s001:228"),
    ("rr", "stun-recovery", 3, None, "Retain Stun", "s001:229"),
    ("rr", "stun-recovery", 5, None, "Retain Stun", "s001:229"),
    ("rr", "stun-recovery", 6, None, "Eliminated", "s001:230"),
    ("rr", "weapon-repair", 1, None, "Repaired", "s001:239"),
    ("rr", "weapon-repair", 2, None, "Eliminated", "s001:240"),
    ("rr", "removal", 3, None, "Eliminated", "s001:272"),
    ("rr", "removal", 4, None, "No Effect", "s001:273"),
    ("rr", "rg-strength", 8, None, "Full", "s001:458"),
    ("rr", "rg-strength", 9, None, "Depleted", "s001:459"),
    # --- RR 2.5193 Company Leader Allotment Table (s001:483-495) — every legible row ---
    *[
        ("rr", "company-leader", final, None, leaders, f"s001:{line}")
        for final, line, leaders in [
            (1, 484, "10-3, 9-1, 8-1"), (2, 485, "10-2, 8-1, 8-0"), (3, 486, "9-2, 9-1, 8-0"),
            (4, 487, "9-2, 8-1, 7-0"), (5, 488, "9-1, 8-1, 7-0"), (6, 489, "8-1, 8-0, 7-0"),
            (7, 490, "9-1, 8-0"), (8, 491, "8-1, 8-0"), (9, 492, "8-1, 7-0"), (10, 493, "8-0, 7-0"),
            (11, 494, "8-0, 6+1"), (13, 495, "7-0, 6+1"),
        ]
    ],
    # --- RR Platoon Leader Allotment Table (s001:501-513) ---
    ("rr", "platoon-leader", 2, "infantry", "10-2", "s001:505"),
    ("rr", "platoon-leader", 2, "armor", "10-2", "s001:505"),
    ("rr", "platoon-leader", 3, "infantry", "9-2", "s001:506"),
    ("rr", "platoon-leader", 3, "armor", "9-2", "s001:506"),
    ("rr", "platoon-leader", 4, "infantry", "9-2", "s001:507"),
    ("rr", "platoon-leader", 4, "armor", "9-1", "s001:507"),
    ("rr", "platoon-leader", 5, "infantry", "9-1", "s001:508"),
    ("rr", "platoon-leader", 5, "armor", "8-1", "s001:508"),
    ("rr", "platoon-leader", 7, "infantry", "8-1", "s001:509"),
    ("rr", "platoon-leader", 8, "infantry", "8-0", "s001:510"),
    ("rr", "platoon-leader", 9, "infantry", "7-0", "s001:511"),
    ("rr", "platoon-leader", 10, "infantry", "6+1", "s001:512"),
    ("rr", "platoon-leader", 11, "infantry", "-", "s001:513"),
    # --- PHD C5.29 TP Replenishment Table: only the legible cells (s003:1307-1320) ---
    ("phd", "tp-replenishment", 2, "german", "25", "s003:1309"),
    ("phd", "tp-replenishment", 3, "us", "34", "s003:1310"),
    ("phd", "tp-replenishment", 5, "us", "32", "s003:1312"),
    ("phd", "tp-replenishment", 7, "german", "20", "s003:1314"),
    ("phd", "tp-replenishment", 7, "us", "30", "s003:1314"),
    ("phd", "tp-replenishment", 9, "german", "18", "s003:1316"),
    ("phd", "tp-replenishment", 9, "us", "28", "s003:1316"),
    ("phd", "tp-replenishment", 11, "german", "16", "s003:1320"),
    ("phd", "tp-replenishment", 11, "us", "26", "s003:1320"),
    # --- PHD other legible cells ---
    ("phd", "us-oba", 6, None, "Plentiful", "s003:1529"),
    ("phd", "us-oba", 12, None, "Scarce", "s003:1531"),
    ("phd", "german-oba", 4, None, "Normal", "s003:1515"),
    ("phd", "german-oba", 9, None, "Normal", "s003:1515"),
    ("phd", "leader-evacuation", 1, None, "Retained Unwounded", "s003:1052"),
    ("phd", "battlefield-promotion", 3, None, "2", "s003:1101"),
    ("phd", "battlefield-promotion", 4, None, "2", "s003:1101"),
    ("phd", "battlefield-promotion", 7, None, "0", "s003:1103"),
    ("phd", "leader-promotion", 3, None, "9-2", "s003:1116"),
    ("phd", "leader-promotion", 5, None, "8-1", "s003:1118"),
    ("phd", "leader-promotion", 6, None, "8-1", "s003:1118"),
    ("phd", "weapon-repair", 2, None, "Repaired", "s003:1162"),
    ("phd", "weapon-repair", 3, None, "Eliminated", "s003:1163"),
    ("phd", "baz-psk-ft-dc-repair", 3, None, "Repaired", "s003:1184"),
    ("phd", "baz-psk-ft-dc-repair", 4, None, "Eliminated", "s003:1185"),
    ("phd", "captured-equipment", 3, None, "Retained", "s003:1197"),
    ("phd", "captured-equipment", 4, None, "Eliminated", "s003:1198"),
    ("phd", "immobilization-repair", 2, None, "Become Mobile", "s003:1230"),
    ("phd", "immobilization-repair", 3, None, "No Change", "s003:1231"),
    ("phd", "redeployment", 9, "infantry", "Redeploys", "s003:950"),
    ("phd", "redeployment", 9, "vehicle", "Redeploys", "s003:950"),
    ("phd", "redeployment", 14, "infantry", "Eliminated", "s003:957"),
    # --- ER CG18 FPF Barrage (s002:43) ---
    ("er", "fpf-accuracy", 4, None, "the Barrage lands accurately", "s002:43"),
    ("er", "fpf-duration", 5, None, "the Barrage is removed", "s002:43"),
]


@pytest.mark.parametrize(
    ("system_id", "table_id", "final", "column", "expected", "seed"),
    CELLS,
    ids=[f"{s}-{t}-{f}-{c or 'result'}-{line}" for s, t, f, c, _, line in CELLS],
)
def test_each_table_cell_reads_as_printed_in_the_seed(
    system_id: str, table_id: str, final: int, column: str | None, expected: str, seed: str
) -> None:
    assert _table(system_id, table_id).cell(final, column).text == expected, seed


# Cells whose printed text carries note marks (superscripts) the OCR merged with the words: the words must be as printed.
MARKED_CELLS = [
    ("pl25", "redeployment", 9, "infantry", "Redeploys", "s000:683"),
    ("pl25", "redeployment", 10, "infantry", "Redeploys, Replaced", "s000:687"),
    ("pl25", "redeployment", 11, "infantry", "Redeploys, Reduced", "s000:691"),
    ("pl25", "redeployment", 13, "infantry", "Remains in hex, Reduced", "s000:695"),
    ("phd", "redeployment", 12, "infantry", "Remains in hex, Reduced", "s003:955"),
    ("phd", "fortification-clearance", 3, None, "Eliminated", "s003:1272"),
    ("phd", "fortification-clearance", 4, None, "No Effect", "s003:1273"),
]


@pytest.mark.parametrize(
    ("system_id", "table_id", "final", "column", "words", "seed"),
    MARKED_CELLS,
    ids=[f"{s}-{t}-{f}-{c or 'result'}-{line}" for s, t, f, c, _, line in MARKED_CELLS],
)
def test_cells_with_note_marks_keep_the_printed_words(
    system_id: str, table_id: str, final: int, column: str | None, words: str, seed: str
) -> None:
    text = _table(system_id, table_id).cell(final, column).text
    assert text.startswith(words), seed
    assert text[len(words):].strip(" ¹²³˒,*†") == "", f"{seed}: only note marks may follow the words, got {text!r}"


# =====================================================================================================================
# 2. Lost values stay lost — nothing filled in, not even from a pattern
# =====================================================================================================================

LOST = [
    # PHD C5.29 TP table: rows 4, 6, 8, 10 and the last row are illegible in both columns (s003:1311-1322).
    *[("phd", "tp-replenishment", f, c, f"s003:{line}") for f, line in ((4, 1311), (6, 1313), (8, 1315), (10, 1318), (12, 1322))
      for c in ("german", "us")],
    ("phd", "german-oba", 3, None, "s003:1516"),  # "S0"
    ("phd", "german-oba", 10, None, "s003:1523"),  # "BT"
    ("phd", "battlefield-promotion", 5, None, "s003:1102"),  # "kg i"
    ("phd", "battlefield-promotion", 6, None, "s003:1102"),
    ("phd", "leader-promotion", 2, None, "s003:1115"),  # "S0 b D)"
    ("phd", "leader-promotion", 8, None, "s003:1119"),  # "R"
    ("phd", "leader-promotion", 12, None, "s003:1121"),  # "T"
    ("phd", "leader-evacuation", 2, None, "s003:1053"),  # "Retamed Unwoundcd & chlau:d"
    ("phd", "leader-evacuation", 4, None, "s003:1053-1055"),  # no printed row for 3-5
    *[("phd", "leader", 7, c, "s003:1491-1503") for c in ("german", "us", "armour")],
    ("rr", "company-leader", 12, None, "s001:494-495"),  # 11 is followed by "≥ 13"
    ("rr", "escape-equipment", 3, None, "s001:134"),  # "> 4" / "< 3" leaves dr 3-4 without a result
    ("rr", "escape-equipment", 4, None, "s001:134"),
]


@pytest.mark.parametrize(
    ("system_id", "table_id", "final", "column", "seed"),
    LOST,
    ids=[f"{s}-{t}-{f}-{c or 'result'}-{line}" for s, t, f, c, line in LOST],
)
def test_a_value_lost_in_the_seed_is_refused_not_invented(
    system_id: str, table_id: str, final: int, column: str | None, seed: str
) -> None:
    with pytest.raises(MissingValueError):
        _table(system_id, table_id).cell(final, column)


# Rows whose printed cells are legible but whose row label is lost: the cell is kept, the roll is refused until a
# CG Card supplies the label. (system, table, row index, final roll into it, legible cells, seed:line)
LOST_LABEL_ROWS = [
    ("phd", "us-oba", 1, 7, ["Normal"], "s003:1530"),  # label printed "?-]I"
    ("phd", "battlefield-promotion", 0, 2, ["3"], "s003:1100"),  # label printed "hir"
    ("phd", "redeployment", 1, 10, ["Redeploys, Replaced", "Redeploys"], "s003:952"),  # no label printed
]


@pytest.mark.parametrize(
    ("system_id", "table_id", "index", "final", "cells", "seed"),
    LOST_LABEL_ROWS,
    ids=[f"{s}-{t}-{i}-{line}" for s, t, i, _, _, line in LOST_LABEL_ROWS],
)
def test_a_row_with_a_lost_label_keeps_its_cells_but_refuses_the_roll(
    system_id: str, table_id: str, index: int, final: int, cells: list[str], seed: str
) -> None:
    table = _table(system_id, table_id)
    row = table.rows[index]
    assert row.label is None and row.label_missing, seed
    assert [cell.text for cell in row.cells] == cells, seed
    with pytest.raises(MissingValueError):
        table.cell(final, table.columns[0].id)


def test_phd_setup_costs_are_all_missing() -> None:
    """s003:1413-1422: the RG SET UP COST TABLE prints its rows but no legible modifier."""
    costs = _system("phd").setup_costs
    assert costs is not None
    cells = [cell for mode in costs.modes for cell in mode.by_type.values()]
    assert cells and all(cell.missing for cell in cells)


def test_pl25_hw_setup_cost_is_missing_not_copied_from_another_row() -> None:
    """s000:238-252: 2.34 has rows I, G and A/V only; 2.33 allows HW In Reserve (⚠ in the catalog)."""
    costs = _system("pl25").setup_costs
    assert costs is not None
    for mode in costs.modes:
        if mode.mode in ("on-map", "reserve"):
            assert mode.by_type["HW"].missing
            assert mode.by_type["HW"].verify


PHD_LOST_FORT_COSTS = ["Wire", "Pillbox", "Fortified Building", "Bocage Breach (B9.541)"]  # s003:1550-1554


@pytest.mark.parametrize("fort_type", PHD_LOST_FORT_COSTS)
def test_phd_fortification_costs_not_printed_stay_missing(fort_type: str) -> None:
    fortifications = _system("phd").fortifications
    assert fortifications is not None
    row = next(r for r in fortifications.rows if r.type == fort_type)
    assert row.cost.amount is not None and row.cost.amount.missing


# =====================================================================================================================
# 3. Interpreted values: kept as written, flagged where the catalog flags ⚠
# =====================================================================================================================


def test_phd_tp_cells_with_a_misread_plus_are_interpreted_and_flagged() -> None:
    """s003:1309-1312: "+25 435", "3| 424 +34", "5 | 422 +32" — the 4 is a misread "+"."""
    table = _table("phd", "tp-replenishment")
    for final, column, value, written in ((2, "us", 35, "435"), (3, "german", 24, "424"), (5, "german", 22, "422")):
        cell = table.cell(final, column)
        assert (cell.value, cell.provenance, cell.as_written, cell.verify) == (value, Provenance.INTERPRETED, written, True)


def test_rr_m1_cost_is_read_by_column_position_and_flagged() -> None:
    """s001:347 "M1 Fortifications 15 FPP 1 3 16"; s001:400 "M1 Fortifications 15 FPP 1 5 18" (catalog ⚠)."""
    for side, date_max, cg_max in (("german", 3, 16), ("canadian", 5, 18)):
        row = _system("rr").rg_chart(side).row("M1")
        assert (row.cost.value, row.cost.provenance, row.cost.verify) == (1, Provenance.INTERPRETED, True)
        assert (_number(row.date_max), _number(row.cg_max)) == (date_max, cg_max)
        assert _number(row.gives["FPP"]) == 15


def test_rr_escape_reversed_edge_glyphs_are_flagged() -> None:
    """s001:106 "≥ 8" and s001:110 "≤ 12" are reversed (catalog ⚠): read ≤8 / ≥12 and flagged."""
    rows = _table("rr", "escape").rows
    assert (rows[0].label, rows[0].max, rows[0].verify) == ("≥ 8", 8, True)
    assert (rows[-1].label, rows[-1].min, rows[-1].verify) == ("≤ 12", 12, True)


def test_rr_interlude_night_canadian_base_number_is_50_as_printed_and_flagged() -> None:
    """s001:299 "Interlude Night 50 40"."""
    entry = _system("rr").calendar_entry("Interlude Night")
    assert _number(entry.base_numbers["canadian"]) == 50
    assert entry.base_numbers["canadian"].verify


def test_pl25_fortified_building_cost_keeps_the_printed_125() -> None:
    """s000:386-387 "Fortified Building I / 125": 12 with note 5, interpreted."""
    fortifications = _system("pl25").fortifications
    assert fortifications is not None
    row = next(r for r in fortifications.rows if r.type == "Fortified Building")
    assert row.cost.amount is not None
    assert (row.cost.amount.value, row.cost.amount.as_written, row.cost.amount.verify) == (12, "125", True)


def test_pl25_heroes_limit_keeps_the_printed_less_than_one() -> None:
    """s000:795 "until each side has <1 hero in play": read ≤1, interpreted and flagged."""
    limit = next(item for item in _system("pl25").limits if item.id == "heroes")
    assert limit.max is not None
    assert (limit.max.value, limit.max.as_written, limit.max.provenance, limit.max.verify) == (
        1, "<1", Provenance.INTERPRETED, True)


def test_phd_self_rally_two_is_read_from_the_printed_nwo_with_no_invented_period() -> None:
    """s003:551 "TM16 — SELF-RALLY: Each side is allowed nwo non-Disrupted MMC Self-Rally Attempts" (no period given)."""
    limit = next(item for item in _system("phd").limits if item.id == "self-rally")
    assert limit.max is not None
    assert (limit.max.value, limit.max.as_written, limit.max.provenance) == (2, "nwo", Provenance.INTERPRETED)
    assert limit.per is None


# =====================================================================================================================
# 4. DRMs: sign, amount and wording as printed, NA-to-vehicle markers
# =====================================================================================================================

# (system, table, index, expected value (None = asked/setting), words that must appear in the reason, seed:line)
DRMS = [
    ("pl25", "cp-replenishment", 0, None, "HIST/CP DRM", "s000:210"),
    ("pl25", "cp-replenishment", 1, 1, "Attack Option on previous CG Firefight", "s000:212"),
    ("pl25", "cp-replenishment", 2, -1, "per each 10 CVP suffered", "s000:214"),
    ("pl25", "oba-ammo", 2, -1, "Attack Option purchased also", "s000:272"),
    ("pl25", "patrol-detection", 0, -1, "Elite, Stealthy (each)", "s000:489"),
    ("pl25", "patrol-detection", 1, -1, "Recon type patrol", "s000:492"),
    ("pl25", "patrol-detection", 3, 1, "Inexperienced, Lax (each)", "s000:498"),
    ("pl25", "patrol-detection", 6, 2, "Day patrol (EXC: PTO)", "s000:507"),
    ("pl25", "patrol-detection", 7, 2, "Night Patrol PTO", "s000:510"),
    ("pl25", "patrol-detection", 8, 1, "No Moon or Full Moon", "s000:513"),
    ("pl25", "patrol-return", 11, 1, "Conducted attack [EXC: HtH CC] – Return Table only", "s000:522"),
    ("pl25", "patrol-return", 12, 1, "Pinned – Return Table only", "s000:525"),
    ("pl25", "patrol-return", 13, 2, "Broken – Return Table only", "s000:528"),
    ("pl25", "redeployment", 0, 1, "Isolated, >6 hexes from nearest FMLR", "s000:704"),
    ("pl25", "redeployment", 3, 2, "unit is in Enemy MLR", "s000:710"),
    ("pl25", "redeployment", 5, -1, "Inside/Adjacent to friendly MLR", "s000:714"),
    ("pl25", "battlefield-promotion", 0, -1, "won this CG Firefight", "s000:807"),
    ("pl25", "battlefield-promotion", 1, -1, "per 20 CVP amassed", "s000:811"),
    ("pl25", "elr-change", 0, -1, "won last CG Firefight", "s000:836"),
    ("pl25", "elr-change", 1, -2, "Elite Infantry Pltn", "s000:839"),
    ("pl25", "elr-change", 2, -1, "1st Line Infantry Pltn", "s000:842"),
    ("pl25", "elr-change", 3, 2, "selected an Attack Option in the previous CG Firefight", "s000:845"),
    ("pl25", "elr-change", 4, 1, "without an Idle CG Firefight", "s000:848"),
    ("pl25", "fortification-clearance", 0, 1, "Panji/Minefield/Wire/Entrenchment", "s000:871"),
    ("pl25", "fortification-clearance", 2, 1, "in a Water Hex", "s000:875"),
    ("pl25", "fortification-clearance", 3, -1, "three non-Isolated Assault Engineer squads", "s000:877"),
    ("rr", "escape", 0, -1, "lone, un", "s001:120"),
    ("rr", "escape", 1, -1, "CT AFV", "s001:121"),
    ("rr", "escape", 2, -1, "CG Date is Night*", "s001:122"),
    ("rr", "escape", 3, None, "-2 if adjacent to (-1 if two hexes away from)", "s001:123"),
    ("rr", "escape", 5, 1, "enemy Setup Area", "s001:125"),
    ("rr", "escape", 6, 1, "HS-equivalent > one HS", "s001:126"),
    ("rr", "escape", 7, 1, "PP > IPC", "s001:127"),
    ("rr", "escape", 8, 1, "unarmed or Wounded", "s001:128"),
    ("rr", "escape", 9, 1, "Captured vehicle", "s001:128"),
    ("rr", "escape", 10, 1, "stunned", "s001:128"),
    ("rr", "escape", 11, 2, "Encircled*", "s001:128"),
    ("rr", "escape", 12, 2, "Isolated", "s001:128"),
    ("rr", "wounded-leader", 0, 1, "Isolated", "s001:165"),
    ("rr", "wounded-leader", 1, -1, "Heroic", "s001:166"),
    ("rr", "shift", 0, -1, "road/path/open-ground", "s001:197"),
    ("rr", "shift", 1, 1, "every five Uncontrolled-Territory hexes", "s001:198"),
    ("rr", "immobilization-repair", 2, 1, "Front Line hex", "s001:219"),
    ("rr", "stun-recovery", 1, 1, "Captured", "s001:233"),
    ("rr", "weapon-repair", 0, -1, "vehicular-mounted", "s001:242"),
    ("rr", "weapon-repair", 1, -1, "FT MA", "s001:243"),
    ("rr", "weapon-repair", 3, 1, "Non-Qualified Use", "s001:245"),
    ("rr", "removal", 0, 2, "is in a Front-Line Hex", "s001:275"),
    ("rr", "removal", 1, 1, "ADJACENT to, but not in, a Front-Line Hex", "s001:276"),
    ("rr", "removal", 2, -1, "Assault Engineer HS-equivalent", "s001:277"),
    ("rr", "rg-strength", 0, -1, "Canadian", "s001:461"),
    ("rr", "company-leader", 0, 2, "Depleted", "s001:497"),
    ("rr", "company-leader", 1, -2, "Headquarters Pltn (2.42)", "s001:497"),
    ("rr", "platoon-leader", 0, 1, "Depleted", "s001:515"),
    ("rr", "recon", 1, -1, "Attacked in the previous CG Scenario", "s001:542"),
    ("phd", "tp-replenishment", 0, 1, "\"Attack\" Chit in the previous scenario", "s003:1309-1311"),
    ("phd", "tp-replenishment", 1, -1, "per 10 CVP (FRD) suffered", "s003:1312-1314"),
    ("phd", "redeployment", 1, 1, "on Wire [EXC: Behind friendly FEBA]", "s003:961"),
    ("phd", "redeployment", 3, 1, "Stun counter", "s003:963"),
    ("phd", "redeployment", 4, 2, "enemy FEBA", "s003:964"),
    ("phd", "redeployment", 7, -1, "Adjacent to friendly Front Line Hex", "s003:967"),
    ("phd", "redeployment", 8, -1, "Labor counter", "s003:968"),
    ("phd", "german-oba", 0, -1, "Attack Chit was selected", "s003:1518"),
    ("phd", "german-oba", 1, 1, "placed a FFE counter in prior", "s003:1520"),
    ("phd", "us-oba", 0, -1, "Attack Chit was selected", "s003:1529"),
    ("phd", "battlefield-promotion", 0, -1, "per 10 CVP (FRD) amassed", "s003:1100"),
    ("phd", "weapon-repair", 1, 1, "Ammunition shortage", "s003:1164"),
    ("phd", "weapon-repair", 3, -2, "Vehicular-mounted", "s003:1167"),
    ("phd", "baz-psk-ft-dc-repair", 0, 2, "Non-Qualified", "s003:1184"),
    ("phd", "captured-equipment", 0, 2, "Non-Qualified", "s003:1197"),
    ("phd", "immobilization-repair", 3, 1, "Front Line hex", "s003:1234"),
    ("phd", "fortification-clearance", 2, -1, "> 3 Pionerie/Engineer squads", "s003:1279"),
    ("phd", "leader", 0, -1, "Pionerie/Engineer Pl", "s003:1500"),
    ("er", "fpf-duration", 0, -1, "fourth turn", "s002:43"),
]


@pytest.mark.parametrize(
    ("system_id", "table_id", "index", "value", "words", "seed"),
    DRMS,
    ids=[f"{s}-{t}-{i}-{line}" for s, t, i, _, _, line in DRMS],
)
def test_each_drm_has_the_printed_sign_amount_and_wording(
    system_id: str, table_id: str, index: int, value: int | None, words: str, seed: str
) -> None:
    modifier = _table(system_id, table_id).modifiers[index]
    assert words in modifier.reason, seed
    if value is None:
        assert not isinstance(modifier.value, int), seed
    else:
        assert modifier.value == value, seed


def test_rr_escape_drms_marked_star_are_na_to_vehicles_and_no_others() -> None:
    """s001:122-130: "*" marks Night, HS-equivalent, PP > IPC and Encircled; "* NA to vehicle Escape attempt"."""
    table = _table("rr", "escape")
    na = [m.reason for m in table.modifiers if "vehicle" in m.na_for]
    assert na == [
        "-1 if current CG Date is Night*",
        "+1 per HS-equivalent > one HS using the same Escape DR*",
        "+1 per PP > IPC being carried (unit with most excess PP determines this DRM for a stack; "
        "a stacked Leader may combine to increase a MMC's EPC)*",
        "+2 if Encircled*",
    ]
    assert len(table.modifiers) == 13  # s001:120-128: thirteen DRM


def test_original_roll_effects_are_where_the_seeds_put_them() -> None:
    """s001:111 (Escape note 1: Original 2), s001:281 (Removal **: Original 6), s000:724 (Redeployment note 1), s000:881."""
    escape = _table("rr", "escape").original
    assert [(o.roll, o.columns) for o in escape] == [(2, ("infantry",))]
    assert [o.roll for o in _table("rr", "removal").original] == [6]
    assert [(o.roll, o.columns) for o in _table("pl25", "redeployment").original] == [(2, ("infantry",))]
    assert [o.roll for o in _table("pl25", "fortification-clearance").original] == [6]
    assert [o.roll for o in _table("phd", "fortification-clearance").original] == [6]


# =====================================================================================================================
# 5. RR RG charts — every row: cost, CG Date Max, CG Max, compositions, note letters
# =====================================================================================================================

# (side, id, cost, date max, cg max, notes, seed:line) — M1 is audited separately (interpreted cost).
RG_ROWS = [
    ("german", "I1", 28, 2, 4, "deLo", "s001:329"),
    ("german", "I2", 27, 2, 4, "deL", "s001:330"),
    ("german", "I3", 25, 1, 3, "deLo", "s001:331"),
    ("german", "I4", 14, 1, 1, "adelo", "s001:332"),
    ("german", "V1", 12, 3, 6, "cdgl", "s001:333"),
    ("german", "V2", 14, 1, 2, "cdglo", "s001:334"),
    ("german", "V3", 21, 3, 8, "dlo", "s001:335"),
    ("german", "V4", 25, 1, 1, "dlo", "s001:336"),
    ("german", "V5", 11, 2, 6, "dl", "s001:337"),
    ("german", "V6", 8, 2, 2, "d", "s001:338"),
    ("german", "G1", 8, 1, 2, "bd", "s001:339"),
    ("german", "G2", 13, 1, 2, "bdf", "s001:340"),
    ("german", "G3", 11, 1, 2, "bdf", "s001:341"),
    ("german", "HW1", 12, 1, 3, "bdo", "s001:342"),
    ("german", "O1", 5, 1, 6, "mp", "s001:343"),
    ("german", "O2", 8, 1, 3, "p", "s001:344"),
    ("german", "O3", 7, 1, 3, "p", "s001:345"),
    ("german", "O4", 9, 1, 3, "p", "s001:346"),
    ("german", "M2", 2, 1, 8, "", "s001:348"),
    ("german", "M3", 3, 1, 8, "r", "s001:349"),
    ("german", "M4", 2, 1, 6, "", "s001:350"),
    ("canadian", "I1", 20, 2, 4, "deLo", "s001:371"),
    ("canadian", "I2", 5, 1, 2, "", "s001:372"),
    ("canadian", "I3", 10, 1, 1, "adelo", "s001:373"),
    ("canadian", "V1", 14, 1, 1, "dlo", "s001:374-378"),
    ("canadian", "V2", 13, 1, 1, "dlo", "s001:379-383"),
    ("canadian", "V3", 15, 1, 2, "do", "s001:384-390"),
    ("canadian", "V4", 4, 2, 2, "dh", "s001:391"),
    ("canadian", "G1", 6, 3, 6, "bd", "s001:392"),
    ("canadian", "G2", 10, 2, 4, "bd", "s001:393"),
    ("canadian", "HW1", 10, 1, 3, "bdo", "s001:394"),
    ("canadian", "O1", 3, 1, 8, "mp", "s001:395-397"),
    ("canadian", "O2", 6, 1, 5, "p", "s001:398"),
    ("canadian", "O3", 5, 1, 5, "p", "s001:399"),
    ("canadian", "M2", 2, 1, 8, "", "s001:401"),
    ("canadian", "M3", 3, 1, 8, "r", "s001:402"),
    ("canadian", "F1", 2, 1, 5, "", "s001:403"),
]


@pytest.mark.parametrize(
    ("side", "rg_id", "cost", "date_max", "cg_max", "notes", "seed"),
    RG_ROWS,
    ids=[f"{side}-{rg}-{line}" for side, rg, *_, line in RG_ROWS],
)
def test_rr_rg_row_cost_maxima_and_note_letters_are_as_printed(
    side: str, rg_id: str, cost: int, date_max: int, cg_max: int, notes: str, seed: str
) -> None:
    row = _system("rr").rg_chart(side).row(rg_id)
    assert (_number(row.cost), _number(row.date_max), _number(row.cg_max)) == (cost, date_max, cg_max), seed
    assert sorted(row.notes) == sorted(notes), seed


# (side, id, full, depleted, seed:line) as "count unit" strings.
RG_COMPOSITIONS = [
    ("german", "I1", ["10 5-4-8"], ["7 5-4-8"], "s001:329"),
    ("german", "I2", ["10 4-6-8", "4 SPW 251/1"], ["7 4-6-8", "2 SPW 251/1"], "s001:330"),
    ("german", "I3", ["10 4-6-7", "3 SPW 251/1"], ["7 4-6-7", "2 SPW 251/1"], "s001:331"),
    ("german", "I4", ["3 8-3-8"], ["2 8-3-8"], "s001:332"),
    ("german", "V5", ["2 JgdPz V"], ["1 JgdPz V"], "s001:337"),
    ("german", "HW1", ["2 HMG", "2 MMG"], [], "s001:342"),
    ("canadian", "I1", ["5 4-5-8", "5 4-5-7"], ["3 4-5-8", "4 4-5-7"], "s001:371"),
    ("canadian", "I2", ["3 4-5-7"], [], "s001:372"),
    ("canadian", "V1", ["1 Sherman IIC(a)", "3 Sherman III(a)"], ["1 Sherman IIC(a)", "2 Sherman III(a)"], "s001:374-378"),
    ("canadian", "V3", ["3 Wasp", "2 Carrier A", "1 Carrier C"], ["2 Wasp", "1 Carrier A", "1 Carrier C"], "s001:384-390"),
    ("canadian", "V4", ["10 Ram Kangaroo"], ["7 Ram Kangaroo"], "s001:391"),
    ("canadian", "HW1", ["4 MMG"], [], "s001:394"),
]


@pytest.mark.parametrize(
    ("side", "rg_id", "full", "depleted", "seed"),
    RG_COMPOSITIONS,
    ids=[f"{side}-{rg}-{line}" for side, rg, _, _, line in RG_COMPOSITIONS],
)
def test_rr_rg_full_and_depleted_compositions_are_as_printed(
    side: str, rg_id: str, full: list[str], depleted: list[str], seed: str
) -> None:
    row = _system("rr").rg_chart(side).row(rg_id)
    assert [f"{_number(u.count)} {u.unit}" for u in row.full] == full, seed
    assert [f"{_number(u.count)} {u.unit}" for u in row.depleted] == depleted, seed


def test_rr_rg_charts_have_exactly_the_printed_ids_in_order() -> None:
    """s001:329-350 (German, 22 rows) and s001:371-403 (Canadian, 17 rows)."""
    rr = _system("rr")
    assert [r.id for r in rr.rg_chart("german").rows] == [
        "I1", "I2", "I3", "I4", "V1", "V2", "V3", "V4", "V5", "V6", "G1", "G2", "G3", "HW1",
        "O1", "O2", "O3", "O4", "M1", "M2", "M3", "M4"]
    assert [r.id for r in rr.rg_chart("canadian").rows] == [
        "I1", "I2", "I3", "V1", "V2", "V3", "V4", "G1", "G2", "HW1", "O1", "O2", "O3", "M1", "M2", "M3", "F1"]


def test_rr_sw_allocation_and_rg_note_numbers() -> None:
    """s001:465-477 SW allocation; note f (G2+G3 max 2, s001:358); note o (+3, +8 for companies); note p (+1, ≤2)."""
    rr = _system("rr")
    german, canadian = rr.rg_chart("german"), rr.rg_chart("canadian")
    assert dict(german.row("I1").sw) == {"LMG": 3, "PSK": 1}
    assert dict(german.row("I3").sw) == {"LMG": 3}
    assert dict(german.row("I4").sw) == {"DC": 3}
    assert dict(canadian.row("I1").sw) == {"LMG": 3, "PIAT": 2, "51mm MTR": 1}
    assert dict(canadian.row("I3").sw) == {"DC": 3}
    assert [(c.ids, c.max) for c in german.combined_max] == [(("G2", "G3"), 2)]
    for chart in (german, canadian):
        assert (chart.notes["o"].on_map_surcharge, chart.notes["o"].on_map_surcharge_company) == (3, 8)
        pre = chart.notes["p"].pre_registered
        assert pre is not None and (pre.cost, pre.max) == (1, 2)
        assert chart.notes["r"].extra_max == 3
        assert chart.notes["d"].depletable


# =====================================================================================================================
# 6. RR calendar: base numbers (2.5161), EC, weather, moon (2.517)
# =====================================================================================================================

# (id, canadian, german, EC, weather, moon, seed lines base/weather)
RR_DATES = [
    ("19 AM", 0, 0, "Wet/Soft Ground", "Overcast", "-", "s001:288/306"),
    ("19 PM", 40, 80, "Wet/Soft Ground", "Overcast", "-", "s001:289/307"),
    ("19 Night", 25, 80, "Wet/Soft Ground", "Overcast", "Overcast", "s001:290/308"),
    ("20 AM", 40, 60, "Wet", "Overcast/V. Heavy Mist*", "-", "s001:291/309-311"),
    ("20 PM", 40, 75, "Moist", "Overcast", "-", "s001:292/312"),
    ("20 Night", 25, 75, "Moist", "Overcast", "Overcast", "s001:293/313"),
    ("21 AM", 40, 40, "Moist", "Clear", "-", "s001:294/314"),
    ("21 PM", 40, 40, "Moist", "Clear", "-", "s001:295/315"),
    ("21 Night", 25, 40, "Moist", "Clear", "Half-Moon/No Cloud", "s001:296/316"),
    ("Interlude AM", 40, 40, "Moist", "Clear", "-", "s001:297/317"),
    ("Interlude PM", 40, 40, "Moist", "Clear", "-", "s001:298/318"),
    ("Interlude Night", 50, 40, "Moist", "Clear", "Half-Moon/No Cloud", "s001:299/319"),
    ("26 AM", 25, 50, "Moist", "Clear", "-", "s001:300/320"),
]


@pytest.mark.parametrize(
    ("entry_id", "canadian", "german", "ec", "weather", "moon", "seed"),
    RR_DATES,
    ids=[f"{e}-{line}" for e, *_, line in RR_DATES],
)
def test_rr_calendar_base_numbers_and_weather_are_as_printed(
    entry_id: str, canadian: int, german: int, ec: str, weather: str, moon: str, seed: str
) -> None:
    entry = _system("rr").calendar_entry(entry_id)
    assert (_number(entry.base_numbers["canadian"]), _number(entry.base_numbers["german"])) == (canadian, german), seed
    assert entry.ec is not None and entry.weather is not None and entry.moon is not None
    assert (entry.ec.text, entry.weather.text, entry.moon.text) == (ec, weather, moon), seed
    assert entry.night == entry_id.endswith("Night"), seed


def test_rr_calendar_order_and_the_19_am_no_roll_exception() -> None:
    """s001:283 "[EXC: no DR is made for 19AM]"; s001:288-300 the thirteen CG Dates in order."""
    rr = _system("rr")
    assert [e.id for e in rr.calendar] == [d[0] for d in RR_DATES]
    assert [e.id for e in rr.calendar if not e.replenishment_roll] == ["19 AM"]


# =====================================================================================================================
# 7. Step lists: refs, names, markers, order
# =====================================================================================================================


def test_rr_reph_sequence_refs_names_and_markers_are_as_listed() -> None:
    """s001:5-29 RePh Sequence."""
    expected = [
        ("2.501", "Conclusion of Melee", set()),
        ("2.502", "Marker Removal", set()),
        ("2.503", "Rally, Unloading, CG Scenario End, and CG-LVP Totals", {"*", "†"}),
        ("2.504", "Encirclement, Minefields, Shock, and Bog", set()),
        ("2.505", "Setup Area Determination", set()),
        ("2.506", "Escape", set()),
        ("2.507", "Equipment Possession and Hidden Fortifications", set()),
        ("2.508", "Prisoners", set()),
        ("2.509", "Extinguishing Flames and Blazes", set()),
        ("2.510", "Wounded Leaders", set()),
        ("2.511", "Recombining and Battle Hardening", set()),
        ("2.512", "New CG Date and SAN Adjustment", {"*"}),
        ("2.513", "Shift", {"*"}),
        ("2.514", "Equipment Repair and Replenishment", {"*"}),
        ("2.515", "Fortification, Wreck, and Immobile Vehicle Removal", {"*"}),
        ("2.516", "CPP Replenishment", {"*"}),
        ("2.517", "Weather Determination", {"*"}),
        ("2.518", "Purchasing Reinforcement Groups", {"*", "††"}),
        ("2.519", "RG Strength, Weapons, and Leaders", {"*", "††"}),
        ("2.520", "Purchasing Fortifications", {"*", "††"}),
        ("2.521", "Purchasing Reconnaissance", {"*"}),
        ("2.522", "Initiative Determination", {"*"}),
        ("2.523", "Scenario Commencement", set()),
    ]
    steps = [(s.ref, s.name, set(s.markers)) for s in _system("rr").steps]
    assert steps[: len(expected)] == expected
    # s001:576 2.52322 (the second half of 2.5232 Unit Setup, its own step: issue 14 item 8), s001:578, 580
    assert [s.ref for s in _system("rr").steps[len(expected):]] == ["2.52322", "2.524", "2.525"]
    # "*" steps repeat on an Idle Date; "††" steps are the only ones before a CG Initial Scenario.
    for step in _system("rr").steps:
        assert step.loop_on_idle == ("*" in step.markers), step.ref
        assert step.initial == ("††" in step.markers), step.ref


def test_pl25_step_order_follows_the_rule_numbers() -> None:
    """s000:140-594 (2.1-2.9) and s000:600-883 (3.11-3.52): steps appear in the printed order."""
    refs = [s.ref for s in _system("pl25").steps]
    expected_in_order = ["2.1", "2.2", "2.3", "2.31", "2.35", "2.36", "2.38", "2.4", "2.41", "2.5", "2.6", "2.7",
                         "2.8", "2.9", "3.11", "3.12", "3.121", "3.13", "3.131", "3.14", "3.15", "3.16", "3.17",
                         "3.171", "3.18", "3.19", "3.2", "3.214", "3.215", "3.216", "3.217", "3.218", "3.22", "3.23",
                         "3.24", "3.241", "3.25", "3.31", "3.311", "3.32", "3.33", "3.34", "3.41", "3.42", "3.43",
                         "3.44", "3.45", "3.46", "3.461", "3.47", "3.51", "3.52"]
    assert refs == expected_in_order
    # s000:435 Idle Firefight: "Perform steps 3.41, 3.46, 3.461 and 3.52".
    idle = _system("pl25").idle
    assert idle is not None and idle.steps == ("3.41", "3.46", "3.461", "3.52")
    assert not _system("pl25").step("2.1").initial  # s000:140 "The Initial Firefight ... begins ... at step 2.2"
    assert _system("pl25").step("2.2").initial


def test_phd_consolidation_steps_run_c5_1_to_c5_41_in_order() -> None:
    """s003:690-694 C5.0 "the following steps (C5.1-C5.41)"."""
    assert [s.ref for s in _system("phd").steps] == [f"C5.{n}" for n in range(1, 42)]


# =====================================================================================================================
# 8. Fortification tables
# =====================================================================================================================


def _fort(system_id: str, fort_type: str):  # type: ignore[no-untyped-def]
    fortifications = _system(system_id).fortifications
    assert fortifications is not None
    return next(r for r in fortifications.rows if r.type == fort_type)


FIXED_FORT_COSTS = [
    ("rr", "Trench", 7, "s001:524"),
    ("rr", "Wire", 15, "s001:528"),
    ("rr", "Fortified Building Location", 10, "s001:529"),
    ("rr", "\"?\"", 1, "s001:530"),
    ("pl25", "Sangar", 2, "s000:352-353"),
    ("pl25", "\"?\"", 1, "s000:361-362"),
    ("pl25", "Roadblock", 12, "s000:371-372"),
    ("pl25", "Wire", 10, "s000:376-377"),
    ("pl25", "Tunnel", 20, "s000:391-392"),
    ("pl25", "Booby Traps", 15, "s000:396-397"),
    ("pl25", "A-T Ditch", 18, "s000:349-350"),
    ("pl25", "Set DC (A23.7)", 25, "s000:363-364"),
    ("pl25", "Cave", 15, "s000:378-379"),
    ("pl25", "Cave Complex", 7, "s000:383-384"),
    ("pl25", "Tetrahedrons", 15, "s000:388-389"),
    ("pl25", "Trip Flares", 1, "s000:398-399"),
    ("phd", "Trench", 5, "s003:1546"),
    ("phd", "Roadblock", 5, "s003:1549"),
]


@pytest.mark.parametrize(
    ("system_id", "fort_type", "cost", "seed"),
    FIXED_FORT_COSTS,
    ids=[f"{s}-{t}-{line}" for s, t, _, line in FIXED_FORT_COSTS],
)
def test_fixed_fortification_costs_are_as_printed(system_id: str, fort_type: str, cost: int, seed: str) -> None:
    row = _fort(system_id, fort_type)
    assert row.cost.kind == "fixed", seed
    assert _number(row.cost.amount) == cost, seed


def test_multi_part_fortification_costs_are_as_printed() -> None:
    """RR s001:525,526,527,531; PL s000:347-348, 354-359, 366-369, 381-382, 393-394; PHD s003:1545, 1548."""
    def by(system_id: str, fort_type: str) -> dict[str, int | float]:
        return {k: _number(v) for k, v in _fort(system_id, fort_type).cost.by.items()}

    assert by("rr", "Foxhole") == {"3": 3, "2": 2, "1": 1}
    assert by("rr", "HIP") == {"squad": 3, "hs": 2, "crew": 1, "smc": 1}
    assert _number(_fort("rr", "A-P Mine Factor").cost.amount) == 1.5
    assert _number(_fort("rr", "A-T Mine Factor").cost.amount) == 4
    assert by("pl25", "Foxhole") == {"3": 3, "2": 2, "1": 1}
    assert by("pl25", "HIP") == {"afv": 5, "squad": 3, "hs": 2, "crew": 2, "smc": 1}
    assert _number(_fort("pl25", "A-P Mine").cost.amount) == 2
    assert _number(_fort("pl25", "A-T/A-B Mine").cost.amount) == 5
    assert _number(_fort("pl25", "Panji").cost.amount) == 2
    known = _fort("pl25", "Known Minefield").cost
    assert (_number(known.amount), known.rounding) == (0.8, "up")
    assert _fort("pl25", "Dummy Minefield").cost.reference == "F.7B"
    assert by("phd", "Foxhole") == {"3": 3, "2": 2, "1": 1}
    assert by("phd", "HIP") == {"afv": 5, "squad": 3, "hs": 2, "crew": 2, "smc": 1}


def test_fortification_flags_follow_the_printed_marks() -> None:
    """RR "Gi" (German only, Initial only) s001:524,526,528; PL "S" (Initial only) and "I" (Isolated) s000:347-399."""
    for fort_type in ("Trench", "A-P Mine Factor", "Wire"):
        row = _fort("rr", fort_type)
        assert (row.sides, row.initial_only) == (("german",), True), fort_type
    for fort_type in ("Foxhole", "HIP", "Fortified Building Location", "\"?\""):
        row = _fort("rr", fort_type)
        assert (row.sides, row.initial_only) == ((), False), fort_type
    initial_only = {"A-T Ditch", "Known Minefield", "Cave", "Pillbox", "Cave Complex", "Tetrahedrons", "Tunnel", "Panji"}
    isolated_ok = {"Foxhole", "Sangar", "\"?\"", "Fortified Building"}
    fortifications = _system("pl25").fortifications
    assert fortifications is not None
    assert {r.type for r in fortifications.rows if r.initial_only} == initial_only
    assert {r.type for r in fortifications.rows if r.isolated_ok} == isolated_ok


# =====================================================================================================================
# 9. Initiative matrices, dual-attack rolls, chit limits; setup costs; limits
# =====================================================================================================================

MATRICES = [
    # (system, axis choice, allied choice, label, setup first, moves first, seed:line)
    ("rr", Chit.ATTACK, Chit.ATTACK, "Dual Attack", None, None, "s001:553"),
    ("rr", Chit.ATTACK, Chit.IDLE, "German Assault", "canadian", "german", "s001:553, 2.5223c"),
    ("rr", Chit.IDLE, Chit.ATTACK, "Canadian Assault", "german", "canadian", "s001:554, 2.5223d"),
    ("rr", Chit.IDLE, Chit.IDLE, "Idle Date", None, None, "s001:554"),
    ("phd", Chit.ATTACK, Chit.ATTACK, "Dual Attack", None, None, "s003:1621"),
    ("phd", Chit.ATTACK, Chit.IDLE, "German Attack", "us", "german", "s003:1621, 1635"),
    ("phd", Chit.IDLE, Chit.ATTACK, "US Attack", "german", "us", "s003:1622, 1634"),
    ("phd", Chit.IDLE, Chit.IDLE, "Lull Date", None, None, "s003:1622"),
    ("pl25", Chit.ATTACK, Chit.IDLE, "Axis Assault", "allied", "axis", "s000:433"),
    ("pl25", Chit.IDLE, Chit.ATTACK, "Allied Assault", "axis", "allied", "s000:431"),
]


@pytest.mark.parametrize(
    ("system_id", "axis", "allied", "label", "setup_first", "moves_first", "seed"),
    MATRICES,
    ids=[f"{s}-{a.value}-{b.value}" for s, a, b, *_ in MATRICES],
)
def test_initiative_matrix_cells_are_as_printed(
    system_id: str, axis: Chit, allied: Chit, label: str, setup_first: str | None, moves_first: str | None, seed: str
) -> None:
    initiative = _system(system_id).initiative
    assert initiative is not None
    cell = initiative.matrix[(axis, allied)]
    assert (cell.label, cell.setup_first, cell.moves_first) == (label, setup_first, moves_first), seed


def test_dual_attack_rolls_are_as_written() -> None:
    """RR s001:558 "if ≤ 3 the Canadian does", s001:580 "On a dr > 4 the Canadian player moves first";
    PL s000:429 "if 1-3 the Axis do; otherwise the Allies do" (both rolls); PHD s003:1637-1641 "< 3" / "> 4" read as the
    PHD tables read "<" / ">" (≤ / ≥)."""
    def winners(system_id: str, which: str) -> list[str]:
        initiative = _system(system_id).initiative
        assert initiative is not None
        roll = initiative.dual_attack_setup if which == "setup" else initiative.dual_attack_move
        assert roll is not None
        return [roll.winner(dr).result for dr in range(1, 7)]

    assert winners("rr", "setup") == ["canadian"] * 3 + ["german"] * 3
    assert winners("rr", "move") == ["german"] * 4 + ["canadian"] * 2
    assert winners("pl25", "setup") == ["axis"] * 3 + ["allied"] * 3
    assert winners("pl25", "move") == ["axis"] * 3 + ["allied"] * 3
    # PHD: one reading for the whole file (issue 14 item 11): its tables read "<N" as ≤N and ">N" as ≥N (the OCR lost
    # the glyphs), so "< 3" is 1-3 and "> 4" is 4-6, both flagged verify
    assert winners("phd", "setup") == ["german"] * 3 + ["us"] * 3
    assert winners("phd", "move") == ["german"] * 3 + ["us"] * 3


def test_rr_attack_chit_limits() -> None:
    """s001:548 "The Canadians are limited to 2 Attack Chits and the Germans are limited to 6"; Initial not counted."""
    initiative = _system("rr").initiative
    assert initiative is not None
    assert dict(initiative.chit_limits) == {"canadian": 2, "german": 6}
    assert initiative.initial_counts is False


def test_pl25_setup_costs_are_as_printed() -> None:
    """s000:238-252: I +1/-1, G 0/-1, A and V +2/-1; minimum one (s000:236)."""
    costs = _system("pl25").setup_costs
    assert costs is not None and costs.minimum == 1
    modes = {m.mode: m for m in costs.modes}
    assert {k: _number(modes["on-map"].by_type[k]) for k in "IGAV"} == {"I": 1, "G": 0, "A": 2, "V": 2}
    assert {k: _number(modes["reserve"].by_type[k]) for k in "IGAV"} == {"I": -1, "G": -1, "A": -1, "V": -1}


def test_limits_are_as_printed() -> None:
    """PL s000:220 (3 platoons), s000:222 (patrols 1/2/3), s000:905 (2 OBA), s000:907 (1 Bombardment), s000:407 (HIP
    10% FRD); RR s001:533 (HIP 10%/35% FRU), s001:541 (x ≤ 3); PHD s003:1576 (30 DSP), s003:521-523 (2 OBA);
    KGP s004:154 (Fanaticism 2, CG II once); ER s002:33 (two Snipers)."""
    def limit(system_id: str, limit_id: str):  # type: ignore[no-untyped-def]
        return next(item for item in _system(system_id).limits if item.id == limit_id)

    assert _number(limit("pl25", "infantry-platoons").max) == 3
    assert {k: _number(v) for k, v in limit("pl25", "patrols").by_choice.items()} == {"low": 1, "mid": 2, "high": 3}
    assert _number(limit("pl25", "oba-modules").max) == 2
    assert _number(limit("pl25", "bombardment").max) == 1
    assert (_number(limit("pl25", "hip").percent), limit("pl25", "hip").rounding) == (10, "down")
    assert (_number(limit("rr", "hip-day").percent), limit("rr", "hip-day").rounding) == (10, "up")
    assert (_number(limit("rr", "hip-night-defender").percent), limit("rr", "hip-night-defender").rounding) == (35, "up")
    assert _number(limit("rr", "recon-extra-cpp").max) == 3
    assert _number(limit("phd", "mines-dsp").max) == 30
    assert _number(limit("phd", "oba-modules").max) == 2
    assert (_number(limit("phd", "hip").percent), limit("phd", "hip").rounding) == (10, "down")
    assert {k: _number(v) for k, v in limit("kgp", "german-fanaticism").by_choice.items()} == {"I": 2, "II": 1, "III": 2}
    assert _number(limit("kgp", "oba-modules").max) == 2
    assert _number(limit("er", "snipers").max) == 2


def test_phd_weather_table_is_as_printed() -> None:
    """s003:1330-1335 WEATHER TABLE (TIME, EC, WEATHER, WIND)."""
    expected = [("I", "0600-hrs", "Moist", "Mist"), ("II", "0930-hrs", "Moderate", "Overcast"),
                ("III", "1230-hrs", "Moderate", "Clear"), ("IV", "1530-hrs", "Moderate", "Clear"),
                ("V", "1930-hrs", "Moderate", "Clear")]
    got = []
    for entry in _system("phd").calendar:
        assert entry.ec is not None and entry.weather is not None and entry.wind is not None
        assert entry.wind.text == "None"
        got.append((entry.id, entry.time, entry.ec.text, entry.weather.text))
    assert got == expected
