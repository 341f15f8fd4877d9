"""Rolling on a table: the roll, its DRM breakdown and the recorded result (tables.resolve plus a step's own DRM)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_engine.dice import PUBLIC_STREAM, Dice, Roll
from rules_engine.errors import RulesError, SubmissionError
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.model import Cell, DiceTable, Row, Step
from rules_engine.phase.facts import facts_for, setting_value, side_settings
from rules_engine.phase.tracks import with_records
from rules_engine.progress import Progress
from rules_engine.state import (
    CampaignState,
    SystemLike,
    side_name,
)
from rules_engine.tables import AppliedModifier, Fact, modifiers_for, needed_facts
from rules_engine.vocabulary import Visibility


@dataclass(frozen=True)
class Resolution:
    """A roll on a table with its DRM breakdown (tables.resolve, plus extra modifiers a step adds: PL 3.45 "+2")."""

    table: DiceTable
    roll: Roll
    column: str
    modifiers: tuple[AppliedModifier, ...]
    final: int
    row: Row
    cell: Cell

    def to_json(self) -> dict[str, JSON]:
        """The breakdown as recorded: original, each DRM with its reason, final, row, result as printed."""
        return {
            "table": self.table.id,
            "table_ref": self.table.ref,
            "table_name": self.table.name,
            "column": self.column,
            "dice": list(self.roll.dice),
            "original": self.roll.total,
            "modifiers": [{"reason": m.reason, "value": m.value, "source": m.source} for m in self.modifiers],
            "final": self.final,
            "row": self.row.display_label,
            "result": self.cell.text,
            "caution": self.cell.caution,
        }


def roll_on(
    table: DiceTable,
    roll: Roll,
    column: str | None,
    facts: Mapping[str, Fact],
    answers: Mapping[int, int | bool],
    settings: Mapping[str, int],
    extra: Sequence[AppliedModifier] = (),
    ignore_facts: Sequence[str] = (),
) -> Resolution:
    """Resolve a roll: the table's DRM (facts, answers, settings) plus ``extra``; facts in ``ignore_facts`` count 0."""
    col = table.column(column)
    use = {**facts, **dict.fromkeys(ignore_facts, 0)} if ignore_facts else facts  # read only: no copy without ignores
    applied = modifiers_for(table, col.id, use, answers, settings) + tuple(extra)
    final = roll.total + sum(m.value for m in applied)
    return Resolution(table, roll, col.id, applied, final, table.row_for(final), table.cell(final, col.id))


def roll_visibility(step: Step, table: DiceTable | None) -> Visibility:
    """Who sees a step's roll: secret rolls their owner (or all at CG end), else both sides."""
    if step.secret == "roll" or (table is not None and table.secret):
        return Visibility.CG_END if step.revealed == "cg-end" else Visibility.SIDE
    return Visibility.PUBLIC


def roll_dice(dice: Dice, table: DiceTable, purpose: str, side: str, visibility: Visibility) -> Roll:
    """A roll on ``table``'s dice, on the public stream or the side's own."""
    stream = PUBLIC_STREAM if visibility is Visibility.PUBLIC else side
    return dice.roll(table.dice, purpose, side, stream)


def result_events(
    state: CampaignState, step: Step, side: str, resolution: Resolution, visibility: Visibility, **extra: JSON
) -> Progress:
    """A resolved roll recorded: its roll event and the "table-result" with the DRM breakdown."""
    owner = None if visibility is Visibility.PUBLIC else side
    roll_ev = roll_event(resolution.roll, visibility, owner, final=resolution.final, result=resolution.cell.text)
    payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "side": side, **resolution.to_json(), **extra}
    result = Event(EventKind.TABLE_RESULT, visibility, owner if owner else side, payload)
    return Progress(with_records(state, result), (roll_ev, result))


def table_column(system: SystemLike, step: Step, table: DiceTable, side: str) -> str | None:
    """The column a step rolls in for ``side``: params ``column`` (``own-side`` = the side id), ``column_setting``,
    ``column_by_nationality``; else the only column."""
    params = step.params
    column = params.get("column")
    if column == "own-side":
        return side
    if isinstance(column, str):
        return column
    setting = params.get("column_setting")
    if isinstance(setting, str):
        value = setting_value(system, side, setting)
        if value is None:
            raise SubmissionError(
                f"{step.ref} {step.name}: the setting {setting!r} (the table column) is not set; supply it in a CG Card",
                step.ref,
            )
        return str(value)
    by_nat = params.get("column_by_nationality")
    if isinstance(by_nat, Mapping):
        nationality = setting_value(system, side, "nationality")
        pick = by_nat.get(str(nationality)) or by_nat.get("default")
        return str(pick) if pick else None
    return None if len(table.columns) > 1 else table.columns[0].id


def step_table(system: SystemLike, step: Step, side: str) -> DiceTable:
    """The table a step rolls on for ``side`` (``params.table_by_side``, ``params.table``, else its first)."""
    by_side = step.params.get("table_by_side")
    name = by_side.get(side) if isinstance(by_side, Mapping) else step.params.get("table")
    if not isinstance(name, str):
        if not step.tables:
            raise RulesError(f"{system.id} step {step.ref}: no table to roll on (params.table or tables:)")
        name = step.tables[0]
    return system.table(name)


def assisted_work(
    system: SystemLike, state: CampaignState, side: str, step: Step, table_id: str, column: str | None,
    answers: Mapping[int, int | bool], dice: Dice, purpose: str = "",
) -> Progress:
    """One assisted roll on a step's table, with the DRM the player ticked."""
    table = system.table(table_id)
    visibility = roll_visibility(step, table)
    label = f"{step.ref} {table.name} ({side_name(system, side)})" + (f": {purpose}" if purpose else "")
    roll = roll_dice(dice, table, label, side, visibility)
    facts = facts_for(system, state, side) if needed_facts(table, column) else {}  # most tables read no fact
    resolution = roll_on(table, roll, column, facts, answers, side_settings(system, side))
    return result_events(state, step, side, resolution, visibility, **({"purpose": purpose} if purpose else {}))
