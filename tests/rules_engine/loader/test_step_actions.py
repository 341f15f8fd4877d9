"""Issue 11 item 2: a step's action is one the engine knows (vocabulary.StepAction); a misspelling is refused, never read
as an on-the-board step."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine import sequence, step_kinds
from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_card, parse_system
from rules_engine.vocabulary import StepAction
from tests.rules_engine.loader.test_loader import MINI, mini

ROOT = Path(__file__).resolve().parents[3]
ALLOWED = ("begin-play, clamp-san, elr-change, free-rolls, initiative, new-date-and-san, purchase, "
           "purchase-fortifications, purchase-patrols, purchase-recon, purchase-rg, record-lvp, "
           "replenish-base-minus-dr, replenish-from-table, resolve-initiative, reveal-attack-options, "
           "rg-strength-weapons-leaders, roll-per-item, roll-per-purchase, roll-per-side, roll-table, secret-roll, "
           "weather-from-calendar")


def test_a_misspelt_action_in_a_system_file_is_refused_naming_the_step_and_the_actions_allowed() -> None:
    rr = (ROOT / "fixtures" / "rr.yaml").read_text(encoding="utf-8")
    start = rr.index('ref: "2.518"')
    at = rr.index("action: purchase-rg", start)
    bad = rr[:at] + "action: purchase-gr" + rr[at + len("action: purchase-rg"):]
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(bad, "rr.yaml")
    messages = [str(e) for e in caught.value.errors if e.path.endswith(".action")]
    assert len(messages) == 1
    assert messages[0].startswith("rr.yaml: steps[")
    assert messages[0].endswith(f"].action: step 2.518: unknown action 'purchase-gr' (allowed: {ALLOWED})")


def test_a_misspelt_action_in_a_cg_card_is_refused_like_one_in_a_system_file() -> None:
    card = """
format: refit-cg/1
kind: cg-card
id: my-card
extends: mini
name: My card
steps:
  - {ref: "1.1", name: CPP Replenishment, action: replenish-base-minus-d}
  - {ref: "1.2", name: Purchase}
"""
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card, "my-card.yaml", mini())
    messages = [str(e) for e in caught.value.errors]
    assert (f"my-card.yaml: steps[0].action: step 1.1: unknown action 'replenish-base-minus-d' (allowed: {ALLOWED})"
            in messages)


def test_an_action_that_is_not_text_is_refused() -> None:
    text = MINI.replace("action: replenish-base-minus-dr", "action: [replenish-base-minus-dr]")
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(text, "mini.yaml")
    assert "mini.yaml: steps[0].action: expected text, got a list" in [str(e) for e in caught.value.errors]


def test_a_known_action_loads_as_the_enum_and_still_equals_its_word() -> None:
    step = mini().step("1.1")
    assert step.action is StepAction.REPLENISH_BASE_MINUS_DR
    assert step.action == "replenish-base-minus-dr"


def test_the_enum_lists_exactly_the_actions_the_step_kinds_know() -> None:
    known = (set(step_kinds.AUTOMATIC_ACTIONS) | set(step_kinds.INPUT_ACTIONS) | set(step_kinds.ROLL_ACTIONS)
             | set(step_kinds.INITIATIVE_ACTIONS))
    assert {a.value for a in StepAction} == known


def test_every_action_a_handler_table_of_the_engine_names_is_in_the_enum() -> None:
    named = set(sequence.AUTO_HANDLERS) | set(sequence.PARTS) | set(sequence.ORDER_TYPES) | set(sequence.TRACK_NEEDS)
    assert named <= {a.value for a in StepAction}


@pytest.mark.parametrize("name", ["rr", "pl25", "phd", "er", "kgp"])
def test_every_fixture_step_with_an_action_loads_it_as_the_enum(name: str) -> None:
    path = ROOT / "fixtures" / f"{name}.yaml"
    system = parse_system(path.read_text(encoding="utf-8"), path.name)
    assert all(isinstance(s.action, StepAction) for s in system.steps if s.action is not None)


def test_a_misspelt_action_of_a_step_without_a_usable_ref_is_still_refused() -> None:
    text = MINI.replace('ref: "1.1", name: CPP Replenishment', "ref: [1], name: CPP Replenishment").replace(
        "action: replenish-base-minus-dr", "action: replenish")
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(text, "mini.yaml")
    assert f"mini.yaml: steps[0].action: unknown action 'replenish' (allowed: {ALLOWED})" in [
        str(e) for e in caught.value.errors]
