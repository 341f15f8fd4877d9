"""Patrols between their purchase and their resolution (PL 2.31, 2.41, 2.7).

A step whose params name ``resolves: <item kind>`` is played only by the sides that bought that item on the date: the
others have nothing to resolve and are done at once. With ``order_chooser:`` the side that role names (PL 2.74 "If
both players are Patrolling, the side that was the Defender in the most recent firefight may choose the order of
resolution") chooses who goes first when both sides bought some; until it has chosen, nobody resolves. A purchase step
with ``lost_on_idle: true`` loses what was bought on the date when the date turns out Idle (PL 2.41 "Any Patrols …
purchased for that firefight are lost").

Pure functions over CampaignState; rules_engine.sequence calls them (this module never imports it).
"""
from __future__ import annotations

from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import Step
from rules_engine.progress import Progress
from rules_engine.state import CampaignState, SystemLike, side_name
from rules_engine.vocabulary import Visibility

FIRST = "resolves_first"  # the chooser's fact for the current step: True = the chooser goes first


def resolved_item(step: Step) -> str | None:
    """The item kind a step resolves (``params.resolves``), or None."""
    item = step.params.get("resolves")
    return item if isinstance(item, str) else None


def bought(state: CampaignState, side: str, item: str) -> int:
    """How many of ``item`` the side bought on the current date."""
    ledger = state.ledgers.get(side)
    return ledger.items_on(state.date_id, item) if ledger is not None else 0


def buyers(state: CampaignState, item: str) -> tuple[str, ...]:
    """The sides that bought ``item`` on the current date, in side order."""
    return tuple(side for side in state.sides if bought(state, side, item) > 0)


def skip_non_buyers(system: SystemLike, state: CampaignState, step: Step) -> Progress:
    """Sides with nothing to resolve at ``step`` are done at once (a public note: at the board it is seen anyway)."""
    item = resolved_item(step)
    if item is None:
        return Progress(state, ())
    have = buyers(state, item)
    events: list[Event] = []
    done = set(state.done)
    for side in state.sides:
        if side in have or side in done:
            continue
        done.add(side)
        events.append(Event(EventKind.NOTHING_TO_RESOLVE, Visibility.PUBLIC, side, {
            "date": state.date_id, "step": step.ref, "side": side, "item": item,
            "text": f"{step.ref} {step.name}: {side_name(system, side)} has no {item}s to resolve"}))
    if not events:
        return Progress(state, ())
    return Progress(state.evolve(done=frozenset(done)), tuple(events))


def needs_choice(state: CampaignState, step: Step) -> bool:
    """True when both sides resolve at ``step`` and its order is chosen by a side (``params.order_chooser``)."""
    item = resolved_item(step)
    return item is not None and bool(step.params.get("order_chooser")) and len(buyers(state, item)) == 2


def chosen_first(state: CampaignState, chooser: str | None) -> str | None:
    """The side the chooser named to go first at the current step, or None before it has chosen."""
    if chooser is None:
        return None
    answer = state.facts_supplied.get(chooser, {}).get(FIRST)
    if not isinstance(answer, bool):
        return None
    return chooser if answer else state.other(chooser)


def order(state: CampaignState, step: Step, chooser: str | None) -> tuple[str, ...] | None:
    """The order of a ``resolves`` step: the one buyer first; both: as chosen (None until then)."""
    item = resolved_item(step)
    assert item is not None
    have = buyers(state, item)
    if len(have) == 1:
        return (have[0], state.other(have[0]))
    first = chosen_first(state, chooser)
    if first is None:
        return None if len(have) == 2 else state.sides
    return (first, state.other(first))


def choose_first(system: SystemLike, state: CampaignState, step: Step, side: str, chooser: str | None,
                 first: str) -> Progress:
    """The chooser names the side that resolves its Patrols first (public: both resolve them at the board)."""
    ref = step.ref
    if not needs_choice(state, step):
        raise SubmissionError(f"{ref} {step.name}: there is no order to choose (only one side, or none, resolves here)",
                              ref)
    if chooser is None:
        raise SubmissionError(f"{ref} {step.name}: the side that chooses the order is not known yet", ref)
    if side != chooser:
        raise SubmissionError(f"{ref} {step.name}: {side_name(system, chooser)} (the Defender in the most recent "
                              "firefight) chooses the order", ref)
    if chosen_first(state, chooser) is not None:
        raise SubmissionError(f"{ref} {step.name}: the order is already chosen", ref)
    if first not in state.sides:
        names = ", ".join(state.sides)
        raise SubmissionError(f"{ref} {step.name}: unknown side {first!r} (allowed: {names})", ref)
    facts = {s: dict(v) for s, v in state.facts_supplied.items()}
    facts.setdefault(side, {})[FIRST] = first == side
    payload: dict[str, JSON] = {
        "date": state.date_id, "step": ref, "side": side, "first": first,
        "text": f"{ref}: {side_name(system, side)} chose that {side_name(system, first)} resolves its Patrols first"}
    return Progress(state.evolve(facts_supplied=facts), (Event(EventKind.RESOLUTION_ORDER, Visibility.PUBLIC, side, payload),))


def lost_on_idle(system: SystemLike, state: CampaignState) -> tuple[Event, ...]:
    """What the purchase steps marked ``lost_on_idle`` bought on this date is lost: the date is Idle (PL 2.41).
    Each side is told of its own loss only (the purchase was secret; both see it at CG end)."""
    events: list[Event] = []
    idle = (system.idle.name if system.idle is not None else None) or "Idle"
    for step in system.steps:
        if step.params.get("lost_on_idle") is not True:
            continue
        item = step.params.get("item", "patrol")
        if not isinstance(item, str):
            continue
        for side in state.sides:
            count = bought(state, side, item)
            if count:
                events.append(Event(EventKind.ITEMS_LOST, Visibility.CG_END, side, {
                    "date": state.date_id, "step": step.ref, "side": side, "item": item, "count": count,
                    "text": f"{step.ref} {step.name}: {count} bought by {side_name(system, side)} for this "
                            f"firefight lost: {idle}"}))
    return tuple(events)
