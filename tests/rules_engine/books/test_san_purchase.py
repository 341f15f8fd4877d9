"""RR M2 Sniper "SAN Increase +1" (seed 001 RG charts, both sides: "M2 Sniper SAN Increase +1 2 1 8"): bought in
secret at 2.518 ("The CPP expended, those remaining, and the RG purchased may all be kept secret"), it raises the
buyer's SAN for the scenario of that CG Date; the opponent learns it when "Each side announces its SAN" (2.525 BEGIN
PLAY). The SAN then stays raised: 2.5122 adjusts it at each new CG Date ("If a SAN is > 5, a SAN adjustment dr must be
made with a +drm equal to the current SAN minus 4. A Final dr > 5 immediately reduces that side's SAN by two").
"""
from __future__ import annotations

import json
from typing import Any

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.ledger import new_ledger
from rules_engine.purchases import RgOrder
from rules_engine.results import submit_results
from rules_engine.state import CampaignState
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import Chit
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, RESULT, at, drive, rr, through_initial


def at_19_pm_purchases(german_san: int, dice: FixedDice) -> CampaignState:
    state = through_initial(dice, san=(3, german_san))
    state, _ = drive(rr(), state, dice, at("2.518"), (GER, CDN))
    assert state.date_id == "19 PM"
    return state


def buy_m2(state: CampaignState, dice: FixedDice) -> CampaignState:
    state, _ = sequence.submit_order(rr(), state, GER, [RgOrder("M2")])
    state, _ = sequence.mark_done(rr(), state, CDN)
    state, _ = sequence.advance(rr(), state, dice)
    return state


def through_2_5031(state: CampaignState, dice: FixedDice) -> tuple[CampaignState, list[Any]]:
    """The Idle Date's 2.503: the app records the LVP, then both sides do 2.5031 Rally & Unloading on the board."""
    assert (state.phase_ref, sequence.owes(rr(), state, CDN) != ()) == ("2.503", True)
    state, _ = sequence.mark_done(rr(), state, CDN)
    state, _ = sequence.mark_done(rr(), state, GER)
    state, events = sequence.advance(rr(), state, dice)
    return state, list(events)


def canadian_sees(state: CampaignState) -> Any:
    return json.loads(json.dumps(view_for(rr(), state, CDN)))


def test_the_m2_rows_of_both_charts_raise_the_san_by_one_from_the_data() -> None:
    for side in (CDN, GER):
        row = rr().rg_chart(side).row("M2")
        assert (row.description, dict(row.effects), row.cost.number) == ("SAN Increase +1", {"san": 1}, 2)


def test_the_buyer_sees_the_increase_on_its_roster_and_the_opponent_sees_nothing_before_2_525() -> None:
    dice = FixedDice(*([1] * 8))
    bought = buy_m2(at_19_pm_purchases(2, dice), dice)
    assert bought.phase_ref == "2.520"
    line = bought.ledgers[GER].roster_line("19 PM")
    assert line is not None and (line.san, line.san_pending) == (2, 1)
    assert bought.tracks[GER]["san"] == 2  # the public SAN: unchanged until it is announced

    dice_b = FixedDice(*([1] * 8))
    state_b = at_19_pm_purchases(2, dice_b)
    state_b, _ = sequence.submit_order(rr(), state_b, GER, [])
    state_b, _ = sequence.mark_done(rr(), state_b, CDN)
    nothing, _ = sequence.advance(rr(), state_b, dice_b)
    seen, seen_without = canadian_sees(bought), canadian_sees(nothing)
    assert seen["tracks"] == seen_without["tracks"]
    assert (seen["tracks"][CDN]["san"], seen["tracks"][GER]) == (3, {"san": 2})
    assert seen["opponent_ledger"] == seen_without["opponent_ledger"]
    assert "san_pending" not in json.dumps(seen["opponent_ledger"])


def test_2_525_announces_the_raised_san_to_both_sides() -> None:
    dice = FixedDice(*([1] * 12))
    state = buy_m2(at_19_pm_purchases(2, dice), dice)
    state, _ = drive(rr(), state, dice, at("2.522"), (GER, CDN))
    state, _ = sequence.submit_chit(rr(), state, CDN, Chit.IDLE, dice)
    state, _ = sequence.submit_chit(rr(), state, GER, Chit.ATTACK, dice)  # German Assault
    state, events = drive(rr(), state, dice, lambda s: s.phase_ref == "@scenario", (CDN, GER))
    announced = [e.payload["tracks"] for e in events if e.kind == "announced"]
    assert announced == [{CDN: {"san": 3}, GER: {"san": 3}}]  # 2 + 1 (M2)
    line = state.ledgers[GER].roster_line("19 PM")
    assert line is not None and (line.san, line.san_pending) == (3, 0)
    assert canadian_sees(state)["opponent_ledger"]["roster"][-1]["san"] == 3


