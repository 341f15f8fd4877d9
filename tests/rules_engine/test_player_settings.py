"""The players' choices (settings with ``source: players``: KGP 8.31 CG Balance, KGP 8.51–.53 which CG, PL 3.2 Redeployment
Option) are applied to a system by ``with_player_settings``, checked with the same checks and messages as a CG Card's
``settings_values``; a choice wins over the card's value for the same setting."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.loader import (
    PLAYER_CHOICES,
    parse_card,
    parse_system,
    player_setting_start,
    player_settings,
    setting_allowed,
    with_player_settings,
)
from rules_engine.model import System
from rules_engine.purchases import side_setting
from tests.rules_engine.loader.test_definition_errors import HEAD, only

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@cache
def kgp() -> System:
    return parse_system((FIXTURES / "kgp.yaml").read_text(encoding="utf-8"), "kgp.yaml")


@cache
def pl25() -> System:
    return parse_system((FIXTURES / "pl25.yaml").read_text(encoding="utf-8"), "pl25.yaml")


# A system with the kinds of players' setting no fixture has yet: per side, a whole number with a range, a yes/no.
TINY = HEAD + """
settings:
  - {id: start_elr, label: Starting ELR, type: int, per_side: true, source: players, ref: "9.1", range: [0, 5]}
  - {id: night_rules, label: Night rules, type: bool, source: players, ref: "9.2", default: false}
  - {id: column, label: Column, choices: [low, high], source: cg-card, ref: "9.3"}
"""


@cache
def tiny() -> System:
    return parse_system(TINY, "tiny.yaml")


def errors_of(system: System, values: dict[str, object], complete: bool = False) -> list[DefinitionError]:
    with pytest.raises(DefinitionErrors) as caught:
        with_player_settings(system, values, complete=complete)
    return caught.value.errors


def kgp_card(settings_values: str) -> System:
    return parse_card(f"""
format: refit-cg/1
kind: cg-card
id: my-kgp
extends: kgp
name: "TEST DATA card"
settings_values: {settings_values}
""", "my-kgp.yaml", kgp())


def test_the_players_settings_are_those_with_source_players_in_the_systems_order() -> None:
    assert [s.id for s in player_settings(kgp())] == ["balance", "kgp_cg"]
    assert [s.id for s in player_settings(pl25())] == ["redeployment_option"]
    assert [s.id for s in player_settings(tiny())] == ["start_elr", "night_rules"]


def test_a_choice_is_applied_and_read_as_any_setting_value() -> None:
    system = with_player_settings(kgp(), {"balance": "german", "kgp_cg": "II"})
    assert system.settings_values == {"balance": "german", "kgp_cg": "II"}
    assert side_setting(system, "balance", "german") == "german"
    assert kgp().settings_values == {}  # the base system is untouched


def test_no_choices_give_back_the_same_system() -> None:
    assert with_player_settings(kgp(), {}) is kgp()


def test_a_value_not_among_the_choices_is_refused_naming_the_choices() -> None:
    error = only(errors_of(kgp(), {"balance": "french"}), "balance")
    assert error.file == PLAYER_CHOICES
    assert error.problem == "unknown value 'french'"
    assert error.allowed == "none, german, us"
    assert str(error) == "players' choices: balance: unknown value 'french' (allowed: none, german, us)"


def test_an_unknown_setting_is_refused_naming_the_players_settings_only() -> None:
    error = only(errors_of(kgp(), {"balanse": "german"}), "balanse")
    assert (error.problem, error.allowed) == ("unknown setting 'balanse'", "balance, kgp_cg")


def test_a_setting_the_cg_card_gives_is_not_the_players_choice() -> None:
    error = only(errors_of(pl25(), {"intensity": "high"}), "intensity")
    assert error.problem == "intensity is not the players' choice: it is set by the CG Card"
    assert error.allowed == "redeployment_option"


def test_a_whole_number_out_of_its_range_and_a_wrong_type_are_refused_saying_what_is_allowed() -> None:
    errors = errors_of(tiny(), {"start_elr": {"blue": 7, "grey": "three"}, "night_rules": "yes"})
    assert (only(errors, "start_elr.blue").problem, only(errors, "start_elr.blue").allowed) == ("7 is out of range", "0 to 5")
    assert only(errors, "start_elr.grey").problem == "expected a whole number, got the text 'three'"
    assert only(errors, "night_rules").problem == "expected true or false, got the text 'yes'"
    assert len(errors) == 3  # every problem in one pass


def test_a_per_side_choice_needs_a_value_for_each_side() -> None:
    errors = errors_of(tiny(), {"start_elr": {"blue": 2}})
    assert only(errors, "start_elr").problem == "no value for side(s) grey"
    assert only(errors, "start_elr").allowed == "blue, grey"
    error = only(errors_of(tiny(), {"start_elr": 2}), "start_elr")
    assert error.problem == "start_elr is set per side: expected a mapping of side ids to values, got the number 2"
    system = with_player_settings(tiny(), {"start_elr": {"blue": 0, "grey": 5}, "night_rules": True})
    assert side_setting(system, "start_elr", "grey") == 5
    assert side_setting(system, "night_rules", "blue") is True


def test_the_card_settings_values_keep_their_own_path_and_messages() -> None:
    with pytest.raises(DefinitionErrors) as caught:
        kgp_card("{balance: french, bogus: 1}")
    errors = caught.value.errors
    assert (only(errors, "settings_values.balance").problem, only(errors, "settings_values.balance").allowed) == (
        "unknown value 'french'", "none, german, us")
    assert only(errors, "settings_values.bogus").allowed == "balance, kgp_cg"


def test_the_players_choice_wins_over_the_cards_value_for_the_same_setting() -> None:
    card = kgp_card("{balance: german, kgp_cg: III}")
    system = with_player_settings(card, {"balance": "us"})
    assert system.settings_values == {"balance": "us", "kgp_cg": "III"}
    assert side_setting(system, "balance", "us") == "us"
    assert side_setting(system, "balance", "german") == "us"  # not this side's id: no halving for the German


def test_a_choice_starts_from_the_cards_value_else_the_default_else_nothing() -> None:
    card = kgp_card("{kgp_cg: II}")
    assert player_setting_start(card, "kgp_cg") == "II"
    assert player_setting_start(card, "balance") == "none"  # 8.31: default none
    assert player_setting_start(kgp(), "kgp_cg") is None
    assert player_setting_start(pl25(), "redeployment_option") is None


def test_complete_asks_for_every_choice_without_a_card_value_or_default() -> None:
    error = only(errors_of(kgp(), {"balance": "us"}, complete=True), "kgp_cg")
    assert error.problem == "not chosen, and it has no default"
    assert error.allowed == "I, II, III"
    pl_error = only(errors_of(pl25(), {}, complete=True), "redeployment_option")
    assert (pl_error.problem, pl_error.allowed) == ("not chosen, and it has no default", "A, B")
    per_side = only(errors_of(tiny(), {}, complete=True), "start_elr")
    assert per_side.allowed == "0 to 5"
    # the card's value or the default is enough; without ``complete`` nothing is asked for
    assert with_player_settings(kgp_card("{kgp_cg: I}"), {}, complete=True).settings_values == {"kgp_cg": "I"}
    assert with_player_settings(kgp(), {"balance": "us"}).settings_values == {"balance": "us"}


def test_what_a_setting_allows_is_said_in_words() -> None:
    assert setting_allowed(kgp().setting("balance")) == "none, german, us"
    assert setting_allowed(tiny().setting("start_elr")) == "0 to 5"
    assert setting_allowed(tiny().setting("night_rules")) == "true, false"
