"""Golden tests for fixtures/phd.yaml: values typed by hand from seed 003 (Purple Heart Draw, Tactical Mission).

Lost cells must stay lost: the TP table's gaps are NOT filled from the pattern of the legible cells.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.errors import MissingValueError
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.vocabulary import Chit, DiceKind, Provenance

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "phd.yaml"


@pytest.fixture(scope="module")
def phd() -> System:
    return parse_system(FIXTURE.read_text(encoding="utf-8"), "fixtures/phd.yaml")


# --------------------------------------------------------------------------------------------------------------------
# C5.29 TP Replenishment Table (Final DR | GERMAN | US)
# --------------------------------------------------------------------------------------------------------------------

TP_LEGIBLE = [  # (final, column, value) printed plainly
    (2, "german", 25),
    (3, "us", 34),
    (5, "us", 32),
    (7, "german", 20),
    (7, "us", 30),
    (9, "german", 18),
    (9, "us", 28),
    (11, "german", 16),
    (11, "us", 26),
]

TP_INTERPRETED = [  # (final, column, value, as written): a leading "+" OCR'd as "4"
    (2, "us", 35, "435"),
    (3, "german", 24, "424"),
    (5, "german", 22, "422"),
]

TP_LOST = [(final, column) for final in (4, 6, 8, 10, 12) for column in ("german", "us")]


@pytest.mark.parametrize(("final", "column", "value"), TP_LEGIBLE)
def test_tp_replenishment_legible_cells_are_as_printed(phd: System, final: int, column: str, value: int) -> None:
    cell = phd.table("tp-replenishment").cell(final, column)
    assert cell.value == value
    assert cell.provenance is Provenance.LEGIBLE


@pytest.mark.parametrize(("final", "column", "value", "as_written"), TP_INTERPRETED)
def test_tp_replenishment_misread_plus_signs_are_interpreted_and_flagged(
    phd: System, final: int, column: str, value: int, as_written: str
) -> None:
    cell = phd.table("tp-replenishment").cell(final, column)
    assert (cell.value, cell.as_written) == (value, as_written)
    assert cell.provenance is Provenance.INTERPRETED
    assert cell.verify is True


@pytest.mark.parametrize(("final", "column"), TP_LOST)
def test_tp_replenishment_lost_cells_stay_missing_and_name_the_value_needed(
    phd: System, final: int, column: str
) -> None:
    label = {"german": "GERMAN", "us": "US"}[column]
    with pytest.raises(MissingValueError) as caught:
        phd.table("tp-replenishment").cell(final, column)
    message = str(caught.value)
    assert "tp-replenishment" in message
    assert label in message
    assert f"DR {final}" in message


def test_tp_replenishment_lost_cells_are_not_filled_from_the_pattern(phd: System) -> None:
    table = phd.table("tp-replenishment")
    for final in (4, 6, 8, 10, 12):
        row = table.row_for(final)
        assert row.label_missing is not None or all(c.missing for c in row.cells), final
        assert all(c.value is None for c in row.cells), final


def test_tp_replenishment_edges_and_drm(phd: System) -> None:
    table = phd.table("tp-replenishment")
    assert table.cell(-2, "german").value == 25
    assert table.cell(1, "us").value == 35
    with pytest.raises(MissingValueError, match="US"):
        table.cell(16, "us")  # beyond the last row, whose values are lost
    assert [c.label for c in table.columns] == ["GERMAN", "US"]
    assert (table.row_for(2).label, table.row_for(2).edge_interpreted) == ("<2", True)
    assert table.row_for(8).label is None and table.row_for(8).label_missing is not None
    assert table.row_for(13).label_missing is not None
    assert table.secret is True and table.ref == "C5.29"
    mods = table.modifiers
    assert (mods[0].value, mods[0].when) == (1, "own_attack_previous")
    assert mods[1].value == -1 and mods[1].per is not None
    assert (mods[1].per.fact, mods[1].per.every, mods[1].per.rounding) == ("cvp_suffered_previous", 10, "down")


def test_a_card_can_supply_one_lost_tp_cell_and_the_others_stay_lost(phd: System) -> None:
    card = """
