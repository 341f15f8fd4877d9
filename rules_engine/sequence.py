"""The between-scenario phase as a checklist (RR 2.5 RePh, PL 2.0/3.0 RePh, PHD C5 ConPh), driven by ``system.steps``.

How the step list becomes a checklist (all from the data; no system is named here):

* **Parts.** A step's ``params.part`` says whether it follows the scenario just played (``post-scenario``) or starts the
  next date (``new-date``; PHD writes ``new-scenario``); a step without it takes the part of the step before it. The
  date advances on entering the new-date part (RR 2.5121, PL 2.1, PHD "NEW TM DATE"). A system that declares no part
  has one part: the whole list starts each new date.
* **Initiative.** The first step with action ``initiative``/``resolve-initiative`` (RR 2.522, PL 2.41, PHD C5.37);
  the new-date steps after it prepare the scenario (RR 2.523–2.525, PL 2.5–2.9, PHD C5.38–C5.41).
* **Passes.** ``initial``: the steps flagged ``initial``/``initial_only`` then the Initial Scenario (RR ††: 2.518–2.520;
  PL 2.2–2.9; PHD C5.12, C5.30–C5.35, C5.39, C5.41). ``cycle``: results entry, the post-scenario part, the new date,
  the new-date part up to the initiative. ``scenario``: the steps after the initiative, then the scenario.
  ``idle``: the system's idle loop (``steps-marked-loop``: the ``loop_on_idle`` steps of both parts, RR * steps, PHD
  Lull; ``listed-steps``: those steps, then the next date's new-date part, PL 3.41, 3.46, 3.461, 3.52 then 2.1).
  On the last date only the post-scenario steps marked "†" run when any is (RR: "the only steps needed for
  CG-Scenario End"); then the CG ends.
* **Kinds.** automatic (the engine resolves it in ``advance``), input (each side submits an order, possibly empty),
  assisted (rolls on the step's tables on request, then marked done), on-board (both mark done). ``sides: ordered``
  steps take the sides in their ``order`` (roles from the scenario just played or about to be played).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, cast

from rules_engine.dice import PUBLIC_STREAM, Dice, Roll, roll_from_json, roll_to_json
from rules_engine.errors import MissingValueError, RulesError, SubmissionError
from rules_engine.ledger import RosterLine, SideLedger, new_ledger
from rules_engine.events import JSON, Event, roll_event
from rules_engine.lost_values import (
    LABEL,
    Need,
    NeedDice,
    ReplayDice,
    UnsuppliedValueError,
    cell_key,
    column_shape,
    examples,
    lost_cause,
    need_id,
    parse_value,
    split_key,
    value_json,
    with_cells,
)
from rules_engine import board_part, leader_generation, map_groups, patrols, roll_questions
from rules_engine.losses import records_losses
from rules_engine.step_kinds import INITIATIVE_ACTIONS, INPUT_ACTIONS, ROLL_ACTIONS
from rules_engine.model import Cell, DiceTable, MapGroup, Row, Step, System
from rules_engine.state import (
    DUAL_ATTACK,
    ENDED,
    IDLE,
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    CampaignState,
    CgEnd,
    DateRecord,
    RevealedRound,
    SystemLike,
    check_side,
    side_ids,
    side_name,
)
from rules_engine.tables import AppliedModifier, Fact, MissingFactError, modifiers_for, needed_facts, side_facts
from rules_engine.vocabulary import Automation, Chit, DiceKind, Visibility

if TYPE_CHECKING:
    from rules_engine.purchases import RgOrder

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

TRACKS = ("san", "elr", "lvp")  # values a side may have to supply (its current SAN, ELR, Current-LVP)
TRACK_RANGES: Mapping[str, tuple[int, int, str]] = {
    "san": (0, 12, "a SAN is matched against a Dice Roll, 2 to 12"),
    "elr": (0, 5, "an ELR runs from 0 to 5"),
    "lvp": (0, 99_999, "LVP are counted, never negative"),
}
"""The whole numbers a side may supply for each track: (lowest, highest, why)."""

Events = tuple[Event, ...]


# ---------------------------------------------------------------------------------------------------------------------
# Layout and passes
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """The system's steps split into the post-scenario part, the new-date part before/after the initiative step."""

    post: tuple[Step, ...]
    new_before: tuple[Step, ...]
    initiative: Step | None
    after: tuple[Step, ...]


def _steps(system: SystemLike) -> tuple[Step, ...]:
    return tuple(getattr(system, "steps", ()))


_LAYOUTS: dict[int, tuple[tuple[Step, ...], Layout]] = {}


