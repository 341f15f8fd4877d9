"""What a purchase is checked against: set-up costs, Fortifications and limits."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.model.values import Cell
from rules_engine.vocabulary import SideId


@dataclass(frozen=True)
class SetupMode:
    """Set-up cost modifiers of one mode (on-map, reserve, entry) by RG type letter."""

    mode: str
    by_type: Mapping[str, Cell]
    ref: str | None = None


@dataclass(frozen=True)
class SetupCosts:
    """Set-up cost modifiers (PL 2.34, PHD C5.32) and on-map rules (RR 2.5184)."""

    ref: str
    modes: tuple[SetupMode, ...] = ()
    minimum: int | None = None
    on_map_free_types: tuple[str, ...] = ()
    never_on_map: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class FortCost:
    """How a fortification is priced: fixed, by capacity/unit, per factor/hexside, formula, multiplier, as per a rule."""

    kind: str  # fixed | by_capacity | by_unit | per_factor | per_hexside | formula | multiplier | as_per
    amount: Cell | None = None
    by: Mapping[str, Cell] = field(default_factory=dict)
    formula: str | None = None
    rounding: str | None = None
    reference: str | None = None


@dataclass(frozen=True)
class FortificationRow:
    """One line of a fortification purchase table."""

    type: str
    cost: FortCost
    initial_only: bool = False
    isolated_ok: bool = False
    near_enemy_ok: bool = False
    sides: tuple[SideId, ...] = ()
    notes: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class FortLimit:
    """A cap on points spent on some fortification types ("≤30 DSP per TM Scenario on mines")."""

    types: tuple[str, ...]
    max_points: int
    per: str = "scenario"


@dataclass(frozen=True)
class Fortifications:
    """The fortification purchase table and its currency."""

    ref: str
    currency: str
    rows: tuple[FortificationRow, ...]
    forfeit_unspent: bool = False
    limits: tuple[FortLimit, ...] = ()
    notes: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Limit:
    """A purchase or play limit ("max 3 infantry platoons", "Patrols: Low 1, Mid 2, High 3")."""

    id: str
    text: str
    ref: str | None = None
    per: str | None = None
    max: Cell | None = None
    by_side: Mapping[SideId, Cell] = field(default_factory=dict)
    by_setting: str | None = None
    by_choice: Mapping[str, Cell] = field(default_factory=dict)
    percent: Cell | None = None
    rounding: str | None = None
    note: str | None = None
    rg_types: tuple[str, ...] = ()
