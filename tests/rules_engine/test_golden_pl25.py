"""Golden tests for fixtures/pl25.yaml: every value below is typed by hand from seed 000 (Platoon Leader 2.5)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.dice import FixedDice
from rules_engine.errors import MissingValueError, UnknownNameError
from rules_engine.loader import parse_system
from rules_engine.model import SettingRef, System
from rules_engine.tables import resolve
from rules_engine.vocabulary import Chit, DiceKind, Provenance

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pl25.yaml"


@pytest.fixture(scope="module")
def pl25() -> System:
    return parse_system(FIXTURE.read_text(encoding="utf-8"), "fixtures/pl25.yaml")


# --------------------------------------------------------------------------------------------------------------------
# 2.12 CP Replenishment Table (Final DR | LOW | MID | HIGH)
# --------------------------------------------------------------------------------------------------------------------

CP_REPLENISHMENT = [
    (2, "16", "25", "34"),
    (3, "15", "24", "33"),
    (4, "14", "23", "32"),
    (5, "13", "22", "31"),
    (6, "12", "21", "30"),
    (7, "12", "20", "29"),
    (8, "12", "19", "28"),
    (9, "11", "18", "27"),
    (10, "10", "17", "26"),
    (11, "9", "16", "25"),
    (12, "8", "15", "24"),
]


@pytest.mark.parametrize(("final", "low", "mid", "high"), CP_REPLENISHMENT)
def test_cp_replenishment_cells_are_as_printed(pl25: System, final: int, low: str, mid: str, high: str) -> None:
    table = pl25.table("cp-replenishment")
    assert table.cell(final, "low").text == low
    assert table.cell(final, "mid").text == mid
    assert table.cell(final, "high").text == high
    assert table.cell(final, "MID").value == int(mid)
    assert table.cell(final, "mid").provenance is Provenance.LEGIBLE


def test_cp_replenishment_beyond_the_edges_takes_the_first_and_last_rows(pl25: System) -> None:
    table = pl25.table("cp-replenishment")
    assert table.cell(-3, "mid").text == "25"
    assert table.cell(1, "low").text == "16"
    assert table.cell(15, "high").text == "24"
    assert table.cell(13, "low").text == "8"


def test_cp_replenishment_edges_keep_the_printed_labels_and_are_interpreted(pl25: System) -> None:
    table = pl25.table("cp-replenishment")
    first, last = table.row_for(2), table.row_for(12)
    assert (first.label, first.min, first.max, first.edge_interpreted) == ("<2", None, 2, True)
    assert (last.label, last.min, last.max, last.edge_interpreted) == (">12", 12, None, True)
    assert table.row_for(7).edge_interpreted is False
    assert [c.label for c in table.columns] == ["LOW", "MID", "HIGH"]
    assert table.dice is DiceKind.DR and table.secret is True and table.ref == "2.12"


def test_cp_replenishment_drm_are_the_three_printed_ones(pl25: System) -> None:
    mods = pl25.table("cp-replenishment").modifiers
    assert [m.reason for m in mods] == [
        "+/– HIST/CP DRM (CG Card)",
        "+1 if Friendly selected Attack Option on previous CG Firefight",
        "–1 per each 10 CVP suffered by friendly side in previous CG Firefight (include units lost during previous RePh)",
    ]
    assert mods[0].value == SettingRef("hist_cp_drm")
    assert (mods[1].value, mods[1].when) == (1, "own_attack_previous")
    assert mods[2].value == -1 and mods[2].per is not None
    assert (mods[2].per.fact, mods[2].per.every) == ("cvp_suffered_previous", 10)


def test_cp_replenishment_resolves_with_card_drm_and_facts(pl25: System) -> None:
    # Original 7 (3+4), HIST/CP +1, own Attack Option last firefight +1, 25 CVP suffered -2 → final 7 → MID 20.
    roll = FixedDice(3, 4).roll(DiceKind.DR, "2.1 CP Replenishment", "allied", "allied")
    result = resolve(
        pl25.table("cp-replenishment"),
        roll,
        "mid",
        facts={"own_attack_previous": True, "cvp_suffered_previous": 25},
        settings={"hist_cp_drm": 1},
    )
    assert (result.original, result.final, result.cell.text) == (7, 7, "20")
    assert [m.value for m in result.modifiers] == [1, 1, -2]


# --------------------------------------------------------------------------------------------------------------------
# 2.351 Off Board Artillery Table
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "strength"),
    [(-2, "Plentiful"), (2, "Plentiful"), (4, "Plentiful"), (5, "Normal"), (7, "Normal"), (10, "Normal"),
     (11, "Scarce"), (12, "Scarce"), (16, "Scarce")],
)
def test_oba_ammunition_strength_is_as_printed(pl25: System, final: int, strength: str) -> None:
    assert pl25.table("oba-ammo").cell(final).text == strength


def test_oba_table_labels_and_drm_are_as_printed(pl25: System) -> None:
    table = pl25.table("oba-ammo")
    assert [r.label for r in table.rows] == ["<4", "5-10", ">11"]
    assert [r.edge_interpreted for r in table.rows] == [True, False, True]
    assert [m.reason for m in table.modifiers] == [
        "+/– as per OBA DRM on CG Card",
        "+/– as per Historical DRM on CG Card",
        "–1 Attack Option purchased also",
    ]
    assert table.modifiers[0].value == SettingRef("oba_drm")
    assert table.modifiers[1].value == SettingRef("historical_drm")
    assert (table.modifiers[2].value, table.modifiers[2].when) == (-1, "attack_option_purchased_now")


# --------------------------------------------------------------------------------------------------------------------
# 2.361 Leader/Armor Leader Table
# --------------------------------------------------------------------------------------------------------------------

LEADERS = [
    # final, All Except Jap and Finn, Japanese, Finn, Armor Ldr.
    (2, "10-2", "10-1", "10-1", "10-2"),
    (3, "9-2", "10-0", "10-0", "9-2"),
    (4, "9-1", "9-1", "9-1", "9-1"),
    (5, "8-1*", "9-0", "9-1", "8-1"),
    (6, "8-1*", "9-0", "9-1", "8-1"),
    (7, "8-0*", "8-0", "9-0", "-"),
    (8, "8-0*", "8-0", "9-0", "-"),
    (9, "7-0", "8+1", "8-0", "-"),
    (10, "7-0", "8+1", "8-0", "-"),
    (11, "6+1", "8+1", "-", "-"),
    (12, "6+1", "8+1", "-", "-"),
]


@pytest.mark.parametrize(("final", "standard", "japanese", "finn", "armor"), LEADERS)
def test_leader_table_cells_are_as_printed(
    pl25: System, final: int, standard: str, japanese: str, finn: str, armor: str
) -> None:
    table = pl25.table("leader")
    assert table.cell(final, "standard").text == standard
    assert table.cell(final, "japanese").text == japanese
    assert table.cell(final, "finn").text == finn
    assert table.cell(final, "armor").text == armor


def test_leader_table_columns_labels_edges_and_drm(pl25: System) -> None:
    table = pl25.table("leader")
    assert [c.label for c in table.columns] == ["All Except Jap and Finn", "Japanese", "Finn", "Armor Ldr."]
    assert table.cell(0, "Japanese").text == "10-1"
    assert table.cell(14, "All Except Jap and Finn").text == "6+1"
    assert [r.label for r in table.rows] == ["<2", "3", "4", "5-6", "7-8", "9-10", ">11"]
    assert table.secret is True
    assert [m.value for m in table.modifiers] == [SettingRef("leader_drm"), SettingRef("historical_drm")]
    assert table.notes["*"] == "Russian may choose Commissar if available (A25.22)"


# --------------------------------------------------------------------------------------------------------------------
# 2.74 Patrol Detection and Return Tables
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "result"),
    [
        (3, "Patrol conducts mission"),
        (7, "Patrol conducts mission"),
        (8, "Patrol compromised and returned to friendly MLR"),
        (9, "Patrol compromised and returned to friendly MLR"),
        (10, "Patrol reduced* - returned to friendly MLR"),
        (11, "Patrol reduced* - returned to friendly MLR"),
        (12, "Patrol KIA* - returned to friendly MLR"),
        (13, "Patrol KIA* - returned to friendly MLR"),
        (14, "Patrol KIA"),
        (18, "Patrol KIA"),
    ],
)
def test_patrol_detection_results_are_as_printed(pl25: System, final: int, result: str) -> None:
    assert pl25.table("patrol-detection").cell(final).text == result


@pytest.mark.parametrize(
    ("final", "result"),
    [
        (0, "Gets back safely"),
        (8, "Gets back safely"),
        (9, "Loses any prisoner(s), back safely"),
        (10, "Returned, Reduced*"),
        (12, "Returned, Reduced*"),
        (13, "Patrol KIA"),
        (14, "Captured*, others KIA"),
        (17, "Captured*, others KIA"),
    ],
)
def test_patrol_return_results_are_as_printed(pl25: System, final: int, result: str) -> None:
    assert pl25.table("patrol-return").cell(final).text == result


def test_patrol_drm_are_shared_and_return_only_ones_are_only_on_the_return_table(pl25: System) -> None:
    shared = [
        "-1 Elite, Stealthy (each)",
        "-1 Recon type patrol",
        "+/- Leadership",
        "+1 Inexperienced, Lax (each)",
        "+1 Enemy unit(s) in hex adjacent to mission hex (each)",
        "+1 Each 3 hexes >3 (FRU) Mission Hex is from friendly MLR",
        "+2 Day patrol (EXC: PTO)",
        "+2 Night Patrol PTO",
        "+1 No Moon or Full Moon",
        "+1 For every HS >1 Squad",
        "+1 Every SW PP >1",
    ]
    detection = pl25.table("patrol-detection").modifiers
    ret = pl25.table("patrol-return").modifiers
    assert [m.reason for m in detection] == shared
    assert [m.reason for m in ret][: len(shared)] == shared
    assert [(m.reason, m.value) for m in ret][len(shared):len(shared) + 3] == [
        ("+1 Conducted attack [EXC: HtH CC] – Return Table only", 1),
        ("+1 Pinned – Return Table only", 1),
        ("+2 Broken – Return Table only", 2),
    ]
    assert [m.value for m in detection] == [-1, -1, None, 1, 1, 1, 2, 2, 1, 1, 1]
    assert [m.ask for m in detection] == ["count", "tick", "value", "count", "count", "count", "tick", "tick",
                                         "tick", "count", "count"]


# --------------------------------------------------------------------------------------------------------------------
# Redeployment Table (3.2)
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "infantry", "vehicle"),
    [
        (2, "Redeploys¹", "Redeploys"),
        (9, "Redeploys¹", "Redeploys"),
        (10, "Redeploys, Replaced²˒³", "Redeploys"),
        (11, "Redeploys, Reduced³", "Remains in hex†"),
        (12, "Remains in hex, Reduced³", "Eliminated CS NA"),
        (13, "Remains in hex, Reduced³", "Eliminated CS NA"),
        (14, "Eliminated", "Eliminated CS NA"),
        (20, "Eliminated", "Eliminated CS NA"),
    ],
)
def test_redeployment_cells_are_as_printed(pl25: System, final: int, infantry: str, vehicle: str) -> None:
    table = pl25.table("redeployment")
    assert table.cell(final, "infantry").text == infantry
    assert table.cell(final, "Mobile Vehicle").text == vehicle


def test_redeployment_drm_notes_and_original_two(pl25: System) -> None:
    table = pl25.table("redeployment")
    assert [(m.reason, m.value) for m in table.modifiers] == [
        ("+1 unit is Isolated, >6 hexes from nearest FMLR", 1),
        ("+1 Redeployment crosses Uncontrolled from FMLR", 1),
        ("+1 unit is in No Man's Land", 1),
        ("+2 unit is in Enemy MLR", 2),
        ("+1 per HS equivalent > one Squad using same Redeployment DR", 1),
        ("–1 Inside/Adjacent to friendly MLR", -1),
        ("+/–x Leadership", None),
    ]
    assert [r.label for r in table.rows] == ["<9", "10", "11", "12-13", ">14"]
    assert table.notes["†"] == "May change TCA/VCA and roll for Hull Down"
    assert table.notes["2"] == "A unit that would become Disrupted is Casualty Reduced instead."
    assert [e.roll for e in table.original] == [2]
    assert "HoB (A15)" in table.original[0].effect


def test_an_original_two_on_redeployment_reports_heat_of_battle(pl25: System) -> None:
    roll = FixedDice(1, 1).roll(DiceKind.DR, "3.214 Redeployment", "axis")
    result = resolve(pl25.table("redeployment"), roll, "infantry", answers={3: True})
    assert (result.original, result.final, result.cell.text) == (2, 4, "Redeploys¹")
    assert len(result.original_effects) == 1 and "HoB" in result.original_effects[0]
    vehicle = resolve(pl25.table("redeployment"), roll, "vehicle")
    assert vehicle.original_effects == ()


# --------------------------------------------------------------------------------------------------------------------
# 3.32 Evacuation, 3.41 Disease & Starvation, 3.44 Battlefield Promotion
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "result"),
    [(1, "Remains in play"), (2, "Remains in play"), (3, "Evacuated (removed from play)"),
     (6, "Evacuated (removed from play)")],
)
def test_evacuation_results_are_as_printed(pl25: System, final: int, result: str) -> None:
    table = pl25.table("evacuation")
    assert table.cell(final).text == result
    assert table.dice is DiceKind.dr


def test_evacuation_labels_are_as_written(pl25: System) -> None:
    assert [r.label for r in pl25.table("evacuation").rows] == ["< 2", "> 3"]


@pytest.mark.parametrize(
    ("final", "result"),
    [(0, "1 Squad"), (3, "1 Squad"), (4, "2 Squads"), (6, "2 Squads"), (7, "3 Squads"), (9, "3 Squads")],
)
def test_disease_and_starvation_results_are_as_printed(pl25: System, final: int, result: str) -> None:
    assert pl25.table("disease").cell(final).text == result


def test_disease_and_starvation_drm_is_the_historical_drm(pl25: System) -> None:
    table = pl25.table("disease")
    assert [r.label for r in table.rows] == ["< 3", "4-6", ">7"]
    assert [(m.reason, m.value) for m in table.modifiers] == [("+/- Historical DRM", SettingRef("historical_drm"))]


@pytest.mark.parametrize(
    ("final", "mmc"),
    [(-3, "4"), (0, "4"), (1, "3"), (2, "2"), (3, "2"), (4, "1"), (5, "1"), (6, "0"), (9, "0")],
)
def test_battlefield_promotion_results_are_as_printed(pl25: System, final: int, mmc: str) -> None:
    assert pl25.table("battlefield-promotion").cell(final).text == mmc


def test_battlefield_promotion_drm_and_the_rule_example(pl25: System) -> None:
    table = pl25.table("battlefield-promotion")
    assert [r.label for r in table.rows] == ["< 0", "1", "2-3", "4-5", ">6"]
    mods = table.modifiers
    assert (mods[0].value, mods[0].when) == (-1, "won_this")
    assert mods[1].value == -1 and mods[1].per is not None
    assert (mods[1].per.fact, mods[1].per.every) == ("cvp_amassed_this", 20)
    assert mods[2].value == SettingRef("promotion_drm")
    assert mods[3].value == SettingRef("historical_drm")
    # 3.45 EX: "An American side rolls a dr of 3, yielding a final dr of 2 [+2 for 3.45, -2 Historical,
    # -1 for winning the Firefight] for a "2" result."
    assert table.cell(3 + 2 - 2 - 1).text == "2"
    step = pl25.step("3.45")
    assert step.params["add"] == 2 and step.params["ignore_facts"] == ["cvp_amassed_this"]


# --------------------------------------------------------------------------------------------------------------------
# 3.47 ELR Loss/Gain (thresholds in the text: < 3 → +1, > 13 → −1)
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("final", "change"), [(-1, 1), (3, 1), (4, 0), (8, 0), (12, 0), (13, -1), (17, -1)])
def test_elr_change_thresholds_are_interpreted_and_flagged_verify(pl25: System, final: int, change: int) -> None:
    cell = pl25.table("elr-change").cell(final)
    assert cell.value == change
    assert cell.provenance is Provenance.INTERPRETED
    row = pl25.table("elr-change").row_for(final)
    assert row.verify is True and row.edge_interpreted is True


def test_elr_change_drm_and_limits(pl25: System) -> None:
    table = pl25.table("elr-change")
    assert [r.label for r in table.rows] == ["< 3", "(any other Final DR)", "> 13"]
    mods = table.modifiers
    assert [m.value for m in mods] == [-1, -2, -1, 2, 1, SettingRef("historical_drm")]
    assert mods[0].when == "won_previous"
    assert mods[1].per is not None and mods[1].per.fact == "elite_platoons_purchased_previous"
    assert mods[2].per is not None and mods[2].per.fact == "first_line_platoons_purchased_previous"
    assert mods[3].when == "own_attack_previous"
    assert mods[4].per is not None and mods[4].per.fact == "firefights_without_idle"
    elr = next(r for r in pl25.special_rules if r.id == "elr-limits")
    assert (elr.ref, elr.params["min"], elr.params["max"], elr.params["five_never_returns"]) == ("3.47", 0, 4, True)
    assert 'Once reduced, ELR will not return to "5"' in elr.text


def test_san_is_clamped_to_two_through_four_before_cp_expenditure(pl25: System) -> None:
    san = next(r for r in pl25.special_rules if r.id == "san-adjustment")
    assert (san.ref, san.params["min"], san.params["max"]) == ("3.51", 2, 4)
    assert pl25.step("3.51").action == "clamp-san"


# --------------------------------------------------------------------------------------------------------------------
# 3.52 Fortification Clearance
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("final", "effect"),
    [(0, "Eliminated *"), (1, "Eliminated *"), (3, "Eliminated *"), (4, "No Effect †"), (6, "No Effect †"),
     (8, "No Effect †")],
)
def test_fortification_clearance_effects_are_as_printed(pl25: System, final: int, effect: str) -> None:
    assert pl25.table("fortification-clearance").cell(final).text == effect


def test_fortification_clearance_drm_and_original_six(pl25: System) -> None:
    table = pl25.table("fortification-clearance")
    assert [r.label for r in table.rows] == ["1-3", ">4"]
    assert [m.value for m in table.modifiers][:4] == [1, 1, 1, -1]
    assert table.modifiers[2].reason == "+1 Fortifications/A-B Mines are in a Water Hex."
    assert [e.roll for e in table.original] == [6]
    assert table.notes["*"].startswith("Vs a Known minefield, this result Eliminates all mines (A-P, A-T, and A-B)")


# --------------------------------------------------------------------------------------------------------------------
# Structure: sequence, Idle Firefight, initiative, limits, costs, forms, settings
# --------------------------------------------------------------------------------------------------------------------

STEP_REFS = [
    "2.1", "2.2", "2.3", "2.31", "2.35", "2.36", "2.38", "2.4", "2.41", "2.5", "2.6", "2.7", "2.8", "2.9",
    "3.11", "3.12", "3.121", "3.13", "3.131", "3.14", "3.15", "3.16", "3.17", "3.171", "3.18", "3.19",
    "3.2", "3.214", "3.215", "3.216", "3.217", "3.218", "3.22", "3.23", "3.24", "3.241", "3.25",
    "3.31", "3.311", "3.32", "3.33", "3.34",
    "3.41", "3.42", "3.43", "3.44", "3.45", "3.46", "3.461", "3.47",
    "3.51", "3.52",
]


def test_steps_run_in_rule_order(pl25: System) -> None:
    assert [s.ref for s in pl25.steps] == STEP_REFS


def test_the_initial_firefight_starts_at_2_2_and_skips_2_1_and_2_5(pl25: System) -> None:
    assert pl25.step("2.1").initial is False
    assert pl25.step("2.5").initial is False
    assert all(pl25.step(ref).initial for ref in ("2.2", "2.3", "2.31", "2.35", "2.36", "2.38", "2.4", "2.41", "2.6"))
    assert not any(s.initial for s in pl25.steps if s.ref.startswith("3."))


def test_secret_rolls_and_purchases_are_flagged(pl25: System) -> None:
    assert pl25.step("2.1").secret == "roll" and pl25.step("2.1").tables == ("cp-replenishment",)
    assert pl25.step("2.36").secret == "roll"
    assert pl25.step("3.44").secret == "roll"
    assert pl25.step("2.3").secret == "purchase" and pl25.step("2.38").secret == "purchase"
    assert pl25.step("2.4").revealed == "immediately"
    assert pl25.step("3.214").order == ("attacker", "defender")
    assert pl25.step("2.5").order == ("defender", "attacker")


def test_an_idle_firefight_runs_only_3_41_3_46_3_461_and_3_52(pl25: System) -> None:
    assert pl25.idle is not None
    assert (pl25.idle.name, pl25.idle.loop) == ("Idle Firefight", "listed-steps")
    assert pl25.idle.steps == ("3.41", "3.46", "3.461", "3.52")
    assert {s.ref for s in pl25.steps if s.loop_on_idle} == {"3.41", "3.46", "3.461", "3.52"}


def test_initiative_is_a_purchased_attack_option_with_the_2_41_matrix(pl25: System) -> None:
    ini = pl25.initiative
    assert ini is not None and (ini.ref, ini.mode) == ("2.41", "purchase")
    dual = ini.matrix[(Chit.ATTACK, Chit.ATTACK)]
    axis = ini.matrix[(Chit.ATTACK, Chit.IDLE)]
    allied = ini.matrix[(Chit.IDLE, Chit.ATTACK)]
    idle = ini.matrix[(Chit.IDLE, Chit.IDLE)]
    assert (dual.result, dual.label) == ("dual-attack", "Dual Attack")
    assert (axis.label, axis.setup_first, axis.moves_first) == ("Axis Assault", "allied", "axis")
    assert (allied.label, allied.setup_first, allied.moves_first) == ("Allied Assault", "axis", "allied")
    assert (idle.result, idle.label) == ("idle", "Idle Firefight")


@pytest.mark.parametrize(("dr", "side"), [(1, "axis"), (2, "axis"), (3, "axis"), (4, "allied"), (5, "allied"),
                                          (6, "allied")])
def test_dual_attack_dr_one_to_three_is_the_axis_for_setup_and_move(pl25: System, dr: int, side: str) -> None:
    ini = pl25.initiative
    assert ini is not None and ini.dual_attack_setup is not None and ini.dual_attack_move is not None
    assert ini.dual_attack_setup.dice is DiceKind.dr
    assert ini.dual_attack_setup.winner(dr).result == side
    assert ini.dual_attack_move.winner(dr).result == side


def test_purchase_limits(pl25: System) -> None:
    limits = {limit.id: limit for limit in pl25.limits}
    platoons = limits["infantry-platoons"]
    assert platoons.max is not None and platoons.max.value == 3 and platoons.ref == "2.3"
    patrols = limits["patrols"]
    assert patrols.by_setting == "intensity"
    assert {k: v.value for k, v in patrols.by_choice.items()} == {"low": 1, "mid": 2, "high": 3}
    assert pl25.setting("patrol_cost").default == 1
    assert limits["oba-modules"].max is not None and limits["oba-modules"].max.value == 2
    assert limits["bombardment"].max is not None and limits["bombardment"].max.value == 1
    leaders = limits["initial-leader-limit"]
    assert leaders.ref == "2.362" and leaders.max is not None and leaders.max.value == 1
    assert "1x10-1, 1x10-0 plus (armor) 1x10-2, 1x9-2" in leaders.text
    hip = limits["hip"]
    assert hip.percent is not None and hip.percent.value == 10 and hip.rounding == "down"


def test_setup_costs_are_the_2_34_rows_with_minimum_one(pl25: System) -> None:
    costs = pl25.setup_costs
    assert costs is not None and costs.ref == "2.34" and costs.minimum == 1
    modes = {m.mode: m for m in costs.modes}
    on_map = {k: v.value for k, v in modes["on-map"].by_type.items() if not v.missing}
    reserve = {k: v.value for k, v in modes["reserve"].by_type.items() if not v.missing}
    assert on_map == {"I": 1, "G": 0, "A": 2, "V": 2}
    assert reserve == {"I": -1, "G": -1, "A": -1, "V": -1}
    hw = modes["reserve"].by_type["HW"]
    assert hw.missing and hw.verify
    assert costs.note is not None and "⚠" in costs.note and "HW" in costs.note


FORTIFICATION_COSTS = [
    ("Foxhole", "by_capacity", {"3": 3, "2": 2, "1": 1}, False, True),
    ("Sangar", "fixed", 2, False, True),
    ('"?"', "fixed", 1, False, True),
    ("HIP", "by_unit", {"afv": 5, "squad": 3, "hs": 2, "crew": 2, "smc": 1}, False, False),
    ("Roadblock", "fixed", 12, False, False),
    ("Wire", "fixed", 10, False, False),
    ("Pillbox", "formula", "(ca_drm + nca_drm) * capacity", True, False),
    ("Fortified Building", "fixed", 12, False, True),
    ("Tunnel", "fixed", 20, True, False),
    ("Booby Traps", "fixed", 15, False, False),
    ("A-T Ditch", "fixed", 18, True, False),
    ("A-P Mine", "per_factor", 2, False, False),
    ("A-T/A-B Mine", "per_factor", 5, False, False),
    ("Set DC (A23.7)", "fixed", 25, False, False),
    ("Known Minefield", "multiplier", 0.8, True, False),
    ("Dummy Minefield", "as_per", "F.7B", False, False),
    ("Cave", "fixed", 15, True, False),
    ("Cave Complex", "fixed", 7, True, False),
    ("Tetrahedrons", "fixed", 15, True, False),
    ("Panji", "per_hexside", 2, True, False),
    ("Trip Flares", "fixed", 1, False, False),
]


def test_fortification_points_table_rows_costs_and_flags(pl25: System) -> None:
    forts = pl25.fortifications
    assert forts is not None and (forts.ref, forts.currency) == ("2.38", "FP")
    assert [r.type for r in forts.rows] == [f[0] for f in FORTIFICATION_COSTS]
    for row, (ftype, kind, cost, s_flag, i_flag) in zip(forts.rows, FORTIFICATION_COSTS, strict=True):
        assert row.cost.kind == kind, ftype
        assert (row.initial_only, row.isolated_ok) == (s_flag, i_flag), ftype
        if kind in ("by_capacity", "by_unit"):
            assert {k: v.value for k, v in row.cost.by.items()} == cost, ftype
        elif kind == "formula":
            assert row.cost.formula == cost
        elif kind == "as_per":
            assert row.cost.reference == cost
        else:
            assert row.cost.amount is not None and row.cost.amount.value == cost, ftype
    known = next(r for r in forts.rows if r.type == "Known Minefield")
    assert known.cost.rounding == "up"
    building = next(r for r in forts.rows if r.type == "Fortified Building")
    assert building.cost.amount is not None
    assert building.cost.amount.provenance is Provenance.INTERPRETED
    assert (building.cost.amount.as_written, building.cost.amount.verify) == ("125", True)
    assert forts.notes["S"] == "This Fortification may only be purchased for an Initial Firefight."


def test_currencies_forms_and_calendar(pl25: System) -> None:
    assert [(c.code, c.carry_over) for c in pl25.currencies] == [("CP", True), ("FP", False)]
    fp = pl25.currencies[1]
    assert fp.bought_with is not None and fp.bought_with.currency == "CP"
    assert pl25.calendar == ()
    assert "calendar" in {m.part for m in pl25.missing_parts}
    assert "rg_charts" in {m.part for m in pl25.missing_parts}
    roster = pl25.form("cg-roster")
    assert [c.label for c in roster.columns] == ["VP Tally Box", "ELR"]
    record = pl25.form("rg-purchase-record")
    assert [c.label for c in record.columns][:3] == ["ID", "Unit Description", "Fortifications"]
    assert record.per == "rg"


def test_sides_are_generic_allied_and_axis_and_card_settings_are_declared(pl25: System) -> None:
    assert [(s.id, s.matrix_role) for s in pl25.sides] == [("allied", "allied"), ("axis", "axis")]
    for sid in ("nationality", "intensity", "hist_cp_drm", "leader_drm", "oba_drm", "historical_drm",
                "attack_option_cost", "fp_allowed"):
        assert pl25.setting(sid).source == "cg-card", sid
    assert pl25.setting("intensity").choices == ("low", "mid", "high")
    assert pl25.setting("hist_cp_drm").per_side is True


def test_game_end_needs_the_card_turn_track(pl25: System) -> None:
    rule = next(r for r in pl25.special_rules if r.id == "game-end")
    assert rule.ref == "CG2" and rule.params["dice"] == "dr"
    assert "the player moving second receives a -1 drm" in rule.text
    repair = next(r for r in pl25.special_rules if r.id == "repair")
    raw = repair.params["thresholds"]
    assert isinstance(raw, list)
    thresholds = {t["id"]: t["success_max"] for t in raw}
    assert thresholds == {"malfunctioned": 5, "disabled": 2, "immobilized": 2, "captured": 3, "recalled": 2}


def test_an_unknown_table_lists_the_tables(pl25: System) -> None:
    with pytest.raises(UnknownNameError, match="cp-replenishment"):
        pl25.table("no-such-table")


def test_the_hw_setup_modifier_is_missing_and_refuses_to_be_used(pl25: System) -> None:
    assert pl25.setup_costs is not None
    reserve = next(m for m in pl25.setup_costs.modes if m.mode == "reserve")
    with pytest.raises(MissingValueError, match="HW"):
        _ = reserve.by_type["HW"].number
