"""Issue 15 item 6: "can a campaign start with it?" resolves the points to buy with as the purchase code does (the
purchase step's currency, else the system's first currency) and counts a replenishment step the same way (its currency,
else the first one). The cards are the ER example of docs/cg-format.md with one part taken away (EXAMPLE / TEST DATA)."""
from __future__ import annotations

from pathlib import Path

from campaigns_app.cards.selectors import start_blockers
from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from tests.rules_engine.test_docs_cards import examples

REPO = Path(__file__).resolve().parents[3]
REPLENISH = """  - {ref: "1.516", name: "CPP Replenishment", loop_on_idle: true, sides: simultaneous, secret: roll, revealed: never,
     action: replenish-base-minus-dr,
     params: {currency: CPP, dice: DR, base: calendar.base_numbers, skip_roll_flag: replenishment_roll}}
"""
PURCHASE_CURRENCY = """action: purchase-rg, params: {currency: CPP}}"""


def er_card(text: str) -> System:
    base = parse_system((REPO / "fixtures" / "er.yaml").read_text(encoding="utf-8"), "er.yaml")
    return parse_card(text, "test-card.yaml", base)


def example() -> str:
    text = examples()["er"]
    assert REPLENISH in text and PURCHASE_CURRENCY in text
    return text


def test_the_er_example_card_as_the_guide_gives_it_can_start() -> None:
    assert start_blockers(er_card(example())) == []


def test_a_purchase_step_without_currency_and_no_replenishment_step_has_no_points_to_buy_with() -> None:
    # 1.518 names no currency → CPP, the card's first currency; no step replenishes CPP and the Initial OB gives
    # U.S. ELR 4 / SAN 3 and Japanese ELR 5 / SAN 4 but no starting CPP: the campaign would have nothing to spend.
    text = example().replace(REPLENISH, "").replace(PURCHASE_CURRENCY, "action: purchase-rg}")
    assert start_blockers(er_card(text)) == [
        "no CPP to buy with: no step replenishes CPP and the Initial Scenario OB gives no starting CPP"]


def test_a_replenishment_step_without_currency_replenishes_the_first_currency_so_the_card_can_start() -> None:
    # 1.516 replenish-base-minus-dr without `currency` credits CPP (the first currency, as the replenishment does);
    # 1.518 buys with CPP: D1 Night's base numbers U.S. 40 / Japanese 30 reach the purchase step.
    text = example().replace("params: {currency: CPP, dice: DR,", "params: {dice: DR,")
    assert start_blockers(er_card(text)) == []


def test_a_side_without_an_rg_chart_is_named_with_the_purchase_step() -> None:
    text = example()
    start = text.index("  - side: japanese")
    text = text[:start] + text[text.index("fortifications:"):]
    assert start_blockers(er_card(text)) == ["the 1.518 purchase step has no RG chart for Japanese"]
