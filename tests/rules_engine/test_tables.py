"""Dice-table lookup and resolution on the small hand-written tables of tests/rules_engine/loader/test_loader.py (MINI)."""
from __future__ import annotations

import pytest

from rules_engine.dice import FixedDice
from rules_engine.errors import MissingValueError, RulesError, SubmissionError, UnknownNameError
from rules_engine.loader import parse_system
from rules_engine.tables import MissingFactError, needed_facts, questions, resolve, side_facts
from rules_engine.vocabulary import DiceKind
from tests.rules_engine.loader.test_loader import MINI, mini

GREY = {"own_attack_previous": False, "cvp_suffered_previous": 0, "side_is:blue": False, "side_is:grey": True}


def dr(*dice: int) -> object:
    return FixedDice(*dice).roll(DiceKind.DR if len(dice) == 2 else DiceKind.dr, "test", "grey")


def test_a_final_roll_finds_its_row_and_the_cell_as_printed() -> None:
    table = mini().table("cpp")
    assert table.cell(2, "low").text == "16"
    assert table.cell(2, "MID").text == "25"
    assert table.cell(7, "LOW").text == "12"
    assert table.row_for(7).label == "3-10"


def test_a_final_below_the_first_row_takes_the_first_row() -> None:
    assert mini().table("cpp").cell(-3, "mid").text == "25"


def test_a_final_beyond_the_last_row_takes_the_last_row() -> None:
    leaders = mini().table("leaders")
    assert leaders.cell(40).text == "-"
    assert leaders.cell(0).text == "10-3, 9-1, 8-1"
    assert leaders.cell(2).value == ("8-0", "7-0")


def test_a_cell_asked_again_is_the_same_and_a_lost_one_is_refused_every_time() -> None:
    table = mini().table("cpp")
    assert [table.cell(2, "low").text, table.cell(2, "low").text] == ["16", "16"]
    assert table.row_for(7).label == "3-10" and table.row_for(7) is table.row_for(7)
    for _ in range(2):  # a refusal is never remembered as an answer
        with pytest.raises(MissingValueError, match="is lost in the rule text"):
            table.cell(5, "mid")
    leaders = mini().table("leaders")
    assert leaders.cell(10**9).text == leaders.cell(40).text == "-"  # a huge final: the last row, not remembered


def test_a_lost_cell_is_refused_naming_the_value_to_supply() -> None:
    with pytest.raises(MissingValueError) as caught:
        mini().table("cpp").cell(5, "mid")
    assert str(caught.value) == (
        "mini cpp: the MID value for final DR 5 is lost in the rule text (OCR-LOST: MID value for DR 3-10); "
        "supply it in a CG Card"
    )


def test_a_roll_into_a_declared_gap_is_refused_with_its_text() -> None:
    with pytest.raises(MissingValueError, match=r"row 11\) is not in the rule text \(no row for 11 in the seed\)"):
        mini().table("cpp").cell(11, "low")


def test_a_roll_into_a_row_whose_label_is_lost_is_refused() -> None:
    with pytest.raises(MissingValueError, match="the row label .* is lost in the rule text"):
        mini().table("cpp").cell(14, "low")


def test_a_table_with_several_columns_needs_a_column() -> None:
    with pytest.raises(UnknownNameError, match=r"choose one \(allowed: low, mid\)"):
        mini().table("cpp").cell(2)
    with pytest.raises(UnknownNameError, match=r"unknown column 'high' \(allowed: low, mid\)"):
        mini().table("cpp").cell(2, "high")


def test_resolve_applies_facts_settings_and_answers_with_each_reason_as_written() -> None:
    table = mini().table("cpp")
    facts = {**GREY, "own_attack_previous": True, "cvp_suffered_previous": 25}
    result = resolve(table, dr(3, 4), "low", facts=facts, answers={4: 2}, settings={"hist_drm": 1})
    assert result.original == 7
    assert [(m.reason, m.value) for m in result.modifiers] == [
        ("+/- HIST DRM (CG Card)", 1),
        ("+1 if Friendly attacked previously", 1),
        ("-1 per each 10 CVP suffered", -2),
        ("+1 per HS-equivalent > one HS", 2),
    ]
    assert result.final == 9
    assert result.cell.text == "12"
    assert result.original_effects == ()


