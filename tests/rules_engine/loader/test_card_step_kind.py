"""A values-only card's step over the system file's (loader ``_steps_over_system``): the card's action decides the
step's kind. KGP's fixture lists 8.619 and 8.623 as on-board steps (their procedure is not in the rule text); a card that
gives them an action (TEST DATA card tests/campaigns_app/cards/kgp-values-test.yaml) must not inherit ``on-board``.
"""
from __future__ import annotations

from pathlib import Path

from rules_engine.loader import parse_card, parse_system

REPO = Path(__file__).resolve().parents[3]


def test_a_card_step_giving_its_action_takes_the_kind_of_that_action_not_the_system_files_on_board() -> None:
    system = parse_system((REPO / "fixtures/kgp.yaml").read_text(encoding="utf-8"), "kgp.yaml")
    card = parse_card((REPO / "tests/campaigns_app/cards/kgp-values-test.yaml").read_text(encoding="utf-8"),
                      "kgp-values-test.yaml", system)
    kinds = {s.ref: (s.action, s.automation.value) for s in card.steps}
    assert kinds["8.619"] == ("purchase-rg", "input")
    assert kinds["8.623"] == ("initiative", "initiative")
    assert kinds["8.624"] == (None, "on-board")  # no action on the card: the system file's kind stays


def test_each_action_the_card_form_offers_writes_the_kind_the_loader_derives_for_it() -> None:
    from rules_engine import step_kinds
    from rules_engine.card_parts import STEP_ACTIONS

    for action in STEP_ACTIONS:
        if action.id and action.id != "on-board":
            assert action.automation == step_kinds.derive(action.id, (), {}).value, action.id
