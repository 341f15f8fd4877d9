"""A side supplies what it is asked for (``needs``): values, facts, leaders Generated (PL 3.45), roll answers."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from rules_engine import leader_generation, roll_questions
from rules_engine.dice import Dice
from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.lost_values import (
    Need,
    NeedDice,
    parse_value,
    value_json,
)
from rules_engine.phase.facts import facts_for, side_settings
from rules_engine.phase.needs import TRACK_RANGES, TRACKS, needs
from rules_engine.phase.pausing import resume_all
from rules_engine.phase.program import find_step, settle, step_at
from rules_engine.phase.rolling import result_events, roll_dice, roll_on, roll_visibility, table_column
from rules_engine.phase.tracks import main_currency, set_track, with_records
from rules_engine.progress import Progress
from rules_engine.state import (
    CampaignState,
    SystemLike,
    check_side,
    side_name,
)
from rules_engine.vocabulary import Visibility


def supply(
    system: SystemLike,
    state: CampaignState,
    side: str,
    need: str | Mapping[str, int | bool],
    value: object = None,
    *,
    dice: Dice | None = None,
) -> Progress:
    """A side supplies what it is asked for (``needs``): ``need`` is a Need id and ``value`` the value (a table value
    as printed: "12", "8-0, 7-0", a text), or a mapping {need id: value} for several SAN/ELR/LVP/fact needs at once.
    A table value is stored as this side's supplied cell and the paused work resumes now (or at the next ``advance``
    when it needs a new roll and no ``dice`` are given)."""
    check_side(system, side)
    state = settle(system, state)
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
        step = find_step(system, str(state.phase_ref))
        return roll_questions.answer(system, state, step, side, values[roll_questions.NEED_ID])
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
            new = set_track(new, side, key, int(given), None, main_currency(system))
        else:
            facts.setdefault(side, {})[key] = given
    new = new.evolve(facts_supplied=facts)
    public = {k: v for k, v in plain.items() if k in TRACKS and k != "lvp"}
    events: list[Event] = [Event(EventKind.SUPPLIED, Visibility.SIDE, side, {"step": state.phase_ref, "values": dict(plain)})]
    if public:
        events.append(Event(EventKind.TRACK_SET, Visibility.PUBLIC, None, {"side": side, "values": dict(public)}))
    return Progress(new, tuple(events))


def _generate_leaders(system: SystemLike, state: CampaignState, side: str, value: object, dice: Dice | None
                      ) -> Progress:
    """PL 3.45: ``side`` Generates this many leaders, each a secret DR on the leader table (the step's
    ``params.generate``: table, column by nationality) with its DRM (Leader DRM, Historical DRM from the card)."""
    step = step_at(system, state)
    assert step is not None
    count = leader_generation.chosen(state, step, side, value)
    if count and dice is None:
        raise NeedDice(f"{step.ref}: rolling the generated leaders needs the dice")
    spec = leader_generation.params(step) or {}
    table = system.table(str(spec.get("table", "leader")))
    column = table_column(system, replace(step, params=dict(spec)), table, side)
    visibility = roll_visibility(step, table)
    events: list[Event] = []
    leaders: list[JSON] = []
    for number in range(1, count + 1):
        assert dice is not None
        roll = roll_dice(dice, table, f"{step.ref} generated leader {number} of {count} ({side_name(system, side)})",
                     side, visibility)
        resolution = roll_on(table, roll, column, facts_for(system, state, side), {}, side_settings(system, side))
        state, more = result_events(state, step, side, resolution, visibility, generated=number)
        events.extend(more)
        leaders.append(resolution.cell.text)
    state = leader_generation.recorded(state, side, count)
    text = (f"{step.ref}: {side_name(system, side)} Generates {count} leader{'s' if count != 1 else ''}"
            + (f" on the {table.ref} table: {', '.join(str(x) for x in leaders)}" if count else ""))
    summary = Event(EventKind.LEADERS_GENERATED, visibility, side, {"date": state.date_id, "step": step.ref, "side": side,
                                                            "count": count, "leaders": leaders, "text": text})
    return Progress(with_records(state, summary), (*events, summary))


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
) -> Progress:
    """Store a typed table value as the side's supplied cell (audited at CG end), then resume the paused work."""
    pending = state.pending[side]
    key = str(pending["cell"])
    value = parse_value(need.shape, raw, f"{need.table_ref} {need.table_name}")
    cells = {**state.supplied_cells.get(side, {}), key: value_json(value)}
    state = state.evolve(supplied_cells={**state.supplied_cells, side: cells})
    visibility = Visibility.PUBLIC if need.public else Visibility.CG_END
    shown = ", ".join(value) if isinstance(value, tuple) else str(value)
    event = Event(EventKind.VALUE_SUPPLIED, visibility, None if need.public else side, {
        "date": state.date_id, "step": need.step, "side": side, "need": need.id, "table": need.table,
        "table_ref": need.table_ref, "final": need.final, "row": need.row, "column": need.column, "value": shown,
        "text": f"{side_name(system, side)} typed {shown!r} for {need.table_ref} {need.table_name} row {need.row}"
                + (f", {need.column_label}" if need.column_label else "") + " (lost in the rule text)",
    })
    state = with_records(state, event)
    try:
        new, more = resume_all(system, state, dice)
    except NeedDice:
        return Progress(state, (event,))  # the next advance (with the dice) resumes it
    return Progress(new, (event, *more))
