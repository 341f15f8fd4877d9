"""Values lost in the rule text, settled before play (issue 9 item 2).

``needed_values(system)`` lists every lost cell or row label of the tables a campaign's steps, purchases and scenario
rolls can roll on; each must be supplied before the campaign starts — by the CG Card (``loader.parse_card``
``supply:``) or typed by the creator (``settle`` checks them with ``parse_value``) — and the campaign's system is built
``with_cells`` of them, for both sides: they are printed rule values, not secrets. A roll never pauses on a lost value:
``sequence`` raises ``UnsuppliedValueError`` if it ever meets one (impossible for a campaign created with them all).
Campaigns paused mid-step before this change keep their per-side *supplied cells* (``ReplayDice`` resumes them).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules_engine.dice import PUBLIC_STREAM, Dice, Roll
from rules_engine.errors import LostCellError, MissingValueError, RulesError, SubmissionError
from rules_engine.events import JSON
from rules_engine.model import Cell, CellValue, DiceTable, System, value_text
from rules_engine.vocabulary import DiceKind, Provenance, SideId

__all__ = [
    "LABEL", "Need", "NeedDice", "ReplayDice", "cell_key", "column_shape", "lost_cause", "parse_value", "split_key", "value_json",
    "with_cells", "examples", "need_id", "value_from_json", "LostValue", "UnsuppliedValueError", "needed_values",
    "unsupplied", "settle", "UnsettledValuesError", "SETTLED_NOTE", "MAX_NUMBER", "MAX_LEADERS",
]

LABEL = "@label"  # the column part of a key for a lost row label
SHAPES = ("number", "leaders", "text", "label")
LEADER = re.compile(r"\d{1,2}[+-]\d")
MAX_TEXT = 200
MAX_NUMBER = 1000  # a printed table value is a small number: |value| ≤ 1000
MAX_LEADERS = 10  # a leader cell lists at most this many leaders
SUPPLIED_NOTE = "typed by the player during the campaign (lost in the rule text)"
SETTLED_NOTE = "typed by the players before the campaign started, as printed (lost in the rule text)"


@dataclass(frozen=True)
class Need:
    """Something ``side`` must supply before the current step goes on: a track (SAN/ELR/LVP), a DRM fact, or a value
    lost in the rule text (``kind`` "table-value": the table, the row the final roll fell in, the column)."""

    id: str
    kind: str  # "track" | "fact" | "table-value"
    side: SideId
    text: str
    shape: str  # "number" | "yes-no" | "leaders" | "text" | "label"
    step: str | None = None
    table: str | None = None
    table_ref: str | None = None
    table_name: str | None = None
    final: int | None = None
    row: str | None = None  # the row's range as interpreted ("12", "≥13")
    column: str | None = None  # column id (None for a lost row label)
    column_label: str | None = None
    public: bool = False  # a public roll's Need is shown to both sides
    examples: tuple[str, ...] = ()  # values of the same column as printed in other rows (what a value looks like)
    low: int | None = None  # a number's allowed range, when the rules bound it (PL 3.45: 0 to the most allowed)
    high: int | None = None

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data (for the side that may see it)."""
        return {
            "id": self.id, "kind": self.kind, "side": self.side, "text": self.text, "shape": self.shape,
            "step": self.step, "table": self.table, "table_ref": self.table_ref, "table_name": self.table_name,
            "final": self.final, "row": self.row, "column": self.column, "column_label": self.column_label,
            "public": self.public, "examples": list(self.examples), "low": self.low, "high": self.high,
        }


def cell_key(table: str, row: int, column: str | None) -> str:
    """The key of a supplied cell: ``table|row index|column id`` (``@label`` for a row label)."""
    return f"{table}|{row}|{column if column is not None else LABEL}"


def split_key(key: str) -> tuple[str, int, str]:
    """Inverse of ``cell_key``: (table id, row index, column id or ``@label``)."""
    table, row, column = key.split("|")
    return table, int(row), column


