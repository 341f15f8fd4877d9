"""Assisted rolls, Initiative chits with the phase moving on, and the end of the CG by the players (PL 1.3)."""
from __future__ import annotations

from collections.abc import Callable, Mapping

from rules_engine import initiative
from rules_engine.board_base import clean_purpose
from rules_engine.dice import Dice
from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.phase.advance import advance
from rules_engine.phase.dates import end_cg
from rules_engine.phase.marking import checked_step
from rules_engine.phase.pausing import attempt
from rules_engine.phase.program import ASSISTED, INPUT, Events, step_kind, step_label
from rules_engine.phase.rolling import assisted_work
from rules_engine.progress import Progress
from rules_engine.state import (
    INITIATIVE,
    CampaignState,
    SystemLike,
    check_side,
    side_name,
)
from rules_engine.vocabulary import Chit, Visibility


def assisted_roll(
    system: SystemLike,
    state: CampaignState,
    side: str,
    step_ref: str,
    table_id: str,
    column: str | None,
    answers: Mapping[int, int | bool],
    dice: Dice,
    purpose: str = "",
) -> Progress:
    """A roll on one of the current step's tables; the player ticks the DRM the board shows (``ask:`` modifiers) and
    may say what it is for (the unit or leader: "8-1 in 23Q5"), so that several rolls of a step can be told apart."""
    what_for = clean_purpose(purpose) if purpose.strip() else ""
    state, step = checked_step(system, state, side)
    if step is None or step.ref != step_ref:
        current = step.ref if step else state.step
        raise SubmissionError(f"Step {step_ref} is not the current step (now: {current}).", step_ref)
    allowed = tuple(step.tables) + tuple(
        str(t) for t in (step.params.get("table"),) if isinstance(t, str) and t not in step.tables
    )
    if step_kind(system, step) not in (ASSISTED, INPUT) or not allowed:
        raise SubmissionError(f"{step_label(step)} has no table to roll on here.", step.ref)
    if table_id not in allowed:
        raise SubmissionError(f"{step_label(step)}: unknown table {table_id!r} (allowed: {', '.join(allowed)})", step.ref)
    table = system.table(table_id)
    table.column(column)  # UnknownNameError naming the columns before anything is rolled
    args: dict[str, JSON] = {"table": table_id, "column": column,
                             "answers": {str(k): v for k, v in answers.items()}, "purpose": what_for}

    def work(sys_: SystemLike, st: CampaignState, d: Dice) -> Progress:
        return assisted_work(sys_, st, side, step, table_id, column, answers, d, what_for)

    state, events, _ = attempt(system, state, side, step.ref, "assisted", args, work, dice)
    return Progress(state, events)


def concede(system: SystemLike, state: CampaignState, side: str) -> Progress:
    """PL 1.3 / PHD TM End: one side concedes; the other wins the CG."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has already ended.")
    return end_cg(system, state, "concession", side, state.other(side))


END_REASONS = ("mutual-agreement", "objectives")


def propose_end(
    system: SystemLike, state: CampaignState, side: str, reason: str = "mutual-agreement"
) -> Progress:
    """PL 1.3 CG End: by mutual agreement, or "the CG Objectives are fulfilled by one side" — that side says so and
    the other confirms (proposes the same); the CG ends once both sides have proposed it. With "objectives" the first
    proposer is the side whose objectives are met and the victor [interp: fulfilling the CG objectives wins the CG]."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has already ended.")
    if reason not in END_REASONS:
        raise SubmissionError(f"Unknown reason to end the CG {reason!r} (allowed: {', '.join(END_REASONS)})")
    open_reason = state.end_reason or "mutual-agreement"
    if state.end_proposals and reason != open_reason:
        raise SubmissionError(
            f"An end of the CG by {_end_words(system, open_reason, state.end_claimant)} is proposed: confirm it, or "
            f"withdraw it first (proposing {_end_words(system, reason, side)} instead)")
    claimant = (state.end_claimant if state.end_proposals else side) if reason == "objectives" else None
    proposals = state.end_proposals | {side}
    payload: dict[str, JSON] = {"side": side, "reason": reason}
    if claimant is not None:
        payload["claimant"] = claimant
        payload["text"] = (f"{side_name(system, side)} says {side_name(system, claimant)}'s CG objectives are met"
                           if side == claimant else
                           f"{side_name(system, side)} confirms {side_name(system, claimant)}'s CG objectives are met")
    event = Event(EventKind.END_PROPOSED, Visibility.PUBLIC, side, payload)
    if proposals >= set(state.sides):
        if reason == "objectives":
            new, more = end_cg(system, state, "objectives", claimant, claimant)
        else:
            new, more = end_cg(system, state, "mutual-agreement")
        return Progress(new.evolve(end_reason=None, end_claimant=None), (event,) + more)
    return Progress(state.evolve(end_proposals=proposals, end_reason=reason, end_claimant=claimant), (event,))


def _end_words(system: SystemLike, reason: str, claimant: str | None) -> str:
    if reason == "objectives" and claimant is not None:
        return f"{side_name(system, claimant)}'s CG objectives met"
    return "mutual agreement"


def withdraw_end(system: SystemLike, state: CampaignState, side: str) -> Progress:
    """Withdraw a proposal to end the CG; the side whose objectives are claimed withdraws the claim itself."""
    check_side(system, side)
    proposals = state.end_proposals - {side}
    if state.end_reason == "objectives" and side == state.end_claimant:
        proposals = frozenset()
    reason, claimant = (state.end_reason, state.end_claimant) if proposals else (None, None)
    return Progress(state.evolve(end_proposals=proposals, end_reason=reason, end_claimant=claimant), (
        Event(EventKind.END_WITHDRAWN, Visibility.PUBLIC, side, {"side": side}),))


def decline_end(system: SystemLike, state: CampaignState, side: str) -> Progress:
    """PL 1.3 CG End by mutual agreement: the side asked declines the other's proposal to end; the CG goes on."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has already ended.")
    if not state.end_proposals or side in state.end_proposals:
        raise SubmissionError("There is no proposal of the other side to end the CG to decline.")
    payload: dict[str, JSON] = {"side": side, "reason": state.end_reason or "mutual-agreement"}
    if state.end_claimant is not None:
        payload["claimant"] = state.end_claimant
    return Progress(state.evolve(end_proposals=frozenset(), end_reason=None, end_claimant=None), (
        Event(EventKind.END_DECLINED, Visibility.PUBLIC, side, payload),))


def submit_chit(system: SystemLike, state: CampaignState, side: str, chit: Chit | str, dice: Dice) -> Progress:
    """initiative.submit_chit, then the phase moves on (scenario preparation or the idle loop) and ``advance`` runs."""
    chosen = initiative.submit_chit(system, state, side, chit, dice)
    if chosen.state.step == INITIATIVE:
        return chosen
    return chosen.then(lambda new: advance(system, new, dice))


def call_with_advance(
    action: Callable[..., tuple[CampaignState, Events]], system: SystemLike, state: CampaignState, dice: Dice,
    *args: object,
) -> Progress:
    """Run a player action, then ``advance`` (the app's usual pattern)."""
    return Progress(*action(system, state, *args)).then(lambda new: advance(system, new, dice))
