"""The secret rolls made as an RG is bought: strength (RR 2.5191), SW (2.5192), leaders (2.5193, PL 2.361), OBA ammo.

Every roll is a CG_END event of the owning side (its secret stream), with its purpose citing the rule, the original and
final values and the DRM breakdown from ``tables.resolve``.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.dice import Dice, Roll
from rules_engine.errors import MissingValueError, RulesError
from rules_engine.events import JSON, Event, roll_event
from rules_engine.ledger import PurchaseLine, SideLedger
from rules_engine.model import DiceTable, RgChart, RgNote, RgRow, System, UnitCount
from rules_engine.purchases import int_settings
from rules_engine.rg_roll_lookups import company_drs, depletion_sides, step_leader_column, type_list
from rules_engine.system_memo import SystemMemo
from rules_engine.tables import Fact, MissingFactError, TableResult, needed_facts, questions, resolve, side_facts
from rules_engine.vocabulary import SideId, Visibility

__all__ = ["RollMissingValueError", "roll_for_purchase", "leader_column"]

MAX_SW_ROUNDS = 100
Answers = Mapping[str, Mapping[int, int | bool]]  # table id → ``ask:`` modifier index → the owner's answer


class RollMissingValueError(MissingValueError):
    """A roll fell on a value lost in the rule text; ``events`` are the rolls already made, ``line`` the line so far."""

    def __init__(self, message: str, line: PurchaseLine, events: tuple[Event, ...]) -> None:
        super().__init__(message)
        self.line = line
        self.events = events


def _table(system: System, table_id: str, why: str) -> DiceTable:
    """A table a purchase roll needs (MissingValueError asking for a CG Card when the rule text lost it)."""
    if table_id not in system.tables:
        raise MissingValueError(f"{system.id}: {why}, but the table {table_id!r} is not in the rule text; "
                                "supply it in a CG Card")
    return system.tables[table_id]


def _find_param(system: System, key: str) -> object:
    """A purchase-roll parameter from the step that declares it (RR 2.519 names its strength and SW tables)."""
    return next((step.params[key] for step in system.steps if key in step.params), None)


_param = SystemMemo(_find_param).lookup  # once per System and key: a System's steps never change


def _param_table(system: System, key: str, why: str) -> DiceTable:
    """The table a step's ``key`` parameter names (2.5191 ``strength_table``, 2.5192 ``sw_table``)."""
    table_id = _param(system, key)
    if not isinstance(table_id, str):
        raise MissingValueError(f"{system.id}: {why}, but no step names its {key}; supply it in a CG Card")
    return _table(system, table_id, why)


def _result_is(system: System, key: str, cell_text: str) -> bool:
    """Whether a cell reads as the step's ``key`` result ("Depleted", "SW received"), case and spacing ignored."""
    wanted = _param(system, key)
    if not isinstance(wanted, str):
        raise MissingValueError(f"{system.id}: no step says which {key} result to look for; supply it in a CG Card")
    return cell_text.strip().casefold() == wanted.strip().casefold()


def _event(roll: Roll, side: SideId, line: PurchaseLine, result: TableResult, table: DiceTable, **extra: JSON) -> Event:
    """A secret roll as a CG_END event of its side, with the table, column, RG line and DRM breakdown."""
    modifiers: list[JSON] = [{"reason": m.reason, "value": m.value} for m in result.modifiers]
    return roll_event(
        roll, Visibility.CG_END, side,
        rule=table.ref, table=table.id, column=result.column, rg_id=line.rg_id, line=line.line,
        original=result.original, modifiers=modifiers, final=result.final, result=result.cell.text, **extra,
    )


def _roll_on(
    dice: Dice, table: DiceTable, side: SideId, purpose: str, *, column: str | None = None,
    facts: Mapping[str, Fact] | None = None, settings: Mapping[str, int] | None = None,
    answers: Answers | None = None,
) -> tuple[Roll, TableResult]:
    """Check the DRM facts are known (nothing rolled otherwise), then roll secretly and resolve (with the owner's
    answers to the table's ``ask:`` modifiers, keyed by table id)."""
    given = facts or {}
    lacking = [f for f in needed_facts(table, column) if f not in given and not f.startswith(("side_is:", "nationality_is:"))]
    if lacking:
        raise MissingFactError(f"{table.id} ({table.ref}): the DRM need {', '.join(lacking)}; nothing was rolled")
    roll = dice.roll(table.dice, purpose, side, stream=side)
    try:
        return roll, resolve(table, roll, column=column, facts=given, settings=settings,
                             answers=(answers or {}).get(table.id))
    except MissingValueError as error:
        raise _Lost(str(error), roll) from error


