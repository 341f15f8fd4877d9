"""Golden values of the ER CG Special Rules (seed 002), typed by hand from the seed text; the absent parts are declared."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.errors import MissingValueError
from rules_engine.loader import parse_system
from rules_engine.model import System
from rules_engine.vocabulary import DiceKind, Provenance

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def er() -> System:
    return parse_system((ROOT / "fixtures/er.yaml").read_text(), "fixtures/er.yaml")


def _rule(system: System, ref: str, rule_id: str | None = None) -> dict[str, object]:
    [rule] = [r for r in system.special_rules if r.ref == ref and (rule_id is None or r.id == rule_id)]
    return dict(rule.params)


def test_er_sides_us_allied_and_japanese_axis(er: System) -> None:
    assert [(s.id, s.matrix_role) for s in er.sides] == [("us", "allied"), ("japanese", "axis")]
    assert er.time_unit is not None and er.time_unit.id == "cg-date"
    assert [c.code for c in er.currencies] == ["CPP", "FPP"]


def test_cg7_on_map_costs_one_more_and_reserve_one_less_cpp_per_ru(er: System) -> None:
    params = _rule(er, "CG7")
    assert (params["on_map"], params["reserve"], params["per"], params["currency"]) == (1, -1, "ru", "CPP")


def test_cg7a_reserve_sets_up_8_or_more_hexes_from_enemy_setup_and_entry_areas_without_hip(er: System) -> None:
    params = _rule(er, "CG7a")
    assert params["min_hexes_from_enemy_setup_and_entry_areas"] == 8
    assert params["dummy_per_ru"] == 1 and params["hip"] is False


def test_fpf_barrage_is_us_only_and_only_with_the_idle_chit(er: System) -> None:
    params = _rule(er, "CG18")
    assert params["sides"] == ["us"] and params["requires_chit"] == "idle"
    assert params["carried_to_next_idle"] is True


def test_bombardment_only_with_the_attack_chit_in_one_or_two_areas(er: System) -> None:
    params = _rule(er, "CG15")
    assert params["requires_chit"] == "attack"
    assert (params["areas_min"], params["areas_max"]) == (1, 2)
    assert params["us_single_area_3mc"] is True


def test_jungle_paths_are_an_fpp_purchase_of_3_markers_and_unused_ones_are_lost(er: System) -> None:
    params = _rule(er, "CG16")
    assert params["currency"] == "FPP" and params["markers_per_purchase"] == 3
    assert params["unused_lost"] is True and params["placed_at_step"] == "1.520"
    assert params["revealed_at_step"] == "1.5232" and params["hip"] is False


def test_jungle_path_fpp_cost_is_missing_not_invented(er: System) -> None:
    forts = er.fortifications
    assert forts is not None and forts.currency == "FPP"
    [path] = forts.rows
    assert path.type == "Jungle Path"
    assert path.cost.amount is not None and path.cost.amount.provenance is Provenance.MISSING


def test_elr_is_fixed_and_the_night_scenario_defender_has_one_less(er: System) -> None:
    params = _rule(er, "CG4", "cg-elr")
    assert params["elr"] == "fixed-from-initial-scenario"
    assert params["night_scenario_defender_elr_drm"] == -1


def test_snipers_two_each_but_one_each_in_the_initial_scenario(er: System) -> None:
    params = _rule(er, "CG13")
    assert (params["per_side"], params["initial_scenario"], params["hexes_apart"]) == (2, 1, 10)
    limits = {lim.id: lim for lim in er.limits}
    assert limits["snipers"].max is not None and limits["snipers"].max.value == 2
    assert limits["snipers-initial-scenario"].max is not None and limits["snipers-initial-scenario"].max.value == 1


def test_fpf_garbled_limit_is_kept_as_written_and_flagged(er: System) -> None:
    limit = {lim.id: lim for lim in er.limits}["fpf-barrage"]
    assert limit.max is not None and limit.max.value == 2
    assert limit.max.as_written == "≤ 2 two per CG-Scenario]" and limit.max.verify


@pytest.mark.parametrize(("final", "text"), [(1, "the Barrage lands accurately"), (4, "the Barrage lands accurately")])
def test_fpf_accuracy_original_dr_4_or_less_is_accurate(er: System, final: int, text: str) -> None:
    assert er.table("fpf-accuracy").cell(final).text == text


def test_fpf_accuracy_5_or_more_is_not_and_removal_on_5_or_more(er: System) -> None:
    assert er.table("fpf-accuracy").dice is DiceKind.dr
    assert er.table("fpf-accuracy").cell(5).text.startswith("not accurate")
    assert er.table("fpf-duration").cell(5).text == "the Barrage is removed"
    assert er.table("fpf-duration").cell(6).text == "the Barrage is removed"
    [fourth_turn] = er.table("fpf-duration").modifiers
    assert fourth_turn.value == -1 and fourth_turn.ask == "tick"


def test_referenced_reph_steps_by_number(er: System) -> None:
    assert [s.ref for s in er.steps] == ["1.509", "1.5122", "1.517", "1.520", "1.5232"]
    assert "3 path markers" in (er.step("1.520").note or "")


def test_game_end_from_turn_6_on_dr_at_most_the_circled_number(er: System) -> None:
    params = _rule(er, "CG21")
    assert params["from_turn"] == 6 and params["ends_if"] == "dr ≤ circled number"


def test_initiative_matrix_is_not_invented_but_declared_missing(er: System) -> None:
    assert er.initiative is None
    parts = {m.part for m in er.missing_parts}
    assert "initiative" in parts
    chits = [r for r in er.special_rules if r.id == "initiative-chits"]
    assert chits and chits[0].params["mode"] == "chit"


def test_everything_absent_from_the_seed_is_declared_for_a_user_to_supply(er: System) -> None:
    parts = {m.part for m in er.missing_parts}
    assert {"steps", "tables", "rg_charts", "calendar", "currencies", "initiative", "forms", "fortifications"} <= parts
    assert ("victory_conditions", None) in {(m.part, m.id) for m in er.missing_parts}
    assert er.calendar == () and er.rg_charts == () and er.forms == ()


def test_er_has_no_rr_tables(er: System) -> None:
    with pytest.raises(Exception, match="escape"):
        er.table("escape")


def test_a_missing_cost_refuses_to_be_used_as_a_number(er: System) -> None:
    forts = er.fortifications
    assert forts is not None and forts.rows[0].cost.amount is not None
    with pytest.raises(MissingValueError):
        forts.rows[0].cost.amount.number  # noqa: B018
