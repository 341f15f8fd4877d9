"""What a CG system or a system with a CG Card contains: values lost, to verify and supplied, the parts a campaign
needs before it can start, and a card's report against its base system."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from campaigns_app import engine
from campaigns_app.models import CgCard, CgSystem
from rules_engine.errors import UnknownNameError
from rules_engine.model import VERIFY_NOTE, Cell, DiceTable, System
from rules_engine.purchases import purchase_currency
from rules_engine.replenishment import ACTIONS as REPLENISH_ACTIONS
from rules_engine.replenishment import replenishment_currency

# Parts a system must have before a campaign can start; without them it needs a CG Card.
START_PARTS: tuple[tuple[str, str], ...] = (("calendar", "calendar"),)

# --------------------------------------------------------------------------------------------- what a system contains


@dataclass(frozen=True)
class Value:
    """One value of interest: where it is, as shown, and what to say about it."""

    where: str
    text: str
    note: str


def _human(name: str) -> str:
    return name.replace("_", " ")


# A system file's part as a player names it (the rules page's "Still missing" and a card's report).
PART_WORDS = {"calendar": "CG calendar", "currencies": "Points", "forms": "Record forms", "initial_ob": "Initial OB",
              "rg_charts": "RG charts", "settings": "Players' choices", "setup_costs": "Setup costs",
              "special_rules": "CG Special Rules", "victory_conditions": "CG Victory Conditions",
              "map_groups_in_play": "Map Groups in play", "between_phase": "Between-scenario phase"}


def part_words(part: str) -> str:
    """``rg_charts`` → "RG charts": a part's name for players, never the file's key."""
    return PART_WORDS.get(part, _human(part).capitalize())


def _part_ref(part_id: str | None) -> str:
    """A missing part's rule number ("2.502"), shown; an internal id ("cg-ssr") is not: the note names the part."""
    return part_id if part_id and part_id[0].isdigit() else ""


def _label(item: object) -> str | None:
    """How an item in a list is named in a path (its id, side, type …)."""
    if isinstance(item, CgCard):
        return None
    for attr in ("group_type",):
        value = getattr(item, attr, None)
        if value and getattr(item, "id", None):
            return f"{item.id} ({value})"  # type: ignore[attr-defined]
    for attr in ("name", "id", "type", "mode", "side", "reason", "ref", "label"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    return None


def _table_values(table: DiceTable) -> Iterator[tuple[str, str, Cell | None, str]]:
    """(kind, where, cell, note) for a dice table's missing and verify values; kind is "missing" or "verify"."""
    head = f"{table.ref} {table.name} [{table.id}]"
    for row in table.rows:
        row_name = f"row {row.display_label}" if row.label else f"row {row.range_text}"
        if row.missing is not None:
            yield "missing", f"{head}, {row_name} (every column)", None, row.missing
            continue
        if row.label_missing is not None:
            yield "missing", f"{head}, label of row {row.range_text}", None, row.label_missing
        if row.verify:
            yield "verify", f"{head}, range of {row_name}", None, row.note or "row range read by interpretation"
        for column, cell in zip(table.columns, row.cells):
            where = f"{head}, {row_name}" + (f", column {column.label}" if len(table.columns) > 1 else "")
            if cell.missing:
                yield "missing", where, cell, cell.note or "lost in the rule text"
            elif cell.verify:
                yield "verify", where, cell, cell.caution or VERIFY_NOTE


def _walk(obj: object, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], object]]:
    """Every Cell and every dataclass with a ``verify`` flag in a system part, with a readable path."""
    if isinstance(obj, Cell):
        yield path, obj
        return
    if is_dataclass(obj) and not isinstance(obj, type):
        if getattr(obj, "verify", False) is True:
            yield path, obj
        for f in fields(obj):
            if f.name in ("document", "verify"):
                continue
            yield from _walk(getattr(obj, f.name), (*path, _human(f.name)))
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            name = "/".join(str(k) for k in key) if isinstance(key, tuple) else str(key)
            yield from _walk(value, (*path, name))
    elif isinstance(obj, (tuple, list)):
        for index, value in enumerate(obj, start=1):
            yield from _walk(value, (*path, _label(value) or f"#{index}"))


