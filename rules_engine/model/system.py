"""A validated CG system: every part, looked up by id."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rules_engine.errors import UnknownNameError
from rules_engine.model.calendar import BetweenPhase, CalendarEntry, Currency, MapGroup, TimeUnit
from rules_engine.model.initiative import Initiative, Side
from rules_engine.model.purchases import Fortifications, Limit, SetupCosts
from rules_engine.model.records import (
    CardInfo,
    Form,
    InitialOb,
    MissingPart,
    ScenarioRoll,
    Setting,
    SpecialRule,
    VictoryConditions,
)
from rules_engine.model.rg_charts import RgChart
from rules_engine.model.steps import IdleRule, Step
from rules_engine.model.tables import DiceTable
from rules_engine.model.values import SettingValue
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import SideId


def _named[T](items: tuple[T, ...], key: Callable[[T], str], wanted: str, unknown: str) -> T:
    """The item whose key is ``wanted`` (UnknownNameError: "<unknown> 'x' (allowed: …)")."""
    for item in items:
        if key(item) == wanted:
            return item
    raise UnknownNameError(f"{unknown} {wanted!r} (allowed: {', '.join(key(i) for i in items) or 'none'})")


@unshadowed
@dataclass(frozen=True)
class System:
    """A validated CG system (or a system with a CG Card applied)."""

    id: str
    kind: str
    name: str
    source: str
    sides: tuple[Side, Side]
    time_unit: TimeUnit | None = None
    between_phase: BetweenPhase | None = None
    currencies: tuple[Currency, ...] = ()
    calendar: tuple[CalendarEntry, ...] = ()
    steps: tuple[Step, ...] = ()
    idle: IdleRule | None = None
    tables: Mapping[str, DiceTable] = field(default_factory=dict)
    rg_charts: tuple[RgChart, ...] = ()
    setup_costs: SetupCosts | None = None
    fortifications: Fortifications | None = None
    initiative: Initiative | None = None
    limits: tuple[Limit, ...] = ()
    forms: tuple[Form, ...] = ()
    settings: tuple[Setting, ...] = ()
    special_rules: tuple[SpecialRule, ...] = ()
    missing_parts: tuple[MissingPart, ...] = ()
    card: CardInfo | None = None
    settings_values: Mapping[str, SettingValue | Mapping[SideId, SettingValue]] = field(default_factory=dict)
    document: Mapping[str, object] = field(default_factory=dict, compare=False, repr=False)
    initial_ob: InitialOb | None = None
    map_groups: tuple[MapGroup, ...] = ()  # KGP 8.2 (a special rule's ``params.map_groups``); empty: no Map Groups
    map_groups_in_play: tuple[str, ...] = ()  # the CG's default Map Groups in play (a calendar entry may name its own)
    scenario_rolls: tuple[ScenarioRoll, ...] = ()
    victory_conditions: VictoryConditions | None = None  # the CG Victory Conditions (card or system)

    def side(self, side_id: SideId) -> Side:
        """The side with this id (UnknownNameError listing the ids)."""
        for side in self.sides:
            if side.id == side_id:
                return side
        raise UnknownNameError(f"{self.id}: unknown side {side_id!r} (allowed: {self.sides[0].id}, {self.sides[1].id})")

    def other_side(self, side_id: SideId) -> Side:
        """The opponent of a side."""
        self.side(side_id)
        return self.sides[1] if self.sides[0].id == side_id else self.sides[0]

    def table(self, table_id: str) -> DiceTable:
        """The dice table with this id (UnknownNameError listing the ids)."""
        try:
            return self.tables[table_id]
        except KeyError:
            raise UnknownNameError(
                f"{self.id}: unknown table {table_id!r} (allowed: {', '.join(self.tables) or 'none'})"
            ) from None

    def step(self, ref: str) -> Step:
        """The step with this rule number (UnknownNameError listing the refs)."""
        return _named(self.steps, lambda s: s.ref, ref, f"{self.id}: unknown step")

    def calendar_entry(self, entry_id: str) -> CalendarEntry:
        """The calendar entry with this id (UnknownNameError listing the ids)."""
        for entry in self.calendar:  # a plain loop (``_named`` without a key call per entry): asked for every order
            if entry.id == entry_id:
                return entry
        return _named(self.calendar, lambda e: e.id, entry_id, f"{self.id}: unknown calendar entry")  # its error

    def rg_chart(self, side_id: SideId) -> RgChart:
        """A side's RG chart (UnknownNameError when the system has none for it)."""
        for chart in self.rg_charts:
            if chart.side == side_id:
                return chart
        raise UnknownNameError(f"{self.id}: no RG chart for side {side_id!r}")

    def setting(self, setting_id: str) -> Setting:
        """The setting with this id (UnknownNameError listing the ids)."""
        return _named(self.settings, lambda s: s.id, setting_id, f"{self.id}: unknown setting")

    def form(self, form_id: str) -> Form:
        """The record form with this id (UnknownNameError listing the ids)."""
        return _named(self.forms, lambda f: f.id, form_id, f"{self.id}: unknown form")

    def map_groups_on(self, date_index: int) -> tuple[MapGroup, ...]:
        """KGP 8.2: the Map Groups with a CG scenario on a calendar entry (its own list, else the CG's default); empty
        for a system without Map Groups (one scenario per date)."""
        if not self.map_groups or not 0 <= date_index < len(self.calendar):
            return ()
        wanted = self.calendar[date_index].map_groups or self.map_groups_in_play
        by_id = {group.id: group for group in self.map_groups}
        return tuple(by_id[ident] for ident in wanted if ident in by_id)