class _Lost(MissingValueError):
    """A lost cell hit by a roll already made (carried up so the roll's event is kept)."""

    def __init__(self, message: str, roll: Roll) -> None:
        super().__init__(message)
        self.roll = roll


def leader_column(system: System, side: SideId, row: RgRow, note: RgNote, table: DiceTable) -> str:
    """The leader-table column for an RG: by RG type (RR note l), by nationality and armor (PL 2.36), or the only one."""
    by_type = note.params.get("columns_by_type")
    if isinstance(by_type, Mapping) and row.type in by_type:
        return table.column(str(by_type[row.type])).id
    return step_leader_column(system, side, row.type, table)


def _company_drs(system: System, row: RgRow, table: DiceTable) -> int:
    """PL 2.36: how many leader DRs an RG makes (one; a company: as many as the CG Card's setting gives)."""
    if not row.company:
        return 1
    return company_drs(system, row.id, table.id)


def _leader_texts(value: object) -> tuple[str, ...]:
    items = value if isinstance(value, tuple) else (value,)
    return tuple(str(v) for v in items if v is not None and str(v).strip() not in ("", "-"))


def _column_order(table: DiceTable, column: str) -> list[str]:
    """The leader types of a table column from best to worst (PL 2.362 moves an excess leader down)."""
    index = [c.id for c in table.columns].index(column)
    order: list[str] = []
    for row in table.rows:
        if row.missing is not None or index >= len(row.cells):
            continue
        for leader in _leader_texts(row.cells[index].value):
            if leader not in order:
                order.append(leader)
    return order


def _initial_limit(
    system: System, table: DiceTable, column: str, leader: str, counts: dict[str, int]
) -> tuple[str | None, str | None]:
    """PL 2.362: at most one each of the column's two top leader types in the Initial Firefight; excess → next down."""
    limit = next((lim for lim in system.limits if lim.id == "initial-leader-limit"), None)
    if limit is None or limit.max is None or limit.max.value is None:
        return leader, None
    most = int(limit.max.number)
    order = _column_order(table, column)
    top = order[:2]
    if leader not in top or counts.get(leader, 0) < most:
        return leader, None
    position = order.index(leader)
    for candidate in order[position + 1:]:
        if candidate not in top or counts.get(candidate, 0) < most:
            return candidate, f"{limit.ref}: a further {leader} becomes {candidate}"
    return None, f"{limit.ref}: a further {leader} is not received (no leader left below it)"


def _prior_initial_leaders(system: System, ledger: SideLedger | None, line: PurchaseLine, column: str) -> dict[str, int]:
    """PL 2.362: the leaders of this column the side already drew for the Initial Firefight."""
    counts: dict[str, int] = {}
    if ledger is None:
        return counts
    initial_ids = {e.id for e in system.calendar if e.initial}
    for other in ledger.purchases:
        if other.line == line.line or other.date_id not in initial_ids or other.leader_column != column:
            continue
        for leader in other.leaders:
            counts[leader] = counts.get(leader, 0) + 1
    return counts


def _oba_table(system: System, side: SideId, row: RgRow) -> DiceTable | None:
    """The OBA ammunition table for an RG of one of the step's ``rg_types`` (PL 2.35, PHD C5.34)."""
    return _OBA_TABLES(system, (side, row.type))


def _find_oba_table(system: System, key: tuple[SideId, str]) -> DiceTable | None:
    side, rg_type = key
    for step in system.steps:
        params = step.params
        if str(params.get("per", "")).casefold() != "oba module" or rg_type not in type_list(params.get("rg_types")):
            continue
        by_side = params.get("table_by_side")
        if isinstance(by_side, Mapping) and side in by_side:
            return system.table(str(by_side[side]))
        if isinstance(params.get("table"), str):
            return system.table(str(params["table"]))
    return None


_OBA_TABLES = SystemMemo(_find_oba_table).lookup


