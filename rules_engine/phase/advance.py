"""``advance``: run automatic steps and date changes until a step needs a player."""
from __future__ import annotations

from rules_engine import board_part, initiative, leader_generation, patrols
from rules_engine.dice import Dice
from rules_engine.events import Event, EventKind
from rules_engine.phase.dates import new_date
from rules_engine.phase.finishing import auto_run
from rules_engine.phase.handlers import AUTO_HANDLERS, PARTS
from rules_engine.phase.needs import anyone_needs
from rules_engine.phase.pausing import resume_all, run_parts
from rules_engine.phase.program import (
    AUTOMATIC,
    INITIAL_MARK,
    MARKS,
    NEW_DATE,
    ON_BOARD,
    SCENARIO_MARK,
    current_kind,
    find_step,
    layout,
    move_on,
    settle,
    step_kind,
)
from rules_engine.phase.scenario_flow import move_order, resolve_initiative, scenario_start
from rules_engine.progress import Progress
from rules_engine.state import (
    INITIATIVE,
    CampaignState,
    SystemLike,
)
from rules_engine.vocabulary import Visibility


def advance(system: SystemLike, state: CampaignState, dice: Dice) -> Progress:
    """Run automatic steps (and the date change) until a step needs a player; (state, events) in order."""
    state = settle(system, state)
    state, resumed = resume_all(system, state, dice)
    events: list[Event] = list(resumed)
    lay = layout(system)
    for _ in range(10_000):
        if state.ended or state.phase_ref is None:
            break
        entry = state.phase_ref
        if entry == NEW_DATE:
            state, more = new_date(system, state)
            events.extend(more)
            continue
        if entry in (SCENARIO_MARK, INITIAL_MARK):
            state, more = scenario_start(system, state)
            events.extend(more)
        if entry == SCENARIO_MARK:
            state, more = move_order(system, state, dice)
            events.extend(more)
            break
        if entry in MARKS:
            break
        step = find_step(system, entry)
        if lay.initiative is not None and step.ref == lay.initiative.ref:
            if state.step == INITIATIVE:
                if not (system.initiative and system.initiative.chosen_at and set(state.sealed) >= set(state.sides)):
                    break
                state, more = initiative.reveal(system, state, dice)
                events.extend(more)
                state = settle(system, state)
                continue
            state, more = resolve_initiative(system, state, step, dice)
            events.extend(more)
            continue
        if step_kind(system, step) == ON_BOARD:
            state, more = auto_run(system, state, step)  # a run of on-the-board steps confirmed in one click
            events.extend(more)
            if more and state.done >= set(state.sides):
                state = move_on(system, state)
                continue
        if patrols.resolved_item(step) is not None:
            state, more = patrols.skip_non_buyers(system, state, step)  # PL 2.7: only the sides that bought some
            events.extend(more)
            if state.done >= set(state.sides):
                events.append(Event(EventKind.STEP_RESOLVED, Visibility.PUBLIC, None, {"date": state.date_id, "step": step.ref}))
                state = move_on(system, state)
                continue
        if current_kind(system, state, step) != AUTOMATIC or anyone_needs(system, state, step):
            break
        part = PARTS.get(step.action) if step.action is not None else None
        generating = leader_generation.params(step) is not None
        if generating and leader_generation.started(state):
            pass  # PL 3.45: the dr are made and every side has said how many leaders it Generates
        elif part is not None:
            state, more, finished = run_parts(system, state, step, part, dice)
            events.extend(more)
            if not finished:
                break  # a side's roll fell on a value lost in the rule text: it types it (needs / supply)
            if generating:
                state = leader_generation.start(state, step)
                if any(leader_generation.pending(state, s) for s in state.sides):
                    continue  # each side says how many it Generates (needs / supply)
        else:
            assert step.action is not None  # an automatic step has an action (step_kinds.derive)
            state, more = AUTO_HANDLERS[step.action](system, state, step, dice)
            events.extend(more)
        if board_part.text(step) is not None:
            state, left = board_part.begin(state, step)
            events.append(left)
            break  # the players do the board part, then both mark the step finished
        events.append(Event(EventKind.STEP_RESOLVED, Visibility.PUBLIC, None, {"date": state.date_id, "step": step.ref}))
        state = move_on(system, state)
    return Progress(state, tuple(events))
