"""The CG spine's player actions (Initial Scenario → Initiative (RR 2.522) → scenario → … → CG end), each handing a
phased campaign to the between-scenario phase (``rules_engine.phase``).

Spine (``phased`` false, what ``state.new_campaign`` gives): the first calendar entry is the Initial Scenario's date
("initial-scenario", on the board; both sides mark it finished); then the *next* date's initiative step (chit systems) or
its scenario; an Idle Date moves on to the next date's initiative step; after the last calendar entry the CG ends.
"""
from __future__ import annotations

from dataclasses import replace

from rules_engine.errors import SubmissionError
from rules_engine.events import Event
from rules_engine.phase.dates import advance_date
from rules_engine.phase.marking import mark_done, validate_mark_done
from rules_engine.phase.owes import owes as phase_owes
from rules_engine.progress import Progress
from rules_engine.state import (
    DUAL_ATTACK,
    ENDED,
    INITIAL_SCENARIO,
    INITIATIVE,
    SCENARIO,
    CampaignState,
    SystemLike,
    check_side,
)
from rules_engine.vocabulary import SideId, Visibility

__all__ = ["advance_date", "mark_step_done", "owes", "validate_step_done"]


def _move_order_pending(system: SystemLike, state: CampaignState) -> bool:
    initiative = system.initiative
    last = state.last_round
    return (
        state.step == SCENARIO
        and initiative is not None
        and initiative.dual_attack_move is not None
        and last is not None
        and last.date_index == state.date_index
        and last.result == DUAL_ATTACK
        and last.moves_first is None
    )


def validate_step_done(system: SystemLike, state: CampaignState, side: SideId) -> None:
    """SubmissionError unless ``side`` may mark the current on-board step finished now."""
    if state.phased:
        validate_mark_done(system, state, side)
        return
    check_side(system, side)
    if state.step == ENDED:
        raise SubmissionError("The CG has ended; there is nothing left to mark finished.")
    if state.step == INITIATIVE:
        ref = system.initiative.ref if system.initiative else None
        raise SubmissionError(f"No scenario is being played on {state.date_id}: choose your Initiative chit first.", ref)
    if side in state.done:
        raise SubmissionError(f"You have already marked the scenario of {state.date_id} finished; waiting for the other side.")
    if _move_order_pending(system, state):
        move = system.initiative.dual_attack_move if system.initiative else None
        raise SubmissionError(
            "The Dual Attack move-order dr has not been made yet; it decides who moves first.", move.ref if move else None
        )


def mark_step_done(system: SystemLike, state: CampaignState, side: SideId) -> Progress:
    """A side marks the on-board step (Initial Scenario / scenario) finished; when both have, the next date begins.

    Phased campaigns: any on-board or assisted step of the checklist (then call ``sequence.advance``).
    """
    if state.phased:
        return mark_done(system, state, side)
    validate_step_done(system, state, side)
    done = state.done | {side}
    events: list[Event] = [
        Event("step-done", Visibility.PUBLIC, side, {"date": state.date_id, "step": state.step, "side": side})
    ]
    new = replace(state, done=done)
    if done >= set(state.sides):
        new, more = advance_date(system, new)
        events.extend(more)
    return Progress(new, tuple(events))


def owes(system: SystemLike, state: CampaignState, side: SideId) -> tuple[str, ...]:
    """What ``side`` still has to do at this point (public: it never contains a choice); empty when nothing."""
    if state.phased:
        return phase_owes(system, state, side)
    check_side(system, side)
    owed: list[str] = []
    if state.step == INITIAL_SCENARIO and side not in state.done:
        owed.append("mark the Initial Scenario finished")
    elif state.step == INITIATIVE and side not in state.sealed:
        ref = system.initiative.ref if system.initiative else ""
        owed.append(f"choose your Initiative chit ({ref})" if ref else "choose your Initiative chit")
    elif state.step == SCENARIO:
        move = system.initiative.dual_attack_move if system.initiative else None
        if move is not None and _move_order_pending(system, state) and move.roller == side:
            owed.append(f"make the Dual Attack move-order {move.dice} ({move.ref})")
        if side not in state.done:
            owed.append("mark the scenario finished")
    return tuple(owed)