def test_after_an_idle_date_2_5122_checks_the_san_with_the_bought_increase() -> None:
    # German SAN 5 + M2 = 6 > 5: the 19 Night 2.5122 dr is made with +drm 6 − 4 = 2; dr 4 → Final 6 > 5 → 6 − 2 = 4.
    # Dice: 19 PM 2.516 secret DRs 1+1 each side, then the German 2.5122 dr 4, then 19 Night 2.516 DRs.
    dice = FixedDice(1, 1, 1, 1, 4, 1, 1, 1, 1)
    state = buy_m2(at_19_pm_purchases(5, dice), dice)
    state, _ = drive(rr(), state, dice, at("2.522"), (GER, CDN))
    state, _ = sequence.submit_chit(rr(), state, CDN, Chit.IDLE, dice)
    state, events = sequence.submit_chit(rr(), state, GER, Chit.IDLE, dice)  # an Idle Date: no 2.525
    state, more = through_2_5031(state, dice)
    events = (*events, *more)
    adjusted = {e.payload["side"]: e.payload for e in events if e.kind == "san-adjusted"}
    assert (adjusted[GER]["before"], adjusted[GER]["dr"], adjusted[GER]["drm"], adjusted[GER]["final"],
            adjusted[GER]["after"]) == (6, 4, 2, 6, 4)
    assert state.tracks[GER]["san"] == 4 and state.ledgers[GER].san_pending == 0


def test_after_an_idle_date_a_san_the_check_leaves_alone_stays_secret_until_2_525() -> None:
    # German SAN 4 + M2 = 5: not > 5, no dr; the public 2.5122 line keeps saying 4 → 4 and the +1 stays secret.
    dice = FixedDice(*([1] * 8))
    state = buy_m2(at_19_pm_purchases(4, dice), dice)
    state, _ = drive(rr(), state, dice, at("2.522"), (GER, CDN))
    state, _ = sequence.submit_chit(rr(), state, CDN, Chit.IDLE, dice)
    state, events = sequence.submit_chit(rr(), state, GER, Chit.IDLE, dice)
    state, more = through_2_5031(state, dice)
    adjusted = {e.payload["side"]: e.payload for e in [*events, *more] if e.kind == "san-adjusted"}
    assert (adjusted[GER]["before"], adjusted[GER]["after"], "dr" in adjusted[GER]) == (4, 4, False)
    assert state.tracks[GER]["san"] == 4 and state.ledgers[GER].san_pending == 1
    assert canadian_sees(state)["tracks"][GER] == {"san": 4}


def test_an_m2_bought_before_the_initial_scenario_is_announced_when_it_starts() -> None:
    # No 2.525 before the Initial Scenario (only the †† steps): the SAN is known at the board once play starts.
    dice = FixedDice()
    books = {CDN: new_ledger(CDN, san=3), GER: new_ledger(GER, {"CPP": 10}, san=2)}  # Initial OB CPP: a card's
    state, _ = sequence.start(rr(), dice, tracks={CDN: {"san": 3}, GER: {"san": 2}}, ledgers=books)
    state, _ = sequence.submit_order(rr(), state, GER, [RgOrder("M2")])
    assert state.tracks[GER]["san"] == 2
    state, _ = sequence.mark_done(rr(), state, CDN)
    state, events = drive(rr(), state, dice, lambda s: s.step == "initial-scenario", (GER, CDN))
    assert [e.payload["tracks"] for e in events if e.kind == "announced"] == [{CDN: {"san": 3}, GER: {"san": 3}}]
    assert canadian_sees(state)["tracks"][GER] == {"san": 3}


def test_a_san_typed_while_an_increase_waits_is_asked_without_it() -> None:
    # The RR Initial Scenario SAN is not in the seed: with no SAN known, the bought +1 waits for the one typed at 2.512.
    dice = FixedDice(*([1] * 12))
    state, _ = sequence.start(rr(), dice, ledgers={CDN: new_ledger(CDN), GER: new_ledger(GER, {"CPP": 10})})
    state, _ = sequence.submit_order(rr(), state, GER, [RgOrder("M2")])
    state, _ = sequence.mark_done(rr(), state, CDN)
    state, _ = drive(rr(), state, dice, lambda s: s.step == "results", (GER, CDN))
    assert state.ledgers[GER].san_pending == 1
    state, _ = submit_results(rr(), state, CDN, RESULT)
    state, _ = submit_results(rr(), state, GER, RESULT)
    state, _ = drive(rr(), state, dice, at("2.512"), (GER, CDN), {"lvp": 7})
    (need,) = sequence.needs(rr(), state, GER)
    assert need.text == "your current SAN (2.512), without the +1 of the Sniper RG you bought: the app adds it"