format: refit-cg/1
kind: cg-card
id: my-printed-chart
extends: phd
name: "My printed PHD chart (test)"
supply:
  - {table: tp-replenishment, row: 4, column: us, value: 99, note: "test value, not a rule value"}
"""
    filled = parse_card(card, "test-card.yaml", phd)
    table = filled.table("tp-replenishment")
    assert table.cell(4, "us").value == 99 and table.cell(4, "us").supplied
    with pytest.raises(MissingValueError, match="GERMAN"):
        table.cell(4, "german")
    with pytest.raises(MissingValueError):
        phd.table("tp-replenishment").cell(4, "us")  # the base system is unchanged


# --------------------------------------------------------------------------------------------------------------------
# C5.14 Redeployment Table
# --------------------------------------------------------------------------------------------------------------------


def test_redeployment_legible_rows(phd: System) -> None:
    table = phd.table("redeployment")
    assert table.cell(9, "infantry").text == "Redeploys"
    assert table.cell(3, "vehicle").text == "Redeploys"
    assert table.cell(12, "infantry").text == "Remains in hex, Reduced³"
    assert table.cell(13, "infantry").text == "Remains in hex, Reduced³"
    assert table.cell(14, "infantry").text == "Eliminated"
    assert table.cell(18, "infantry").text == "Eliminated"


def test_redeployment_garbled_cells_are_interpreted_with_their_printed_text(phd: System) -> None:
    table = phd.table("redeployment")
    cases = [
        (11, "infantry", "Redeploys, Reduced", "Redeploys, Reduced *"),
        (11, "vehicle", "Remains in hex", "Remains in hex®™ &"),
        (12, "vehicle", "Eliminated CS NA", "Ellmlnated CSNA s"),
        (14, "vehicle", "Eliminated, CS NA", "Eliminated, GSNA®"),
    ]
    for final, column, value, as_written in cases:
        cell = table.cell(final, column)
        assert (cell.value, cell.as_written, cell.provenance) == (value, as_written, Provenance.INTERPRETED)


def test_redeployment_row_labels_as_written(phd: System) -> None:
    table = phd.table("redeployment")
    assert [r.label for r in table.rows] == ["29", None, "/117", "12-13", "S"]
    assert [(r.min, r.max) for r in table.rows] == [(None, 9), (10, 10), (11, 11), (12, 13), (14, None)]
    assert table.rows[0].verify and table.rows[4].verify


def test_redeployment_row_10_label_is_lost_so_a_roll_there_is_refused(phd: System) -> None:
    table = phd.table("redeployment")
    with pytest.raises(MissingValueError, match="redeployment"):
        table.cell(10, "infantry")
    assert [c.text for c in table.row_for(10).cells] == ["Redeploys, Replaced", "Redeploys"]


def test_redeployment_drm_as_printed(phd: System) -> None:
    table = phd.table("redeployment")
    assert [(m.reason, m.value) for m in table.modifiers] == [
        ("+1 Unit is Isolated", 1),
        ("+1 Infantry unit is on Wire [EXC: Behind friendly FEBA]", 1),
        ("+1 Unit is in No-Man's Land", 1),
        ("+1 Unit marked with Stun counter", 1),
        ("+2 Unit is in enemy FEBA", 2),
        ("+1 per HS equivalent > one squad using the same Redeployment DR", 1),
        ("+1 per PP > IPC of Redeploying unit *", 1),
        ("-1 Adjacent to friendly Front Line Hex", -1),
        ("-1 Unit under Labor counter", -1),
        ("+/- Leadership (including Armour Leader)", None),
    ]
    assert table.modifiers[1].columns == ("infantry",)
    assert table.notes["5"] == "Place wreck in current location"
    assert [e.roll for e in table.original] == [2]


# --------------------------------------------------------------------------------------------------------------------
# C5.34 Offboard Artillery Tables
# --------------------------------------------------------------------------------------------------------------------


def test_german_oba_only_the_normal_row_is_legible(phd: System) -> None:
    table = phd.table("german-oba")
    for final in (4, 6, 9):
        cell = table.cell(final)
        assert (cell.value, cell.as_written, cell.provenance) == ("Normal", "Normai", Provenance.INTERPRETED)
    for final in (1, 3, 10, 14):
        with pytest.raises(MissingValueError, match="german-oba"):
            table.cell(final)
    assert [m.value for m in table.modifiers] == [-1, 1]
    assert table.modifiers[0].reason == "-1 Attack Chit was selected"
    assert table.modifiers[0].when == "attack_option_purchased_now"


def test_us_oba_rows_as_printed(phd: System) -> None:
    table = phd.table("us-oba")
    assert table.cell(6).text == "Plentiful" and table.cell(2).text == "Plentiful"
    assert table.cell(12).text == "Scarce" and table.cell(15).text == "Scarce"
    assert [r.label for r in table.rows] == ["=6", None, ">12"]
    with pytest.raises(MissingValueError, match="us-oba"):
        table.cell(9)  # the middle label is printed "?-]I": a user must confirm it
    assert table.row_for(9).cells[0].text == "Normal"
    assert table.modifiers[1].reason == "+1 If module placed an FFE counter in prior TM Scenario"


# --------------------------------------------------------------------------------------------------------------------
# C5.19 Leader Evacuation, C5.23 Battlefield Promotion, C5.24 Leader Promotion
# --------------------------------------------------------------------------------------------------------------------


def test_leader_evacuation_legible_and_lost_rows(phd: System) -> None:
    table = phd.table("leader-evacuation")
    assert table.dice is DiceKind.dr
    assert table.cell(1).text == "Retained Unwounded"
    assert table.cell(0).text == "Retained Unwounded"
    evacuated = table.cell(6)
    assert (evacuated.value, evacuated.as_written) == ("Evacuated (removed from play)", "Evacuated (removed from p]ay)")
    for final in (2, 3, 4, 5):
        with pytest.raises(MissingValueError, match="leader-evacuation"):
            table.cell(final)
    assert table.notes["*"].startswith("EXC: A wounded 6+1 is retained Unwounded")


def test_battlefield_promotion_legible_and_lost_rows(phd: System) -> None:
    table = phd.table("battlefield-promotion")
    assert table.cell(3).value == 2 and table.cell(4).value == 2
    assert table.cell(7).value == 0 and table.cell(11).value == 0
    assert table.row_for(2).cells[0].value == 3  # printed 3, but the row label is printed "hir"
    for final in (2, 5, 6):
        with pytest.raises(MissingValueError, match="battlefield-promotion"):
            table.cell(final)
    assert [m.reason for m in table.modifiers] == ["-1 per 10 CVP (FRD) amassed by friendly side in this scenario"]
    assert table.secret is True


def test_leader_promotion_legible_interpreted_and_lost_rows(phd: System) -> None:
    table = phd.table("leader-promotion")
    assert table.cell(3).text == "9-2"
    four = table.cell(4)
    assert (four.value, four.as_written, four.verify) == ("9-2", "92", True)
    assert table.cell(5).text == "8-1" and table.cell(6).text == "8-1"
    ten = table.cell(10)
    assert (ten.value, ten.as_written, ten.provenance) == ("7-0", "70", Provenance.INTERPRETED)
    assert table.cell(11).text == "7-0"
    for final in (2, 7, 8, 9, 12):
        with pytest.raises(MissingValueError, match="leader-promotion"):
            table.cell(final)


# --------------------------------------------------------------------------------------------------------------------
# C5.26–C5.28 repair and clearance tables
# --------------------------------------------------------------------------------------------------------------------

SMALL_TABLES = [
    ("weapon-repair", "=2", ">3", "Repaired", "Eliminated", 2),
    ("baz-psk-ft-dc-repair", "=3", "=4", "Repaired", "Eliminated", 3),
    ("captured-equipment", "- =3", ">4", "Retained", "Eliminated", 3),
    ("immobilization-repair", "<2", ">3", "Become Mobile", "No Change", 2),
]


@pytest.mark.parametrize(("table_id", "first_label", "last_label", "success", "failure", "edge"), SMALL_TABLES)
def test_two_row_dr_tables_are_as_printed(
    phd: System, table_id: str, first_label: str, last_label: str, success: str, failure: str, edge: int
) -> None:
    table = phd.table(table_id)
    assert table.dice is DiceKind.dr
    assert [r.label for r in table.rows] == [first_label, last_label]
    assert table.cell(edge).text == success
    assert table.cell(edge + 1).text == failure
    assert table.cell(-1).text == success and table.cell(8).text == failure


def test_repair_table_drm(phd: System) -> None:
    assert [m.value for m in phd.table("weapon-repair").modifiers] == [1, 1, 1, -2]
    assert phd.table("weapon-repair").modifiers[3].reason == "-2 If Vehicular-mounted"
    assert [m.value for m in phd.table("baz-psk-ft-dc-repair").modifiers] == [2]
    assert [m.value for m in phd.table("captured-equipment").modifiers] == [2]
    assert [m.reason for m in phd.table("immobilization-repair").modifiers] == [
        "+1 If only Non-Qualified use is possible",
        "+1 If Isolated",
        "+/- Per Armour Leader DRM",
        "+1 If in Front Line hex",
    ]


def test_fortification_clearance_is_as_printed(phd: System) -> None:
    table = phd.table("fortification-clearance")
    eliminated, no_effect = table.cell(3), table.cell(4)
    assert (eliminated.value, eliminated.as_written) == ("Eliminated¹", "E] i_l*ﬂ'il'lated__l")
    assert (no_effect.value, no_effect.as_written) == ("No Effect²", "No Effect?")
    assert [m.value for m in table.modifiers][:3] == [1, 1, -1]
    assert [e.roll for e in table.original] == [6]
    assert table.notes["1"] == "vs a Known Minefield, this result eliminates all mines in the location"


def test_the_leader_table_is_lost_everywhere(phd: System) -> None:
    table = phd.table("leader")
    for column in ("german", "us", "armour"):
        for final in (2, 7, 12):
            with pytest.raises(MissingValueError, match="leader") as caught:
                table.cell(final, column)
            assert table.column(column).label in str(caught.value)
    assert [m.reason for m in table.modifiers] == ["-1 Pionerie/Engineer Pl"]
    assert "leader" in {m.id for m in phd.missing_parts if m.part == "tables"}


# --------------------------------------------------------------------------------------------------------------------
# Structure
# --------------------------------------------------------------------------------------------------------------------


def test_conph_steps_c5_1_to_c5_41_in_order_with_the_new_scenario_split(phd: System) -> None:
    assert [s.ref for s in phd.steps] == [f"C5.{n}" for n in range(1, 42)]
    parts = [s.params["part"] for s in phd.steps]
    assert parts == ["post-scenario"] * 24 + ["new-scenario"] * 17


def test_step_flags(phd: System) -> None:
    assert phd.step("C5.29").secret == "roll" and phd.step("C5.29").initial is False
    assert phd.step("C5.29").tables == ("tp-replenishment",)
    assert phd.step("C5.31").secret == "purchase" and phd.step("C5.31").initial is True
    assert phd.step("C5.23").secret == "roll" and phd.step("C5.24").secret == "roll"
    assert phd.step("C5.33").secret == "roll"
    assert phd.step("C5.36").initial is False
    assert phd.step("C5.37").secret == "choice"
    assert phd.step("C5.12").initial_only is True
    assert phd.step("C5.14").order == ("attacker", "defender")
    # C5.40 alternating, German first: one Location at a time (rules_engine.recon_turns, issue 14 item 8)
    assert phd.step("C5.40").params["declare_first"] == "german"


def test_a_lull_plays_no_scenario_and_repeats_the_conph(phd: System) -> None:
    assert phd.idle is not None
    assert (phd.idle.name, phd.idle.loop, phd.idle.then) == ("Lull", "steps-marked-loop", "next-date")
    assert all(s.loop_on_idle for s in phd.steps if s.ref != "C5.12")


def test_the_five_tm_scenarios_of_11_july_1944(phd: System) -> None:
    cal = phd.calendar
    assert [e.id for e in cal] == ["I", "II", "III", "IV", "V"]
    assert [e.time for e in cal] == ["0600-hrs", "0930-hrs", "1230-hrs", "1530-hrs", "1930-hrs"]
    assert [e.ec.text for e in cal if e.ec] == ["Moist", "Moderate", "Moderate", "Moderate", "Moderate"]
    assert [e.weather.text for e in cal if e.weather] == ["Mist", "Overcast", "Clear", "Clear", "Clear"]
    assert [e.wind.text for e in cal if e.wind] == ["None"] * 5
    assert [e.replenishment_roll for e in cal] == [False, True, True, True, True]
    assert cal[0].initial is True and all(e.date == "11 July 1944" for e in cal)


def test_initiative_matrix_as_printed(phd: System) -> None:
    ini = phd.initiative
    assert ini is not None and (ini.ref, ini.mode) == ("C5.37", "chit")
    assert ini.matrix[(Chit.ATTACK, Chit.ATTACK)].label == "Dual Attack"
    german = ini.matrix[(Chit.ATTACK, Chit.IDLE)]
    us = ini.matrix[(Chit.IDLE, Chit.ATTACK)]
    assert (german.label, german.setup_first, german.moves_first) == ("German Attack", "us", "german")
    assert (us.label, us.setup_first, us.moves_first) == ("US Attack", "german", "us")
    assert ini.matrix[(Chit.IDLE, Chit.IDLE)].label == "Lull Date"


# Issue 14 item 11: one reading for the file — "<N" is ≤N and ">N" is ≥N in every PHD table (lost glyphs), so the
# Dual Attack "< 3" German sets up first on dr 1-3, "> 4" US moves first on dr 4-6.
@pytest.mark.parametrize(("dr", "sets_up", "moves"), [(1, "german", "german"), (2, "german", "german"),
                                                      (3, "german", "german"), (4, "us", "us"),
                                                      (5, "us", "us"), (6, "us", "us")])
def test_dual_attack_drs_read_lt_as_at_most_like_the_tables_and_flagged_verify(phd: System, dr: int, sets_up: str, moves: str) -> None:
    ini = phd.initiative
    assert ini is not None and ini.dual_attack_setup is not None and ini.dual_attack_move is not None
    setup_row, move_row = ini.dual_attack_setup.winner(dr), ini.dual_attack_move.winner(dr)
    assert (setup_row.result, move_row.result) == (sets_up, moves)
    assert setup_row.verify and move_row.verify
    assert [r.label for r in ini.dual_attack_setup.rows] == ["< 3", "otherwise"]
    assert [r.label for r in ini.dual_attack_move.rows] == ["otherwise", "> 4"]


def test_initial_ob_from_c4_2(phd: System) -> None:
    # C4.2: "[ELR: 3, SAN: 3] … RG: Gren Pl x 2; 20 TP; 60 DSP" / "[ELR: 4, SAN: 2] … RG: Rifle Pl x 2; 30 TP"
    ob = phd.initial_ob
    assert ob is not None and ob.ref == "C4.2"
    german, us = ob.side("german"), ob.side("us")
    assert german is not None and us is not None
    assert (german.elr, german.san, dict(german.points)) == (3, 3, {"TP": 20, "DSP": 60})
    assert [(g.group_type, g.rg_id, g.count) for g in german.rg] == [("Gren Pl", None, 2)]
    assert (us.elr, us.san, dict(us.points)) == (4, 2, {"TP": 30})
    assert [(g.group_type, g.rg_id, g.count) for g in us.rg] == [("Rifle Pl", None, 2)]
    assert "initial_ob" not in [m.part for m in phd.missing_parts]
    initial = next(r for r in phd.special_rules if r.id == "initial-scenario")
    assert "I5 — Neither side rolls for TP." in initial.text


def test_currencies_and_fortifications(phd: System) -> None:
    assert [(c.code, c.carry_over) for c in phd.currencies] == [("TP", True), ("DSP", False)]
    dsp = phd.currencies[1]
    assert dsp.bought_with is not None and dsp.bought_with.currency == "TP"
    forts = phd.fortifications
    assert forts is not None and forts.currency == "DSP" and forts.forfeit_unspent is True
    rows = {r.type: r for r in forts.rows}
    assert {k: v.value for k, v in rows["Foxhole"].cost.by.items()} == {"3": 3, "2": 2, "1": 1}
    assert rows["Trench"].cost.amount is not None and rows["Trench"].cost.amount.value == 5
    assert rows["Roadblock"].cost.amount is not None and rows["Roadblock"].cost.amount.value == 5
    assert {k: v.value for k, v in rows["HIP"].cost.by.items()} == {"afv": 5, "squad": 3, "hs": 2, "crew": 2, "smc": 1}
    assert rows["HIP"].near_enemy_ok is True
    for lost in ("Wire", "Pillbox", "Fortified Building", "Bocage Breach (B9.541)"):
        amount = rows[lost].cost.amount
        assert amount is not None and amount.missing, lost
    limits = {limit.id: limit for limit in phd.limits}
    assert limits["mines-dsp"].max is not None and limits["mines-dsp"].max.value == 30
    assert limits["oba-modules"].max is not None and limits["oba-modules"].max.value == 2


def test_rg_charts_and_setup_costs_are_declared_but_lost(phd: System) -> None:
    charts = {c.side: c for c in phd.rg_charts}
    assert set(charts) == {"german", "us"}
    for chart in charts.values():
        assert chart.rows == ()
        assert dict(chart.columns) == {"cost": "TP Cost", "date_max": "Scen Max", "cg_max": "TM Max"}
        assert chart.notes["p"].pre_registered is not None
        assert (chart.notes["p"].pre_registered.cost, chart.notes["p"].pre_registered.max) == (2, 2)
        assert chart.notes["l"].leader_table == "leader"
    assert "rg_charts" in {m.part for m in phd.missing_parts}
    assert phd.setup_costs is not None
    for mode in phd.setup_costs.modes:
        assert all(cell.missing for cell in mode.by_type.values())


def test_record_forms_have_their_printed_columns(phd: System) -> None:
    roster = phd.form("campaign-roster")
    assert [c.label for c in roster.columns] == [
        "CG Scenario", "Campaign Points: Start", "Repl", "Total", "EC/ Weather", "RG Requisitioned", "SAN",
        "Campaign Points: Used", "Left", "Recce", "Initiative",
    ]
    record = phd.form("rg-requisition-record")
    assert record.header_fields == ("CG:", "SIDE:", "PLAYER(S):", "SHEET #:")
    assert [c.label for c in record.columns] == [
        "CG Scen", "RG ID", "Group Type", "#P", "#R", "LMG", "MMG", "HMG/.50-cal", "Lt MTR", "Baz/ Psk", "FT", "DC",
        "Pl/Sect Leader", "Set Up/ Entry Area", "Notes",
    ]
    assert [c.label for c in phd.form("roster-hip").columns] == ["Unit(s)", "Hex", "CA"]


def test_tm_victory_and_scenario_victory(phd: System) -> None:
    objective = next(r for r in phd.special_rules if r.id == "tm-objective")
    assert objective.params["intersections"] == ["N34", "U30", "Y28", "EE25"]
    assert "St.Lô-Bayeux Highway (L35-GG24)" in objective.text
    c538 = next(r for r in phd.special_rules if r.id == "scenario-victory")
    assert c538.ref == "C5.38"
    san = next(r for r in phd.special_rules if r.id == "san-adjustment")
    assert (san.params["min"], san.params["max"]) == (2, 4)