def layout(system: SystemLike) -> Layout:
    """Split ``system.steps`` into parts (module docstring); cached per steps tuple (a System is immutable)."""
    steps = _steps(system)
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
    lay = layout(system)
    init = (lay.initiative.ref,) if lay.initiative else ()
    if kind == "initial":
        return tuple(s.ref for s in _steps(system) if (s.initial or s.initial_only) and not s.in_scenario) + (
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
        idle = getattr(system, "idle", None)
        if idle is not None and idle.loop == "listed-steps":
            listed = tuple(s for s in _steps(system) if s.ref in idle.steps and not s.in_scenario)
            return _refs(listed) + (NEW_DATE,) + _refs(lay.new_before) + init
        post = tuple(s for s in lay.post if s.loop_on_idle)
        new = tuple(s for s in lay.new_before if s.loop_on_idle)
        return _refs(post) + (NEW_DATE,) + _refs(new) + init
    raise RulesError(f"unknown pass {kind!r} (allowed: initial, cycle, scenario, idle)")


def current_program(system: SystemLike, state: CampaignState) -> tuple[str, ...]:
    """The pass the cursor is in."""
    return program(system, state.pass_kind or "initial", last_date=_is_last_date(system, state))


def _system(system: SystemLike) -> System:
    return cast(System, system)


def _step(system: SystemLike, ref: str) -> Step:
    for step in _steps(system):
        if step.ref == ref:
            return step
    raise RulesError(f"{system.id}: unknown step {ref!r}")


def _spine_step(system: SystemLike, state: CampaignState, kind: str, entry: str) -> str:
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


def _goto(system: SystemLike, state: CampaignState, kind: str, entry: str) -> CampaignState:
    return replace(
        state, pass_kind=kind, phase_ref=entry, step=_spine_step(system, state, kind, entry), done=frozenset(),
        facts_supplied={}, parts_done=frozenset(), map_done={}, map_results={}, map_agreed={}, board_log=(),
        board_counts={},
    )


def _chit_mode(system: SystemLike) -> bool:
    return system.initiative is not None and system.initiative.mode == "chit"


def move_on(system: SystemLike, state: CampaignState) -> CampaignState:
    """Move the cursor past the current entry (results confirmed, a step finished)."""
    return _next(system, state)


def _next(system: SystemLike, state: CampaignState) -> CampaignState:
    """Move the cursor to the next entry of the pass (branching at the end of a pass)."""
    entries = current_program(system, state)
    index = entries.index(state.phase_ref) if state.phase_ref in entries else -1
    if index + 1 < len(entries):
        return _goto(system, state, state.pass_kind or "initial", entries[index + 1])
    # the end of a pass: the Initial Scenario or a scenario was played → results and the post-scenario part
    return _goto(system, state, "cycle", RESULTS_MARK)


def settled(system: SystemLike, state: CampaignState) -> CampaignState:
    """The state with the cursor moved on after a non-idle chit reveal (the scenario pass), as the panels read it."""
    return _settle(system, state)


def _settle(system: SystemLike, state: CampaignState) -> CampaignState:
    """Follow up ``initiative.submit_chit`` (which sets the spine step SCENARIO after a non-idle reveal)."""
    lay = layout(system)
    if (
        state.phased and state.step == SCENARIO and lay.initiative is not None
        and state.phase_ref == lay.initiative.ref and state.pass_kind in ("cycle", "idle")
    ):
        return _goto(system, state, "scenario", program(system, "scenario")[0])
    return state


# ---------------------------------------------------------------------------------------------------------------------
# Starting a phased campaign
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InitialRoles:
    """Who attacks in the Initial Scenario (the scenario card / CG Card says; PHD C4.2 "US Attack")."""

    label: str
    setup_first: str | None = None
    moves_first: str | None = None
    attackers: tuple[str, ...] = ()


def initial_roles(system: SystemLike) -> InitialRoles | None:
    """The Initial Scenario's roles from the data: a special rule's ``params.initiative`` (PHD C4.2) or the
    ``initial_attacker`` setting (PL 1.4); None when the data do not say (RR: the Initial Scenario is not in the seed)."""
    initiative = system.initiative
    for rule in getattr(system, "special_rules", ()):
        result = rule.params.get("initiative")
        if isinstance(result, str) and initiative is not None:
            for cell in initiative.matrix.values():
                if cell.result == result:
                    first = rule.params.get("setup_first")
                    moves = rule.params.get("moves_first")
                    setup = str(first) if isinstance(first, str) else cell.setup_first
                    mover = str(moves) if isinstance(moves, str) else cell.moves_first
                    return InitialRoles(cell.label, setup, mover, (mover,) if mover else ())
    attacker = getattr(system, "settings_values", {}).get("initial_attacker")
    if isinstance(attacker, str) and attacker in side_ids(system):
        other = side_ids(system)[1] if attacker == side_ids(system)[0] else side_ids(system)[0]
        return InitialRoles(f"{side_name(system, attacker)} attack (assigned)", other, attacker, (attacker,))
    return None


def _initial_tracks(system: SystemLike) -> dict[str, dict[str, int]]:
    """SAN/ELR known from the data: ``initial_san``/``initial_elr`` settings, or a special rule's per-side OB params."""
    sides = side_ids(system)
    tracks: dict[str, dict[str, int]] = {side: {} for side in sides}
    values = getattr(system, "settings_values", {})
    for name, track in (("initial_san", "san"), ("initial_elr", "elr")):
        per_side = values.get(name)
        if isinstance(per_side, Mapping):
            for side in sides:
                value = per_side.get(side)
                if isinstance(value, int) and not isinstance(value, bool):
                    tracks[side][track] = value
    initial_ob = getattr(system, "initial_ob", None)
    for side in sides:
        ob = initial_ob.side(side) if initial_ob is not None else None
        for track in ("san", "elr"):
            value = getattr(ob, track, None)
            if isinstance(value, int):
                tracks[side].setdefault(track, value)
    return tracks


def _initial_ob(system: SystemLike, ledger: SideLedger, side: str, date_id: str) -> tuple[SideLedger, Event | None]:
    """PHD C4.2 Initial OB: the points it gives go on the ledger, its RG become Initial-OB lines (not counted for maxima)."""
    from decimal import Decimal

    from rules_engine.purchases import record_initial_ob

    initial_ob = getattr(system, "initial_ob", None)
    ob = initial_ob.side(side) if initial_ob is not None else None
    if initial_ob is None or ob is None:
        return ledger, None
    for code, amount in ob.points.items():
        ledger = ledger.adjust(code, Decimal(amount))
    ledger = record_initial_ob(_system(system), ledger, side, date_id, ob.rg)
    payload: dict[str, JSON] = {
        "date": date_id, "side": side, "ref": initial_ob.ref, "points": {k: v for k, v in ob.points.items()},
        "rg": [g.text for g in ob.rg], "elr": ob.elr, "san": ob.san,
        "text": f"{side_name(system, side)} Initial OB ({initial_ob.ref}): "
                + "; ".join([*(f"RG: {g.text}" for g in ob.rg), *(f"{v} {k}" for k, v in ob.points.items())]),
    }
    return ledger, Event("initial-ob", Visibility.PUBLIC, None, payload)  # printed on the scenario card: both know it


def start(
    system: SystemLike,
    dice: Dice,
    *,
    roles: InitialRoles | None = None,
    tracks: Mapping[str, Mapping[str, int]] | None = None,
    ledgers: Mapping[str, SideLedger] | None = None,
) -> tuple[CampaignState, Events]:
    """A phased CG at its start: the Initial OB applied (PHD C4.2: points, OB-given RG, ELR/SAN), then the steps before the
    Initial Scenario (RR ††, PL 2.2–2.9, PHD C5.31ff) are run."""
    from rules_engine.state import new_campaign

    base = new_campaign(system)
    known = _initial_tracks(system)
    for side, values in (tracks or {}).items():
        check_side(system, side)
        known.setdefault(side, {}).update(values)
    chosen = roles if roles is not None else initial_roles(system)
    last = None
    if chosen is not None:
        last = RevealedRound(
            date_index=0, date_id=base.date_id, chits={}, result="initial", label=chosen.label,
            setup_first=chosen.setup_first, moves_first=chosen.moves_first,
        )
    events: list[Event] = [
        Event("campaign-started", Visibility.PUBLIC, None, {"date": base.date_id, "initial_roles": chosen.label if chosen else None})
    ]
    books: dict[str, SideLedger] = {}
    for side in base.sides:
        given = (ledgers or {}).get(side)
        if given is not None:
            books[side] = given
            continue
        book = new_ledger(side, san=known.get(side, {}).get("san"), elr=known.get(side, {}).get("elr"))
        book, ob_event = _initial_ob(system, book, side, base.date_id)
        books[side] = book
        if ob_event is not None:
            events.append(ob_event)
    state = replace(base, phased=True, tracks=known, last_round=last, ledgers=books)
    state = _record(state, *events[1:])
    state = _goto(system, state, "initial", program(system, "initial")[0])
    state, more = advance(system, state, dice)
    events.extend(more)
    return state, tuple(events)


# ---------------------------------------------------------------------------------------------------------------------
# Kinds, roles and order
# ---------------------------------------------------------------------------------------------------------------------


def step_kind(system: SystemLike, step: Step) -> str:
    """automatic | input | assisted | on-board: the kind the loader derived (step_kinds); the initiative step runs
    through the initiative flow and, outside it, is a board step (its tie-breaking rolls are made at the board)."""
    return ON_BOARD if step.automation is Automation.INITIATIVE else step.automation.value


def current_kind(system: SystemLike, state: CampaignState, step: Step) -> str:
    """The kind of ``step`` now: an automatic step whose app part is done and whose board part is left to the players
    (RR 2.5031, PHD C5.25 Booby Traps; rules_engine.board_part) is a board step until both mark it finished."""
    return ON_BOARD if board_part.is_open(state, step) else step_kind(system, step)


def _attacker(record: DateRecord | RevealedRound | None) -> str | None:
    if record is None:
        return None
    if record.moves_first:
        return record.moves_first
    if isinstance(record, DateRecord):
        attackers = [s for s, c in record.choices.items() if c == str(Chit.ATTACK)]
        if len(attackers) == 1:
            return attackers[0]
        if record.result is not None:
            attacked = [s for s, a in record.result.attacked.items() if a]
            if len(attacked) == 1:
                return attacked[0]
    else:
        attackers = [s for s, c in record.chits.items() if c is Chit.ATTACK]
        if len(attackers) == 1:
            return attackers[0]
    return None


def _played(state: CampaignState) -> list[DateRecord]:
    return [r for r in state.history if r.kind != "idle"]


def resolve_order(system: SystemLike, state: CampaignState, step: Step) -> tuple[str, ...] | None:
    """The sides of an ordered step in turn (sides not named act last); None when a role is not known."""
    if patrols.resolved_item(step) is not None and step.params.get("order_chooser"):
        return patrols.order(state, step, order_chooser(system, state, step))  # PL 2.74: the buyers, as chosen
    sides = side_ids(system)
    other = {sides[0]: sides[1], sides[1]: sides[0]}
    in_scenario_pass = state.pass_kind == "scenario" or (state.pass_kind == "initial" and state.step != INITIAL_SCENARIO)
    round_now = state.last_round if state.last_round and state.last_round.date_index == state.date_index else None
    played = _played(state)
    just_played = played[-1] if played else None
    previous = (played[-1] if in_scenario_pass else (played[-2] if len(played) > 1 else None)) if played else None
    if in_scenario_pass:
        attacker = _attacker(round_now) or _attacker(previous)
    else:
        attacker = _attacker(just_played)
    words: dict[str, str | None] = {
        "attacker": attacker,
        "defender": other[attacker] if attacker else None,
        "setup-first": round_now.setup_first if round_now else None,
        "moves-first": round_now.moves_first if round_now else None,
        "previous-attacker": _attacker(previous),
    }
    for first, second in (("setup-first", "setup-second"), ("moves-first", "moves-second"),
                          ("previous-attacker", "previous-defender")):
        known = words[first]
        words[second] = other[known] if known else None
    order: list[str] = []
    for word in step.order:
        side = word if word in sides else words.get(word)
        if side is None:
            return None
        if side not in order:
            order.append(side)
    return tuple(order) + tuple(s for s in sides if s not in order)


def order_chooser(system: SystemLike, state: CampaignState, step: Step) -> str | None:
    """The side that chooses the order of a ``resolves`` step (``params.order_chooser``: role words, the first one
    known wins: PL 2.74 the Defender in the most recent firefight), or None."""
    words = step.params.get("order_chooser")
    for word in ([words] if isinstance(words, str) else words if isinstance(words, list) else []):
        found = resolve_order(system, state, replace(step, order=(str(word),), params={}))
        if found:
            return found[0]
    return None


def choose_resolution_order(system: SystemLike, state: CampaignState, side: str, first: str
                            ) -> tuple[CampaignState, Events]:
    """PL 2.74: the side the rule names chooses which side resolves its Patrols first."""
    check_side(system, side)
    state = _settle(system, state)
    step = _current_step(system, state)
    if step is None or patrols.resolved_item(step) is None:
        raise SubmissionError(f"There is no order of resolution to choose now (step: {state.phase_ref or state.step}).")
    new, events = patrols.choose_first(system, state, step, side, order_chooser(system, state, step), first)
    return _record(new, *events), events


def _waiting_for(system: SystemLike, state: CampaignState, step: Step, side: str) -> str | None:
    """The side that must finish this ordered step before ``side`` may act, or None."""
    if step.sides != "ordered":
        return None
    order = resolve_order(system, state, step)
    if order is None:
        return None
    for earlier in order[: order.index(side)]:
        if earlier not in state.done:
            return earlier
    return None


# ---------------------------------------------------------------------------------------------------------------------
# Facts and settings for DRMs
# ---------------------------------------------------------------------------------------------------------------------


def side_settings(system: SystemLike, side: str) -> dict[str, int]:
    """Whole-number settings for ``side`` (per-side values give that side's; defaults where nothing is set)."""
    out: dict[str, int] = {}
    for setting in getattr(system, "settings", ()):
        if isinstance(setting.default, int) and not isinstance(setting.default, bool):
            out[setting.id] = setting.default
    for key, value in getattr(system, "settings_values", {}).items():
        if isinstance(value, Mapping):
            value = value.get(side)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
    return out


def setting_value(system: SystemLike, side: str, key: str) -> object:
    """A setting's value for ``side`` (per-side mappings resolved), else its default, else None."""
    value: object = getattr(system, "settings_values", {}).get(key)
    if isinstance(value, Mapping):
        value = value.get(side)
    if value is None:
        for setting in getattr(system, "settings", ()):
            if setting.id == key:
                return setting.default
    return value


def facts_for(system: SystemLike, state: CampaignState, side: str) -> dict[str, Fact]:
    """DRM facts the engine knows from its records ("previous"/"this" = the date just finished), plus supplied ones."""
    facts: dict[str, Fact] = dict(side_facts(_system(system), side)) if hasattr(system, "side") else {}
    other = state.other(side)
    last = state.history[-1] if state.history else None
    result = last.result if last is not None else None
    facts["own_attack_previous"] = last is not None and last.choices.get(side) == str(Chit.ATTACK)
    # RR 2.521 "-1 Attacked in the previous CG Scenario": the last scenario played (an Idle Date has none)
    played = next((r.result for r in reversed(state.history) if r.kind != "idle" and r.result is not None), None)
    facts["own_attacked_previous_scenario"] = bool(played and played.attacked.get(side))
    won = bool(result and result.winner == side)
    facts["won_previous"] = won
    facts["won_this"] = won
    facts["cvp_amassed_this"] = result.cvp.get(side, 0) if result else 0
    facts["cvp_suffered_previous"] = result.cvp.get(other, 0) if result else 0
    idle_seen = any(r.kind == "idle" for r in state.history)
    facts["firefights_without_idle"] = 0 if idle_seen else len(_played(state))
    if 0 <= state.date_index < len(system.calendar):
        facts["night"] = bool(getattr(system.calendar[state.date_index], "night", False))
    own = state.sealed.get(side)
    if own is not None:
        facts["attack_option_purchased_now"] = own is Chit.ATTACK
    ledger = state.ledgers.get(side)
    if ledger is not None and hasattr(system, "rg_chart"):
        from rules_engine.record_facts import platoons_purchased

        facts.update(platoons_purchased(_system(system), ledger, side, state.date_id))  # PL 3.47, from the record
    facts.update(state.facts_supplied.get(side, {}))
    return facts


# ---------------------------------------------------------------------------------------------------------------------
# Rolling on a table
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Resolution:
    """A roll on a table with its DRM breakdown (tables.resolve, plus extra modifiers a step adds: PL 3.45 "+2")."""

    table: DiceTable
    roll: Roll
    column: str
    modifiers: tuple[AppliedModifier, ...]
    final: int
    row: Row
    cell: Cell

    def to_json(self) -> dict[str, JSON]:
        """The breakdown as recorded: original, each DRM with its reason, final, row, result as printed."""
        return {
            "table": self.table.id,
            "table_ref": self.table.ref,
            "table_name": self.table.name,
            "column": self.column,
            "dice": list(self.roll.dice),
            "original": self.roll.total,
            "modifiers": [{"reason": m.reason, "value": m.value, "source": m.source} for m in self.modifiers],
            "final": self.final,
            "row": self.row.display_label,
            "result": self.cell.text,
            "caution": self.cell.caution,
        }


def roll_on(
    table: DiceTable,
    roll: Roll,
    column: str | None,
    facts: Mapping[str, Fact],
    answers: Mapping[int, int | bool],
    settings: Mapping[str, int],
    extra: Sequence[AppliedModifier] = (),
    ignore_facts: Sequence[str] = (),
) -> Resolution:
    """Resolve a roll: the table's DRM (facts, answers, settings) plus ``extra``; facts in ``ignore_facts`` count 0."""
    col = table.column(column)
    use = dict(facts)
    for name in ignore_facts:
        use[name] = 0
    applied = modifiers_for(table, col.id, use, answers, settings) + tuple(extra)
    final = roll.total + sum(m.value for m in applied)
    return Resolution(table, roll, col.id, applied, final, table.row_for(final), table.cell(final, col.id))


def _visibility(step: Step, table: DiceTable | None) -> Visibility:
    if step.secret == "roll" or (table is not None and table.secret):
        return Visibility.CG_END if step.revealed == "cg-end" else Visibility.SIDE
    return Visibility.PUBLIC


def _roll(dice: Dice, table: DiceTable, purpose: str, side: str, visibility: Visibility) -> Roll:
    stream = PUBLIC_STREAM if visibility is Visibility.PUBLIC else side
    return dice.roll(table.dice, purpose, side, stream)


def _record(state: CampaignState, *events: Event) -> CampaignState:
    return replace(state, records=state.records + tuple(events))


def _result_events(
    state: CampaignState, step: Step, side: str, resolution: Resolution, visibility: Visibility, **extra: JSON
) -> tuple[CampaignState, Events]:
    owner = None if visibility is Visibility.PUBLIC else side
    roll_ev = roll_event(resolution.roll, visibility, owner, final=resolution.final, result=resolution.cell.text)
    payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "side": side, **resolution.to_json(), **extra}
    result = Event("table-result", visibility, owner if owner else side, payload)
    return _record(state, result), (roll_ev, result)


def table_column(system: SystemLike, step: Step, table: DiceTable, side: str) -> str | None:
    """The column a step rolls in for ``side``: params ``column`` (``own-side`` = the side id), ``column_setting``,
    ``column_by_nationality``; else the only column."""
    params = step.params
    column = params.get("column")
    if column == "own-side":
        return side
    if isinstance(column, str):
        return column
    setting = params.get("column_setting")
    if isinstance(setting, str):
        value = setting_value(system, side, setting)
        if value is None:
            raise SubmissionError(
                f"{step.ref} {step.name}: the setting {setting!r} (the table column) is not set; supply it in a CG Card",
                step.ref,
            )
        return str(value)
    by_nat = params.get("column_by_nationality")
    if isinstance(by_nat, Mapping):
        nationality = setting_value(system, side, "nationality")
        pick = by_nat.get(str(nationality)) or by_nat.get("default")
        return str(pick) if pick else None
    return None if len(table.columns) > 1 else table.columns[0].id


def _step_table(system: SystemLike, step: Step, side: str) -> DiceTable:
    by_side = step.params.get("table_by_side")
    name = by_side.get(side) if isinstance(by_side, Mapping) else step.params.get("table")
    if not isinstance(name, str):
        if not step.tables:
            raise RulesError(f"{system.id} step {step.ref}: no table to roll on (params.table or tables:)")
        name = step.tables[0]
    return _system(system).table(name)