def roll_for_purchase(
    system: System,
    line: PurchaseLine,
    side: SideId,
    dice: Dice,
    *,
    ledger: SideLedger | None = None,
    facts: Mapping[str, Fact] | None = None,
    answers: Answers | None = None,
) -> tuple[PurchaseLine, tuple[Event, ...]]:
    """Make the secret rolls an RG line needs (strength, SW, leaders, OBA ammunition); the line gets the results.
    ``answers``: the owner's answers to the ``ask:`` DRM of those tables (table id → modifier index → answer)."""
    chart = system.rg_chart(side)
    row = chart.row(line.rg_id)
    events: list[Event] = []
    try:
        line = _strength(system, chart, row, line, side, dice, facts, events, answers)
        line = _support_weapons(system, row, line, side, dice, events)
        line = _leaders(system, chart, row, line, side, dice, ledger, facts, events, answers)
        line = _oba(system, row, line, side, dice, ledger, facts, events, answers)
    except _Lost as error:
        made = roll_event(error.roll, Visibility.CG_END, side, rg_id=line.rg_id, line=line.line, result=None,
                          error=str(error))
        raise RollMissingValueError(str(error), line, (*events, made)) from error
    except MissingValueError as error:
        raise RollMissingValueError(str(error), line, tuple(events)) from error
    return line.evolve(rolled=True), tuple(events)


def _facts(system: System, side: SideId, line: PurchaseLine, facts: Mapping[str, Fact] | None) -> dict[str, Fact]:
    """The facts a purchase roll's DRM read: the side's, whether the RG is Depleted, the caller's."""
    out: dict[str, Fact] = dict(side_facts(system, side))
    out["depleted"] = line.strength == "D"
    out.setdefault("headquarters", False)
    out.update(facts or {})
    return out


def _strength(
    system: System, chart: RgChart, row: RgRow, line: PurchaseLine, side: SideId, dice: Dice,
    facts: Mapping[str, Fact] | None, events: list[Event], answers: Answers | None = None,
) -> PurchaseLine:
    """RR 2.5191: the strength dr of a depletable RG (Full or Depleted)."""
    depletable = any(chart.notes[n].depletable for n in row.notes if n in chart.notes)
    if not depletable:
        return line
    sides = depletion_sides(system)
    if sides is not None and side not in sides:
        return line.evolve(strength="F", units=_units(row.full))
    table = _param_table(system, "strength_table", f"RG {row.id} is subject to depletion")
    roll, result = _roll_on(dice, table, side, f"{table.ref} RG Strength {table.dice} — RG {row.id}",
                            facts=_facts(system, side, line, facts), settings=int_settings(system, side), answers=answers)
    depleted = _result_is(system, "depleted_result", result.cell.text)
    strength = "D" if depleted else "F"
    units = _units(row.depleted) if depleted and row.depleted else _units(row.full)
    events.append(_event(roll, side, line, result, table, strength=strength))
    return line.evolve(strength=strength, units=units)


def _units(units: Sequence[UnitCount]) -> tuple[tuple[int, str], ...]:
    """The units of a strength line as (count, unit), lost counts left out."""
    return tuple((int(unit.count.number), str(unit.unit)) for unit in units if not unit.count.missing)


def _support_weapons(
    system: System, row: RgRow, line: PurchaseLine, side: SideId, dice: Dice, events: list[Event]
) -> PurchaseLine:
    """RR 2.5192: the SW dr of each SW the RG row lists."""
    if not row.sw:
        return line
    if line.strength != "D":
        return line.evolve(sw=dict(row.sw))
    table = _param_table(system, "sw_table", f"the Depleted RG {row.id} must roll for each SW")
    at_least = _param(system, "sw_at_least_by_type")
    wanted = at_least.get(row.type, 0) if isinstance(at_least, Mapping) else 0
    least = min(int(wanted), sum(row.sw.values()))
    for attempt in range(1, MAX_SW_ROUNDS + 1):
        received: dict[str, int] = {}
        for weapon, count in row.sw.items():
            for number in range(1, count + 1):
                purpose = f"{table.ref} SW allotment {table.dice} — RG {row.id} {weapon} #{number}"
                if attempt > 1:
                    purpose += f" (re-roll {attempt}: at least {least} SW with a {row.type} RG)"
                roll, result = _roll_on(dice, table, side, purpose)
                got = _result_is(system, "sw_received_result", result.cell.text)
                events.append(_event(roll, side, line, result, table, weapon=weapon, received=got, round=attempt))
                if got:
                    received[weapon] = received.get(weapon, 0) + 1
        if sum(received.values()) >= least:
            units = line.units
            if not row.depleted and all(u.unit in row.sw for u in row.full):
                units = tuple((n, w) for w, n in received.items() if n)
            return line.evolve(sw=received, units=units)
    raise RulesError(f"RG {row.id}: no SW allotment after {MAX_SW_ROUNDS} rounds")


