"""Values lost in the rule text a campaign needs (issue 9 item 2): create-page fields, and the values a campaign plays
by as shown on the invitation/join page, Rules in use and the history. Printed rule values, not secrets: both players
see them. Reads only (services write)."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign
from rules_engine.lost_values import LABEL, split_key

LOST_FIELD_PREFIX = "lost:"  # a create-page field is named "lost:" + the value's key ("company-leader|11|leaders")
MAX_FIELDS = 200  # the most lost-value fields a create POST is read for (a system has far fewer)


def field_name(key: str) -> str:
    """The create-page field name of a lost value: ``lost:<table>|<row index>|<column id or @label>``."""
    return f"{LOST_FIELD_PREFIX}{key}"


def field_id(key: str) -> str:
    """An HTML id for the field: ``lost-company-leader-11-leaders``."""
    return "lost-" + re.sub(r"[^A-Za-z0-9_-]+", "-", key).strip("-")


def _value_text(value: Any) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)


def lost_value_fields(system: System | None, submitted: Mapping[str, Any] | None = None,
                      problems: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """One create-page field per value the CG Card leaves lost: label (rule number, chart, row, column), what a value
    looks like (the column's printed values), what was typed, and its problem."""
    rows = []
    for value in engine.needed_values(system) if system is not None else ():
        rows.append({
            "key": value.key, "name": field_name(value.key), "id": field_id(value.key),
            "ref": value.table_ref, "chart": value.table_name, "row": value.row, "dice": value.dice,
            "column": "row label" if value.column is None else (value.column_label or value.column),
            "label": value.label, "shape": value.shape,
            "hint": {"number": "a number, e.g. 12", "leaders": "leaders separated by commas, e.g. 8-0, 7-0",
                     "label": "the row's label as printed", "text": "the result as printed"}.get(value.shape, ""),
            "examples": " · ".join(value.examples),
            "value": str((submitted or {}).get(value.key, ""))[:200],
            "problem": (problems or {}).get(value.key, ""),
        })
    return rows


def lost_values_from_post(data: Mapping[str, Any]) -> dict[str, str]:
    """The typed lost values of a create-page POST, {key: text} (the service checks them against the system)."""
    out: dict[str, str] = {}
    for name in list(data.keys())[: MAX_FIELDS * 4]:
        if str(name).startswith(LOST_FIELD_PREFIX) and len(out) < MAX_FIELDS:
            raw = data.get(name)
            if isinstance(raw, str) and raw.strip():
                out[str(name)[len(LOST_FIELD_PREFIX):][:200]] = raw[:400]
    return out


def value_rows(system: System, values: Mapping[str, Any], source: str) -> list[dict[str, str]]:
    """Settled lost values as shown: rule number and chart, row, column, the value as printed, where it comes from."""
    rows = []
    for key, value in values.items():
        try:
            table_id, index, column = split_key(str(key))
            table = system.tables[table_id]
            row = table.rows[index]
        except (ValueError, KeyError, IndexError):
            continue
        col = next((c for c in table.columns if c.id == column), None)
        rows.append({
            "key": str(key), "id": field_id(str(key)), "ref": table.ref, "chart": table.name,
            "row": f"final {table.dice} {row.range_text}",
            "column": "row label" if column == LABEL else (col.label if col else column),
            "value": _value_text(value), "source": source,
        })
    return rows


def campaign_lost_values(campaign: Campaign) -> list[dict[str, str]]:
    """The values lost in the rule text the campaign plays by: those typed at creation, then those its CG Card
    supplies (both players see them: they are printed rule values)."""
    system = engine.system_for(campaign)
    typed = dict(campaign.supplied_values or {})
    rows = value_rows(system, typed, "typed by the players at creation")
    card = engine.card_system_for(campaign)
    from_card: dict[str, Any] = {}
    for table in card.tables.values():
        for index, row in enumerate(table.rows):
            for k, cell in enumerate(row.cells):
                if getattr(cell, "supplied", False) and k < len(table.columns):
                    from_card[f"{table.id}|{index}|{table.columns[k].id}"] = cell.value
    rows += value_rows(card, {k: v for k, v in from_card.items() if k not in typed}, "the CG Card")
    order = {value.key: n for n, value in enumerate(engine.needed_values(engine.card_system_for(campaign)))}
    return sorted(rows, key=lambda row: (order.get(row["key"], len(order)), row["ref"], row["key"]))
