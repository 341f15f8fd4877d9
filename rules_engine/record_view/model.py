"""What a side may see of the records, as frozen data: the CG Roster and RG Purchase Record tables, the dice log, the
CG end page. Built only by ``record_view.build.record_view_for``; a hidden cell is never put into one."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules_engine.events import JSON, Event
from rules_engine.record_view.pictures import Pictures
from rules_engine.vocabulary import SideId


class RecordPart(StrEnum):
    """A part of the records a page shows (each is built only when asked for, from its own source)."""

    ROSTER = "roster"
    PURCHASES = "purchases"
    DICE = "dice"
    END = "end"


RosterLines = Mapping[SideId, Mapping[str, Mapping[str, JSON]]]  # side → date id → a RosterLine's JSON
PurchaseLines = Mapping[SideId, Sequence[Mapping[str, JSON]]]  # side → a PurchaseLine's JSON, in line order


@dataclass(frozen=True)
class RecordSources:
    """What the records are read from besides the state: the stored record lines and the campaign's event log."""

    parts: frozenset[RecordPart] = frozenset()
    roster_lines: RosterLines = field(default_factory=dict)
    purchase_lines: PurchaseLines = field(default_factory=dict)
    events: Sequence[Event] = ()


@dataclass(frozen=True)
class Column:
    """A record-form column as shown."""

    id: str
    label: str


@dataclass(frozen=True)
class RecordTable:
    """One side's section of a record form: the columns that side's viewer may see and one row of cells per line."""

    side: SideId
    side_name: str
    you: bool
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""  # why columns/lines are missing (never what they hold)

    @property
    def lines(self) -> list[list[tuple[str, str]]]:
        """Each row's cells with their column ids (for per-column styling)."""
        return [[(column.id, cell) for column, cell in zip(self.columns, row)] for row in self.rows]


@dataclass(frozen=True)
class PointsLine:
    currency: str
    amount: JSON


@dataclass(frozen=True)
class FortificationEntry:
    date: JSON
    type: JSON
    quantity: JSON
    cost: str
    detail: JSON
    notes: JSON


@dataclass(frozen=True)
class ItemEntry:
    date: JSON
    kind: str
    quantity: JSON
    cost: str
    notes: JSON


@dataclass(frozen=True)
class Book:
    """A side's points, fortifications and other purchases (Attack Options, Patrols …): private until CG end."""

    side_name: str
    you: bool
    points: tuple[PointsLine, ...] = ()
    fortifications: tuple[FortificationEntry, ...] = ()
    items: tuple[ItemEntry, ...] = ()


@dataclass(frozen=True)
class FormHeading:
    """A record form's name, rule reference and note, and whether its layout is the system's own."""

    name: str
    ref: str | None
    note: str | None
    own_layout: bool


@dataclass(frozen=True)
class RosterRecord:
    """The CG Roster page: both sides' tables (own in full) and the books the viewer may see."""

    form: FormHeading
    tables: tuple[RecordTable, ...]
    books: tuple[Book, ...]
    map_groups: bool
    pictures: Pictures | None = None  # the charts' figures (issue 13 item 6), cut like the tables


@dataclass(frozen=True)
class PurchaseRecord:
    """The RG Purchase Record page: the own side's table; the opponent's only after CG end."""

    form: FormHeading
    tables: tuple[RecordTable, ...]


@dataclass(frozen=True)
class Modifier:
    """One DRM of a roll: its reason, value and the value as shown ("+2", "÷2")."""

    reason: str
    value: JSON
    text: str


def modifier_value_text(value: JSON) -> str:
    """"+2", "-1" for an added DRM; as recorded otherwise (KGP 8.31 halving: "÷2")."""
    return f"{value:+d}" if is_int(value) and isinstance(value, int) else str(value)


def is_int(value: object) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class DiceRow:
    """One roll of the dice log with its breakdown."""

    date: str
    purpose: str
    roller: str
    stream: str
    number: int
    kind: str
    dice: tuple[int, ...]
    original: JSON
    modifiers: tuple[Modifier, ...]
    final: JSON
    result: str
    table: str
    visibility: str  # public | own | revealed
    caution: str = ""

    @property
    def roller_words(self) -> str:
        """"Canadian side"; a side named "… Side" (PL "Allied Side") as it is."""
        return self.roller if self.roller.casefold().endswith(" side") else f"{self.roller} side"

    @property
    def stream_label(self) -> str:
        return f"{self.stream} #{self.number}"

    @property
    def modifiers_text(self) -> str:
        return "; ".join(f"{m.reason} {modifier_value_text(m.value)}" for m in self.modifiers)


@dataclass(frozen=True)
class DiceLog:
    """Every roll the viewer may see, in the order made."""

    rows: tuple[DiceRow, ...]

    def count(self, visibility: str) -> int:
        """How many rows are public | own | revealed."""
        return sum(1 for row in self.rows if row.visibility == visibility)


@dataclass(frozen=True)
class VictoryRule:
    ref: str
    name: str
    text: str


@dataclass(frozen=True)
class TotalsRow:
    """A side's final totals (CG end): tracks, CVP amassed/suffered, losses, RG bought, points left."""

    side: SideId
    side_name: str
    cg_lvp: JSON
    lvp: JSON
    san: JSON
    elr: JSON
    cvp: int | None
    cvp_suffered: int | None
    leaders_lost: int | None
    units_lost: int | None
    rg_bought: int
    points: str


@dataclass(frozen=True)
class SuppliedValue:
    """A value a player typed in (SAN/ELR, DRM facts, cells lost in the rule text)."""

    side_name: str
    step: str
    text: str
    you: bool


@dataclass(frozen=True)
class CgEndFacts:
    """How the CG ended, in words."""

    reason: str
    reason_id: str
    date: str
    side_name: str | None
    victor_name: str | None


@dataclass(frozen=True)
class EndStatus:
    """The public facts of ending the CG: how it ended (a CgEnd's JSON) or who proposes to end it."""

    cg_end: Mapping[str, JSON] | None
    proposers: tuple[SideId, ...]


@dataclass(frozen=True)
class EndRecord:
    """The CG end page: how to end (before), or the end, the victor, totals and the full reveal (after)."""

    victory_rules: tuple[VictoryRule, ...]
    victory_missing: str | None
    victory: Mapping[str, JSON] | None
    i_proposed: bool
    they_proposed: bool
    end_reason: str | None
    end_claimant: SideId | None
    end_claimant_name: str | None
    i_claim: bool
    cg_end: CgEndFacts | None = None
    totals: tuple[TotalsRow, ...] = ()
    supplied: tuple[SuppliedValue, ...] = ()
    roll_count: int = 0


@dataclass(frozen=True)
class DatePlace:
    """Where the campaign is in its calendar (public)."""

    index: int
    id: str
    count: int


@dataclass(frozen=True)
class RecordView:
    """What one side may see of the records now; a part not asked for is None."""

    side: SideId
    side_name: str
    opponent: SideId
    opponent_name: str
    ended: bool
    started: bool  # the waiting step is over: the phase has started (state.WAITING)
    date: DatePlace
    roster: RosterRecord | None = None
    purchases: PurchaseRecord | None = None
    dice: DiceLog | None = None
    end: EndRecord | None = None
