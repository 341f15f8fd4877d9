"""RG charts: their rows, notes and combined maxima."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.errors import UnknownNameError
from rules_engine.model.values import Cell
from rules_engine.system_memo import SystemMemo
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import SideId


@dataclass(frozen=True)
class UnitCount:
    """``10 × 5-4-8`` in an RG's Full or Depleted composition."""

    count: Cell
    unit: str


RG_QUALITIES = ("elite", "first-line", "second-line", "green", "conscript")  # ASL troop qualities (PL 3.47)


@unshadowed
@dataclass(frozen=True)
class RgRow:
    """One Reinforcement Group line (ID, Group Type, Full/Depleted units, notes, cost and maxima)."""

    id: str
    type: str
    group_type: str
    cost: Cell
    date_max: Cell | None = None
    cg_max: Cell | None = None
    full: tuple[UnitCount, ...] = ()
    depleted: tuple[UnitCount, ...] = ()
    description: str | None = None
    company: bool = False
    notes: tuple[str, ...] = ()
    available_after: str | None = None
    available_from: str | None = None
    gives: Mapping[str, Cell] = field(default_factory=dict)
    sw: Mapping[str, int] = field(default_factory=dict)
    note: str | None = None
    effects: Mapping[str, int] = field(default_factory=dict)  # what buying it changes: {"san": 1} (RR M2 Sniper)
    quality: str | None = None  # the troop quality the card prints (PL 3.47 counts Elite / 1st Line platoons)


@dataclass(frozen=True)
class PreRegistered:
    """Pre-Registered hexes bought with an OBA module (cost each, max per module)."""

    cost: int
    max: int


@unshadowed
@dataclass(frozen=True)
class RgNote:
    """An RG note letter and what the app does with it."""

    text: str
    depletable: bool = False
    leader_table: str | None = None
    on_map_surcharge: int | None = None
    on_map_surcharge_company: int | None = None
    pre_registered: PreRegistered | None = None
    extra_max: int | None = None
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class CombinedMax:
    """A maximum shared by several RG ids ("max 2 RG combined for the CG from G2 and G3")."""

    ids: tuple[str, ...]
    max: int
    per: str = "cg"
    ref: str | None = None


@unshadowed
@dataclass(frozen=True)
class RgChart:
    """One side's Reinforcement Group chart."""

    side: SideId
    ref: str
    name: str
    rows: tuple[RgRow, ...]
    columns: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, RgNote] = field(default_factory=dict)
    combined_max: tuple[CombinedMax, ...] = ()

    def row(self, rg_id: str) -> RgRow:
        """The RG line with this id (UnknownNameError listing the ids)."""
        row = _ROWS_BY_ID(self.rows, None).get(rg_id)
        if row is not None:
            return row
        raise UnknownNameError(
            f"unknown RG {rg_id!r} on the {self.name} (allowed: {', '.join(r.id for r in self.rows)})"
        )


def _rows_by_id(rows: tuple[RgRow, ...], _: None) -> dict[str, RgRow]:
    """A chart's lines by id, the first line with an id (as a scan finds it)."""
    found: dict[str, RgRow] = {}
    for row in rows:
        found.setdefault(row.id, row)
    return found


_ROWS_BY_ID = SystemMemo(_rows_by_id).lookup  # per rows tuple (frozen): ``RgChart.row`` without a scan
