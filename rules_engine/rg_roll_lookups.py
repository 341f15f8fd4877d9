"""What the secret RG purchase rolls read from a System's steps and special rules (RR 2.519, PL 2.36, KGP), found once
per System: a System is frozen, so the same question always has the same answer (``system_memo``)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.errors import MissingValueError
from rules_engine.model import DiceTable, System
from rules_engine.purchases import side_setting
from rules_engine.system_memo import SystemMemo
from rules_engine.vocabulary import SideId


def type_list(value: object) -> tuple[str, ...]:
    """A step parameter as a tuple of RG types (empty unless it is a list)."""
    return tuple(str(v) for v in value) if isinstance(value, Sequence) and not isinstance(value, str) else ()


def depletion_sides(system: System) -> tuple[SideId, ...] | None:
    """Sides whose RG may be Depleted, where a special rule says so (KGP: U.S. RG always Full Strength)."""
    return _DEPLETION_SIDES(system, None)


def _find_depletion_sides(system: System, _: None) -> tuple[SideId, ...] | None:
    for rule in system.special_rules:
        sides = rule.params.get("depletion_sides")
        if isinstance(sides, Sequence) and not isinstance(sides, str):
            return tuple(str(s) for s in sides)
    return None


_DEPLETION_SIDES = SystemMemo(_find_depletion_sides).lookup


def step_leader_column(system: System, side: SideId, rg_type: str, table: DiceTable) -> str:
    """The leader-table column the step rolling on ``table`` gives (PL 2.36: its armor column for the armor RG types,
    else its column by nationality), else the table's first column."""
    if system.tables.get(table.id) is not table:  # a table from elsewhere: not remembered under its id
        return _step_leader_column(system, side, rg_type, table)
    return _STEP_COLUMNS(system, (side, rg_type, table.id))


def _step_leader_column(system: System, side: SideId, rg_type: str, table: DiceTable) -> str:
    for step in system.steps:
        params = step.params
        if params.get("table") != table.id:
            continue
        armor = params.get("armor_column")
        if isinstance(armor, str) and rg_type in type_list(params.get("armor_types")):
            return table.column(armor).id
        by_nat = params.get("column_by_nationality")
        if isinstance(by_nat, Mapping):
            nationality = side_setting(system, "nationality", side)
            wanted = by_nat.get(str(nationality).casefold()) if nationality is not None else None
            return table.column(str(wanted if wanted is not None else by_nat.get("default"))).id
    return table.columns[0].id


def _find_step_column(system: System, key: tuple[SideId, str, str]) -> str:
    side, rg_type, table_id = key
    return _step_leader_column(system, side, rg_type, system.tables[table_id])


_STEP_COLUMNS = SystemMemo(_find_step_column).lookup


def company_drs(system: System, rg_id: str, table_id: str) -> int:
    """PL 2.36: how many leader DRs a company RG makes on a table (the CG Card's setting the step names; 1 without
    one); MissingValueError when the CG Card must give it and does not (asked again each time, never remembered)."""
    return _COMPANY_DRS(system, (rg_id, table_id))


def _find_company_drs(system: System, key: tuple[str, str]) -> int:
    rg_id, table_id = key
    for step in system.steps:
        setting = step.params.get("company_drs_setting")
        if step.params.get("table") == table_id and isinstance(setting, str):
            value = side_setting(system, setting, "")
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
            label = next((s.label for s in system.settings if s.id == setting), "the number of leader DR for a company")
            raise MissingValueError(
                f"RG {rg_id} is a company; the number of leader DR for a company is on the CG Card "
                f"({step.ref}): the CG Card must give it: {label}"
            )
    return 1


_COMPANY_DRS = SystemMemo(_find_company_drs).lookup