def _leaders(
    system: System, chart: RgChart, row: RgRow, line: PurchaseLine, side: SideId, dice: Dice,
    ledger: SideLedger | None, facts: Mapping[str, Fact] | None, events: list[Event], answers: Answers | None = None,
) -> PurchaseLine:
    """RR 2.5193, PL 2.361: the leader DRs of an RG whose note names a leader table."""
    notes = [chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].leader_table]
    if not notes:
        return line
    entry = next((e for e in system.calendar if e.id == line.date_id), None)
    leaders: list[str] = list(line.leaders)
    column_used: str | None = line.leader_column
    for note in notes:
        assert note.leader_table is not None
        table = _table(system, note.leader_table, f"RG {row.id} generates leaders")
        column = leader_column(system, side, row, note, table)
        column_used = column
        counts = _prior_initial_leaders(system, ledger, line, column) if entry is not None and entry.initial else {}
        for number in range(1, _company_drs(system, row, table) + 1):
            purpose = f"{table.ref} {table.name} {table.dice} — RG {row.id}"
            if number > 1:
                purpose += f" #{number}"
            roll, result = _roll_on(dice, table, side, purpose, column=column,
                                    facts=_facts(system, side, line, facts), settings=int_settings(system, side),
                                    answers=answers)
            got: list[str] = []
            adjustments: list[str] = []
            for leader in _leader_texts(result.cell.value):
                final: str | None = leader
                if entry is not None and entry.initial:
                    final, why = _initial_limit(system, table, column, leader, counts)
                    if why:
                        adjustments.append(why)
                if final is not None:
                    got.append(final)
                    counts[final] = counts.get(final, 0) + 1
            leaders.extend(got)
            events.append(_event(roll, side, line, result, table, leaders=list(got), adjustments=list(adjustments)))
    return line.evolve(leaders=tuple(leaders), leader_column=column_used)


def _oba(
    system: System, row: RgRow, line: PurchaseLine, side: SideId, dice: Dice,
    ledger: SideLedger | None, facts: Mapping[str, Fact] | None, events: list[Event], answers: Answers | None = None,
) -> PurchaseLine:
    """PL 2.35, PHD C5.34: the OBA ammunition roll of an OBA RG."""
    table = _oba_table(system, side, row)
    if table is None:
        return line
    given: dict[str, Fact] = _facts(system, side, line, facts)
    if "attack_option_purchased_now" not in (facts or {}):
        given["attack_option_purchased_now"] = ledger is not None and ledger.items_on(line.date_id, "attack-option") > 0
    roll, result = _roll_on(dice, table, side, f"{table.ref} {table.name} {table.dice} — RG {row.id}",
                            facts=given, settings=int_settings(system, side), answers=answers)
    events.append(_event(roll, side, line, result, table))
    return line.evolve(oba_ammo=result.cell.text)


def line_questions(system: System, line: PurchaseLine, side: SideId) -> tuple[tuple[DiceTable, str | None, int], ...]:
    """The ``ask:`` DRM the secret rolls of an RG line will need (PHD C5.33 "-1 Pionerie/Engineer Pl", C5.34 "+1 If
    module placed a FFE counter in prior TM Scenario"): (table, column, modifier index), in the order rolled."""
    chart = system.rg_chart(side)
    row = chart.row(line.rg_id)
    found: list[tuple[DiceTable, str | None, int]] = []
    if any(chart.notes[n].depletable for n in row.notes if n in chart.notes):
        sides = depletion_sides(system)
        if sides is None or side in sides:
            table = _param_table(system, "strength_table", f"RG {row.id} is subject to depletion")
            found.extend((table, None, i) for i, _ in questions(table))
    for note in (chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].leader_table):
        assert note.leader_table is not None
        table = _table(system, note.leader_table, f"RG {row.id} generates leaders")
        column = leader_column(system, side, row, note, table)
        found.extend((table, column, i) for i, _ in questions(table, column))
    oba = _oba_table(system, side, row)
    if oba is not None:
        found.extend((oba, None, i) for i, _ in questions(oba))
    return tuple(found)
