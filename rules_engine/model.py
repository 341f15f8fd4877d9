"""A CG system as validated, immutable data (the loader builds these from `fixtures/*.yaml`)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from rules_engine.errors import LostCellError, MissingValueError, UnknownNameError
from rules_engine.vocabulary import Automation, Chit, DiceKind, Provenance, SideId, StepAction, Visibility


@dataclass(frozen=True)
class Side:
    """One of the two sides; ``matrix_role`` places it in the initiative matrix (allied or axis)."""

    id: SideId
    name: str
    nationality: str
    matrix_role: str

    @property
    def short_name(self) -> str:
        """As pages say it: "German"; a side named "… Side" (PL 2.5 "Axis Side") loses the word ("the Axis side")."""
        suffix = " Side"
        return self.name[: -len(suffix)] if self.name.endswith(suffix) and len(self.name) > len(suffix) else self.name


@dataclass(frozen=True)
class OrderRollRow:
    """One row of a Dual Attack set-up or move-order roll: a range of final drs and the side it favours."""

    min: int | None
    max: int | None
    result: SideId
    label: str
    interpreted: bool = False
    verify: bool = False
    note: str | None = None  # how an edge is read (PHD C5.37 "< 3" read as ≤3, as the file's tables read "<")


@dataclass(frozen=True)
class OrderRoll:
    """A dr (or DR) deciding who sets up or moves first in a Dual Attack (RR 2.522/2.525, PL 2.41)."""

    ref: str
    dice: DiceKind
    roller: SideId
    rows: tuple[OrderRollRow, ...]

    def winner(self, final: int) -> OrderRollRow:
        """The row a final roll falls in (beyond the edges: the first or last row)."""
        for row in self.rows:
            if (row.min is None or final >= row.min) and (row.max is None or final <= row.max):
                return row
        return self.rows[0] if self.rows[0].min is not None and final < self.rows[0].min else self.rows[-1]


@dataclass(frozen=True)
class MatrixCell:
    """The outcome of one pair of initiative choices."""

    result: str  # dual-attack | axis-assault | allied-assault | idle
    label: str  # as printed: "Dual Attack", "German Assault", "Idle Date", "Lull Date" …
    setup_first: SideId | None = None
    moves_first: SideId | None = None


@dataclass(frozen=True)
class Initiative:
    """2.522-style initiative: the choice mode, the 2×2 matrix, chit limits and the Dual Attack rolls."""

    ref: str
    mode: str  # "chit" (free, secret, simultaneous) | "purchase" (Attack Option bought with points)
    matrix: Mapping[tuple[Chit, Chit], MatrixCell]  # key: (axis choice, allied choice)
    chit_limits: Mapping[SideId, int] = field(default_factory=dict)
    chit_limits_ref: str = ""
    initial_counts: bool = False
    dual_attack_setup: OrderRoll | None = None
    dual_attack_move: OrderRoll | None = None
    chosen_at: str | None = None  # the step at which each side seals its chit (PHD C5.31); None: at the initiative step


# ---------------------------------------------------------------------------------------------------------------------
# Values with provenance
# ---------------------------------------------------------------------------------------------------------------------

Scalar: TypeAlias = int | float | str
CellValue: TypeAlias = int | float | str | tuple[str, ...]
SettingValue: TypeAlias = int | str | bool
JSONScalar: TypeAlias = str | int | float | bool | None

VERIFY_NOTE = "verify against your printed chart"


def value_text(value: CellValue) -> str:
    """A value as printed: ``25``, ``1.5``, ``9-2``, ``10-3, 9-1, 8-1``."""
    if isinstance(value, tuple):
        return ", ".join(value)
    return str(value)


@dataclass(frozen=True)
class Cell:
    """One value from a rule text: legible, interpreted (keeping ``as_written``) or missing (``value`` is None)."""

    value: CellValue | None
    provenance: Provenance = Provenance.LEGIBLE
    as_written: str | None = None
    note: str | None = None  # interpreted: why it was read so; missing: what is lost; supplied: who supplied it
    verify: bool = False  # the catalog flags it ⚠: "verify against your printed chart"
    supplied: bool = False  # filled in by a CG Card `supply:` entry

    @property
    def missing(self) -> bool:
        """True when the value is lost in the rule text and nobody has supplied it."""
        return self.provenance is Provenance.MISSING

    @property
    def text(self) -> str:
        """The value as printed (``""`` for a missing value)."""
        return "" if self.value is None else value_text(self.value)

    @property
    def number(self) -> int | float:
        """The value as a number (MissingValueError when lost, ValueError when it is text)."""
        if self.value is None:
            raise MissingValueError(f"the value is lost ({self.note})")
        if isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            raise ValueError(f"{self.text!r} is not a number")
        return self.value

    @property
    def caution(self) -> str | None:
        """What a user should be told about this value, or None for a plain legible value."""
        parts: list[str] = []
        if self.provenance is Provenance.INTERPRETED:
            parts.append(f"interpreted from {self.as_written!r}" + (f" ({self.note})" if self.note else ""))
        elif self.supplied and self.note:
            parts.append(self.note)
        if self.verify:
            parts.append(VERIFY_NOTE)
        return "; ".join(parts) or None


def legible(value: CellValue) -> Cell:
    """A plainly printed value."""
    return Cell(value)


# ---------------------------------------------------------------------------------------------------------------------
# System parts
# ---------------------------------------------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Step:
    """One step of the between-scenario sequence ("2.516 CPP Replenishment")."""

    ref: str
    name: str
    markers: tuple[str, ...] = ()
    loop_on_idle: bool = False
    initial: bool = False
    initial_only: bool = False
    sides: str = "simultaneous"  # simultaneous | ordered | none
    order: tuple[str, ...] = ()
    secret: str = "none"  # none | roll | choice | purchase | record
    revealed: str = "never"  # never | immediately | cg-end | at-step
    revealed_at: str | None = None  # with revealed == "at-step": the step ref
    automation: Automation = Automation.ON_BOARD
    action: StepAction | None = None  # what the engine does (None: nothing, the players do it)
    params: Mapping[str, object] = field(default_factory=dict)
    tables: tuple[str, ...] = ()
    note: str | None = None
    board_rolls: tuple[DiceKind, ...] | None = None  # public rolls made at the board on request (None: the default)
    in_scenario: bool = False  # played during the scenario (PL 2.8/2.9): shown with it, not a checklist step


@dataclass(frozen=True)
class IdleRule:
    """What happens when no side attacks (Idle Date, Idle Firefight, Lull)."""

    name: str
    loop: str  # steps-marked-loop | listed-steps
    steps: tuple[str, ...] = ()
    then: str = "next-date"
    note: str | None = None


@dataclass(frozen=True)
class Column:
    """A table column: ``id`` for code and CLI, ``label`` as printed."""

    id: str
    label: str


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


@dataclass(frozen=True)
class PerFact:
    """``value`` per ``every`` of a counted fact ("–1 per each 10 CVP"), rounded down (FRD) or up (FRU)."""

    fact: str
    every: int = 1
    rounding: str = "down"


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
        wanted = name.strip().casefold()
        for column in self.columns:
            if column.id.casefold() == wanted or column.label.casefold() == wanted:
                return column
        raise UnknownNameError(f"{self._who}: unknown column {name!r} (allowed: {self._column_list})")

    def row_for(self, final: int) -> Row:
        """The row a final roll falls in; beyond the edges, the first or last row."""
        for row in self.rows:
            if row.covers(final):
                return row
        first = self.rows[0]
        if first.min is not None and final < first.min:
            return first
        return self.rows[-1]

    def cell(self, final: int, column: str | None = None) -> Cell:
        """The cell for a final roll (MissingValueError naming the value a user must supply)."""
        col = self.column(column)
        row = self.row_for(final)
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


@dataclass(frozen=True)
class UnitCount:
    """``10 × 5-4-8`` in an RG's Full or Depleted composition."""

    count: Cell
    unit: str


