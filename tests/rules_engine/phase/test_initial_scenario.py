"""The Initial Scenario as printed (issue 9 item 3): a campaign starts with its CG Card's Initial OB and starting
points applied. The OB figures below are TEST DATA standing for a printed CG Card (the seeds hold none for RR and PL);
the rules applied to them are typed from the seeds: RR 2.516 "no DR is made for 19AM" and the 19 AM CPP Base Numbers
are 0 for both sides (2.5161); PL's example card gives the Initial Firefight no CP replenishment roll."""
from __future__ import annotations

from decimal import Decimal
from functools import cache
from pathlib import Path

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.loader import parse_card, parse_system, with_player_settings
from rules_engine.lost_values import with_cells
from rules_engine.model import System

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
RR_LOST = {"escape-equipment|1|result": "Captured (TEST DATA)", "company-leader|11|leaders": "9-1, 8-0"}  # TEST DATA

RR_CARD = """\
format: refit-cg/1
kind: cg-card
id: rr-ob-test
extends: rr
name: "TEST DATA — RR Initial Scenario card"
initial_ob:
  ref: "CG Card"
  sides:
    german: {points: {CPP: 30}, elr: 4, san: 3}
    canadian: {points: {CPP: 12}, elr: 3, san: 2}
"""


@cache
def base(name: str) -> System:
    return parse_system((FIXTURES / f"{name}.yaml").read_text(), f"{name}.yaml")


def test_rr_19_am_starts_with_the_cards_initial_cpp_not_0() -> None:
    rr = with_cells(parse_card(RR_CARD, "card.yaml", base("rr")), RR_LOST)
    state, events = sequence.start(rr, FixedDice())
    # 2.516 at 19 AM: base number 0, no DR → the card's 30 and 12 CPP stand at the 2.518 RG purchase
    assert state.phase_ref == "2.518"
    assert state.ledgers["german"].balance("CPP") == Decimal(30)
    assert state.ledgers["canadian"].balance("CPP") == Decimal(12)
    assert (state.ledgers["german"].elr, state.ledgers["german"].san) == (4, 3)
    assert (state.ledgers["canadian"].elr, state.ledgers["canadian"].san) == (3, 2)
    obs = [e for e in events if e.kind == "initial-ob"]
    assert {e.payload["side"]: e.payload["points"] for e in obs} == {"canadian": {"CPP": 12}, "german": {"CPP": 30}}


def test_pl_starts_with_the_cards_initial_cp() -> None:
    card = (FIXTURES / "cards" / "example-pl25.yaml").read_text()
    card += """
initial_ob:
  ref: "CG Card"
  sides:
    allied: {points: {CP: 25}}
    axis: {points: {CP: 18}}
"""
    pl = with_player_settings(parse_card(card, "card.yaml", base("pl25")), {"redeployment_option": "A"})
    state, _ = sequence.start(pl, FixedDice())
    # the Initial Firefight has no CP replenishment roll: the card's 25 and 18 CP stand at the first purchase
    assert (state.ledgers["allied"].balance("CP"), state.ledgers["axis"].balance("CP")) == (Decimal(25), Decimal(18))


CARDS = Path(__file__).resolve().parents[2] / "campaigns_app" / "cards"


def _first_purchase_balances(system_id: str, card_name: str, points: dict[str, int],
                             choices: dict[str, object]) -> dict[str, Decimal]:
    card = (CARDS / card_name).read_text() + "initial_ob:\n  ref: \"CG Card\"\n  sides:\n" + "".join(
        f"    {side}: {{points: {{CPP: {amount}}}}}\n" for side, amount in points.items())
    system = with_player_settings(parse_card(card, "card.yaml", base(system_id)), choices)
    state, _ = sequence.start(system, FixedDice(*[3] * 40))
    return {side: state.ledgers[side].balance("CPP") for side in points}


def test_er_and_kgp_start_with_the_cards_initial_cpp() -> None:
    # TEST DATA cards (tests/campaigns_app/cards) plus an Initial OB of 22 and 17 CPP: where the campaign first stops
    # for the players, nothing has been replenished or spent, so the ledgers hold the card's figures.
    er_sides = [s.id for s in base("er").sides]
    kgp_sides = [s.id for s in base("kgp").sides]
    assert _first_purchase_balances("er", "er-test.yaml", dict(zip(er_sides, (22, 17))), {}) == dict(
        zip(er_sides, (Decimal(22), Decimal(17))))
    assert _first_purchase_balances("kgp", "kgp-test.yaml", dict(zip(kgp_sides, (22, 17))), {"kgp_cg": "I"}) == dict(
        zip(kgp_sides, (Decimal(22), Decimal(17))))
