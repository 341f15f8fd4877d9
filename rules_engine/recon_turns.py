"""Recon Locations declared one at a time, alternating (issue 14 item 8): RR 2.524 "The sides take turns declaring one
Location at a time, with the German player declaring first"; PHD C5.40 "alternating (German first)".

A step with ``params.declare_first`` (a side id) takes declarations: each side may declare as many Locations as its
Recon (the Final dr recorded on its CG Roster line of this date, RR 2.521 / PHD C5.36), one per turn; the turn passes to
the other side while it has declarations left. A side finishes by declaring its last one or by marking the step
finished (it declares no more). Each declaration is public (declared openly at the board); a side's count is shown to
that side only.
"""
from __future__ import annotations

import re

from rules_engine.errors import SubmissionError
from rules_engine.events import Event, EventKind
from rules_engine.model import Step
from rules_engine.phase.program import move_on
from rules_engine.progress import Progress
from rules_engine.state import CampaignState, SystemLike, check_side, side_name
from rules_engine.vocabulary import Visibility

KIND = EventKind.RECON_DECLARED
LOCATION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .,/-]{0,19}$")


def first(step: Step | None) -> str | None:
    """The side that declares first at a step that alternates declarations (None: not such a step)."""
    value = step.params.get("declare_first") if step is not None else None
    return value if isinstance(value, str) else None


def allowed(state: CampaignState, side: str) -> int:
    """How many Locations ``side`` may declare: its Recon on this date's CG Roster line (0 without Recon)."""
    ledger = state.ledgers.get(side)
    line = ledger.roster_line(state.date_id) if ledger is not None else None
    return int(line.recon or 0) if line is not None else 0


def declared(state: CampaignState, step: Step, side: str) -> tuple[str, ...]:
    """The Locations ``side`` has declared at ``step`` on this date, in order."""
    return tuple(str(e.payload.get("location")) for e in state.records
                 if e.kind == KIND and e.payload.get("step") == step.ref and e.payload.get("side") == side
                 and e.payload.get("date") == state.date_id)


def turn(state: CampaignState, step: Step) -> str | None:
    """The side to declare now: among the sides still declaring, the one with fewer declared (ties: the first)."""
    lead = first(step)
    active = [s for s in state.sides if s not in state.done and len(declared(state, step, s)) < allowed(state, s)]
    if not active or lead is None:
        return None
    active.sort(key=lambda s: (len(declared(state, step, s)), s != lead))
    return active[0]


def declare(system: SystemLike, state: CampaignState, step: Step, side: str, location: object
            ) -> Progress:
    """``side`` declares one Location to reconnoitre; the step moves on once every side has finished."""
    check_side(system, side)
    if first(step) is None:
        raise SubmissionError(f"{step.ref} {step.name} takes no Recon declarations.", step.ref)
    text = str(location).strip() if isinstance(location, str) else ""
    if not LOCATION.match(text):
        raise SubmissionError("Name the Location as on the map (1 to 20 letters, digits, spaces or . , / -; e.g. K5)",
                              step.ref)
    if side in state.done:
        raise SubmissionError(f"You have finished {step.ref}; you declare no more Locations.", step.ref)
    left = allowed(state, side) - len(declared(state, step, side))
    if left <= 0:
        raise SubmissionError(f"You have no Recon Location left to declare at {step.ref}.", step.ref)
    now = turn(state, step)
    if now != side:
        raise SubmissionError(f"{step.ref}: the sides declare one Location at a time; the "
                              f"{side_name(system, now or side)} declares now.", step.ref)
    number = len(declared(state, step, side)) + 1
    event = Event(KIND, Visibility.PUBLIC, None, {
        "date": state.date_id, "step": step.ref, "side": side, "location": text, "number": number,
        "text": f"{step.ref}: the {side_name(system, side)} reconnoitres {text} (Location {number})"})
    new = state.evolve(records=state.records + (event,))
    events: list[Event] = [event]
    if number >= allowed(state, side):
        new = new.evolve(done=new.done | {side})
        events.append(Event(EventKind.STEP_DONE, Visibility.PUBLIC, side, {"date": state.date_id, "step": step.ref, "side": side}))
    if new.done >= set(state.sides):
        new = move_on(system, new)
    return Progress(new, tuple(events))
