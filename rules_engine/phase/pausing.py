"""Rolls that fall on a value lost in the rule text (rules_engine.lost_values): run, pause, resume."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rules_engine.dice import PUBLIC_STREAM, Dice, roll_from_json, roll_to_json
from rules_engine.errors import MissingValueError, RulesError
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.lost_values import (
    ReplayDice,
    UnsuppliedValueError,
    cell_key,
    lost_cause,
)
from rules_engine.model import Step
from rules_engine.phase.finishing import finish, recon_work
from rules_engine.phase.handlers import PARTS, Part
from rules_engine.phase.needs import for_side, table_need
from rules_engine.phase.program import Events, find_step
from rules_engine.phase.rolling import assisted_work
from rules_engine.phase.tracks import with_records
from rules_engine.progress import Progress
from rules_engine.state import (
    CampaignState,
    SystemLike,
    side_ids,
)
from rules_engine.vocabulary import Visibility

Work = Callable[[SystemLike, CampaignState, Dice], Progress]


def _roll_key(event: Event) -> tuple[str, int] | None:
    if event.kind != "roll":
        return None
    stream, number = event.payload.get("stream"), event.payload.get("number")
    return (stream, number) if isinstance(stream, str) and isinstance(number, int) else None


def attempt(
    system: SystemLike, state: CampaignState, side: str, step_ref: str, op: str, args: Mapping[str, JSON], work: Work,
    dice: Dice | None,
) -> tuple[CampaignState, Events, bool]:
    """Run ``work`` for ``side``. A campaign's lost values are settled before it starts (``lost_values.needed_values``):
    a new roll on an unsupplied one is refused with UnsuppliedValueError, never paused. A work paused by a campaign
    stored before that change is run again with its rolls given back (never re-rolled). Returns (state, events,
    finished)."""
    pending = state.pending.get(side)
    replay = [roll_from_json(r) for r in _json_list(pending, "rolls") if isinstance(r, Mapping)] if pending else []
    lost_before = {(str(k[0]), int(str(k[1]))) for k in _json_list(pending, "lost_rolls")
                   if isinstance(k, (list, tuple)) and len(k) == 2} if pending else set()
    recorder = ReplayDice(dice, replay)
    before = len(state.records)
    try:
        new, events = work(for_side(system, state, side), state, recorder)
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
                    out.append(Event(EventKind.ROLL_RESOLVED, event.visibility, event.side, {**event.payload, "supplied": True}))
            return out

        events = tuple(keep(events))
        new = new.evolve(records=new.records[:before] + tuple(keep(new.records[before:])))
    if side not in new.pending:
        return new, events, True  # nothing of this side's was paused
    rest = {k: v for k, v in new.pending.items() if k != side}
    return new.evolve(pending=rest), events, True


def _json_list(data: Mapping[str, JSON] | None, key: str) -> list[JSON]:
    value = data.get(key) if data is not None else None
    return list(value) if isinstance(value, (list, tuple)) else []


def _pause(
    system: SystemLike, state: CampaignState, side: str, step_ref: str, op: str, args: Mapping[str, JSON],
    recorder: ReplayDice, lost_before: set[tuple[str, int]], error: MissingValueError,
) -> Progress:
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
    new = state.evolve(pending={**state.pending, side: pending})
    need = table_need(system, new, side, pending)
    visibility = Visibility.PUBLIC if public else Visibility.CG_END
    paused = Event(EventKind.VALUE_NEEDED, visibility, None if public else side, {
        "date": state.date_id, "step": step_ref, "side": side, **{k: v for k, v in need.to_json().items()
                                                               if k not in ("side", "step", "examples")}})
    new = with_records(new, *events, paused)
    return Progress(new, (*events, paused))


def run_parts(system: SystemLike, state: CampaignState, step: Step, part: Part, dice: Dice) -> tuple[CampaignState, Events, bool]:
    """Each side's part of an automatic rolling step not done yet; True when every side's part is done."""
    events: list[Event] = []
    for side in side_ids(system):
        if side in state.parts_done or side in state.pending:
            continue

        def work(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> Progress:
            return part(sys_, st, step, side, d)

        state, more, finished = attempt(system, state, side, step.ref, "step", {}, work, dice)
        events.extend(more)
        if finished:
            state = state.evolve(parts_done=state.parts_done | {side})
    return state, tuple(events), state.parts_done >= set(side_ids(system))


def resume_all(system: SystemLike, state: CampaignState, dice: Dice | None) -> Progress:
    """Run again each paused work whose value has been typed (NeedDice when it needs a new roll and dice is None)."""
    events: list[Event] = []
    for side in state.sides:
        pending = state.pending.get(side)
        if pending is None or str(pending.get("cell")) not in state.supplied_cells.get(side, {}):
            continue
        step = find_step(system, str(pending["step"]))
        op = str(pending.get("op"))
        args = pending.get("args")
        args = args if isinstance(args, Mapping) else {}
        if op == "step":
            assert step.action is not None  # a pending "step" op is only left by a step with a part
            part = PARTS[step.action]

            def work(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> Progress:
                return part(sys_, st, step, side, d)  # noqa: B023  (called at once, in this iteration)

            state, more, finished = attempt(system, state, side, step.ref, op, args, work, dice)
            if finished:
                state = state.evolve(parts_done=state.parts_done | {side})
        elif op == "assisted":
            table_id, column = str(args.get("table")), args.get("column")
            raw = args.get("answers")
            answers = {int(k): v for k, v in raw.items() if isinstance(v, (int, bool))} if isinstance(raw, Mapping) else {}

            what_for = args.get("purpose")

            def rolled(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> Progress:
                return assisted_work(sys_, st, side, step, table_id,  # noqa: B023  (called at once, in this iteration)
                                     column if isinstance(column, str) else None,  # noqa: B023
                                     answers, d, what_for if isinstance(what_for, str) else "")  # noqa: B023

            state, more, finished = attempt(system, state, side, step.ref, op, args, rolled, dice)
        elif op == "recon":
            extra = args.get("extra")

            def recon(sys_: SystemLike, st: CampaignState, d: Dice, side: str = side) -> Progress:
                return recon_work(sys_, st, step, side,  # noqa: B023  (called at once, in this iteration)
                                  int(extra) if isinstance(extra, int) else 0, d)  # noqa: B023

            state, more, finished = attempt(system, state, side, step.ref, op, args, recon, dice)
            if finished:
                state, more = finish(system, state, side, *more)
        else:
            raise RulesError(f"campaign state: unknown paused work {op!r}")
        events.extend(more)
    return Progress(state, tuple(events))
