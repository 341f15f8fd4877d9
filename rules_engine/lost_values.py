"""Values lost in the rule text, typed by a player as the campaign goes (the "table-value" Need).

A CG Card (``loader.parse_card`` ``supply:``) fills lost cells before play. When a roll still falls on a lost cell (or a
lost row label), the roll is kept — its event recorded, never re-rolled — and the step pauses with a Need for the side
whose roll it is (a secret roll's Need is seen by that side only; a public roll's by both). That side types the value
as printed on their chart; it is stored as a *supplied cell* of this campaign for that side (revealed at CG end for
audit), the interrupted work is run again with the rolls already made (``ReplayDice``), and every later lookup of that
cell by that side uses it (``with_cells``).
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rules_engine.dice import PUBLIC_STREAM, Dice, Roll
from rules_engine.errors import LostCellError, RulesError, SubmissionError
from rules_engine.events import JSON
from rules_engine.model import Cell, CellValue, DiceTable, System, value_text
from rules_engine.vocabulary import DiceKind, Provenance, SideId

__all__ = [
    "LABEL", "Need", "NeedDice", "ReplayDice", "cell_key", "column_shape", "lost_cause", "parse_value", "split_key", "value_json",
    "with_cells", "examples", "need_id", "value_from_json",
]

LABEL = "@label"  # the column part of a key for a lost row label
SHAPES = ("number", "leaders", "text", "label")
LEADER = re.compile(r"\d{1,2}[+-]\d")
MAX_TEXT = 200
SUPPLIED_NOTE = "typed by the player during the campaign (lost in the rule text)"


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
        if isinstance(raw, (int, float)):
            return raw
        text = str(raw).strip().replace("−", "-")
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if re.fullmatch(r"[+-]?\d+\.\d+", text):
            return float(text)
        raise SubmissionError(f"{what}: this column holds numbers; type a number as printed, e.g. 12 or 1.5 "
                              f"(got {str(raw)!r})")
    if shape == "leaders":
        items: list[str]
        if isinstance(raw, (list, tuple)):
            items = [str(i).strip() for i in raw]
        else:
            items = [i.strip() for i in str(raw).split(",")]
        items = [i for i in items if i]
        bad = [i for i in items if not LEADER.fullmatch(i)]
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


def with_cells(system: System, cells: Mapping[str, JSON]) -> System:
    """The system with one side's supplied cells filled in (cached per system object and set of cells)."""
    if not cells:
        return system
    signature = json.dumps(dict(cells), sort_keys=True)
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
            values[k] = Cell(value_from_json(raw), Provenance.LEGIBLE, note=SUPPLIED_NOTE, supplied=True)
            row = replace(row, cells=tuple(values), missing=None)
        rows = list(table.rows)
        rows[index] = row
        tables[table_id] = replace(table, rows=tuple(rows))
    overlay = replace(system, tables=tables)
    if len(_OVERLAYS) > 512:
        _OVERLAYS.clear()
    _OVERLAYS[key] = (system, overlay)
    return overlay


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
