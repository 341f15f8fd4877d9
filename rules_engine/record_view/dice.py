"""The dice log: every roll the viewer may see, in the order made, with its breakdown (a ``table-result`` right after
a roll is that roll's resolution; a ``roll-resolved`` completes a roll that fell on a value lost in the rule text)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules_engine.dice import BOARD_PREFIX, PUBLIC_STREAM
from rules_engine.dice.stats import Sample
from rules_engine.event_words import side_name
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import System
from rules_engine.record_view.model import (
    DiceLog,
    DiceRow,
    Modifier,
    is_int,
    modifier_value_text,
)
from rules_engine.record_view.text import text
from rules_engine.record_view.visibility import visible_events
from rules_engine.vocabulary import DiceKind, SideId, Visibility

DICE_KINDS = frozenset(kind.value for kind in DiceKind)
DATE_KINDS = ("campaign-started", "date-advanced")  # public events that move the log to a CG Date
ROW_KINDS = (EventKind.ROLL, EventKind.BOARD_ROLL_REVEALED)  # a roll, or a secret roll at the board revealed early


def modifiers_of(payload: Mapping[str, JSON]) -> tuple[Modifier, ...]:
    """A roll's DRMs: its ``modifiers`` list, else its single ``drm``."""
    found = payload.get("modifiers")
    if isinstance(found, (list, tuple)):
        return tuple(Modifier(str(m.get("reason", "")), m.get("value"), modifier_value_text(m.get("value")))
                     for m in found if isinstance(m, Mapping))
    drm = payload.get("drm")
    if is_int(drm) and drm:
        return (Modifier("DRM", drm, modifier_value_text(drm)),)
    return ()


def _table_text(system: System, payload: Mapping[str, JSON]) -> tuple[str, JSON]:
    """(the table a roll was made on, "2.12 CP Replenishment Table, column X", the roll's label)."""
    label = payload.get("label")
    table_id = payload.get("table")
    if not (isinstance(table_id, str) and table_id):
        return "", label
    found = system.tables.get(table_id)
    ref = found.ref if found is not None and found.ref else payload.get("rule")
    name = found.name if found is not None and found.name else table_id
    table = " ".join(str(p) for p in (ref, name) if p)
    columns = found.columns if found is not None else ()
    if payload.get("column") and len(columns) > 1:
        label = next((c.label for c in columns if c.id == payload["column"]), payload["column"])
        table = f"{table}, column {label}"
    return table, label


def _follows(payload: Mapping[str, JSON], dice: list[int], follower: Event | None) -> Mapping[str, JSON] | None:
    """The payload of the ``table-result`` resolving this roll (right after it, same dice, same side), or None."""
    if follower is None or follower.kind != "table-result":
        return None
    extra = follower.payload
    found = extra.get("dice") or []
    same_dice = isinstance(found, (list, tuple)) and list(found) == dice
    return extra if same_dice and extra.get("side") in (payload.get("roller"), None) else None


def seen_as(visibility: Visibility, side: SideId | None, viewer: SideId, kind: str = EventKind.ROLL) -> str:
    """How the viewer sees a roll it may see: public, its own secret one, or the opponent's revealed (at CG end, or
    a secret roll at the board its roller revealed)."""
    if kind == EventKind.BOARD_ROLL_REVEALED:
        return "revealed"
    if visibility is Visibility.PUBLIC:
        return "public"
    return "own" if side == viewer else "revealed"


def _visibility(event: Event, viewer: SideId) -> str:
    return seen_as(event.visibility, event.side, viewer, event.kind)


def stream_name(stream: str, names: Mapping[str, str]) -> str:
    """A stream as the log names it: "Public", "German", "German board" (a side's secret rolls at the board)."""
    if stream == PUBLIC_STREAM:
        return "Public"
    if stream.startswith(BOARD_PREFIX):
        side = stream.removeprefix(BOARD_PREFIX)
        return f"{names.get(side, side)} board"
    return names.get(stream, stream)


