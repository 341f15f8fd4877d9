"""Golden values of the KGP CG rules 8.1–8.4 (seed 004), typed by hand from the seed text; the absent parts are declared."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.loader import parse_system
from rules_engine.model import System

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kgp() -> System:
    return parse_system((ROOT / "fixtures/kgp.yaml").read_text(), "fixtures/kgp.yaml")


def _rule(system: System, rule_id: str) -> dict[str, object]:
    [rule] = [r for r in system.special_rules if r.id == rule_id]
    return dict(rule.params)


def test_kgp_sides_us_allied_and_german_axis(kgp: System) -> None:
    assert [(s.id, s.matrix_role) for s in kgp.sides] == [("us", "allied"), ("german", "axis")]
    assert [(c.code, c.ref) for c in kgp.currencies] == [("CPP", "8.619"), ("FPP", "8.621")]


def test_map_groups_st_ch_lg_with_ch_a_single_section(kgp: System) -> None:
    params = _rule(kgp, "map-groups")
    assert params["map_groups"] == [{"id": "St", "sections": 2}, {"id": "Ch", "sections": 1}, {"id": "Lg", "sections": 2}]
    assert params["cg_date_periods"] == ["AM", "PM", "Night"]


def test_one_scenario_per_map_group_per_cg_date(kgp: System) -> None:
    limit = {lim.id: lim for lim in kgp.limits}["scenarios-per-map-group"]
    assert limit.max is not None and limit.max.value == 1 and limit.per == "date"


def test_balance_halves_the_8_616_secret_dr_rounded_down(kgp: System) -> None:
    params = _rule(kgp, "balance")
    assert params["step"] == "8.616" and params["halve_secret_dr"] is True and params["rounding"] == "down"
    assert kgp.setting("balance").choices == ("none", "german", "us")
    step = kgp.step("8.616")
    assert step.secret == "roll" and step.revealed == "never"


def test_fanaticism_twice_per_cg_but_once_in_cg_ii(kgp: System) -> None:
    limit = {lim.id: lim for lim in kgp.limits}["german-fanaticism"]
    assert limit.by_setting == "kgp_cg"
    assert {k: v.value for k, v in limit.by_choice.items()} == {"I": 2, "II": 1, "III": 2}
    assert _rule(kgp, "fanaticism")["per_cg"] == 2


def test_oba_at_most_two_modules_per_map_group_per_cg_date_excluding_us_o3(kgp: System) -> None:
    params = _rule(kgp, "oba-limit")
    assert params["max_modules"] == 2 and params["excluded_rg"] == {"us": ["O3"]}
    assert params["us_60mm_counts"] is True and params["bombardment_is_module"] is False


def test_objective_hex_is_designated_secretly_at_8_6198_for_i_and_hw_rg(kgp: System) -> None:
    params = _rule(kgp, "objective-hex")
    assert params["rg_id_prefixes"] == ["I", "HW"] and params["designated_at_step"] == "8.6198"
    assert params["secret"] is True and params["revealed"] == "when-controlled-by-own-infantry"
    assert ("special_rules", "objective-hex-attributes") in {(m.part, m.id) for m in kgp.missing_parts}


def test_lvp_totals_cumulate_current_plus_previous(kgp: System) -> None:
    assert _rule(kgp, "lvp-totals")["cg_lvp"] == "current-plus-previous"
    assert kgp.step("8.603").action == "record-lvp"


def test_us_rg_always_full_strength_only_german_depletes(kgp: System) -> None:
    assert _rule(kgp, "us-full-strength")["depletion_sides"] == ["german"]


def test_german_reserve_setup_and_us_cannot_set_up_in_reserve(kgp: System) -> None:
    reserve = _rule(kgp, "german-reserve")
    assert reserve["rg_id_prefixes"] == ["I", "V", "HW"] and reserve["min_hexes_from_us_setup_and_entry_areas"] == 8
    assert _rule(kgp, "us-rg-entry")["reserve_allowed"] is False


def test_snipers_two_per_map_group_one_on_ch(kgp: System) -> None:
    params = _rule(kgp, "snipers")
    assert params["per_side_per_map_group"] == 2 and params["by_map_group"] == {"Ch": 1}
    assert params["hexes_apart"] == 15


def test_initial_scenario_does_steps_8_618_to_8_621_marked_dagger(kgp: System) -> None:
    initial = [(s.ref, s.markers) for s in kgp.steps if s.initial]
    assert initial == [("8.618", ("†",)), ("8.619", ("†",)), ("8.620", ("†",)), ("8.621", ("†",))]
    assert kgp.step("8.618").name == "German Ammunition Shortage"


def test_game_end_from_turn_6_with_plus_one_at_night_and_the_edge_flagged(kgp: System) -> None:
    params = _rule(kgp, "game-end")
    assert params["from_turn"] == 6 and params["night_drm"] == 1
    assert params["comparison"] == {"as_written": "<", "example_shows": "≤", "verify": True}


def test_elr_fixed_and_night_scenario_defender_one_less(kgp: System) -> None:
    assert _rule(kgp, "elr")["night_scenario_defender_elr_drm"] == -1


def test_initiative_matrix_is_not_invented_but_declared_missing(kgp: System) -> None:
    assert kgp.initiative is None
    assert "initiative" in {m.part for m in kgp.missing_parts}
    assert _rule(kgp, "initiative-chits")["mode"] == "chit"


def test_everything_absent_from_the_seed_is_declared_for_a_user_to_supply(kgp: System) -> None:
    parts = {m.part for m in kgp.missing_parts}
    assert {"steps", "tables", "rg_charts", "calendar", "currencies", "initiative", "forms", "fortifications",
            "setup_costs"} <= parts
    assert ("victory_conditions", None) in {(m.part, m.id) for m in kgp.missing_parts}
    assert kgp.calendar == () and kgp.rg_charts == ()
    assert list(kgp.tables) == ["sniper-choice"]  # the CG16 Sniper choice dr only: every RePh table is missing