def test_a_modifier_limited_to_a_column_applies_only_there() -> None:
    table = mini().table("cpp")
    on_mid = resolve(table, dr(1, 1), "mid", facts=GREY, settings={"hist_drm": 0})
    assert [(m.reason, m.value) for m in on_mid.modifiers] == [("-1 if Grey", -1)]
    assert on_mid.final == 1 and on_mid.cell.text == "25"
    on_low = resolve(table, dr(1, 1), "low", facts=GREY, settings={"hist_drm": 0})
    assert on_low.modifiers == () and on_low.final == 2


def test_the_original_roll_effects_are_reported() -> None:
    result = resolve(mini().table("cpp"), dr(1, 1), "low", facts=GREY, settings={"hist_drm": 0})
    assert result.original_effects == ("Heat of Battle",)


def test_a_player_entered_value_must_lie_in_its_range() -> None:
    table = mini().table("cpp")
    result = resolve(table, dr(1, 2), "mid", facts=GREY, answers={5: -3}, settings={"hist_drm": 0})
    assert result.final == 3 - 1 - 3
    assert result.cell.text == "25"
    with pytest.raises(SubmissionError, match=r"4 is out of range \(allowed: -3 to 3\)"):
        resolve(table, dr(1, 2), "mid", facts=GREY, answers={5: 4}, settings={"hist_drm": 0})


def test_an_answer_for_a_modifier_that_is_na_for_the_column_is_refused() -> None:
    with pytest.raises(SubmissionError, match="does not apply to column low"):
        resolve(mini().table("cpp"), dr(3, 4), "low", facts=GREY, answers={5: 1}, settings={"hist_drm": 0})


def test_an_answer_to_an_automatic_modifier_is_refused() -> None:
    with pytest.raises(SubmissionError, match=r"modifier 1 is not a question to answer \(allowed: 4, 5\)"):
        resolve(mini().table("cpp"), dr(3, 4), "mid", facts=GREY, answers={1: True}, settings={"hist_drm": 0})


def test_a_tick_answer_must_be_true_or_false() -> None:
    text = MINI.replace("ask: count}", "ask: tick}")
    table = parse_system(text, "mini.yaml").table("cpp")
    assert resolve(table, dr(3, 4), "low", facts=GREY, answers={4: True}, settings={"hist_drm": 0}).final == 8
    with pytest.raises(SubmissionError, match="tick or untick it"):
        resolve(table, dr(3, 4), "low", facts=GREY, answers={4: 3}, settings={"hist_drm": 0})


def test_a_needed_fact_that_is_not_given_is_an_error_not_a_silent_zero() -> None:
    with pytest.raises(MissingFactError, match="needs the fact 'cvp_suffered_previous'"):
        resolve(mini().table("cpp"), dr(3, 4), "low", facts={"own_attack_previous": False}, settings={"hist_drm": 0})


def test_a_cg_card_setting_that_is_not_set_is_named() -> None:
    with pytest.raises(MissingValueError, match="setting 'hist_drm', which is not set"):
        resolve(mini().table("cpp"), dr(3, 4), "low", facts=GREY)


def test_per_fact_modifiers_round_down_unless_told_to_round_up() -> None:
    up = parse_system(MINI.replace("every: 10}", "every: 10, rounding: up}"), "mini.yaml").table("cpp")
    facts = {**GREY, "cvp_suffered_previous": 11}
    assert resolve(mini().table("cpp"), dr(3, 4), "low", facts=facts, settings={"hist_drm": 0}).final == 6
    assert resolve(up, dr(3, 4), "low", facts=facts, settings={"hist_drm": 0}).final == 5


def test_a_roll_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(RulesError, match=r"rolled with a DR, not a dr"):
        resolve(mini().table("cpp"), dr(3), "low", facts=GREY, settings={"hist_drm": 0})


def test_resolving_into_a_lost_cell_is_refused() -> None:
    with pytest.raises(MissingValueError, match="MID value for final DR 7"):
        resolve(mini().table("cpp"), dr(3, 4), "mid", facts={**GREY, "side_is:grey": False}, settings={"hist_drm": 0})


def test_helpers_list_the_facts_and_questions_a_table_needs() -> None:
    table = mini().table("cpp")
    assert needed_facts(table, "mid") == ("own_attack_previous", "cvp_suffered_previous", "side_is:grey")
    assert needed_facts(table, "low") == ("own_attack_previous", "cvp_suffered_previous")
    assert [i for i, _ in questions(table, "low")] == [4]
    assert side_facts(mini(), "grey") == {
        "side_is:blue": False,
        "nationality_is:american": False,
        "side_is:grey": True,
        "nationality_is:german": True,
    }
