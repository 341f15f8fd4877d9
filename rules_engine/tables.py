"""Dice-table resolution: an original roll plus its DRM (facts, players' answers, CG-Card settings) → final, row, cell."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from rules_engine.errors import MissingValueError, RulesError, SubmissionError
from rules_engine.model import Cell, DiceTable, Modifier, Row, SettingRef, System
from rules_engine.system_memo import SystemMemo
from rules_engine.vocabulary import SideId

Fact = int | bool


class RollLike(Protocol):
    """What resolution needs of a roll (rules_engine.dice.Roll): its total, and its dice for the record."""

    @property
    def total(self) -> int: ...


class MissingFactError(RulesError):
    """A modifier needs a fact the caller did not give (the app derives facts from its records)."""


@dataclass(frozen=True)
class AppliedModifier:
    """One DRM/drm that applied, with its reason as written."""

    reason: str
    value: int
    index: int = -1  # position in the table's modifier list
    source: str = "fact"  # fact | answer | setting | always


@dataclass(frozen=True)
class TableResult:
    """A resolved roll: original, the DRM breakdown, final, the row and cell it gives, effects of the Original roll."""

    original: int
    modifiers: tuple[AppliedModifier, ...]
    final: int
    row: Row
    cell: Cell
    original_effects: tuple[str, ...] = ()
    table_id: str = ""
    column: str | None = None

    @property
    def drm(self) -> int:
        """The summed modifier."""
        return sum(m.value for m in self.modifiers)


def lookup(table: DiceTable, final: int, column: str | None = None) -> Cell:
    """The cell for a final roll (beyond the edges: first/last row); MissingValueError when lost."""
    return table.cell(final, column)


def side_facts(system: System, side: SideId) -> dict[str, Fact]:
    """The `side_is:` and `nationality_is:` facts for one side of a system."""
    return dict(_SIDE_FACTS(system, side))


def _side_facts(system: System, side: SideId) -> dict[str, Fact]:
    own = system.side(side)
    facts: dict[str, Fact] = {}
    for s in system.sides:
        facts[f"side_is:{s.id}"] = s.id == own.id
        facts[f"nationality_is:{s.nationality}"] = s.nationality == own.nationality
    return facts


_SIDE_FACTS = SystemMemo(_side_facts).lookup


def needed_facts(table: DiceTable, column: str | None = None) -> tuple[str, ...]:
    """The facts the table's automatic modifiers read (for the chosen column), in order, without repeats."""
    return _NEEDED(table, column)


def _needed_facts(table: DiceTable, column: str | None) -> tuple[str, ...]:
    col = table.column(column).id if column is not None or len(table.columns) == 1 else None
    out: list[str] = []
    for modifier in table.modifiers:
        if not modifier.applies_to(col):
            continue
        for fact in (modifier.when, modifier.unless, modifier.per.fact if modifier.per else None):
            if fact is not None and fact not in out:
                out.append(fact)
    return tuple(out)


_NEEDED = SystemMemo(_needed_facts).lookup


def questions(table: DiceTable, column: str | None = None) -> tuple[tuple[int, Modifier], ...]:
    """The modifiers a player must answer (`ask:` tick/count/value), by index, for the chosen column."""
    return _QUESTIONS(table, column)


def _questions(table: DiceTable, column: str | None) -> tuple[tuple[int, Modifier], ...]:
    col = table.column(column).id if column is not None or len(table.columns) == 1 else None
    return tuple((i, m) for i, m in enumerate(table.modifiers) if m.ask is not None and m.applies_to(col))


_QUESTIONS = SystemMemo(_questions).lookup


def _fact(table: DiceTable, facts: Mapping[str, Fact], name: str, modifier: Modifier) -> Fact:
    if name in facts:
        return facts[name]
    if name.startswith(("side_is:", "nationality_is:")):
        return False
    raise MissingFactError(
        f"{table.id}: the modifier {modifier.reason!r} needs the fact {name!r}, which was not given"
    )


def _setting(table: DiceTable, settings: Mapping[str, int], ref: SettingRef, modifier: Modifier) -> int:
    if ref.setting not in settings:
        raise MissingValueError(
            f"{table.id}: the modifier {modifier.reason!r} takes its value from the setting {ref.setting!r}, "
            "which is not set; supply it in a CG Card (settings_values)"
        )
    return settings[ref.setting]


def _modifier_value(table: DiceTable, modifier: Modifier, settings: Mapping[str, int]) -> int:
    if isinstance(modifier.value, SettingRef):
        return _setting(table, settings, modifier.value, modifier)
    return modifier.value or 0