def system_values(system: System) -> tuple[list[Value], list[Value], list[Value]]:
    """(missing values, values to verify against the printed chart, values supplied by a card) of a system."""
    missing: list[Value] = []
    verify: list[Value] = []
    supplied: list[Value] = []
    for table in system.tables.values():
        for kind, where, cell, note in _table_values(table):
            (missing if kind == "missing" else verify).append(
                Value(where, "" if cell is None else cell.text, note if kind == "missing" else _verify_note(cell, note))
            )
        for row in table.rows:
            for column, cell in zip(table.columns, row.cells):
                if cell.supplied:
                    where = f"{table.ref} {table.name} [{table.id}], row {row.display_label}" + (
                        f", column {column.label}" if len(table.columns) > 1 else ""
                    )
                    supplied.append(Value(where, cell.text, cell.note or ""))
    for part in ("calendar", "rg_charts", "setup_costs", "fortifications", "initiative", "limits", "currencies"):
        for path, item in _walk(getattr(system, part, None), (_human(part),)):
            where = " › ".join(path)
            if isinstance(item, Cell):
                if item.missing:
                    missing.append(Value(where, "", item.note or "lost in the rule text"))
                elif item.verify:
                    verify.append(Value(where, item.text, _verify_note(item, item.caution or VERIFY_NOTE)))
            else:
                verify.append(Value(where, str(getattr(item, "label", "") or ""), getattr(item, "note", None) or VERIFY_NOTE))
    return missing, verify, supplied


def _verify_note(cell: Cell | None, note: str) -> str:
    if cell is not None and cell.as_written and cell.as_written not in note:
        note = f"printed {cell.as_written!r}; {note}"
    return note if VERIFY_NOTE in note else f"{note}; {VERIFY_NOTE}"


PURCHASE_ACTIONS = ("purchase-rg", "purchase")
INITIATIVE_ACTIONS = ("initiative", "resolve-initiative", "reveal-attack-options")


def _points_blocker(system: System) -> str | None:
    """None when the purchase currency (as the purchase code resolves it: the purchase step's ``currency``, else the
    system's first currency) is replenished by a step (its ``currency``, else the first one, as replenishment does) or
    given as starting points by the Initial OB."""
    try:
        currency = purchase_currency(system)
    except UnknownNameError:
        return "no points to buy with: the purchase step names no currency and the system has none"
    replenished = any(
        (replenishment_currency(system, step) if step.action in REPLENISH_ACTIONS else step.params.get("currency"))
        == currency
        for step in system.steps if step.action in (*REPLENISH_ACTIONS, "secret-roll")
    )
    starting = system.initial_ob is not None and any(ob.points.get(currency) for ob in system.initial_ob.sides.values())
    if replenished or starting:
        return None
    return (f"no {currency} to buy with: no step replenishes {currency} and the Initial Scenario OB gives no starting "
            f"{currency}")


def start_blockers(system: System) -> list[str]:
    """Why a campaign cannot start with this system (+ card) as it is — no calendar, no RG purchase step with an RG chart
    for each side, no points to buy with, no Initiative — each named; empty when nothing is known to block it."""
    out = []
    for attr, name in START_PARTS:
        if not getattr(system, attr, None):
            note = next((m.note for m in system.missing_parts if m.part == attr), "")
            out.append(f"it has no {name}" + (f": {note.rstrip('.')}" if note else ""))
    purchase = next((step for step in system.steps if step.action in PURCHASE_ACTIONS), None)
    if purchase is None:
        out.append("it has no RG purchase step (the Refit Phase steps are not in the rule text: a CG Card gives them)")
    else:
        charted = {chart.side for chart in system.rg_charts}
        lacking = [side.name for side in system.sides if side.id not in charted]
        if lacking:
            out.append(f"the {purchase.ref} purchase step has no RG chart for {' and '.join(lacking)}")
        blocker = _points_blocker(system)
        if blocker:
            out.append(blocker)
    initiative_steps = [step for step in system.steps if step.action in INITIATIVE_ACTIONS]
    if not initiative_steps:
        out.append("it has no Initiative step (Attack/Idle chits or the Attack Option): a CG Card gives the steps")
    elif system.initiative is None:
        out.append(f"the {initiative_steps[0].ref} Initiative step has no initiative matrix (a CG Card gives it)")
    return out