def _result_text(payload: Mapping[str, JSON], result: JSON, label: JSON, names: Mapping[str, str]) -> str:
    """The result as shown: a side's name for a side id, the roll's label, an error or a lost value after it."""
    if result is not None and str(result) in names:
        result = names[str(result)]
    shown = text(result)
    if label and str(label) not in shown:
        shown = f"{shown} ({label})" if shown else str(label)
    for problem in ("error", "lost"):
        if payload.get(problem):
            shown = f"{shown} — {payload[problem]}" if shown else str(payload[problem])
    return shown


def roll_row(system: System, event: Event, follower: Event | None, date: str, viewer: SideId) -> DiceRow:
    """One roll event as a dice-log row (its breakdown completed by the ``table-result`` that follows it)."""
    payload = event.payload
    names = {side.id: side_name(system, side.id) for side in system.sides}
    raw_dice = payload.get("dice") or []
    dice = [int(d) for d in raw_dice if isinstance(d, int) and not isinstance(d, bool)] if isinstance(raw_dice, (list, tuple)) else []
    original = payload.get("original", payload.get("total", sum(dice)))
    modifiers = modifiers_of(payload)
    final = payload.get("final", original)
    result = payload.get("result")
    table, label = _table_text(system, payload)
    caution = ""
    extra = _follows(payload, dice, follower)
    if extra is not None:
        modifiers = modifiers_of(extra) or modifiers
        final = extra.get("final", final)
        result = extra.get("result", result)
        table = " ".join(str(p) for p in (extra.get("table_ref"), extra.get("table_name")) if p)
        if extra.get("row"):
            table = f"{table}, row {extra['row']}" if table else f"row {extra['row']}"
        caution = str(extra.get("caution") or "")
    stream = str(payload.get("stream", ""))
    number = payload.get("number")
    return DiceRow(
        date=str(payload.get("date") or date),
        purpose=str(payload.get("purpose", "")),
        roller=names.get(str(payload.get("roller")), str(payload.get("roller", ""))),
        stream=stream_name(stream, names),
        number=int(str(number or 0)),
        kind=str(payload.get("kind", "")),
        dice=tuple(dice),
        original=original,
        modifiers=modifiers,
        final=final,
        result=_result_text(payload, result, label, names),
        table=table,
        visibility=_visibility(event, viewer),
        caution=caution,
    )


def resolved_row(row: DiceRow, payload: Mapping[str, JSON]) -> DiceRow:
    """A roll that fell on a lost value, resolved once a player typed it (``roll-resolved``)."""
    return replace(row, final=payload.get("final", row.final), modifiers=modifiers_of(payload) or row.modifiers,
                   result=f"{text(payload.get('result'))} (value typed by a player: lost in the rule text)")


def dice_log(system: System, events: Sequence[Event], viewer: SideId, ended: bool) -> DiceLog:
    """Every roll the viewer may see, in the order made. The date comes from public events only."""
    rows: list[DiceRow] = []
    made: dict[tuple[str, JSON], int] = {}  # (stream, number) → index in rows
    date = ""
    visible = visible_events(events, viewer, ended)
    for index, event in enumerate(visible):
        payload = event.payload
        key = (str(payload.get("stream", "")), payload.get("number"))
        if event.visibility is Visibility.PUBLIC and event.kind in DATE_KINDS:
            date = str(payload.get("date") or date)
        if event.kind == "roll-resolved":
            if key in made:
                rows[made[key]] = resolved_row(rows[made[key]], payload)
            continue
        if event.kind not in ROW_KINDS:
            continue
        follower = visible[index + 1] if index + 1 < len(visible) else None
        made[key] = len(rows)
        rows.append(roll_row(system, event, follower, date, viewer))
    return DiceLog(tuple(rows))


def dice_samples(log: DiceLog) -> tuple[Sample, ...]:
    """The rolls of a side's dice log as statistics samples (only what the log lets the side see; a public roll is
    not secret, an own or revealed one is)."""
    return tuple(Sample(row.roller, DiceKind(row.kind), row.dice, row.visibility != "public", row.date)
                 for row in log.rows if row.kind in DICE_KINDS)