def _answer(table: DiceTable, index: int, modifier: Modifier, answer: int | bool) -> int:
    """How many times (tick/count) or which value (value) the player's answer applies."""
    if modifier.ask == "tick":
        if not isinstance(answer, bool):
            raise SubmissionError(f"{_where(table, index, modifier)}: tick or untick it (true/false), got {answer!r}",
                                  table.ref)
        return 1 if answer else 0
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise SubmissionError(f"{_where(table, index, modifier)}: enter a whole number, got {answer!r}", table.ref)
    if modifier.ask == "count":
        if answer < 0:
            raise SubmissionError(f"{_where(table, index, modifier)}: a count cannot be negative, got {answer}", table.ref)
        return answer
    low, high = modifier.range if modifier.range else (-99, 99)
    if not low <= answer <= high:
        raise SubmissionError(f"{_where(table, index, modifier)}: {answer} is out of range (allowed: {low} to {high})",
                              table.ref)
    return answer


def _where(table: DiceTable, index: int, modifier: Modifier) -> str:
    """How a refused answer names its modifier: the table, the index and the reason as written."""
    return f"{table.id} modifier {index} ({modifier.reason})"


def modifiers_for(
    table: DiceTable,
    column: str | None = None,
    facts: Mapping[str, Fact] | None = None,
    answers: Mapping[int, int | bool] | None = None,
    settings: Mapping[str, int] | None = None,
) -> tuple[AppliedModifier, ...]:
    """The DRM that apply (non-zero), each with its reason as written, in the table's order."""
    facts = facts or {}
    answers = answers or {}
    settings = settings or {}
    col = table.column(column).id
    for index in answers:
        if not 0 <= index < len(table.modifiers) or table.modifiers[index].ask is None:
            asked = ", ".join(str(i) for i, _ in questions(table, column)) or "none"
            raise SubmissionError(f"{table.id}: modifier {index} is not a question to answer (allowed: {asked})", table.ref)
        if not table.modifiers[index].applies_to(col):
            raise SubmissionError(
                f"{table.id}: modifier {index} ({table.modifiers[index].reason}) does not apply to column {col}",
                table.ref,
            )
    applied: list[AppliedModifier] = []
    for index, modifier in _APPLICABLE(table, col):
        value = 0
        source = "fact"
        if modifier.ask is not None:
            source = "answer"
            if index in answers:
                times = _answer(table, index, modifier, answers[index])
                value = times if modifier.ask == "value" else times * _modifier_value(table, modifier, settings)
        elif modifier.when is not None:
            if _fact(table, facts, modifier.when, modifier):
                value = _modifier_value(table, modifier, settings)
        elif modifier.unless is not None:
            if not _fact(table, facts, modifier.unless, modifier):
                value = _modifier_value(table, modifier, settings)
        elif modifier.per is not None:
            amount = int(_fact(table, facts, modifier.per.fact, modifier))
            steps = amount // modifier.per.every if modifier.per.rounding == "down" else -(-amount // modifier.per.every)
            value = steps * _modifier_value(table, modifier, settings)
        else:
            source = "setting" if isinstance(modifier.value, SettingRef) else "always"
            value = _modifier_value(table, modifier, settings)
        if isinstance(modifier.value, SettingRef) and source == "fact":
            source = "setting"
        if value:
            applied.append(AppliedModifier(modifier.reason, value, index, source))
    return tuple(applied)


def _applicable(table: DiceTable, column: str) -> tuple[tuple[int, Modifier], ...]:
    """The table's modifiers (index, modifier) that apply to ``column``, in the table's order."""
    return tuple((i, m) for i, m in enumerate(table.modifiers) if m.applies_to(column))


_APPLICABLE = SystemMemo(_applicable).lookup  # per table object and column: a DiceTable is frozen


def resolve(
    table: DiceTable,
    roll: RollLike,
    column: str | None = None,
    facts: Mapping[str, Fact] | None = None,
    answers: Mapping[int, int | bool] | None = None,
    settings: Mapping[str, int] | None = None,
) -> TableResult:
    """Resolve a roll on a table: DRM breakdown, final, row, cell (MissingValueError if that cell is lost)."""
    kind = getattr(roll, "kind", None)
    if kind is not None and str(kind) != table.dice:  # DiceKind is a StrEnum: compared as its text
        raise RulesError(f"{table.id} ({table.ref}) is rolled with a {table.dice.value}, not a {kind}")
    col = table.column(column)
    applied = modifiers_for(table, col.id, facts, answers, settings)
    original = roll.total
    final = original + sum(m.value for m in applied)
    row = table.row_for(final)
    cell = table.cell(final, col.id)
    effects = tuple(
        e.effect for e in table.original if e.roll == original and (not e.columns or col.id in e.columns)
    )
    return TableResult(original, applied, final, row, cell, effects, table.id, col.id)
