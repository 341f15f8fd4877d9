"""Marking a step done and a side's orders at input steps (RR 2.518/2.520/2.521, PL 2.3, PHD C5.31/C5.35)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine import map_groups, patrols
from rules_engine.dice import Dice
from rules_engine.errors import SubmissionError
from rules_engine.events import Event, EventKind
from rules_engine.initiative import choosing_early
from rules_engine.losses import records_losses
from rules_engine.model import Step
from rules_engine.phase.finishing import finish, finish_group, recon_order, recon_work, run_key
from rules_engine.phase.needs import open_pending
from rules_engine.phase.order import order_chooser, waiting_for
from rules_engine.phase.pausing import attempt
from rules_engine.phase.program import (
    AUTOMATIC,
    INPUT,
    MARKS,
    ON_BOARD,
    current_kind,
    current_program,
    find_step,
    settle,
    step_at,
    step_kind,
    step_label,
)
from rules_engine.phase.tracks import ledger_of
from rules_engine.progress import Progress
from rules_engine.purchases import record_order, validate_order
from rules_engine.state import (
    ENDED,
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    WAITING,
    CampaignState,
    SystemLike,
    check_side,
    side_name,
)
from rules_engine.vocabulary import Visibility


def validate_mark_done(system: SystemLike, state: CampaignState, side: str, map_group: str | None = None) -> None:
    """SubmissionError unless ``side`` may mark the current step done now; at a scenario played per
    Map Group (KGP 8.2), the scenario on ``map_group`` (which may be left out when only one is in play)."""
    checked_step(system, state, side, map_group)


def checked_step(system: SystemLike, state: CampaignState, side: str, map_group: str | None = None
                 ) -> tuple[CampaignState, Step | None]:
    """``validate_mark_done``, giving back what it read for the action that follows: the settled state and the step
    the cursor is on (``step_at`` of it: None at a scenario or a mark)."""
    check_side(system, side)
    state = settle(system, state)
    if state.step != PHASE or map_group is not None:  # at a step, only the checks below apply
        groups = map_groups.in_play(system, state) if state.step in (INITIAL_SCENARIO, SCENARIO) else ()
        if map_group is not None and not groups:
            where = "this system has no Map Groups" if not map_groups.on_date(system, state.date_index) else \
                "only a scenario is played per Map Group"
            raise SubmissionError(f"Nothing is marked finished per Map Group now ({where}; got {map_group!r}).")
        if groups:
            group = map_groups.pick(groups, map_group, state.date_id, "mark finished")
            if side in state.map_done.get(group.id, frozenset()):
                raise SubmissionError(f"You have already marked the scenario on {group.id} finished ({state.date_id}); "
                                      "waiting for the other side.", group.ref)
            return state, step_at(system, state)
        if state.step == ENDED:
            raise SubmissionError("The CG has ended; there is nothing left to mark finished.")
        if state.step == WAITING:
            raise SubmissionError("The campaign starts when both players have joined; there is nothing to mark finished yet.")
        if state.step == INITIATIVE:
            ref = system.initiative.ref if system.initiative else None
            raise SubmissionError(f"No scenario is being played on {state.date_id}: choose your Initiative chit first.", ref)
        if state.step == RESULTS:
            raise SubmissionError("Enter the scenario results first (both sides must agree on them).")
        if state.step in (INITIAL_SCENARIO, SCENARIO):
            if side in state.done:
                raise SubmissionError(f"You have already marked the scenario of {state.date_id} finished; waiting for the other side.")
            return state, step_at(system, state)
    step = step_at(system, state)
    if step is None:
        raise SubmissionError("The app is resolving the next step; try again in a moment.")
    if open_pending(state, side) is not None:
        raise SubmissionError(f"{step_label(step)}: your roll fell on a value lost in the rule text; type it first "
                              "(as printed on your chart)", step.ref)
    kind = current_kind(system, state, step)
    if kind == AUTOMATIC:
        raise SubmissionError(f"{step.ref} {step.name} is resolved by the app; there is nothing to mark.", step.ref)
    if choosing_early(system, state) and side not in state.sealed:
        ini = system.initiative
        assert ini is not None
        raise SubmissionError(
            f"{step.ref} {step.name}: choose your Initiative chit (Attack or Idle) first — it is chosen now and "
            f"revealed at {ini.ref}", step.ref)
    if side in state.done:
        raise SubmissionError(f"You have already finished {step.ref} {step.name}; waiting for the other side.", step.ref)
    if patrols.needs_choice(state, step):
        chooser = order_chooser(system, state, step)
        if patrols.chosen_first(state, chooser) is None:
            who = "you choose" if chooser == side else \
                f"{side_name(system, chooser)} chooses" if chooser else "the order is chosen"
            raise SubmissionError(f"{step.ref} {step.name}: both sides resolve here; first {who} which side goes "
                                  "first", step.ref)
    waiting = waiting_for(system, state, step, side)
    if waiting is not None:
        raise SubmissionError(
            f"{step.ref} {step.name} is done in order: {side_name(system, waiting)} goes first.", step.ref
        )
    return state, step


def mark_done(system: SystemLike, state: CampaignState, side: str, map_group: str | None = None
              ) -> Progress:
    """A side finishes the current on-board/assisted/input step (an input step with no order = nothing bought), or
    the scenario on one Map Group (KGP 8.2; the results follow once every Map Group's scenario is finished)."""
    state, _ = checked_step(system, state, side, map_group)
    groups = map_groups.in_play(system, state) if state.step in (INITIAL_SCENARIO, SCENARIO) else ()
    if groups:
        return finish_group(system, state, side, groups, map_groups.pick(groups, map_group, state.date_id, ""))
    return finish(system, state, side)


def board_run(system: SystemLike, state: CampaignState) -> tuple[Step, ...]:
    """The run of consecutive on-the-board steps from the current one (each done by both sides in any order, none
    ordered, none played during the scenario, none after the first recording losses — PL 3.11 / PHD C5.1 losses are
    recorded at the step where they happen): a side confirms them all in one click (``mark_run_done``)."""
    state = settle(system, state)
    if state.step != PHASE or state.phase_ref is None or state.phase_ref in MARKS:
        return ()
    entries = current_program(system, state)
    if state.phase_ref not in entries:
        return ()
    run: list[Step] = []
    for entry in entries[entries.index(state.phase_ref):]:
        if entry in MARKS:
            break
        step = find_step(system, entry)
        if step_kind(system, step) != ON_BOARD or step.sides == "ordered" or step.in_scenario \
                or patrols.resolved_item(step) is not None or (run and records_losses(step)):
            break
        run.append(step)
    return tuple(run)


def mark_run_done(system: SystemLike, state: CampaignState, side: str) -> Progress:
    """A side finishes the current on-the-board step and every one after it in its run (``board_run``); each is still
    finished one by one, and listed, as the other side finishes it too."""
    state, _ = checked_step(system, state, side)
    run = board_run(system, state)
    if not run:
        step = step_at(system, state)
        what = f"{step.ref} {step.name}" if step is not None else state.step
        raise SubmissionError(f"{what} is not done on the board alone; finish it on its own.", state.phase_ref)
    keys = tuple(k for k in state.run_done.get(side, ()) if k.startswith(f"{state.date_id}|"))
    keys += tuple(run_key(state, step.ref) for step in run[1:])
    return finish(system, state, side, run_done={**state.run_done, side: keys})


ORDER_TYPES: Mapping[str, tuple[str, ...]] = {
    "purchase-rg": ("RgOrder",),
    "purchase": ("RgOrder", "AttackOptionOrder"),
    "purchase-patrols": ("PatrolOrder",),
    "purchase-fortifications": ("FortOrder", "PointsOrder"),
}


def submit_order(system: SystemLike, state: CampaignState, side: str, orders: Sequence[object]) -> Progress:
    """A side's secret order at an input step (RR 2.518/2.520, PL 2.3/2.31/2.38, PHD C5.31/C5.35): every violated rule
    is listed and nothing is saved, else the ledger records it and the side has finished the step."""
    state, step = checked_step(system, state, side)
    if step is None or step_kind(system, step) != INPUT:
        raise SubmissionError(f"Nothing is bought now (step: {state.phase_ref or state.step}).")
    allowed = ORDER_TYPES.get(step.action or "", ())
    for order in orders:
        if type(order).__name__ not in allowed:
            raise SubmissionError(
                f"{step_label(step)}: a {type(order).__name__} is not bought at this step (allowed: {', '.join(allowed) or 'none'})",
                step.ref,
            )
    ledger = ledger_of(system, state, side)
    initial = state.pass_kind == "initial"
    chit = state.sealed.get(side)
    violations = validate_order(system, ledger, side, state.date_id, orders, initial=initial, chit=chit)  # type: ignore[arg-type]
    if violations:
        error = SubmissionError("; ".join(v.message for v in violations), violations[0].ref or step.ref)
        error.violations = violations  # type: ignore[attr-defined]
        raise error
    ledger = record_order(system, ledger, side, state.date_id, orders, initial=initial)  # type: ignore[arg-type]  # validated above
    recorded = Event(EventKind.ORDER_RECORDED, Visibility.CG_END, side, {
        "date": state.date_id, "step": step.ref, "side": side, "orders": [repr(o) for o in orders]})
    # the ledger, the record and the side's mark in one copy of the state
    return finish(system, state, side, recorded, ledgers={**state.ledgers, side: ledger}, records=(*state.records, recorded))


def submit_recon(
    system: SystemLike, state: CampaignState, side: str, extra: int | None, dice: Dice
) -> Progress:
    """RR 2.521 Purchasing Reconnaissance: ``None`` = no Recon; else cost + ``extra`` CPP (≤ extra_max) and the secret
    Recon dr with +extra drm; its Final dr (the Locations) goes in the CG Roster "Recon" column."""
    state, step = checked_step(system, state, side)
    if step is None or step.action != "purchase-recon":
        raise SubmissionError(f"Reconnaissance is not bought now (step: {state.phase_ref or state.step}).")
    if extra is None:
        return finish(system, state, side)
    params = step.params
    cost, most = params.get("cost"), params.get("extra_max")
    currency = str(params.get("currency", "CPP"))
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0 or (isinstance(most, int) and extra > most):
        raise SubmissionError(f"{step_label(step)}: extra {currency} must be 0 to {most} (got {extra!r})", step.ref)
    order = recon_order(system, side, extra)
    if not isinstance(cost, int) and order is None:
        # PHD C5.36: the cost is on the RG chart's reconnaissance line (note n), lost in the OCR
        lost = params.get("cost_lost")
        where = f" ({lost})" if isinstance(lost, str) else ""
        raise SubmissionError(
            f"{step_label(step)}: the {currency} cost of a reconnaissance is not in the rule text{where}; supply it in a "
            "CG Card", step.ref)
    if isinstance(cost, int):
        price = cost + extra
        balance = ledger_of(system, state, side).balance(currency)
        if balance < price:
            raise SubmissionError(f"{step_label(step)}: Recon costs {price} {currency}; you have {balance} {currency} left",
                                  step.ref)
    if order is not None:  # the Recon RG (RR M3): its CG Date Max / CG Max count (2.5185, 2.5186)
        violations = validate_order(system, ledger_of(system, state, side), side, state.date_id, [order],
                                    initial=state.pass_kind == "initial", chit=state.sealed.get(side),
                                    at_recon_step=True)
        if violations:
            error = SubmissionError("; ".join(v.message for v in violations), violations[0].ref or step.ref)
            error.violations = violations  # type: ignore[attr-defined]
            raise error

    def work(sys_: SystemLike, st: CampaignState, d: Dice) -> Progress:
        return recon_work(sys_, st, step, side, extra, d, checked=sys_ is system)  # validated above with ``system``

    state, events, finished = attempt(system, state, side, step.ref, "recon", {"extra": extra}, work, dice)
    if not finished:
        return Progress(state, events)
    return finish(system, state, side, *events)
