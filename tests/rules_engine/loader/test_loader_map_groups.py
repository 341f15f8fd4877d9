"""The CG Card says which KGP Map Groups (8.2) are in play — for the whole CG (``map_groups_in_play``) or on one calendar
entry (``map_groups``) — and the loader refuses unknown, repeated or absent Map Groups naming the allowed ones; the 8.31
Balance params of a rolling step are checked too."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import MapGroup, System
from tests.rules_engine.loader.test_definition_errors import HEAD, only
from tests.rules_engine.loader.test_loader import mini

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@cache
def kgp() -> System:
    return parse_system((FIXTURES / "kgp.yaml").read_text(), "kgp.yaml")


CARD = """
format: refit-cg/1
kind: cg-card
id: my-kgp
extends: kgp
name: "TEST DATA card"
"""


def card(body: str) -> System:
    return parse_card(CARD + body, "my-kgp.yaml", kgp())


def card_errors(body: str, base: System | None = None) -> list[DefinitionError]:
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(CARD.replace("extends: kgp", f"extends: {(base or kgp()).id}") + body, "my-kgp.yaml", base or kgp())
    return caught.value.errors


def test_the_cg_default_and_an_entrys_own_map_groups_give_each_dates_map_groups_with_their_sections() -> None:
    system = card("""
map_groups_in_play: [St, Lg]
calendar:
  - {id: "18 AM", initial: true}
  - {id: "18 Night", map_groups: [Ch]}
""")
    assert system.map_groups_on(0) == (MapGroup("St", 2, None, "8.2"), MapGroup("Lg", 2, None, "8.2"))
    assert system.map_groups_on(1) == (MapGroup("Ch", 1, None, "8.2"),)
    assert [g.label for g in system.map_groups_on(0)] == ["St (2 Map Sections)", "Lg (2 Map Sections)"]
    assert system.map_groups_on(1)[0].label == "Ch (1 Map Section)"
    assert system.map_groups_on(2) == ()


def test_an_unknown_map_group_is_refused_naming_the_allowed_ones() -> None:
    errors = card_errors("""
map_groups_in_play: [St, Xx]
calendar:
  - {id: "18 AM", initial: true, map_groups: [Stoumont]}
""")
    assert str(only(errors, "map_groups_in_play[1]")) == (
        "my-kgp.yaml: map_groups_in_play[1]: unknown Map Group 'Xx' (allowed: St, Ch, Lg)")
    assert str(only(errors, "calendar[18 AM].map_groups[0]")) == (
        "my-kgp.yaml: calendar[18 AM].map_groups[0]: unknown Map Group 'Stoumont' (allowed: St, Ch, Lg)")


def test_a_map_group_named_twice_or_an_empty_list_is_refused() -> None:
    errors = card_errors("""
map_groups_in_play: []
calendar:
  - {id: "18 AM", initial: true, map_groups: [Lg, Lg]}
""")
    assert only(errors, "map_groups_in_play").problem == "an empty list; name at least one Map Group in play"
    twice = only(errors, "calendar[18 AM].map_groups[1]")
    assert twice.problem.startswith("Map Group 'Lg' is named twice") and twice.allowed == "St, Ch, Lg"


def test_a_date_whose_map_groups_the_card_does_not_name_plays_one_scenario_as_before() -> None:
    # campaigns whose card was copied before Map Groups existed keep loading and playing (one scenario per date)
    system = card("""
calendar:
  - {id: "18 AM", initial: true, map_groups: [St]}
  - {id: "18 PM"}
""")
    assert [g.id for g in system.map_groups_on(0)] == ["St"] and system.map_groups_on(1) == ()


def test_map_groups_on_a_system_without_map_groups_are_refused() -> None:
    errors = card_errors("map_groups_in_play: [St]\n", base=mini())
    error = only(errors, "map_groups_in_play")
    assert error.problem.startswith("this system declares no Map Groups")
    assert error.allowed == "no Map Groups in this system"
    assert mini().map_groups == () and mini().map_groups_on(0) == ()


def test_the_map_groups_special_rule_needs_an_id_and_at_least_one_map_section_each() -> None:
    text = HEAD + """
special_rules:
  - id: map-groups
    ref: "8.2"
    name: Map Groups
    text: "as written"
    params:
      map_groups:
        - {id: St, sections: 0}
        - {sections: 2}
        - {id: St, sections: 1}
"""
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(text, "bad.yaml")
    errors = caught.value.errors
    assert only(errors, "special_rules[map-groups].params.map_groups[St].sections").allowed == "1 or more"
    assert only(errors, "special_rules[map-groups].params.map_groups[1]").problem == "missing required key 'id'"
    assert "duplicate Map Group id 'St'" in str(errors)


BALANCED_STEP = """
steps:
  - {ref: "8.6161", name: Secret DR, action: secret-roll, params: {dice: DR, %s}}
"""
# (8.6161, a step the system file does not have: a card's 8.616 keeps fixtures/kgp.yaml's own params — rounding: down)


def test_the_balance_params_of_a_rolling_step_name_a_side_choosing_setting_and_a_rounding() -> None:
    assert card(BALANCED_STEP % "balance_setting: balance, balance_halves: true, rounding: down").step("8.6161")
    errors = card_errors(BALANCED_STEP % "balance_setting: balanse, balance_halves: true")
    assert only(errors, "steps[0].params.balance_setting").problem == "unknown setting 'balanse'"
    assert only(errors, "steps[0].params").problem == "a halved DR needs `rounding:` (down = FRD, up = FRU)"
    errors = card_errors(BALANCED_STEP % "balance_setting: kgp_cg, balance_halves: false, rounding: sideways")
    wrong = only(errors, "steps[0].params.balance_setting")
    assert wrong.problem == "the setting 'kgp_cg' must choose a side id or none (it offers I, II, III)"
    assert wrong.allowed == "none, us, german"
    assert only(errors, "steps[0].params.balance_halves").allowed == "true"
    assert only(errors, "steps[0].params.rounding").allowed == "down, up"


def test_the_map_groups_example_in_the_format_guide_is_a_valid_kgp_card_part() -> None:
    guide = (FIXTURES.parent / "docs" / "cg-format.md").read_text(encoding="utf-8")
    section = guide[guide.index("### Map Groups in play"):]
    example = section[section.index("```yaml") + len("```yaml"):section.index("```", section.index("```yaml") + 7)]
    system = card(example)
    assert [g.id for g in system.map_groups_on(0)] == ["St", "Lg"] and [g.id for g in system.map_groups_on(1)] == ["Lg"]
