"""The step program: the system's steps split into parts and passes, the cursor moving through them (RR 2.5 RePh, PL 2.0/3.0, PHD C5)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine import board_part
from rules_engine.errors import RulesError
from rules_engine.events import Event
from rules_engine.model import Step
from rules_engine.state import (
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    CampaignState,
    SystemLike,
)
from rules_engine.step_kinds import INITIATIVE_ACTIONS
from rules_engine.system_memo import SystemMemo
from rules_engine.vocabulary import Automation

RESULTS_MARK = "@results"


NEW_DATE = "@new-date"


SCENARIO_MARK = "@scenario"


INITIAL_MARK = "@initial-scenario"


MARKS = (RESULTS_MARK, NEW_DATE, SCENARIO_MARK, INITIAL_MARK)


POST = "post-scenario"


NEW = "new-date"


PART_WORDS = {"post-scenario": POST, "new-date": NEW, "new-scenario": NEW}


AUTOMATIC = "automatic"


INPUT = "input"


ASSISTED = "assisted"


ON_BOARD = "on-board"


Events = tuple[Event, ...]


@dataclass(frozen=True)
class Layout:
    """The system's steps split into the post-scenario part, the new-date part before/after the initiative step."""

    post: tuple[Step, ...]
    new_before: tuple[Step, ...]
    initiative: Step | None
    after: tuple[Step, ...]


_LAYOUTS: dict[int, tuple[tuple[Step, ...], Layout]] = {}


def layout(system: SystemLike) -> Layout:
    """Split ``system.steps`` into parts (module docstring); cached per steps tuple (a System is immutable)."""
    steps = system.steps
    found = _LAYOUTS.get(id(steps))
    if found is not None and found[0] is steps:
        return found[1]
    result = _layout(steps)
    if len(_LAYOUTS) > 256:
        _LAYOUTS.clear()
    _LAYOUTS[id(steps)] = (steps, result)  # the key object is kept alive with its entry: its id cannot be reused
    return result


def _layout(steps: tuple[Step, ...]) -> Layout:
    declared = [PART_WORDS.get(str(step.params.get("part"))) for step in steps]
    parts: list[str] = []
    if NEW not in declared and POST in declared:
        # only a post-scenario step is declared (KGP 8.6031 "CG-Scenario End"): the steps up to the last one so
        # declared follow the scenario, the rest start the new date
        last = max(i for i, word in enumerate(declared) if word == POST)
        parts = [POST if i <= last else NEW for i in range(len(steps))]
    elif NEW not in declared:
        parts = [NEW] * len(steps)
    else:
        current = POST
        for word in declared:
            current = word or current
            parts.append(current)
    post = tuple(s for s, p in zip(steps, parts) if p == POST)
    new = [s for s, p in zip(steps, parts) if p == NEW]
    for i, step in enumerate(new):
        if step.action in INITIATIVE_ACTIONS:
            return Layout(post, tuple(new[:i]), step, tuple(new[i + 1:]))
    return Layout(post, tuple(new), None, ())


def _refs(steps: Sequence[Step]) -> tuple[str, ...]:
    return tuple(s.ref for s in steps if not s.initial_only and not s.in_scenario)


def _is_last_date(system: SystemLike, state: CampaignState) -> bool:
    return state.date_index + 1 >= len(system.calendar)


def program(system: SystemLike, kind: str, *, last_date: bool = False) -> tuple[str, ...]:
    """The entries of one pass, in order: step refs and marks (``@results``, ``@new-date``, ``@scenario`` …)."""
    return _PROGRAMS(system, (kind, last_date))


def _program(system: SystemLike, key: tuple[str, bool]) -> tuple[str, ...]:
    kind, last_date = key
    lay = layout(system)
    init = (lay.initiative.ref,) if lay.initiative else ()
    if kind == "initial":
        return tuple(s.ref for s in system.steps if (s.initial or s.initial_only) and not s.in_scenario) + (
            INITIAL_MARK,)
    if kind == "scenario":
        return _refs(lay.after) + (SCENARIO_MARK,)
    if kind == "cycle":
        post = lay.post
        if last_date and any("†" in s.markers for s in post):
            post = tuple(s for s in post if "†" in s.markers)
        tail = init if init else _refs(lay.after) + (SCENARIO_MARK,)
        return (RESULTS_MARK,) + _refs(post) + (NEW_DATE,) + _refs(lay.new_before) + tail
    if kind == "idle":
        idle = system.idle
        if idle is not None and idle.loop == "listed-steps":
            listed = tuple(s for s in system.steps if s.ref in idle.steps and not s.in_scenario)
            return _refs(listed) + (NEW_DATE,) + _refs(lay.new_before) + init
        post = tuple(s for s in lay.post if s.loop_on_idle)
        new = tuple(s for s in lay.new_before if s.loop_on_idle)
        return _refs(post) + (NEW_DATE,) + _refs(new) + init
    raise RulesError(f"unknown pass {kind!r} (allowed: initial, cycle, scenario, idle)")


_PROGRAMS = SystemMemo(_program).lookup


def current_program(system: SystemLike, state: CampaignState) -> tuple[str, ...]:
    """The pass the cursor is in."""
    return program(system, state.pass_kind or "initial", last_date=_is_last_date(system, state))