def _missing_parts(system: System) -> list[dict[str, str]]:
    return [{"part": part_words(m.part), "id": _part_ref(m.id), "note": m.note} for m in system.missing_parts]


def _settings_rows(system: System) -> list[dict[str, str]]:
    rows = []
    names = {side.id: side.name for side in system.sides}
    for setting in system.settings:
        if setting.id not in system.settings_values:
            continue
        raw = system.settings_values[setting.id]
        if isinstance(raw, Mapping):
            text = "; ".join(f"{names.get(k, k)}: {_setting_text(v)}" for k, v in raw.items())
        else:
            text = _setting_text(raw)
        ref = setting.ref if setting.ref and setting.ref not in setting.label else ""
        rows.append({"id": setting.id, "label": setting.label, "ref": ref, "value": text, "overridden": ""})
    return rows


def _setting_text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def card_report(cg_system: CgSystem, system: System) -> dict[str, Any]:
    """What a card-applied system holds compared with its base: parts filled and replaced, values supplied, what is left."""

    base = engine.system_of(cg_system)
    remaining = {(m.part, m.id) for m in system.missing_parts}
    filled = [
        {"part": part_words(m.part), "id": _part_ref(m.id), "note": m.note}
        for m in base.missing_parts
        if (m.part, m.id) not in remaining
    ]
    doc = system.document
    replaced = [  # keys in words ("rg charts"): the report's template looks for "calendar" among them
        _human(part)
        for part in ("calendar", "rg_charts", "steps", "idle", "currencies", "setup_costs", "fortifications", "initiative",
                     "limits", "forms", "settings", "special_rules", "map_groups_in_play", "time_unit", "between_phase")
        if doc.get(part) != base.document.get(part)
    ]
    base_tables = set(base.tables)
    tables_added = [t for t in system.tables.values() if t.id not in base_tables]
    tables_replaced = [
        t for t in system.tables.values()
        if t.id in base_tables and (base.document.get("tables") != doc.get("tables"))
        and _table_doc(doc, t.id) != _table_doc(base.document, t.id)
    ]
    missing, verify, supplied = system_values(system)
    return {
        "filled": filled,
        "replaced": replaced,
        "tables_added": [{"id": t.id, "ref": t.ref, "name": t.name} for t in tables_added],
        "tables_replaced": [{"id": t.id, "ref": t.ref, "name": t.name} for t in tables_replaced],
        "settings": _settings_rows(system),
        "calendar": [
            {"id": e.id, "name": e.name or "", "date": e.date or "", "time": e.time or "", "night": e.night,
             "initial": e.initial, "weather": e.weather.text if e.weather else "",
             "map_groups": ", ".join(g.label for g in system.map_groups_on(e.index))}
            for e in system.calendar
        ],
        "map_groups": bool(system.map_groups),
        "supplied": supplied,
        "missing_parts": _missing_parts(system),
        "missing_values": missing,
        "verify_values": verify,
        "blockers": start_blockers(system),
    }


def _table_doc(doc: Mapping[str, object], table_id: str) -> object:
    tables = doc.get("tables")
    for table in tables if isinstance(tables, list) else []:
        if isinstance(table, dict) and table.get("id") == table_id:
            return table
    return None


def card_system(card: CgCard) -> System:
    """The base system with this card applied (cached by the two sha256s)."""
    return engine.system_with_card(card.system, card.text, card.sha256, f"{card.card_id}.yaml")


def card_detail(card: CgCard) -> dict[str, Any]:
    """Everything the card page shows about the card (it validated when it was saved; a later engine may disagree)."""
    try:
        system = card_system(card)
    except ValueError as error:
        return {"error": str(error)}
    return card_report(card.system, system)


def system_report(system: System) -> dict[str, Any]:
    """What a system (without a card) still lacks and what to verify."""
    missing, verify, supplied = system_values(system)
    return {"missing_parts": _missing_parts(system), "missing_values": missing, "verify_values": verify,
            "supplied": supplied, "blockers": start_blockers(system)}
