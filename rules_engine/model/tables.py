"""Dice tables: columns, rows, modifiers."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.errors import LostCellError, UnknownNameError
from rules_engine.model.values import Cell
from rules_engine.system_memo import KEY_NUMBER, SystemMemo, small_key
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import DiceKind


@dataclass(frozen=True)
class Column:
    """A table column: ``id`` for code and CLI, ``label`` as printed."""

    id: str
    label: str


@unshadowed
@dataclass(frozen=True)
class Row:
    """A range of final rolls (min/max inclusive, None = open-ended) and its cells, one per column."""

    min: int | None
    max: int | None
    label: str | None  # as printed; None when the label is lost (see label_missing) or the row is a declared gap
    cells: tuple[Cell, ...]
    label_missing: str | None = None
    edge_interpreted: bool = False
    verify: bool = False
    missing: str | None = None  # a declared gap: the whole row is not in the seed
    note: str | None = None

    def covers(self, final: int) -> bool:
        """True when a final roll falls in this row's range."""
        return (self.min is None or final >= self.min) and (self.max is None or final <= self.max)

    @property
    def range_text(self) -> str:
        """The interpreted range: ``≤2``, ``3``, ``5-6``, ``≥12``."""
        if self.min is None and self.max is None:
            return "any"
        if self.min is None:
            return f"≤{self.max}"
        if self.max is None:
            return f"≥{self.min}"
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"

    @property
    def display_label(self) -> str:
        """The printed label, else the range."""
        return self.label if self.label is not None else self.range_text


@dataclass(frozen=True)
class SettingRef:
    """A modifier value taken from a campaign setting (a CG-Card DRM)."""

    setting: str


@unshadowed
@dataclass(frozen=True)
class PerFact:
    """``value`` per ``every`` of a counted fact ("–1 per each 10 CVP"), rounded down (FRD) or up (FRU)."""

    fact: str
    every: int = 1
    rounding: str = "down"


@unshadowed
@dataclass(frozen=True)
class Modifier:
    """One DRM/drm, with its reason as written and how it is known (fact, player's answer, setting)."""

    reason: str
    value: int | SettingRef | None = None
    when: str | None = None
    unless: str | None = None
    per: PerFact | None = None
    ask: str | None = None  # tick | count | value
    range: tuple[int, int] | None = None
    columns: tuple[str, ...] = ()
    na_for: tuple[str, ...] = ()
    ref: str | None = None
    note: str | None = None

    def applies_to(self, column: str | None) -> bool:
        """True unless the modifier is restricted to other columns or NA for this one."""
        if column is None:
            return True
        if self.columns and column not in self.columns:
            return False
        return column not in self.na_for


@dataclass(frozen=True)
class OriginalEffect:
    """An effect of the Original (unmodified) roll: "an Original 2 DR = Escape + Heat of Battle"."""

    roll: int
    effect: str
    columns: tuple[str, ...] = ()


@unshadowed
@dataclass(frozen=True)
class DiceTable:
    """A dice table: ranges of final rolls × columns, with its DRM list ("2.12 CP Replenishment Table")."""

    id: str
    ref: str
    name: str
    dice: DiceKind
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    per: str = "side"
    secret: bool = False
    modifiers: tuple[Modifier, ...] = ()
    original: tuple[OriginalEffect, ...] = ()
    notes: Mapping[str, str] = field(default_factory=dict)
    note: str | None = None
    system_id: str = ""

    def column(self, name: str | None) -> Column:
        """The column with this id or label (case-insensitive); None is fine for a one-column table."""
        if name is None:
            if len(self.columns) == 1:
                return self.columns[0]
            raise UnknownNameError(
                f"{self._who}: this table has several columns; choose one (allowed: {self._column_list})"
            )
        found = _NAMED_COLUMN(self, name)
        if found is not None:
            return found
        raise UnknownNameError(f"{self._who}: unknown column {name!r} (allowed: {self._column_list})")

    def row_for(self, final: int) -> Row:
        """The row a final roll falls in; beyond the edges, the first or last row (found once per table and final)."""
        return _ROW_FOR(self, final)

    def cell(self, final: int, column: str | None = None) -> Cell:
        """The cell for a final roll (MissingValueError naming the value a user must supply); found once per table,
        final and column (a lost cell is refused each time it is asked)."""
        return _CELL(self, (final, column))

    def _cell(self, final: int, column: str | None) -> Cell:
        col = self.column(column)
        row = self.row_for(final)
        if row.missing is None and row.label_missing is None:
            cell = row.cells[self.columns.index(col)]
            if not cell.missing:
                return cell
        what = f"{self._who}: "
        if len(self.columns) > 1:
            what += f"the {col.label} value for final {self.dice} {final}"
        else:
            what += f"the result for final {self.dice} {final}"
        index = next(i for i, r in enumerate(self.rows) if r is row) if row.missing or row.label_missing else -1
        if row.missing is not None:
            raise LostCellError(
                f"{what} (row {row.range_text}) is not in the rule text ({row.missing}); supply it in a CG Card",
                self.id, final, index, col.id,
            )
        if row.label_missing is not None:
            raise LostCellError(
                f"{what}: the row label (interpreted range {row.range_text}) is lost in the rule text "
                f"({row.label_missing}); supply the label in a CG Card",
                self.id, final, index, None, "label",
            )
        cell = row.cells[self.columns.index(col)]
        if cell.missing:
            index = next(i for i, r in enumerate(self.rows) if r is row)
            raise LostCellError(f"{what} is lost in the rule text ({cell.note}); supply it in a CG Card",
                                self.id, final, index, col.id)
        return cell

    @property
    def _who(self) -> str:
        return f"{self.system_id} {self.id}" if self.system_id else self.id

    @property
    def _column_list(self) -> str:
        return ", ".join(column.id for column in self.columns)


def _named_column(table: DiceTable, name: str) -> Column | None:
    """The first column whose id or label is ``name`` (case-insensitive), None without one."""
    wanted = name.strip().casefold()
    for column in table.columns:
        if column.id.casefold() == wanted or column.label.casefold() == wanted:
            return column
    return None


_NAMED_COLUMN = SystemMemo(_named_column).lookup  # per table object (frozen) and name


def _row_for(table: DiceTable, final: int) -> Row:
    """``DiceTable.row_for`` worked out: the first row covering ``final``, else an edge row."""
    for row in table.rows:
        if row.covers(final):
            return row
    first = table.rows[0]
    if first.min is not None and final < first.min:
        return first
    return table.rows[-1]


def _small_final(final: int) -> bool:
    return -KEY_NUMBER <= final <= KEY_NUMBER  # a final a player's answers made huge is worked out, not remembered


def _cell_at(table: DiceTable, key: tuple[int, str | None]) -> Cell:
    return table._cell(*key)


# per table object (frozen) and final (and column): a roll's row and cell without a scan of the rows
_ROW_FOR = SystemMemo(_row_for, bound=4096, keep=_small_final).lookup
_CELL = SystemMemo(_cell_at, bound=4096, keep=small_key).lookup
