"""Time, currencies, the calendar and Map Groups (KGP 8.2)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.model.values import Cell
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import SideId


@dataclass(frozen=True)
class TimeUnit:
    """What one calendar entry is: a CG Firefight, a CG Date, a TM Scenario."""

    id: str
    name: str


@dataclass(frozen=True)
class BetweenPhase:
    """The name of the between-scenario phase (Refit Phase / RePh, Consolidation Phase / ConPh)."""

    name: str
    abbrev: str


@dataclass(frozen=True)
class BoughtWith:
    """A currency bought with another (FPP with CPP via RG M1)."""

    currency: str
    via: str | None = None


@unshadowed
@dataclass(frozen=True)
class Currency:
    """A points currency: CPP, FPP, CP, FP, TP, DSP."""

    code: str
    name: str
    carry_over: bool = True
    ref: str | None = None
    forfeit_at_step: str | None = None
    bought_with: BoughtWith | None = None
    note: str | None = None


@unshadowed
@dataclass(frozen=True)
class CalendarEntry:
    """One CG Date / Firefight / TM Scenario, in play order, with its printed columns."""

    id: str
    index: int
    name: str | None = None
    date: str | None = None  # the calendar day, for "same calendar date" rules (PL 3.31)
    time: str | None = None
    night: bool = False
    initial: bool = False
    replenishment_roll: bool = True
    base_numbers: Mapping[SideId, Cell] = field(default_factory=dict)
    ec: Cell | None = None
    weather: Cell | None = None
    moon: Cell | None = None
    wind: Cell | None = None
    note: str | None = None
    map_groups: tuple[str, ...] = ()  # KGP 8.2: the Map Groups with a CG scenario on this date (empty: the CG default)


@dataclass(frozen=True)
class MapGroup:
    """A Map Group (KGP 8.2): one CG scenario is played on each Map Group in play per CG Date."""

    id: str
    sections: int  # Map Sections it comprises (KGP 8.2: two, "Ch" one)
    name: str | None = None
    ref: str | None = None  # the rule that declares it

    @property
    def label(self) -> str:
        """The id and its Map Sections as shown on a page: "St (2 Map Sections)"."""
        return f"{self.id} ({self.sections} Map Section{'s' if self.sections != 1 else ''})"
