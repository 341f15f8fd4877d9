"""A side finishes a step: on-board runs, Map Group scenarios (KGP 8.2), forfeits (RR 2.520), Recon (RR 2.521)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Unpack

from rules_engine.dice import Dice
from rules_engine.events import Event, EventKind
from rules_engine.fortification_purchase import forfeit_unspent
from rules_engine.model import MapGroup, Step
from rules_engine.phase.facts import facts_for, side_settings
from rules_engine.phase.program import move_on, step_at
from rules_engine.phase.rolling import result_events, roll_dice, roll_on, roll_visibility, step_table
from rules_engine.phase.tracks import ledger_of, roster_update, with_books, with_ledger
from rules_engine.progress import Progress
from rules_engine.purchases import RgOrder, apply_order, recon_row, record_order
from rules_engine.state import (
    PHASE,
    CampaignState,
    StateChanges,
    SystemLike,
    side_name,
)
from rules_engine.vocabulary import Visibility


def run_key(state: CampaignState, ref: str) -> str:
    """The key a side's confirmed run records for a step (date, pass, ref)."""
    return f"{state.date_id}|{state.pass_kind}|{ref}"


def auto_run(system: SystemLike, state: CampaignState, step: Step) -> Progress:
    """Sides that confirmed a run holding the current step (``mark_run_done``) finish it now."""
    if not state.run_done:
        return Progress(state, ())  # nobody confirmed a run
    key = run_key(state, step.ref)
    finished = [s for s in state.sides if s not in state.done and key in state.run_done.get(s, ())]
    if not finished:
        return Progress(state, ())
    events = tuple(Event(EventKind.STEP_DONE, Visibility.PUBLIC, s, {"date": state.date_id, "step": step.ref, "side": s,
                                                            "run": True}) for s in finished)
    return Progress(state.evolve(done=state.done | frozenset(finished)), events)


def finish_group(system: SystemLike, state: CampaignState, side: str, groups: Sequence[MapGroup], group: MapGroup
                  ) -> Progress:
    """KGP 8.2: ``side`` finished the scenario on ``group``; a side is done once it finished every Map Group's."""
    marked = {**state.map_done, group.id: state.map_done.get(group.id, frozenset()) | {side}}
    done = state.done | ({side} if all(side in marked.get(g.id, ()) for g in groups) else set())
    event = Event(EventKind.STEP_DONE, Visibility.PUBLIC, side, {"date": state.date_id, "step": state.step, "side": side,
                                                        "map_group": group.id, "sections": group.sections})
    new = state.evolve(map_done=marked, done=frozenset(done))
    if new.done >= set(state.sides):
        new = move_on(system, new)
    return Progress(new, (event,))


def finish(system: SystemLike, state: CampaignState, side: str, *private: Event, **changes: Unpack[StateChanges]
           ) -> Progress:
    """``side`` finished the current step; when both have, RR 2.520 forfeits are made and the cursor moves on.
    ``changes``: what the side's action wrote (its ledger, records), made in the same copy of the state."""
    done = state.done | {side}
    ref = state.phase_ref if state.step == PHASE else state.step
    events: list[Event] = [*private, Event(EventKind.STEP_DONE, Visibility.PUBLIC, side, {"date": state.date_id, "step": ref, "side": side})]
    if state.sides[0] not in done or state.sides[1] not in done:  # not both sides (``done >= set(state.sides)``)
        changes["done"] = done
        return Progress(state.evolve(**changes), tuple(events))
    new = state.evolve(**changes) if changes else state  # both have finished: the cursor moves on and the next
    # step's marks start afresh (``goto``)
    step = step_at(system, new)
    if step is not None and step.action == "purchase-fortifications":
        new, more = _forfeit(system, new)
        events.extend(more)
    return Progress(move_on(system, new), tuple(events))


def _forfeit(system: SystemLike, state: CampaignState) -> Progress:
    """RR 2.520 / PHD C5.35: unspent FPP/DSP are forfeit on completion of the step (fortification_purchase)."""
    events: list[Event] = []
    for side in state.sides:
        ledger, evs = forfeit_unspent(system, ledger_of(system, state, side))
        state = with_books(state, side, ledger, *evs)
        events.extend(evs)
    return Progress(state, tuple(events))


def recon_work(system: SystemLike, state: CampaignState, step: Step, side: str, extra: int, dice: Dice, *,
               checked: bool = False) -> Progress:
    """Pay for Recon and make its secret dr (RR 2.521); ``checked``: the Recon RG's order was just validated with this
    system and state (``submit_recon``), so it is recorded without being checked again."""
    params = step.params
    cost = params.get("cost")
    currency = str(params.get("currency", "CPP"))
    price = (cost if isinstance(cost, int) else 0) + extra
    order = recon_order(system, side, extra)
    before = ledger_of(system, state, side)
    if order is not None:
        # one purchase: a Purchase Record line of the Recon RG (cost + extra on the line, RG Purchased/Spent/Left)
        initial = state.pass_kind == "initial"
        ledger = (record_order(system, before, side, state.date_id, [order], initial=initial) if checked else
                  apply_order(system, before, side, state.date_id, [order], initial=initial,
                              chit=state.sealed.get(side), at_recon_step=True))
        price = int(ledger.purchases[-1].cost)
    else:
        ledger = before.adjust(currency, -price)
    state = with_ledger(state, side, ledger)
    table = step_table(system, step, side)
    facts = {**facts_for(system, state, side), "extra_cpp_spent": extra}
    visibility = roll_visibility(step, table)
    roll = roll_dice(dice, table, f"{step.ref} {table.name} ({side_name(system, side)})", side, visibility)
    resolution = roll_on(table, roll, None, facts, {}, side_settings(system, side))
    state, events = result_events(state, step, side, resolution, visibility, cost=price, currency=currency)
    if order is not None:
        bought = ledger.purchases[-1].evolve(rolled=True,
                         notes=f"{step.ref} Recon Final dr {resolution.final}: {resolution.final} Locations (2.524)")
        ledger = ledger.with_purchase(bought)
        state = with_ledger(state, side, ledger)
        state = roster_update(state, side, state.date_id, currency, recon=resolution.final)
        return Progress(state, events)
    line = before.roster_line(state.date_id)
    spent = (line.spent if line else 0) + price
    state = roster_update(state, side, state.date_id, currency, recon=resolution.final, spent=spent,
                          left=ledger.balance(currency))
    return Progress(state, events)


def recon_order(system: SystemLike, side: str, extra: int) -> RgOrder | None:
    """The Recon purchase as an order of the side's Recon RG (RR M3 + note r extra CPP), or None without one."""
    row = recon_row(system, side)
    return RgOrder(row.id, extra=extra) if row is not None else None
