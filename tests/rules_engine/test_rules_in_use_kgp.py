"""KGP "Rules in use" (issue 15 item 5) with the values-only test card: each CG special rule of fixtures/kgp.yaml with
its number, the first sentence of seed 004 and where the app applies it."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine.loader import parse_card, parse_system
from rules_engine.rules_in_use import RuleInUse, rules_in_use

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rules() -> dict[str, RuleInUse]:
    base = parse_system((ROOT / "fixtures/kgp.yaml").read_text(encoding="utf-8"), "fixtures/kgp.yaml")
    card = (ROOT / "tests/campaigns_app/cards/kgp-values-test.yaml").read_text(encoding="utf-8")
    return {rule.name: rule for rule in rules_in_use(parse_card(card, "kgp-values-test.yaml", base))}


def test_the_objective_hex_is_typed_with_an_i_or_hw_purchase_at_8_619_and_its_control_goes_in_the_results(
        rules: dict[str, RuleInUse]) -> None:
    # seed 004 8.2: "Each initial-OB-given or purchased RG whose ID begins with an "I" or "HW" allows the owning side to
    # secretly designate an Objective Hex during RePh step 8.6198"; the card's purchase step is 8.619.
    rule = rules["Objective Hex"]
    assert rule.ref == "8.2 Objective Hex, 8.6198" and rule.enforced
    assert rule.summary.startswith("Each initial-OB-given or purchased RG whose ID begins with an \"I\" or \"HW\" allows "
                                   "the owning side to secretly designate an Objective Hex during RePh step 8.6198.")
    assert rule.where == (
        "designated at 8.6198 (secret): typed with the purchase of an RG whose ID begins with I or HW at 8.619 and kept "
        "on the owner's RG Purchase Record (for an RG the Initial Scenario OB gives: on paper); the Objective Hexes "
        "each side Controls are entered with the scenario results")
    assert "does not record" not in rule.where


def test_kgp_purchase_rules_are_enforced_at_8_619_and_board_rules_are_left_to_the_players(
        rules: dict[str, RuleInUse]) -> None:
    assert (rules["U.S. RG entry"].ref, rules["U.S. RG entry"].where) == ("CG7c", "enforced at 8.619 (RG purchase)")
    assert (rules["OBA"].ref, rules["OBA"].where) == ("CG15", "enforced at 8.619 (RG purchase)")
    assert rules["German Fanaticism"].where == "declared in the scenario (a form on the scenario panel)"
    assert rules["CG Balance Provisions"].where == "applied at 8.616"
    assert (rules["Viaduct Entry Area"].where, rules["Viaduct Entry Area"].enforced) == (
        "on the board (the players apply it)", False)