def _missing_facts(system: SystemLike, state: CampaignState, step: Step, side: str) -> tuple[str, ...]:
    """Facts an automatic roll of this step needs that the engine cannot derive and nobody has supplied."""
    if step.action not in TABLE_HANDLERS or not _applies(system, step, side):
        return ()
    table = _step_table(system, step, side)
    try:
        column = table_column(system, step, table, side)
    except SubmissionError:
        return ()
    known = facts_for(system, state, side)
    ignored = step.params.get("ignore_facts")
    skip = set(ignored) if isinstance(ignored, list) else set()
    return tuple(f for f in needed_facts(table, column) if f not in known and f not in skip
                 and not f.startswith(("side_is:", "nationality_is:")))


def _missing_tracks(system: SystemLike, state: CampaignState, step: Step, side: str) -> tuple[str, ...]:
    needs = TRACK_NEEDS.get(step.action or "", ())
    if step.action == "record-lvp" and side not in _lvp_recorders(system, step):
        return ()
    if step.action == "record-lvp":
        record = state.history[-1] if state.history else None
        if record and record.result and side in record.result.lvp:
            return ()
    return tuple(t for t in needs if t not in state.tracks.get(side, {}))


def _fact_shape(system: SystemLike, step: Step, side: str, fact: str) -> str:
    """``number`` for a counted fact (a ``per:`` modifier: "−1 per 10 CVP"), else ``yes-no``."""
    try:
        table = _step_table(system, step, side)
    except RulesError:
        return "yes-no"
    return "number" if any(m.per is not None and m.per.fact == fact for m in table.modifiers) else "yes-no"


def _fact_words(system: SystemLike, step: Step, side: str, fact: str, shape: str) -> str:
    """The question for a DRM fact, in the words of the table's modifier ("–2 per Friendly Elite Infantry Pltn …")."""
    try:
        table = _step_table(system, step, side)
    except RulesError:
        table = None
    for modifier in table.modifiers if table is not None else ():
        if (modifier.per is not None and modifier.per.fact == fact) or modifier.when == fact:
            reason = str(modifier.reason).strip().rstrip(".")
            return f"How many? {reason}" if shape == "number" else f"Does this apply? {reason}"
    return fact.replace("_", " ")


def _table_need(system: SystemLike, state: CampaignState, side: str, pending: Mapping[str, JSON]) -> Need:
    """The "table-value" Need of a side's paused roll."""
    key = str(pending["cell"])
    table_id, index, column = split_key(key)
    table = _system(_for_side(system, state, side)).table(table_id)
    row = table.rows[index]
    col = None if column == LABEL else table.column(column)
    final = pending.get("final")
    shape = column_shape(table, column)
    if col is None:
        what = f"the row label of {table.ref} {table.name} for final {table.dice} {final} (read as {row.range_text})"
    elif len(table.columns) > 1:
        what = f"the {col.label} value of {table.ref} {table.name} for final {table.dice} {final}"
    else:
        what = f"the result of {table.ref} {table.name} for final {table.dice} {final}"
    text = f"{what} is lost in the rule text: type it as printed on your chart"
    return Need(
        id=need_id(key), kind="table-value", side=side, text=text, shape=shape, step=str(pending.get("step")),
        table=table.id, table_ref=table.ref, table_name=table.name, final=final if isinstance(final, int) else None,
        row=row.range_text, column=col.id if col else None, column_label=col.label if col else None,
        public=bool(pending.get("public")), examples=examples(table, column),
    )


def _open_pending(state: CampaignState, side: str) -> Mapping[str, JSON] | None:
    """A side's paused roll whose value has not been typed yet."""
    pending = state.pending.get(side)
    if pending is None or str(pending.get("cell")) in state.supplied_cells.get(side, {}):
        return None
    return pending


def needs(system: SystemLike, state: CampaignState, side: str) -> tuple[Need, ...]:
    """What ``side`` must supply before the current step goes on: a value lost in the rule text that its roll fell on
    ("table-value"), its SAN/ELR/Current-LVP ("track"), a DRM fact the records do not give ("fact")."""
    state = _settle(system, state)
    out: list[Need] = []
    pending = _open_pending(state, side)
    if pending is not None:
        out.append(_table_need(system, state, side, pending))
    if state.step != PHASE or state.phase_ref in MARKS or state.phase_ref is None:
        return tuple(out)
    step = _step(system, state.phase_ref)
    if current_kind(system, state, step) != AUTOMATIC:
        return tuple(out)
    for track in _missing_tracks(system, state, step, side):
        text = f"your current {track.upper()} ({step.ref})"
        bought = _ledger(system, state, side).san_pending if track == "san" else 0
        if bought:
            text = (f"your current SAN ({step.ref}), without the {bought:+d} of the Sniper RG you bought: "
                    "the app adds it")
        out.append(Need(track, "track", side, text, "number", step.ref))
    generate = leader_generation.need(state, step, side) if leader_generation.params(step) is not None else None
    if generate is not None:
        out.append(generate)
    for fact in _missing_facts(system, state, step, side):
        shape = _fact_shape(system, step, side, fact)
        out.append(Need(fact, "fact", side, f"{_fact_words(system, step, side, fact, shape)} ({step.ref})", shape,
                        step.ref))
    asked = roll_questions.need(_system(system), state, step, side)  # PHD C5.33/C5.34 ticks (issue 14 item 7)
    if asked is not None:
        out.append(asked)
    return tuple(out)


def roll_questions_for(system: SystemLike, state: CampaignState, side: str) -> tuple[roll_questions.Question, ...]:
    """The DRM questions of ``side``'s own secret rolls at the current step, while it has not answered (its view only)."""
    step = _current_step(system, _settle(system, state))
    if step is None or roll_questions.answered(state, side):
        return ()
    return roll_questions.open_questions(_system(system), state, step, side)


def public_needs(system: SystemLike, state: CampaignState, side: str) -> tuple[Need, ...]:
    """The opponent's Needs ``side`` may see: values lost in the rule text that a *public* roll fell on."""
    other = state.other(side)
    pending = _open_pending(state, other)
    if pending is None or not pending.get("public"):
        return ()
    return (_table_need(system, state, other, pending),)


def supply(
    system: SystemLike,
    state: CampaignState,
    side: str,
    need: str | Mapping[str, int | bool],
    value: object = None,
    *,
    dice: Dice | None = None,
) -> tuple[CampaignState, Events]:
    """A side supplies what it is asked for (``needs``): ``need`` is a Need id and ``value`` the value (a table value
    as printed: "12", "8-0, 7-0", a text), or a mapping {need id: value} for several SAN/ELR/LVP/fact needs at once.
    A table value is stored as this side's supplied cell and the paused work resumes now (or at the next ``advance``
    when it needs a new roll and no ``dice`` are given)."""
    check_side(system, side)
    state = _settle(system, state)
    wanted = needs(system, state, side)
    ids = ", ".join(n.id for n in wanted) or "nothing"
    values: Mapping[str, object] = need if isinstance(need, Mapping) else {need: value}
    if not values:
        raise SubmissionError(f"Nothing supplied (needed: {ids})")
    by_id = {n.id: n for n in wanted}
    if leader_generation.NEED in values and leader_generation.NEED in by_id:
        if len(values) > 1:
            raise SubmissionError("Say how many leaders you Generate on its own", state.phase_ref)
        return _generate_leaders(system, state, side, values[leader_generation.NEED], dice)
    if roll_questions.NEED_ID in values and roll_questions.NEED_ID in by_id:
        if len(values) > 1:
            raise SubmissionError("Send the answers of your secret rolls on their own", state.phase_ref)
        step = _step(system, str(state.phase_ref))
        return roll_questions.answer(_system(system), state, step, side, values[roll_questions.NEED_ID])
    for key, given in values.items():
        found = by_id.get(key)
        if found is None:
            raise SubmissionError(f"{key!r} is not needed now (needed: {ids})", state.phase_ref)
        if found.kind == "table-value":
            if len(values) > 1:
                raise SubmissionError("Supply a value lost in the rule text on its own", found.table_ref)
            return _supply_cell(system, state, side, found, given, dice)
        given = _coerce(found.shape, given)
        values = {**values, key: given}
        if found.shape == "number" and (isinstance(given, bool) or not isinstance(given, int)):
            raise SubmissionError(f"{key} must be a whole number, got {given!r}", state.phase_ref)
        if key in TRACK_RANGES and isinstance(given, int) and not isinstance(given, bool):
            low, high, why = TRACK_RANGES[key]
            if not low <= given <= high:
                raise SubmissionError(f"{key.upper()} must be a whole number from {low} to {high} ({why}); "
                                      f"{given} is out of range", state.phase_ref)
        if found.shape == "yes-no" and not isinstance(given, bool):
            raise SubmissionError(f"{key} must be yes or no (true/false), got {given!r}", state.phase_ref)
    facts = {s: dict(v) for s, v in state.facts_supplied.items()}
    new = state
    plain: dict[str, int | bool] = {k: v for k, v in values.items() if isinstance(v, (int, bool))}
    for key, given in plain.items():
        if key in TRACKS:
            new = _set_track(new, side, key, int(given), None, main_currency(system))
        else:
            facts.setdefault(side, {})[key] = given
    new = replace(new, facts_supplied=facts)
    public = {k: v for k, v in plain.items() if k in TRACKS and k != "lvp"}
    events: list[Event] = [Event("supplied", Visibility.SIDE, side, {"step": state.phase_ref, "values": dict(plain)})]
    if public:
        events.append(Event("track-set", Visibility.PUBLIC, None, {"side": side, "values": dict(public)}))
    return new, tuple(events)


def _generate_leaders(system: SystemLike, state: CampaignState, side: str, value: object, dice: Dice | None
                      ) -> tuple[CampaignState, Events]:
    """PL 3.45: ``side`` Generates this many leaders, each a secret DR on the leader table (the step's
    ``params.generate``: table, column by nationality) with its DRM (Leader DRM, Historical DRM from the card)."""
    step = _current_step(system, state)
    assert step is not None
    count = leader_generation.chosen(state, step, side, value)
    if count and dice is None:
        raise NeedDice(f"{step.ref}: rolling the generated leaders needs the dice")
    spec = leader_generation.params(step) or {}
    table = _system(system).table(str(spec.get("table", "leader")))
    column = table_column(system, replace(step, params=dict(spec)), table, side)
    visibility = _visibility(step, table)
    events: list[Event] = []
    leaders: list[JSON] = []
    for number in range(1, count + 1):
        assert dice is not None
        roll = _roll(dice, table, f"{step.ref} generated leader {number} of {count} ({side_name(system, side)})",
                     side, visibility)
        resolution = roll_on(table, roll, column, facts_for(system, state, side), {}, side_settings(system, side))
        state, more = _result_events(state, step, side, resolution, visibility, generated=number)
        events.extend(more)
        leaders.append(resolution.cell.text)
    state = leader_generation.recorded(state, side, count)
    text = (f"{step.ref}: {side_name(system, side)} Generates {count} leader{'s' if count != 1 else ''}"
            + (f" on the {table.ref} table: {', '.join(str(x) for x in leaders)}" if count else ""))
    summary = Event("leaders-generated", visibility, side, {"date": state.date_id, "step": step.ref, "side": side,
                                                            "count": count, "leaders": leaders, "text": text})
    return _record(state, summary), (*events, summary)


def _coerce(shape: str, given: object) -> object:
    """A form's text for a whole number or a yes/no ("7", "yes", "false"), else the value unchanged."""
    if not isinstance(given, str):
        return given
    text = given.strip().casefold()
    if shape == "number" and re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if shape == "yes-no" and text in ("true", "yes", "on", "1", "false", "no", "off", "0"):
        return text in ("true", "yes", "on", "1")
    return given


def _supply_cell(
    system: SystemLike, state: CampaignState, side: str, need: Need, raw: object, dice: Dice | None
) -> tuple[CampaignState, Events]:
    """Store a typed table value as the side's supplied cell (audited at CG end), then resume the paused work."""
    pending = state.pending[side]
    key = str(pending["cell"])
    value = parse_value(need.shape, raw, f"{need.table_ref} {need.table_name}")
    cells = {**state.supplied_cells.get(side, {}), key: value_json(value)}
    state = replace(state, supplied_cells={**state.supplied_cells, side: cells})
    visibility = Visibility.PUBLIC if need.public else Visibility.CG_END
    shown = ", ".join(value) if isinstance(value, tuple) else str(value)
    event = Event("value-supplied", visibility, None if need.public else side, {
        "date": state.date_id, "step": need.step, "side": side, "need": need.id, "table": need.table,
        "table_ref": need.table_ref, "final": need.final, "row": need.row, "column": need.column, "value": shown,
        "text": f"{side_name(system, side)} typed {shown!r} for {need.table_ref} {need.table_name} row {need.row}"
                + (f", {need.column_label}" if need.column_label else "") + " (lost in the rule text)",
    })
    state = _record(state, event)
    try:
        new, more = _resume_all(system, state, dice)
    except NeedDice:
        return state, (event,)  # the next advance (with the dice) resumes it
    return new, (event, *more)