def need_id(key: str) -> str:
    """The Need id of a lost cell."""
    return f"table-value:{key}"


def lost_cause(error: BaseException) -> LostCellError | None:
    """The LostCellError behind an error (rg_rolls and replenishment wrap it), or None."""
    seen: BaseException | None = error
    for _ in range(10):
        if seen is None:
            return None
        if isinstance(seen, LostCellError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _column_values(table: DiceTable, column: str) -> list[CellValue]:
    index = [c.id for c in table.columns].index(column)
    values: list[CellValue] = []
    for row in table.rows:
        if row.missing is None and index < len(row.cells) and row.cells[index].value is not None:
            value = row.cells[index].value
            assert value is not None
            values.append(value)
    return values


def column_shape(table: DiceTable, column: str | None) -> str:
    """What a value of this column looks like: ``number`` where the column has numbers, ``leaders`` where it lists
    leaders, ``label`` for a row label, else ``text``."""
    if column is None or column == LABEL:
        return "label"
    values = _column_values(table, column)
    if any(isinstance(v, tuple) for v in values):
        return "leaders"
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return "number"
    return "text"


def examples(table: DiceTable, column: str | None) -> tuple[str, ...]:
    """Up to three printed values of the column (or row labels) for the form's hint."""
    if column is None or column == LABEL:
        return tuple(r.label for r in table.rows if r.label is not None)[:3]
    return tuple(value_text(v) for v in _column_values(table, column))[:3]


def parse_value(shape: str, raw: object, what: str) -> CellValue:
    """The typed value checked against the column's shape (SubmissionError saying what is allowed)."""
    if isinstance(raw, bool) or raw is None:
        raise SubmissionError(f"{what}: type the value as printed on your chart (got {raw!r})")
    if shape == "number":
        number: int | float
        text = str(raw).strip().replace("−", "-")[:40]
        if isinstance(raw, (int, float)):
            number = raw
        elif re.fullmatch(r"[+-]?\d{1,6}", text):
            number = int(text)
        elif re.fullmatch(r"[+-]?\d{1,6}\.\d{1,3}", text):
            number = float(text)
        else:
            raise SubmissionError(f"{what}: this column holds numbers; type a number as printed, e.g. 12 or 1.5 "
                                  f"(got {text!r})")
        if not -MAX_NUMBER <= number <= MAX_NUMBER:
            raise SubmissionError(f"{what}: {text} is out of range; a value of this table is from {-MAX_NUMBER} to "
                                  f"{MAX_NUMBER}")
        return number
    if shape == "leaders":
        items: list[str]
        if isinstance(raw, (list, tuple)):
            items = [str(i).strip() for i in raw]
        else:
            items = [i.strip() for i in str(raw).split(",")]
        items = [i for i in items if i]
        if len(items) > MAX_LEADERS:
            raise SubmissionError(f"{what}: at most {MAX_LEADERS} leaders, as printed (got {len(items)})")
        bad = [i[:20] for i in items if not LEADER.fullmatch(i)]
        if not items or bad:
            raise SubmissionError(
                f"{what}: this column lists leaders; type them as printed, separated by commas, e.g. 8-0, 7-0"
                + (f" (not a leader: {', '.join(bad)})" if bad else " (got nothing)"))
        return tuple(items)
    if isinstance(raw, (list, tuple)):
        raise SubmissionError(f"{what}: type one text as printed (got a list)")
    text = str(raw).strip()
    if not text or len(text) > MAX_TEXT:
        raise SubmissionError(f"{what}: type the {'row label' if shape == 'label' else 'result'} as printed "
                              f"(1 to {MAX_TEXT} characters, got {len(text)})")
    return text


def value_json(value: CellValue) -> JSON:
    """A supplied value as JSON (a leader list becomes a list)."""
    return list(value) if isinstance(value, tuple) else value


def value_from_json(value: object) -> CellValue:
    """Inverse of ``value_json``."""
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if isinstance(value, (int, float, str)) and not isinstance(value, bool):
        return value
    raise ValueError(f"campaign state: a supplied value must be a number, a text or a list of texts (got {value!r})")


_OVERLAYS: dict[tuple[int, str], tuple[System, System]] = {}


def with_cells(system: System, cells: Mapping[str, JSON], note: str = SUPPLIED_NOTE) -> System:
    """The system with supplied cells filled in (the values settled at creation, or one side's typed during a campaign
    stored before that), cached per system object, set of cells and note."""
    if not cells:
        return system
    signature = json.dumps(dict(cells), sort_keys=True) + note
    key = (id(system), signature)
    found = _OVERLAYS.get(key)
    if found is not None and found[0] is system:
        return found[1]
    tables = dict(system.tables)
    for cell_id, raw in cells.items():
        table_id, index, column = split_key(cell_id)
        table = tables.get(table_id)
        if table is None or not 0 <= index < len(table.rows):
            continue
        row = table.rows[index]
        if column == LABEL:
            row = replace(row, label=str(raw), label_missing=None)
        else:
            ids = [c.id for c in table.columns]
            if column not in ids:
                continue
            k = ids.index(column)
            values = list(row.cells) if row.missing is None else [
                Cell(None, Provenance.MISSING, note=row.missing) for _ in table.columns]
            if not values[k].missing:
                continue  # a CG Card filled it since: the card wins
            values[k] = Cell(value_from_json(raw), Provenance.LEGIBLE, note=note, supplied=True)
            row = replace(row, cells=tuple(values), missing=None)
        rows = list(table.rows)
        rows[index] = row
        tables[table_id] = replace(table, rows=tuple(rows))
    overlay = replace(system, tables=tables)
    if len(_OVERLAYS) > 512:
        _OVERLAYS.clear()
    _OVERLAYS[key] = (system, overlay)
    return overlay


class UnsuppliedValueError(MissingValueError):
    """A roll fell on a value lost in the rule text that the campaign was not given before it started (impossible for
    a campaign created with every ``needed_values`` supplied)."""


@dataclass(frozen=True)
class LostValue:
    """One value lost in the rule text that a campaign could need: a table's cell or row label."""

    key: str  # cell_key: "table|row index|column id" (``@label`` for a row label)
    table: str
    table_ref: str
    table_name: str
    dice: str
    row: str  # the row's interpreted range ("12", "≥13")
    column: str | None  # column id (None for a row label)
    column_label: str | None
    shape: str  # "number" | "leaders" | "text" | "label"
    examples: tuple[str, ...] = ()
    final: int | None = None  # a final roll the row covers (a card's ``supply: {row: <final>}``)

    @property
    def label(self) -> str:
        """``2.5193 Company Leader Allotment Table (RG Note L), final DR 12, Leader(s) Received``."""
        what = "row label" if self.column is None else (self.column_label or self.column)
        return f"{self.table_ref} {self.table_name}, final {self.dice} {self.row}, {what}"

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data (for forms and pages)."""
        return {"key": self.key, "table": self.table, "table_ref": self.table_ref, "table_name": self.table_name,
                "dice": self.dice, "row": self.row, "column": self.column, "column_label": self.column_label,
                "shape": self.shape, "label": self.label, "examples": list(self.examples), "final": self.final}


def _rolled_tables(system: System) -> list[str]:
    """Tables a campaign can roll on: named by a step (its ``tables`` or a parameter), a scenario roll or an RG note."""
    names: list[str] = []

    def add(value: object) -> None:
        if isinstance(value, str) and value in system.tables and value not in names:
            names.append(value)
        elif isinstance(value, Mapping):
            for item in value.values():
                add(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                add(item)

    for step in system.steps:
        add(list(step.tables))
        add(step.params)
    for roll in system.scenario_rolls:
        add(roll.table)
    for rule in system.special_rules:
        add(rule.params)
    for chart in system.rg_charts:
        for note in chart.notes.values():
            add(note.leader_table)
            add(note.params)
    return names


def needed_values(system: System) -> tuple[LostValue, ...]:
    """Every value lost in the rule text that a campaign of this (card-applied) system could need, table by table."""
    out: list[LostValue] = []
    for table_id in _rolled_tables(system):
        table = system.tables[table_id]
        for index, row in enumerate(table.rows):
            final = row.min if row.min is not None else row.max
            if row.label_missing is not None:
                key = cell_key(table.id, index, None)
                out.append(LostValue(key, table.id, table.ref, table.name, str(table.dice), row.range_text, None, None,
                                     "label", examples(table, None), final))
            for k, column in enumerate(table.columns):
                lost = row.missing is not None or (k < len(row.cells) and row.cells[k].missing)
                if lost:
                    out.append(LostValue(cell_key(table.id, index, column.id), table.id, table.ref, table.name,
                                         str(table.dice), row.range_text, column.id, column.label,
                                         column_shape(table, column.id), examples(table, column.id), final))
    return tuple(out)


def unsupplied(system: System, values: Mapping[str, JSON]) -> tuple[LostValue, ...]:
    """The needed values neither the card nor ``values`` give."""
    return tuple(v for v in needed_values(system) if v.key not in values)


def settle(system: System, raw: Mapping[str, object]) -> dict[str, JSON]:
    """The typed values of every needed value, checked with ``parse_value`` (SubmissionError with one line per value
    that is missing or wrong, saying what is allowed); keys not needed are refused."""
    needed = {v.key: v for v in needed_values(system)}
    problems: dict[str, str] = {}
    unknown = [str(k)[:80] for k in raw if k not in needed]
    if unknown:
        problems[""] = (f"not a value lost in the rule text of this CG: {', '.join(unknown[:5])} "
                        f"(allowed: {', '.join(needed) or 'none: the CG Card supplies every lost value'})")
    out: dict[str, JSON] = {}
    for key, value in needed.items():
        given = raw.get(key)
        if given is None or (isinstance(given, str) and not given.strip()):
            problems[key] = (f"{value.label}: lost in the rule text; type it as printed on your chart"
                             + (f" (printed values of this column: {', '.join(value.examples)})" if value.examples else ""))
            continue
        try:
            out[key] = value_json(parse_value(value.shape, given, value.label))
        except SubmissionError as error:
            problems[key] = str(error)
    if problems:
        raise UnsettledValuesError(problems)
    return out


class UnsettledValuesError(SubmissionError):
    """``settle`` refused: ``problems`` maps a needed value's key ("" for unknown keys) to what is wrong and allowed."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems = dict(problems)
        super().__init__("\n".join(self.problems.values()))


class NeedDice(RulesError):
    """Resuming needs a new roll and no dice were given (``sequence.advance`` resumes it)."""


class ReplayDice:
    """Dice that first give back the rolls already made (in order, checked against kind, purpose and stream), then roll
    anew; ``fresh`` are the new rolls, ``replayed`` the ones given back."""

    def __init__(self, dice: Dice | None, replay: Sequence[Roll] = ()) -> None:
        self.dice = dice
        self.queue = list(replay)
        self.fresh: list[Roll] = []
        self.replayed: list[Roll] = []

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = PUBLIC_STREAM) -> Roll:
        """The next recorded roll, else a new one from the wrapped dice."""
        if self.queue:
            roll = self.queue.pop(0)
            if str(roll.kind) != str(kind) or roll.purpose != purpose or roll.stream != stream:
                raise RulesError(f"resuming after a supplied value: expected the roll {roll.purpose!r} "
                                 f"({roll.kind}, {roll.stream}) again, got {purpose!r} ({kind}, {stream})")
            self.replayed.append(roll)
            return roll
        if self.dice is None:
            raise NeedDice(f"{purpose}: a new roll is needed to go on; run sequence.advance with the dice")
        roll = self.dice.roll(kind, purpose, roller, stream)
        self.fresh.append(roll)
        return roll

    @property
    def made(self) -> list[Roll]:
        """Every roll given out, in order."""
        return self.replayed + self.fresh
