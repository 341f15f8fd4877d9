"""Building RR campaigns quickly for the records tests (no tests here).

A campaign is created and joined through the services (so it has seats, player seeds, a committed seed and the start
events), then played on with rules_engine ``sequence`` and the campaign's own CommittedDice, and saved exactly as the
services save (state, dice counters, events) — so its dice export verifies like a campaign played in the browser.
The choices are fixed: each side buys the cheapest RG it may on chosen dates, the chits follow a fixed pattern with an
Idle Date, every scenario gets the same results from both players.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from campaigns_app import engine, services
from campaigns_app.models import Campaign, Seat
from rules_engine import sequence
from rules_engine.errors import RulesError
from rules_engine.purchases import RgOrder, validate_order
from rules_engine.results import submit_results
from rules_engine.state import (
    ENDED,
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    CampaignState,
    ScenarioResult,
)
from rules_engine.vocabulary import Chit
from tests.campaigns_app.lost_test_values import RR as RR_LOST

FIXED_SEED = hashlib.sha256(b"refit records tests").digest()  # test data: a known seed, committed like any other


@dataclass
class Played:
    """A driven campaign and what was bought (per side: RG ids), for the tests to look for in pages."""

    campaign: Campaign
    bought: dict[str, list[str]] = field(default_factory=dict)


def create_rr(german: User, canadian: User, name: str = "Hill 112") -> Campaign:
    """German creates, Canadian joins (through the services), with a fixed committed seed."""
    campaign = services.campaign_create(user=german, system_id="rr", side="german", name=name, lost_values=RR_LOST)
    Campaign.objects.filter(pk=campaign.pk).update(
        dice_seed=FIXED_SEED.hex(), seed_commitment=hashlib.sha256(FIXED_SEED).hexdigest(), dice_counters={})
    services.campaign_join(user=canadian, token=campaign.invitations.get().token)
    campaign.refresh_from_db()
    if not campaign.dice_counters:  # nothing rolled yet: fixed player seeds too, so the dice are the same every run
        for seat in Seat.objects.filter(campaign=campaign):
            Seat.objects.filter(pk=seat.pk).update(player_seed=hashlib.sha256(seat.side.encode()).hexdigest()[:16])
    return campaign


class Driver:
    """Plays both sides of a phased RR campaign with fixed choices, one action at a time."""

    def __init__(self, campaign: Campaign, buy_on: set[int], recon_on: frozenset[int] = frozenset({2}),
                 buyers: frozenset[str] = frozenset({"german", "canadian"})) -> None:
        self.campaign = campaign
        self.system = engine.system_for(campaign) if hasattr(engine, "system_for") else engine.system_of(campaign.system)
        seats = {seat.side: seat.player_seed for seat in Seat.objects.filter(campaign=campaign)}
        first, second = engine.side_ids(self.system)
        self.dice = engine.committed_dice(campaign, (seats[first], seats[second]))
        self.events: list[Any] = []
        self.buy_on = buy_on
        self.recon_on = recon_on
        self.buyers = buyers
        self.bought: dict[str, list[str]] = {side: [] for side in engine.side_ids(self.system)}

    def _do(self, result: tuple[CampaignState, Any]) -> CampaignState:
        state, events = result
        self.events.extend(events)
        return state

    def advance(self, state: CampaignState) -> CampaignState:
        return self._do(sequence.advance(self.system, state, self.dice))

    def act(self, state: CampaignState) -> CampaignState:
        system = self.system
        if state.step == RESULTS:
            entry = ScenarioResult(
                cvp={"canadian": 7 + state.date_index, "german": 5}, attacked={"canadian": False, "german": True},
                lvp={"canadian": 3}, leaders_lost={"canadian": 0, "german": 1}, units_lost={"canadian": 2, "german": 1},
            )
            for side in state.sides:
                if side not in state.results:
                    state = self._do(submit_results(system, state, side, entry))
            return self.advance(state)
        if state.step == INITIATIVE:
            idle_date = state.date_index % 5 == 3  # both Idle: an Idle Date
            dual = state.date_index % 5 == 1  # both Attack: a Dual Attack (public set-up and move-order rolls)
            for side in state.sides:
                if side in state.sealed:
                    continue
                from rules_engine.initiative import attack_chits_left

                left = attack_chits_left(system, state, side)
                wants = (side == "german" or dual) and not idle_date
                chit = Chit.ATTACK if wants and (left is None or left > 0) else Chit.IDLE
                state = self._do(sequence.submit_chit(system, state, side, chit, self.dice))
            return state
        if state.step in (INITIAL_SCENARIO, SCENARIO):
            for side in state.sides:
                if side not in state.done:
                    state = self._do(sequence.mark_done(system, state, side))
            return self.advance(state)
        if state.step != PHASE or state.phase_ref is None:
            raise AssertionError(f"unexpected step {state.step} at {state.date_id}")
        if state.phase_ref in sequence.MARKS:
            return self.advance(state)
        step = next(s for s in system.steps if s.ref == state.phase_ref)
        kind = sequence.current_kind(system, state, step)  # an automatic step's board part is the players' (2.5031)
        for side in state.sides:
            for need in sequence.needs(system, state, side):
                state = self._do(engine.supply(system, state, side, need.id, _value_for(need)))
            if kind == sequence.AUTOMATIC or not sequence.owes(system, state, side):
                continue
            if kind == sequence.INPUT:
                state = self.order(state, step, side)
            else:
                state = self._do(sequence.mark_done(system, state, side))
        return self.advance(state)

    def order(self, state: CampaignState, step: Any, side: str) -> CampaignState:
        system = self.system
        if step.action == "purchase-recon":
            extra = 1 if state.date_index in self.recon_on and state.ledgers[side].balance("CPP") >= 10 else None
            return self._do(sequence.submit_recon(system, state, side, extra, self.dice))
        if step.action in ("purchase-rg", "purchase") and state.date_index in self.buy_on and side in self.buyers:
            ledger = state.ledgers[side]
            rows = sorted(system.rg_chart(side).rows, key=lambda r: (r.type != "I", _cost(r), r.id))
            for row in rows:
                order = RgOrder(row.id, setup_mode="entry")
                if not validate_order(system, ledger, side, state.date_id, [order],
                                      initial=state.pass_kind == "initial", chit=state.sealed.get(side)):
                    try:
                        new = self._do(sequence.submit_order(system, state, side, [order]))
                    except RulesError:
                        continue
                    self.bought[side].append(row.id)
                    return new
        return self._do(sequence.mark_done(system, state, side))


def _value_for(need: Any) -> Any:
    """What the players type for a need: SAN/ELR/LVP 4, a DRM fact "no", a lost cell as another row prints it."""
    if need.kind == "track":
        return 4
    if need.kind == "fact":
        return False
    if getattr(need, "examples", ()):
        return need.examples[0]
    return {"leaders": "8-0", "number": "1"}.get(need.shape, "1")


def _cost(row: Any) -> Decimal:
    value = getattr(row.cost, "value", row.cost)
    return Decimal(str(value)) if isinstance(value, (int, float, str, Decimal)) and str(value).replace(".", "", 1).isdigit() \
        else Decimal(999)


def play(campaign: Campaign, *, until_date: int, buy_on: set[int] | None = None, to_end: bool = False,
         buyers: frozenset[str] = frozenset({"german", "canadian"})) -> Played:
    """Play on until the campaign is at date index ``until_date`` waiting for its chits or its scenario (or until
    the CG ends with ``to_end``), then save it as the services do."""
    driver = Driver(campaign, buy_on if buy_on is not None else {0, 1}, buyers=buyers)
    state = engine.load_state(campaign.state)
    assert state.step != "waiting", "campaigns start with sequence.start"
    for _ in range(5000):
        if state.step == ENDED:
            break
        if not to_end and state.date_index >= until_date and state.step in (INITIATIVE, SCENARIO):
            break
        state = driver.act(state)
    else:  # pragma: no cover - a stuck driver is a bug in it or in the engine
        raise AssertionError(f"stuck at {state.date_id} {state.step} {state.phase_ref}")
    services.save_state(campaign, state, driver.dice.counters)
    services.append_events(campaign, driver.events)
    campaign.refresh_from_db()
    return Played(campaign, driver.bought)