# ---------------------------------------------------------------------------------------------------------------------
# Automatic step handlers
# ---------------------------------------------------------------------------------------------------------------------


class Handler(Protocol):
    def __call__(self, system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]: ...


def _applies(system: SystemLike, step: Step, side: str) -> bool:
    only = step.params.get("only_if_setting")
    if isinstance(only, str) and not setting_value(system, side, only):
        return False
    skip = step.params.get("skip_if_setting")
    return not (isinstance(skip, str) and setting_value(system, side, skip))


def _entry(system: SystemLike, state: CampaignState) -> object:
    return system.calendar[state.date_index]


def _weather(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """Weather from the calendar (RR 2.517, PL 2.2, PHD C5.30)."""
    entry = _entry(system, state)
    payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref}
    for name in ("ec", "weather", "moon", "wind"):
        cell = getattr(entry, name, None)
        payload[name] = cell.text if isinstance(cell, Cell) else None
    payload["night"] = bool(getattr(entry, "night", False))
    if payload["weather"] is None and step.params.get("weather_unset") == "table-or-board":
        return _weather_unset(system, state, step, dice, payload)
    event = Event("weather", Visibility.PUBLIC, None, payload)
    return _record(state, event), (event,)


def _weather_unset(
    system: SystemLike, state: CampaignState, step: Step, dice: Dice, payload: dict[str, JSON]
) -> tuple[CampaignState, Events]:
    """ER 1.517 / KGP 8.617 (CG3): the card's calendar gives no weather for this CG Date — a public roll on the
    card's random weather table when the card supplies one (the step's ``tables:``), else the board decides."""
    if not step.tables:
        payload["board"] = True
        payload["text"] = (f"The card gives no weather for {state.date_id}: determine it at the board from the "
                           f"printed {step.ref} chart (or the optional random weather the players agreed to use).")
        event = Event("weather", Visibility.PUBLIC, None, payload)
        return _record(state, event), (event,)
    table = _system(system).table(step.tables[0])
    roller = _system(system).sides[0].id
    roll = _roll(dice, table, f"{step.ref} {step.name} ({table.name})", roller, Visibility.PUBLIC)
    resolution = roll_on(table, roll, table_column(system, step, table, roller), {}, {}, {})
    state, rolled = _result_events(state, step, roller, resolution, Visibility.PUBLIC)
    payload["weather"] = resolution.cell.text
    payload["rolled"] = table.name
    event = Event("weather", Visibility.PUBLIC, None, payload)
    return _record(state, event), (*rolled, event)


ROSTER_TRACKS = {"san": "san", "elr": "elr", "lvp": "lvp_current", "cg_lvp": "lvp_cg"}


def main_currency(system: SystemLike) -> str | None:
    """The currency a side's roster "Start"/"Left" count (the purchase currency: CPP, CP, TP)."""
    from rules_engine.purchases import purchase_currency

    try:
        return purchase_currency(_system(system))
    except RulesError:
        return None


def _set_track(state: CampaignState, side: str, name: str, value: int, date_id: str | None = None,
               currency: str | None = None) -> CampaignState:
    tracks = {s: dict(v) for s, v in state.tracks.items()}
    tracks.setdefault(side, {})[name] = value
    state = replace(state, tracks=tracks)
    ledger = state.ledgers.get(side)
    if ledger is not None and name == "san":
        state = _with_ledger(state, side, replace(ledger, san=value))
    if ledger is not None and name == "elr":
        state = _with_ledger(state, side, replace(ledger, elr=value))
    if name in ROSTER_TRACKS:
        state = roster_update(state, side, date_id or state.date_id, currency, **{ROSTER_TRACKS[name]: value})
    return state


def _number(params: Mapping[str, object], key: str, field_: str) -> int | None:
    part = params.get(key)
    value = part.get(field_) if isinstance(part, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


SanAdjust = Callable[[str, int], tuple[int, dict[str, JSON], Events]]
"""One side's SAN adjustment: the new SAN, what the event adds (dr, drm, final …) and the rolls made."""


def _each_san(
    system: SystemLike, state: CampaignState, step: Step, acts: Callable[[int], bool], adjust: SanAdjust,
    note: Mapping[str, JSON] | None = None,
) -> tuple[CampaignState, Events]:
    """The SAN Adjustment loop shared by RR 2.5122 and PL 3.51 / PHD C5.25: each side with a known SAN, once.

    A SAN increase bought in secret (RR M2, not announced yet) counts for the check; it is folded in (made public) only
    when this public check ``acts`` on the SAN with it, else the side's SAN is left alone and its secret kept."""
    events: list[Event] = []
    for side in side_ids(system):
        san = state.tracks.get(side, {}).get("san")
        if san is None:
            continue
        true = san + _ledger(system, state, side).san_pending
        if true != san and acts(true):
            state = fold_san(system, state, side)
            san = true
        new, extra, rolls = (san, {}, ()) if true != san else adjust(side, san)
        events.extend(rolls)
        payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "side": side, "before": san, **extra,
                                    "after": new, **(note or {})}
        state = _set_track(state, side, "san", new, None, main_currency(system))
        event = Event("san-adjusted", Visibility.PUBLIC, None, payload)
        state = _record(state, event)
        events.append(event)
    return state, tuple(events)