def find_step(system: SystemLike, ref: str) -> Step:
    """The system's step ``ref`` (RulesError naming the system when unknown)."""
    steps = system.steps
    found = _LAST_INDEX[0]
    if found[0] is not steps:
        found = _BY_REF.get(id(steps)) or _NO_INDEX
        if found[0] is not steps:
            found = _index_steps(steps)
        _LAST_INDEX[0] = found  # most calls ask the same system again
    step = found[1].get(ref)
    if step is None:
        raise RulesError(f"{system.id}: unknown step {ref!r}")
    return step


def _index_steps(steps: tuple[Step, ...]) -> tuple[tuple[Step, ...], dict[str, Step]]:
    by_ref: dict[str, Step] = {}
    for step in steps:
        by_ref.setdefault(step.ref, step)  # the first step with a ref, as a scan finds it
    if len(_BY_REF) > 256:
        _BY_REF.clear()
    found = _BY_REF[id(steps)] = (steps, by_ref)  # the key object is kept alive with its entry (as in ``layout``)
    return found


_BY_REF: dict[int, tuple[tuple[Step, ...], dict[str, Step]]] = {}
_NO_INDEX: tuple[tuple[Step, ...], dict[str, Step]] = ((), {})
_LAST_INDEX = [_NO_INDEX]  # the index ``find_step`` used last (its steps tuple kept alive with it)


def _spine_step(system: SystemLike, kind: str, entry: str) -> str:
    if entry == INITIAL_MARK:
        return INITIAL_SCENARIO
    if entry == SCENARIO_MARK:
        return SCENARIO
    if entry == RESULTS_MARK:
        return RESULTS
    lay = layout(system)
    if lay.initiative is not None and entry == lay.initiative.ref and kind != "initial" and _chit_mode(system):
        return INITIATIVE
    return PHASE


def goto(system: SystemLike, state: CampaignState, kind: str, entry: str) -> CampaignState:
    """The state with the cursor on ``entry`` of pass ``kind``; the step's marks and board log start afresh."""
    return state.moved_to(kind, entry, _spine_step(system, kind, entry))


def _chit_mode(system: SystemLike) -> bool:
    return system.initiative is not None and system.initiative.mode == "chit"


def move_on(system: SystemLike, state: CampaignState) -> CampaignState:
    """Move the cursor past the current entry (results confirmed, a step finished): the next entry of the pass,
    branching at the end of a pass."""
    kind, entry, step = _NEXT(system, (state.pass_kind or "initial", _is_last_date(system, state), state.phase_ref))
    return state.moved_to(kind, entry, step)


def _next(system: SystemLike, key: tuple[str, bool, str | None]) -> tuple[str, str, str]:
    """Where ``move_on`` puts the cursor from (pass, last date?, entry): the next (pass, entry, spine step)."""
    kind, last_date, ref = key
    entries = program(system, kind, last_date=last_date)
    index = entries.index(ref) if ref in entries else -1
    if index + 1 < len(entries):
        return kind, entries[index + 1], _spine_step(system, kind, entries[index + 1])
    # the end of a pass: the Initial Scenario or a scenario was played → results and the post-scenario part
    return "cycle", RESULTS_MARK, _spine_step(system, "cycle", RESULTS_MARK)


_NEXT = SystemMemo(_next).lookup  # the cursor's next place depends on the System's steps only (frozen)


def settled(system: SystemLike, state: CampaignState) -> CampaignState:
    """The state with the cursor moved on after a non-idle chit reveal (the scenario pass), as the panels read it."""
    return settle(system, state)


def settle(system: SystemLike, state: CampaignState) -> CampaignState:
    """Follow up ``initiative.submit_chit`` (which sets the step SCENARIO after a non-idle reveal): the scenario pass."""
    if state.step != SCENARIO:
        return state
    lay = layout(system)
    if lay.initiative is not None and state.phase_ref == lay.initiative.ref and state.pass_kind in ("cycle", "idle"):
        return goto(system, state, "scenario", program(system, "scenario")[0])
    return state


def step_kind(system: SystemLike, step: Step) -> str:
    """automatic | input | assisted | on-board: the kind the loader derived (step_kinds); the initiative step runs
    through the initiative flow and, outside it, is a board step (its tie-breaking rolls are made at the board)."""
    return _KIND_OF[step.automation]


_KIND_OF = {a: ON_BOARD if a is Automation.INITIATIVE else a.value for a in Automation}


def current_kind(system: SystemLike, state: CampaignState, step: Step) -> str:
    """The kind of ``step`` now: an automatic step whose app part is done and whose board part is left to the players
    (RR 2.5031, PHD C5.25 Booby Traps; rules_engine.board_part) is a board step until both mark it finished."""
    if "board_part" in step.params and board_part.is_open(state, step):  # only such a step has a board part
        return ON_BOARD
    return _KIND_OF[step.automation]  # step_kind


def step_at(system: SystemLike, state: CampaignState) -> Step | None:
    """The step the cursor is on (None at a mark), without settling first."""
    ref = state.phase_ref
    if ref is None or ref in MARKS:
        return None
    return find_step(system, ref)


def current_step(system: SystemLike, state: CampaignState) -> Step | None:
    """The current between-scenario step (None at a mark: a scenario, its results, the date change)."""
    return step_at(system, settle(system, state))


def step_label(step: Step) -> str:
    """A step as players read it: "2.519 Purchase RG"."""
    return f"{step.ref} {step.name}"
