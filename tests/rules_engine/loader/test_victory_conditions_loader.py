"""The ``victory_conditions`` part (docs/cg-format.md): a card's CG Victory Conditions, checked by the loader."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System, VictoryCondition

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@cache
def system(name: str) -> System:
    return parse_system((FIXTURES / f"{name}.yaml").read_text(), f"{name}.yaml")


CARD = """\
format: refit-cg/1
kind: cg-card
id: vc-test
extends: rr
name: Victory test card
victory_conditions:
  text: "The German wins with 40 or more CG-LVP; otherwise the Canadian wins."
  conditions:
    - {side: german, measure: cg_lvp, op: ">=", value: 40}
  otherwise: canadian
"""


def test_a_card_gives_its_victory_conditions_in_order_with_the_otherwise_victor() -> None:
    rr = parse_card(CARD, "card.yaml", system("rr"))
    vc = rr.victory_conditions
    assert vc is not None
    assert vc.ref == "CG Card"
    assert vc.text.startswith("The German wins with 40")
    assert vc.conditions == (VictoryCondition("german", "cg_lvp", ">=", 40),)
    assert vc.otherwise == "canadian"
    assert ("victory_conditions", None) not in {(m.part, m.id) for m in rr.missing_parts}


def test_rr_declares_its_victory_conditions_missing_until_a_card_gives_them() -> None:
    assert system("rr").victory_conditions is None
    assert ("victory_conditions", None) in {(m.part, m.id) for m in system("rr").missing_parts}


def test_phd_carries_its_tm_objective_as_text_only_victory_conditions() -> None:
    vc = system("phd").victory_conditions
    assert vc is not None
    assert vc.ref == "C4.2"
    assert "control the St.Lô-Bayeux Highway (L35-GG24)" in vc.text
    assert vc.conditions == () and vc.otherwise is None


@pytest.mark.parametrize("bad, message", [
    ("{side: soviet, measure: cg_lvp, op: '>=', value: 1}", "unknown value 'soviet'"),
    ("{side: german, measure: points, op: '>=', value: 1}", "unknown value 'points'"),
    ("{side: german, measure: cvp, op: '=>', value: 1}", "unknown value '=>'"),
    ("{side: german, measure: cvp, op: '>=', value: 1.5}", "expected a whole number"),
    ("{side: german, measure: cvp, op: '>=', value: 1000001}", "above the maximum"),
    ("{side: german, measure: cvp, op: '>='}", "missing required key 'value'"),
])
def test_a_bad_condition_is_refused_saying_what_is_allowed(bad: str, message: str) -> None:
    text = CARD.replace("{side: german, measure: cg_lvp, op: \">=\", value: 40}", bad)
    with pytest.raises(DefinitionErrors, match=message) as caught:
        parse_card(text, "card.yaml", system("rr"))
    assert "victory_conditions.conditions[0]" in str(caught.value)


def test_victory_conditions_without_text_are_refused() -> None:
    text = CARD.replace('  text: "The German wins with 40 or more CG-LVP; otherwise the Canadian wins."\n', "")
    with pytest.raises(DefinitionErrors, match="missing required key 'text'"):
        parse_card(text, "card.yaml", system("rr"))


def test_an_unknown_otherwise_side_is_refused_with_the_side_ids() -> None:
    with pytest.raises(DefinitionErrors, match="canadian, german|german, canadian"):
        parse_card(CARD.replace("otherwise: canadian", "otherwise: us"), "card.yaml", system("rr"))