def _san_dr(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """2.5122 SAN Adjustment: < 2 raised to 2; > 5 a dr with +drm (SAN − 4), Final dr > 5 reduces it by two."""
    params = step.params
    below, to = _number(params, "raise", "below"), _number(params, "raise", "to")
    above, final_above, by = _number(params, "roll", "above"), _number(params, "reduce", "final_above"), _number(params, "reduce", "by")
    roll_part = params.get("roll")
    drm_text = str(roll_part.get("drm", "")) if isinstance(roll_part, Mapping) else ""
    match = re.fullmatch(r"\s*SAN\s*-\s*(\d+)\s*", drm_text)
    caution: dict[str, JSON] = (
        {"caution": str(params.get("note") or "verify against your printed rules")} if params.get("verify") else {}
    )

    def acts(san: int) -> bool:
        return (below is not None and san < below) or (above is not None and san > above and bool(match))

    def adjust(side: str, san: int) -> tuple[int, dict[str, JSON], Events]:
        if below is not None and to is not None and san < below:
            return to, {}, ()
        if above is not None and san > above and match and final_above is not None and by is not None:
            roll = dice.roll(_dice_kind(roll_part), f"{step.ref} SAN adjustment dr ({side_name(system, side)})", side)
            drm = san - int(match.group(1))
            final = roll.total + drm
            rolled = roll_event(roll, Visibility.PUBLIC, None, drm=drm, final=final)
            return (san - by if final > final_above else san), {"dr": roll.total, "drm": drm, "final": final}, (rolled,)
        return san, {}, ()

    return _each_san(system, state, step, acts, adjust, caution)


def _dice_kind(part: object, default: DiceKind = DiceKind.dr) -> DiceKind:
    """The dice kind named in a params mapping (``dice: dr`` / ``dice: DR``)."""
    text = part.get("dice") if isinstance(part, Mapping) else None
    return DiceKind.DR if text == "DR" else DiceKind.dr if text == "dr" else default


def _rule_params(system: SystemLike, step: Step) -> Mapping[str, object]:
    """The special rule a step applies: ``params.rule`` by id, else the rule with the step's ref."""
    wanted = step.params.get("rule")
    for rule in getattr(system, "special_rules", ()):
        if rule.id == wanted or (wanted is None and rule.ref == step.ref and rule.params):
            return cast(Mapping[str, object], rule.params)
    return {}


def _clamp_san(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """PL 3.51 / PHD C5.25 SAN Adjustment: below the minimum raised to it, above the maximum reduced to it."""
    params = _rule_params(system, step)
    low, high = params.get("min"), params.get("max")

    def clamped(san: int) -> int:
        raised = max(san, low) if isinstance(low, int) else san
        return min(raised, high) if isinstance(high, int) else raised

    return _each_san(system, state, step, lambda san: clamped(san) != san,
                     lambda side, san: (clamped(san), {}, ()))


def _table_roll(
    system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice
) -> tuple[CampaignState, Events, Resolution | None]:
    """One side's roll on the step's table, DRM from the records (None when the step does not apply to it)."""
    if not _applies(system, step, side):
        return state, (), None
    add = step.params.get("add")
    ignored = step.params.get("ignore_facts")
    table = _step_table(system, step, side)
    column = table_column(system, step, table, side)
    visibility = _visibility(step, table)
    roll = _roll(dice, table, f"{step.ref} {step.name} ({table.name}, {side_name(system, side)})", side, visibility)
    extra = (AppliedModifier(f"+{add} ({step.ref})" if add > 0 else f"{add} ({step.ref})", add, -1, "step"),) \
        if isinstance(add, int) and add else ()
    resolution = roll_on(table, roll, column, facts_for(system, state, side), {}, side_settings(system, side),
                         extra, ignored if isinstance(ignored, list) else ())
    state, events = _result_events(state, step, side, resolution, visibility)
    return state, events, resolution


def _roll_per_side(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> tuple[CampaignState, Events]:
    """A roll per side on the step's table, DRM from the records (PL 3.44/3.45, PHD C5.23)."""
    state, events, _ = _table_roll(system, state, step, side, dice)
    return state, events


def _elr_change(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> tuple[CampaignState, Events]:
    """PL 3.47 ELR Loss/Gain: a DR per side; +1 to a maximum, −1 to a minimum; a reduced 5 never returns."""
    state, rolled, resolution = _table_roll(system, state, step, side, dice)
    events = list(rolled)
    elr = state.tracks.get(side, {}).get("elr")
    if resolution is None or elr is None:
        return state, tuple(events)
    limits = _rule_params(system, step)
    low, high = limits.get("min"), limits.get("max")
    change = resolution.cell.number
    new = elr + int(change)
    if change > 0 and isinstance(high, int):
        new = elr if elr >= high else min(new, high)
    if change < 0 and isinstance(low, int):
        new = max(new, low)
    state = _set_track(state, side, "elr", new, None, main_currency(system))
    event = Event("elr-changed", Visibility.PUBLIC, None,
                  {"date": state.date_id, "step": step.ref, "side": side, "before": elr, "after": new})
    state = _record(state, event)
    events.append(event)
    return state, tuple(events)


def _ledger(system: SystemLike, state: CampaignState, side: str) -> SideLedger:
    ledger = state.ledgers.get(side)
    return ledger if ledger is not None else new_ledger(side)


def _with_ledger(state: CampaignState, side: str, ledger: SideLedger) -> CampaignState:
    return replace(state, ledgers={**state.ledgers, side: ledger})


def roster_update(state: CampaignState, side: str, date_id: str, currency: str | None = None, **values: object) -> CampaignState:
    """Write values the phase knows (SAN, ELR, Initiative, LVP, CVP) on a side's CG Roster line for a date (a new
    line starts with the side's ``currency`` balance: RR "Start")."""
    ledger = state.ledgers.get(side)
    if ledger is None:
        return state
    line = ledger.roster_line(date_id) or RosterLine(date_id, start=ledger.balance(currency) if currency else None,
                                                     elr=ledger.elr, san=ledger.san)
    return _with_ledger(state, side, ledger.with_roster_line(replace(line, **values)))  # type: ignore[arg-type]


def _replenish(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> tuple[CampaignState, Events]:
    """RR 2.516 (Base Number − secret DR), PL 2.1 / PHD C5.29 (secret DR on the table): rules_engine.replenishment."""
    from rules_engine import replenishment

    ledger, events = replenishment.replenish(_system(system), _ledger(system, state, side), side, state.date_id, dice,
                                             facts=facts_for(system, state, side))
    return _record(_with_ledger(state, side, ledger), *events), events


def _lvp_recorders(system: SystemLike, step: Step) -> tuple[str, ...]:
    recorder = step.params.get("recorder")
    if isinstance(recorder, str) and recorder in side_ids(system):
        return (recorder,)
    return side_ids(system)


def _record_lvp(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """RR 2.5032–.5033: Current-LVP Total (from the results, else as before: no scenario changed control [interp]);
    CG-LVP Total = Current-LVP Total + the preceding date's CG-LVP Total."""
    record = state.history[-1] if state.history else None
    events: list[Event] = []
    for side in _lvp_recorders(system, step):
        tracks = state.tracks.get(side, {})
        current = record.result.lvp.get(side) if record and record.result and side in record.result.lvp else tracks.get("lvp")
        if current is None:
            continue
        cg = current + tracks.get("cg_lvp", 0) if step.params.get("cumulative", True) else current
        day = record.date_id if record else state.date_id
        state = _set_track(_set_track(state, side, "lvp", current, day, main_currency(system)), side, "cg_lvp", cg, day)
        event = Event("lvp-recorded", Visibility.PUBLIC, None, {
            "date": record.date_id if record else state.date_id, "step": step.ref, "side": side,
            "current_lvp": current, "cg_lvp": cg, "carried": not (record and record.result is not None)})
        state = _record(state, event)
        events.append(event)
    return state, tuple(events)


def fold_san(system: SystemLike, state: CampaignState, side: str) -> CampaignState:
    """A side's SAN increase bought in secret (RR M2 "SAN Increase +1", RosterLine.san_pending) joins its SAN — when the
    SAN is announced (RR 2.525, PL 2.4), a scenario starts (the opponent rolls for the side's Sniper: the SAN is known
    at the board) or a public SAN check acts on it (RR 2.5122). Unknown SAN (not typed yet): it stays pending."""
    ledger = state.ledgers.get(side)
    san = state.tracks.get(side, {}).get("san")
    if ledger is None or not ledger.san_pending or san is None:
        return state
    pending = ledger.san_pending
    roster = tuple(
        replace(line, san=(line.san if line.san is not None else san) + line.san_pending, san_pending=0)
        if line.san_pending else line
        for line in ledger.roster
    )
    state = _with_ledger(state, side, replace(ledger, roster=roster))
    return _set_track(state, side, "san", san + pending, None, main_currency(system))


def _fold_all(system: SystemLike, state: CampaignState) -> tuple[CampaignState, bool]:
    before = {s: state.tracks.get(s, {}).get("san") for s in state.sides}
    for side in state.sides:
        state = fold_san(system, state, side)
    return state, any(state.tracks.get(s, {}).get("san") != before[s] for s in state.sides)


def _announce(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """RR 2.525 / PL 2.4: each side announces its SAN (and ELR) — public; a SAN bought in secret is announced now."""
    state, _ = _fold_all(system, state)
    payload: dict[str, JSON] = {
        "date": state.date_id, "step": step.ref,
        "tracks": {s: {k: v for k, v in state.tracks.get(s, {}).items() if k in ("san", "elr")} for s in state.sides},
    }
    event = Event("announced", Visibility.PUBLIC, None, payload)
    return _record(state, event), (event,)


def _purchase_rolls(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> tuple[CampaignState, Events]:
    """RR 2.519 / PL 2.35–2.36 / PHD C5.33–C5.34: the secret rolls of each RG line bought (or OB-given) this date."""
    from rules_engine.rg_rolls import RollMissingValueError, roll_for_purchase

    ledger = _ledger(system, state, side)
    mine: list[Event] = []
    for line in ledger.purchases:
        if line.date_id != state.date_id or line.rolled:
            continue
        try:
            rolled, evs = roll_for_purchase(_system(system), line, side, dice, ledger=ledger,
                                            facts=facts_for(system, state, side),
                                            answers=roll_questions.answers_for(_system(system), state, step, side, line))
        except RollMissingValueError as error:
            error.events = (*mine, *error.events)  # the earlier lines' rolls are kept with the lost one
            raise
        ledger = ledger.with_purchase(rolled)
        mine.extend(evs)
    return _record(_with_ledger(state, side, ledger), *mine), tuple(mine)


def _secret_roll(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> tuple[CampaignState, Events]:
    """KGP 8.616: a side's Secret DR, halved (FRD) for the side the 8.31 Balance names; seen by its owner only. What
    the DR determines is not in the seed: the players apply it to their records."""
    from rules_engine.replenishment import balance_for

    visibility = _visibility(step, None)
    roll = dice.roll(_dice_kind(step.params, DiceKind.DR), f"{step.ref} {step.name} ({side_name(system, side)})",
                     side, side)
    balance = balance_for(_system(system), step, side)
    final = balance.apply(roll.total) if balance is not None else roll.total
    extra: dict[str, JSON] = {}
    modifiers: list[JSON] = []
    text = f"{step.ref}: {side_name(system, side)} Secret {roll.kind} {roll.total}"
    if balance is not None:
        modifiers = [balance.modifier(side_name(system, side))]
        extra = {"balance": balance.recorded(roll.total)}
        text += f", {balance.words} by the {balance.ref} CG Balance = {final}"
    rolled = roll_event(roll, visibility, side, rule=step.ref, original=roll.total, modifiers=modifiers, final=final,
                        result=str(final), **extra)
    event = Event("secret-dr", visibility, side, {"date": state.date_id, "step": step.ref, "side": side,
                                                  "original": roll.total, "final": final, **extra, "text": text})
    return _record(state, rolled, event), (rolled, event)


class Part(Protocol):
    """One side's part of an automatic step that rolls (run per side, so one side's lost value pauses only it)."""

    def __call__(
        self, system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice
    ) -> tuple[CampaignState, Events]: ...


PARTS: Mapping[str, Part] = {
    "elr-change": _elr_change,
    "roll-per-side": _roll_per_side,
    "replenish-base-minus-dr": _replenish,
    "replenish-from-table": _replenish,
    "rg-strength-weapons-leaders": _purchase_rolls,
    "roll-per-purchase": _purchase_rolls,
    "secret-roll": _secret_roll,
}


# ---------------------------------------------------------------------------------------------------------------------
# Rolls that fall on a value lost in the rule text (rules_engine.lost_values)
# ---------------------------------------------------------------------------------------------------------------------


def _for_side(system: SystemLike, state: CampaignState, side: str) -> SystemLike:
    """The system with the values ``side`` has typed in this campaign filled in (its own lookups only)."""
    cells = state.supplied_cells.get(side)
    return with_cells(_system(system), cells) if cells else system


Work = Callable[[SystemLike, CampaignState, Dice], tuple[CampaignState, Events]]


def _roll_key(event: Event) -> tuple[str, int] | None:
    if event.kind != "roll":
        return None
    stream, number = event.payload.get("stream"), event.payload.get("number")
    return (stream, number) if isinstance(stream, str) and isinstance(number, int) else None


def _attempt(
    system: SystemLike, state: CampaignState, side: str, step_ref: str, op: str, args: Mapping[str, JSON], work: Work,
    dice: Dice | None,
) -> tuple[CampaignState, Events, bool]:
    """Run ``work`` for ``side``. A campaign's lost values are settled before it starts (``lost_values.needed_values``):
    a new roll on an unsupplied one is refused with UnsuppliedValueError, never paused. A work paused by a campaign
    stored before that change is run again with its rolls given back (never re-rolled). Returns (state, events,
    finished)."""
    pending = state.pending.get(side)
    replay = [roll_from_json(r) for r in _json_list(pending, "rolls") if isinstance(r, Mapping)]
    lost_before = {(str(k[0]), int(str(k[1]))) for k in _json_list(pending, "lost_rolls")
                   if isinstance(k, (list, tuple)) and len(k) == 2}
    recorder = ReplayDice(dice, replay)
    before = len(state.records)
    try:
        new, events = work(_for_side(system, state, side), state, recorder)
    except MissingValueError as error:
        lost = lost_cause(error)
        supplied = state.supplied_cells.get(side, {})
        if lost is None or not recorder.made or (
            not recorder.fresh and cell_key(lost.table, lost.row, lost.column) in supplied
        ):
            raise
        if pending is None or recorder.fresh:
            raise UnsuppliedValueError(
                f"{error} — this value lost in the rule text was not supplied before the campaign started; a campaign "
                "is created with every such value given by its CG Card or typed on the create page") from error
        # a campaign paused before lost values were settled at creation: a replayed roll falls on a second lost value
        # of its row (a row whose label AND cell are lost, PHD C5.23 row "kg i"): pause again on that value
        return _pause(system, state, side, step_ref, op, args, recorder, lost_before, error) + (False,)
    if replay:
        again = {(r.stream, r.number, r.purpose) for r in recorder.replayed}

        def keep(events: Sequence[Event]) -> list[Event]:
            out: list[Event] = []
            for event in events:
                key = _roll_key(event)
                if key is None or (*key, event.payload.get("purpose")) not in again:
                    out.append(event)
                elif key in lost_before:  # the roll that waited for the value: its result, not a second roll
                    out.append(Event("roll-resolved", event.visibility, event.side, {**event.payload, "supplied": True}))
            return out

        events = tuple(keep(events))
        new = replace(new, records=new.records[:before] + tuple(keep(new.records[before:])))
    rest = {k: v for k, v in new.pending.items() if k != side}
    return replace(new, pending=rest), events, True


def _json_list(data: Mapping[str, JSON] | None, key: str) -> list[JSON]:
    value = data.get(key) if data is not None else None
    return list(value) if isinstance(value, (list, tuple)) else []


def _pause(
    system: SystemLike, state: CampaignState, side: str, step_ref: str, op: str, args: Mapping[str, JSON],
    recorder: ReplayDice, lost_before: set[tuple[str, int]], error: MissingValueError,
) -> tuple[CampaignState, Events]:
    lost = lost_cause(error)
    assert lost is not None
    hit = recorder.made[-1]
    public = hit.stream == PUBLIC_STREAM
    carried = {_roll_key(e): e for e in getattr(error, "events", ()) if isinstance(e, Event) and _roll_key(e)}
    events: list[Event] = []
    for roll in recorder.fresh:
        found = carried.get((roll.stream, roll.number))
        if found is None:
            secret = roll.stream != PUBLIC_STREAM
            found = roll_event(roll, Visibility.CG_END if secret else Visibility.PUBLIC, roll.stream if secret else None,
                               result=None, lost=str(lost))
        events.append(found)
    key = cell_key(lost.table, lost.row, lost.column)
    pending: dict[str, JSON] = {
        "side": side, "step": step_ref, "op": op, "args": dict(args), "cell": key, "final": lost.final,
        "public": public, "message": str(lost),
        "rolls": [roll_to_json(r) for r in recorder.made],
        "lost_rolls": [list(k) for k in sorted(lost_before | {(hit.stream, hit.number)})],
    }
    new = replace(state, pending={**state.pending, side: pending})
    need = _table_need(system, new, side, pending)
    visibility = Visibility.PUBLIC if public else Visibility.CG_END
    paused = Event("value-needed", visibility, None if public else side, {
        "date": state.date_id, "step": step_ref, "side": side, **{k: v for k, v in need.to_json().items()
                                                               if k not in ("side", "step", "examples")}})
    new = _record(new, *events, paused)
    return new, (*events, paused)


def _run_parts(system: SystemLike, state: CampaignState, step: Step, part: Part, dice: Dice) -> tuple[CampaignState, Events, bool]:
    """Each side's part of an automatic rolling step not done yet; True when every side's part is done."""
    events: list[Event] = []
    for side in side_ids(system):
        if side in state.parts_done or side in state.pending:
            continue

        def work(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> tuple[CampaignState, Events]:
            return part(sys_, st, step, side, d)

        state, more, finished = _attempt(system, state, side, step.ref, "step", {}, work, dice)
        events.extend(more)
        if finished:
            state = replace(state, parts_done=state.parts_done | {side})
    return state, tuple(events), state.parts_done >= set(side_ids(system))


def _resume_all(system: SystemLike, state: CampaignState, dice: Dice | None) -> tuple[CampaignState, Events]:
    """Run again each paused work whose value has been typed (NeedDice when it needs a new roll and dice is None)."""
    events: list[Event] = []
    for side in state.sides:
        pending = state.pending.get(side)
        if pending is None or str(pending.get("cell")) not in state.supplied_cells.get(side, {}):
            continue
        step = _step(system, str(pending["step"]))
        op = str(pending.get("op"))
        args = pending.get("args")
        args = args if isinstance(args, Mapping) else {}
        if op == "step":
            part = PARTS[step.action or ""]

            def work(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> tuple[CampaignState, Events]:
                return part(sys_, st, step, side, d)

            state, more, finished = _attempt(system, state, side, step.ref, op, args, work, dice)
            if finished:
                state = replace(state, parts_done=state.parts_done | {side})
        elif op == "assisted":
            table_id, column = str(args.get("table")), args.get("column")
            raw = args.get("answers")
            answers = {int(k): v for k, v in raw.items() if isinstance(v, (int, bool))} if isinstance(raw, Mapping) else {}

            what_for = args.get("purpose")

            def rolled(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> tuple[CampaignState, Events]:
                return _assisted_work(sys_, st, side, step, table_id, column if isinstance(column, str) else None,
                                      answers, d, what_for if isinstance(what_for, str) else "")

            state, more, finished = _attempt(system, state, side, step.ref, op, args, rolled, dice)
        elif op == "recon":
            extra = args.get("extra")

            def recon(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> tuple[CampaignState, Events]:
                return _recon_work(sys_, st, step, side, int(extra) if isinstance(extra, int) else 0, d)

            state, more, finished = _attempt(system, state, side, step.ref, op, args, recon, dice)
            if finished:
                state, more = _finish(system, state, side, *more)
        else:
            raise RulesError(f"campaign state: unknown paused work {op!r}")
        events.extend(more)
    return state, tuple(events)


AUTO_HANDLERS: Mapping[str, Handler] = {
    "weather-from-calendar": _weather,
    "new-date-and-san": _san_dr,
    "clamp-san": _clamp_san,
    "record-lvp": _record_lvp,
    "begin-play": _announce,
    "reveal-attack-options": _announce,
}
TABLE_HANDLERS = ("elr-change", "roll-per-side")
TRACK_NEEDS: Mapping[str, tuple[str, ...]] = {"new-date-and-san": ("san",), "clamp-san": ("san",), "elr-change": ("elr",),
                                              "record-lvp": ("lvp",)}


# ---------------------------------------------------------------------------------------------------------------------
# Initiative inside the phase
# ---------------------------------------------------------------------------------------------------------------------


def _attack_choice(system: SystemLike, state: CampaignState, side: str) -> Chit:
    """A purchase-mode side's choice for this date: Attack when its ledger holds an Attack Option for it (PL 2.4)."""
    ledger = state.ledgers.get(side)
    return Chit.ATTACK if ledger is not None and ledger.items_on(state.date_id, "attack-option") > 0 else Chit.IDLE


def _resolve_initiative(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> tuple[CampaignState, Events]:
    """The initiative step without chits: the Initial Scenario's assigned roles, or purchased Attack Options (PL 2.41)."""
    if state.pass_kind == "initial":
        last = state.last_round
        payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "label": last.label if last else None,
                                    "setup_first": last.setup_first if last else None,
                                    "moves_first": last.moves_first if last else None, "assigned": True}
        event = Event("initiative-assigned", Visibility.PUBLIC, None, payload)
        return _next(system, _record(state, event)), (event,)
    from rules_engine.initiative import matrix_cell

    initiative = system.initiative
    if initiative is None:
        raise RulesError(f"{system.id}: step {step.ref} resolves the initiative but the system defines none")
    chits = {side: _attack_choice(system, state, side) for side in state.sides}
    roles = {s.matrix_role: s.id for s in system.sides}
    key = (chits[roles["axis"]], chits[roles["allied"]])
    cell = initiative.matrix[key] if initiative.mode != "chit" else matrix_cell(system, chits)
    events: list[Event] = []
    setup_first = cell.setup_first
    rolls: list[Roll] = []
    if cell.result == DUAL_ATTACK and initiative.dual_attack_setup is not None:
        order = initiative.dual_attack_setup
        roll = dice.roll(order.dice, f"{order.ref} Dual Attack set-up {order.dice}", order.roller, PUBLIC_STREAM)
        row = order.winner(roll.total)
        setup_first = row.result
        rolls.append(roll)
        events.append(roll_event(roll, Visibility.PUBLIC, None, result=row.result, label=row.label, verify=row.verify))
    revealed = RevealedRound(state.date_index, state.date_id, chits, cell.result, cell.label, setup_first,
                             cell.moves_first, tuple(rolls))
    events.insert(0, Event("chits-revealed", Visibility.PUBLIC, None, {
        "date": state.date_id, "chits": {s: str(c) for s, c in chits.items()}, "result": cell.result,
        "label": cell.label, "setup_first": setup_first, "moves_first": cell.moves_first}))
    state = replace(state, last_round=revealed)
    if cell.result == IDLE:
        state, more = enter_idle(system, state)
        return state, tuple(events) + more
    return _goto(system, state, "scenario", program(system, "scenario")[0]), tuple(events)


def enter_idle(system: SystemLike, state: CampaignState) -> tuple[CampaignState, Events]:
    """An Idle Date / Idle Firefight / Lull: record it, then the system's idle loop (module docstring)."""
    last = state.last_round
    record = DateRecord(
        state.date_index, state.date_id, "idle", last.label if last else "idle",
        {s: str(c) for s, c in last.chits.items()} if last else {},
    )
    new = replace(state, history=state.history + (record,), sealed={})
    entries = program(system, "idle")
    new = _goto(system, new, "idle", entries[0])
    idle = getattr(system, "idle", None)
    event = Event("idle", Visibility.PUBLIC, None, {
        "date": state.date_id, "label": last.label if last else "idle", "loop": list(entries),
        "note": idle.note if idle is not None else None})
    lost = patrols.lost_on_idle(system, state)  # PL 2.41: Patrols bought for it are lost
    return _record(new, *lost), (event, *lost)


def _new_date(system: SystemLike, state: CampaignState) -> tuple[CampaignState, Events]:
    """The next CG Date (RR 2.5121): its steps follow; after the last calendar entry the CG ends."""
    index = state.date_index + 1
    if index >= len(system.calendar):
        return end_cg(system, state, "last-date")
    date_id = system.calendar[index].id
    new = replace(state, date_index=index, date_id=date_id, initial=False, sealed={}, records=(), run_done={})
    new = _next(system, new)
    return new, (Event("date-advanced", Visibility.PUBLIC, None, {"date": date_id, "date_index": index, "step": new.step}),)


def end_cg(system: SystemLike, state: CampaignState, reason: str, side: str | None = None,
           victor: str | None = None) -> tuple[CampaignState, Events]:
    """CG end (last date, objectives, concession, mutual agreement): everything is revealed from now on."""
    end = CgEnd(reason, state.date_id, side, victor)
    new = replace(state, step=ENDED, ended=True, done=frozenset(), sealed={}, cg_end=end, phase_ref=None,
                  end_proposals=frozenset(), end_reason=None, end_claimant=None)
    payload: dict[str, JSON] = {"date": state.date_id, **end.to_json(),
                                "tracks": {s: dict(v) for s, v in state.tracks.items()}}
    return new, (Event("cg-ended", Visibility.PUBLIC, None, payload),)


def _scenario_start(system: SystemLike, state: CampaignState) -> tuple[CampaignState, Events]:
    """At the start of a scenario every SAN is known at the board (the opponent's rolls activate a side's Sniper):
    a SAN increase bought in secret and not yet announced (no announcing step, e.g. before the Initial Scenario) is
    announced now."""
    state, night = _night_elr(system, state)
    state, changed = _fold_all(system, state)
    if not changed:
        return state, night
    payload: dict[str, JSON] = {
        "date": state.date_id, "step": state.phase_ref,
        "tracks": {s: {k: v for k, v in state.tracks.get(s, {}).items() if k == "san"} for s in state.sides},
    }
    event = Event("announced", Visibility.PUBLIC, None, payload)
    return _record(state, event), night + (event,)


def _night_elr(system: SystemLike, state: CampaignState) -> tuple[CampaignState, Events]:
    """ER/KGP CG4 "the Scenario Defender's ELR at night is one less than it would be in a daytime scenario": at the
    start of a night scenario, the side(s) not attacking (CG5: the Idle chit) play it at the printed ELR − 1."""
    calendar = system.calendar
    if not 0 <= state.date_index < len(calendar) or not getattr(calendar[state.date_index], "night", False):
        return state, ()
    rule = next((r for r in getattr(system, "special_rules", ())
                 if isinstance(r.params.get("night_scenario_defender_elr_drm"), int)), None)
    if rule is None:
        return state, ()
    drm = int(rule.params["night_scenario_defender_elr_drm"])
    if state.step == INITIAL_SCENARIO or state.phase_ref == INITIAL_MARK:
        roles = initial_roles(system)
        attackers = roles.attackers if roles is not None else ()
    else:
        last = state.last_round
        attackers = tuple(s for s, c in last.chits.items() if c is Chit.ATTACK) \
            if last is not None and last.date_index == state.date_index else ()
    events: list[Event] = []
    for side in state.sides:
        if not attackers or side in attackers:
            continue
        printed = state.tracks.get(side, {}).get("elr")
        event = Event("night-elr", Visibility.PUBLIC, None, {
            "date": state.date_id, "side": side, "rule": rule.ref, "drm": drm, "printed": printed,
            "elr": printed + drm if printed is not None else None})
        state = _record(state, event)
        events.append(event)
    return state, tuple(events)


def _move_order(system: SystemLike, state: CampaignState, dice: Dice) -> tuple[CampaignState, Events]:
    """Dual Attack: after all setup, the move-order roll (RR 2.525 dr > 4 Canadian, PL 2.41 "in the same manner")."""
    initiative = system.initiative
    last = state.last_round
    move = initiative.dual_attack_move if initiative else None
    if move is None or last is None or last.date_index != state.date_index or last.result != DUAL_ATTACK \
            or last.moves_first is not None:
        return state, ()
    roll = dice.roll(move.dice, f"{move.ref} Dual Attack move-order {move.dice}", move.roller, PUBLIC_STREAM)
    row = move.winner(roll.total)
    revealed = replace(last, moves_first=row.result, rolls=last.rolls + (roll,))
    return replace(state, last_round=revealed), (
        roll_event(roll, Visibility.PUBLIC, None, result=row.result, label=row.label, verify=row.verify),
        Event("move-order", Visibility.PUBLIC, None, {"date": state.date_id, "moves_first": row.result, "verify": row.verify}),
    )


# ---------------------------------------------------------------------------------------------------------------------
# advance / mark_done / owes / checklist
# ---------------------------------------------------------------------------------------------------------------------


def advance(system: SystemLike, state: CampaignState, dice: Dice) -> tuple[CampaignState, Events]:
    """Run automatic steps (and the date change) until a step needs a player; (state, events) in order."""
    if not state.phased:
        return state, ()
    state = _settle(system, state)
    state, resumed = _resume_all(system, state, dice)
    events: list[Event] = list(resumed)
    for _ in range(10_000):
        if state.ended or state.phase_ref is None:
            break
        entry = state.phase_ref
        if entry == NEW_DATE:
            state, more = _new_date(system, state)
            events.extend(more)
            continue
        if entry in (SCENARIO_MARK, INITIAL_MARK):
            state, more = _scenario_start(system, state)
            events.extend(more)
        if entry == SCENARIO_MARK:
            state, more = _move_order(system, state, dice)
            events.extend(more)
            break
        if entry in MARKS:
            break
        step = _step(system, entry)
        lay = layout(system)
        if lay.initiative is not None and step.ref == lay.initiative.ref:
            if state.step == INITIATIVE:
                if not (system.initiative and system.initiative.chosen_at and set(state.sealed) >= set(state.sides)):
                    break
                from rules_engine import initiative as _initiative  # chits sealed earlier (PHD C5.31): reveal now

                state, more = _initiative.reveal(system, state, dice)
                events.extend(more)
                state = _settle(system, state)
                continue
            state, more = _resolve_initiative(system, state, step, dice)
            events.extend(more)
            continue
        if step_kind(system, step) == ON_BOARD:
            state, more = _auto_run(system, state, step)  # a run of on-the-board steps confirmed in one click
            events.extend(more)
            if more and state.done >= set(state.sides):
                state = _next(system, state)
                continue
        if patrols.resolved_item(step) is not None:
            state, more = patrols.skip_non_buyers(system, state, step)  # PL 2.7: only the sides that bought some
            events.extend(more)
            if state.done >= set(state.sides):
                events.append(Event("step-resolved", Visibility.PUBLIC, None, {"date": state.date_id, "step": step.ref}))
                state = _next(system, state)
                continue
        if current_kind(system, state, step) != AUTOMATIC or any(needs(system, state, s) for s in state.sides):
            break
        part = PARTS.get(step.action or "")
        generating = leader_generation.params(step) is not None
        if generating and leader_generation.started(state):
            pass  # PL 3.45: the dr are made and every side has said how many leaders it Generates
        elif part is not None:
            state, more, finished = _run_parts(system, state, step, part, dice)
            events.extend(more)
            if not finished:
                break  # a side's roll fell on a value lost in the rule text: it types it (needs / supply)
            if generating:
                state = leader_generation.start(state, step)
                if any(leader_generation.pending(state, s) for s in state.sides):
                    continue  # each side says how many it Generates (needs / supply)
        else:
            state, more = AUTO_HANDLERS[step.action or ""](system, state, step, dice)
            events.extend(more)
        if board_part.text(step) is not None:
            state, left = board_part.begin(state, step)
            events.append(left)
            break  # the players do the board part, then both mark the step finished
        events.append(Event("step-resolved", Visibility.PUBLIC, None, {"date": state.date_id, "step": step.ref}))
        state = _next(system, state)
    return state, tuple(events)


def _current_step(system: SystemLike, state: CampaignState) -> Step | None:
    ref = state.phase_ref
    if ref is None or ref in MARKS:
        return None
    return _step(system, ref)


def current_step(system: SystemLike, state: CampaignState) -> Step | None:
    """The current between-scenario step (None at a mark: a scenario, its results, the date change)."""
    return _current_step(system, _settle(system, state))


def validate_mark_done(system: SystemLike, state: CampaignState, side: str, map_group: str | None = None) -> None:
    """SubmissionError unless ``side`` may mark the current step done now (phased campaigns); at a scenario played per
    Map Group (KGP 8.2), the scenario on ``map_group`` (which may be left out when only one is in play)."""
    check_side(system, side)
    state = _settle(system, state)
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
        return
    if state.step == ENDED:
        raise SubmissionError("The CG has ended; there is nothing left to mark finished.")
    if state.step == INITIATIVE:
        ref = system.initiative.ref if system.initiative else None
        raise SubmissionError(f"No scenario is being played on {state.date_id}: choose your Initiative chit first.", ref)
    if state.step == RESULTS:
        raise SubmissionError("Enter the scenario results first (both sides must agree on them).")
    if state.step in (INITIAL_SCENARIO, SCENARIO):
        if side in state.done:
            raise SubmissionError(f"You have already marked the scenario of {state.date_id} finished; waiting for the other side.")
        return
    step = _current_step(system, state)
    if step is None:
        raise SubmissionError("The app is resolving the next step; try again in a moment.")
    if _open_pending(state, side) is not None:
        raise SubmissionError(f"{_label(step)}: your roll fell on a value lost in the rule text; type it first "
                              "(as printed on your chart)", step.ref)
    kind = current_kind(system, state, step)
    if kind == AUTOMATIC:
        raise SubmissionError(f"{step.ref} {step.name} is resolved by the app; there is nothing to mark.", step.ref)
    from rules_engine.initiative import choosing_early

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
    waiting = _waiting_for(system, state, step, side)
    if waiting is not None:
        raise SubmissionError(
            f"{step.ref} {step.name} is done in order: {side_name(system, waiting)} goes first.", step.ref
        )


def mark_done(system: SystemLike, state: CampaignState, side: str, map_group: str | None = None
              ) -> tuple[CampaignState, Events]:
    """A side finishes the current on-board/assisted/input step (an input step with no order = nothing bought), or
    the scenario on one Map Group (KGP 8.2; the results follow once every Map Group's scenario is finished)."""
    validate_mark_done(system, state, side, map_group)
    state = _settle(system, state)
    groups = map_groups.in_play(system, state) if state.step in (INITIAL_SCENARIO, SCENARIO) else ()
    if groups:
        return _finish_group(system, state, side, groups, map_groups.pick(groups, map_group, state.date_id, ""))
    return _finish(system, state, side)


def _run_key(state: CampaignState, ref: str) -> str:
    return f"{state.date_id}|{state.pass_kind}|{ref}"


def board_run(system: SystemLike, state: CampaignState) -> tuple[Step, ...]:
    """The run of consecutive on-the-board steps from the current one (each done by both sides in any order, none
    ordered, none played during the scenario, none after the first recording losses — PL 3.11 / PHD C5.1 losses are
    recorded at the step where they happen): a side confirms them all in one click (``mark_run_done``)."""
    state = _settle(system, state)
    if state.step != PHASE or state.phase_ref is None or state.phase_ref in MARKS:
        return ()
    entries = current_program(system, state)
    if state.phase_ref not in entries:
        return ()
    run: list[Step] = []
    for entry in entries[entries.index(state.phase_ref):]:
        if entry in MARKS:
            break
        step = _step(system, entry)
        if step_kind(system, step) != ON_BOARD or step.sides == "ordered" or step.in_scenario \
                or patrols.resolved_item(step) is not None or (run and records_losses(step)):
            break
        run.append(step)
    return tuple(run)


def mark_run_done(system: SystemLike, state: CampaignState, side: str) -> tuple[CampaignState, Events]:
    """A side finishes the current on-the-board step and every one after it in its run (``board_run``); each is still
    finished one by one, and listed, as the other side finishes it too."""
    validate_mark_done(system, state, side)
    state = _settle(system, state)
    run = board_run(system, state)
    if not run:
        step = _current_step(system, state)
        what = f"{step.ref} {step.name}" if step is not None else state.step
        raise SubmissionError(f"{what} is not done on the board alone; finish it on its own.", state.phase_ref)
    keys = tuple(k for k in state.run_done.get(side, ()) if k.startswith(f"{state.date_id}|"))
    keys += tuple(_run_key(state, step.ref) for step in run[1:])
    state = replace(state, run_done={**state.run_done, side: keys})
    return _finish(system, state, side)


def _auto_run(system: SystemLike, state: CampaignState, step: Step) -> tuple[CampaignState, Events]:
    """Sides that confirmed a run holding the current step (``mark_run_done``) finish it now."""
    key = _run_key(state, step.ref)
    finished = [s for s in state.sides if s not in state.done and key in state.run_done.get(s, ())]
    if not finished:
        return state, ()
    events = tuple(Event("step-done", Visibility.PUBLIC, s, {"date": state.date_id, "step": step.ref, "side": s,
                                                            "run": True}) for s in finished)
    return replace(state, done=state.done | frozenset(finished)), events


def _finish_group(system: SystemLike, state: CampaignState, side: str, groups: Sequence[MapGroup], group: MapGroup
                  ) -> tuple[CampaignState, Events]:
    """KGP 8.2: ``side`` finished the scenario on ``group``; a side is done once it finished every Map Group's."""
    marked = {**state.map_done, group.id: state.map_done.get(group.id, frozenset()) | {side}}
    done = state.done | ({side} if all(side in marked.get(g.id, ()) for g in groups) else set())
    event = Event("step-done", Visibility.PUBLIC, side, {"date": state.date_id, "step": state.step, "side": side,
                                                        "map_group": group.id, "sections": group.sections})
    new = replace(state, map_done=marked, done=frozenset(done))
    if new.done >= set(state.sides):
        new = _next(system, new)
    return new, (event,)


def _finish(system: SystemLike, state: CampaignState, side: str, *private: Event) -> tuple[CampaignState, Events]:
    done = state.done | {side}
    ref = state.phase_ref if state.step == PHASE else state.step
    events: list[Event] = [*private, Event("step-done", Visibility.PUBLIC, side, {"date": state.date_id, "step": ref, "side": side})]
    new = replace(state, done=done)
    if done >= set(state.sides):
        step = _current_step(system, new)
        if step is not None and step.action == "purchase-fortifications":
            new, more = _forfeit(system, new)
            events.extend(more)
        new = _next(system, new)
    return new, tuple(events)


def _forfeit(system: SystemLike, state: CampaignState) -> tuple[CampaignState, Events]:
    """RR 2.520 / PHD C5.35: unspent FPP/DSP are forfeit on completion of the step (fortification_purchase)."""
    from rules_engine.fortification_purchase import forfeit_unspent

    events: list[Event] = []
    for side in state.sides:
        ledger, evs = forfeit_unspent(_system(system), _ledger(system, state, side))
        state = _record(_with_ledger(state, side, ledger), *evs)
        events.extend(evs)
    return state, tuple(events)


ORDER_TYPES: Mapping[str, tuple[str, ...]] = {
    "purchase-rg": ("RgOrder",),
    "purchase": ("RgOrder", "AttackOptionOrder"),
    "purchase-patrols": ("PatrolOrder",),
    "purchase-fortifications": ("FortOrder", "PointsOrder"),
}


def submit_order(system: SystemLike, state: CampaignState, side: str, orders: Sequence[object]) -> tuple[CampaignState, Events]:
    """A side's secret order at an input step (RR 2.518/2.520, PL 2.3/2.31/2.38, PHD C5.31/C5.35): every violated rule
    is listed and nothing is saved, else the ledger records it and the side has finished the step."""
    from rules_engine.purchases import apply_order, validate_order

    validate_mark_done(system, state, side)
    state = _settle(system, state)
    step = _current_step(system, state)
    if step is None or step_kind(system, step) != INPUT:
        raise SubmissionError(f"Nothing is bought now (step: {state.phase_ref or state.step}).")
    allowed = ORDER_TYPES.get(step.action or "", ())
    for order in orders:
        if type(order).__name__ not in allowed:
            raise SubmissionError(
                f"{_label(step)}: a {type(order).__name__} is not bought at this step (allowed: {', '.join(allowed) or 'none'})",
                step.ref,
            )
    ledger = _ledger(system, state, side)
    initial = state.pass_kind == "initial"
    chit = state.sealed.get(side)
    violations = validate_order(_system(system), ledger, side, state.date_id, orders, initial=initial, chit=chit)  # type: ignore[arg-type]
    if violations:
        error = SubmissionError("; ".join(v.message for v in violations), violations[0].ref or step.ref)
        error.violations = violations  # type: ignore[attr-defined]
        raise error
    ledger = apply_order(_system(system), ledger, side, state.date_id, orders, initial=initial, chit=chit)  # type: ignore[arg-type]
    state = _with_ledger(state, side, ledger)
    recorded = Event("order-recorded", Visibility.CG_END, side, {
        "date": state.date_id, "step": step.ref, "side": side, "orders": [repr(o) for o in orders]})
    return _finish(system, _record(state, recorded), side, recorded)


def submit_recon(
    system: SystemLike, state: CampaignState, side: str, extra: int | None, dice: Dice
) -> tuple[CampaignState, Events]:
    """RR 2.521 Purchasing Reconnaissance: ``None`` = no Recon; else cost + ``extra`` CPP (≤ extra_max) and the secret
    Recon dr with +extra drm; its Final dr (the Locations) goes in the CG Roster "Recon" column."""
    validate_mark_done(system, state, side)
    state = _settle(system, state)
    step = _current_step(system, state)
    if step is None or step.action != "purchase-recon":
        raise SubmissionError(f"Reconnaissance is not bought now (step: {state.phase_ref or state.step}).")
    if extra is None:
        return _finish(system, state, side)
    params = step.params
    cost, most = params.get("cost"), params.get("extra_max")
    currency = str(params.get("currency", "CPP"))
    if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0 or (isinstance(most, int) and extra > most):
        raise SubmissionError(f"{_label(step)}: extra {currency} must be 0 to {most} (got {extra!r})", step.ref)
    order = _recon_order(system, side, extra)
    if not isinstance(cost, int) and order is None:
        # PHD C5.36: the cost is on the RG chart's reconnaissance line (note n), lost in the OCR
        lost = params.get("cost_lost")
        where = f" ({lost})" if isinstance(lost, str) else ""
        raise SubmissionError(
            f"{_label(step)}: the {currency} cost of a reconnaissance is not in the rule text{where}; supply it in a "
            "CG Card", step.ref)
    if isinstance(cost, int):
        price = cost + extra
        balance = _ledger(system, state, side).balance(currency)
        if balance < price:
            raise SubmissionError(f"{_label(step)}: Recon costs {price} {currency}; you have {balance} {currency} left",
                                  step.ref)
    if order is not None:  # the Recon RG (RR M3): its CG Date Max / CG Max count (2.5185, 2.5186)
        from rules_engine.purchases import validate_order

        violations = validate_order(_system(system), _ledger(system, state, side), side, state.date_id, [order],
                                    initial=state.pass_kind == "initial", chit=state.sealed.get(side),
                                    at_recon_step=True)
        if violations:
            error = SubmissionError("; ".join(v.message for v in violations), violations[0].ref or step.ref)
            error.violations = violations  # type: ignore[attr-defined]
            raise error

    def work(sys_: SystemLike, st: CampaignState, d: Dice) -> tuple[CampaignState, Events]:
        return _recon_work(sys_, st, step, side, extra, d)

    state, events, finished = _attempt(system, state, side, step.ref, "recon", {"extra": extra}, work, dice)
    if not finished:
        return state, events
    return _finish(system, state, side, *events)


def _recon_work(system: SystemLike, state: CampaignState, step: Step, side: str, extra: int, dice: Dice
                ) -> tuple[CampaignState, Events]:
    """Pay for Recon and make its secret dr (RR 2.521)."""
    params = step.params
    cost = params.get("cost")
    currency = str(params.get("currency", "CPP"))
    price = (cost if isinstance(cost, int) else 0) + extra
    order = _recon_order(system, side, extra)
    before = _ledger(system, state, side)
    if order is not None:
        # one purchase: a Purchase Record line of the Recon RG (cost + extra on the line, RG Purchased/Spent/Left)
        from rules_engine.purchases import apply_order

        ledger = apply_order(_system(system), before, side, state.date_id, [order],
                             initial=state.pass_kind == "initial", chit=state.sealed.get(side), at_recon_step=True)
        price = int(ledger.purchases[-1].cost)
    else:
        ledger = before.adjust(currency, -price)
    state = _with_ledger(state, side, ledger)
    table = _step_table(system, step, side)
    facts = {**facts_for(system, state, side), "extra_cpp_spent": extra}
    visibility = _visibility(step, table)
    roll = _roll(dice, table, f"{step.ref} {table.name} ({side_name(system, side)})", side, visibility)
    resolution = roll_on(table, roll, None, facts, {}, side_settings(system, side))
    state, events = _result_events(state, step, side, resolution, visibility, cost=price, currency=currency)
    if order is not None:
        bought = replace(ledger.purchases[-1], rolled=True,
                         notes=f"{step.ref} Recon Final dr {resolution.final}: {resolution.final} Locations (2.524)")
        ledger = ledger.with_purchase(bought)
        state = _with_ledger(state, side, ledger)
        state = roster_update(state, side, state.date_id, currency, recon=resolution.final)
        return state, events
    line = before.roster_line(state.date_id)
    spent = (line.spent if line else 0) + price
    state = roster_update(state, side, state.date_id, currency, recon=resolution.final, spent=spent,
                          left=ledger.balance(currency))
    return state, events


def _recon_order(system: SystemLike, side: str, extra: int) -> RgOrder | None:
    """The Recon purchase as an order of the side's Recon RG (RR M3 + note r extra CPP), or None without one."""
    from rules_engine.purchases import RgOrder, recon_row

    if not isinstance(system, System):
        return None
    row = recon_row(system, side)
    return RgOrder(row.id, extra=extra) if row is not None else None


def _label(step: Step) -> str:
    return f"{step.ref} {step.name}"


def owes(system: SystemLike, state: CampaignState, side: str) -> tuple[str, ...]:
    """What ``side`` must do now (public wording: never a choice, a point or a purchase)."""
    check_side(system, side)
    state = _settle(system, state)
    if state.ended:
        return ()
    groups = map_groups.in_play(system, state)
    if state.step in (INITIAL_SCENARIO, SCENARIO) and groups:
        what = "the Initial Scenario" if state.step == INITIAL_SCENARIO else "the scenario"
        return tuple(f"mark {what} on {g.id} finished" for g in groups if side not in state.map_done.get(g.id, ()))
    if state.step == INITIAL_SCENARIO:
        return () if side in state.done else ("mark the Initial Scenario finished",)
    if state.step == SCENARIO:
        return () if side in state.done else ("mark the scenario finished",)
    if state.step == RESULTS and groups:
        from rules_engine.results import differing_fields

        owed: list[str] = []
        for group in groups:
            entries = state.map_results.get(group.id, {})
            if group.id in state.map_agreed:
                continue
            if side not in entries:
                owed.append(f"enter the scenario results on {group.id}")
            elif len(entries) == 2 and differing_fields(entries):
                owed.append(f"agree the scenario results on {group.id} (the entries differ)")
        return tuple(owed)
    if state.step == RESULTS:
        from rules_engine.results import differing_fields

        if side not in state.results:
            return ("enter the scenario results",)
        if len(state.results) == 2 and differing_fields(state.results):
            return ("agree the scenario results (the entries differ)",)
        return ()
    if state.step == INITIATIVE:
        if side in state.sealed:
            return ()
        ref = system.initiative.ref if system.initiative else ""
        return (f"choose your Initiative chit ({ref})" if ref else "choose your Initiative chit",)
    step = _current_step(system, state)
    if step is None:
        return ()
    kind = current_kind(system, state, step)
    wanted = needs(system, state, side)
    lost = [n for n in wanted if n.kind == "table-value"]
    if lost:
        return (f"{_label(step)}: {lost[0].text}",)
    if kind == AUTOMATIC:
        asked = dict.fromkeys(n.id if n.kind == "track" else "the answers for your secret rolls"
                              if n.kind == "questions" else "an answer" for n in wanted)  # never an internal key
        return (f"{_label(step)}: supply {', '.join(asked)}",) if wanted else ()
    if side in state.done or _waiting_for(system, state, step, side) is not None:
        return ()
    if patrols.needs_choice(state, step):
        chooser = order_chooser(system, state, step)
        if patrols.chosen_first(state, chooser) is None:
            return (f"{_label(step)}: choose which side resolves first",) if chooser == side else ()
    if kind == INPUT:
        return (f"{_label(step)}: submit your order (or finish with none)",)
    if kind == ASSISTED:
        return (f"{_label(step)}: roll as needed, then mark it done",)
    return (f"{_label(step)}: do it on the board, then mark it done",)


def checklist(system: SystemLike, state: CampaignState) -> list[dict[str, JSON]]:
    """The current pass as a checklist: each entry with its kind, sides, order and status (done/current/todo)."""
    state = _settle(system, state)
    if state.ended or state.pass_kind is None:
        return []
    entries = current_program(system, state)
    here = entries.index(state.phase_ref) if state.phase_ref in entries else -1
    names = {RESULTS_MARK: "Scenario results", NEW_DATE: "New date", SCENARIO_MARK: "Scenario",
             INITIAL_MARK: "Initial Scenario"}
    items: list[dict[str, JSON]] = []
    turn = entries.index(NEW_DATE) if NEW_DATE in entries else len(entries)
    for i, entry in enumerate(entries):
        status = "done" if i < here else "current" if i == here else "todo"
        if entry in MARKS:
            # a scenario (or its results) per Map Group in play on the date the mark belongs to (KGP 8.2)
            index = state.date_index + (1 if i > turn >= here else -1 if here > turn > i else 0)
            groups = map_groups.on_date(system, index) if entry != NEW_DATE else ()
            if not groups:
                items.append({"ref": entry, "name": names[entry], "kind": "mark", "status": status})
            for group in groups:
                items.append(_group_item(state, entry, names[entry], group, status))
            continue
        step = _step(system, entry)
        order = resolve_order(system, state, step) if step.sides == "ordered" else None
        items.append({
            "ref": step.ref, "name": step.name,
            "kind": current_kind(system, state, step) if status == "current" else step_kind(system, step), "status": status,
            "sides": step.sides, "order": list(order) if order else (list(step.order) or None),
            "secret": step.secret, "tables": list(step.tables), "note": step.note,
            "done": {s: (s in state.done) if status == "current" else status == "done" for s in state.sides},
        })
    return items


def _group_item(state: CampaignState, entry: str, name: str, group: MapGroup, status: str) -> dict[str, JSON]:
    """One checklist entry of a scenario mark for one Map Group (KGP 8.2): its id and Map Sections, its own status."""
    item: dict[str, JSON] = {"ref": entry, "name": f"{name} on Map Group {group.label}", "kind": "mark",
                             "status": status, "map_group": group.id, "sections": group.sections}
    if status != "current":
        return item
    if entry == RESULTS_MARK:
        from rules_engine.results import differing_fields

        entries = state.map_results.get(group.id, {})
        agreed = group.id in state.map_agreed
        item["status"] = "done" if agreed else "current"
        item["done"] = {s: agreed or s in entries for s in state.sides}
        item["agreed"] = agreed
        item["differ"] = not agreed and len(entries) == 2 and bool(differing_fields(entries))
    else:
        marked = state.map_done.get(group.id, frozenset())
        item["status"] = "done" if marked >= set(state.sides) else "current"
        item["done"] = {s: s in marked for s in state.sides}
    return item


# ---------------------------------------------------------------------------------------------------------------------
# Assisted rolls and CG end by the players
# ---------------------------------------------------------------------------------------------------------------------


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
) -> tuple[CampaignState, Events]:
    """A roll on one of the current step's tables; the player ticks the DRM the board shows (``ask:`` modifiers) and
    may say what it is for (the unit or leader: "8-1 in 23Q5"), so that several rolls of a step can be told apart."""
    from rules_engine.board import clean_purpose  # late: board uses this module

    what_for = clean_purpose(purpose) if purpose.strip() else ""
    validate_mark_done(system, state, side)
    state = _settle(system, state)
    step = _current_step(system, state)
    if step is None or step.ref != step_ref:
        current = step.ref if step else state.step
        raise SubmissionError(f"Step {step_ref} is not the current step (now: {current}).", step_ref)
    allowed = tuple(step.tables) + tuple(
        str(t) for t in (step.params.get("table"),) if isinstance(t, str) and t not in step.tables
    )
    if step_kind(system, step) not in (ASSISTED, INPUT) or not allowed:
        raise SubmissionError(f"{_label(step)} has no table to roll on here.", step.ref)
    if table_id not in allowed:
        raise SubmissionError(f"{_label(step)}: unknown table {table_id!r} (allowed: {', '.join(allowed)})", step.ref)
    table = _system(system).table(table_id)
    table.column(column)  # UnknownNameError naming the columns before anything is rolled
    args: dict[str, JSON] = {"table": table_id, "column": column,
                             "answers": {str(k): v for k, v in answers.items()}, "purpose": what_for}

    def work(sys_: SystemLike, st: CampaignState, d: Dice) -> tuple[CampaignState, Events]:
        return _assisted_work(sys_, st, side, step, table_id, column, answers, d, what_for)

    state, events, _ = _attempt(system, state, side, step.ref, "assisted", args, work, dice)
    return state, events


def _assisted_work(
    system: SystemLike, state: CampaignState, side: str, step: Step, table_id: str, column: str | None,
    answers: Mapping[int, int | bool], dice: Dice, purpose: str = "",
) -> tuple[CampaignState, Events]:
    table = _system(system).table(table_id)
    visibility = _visibility(step, table)
    label = f"{step.ref} {table.name} ({side_name(system, side)})" + (f": {purpose}" if purpose else "")
    roll = _roll(dice, table, label, side, visibility)
    resolution = roll_on(table, roll, column, facts_for(system, state, side), answers, side_settings(system, side))
    return _result_events(state, step, side, resolution, visibility, **({"purpose": purpose} if purpose else {}))


def concede(system: SystemLike, state: CampaignState, side: str) -> tuple[CampaignState, Events]:
    """PL 1.3 / PHD TM End: one side concedes; the other wins the CG."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has already ended.")
    return end_cg(system, state, "concession", side, state.other(side))


END_REASONS = ("mutual-agreement", "objectives")


def propose_end(
    system: SystemLike, state: CampaignState, side: str, reason: str = "mutual-agreement"
) -> tuple[CampaignState, Events]:
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
    event = Event("end-proposed", Visibility.PUBLIC, side, payload)
    if proposals >= set(state.sides):
        if reason == "objectives":
            new, more = end_cg(system, state, "objectives", claimant, claimant)
        else:
            new, more = end_cg(system, state, "mutual-agreement")
        return replace(new, end_reason=None, end_claimant=None), (event,) + more
    return replace(state, end_proposals=proposals, end_reason=reason, end_claimant=claimant), (event,)


def _end_words(system: SystemLike, reason: str, claimant: str | None) -> str:
    if reason == "objectives" and claimant is not None:
        return f"{side_name(system, claimant)}'s CG objectives met"
    return "mutual agreement"


def withdraw_end(system: SystemLike, state: CampaignState, side: str) -> tuple[CampaignState, Events]:
    """Withdraw a proposal to end the CG; the side whose objectives are claimed withdraws the claim itself."""
    check_side(system, side)
    proposals = state.end_proposals - {side}
    if state.end_reason == "objectives" and side == state.end_claimant:
        proposals = frozenset()
    reason, claimant = (state.end_reason, state.end_claimant) if proposals else (None, None)
    return replace(state, end_proposals=proposals, end_reason=reason, end_claimant=claimant), (
        Event("end-withdrawn", Visibility.PUBLIC, side, {"side": side}),)


def decline_end(system: SystemLike, state: CampaignState, side: str) -> tuple[CampaignState, Events]:
    """PL 1.3 CG End by mutual agreement: the side asked declines the other's proposal to end; the CG goes on."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has already ended.")
    if not state.end_proposals or side in state.end_proposals:
        raise SubmissionError("There is no proposal of the other side to end the CG to decline.")
    payload: dict[str, JSON] = {"side": side, "reason": state.end_reason or "mutual-agreement"}
    if state.end_claimant is not None:
        payload["claimant"] = state.end_claimant
    return replace(state, end_proposals=frozenset(), end_reason=None, end_claimant=None), (
        Event("end-declined", Visibility.PUBLIC, side, payload),)


def submit_chit(system: SystemLike, state: CampaignState, side: str, chit: Chit | str, dice: Dice) -> tuple[CampaignState, Events]:
    """initiative.submit_chit, then the phase moves on (scenario preparation or the idle loop) and ``advance`` runs."""
    from rules_engine import initiative

    new, events = initiative.submit_chit(system, state, side, chit, dice)
    if not new.phased or new.step == INITIATIVE:
        return new, events
    new, more = advance(system, new, dice)
    return new, events + more


def call_with_advance(
    action: Callable[..., tuple[CampaignState, Events]], system: SystemLike, state: CampaignState, dice: Dice,
    *args: object,
) -> tuple[CampaignState, Events]:
    """Run a player action, then ``advance`` (the app's usual pattern)."""
    new, events = action(system, state, *args)
    new, more = advance(system, new, dice)
    return new, events + more