RG_QUALITIES = ("elite", "first-line", "second-line", "green", "conscript")  # ASL troop qualities (PL 3.47)


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
        for row in self.rows:
            if row.id == rg_id:
                return row
        raise UnknownNameError(
            f"unknown RG {rg_id!r} on the {self.name} (allowed: {', '.join(r.id for r in self.rows)})"
        )


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


@dataclass(frozen=True)
class FormColumn:
    """A record-form column and who may see it."""

    id: str
    label: str
    visibility: Visibility


@dataclass(frozen=True)
class Form:
    """A record form (CG Roster, RG Purchase Record)."""

    id: str
    name: str
    per: str
    columns: tuple[FormColumn, ...]
    ref: str | None = None
    header_fields: tuple[str, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class Setting:
    """A value a CG Card or the players supply (Intensity column, HIST/CP DRM …)."""

    id: str
    label: str
    type: str  # choice | int | bool | text
    choices: tuple[str, ...] = ()
    per_side: bool = False
    source: str = "cg-card"
    ref: str | None = None
    default: SettingValue | None = None
    range: tuple[int, int] | None = None
    note: str | None = None


@dataclass(frozen=True)
class SpecialRule:
    """A CG special rule the app enforces or shows (ER CG7, KGP CG14 …)."""

    id: str
    ref: str
    name: str
    text: str
    enforced: bool = False
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Threshold:
    """A scenario roll's comparison with a number the players type (KGP CG23 "≤ the circled number")."""

    op: str  # "<=" | "<" | ">=" | ">"
    label: str  # what the players type, as the rule names it ("the circled number in the current turn's box")
    as_written: str | None = None
    interpreted: str | None = None
    verify: bool = False


@dataclass(frozen=True)
class ScenarioRoll:
    """A public roll made during the scenario (PL CG2 / KGP CG23 Game End dr, KGP CG16 Sniper choice dr)."""

    id: str
    ref: str
    name: str
    dice: DiceKind
    roller: str  # who makes it, as the rule says ("the moving player", "the ATTACKER")
    when: str  # when it is made, as the rule says
    outcomes: tuple[str, str] = ("", "")  # (met, not met) with a threshold
    threshold: Threshold | None = None
    table: str | None = None  # or a table of this system to roll on
    modifiers: tuple[Modifier, ...] = ()
    sides: tuple[SideId, ...] = ()  # who may make it (empty: either side)
    from_turn: int | None = None  # the first Game Turn it is made
    night_only: bool = False  # only in a night scenario (the calendar's ``night``)
    step: str | None = None  # the in-scenario step it belongs to (PL 2.9)
    rule: str | None = None  # the special rule it applies
    note: str | None = None
    roller_role: str | None = None  # "attacker" | "defender": only the scenario's Attacker/Defender makes it (ER CG21, CG5)
    requires_rg: bool = False  # only a side that bought an RG its ``rule`` governs (ER CG18 FPF Barrage)
    not_in_initial_scenario: str | None = None  # why it is not made in the Initial Scenario (ER CG13: one Sniper each)


@dataclass(frozen=True)
class ObGroup:
    """RG given in the Initial Scenario OB (PHD C4.2 "RG: Gren Pl x 2"): by chart id and/or group type, with a count."""

    count: int
    rg_id: str | None = None
    group_type: str | None = None

    @property
    def text(self) -> str:
        """As printed: ``Gren Pl x 2``."""
        name = self.group_type or self.rg_id or "?"
        return f"{name} x {self.count}" if self.count != 1 else name


@dataclass(frozen=True)
class SideOb:
    """One side's Initial Scenario OB (PHD C4.2): points by currency, OB-given RG, starting ELR and SAN."""

    side: SideId
    points: Mapping[str, int] = field(default_factory=dict)
    rg: tuple[ObGroup, ...] = ()
    elr: int | None = None
    san: int | None = None
    text: str | None = None


@dataclass(frozen=True)
class InitialOb:
    """The Initial Scenario OB of both sides (PHD C4.2); applied by ``sequence.start``; its RG are not counted for maxima."""

    ref: str
    sides: Mapping[SideId, SideOb] = field(default_factory=dict)
    note: str | None = None

    def side(self, side_id: SideId) -> SideOb | None:
        """A side's OB, or None when the data give none for it."""
        return self.sides.get(side_id)


@dataclass(frozen=True)
class VictoryCondition:
    """One checkable CG Victory Condition: ``side`` wins when its ``measure`` ``op`` ``value`` (docs/cg-format.md)."""

    side: SideId
    measure: str  # "cg_lvp" | "cvp" | "tvp" (vocabulary.VICTORY_MEASURES)
    op: str  # ">=" | ">" | "<=" | "<" | "=="
    value: int


@dataclass(frozen=True)
class VictoryConditions:
    """The CG Victory Conditions as printed (``text``), with the conditions Refit checks at CG end, in order."""

    text: str
    ref: str = "CG Card"
    conditions: tuple[VictoryCondition, ...] = ()
    otherwise: SideId | None = None


@dataclass(frozen=True)
class MissingPart:
    """A whole part the seed does not contain; a user supplies it (e.g. in a CG Card)."""

    part: str
    note: str
    id: str | None = None


@dataclass(frozen=True)
class CardInfo:
    """The CG Card that filled in a system."""

    id: str
    name: str
    extends: str
    example: bool = False
    source: str | None = None


def _named[T](items: tuple[T, ...], key: Callable[[T], str], wanted: str, unknown: str) -> T:
    """The item whose key is ``wanted`` (UnknownNameError: "<unknown> 'x' (allowed: …)")."""
    for item in items:
        if key(item) == wanted:
            return item
    raise UnknownNameError(f"{unknown} {wanted!r} (allowed: {', '.join(key(i) for i in items) or 'none'})")


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
        return _named(self.calendar, lambda e: e.id, entry_id, f"{self.id}: unknown calendar entry")

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
