"""The CG Card form's data (flat names, see ``card_schema``) to the `refit-cg/1` document and back (docs/cg-format.md).

``form_to_document`` never validates values: the loader does (``parse_card``); it only says where each part of the
document came from so that a loader path (``calendar[D1 AM].weather``) is shown beside its field (``field_for_path``).
A part equal to the base system's own (the calendar RR prints, PHD's C4.2 OB) is left out of the card.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import yaml

from rules_engine.card_parts import offers, offers_idle, owned_parts
from rules_engine.card_parts_fill import (
    currencies_form,
    fortifications_form,
    idle_form,
    initiative_form,
    setup_costs_form,
    steps_form,
)
from rules_engine.card_schema import (
    ROW_MARK,
    base_number_columns,
    offers_new_tables,
    offers_rg_charts,
    replaced_tables,
    rows_of,
)
from rules_engine.card_values import flow, list_text, value_text
from rules_engine.model import System

Doc = dict[str, object]
Path = tuple[str | int, ...]
HEADER = ("format", "kind", "id", "extends", "name", "source", "example")
CAL_KEYS = ("id", "name", "date", "night", "initial", "weather", "ec")
RG_ROW_KEYS = ("id", "type", "group_type", "cost", "date_max", "cg_max", "notes", "description")
TABLE_KEYS = ("id", "ref", "name", "dice", "per", "secret")
UNIT_KEYS = ("full", "depleted")
MAX_ROWS = 400


@dataclass
class Built:
    """A document made from form data, where each of its parts came from, and the problems the form itself found."""

    doc: Doc
    origin: dict[Path, str] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)


# --------------------------------------------------------------------------------------------- document → form


def _items(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _put(out: dict[str, str], name: str, value: object) -> None:
    text = value_text(value)
    if text:
        out[name] = text


def _rest(item: Mapping[str, object], known: tuple[str, ...]) -> str:
    rest = {k: v for k, v in item.items() if k not in known}
    return flow(rest) if rest else ""


def _part(system: System, doc: Mapping[str, object], key: str) -> object:
    return doc[key] if key in doc else system.document.get(key)


def _calendar_form(system: System, rows: object, out: dict[str, str]) -> None:
    sides = [s.id for s in system.sides]
    with_base = base_number_columns(system)
    for n, item in enumerate(rows if isinstance(rows, list) else []):
        p = f"calendar.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        if not isinstance(item, dict):
            out[f"{p}.extra"] = flow(item)
            continue
        known = list(CAL_KEYS)
        for key in CAL_KEYS:
            if key in ("night", "initial"):
                if item.get(key) is True:
                    out[f"{p}.{key}"] = "true"
            elif key in item:
                _put(out, f"{p}.{key}", item[key])
        groups = item.get("map_groups")
        if system.map_groups and isinstance(groups, list):
            out[f"{p}.map_groups"] = list_text(groups)
            known.append("map_groups")
        base = item.get("base_numbers")
        if with_base and isinstance(base, dict) and set(map(str, base)) <= set(sides):
            for side, amount in base.items():
                _put(out, f"{p}.base_numbers.{side}", amount)
            known.append("base_numbers")
        extra = {k: v for k, v in item.items() if k not in known or (k in ("night", "initial") and v is not True
                                                                      and v is not False)}
        if extra:
            out[f"{p}.extra"] = flow(extra)


def _ob_form(system: System, ob: object, out: dict[str, str]) -> None:
    if not isinstance(ob, dict):
        return
    _put(out, "initial_ob.ref", ob.get("ref"))
    sides = ob.get("sides")
    for side, raw in (sides.items() if isinstance(sides, dict) else []):
        p = f"initial_ob.sides.{side}"
        if not isinstance(raw, dict):
            continue
        points = raw.get("points")
        for code, amount in (points.items() if isinstance(points, dict) else []):
            _put(out, f"{p}.points.{code}", amount)
        for key in ("elr", "san", "text"):
            _put(out, f"{p}.{key}", raw.get(key))
        for n, group in enumerate(_items(raw.get("rg"))):
            out[f"{p}.rg.{n}.{ROW_MARK}"] = "1"
            for key in ("id", "group_type", "count"):
                _put(out, f"{p}.rg.{n}.{key}", group.get(key) if isinstance(group, dict) else None)


def _rg_form(charts: object, out: dict[str, str]) -> None:
    for n, chart in enumerate(charts if isinstance(charts, list) else []):
        p = f"rg_charts.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        if not isinstance(chart, dict):
            continue
        for key in ("side", "ref", "name"):
            _put(out, f"{p}.{key}", chart.get(key))
        columns = chart.get("columns")
        for key, label in (columns.items() if isinstance(columns, dict) else []):
            _put(out, f"{p}.columns.{key}", label)
        known_chart: tuple[str, ...] = ("side", "ref", "name", "columns", "rows")
        notes = chart.get("notes")
        if isinstance(notes, dict) and all(isinstance(note, dict) for note in notes.values()):
            known_chart += ("notes",)
            for k, (letter, note) in enumerate(notes.items()):
                _rg_note_form(f"{p}.notes.{k}", str(letter), note, out)
        extra = _rest(chart, known_chart)
        if extra:
            out[f"{p}.extra"] = extra
        for r, row in enumerate(_items(chart.get("rows"))):
            rp = f"{p}.rows.{r}"
            out[f"{rp}.{ROW_MARK}"] = "1"
            if not isinstance(row, dict):
                continue
            known = list(RG_ROW_KEYS)
            for key in RG_ROW_KEYS:
                if key == "notes" and isinstance(row.get(key), list):
                    out[f"{rp}.notes"] = list_text(row["notes"])
                elif key in row:
                    _put(out, f"{rp}.{key}", row[key])
            for key in UNIT_KEYS:
                units = row.get(key)
                if isinstance(units, list) and all(isinstance(u, dict) and set(u) == {"count", "unit"} for u in units):
                    known.append(key)
                    for k, unit in enumerate(units):
                        out[f"{rp}.{key}.{k}.{ROW_MARK}"] = "1"
                        _put(out, f"{rp}.{key}.{k}.count", unit["count"])
                        _put(out, f"{rp}.{key}.{k}.unit", unit["unit"])
            gives = row.get("gives")
            if isinstance(gives, dict) and all(isinstance(k, str) and "." not in k for k in gives):
                known.append("gives")
                for code, amount in gives.items():
                    _put(out, f"{rp}.gives.{code}", amount)
            extra = _rest(row, tuple(known))
            if extra:
                out[f"{rp}.extra"] = extra


def _rg_note_form(p: str, letter: str, note: Mapping[str, object], out: dict[str, str]) -> None:
    """One RG chart note as ``<p>.<letter|text|leader_table|columns_by_type|extra>`` (the rest in its YAML box)."""
    out[f"{p}.{ROW_MARK}"] = "1"
    out[f"{p}.letter"] = letter
    known = ["text", "leader_table"]
    for key in known:
        if isinstance(note.get(key), str):
            out[f"{p}.{key}"] = str(note[key])
    known = [key for key in known if isinstance(note.get(key), str)]
    params = note.get("params")
    by_type = params.get("columns_by_type") if isinstance(params, dict) and set(params) == {"columns_by_type"} else None
    if isinstance(by_type, dict) and by_type and all(isinstance(v, str) and "," not in v and ":" not in v
                                                     for v in by_type.values()):
        out[f"{p}.columns_by_type"] = ", ".join(f"{t}: {c}" for t, c in by_type.items())
        known.append("params")
    extra = _rest(note, tuple(known))
    if extra:
        out[f"{p}.extra"] = extra


def _table_form(n: int, table: Mapping[str, object], out: dict[str, str]) -> None:
    p = f"tables.{n}"
    out[f"{p}.{ROW_MARK}"] = "1"
    for key in TABLE_KEYS:
        if key == "secret":
            if table.get("secret") is True:
                out[f"{p}.secret"] = "true"
        elif key in table:
            _put(out, f"{p}.{key}", table[key])
    columns = table.get("columns")
    cols = [c for c in columns if isinstance(c, dict)] if isinstance(columns, list) else []
    out[f"{p}.columns"] = "; ".join(f"{c.get('id')}: {c.get('label')}" for c in cols)
    extra = _rest(table, (*TABLE_KEYS, "columns", "rows"))
    if extra:
        out[f"{p}.extra"] = extra
    for r, row in enumerate(_items(table.get("rows"))):
        rp = f"{p}.rows.{r}"
        out[f"{rp}.{ROW_MARK}"] = "1"
        if not isinstance(row, dict):
            continue
        for key in ("label", "min", "max"):
            _put(out, f"{rp}.{key}", row.get(key))
        cells = row.get("cells")
        for k, cell in enumerate(cells if isinstance(cells, list) else []):
            _put(out, f"{rp}.cells.{k}", cell)
        extra = _rest(row, ("label", "min", "max", "cells"))
        if extra:
            out[f"{rp}.extra"] = extra


def _victory_form(vc: object, out: dict[str, str]) -> None:
    if not isinstance(vc, dict):
        return
    for key in ("ref", "text", "otherwise"):
        _put(out, f"victory_conditions.{key}", vc.get(key))
    for n, cond in enumerate(_items(vc.get("conditions"))):
        out[f"victory_conditions.conditions.{n}.{ROW_MARK}"] = "1"
        for key in ("side", "measure", "op", "value"):
            _put(out, f"victory_conditions.conditions.{n}.{key}", cond.get(key) if isinstance(cond, dict) else None)


def _supply_form(system: System, entries: object, out: dict[str, str]) -> list[object]:
    """Fill the lost-value fields; return the entries that name no lost value (kept for the loader to judge)."""
    left: list[object] = []
    for entry in entries if isinstance(entries, list) else []:
        table = system.tables.get(str(entry.get("table"))) if isinstance(entry, dict) else None
        final = entry.get("row") if isinstance(entry, dict) else None
        index = next((n for n, row in enumerate(table.rows) if isinstance(final, int) and row.covers(final)),
                     None) if table else None
        keys = set(entry) if isinstance(entry, dict) else set()
        if table is None or index is None or not keys <= {"table", "row", "column", "value", "label"} or not isinstance(
                entry, dict):
            left.append(entry)
            continue
        if "value" in entry:
            column = entry.get("column", table.columns[0].id if len(table.columns) == 1 else None)
            if column is None:
                left.append(entry)
                continue
            out[f"supply.{table.id}.{index}.{column}"] = value_text(entry["value"])
        if "label" in entry:
            out[f"supply.{table.id}.{index}._label"] = value_text(entry["label"])
    return left


def document_to_form(system: System, doc: Mapping[str, object]) -> dict[str, str]:
    """The form data showing a card document (the base system's own calendar, OB, charts where the card has none)."""
    out: dict[str, str] = {}
    for key in ("id", "name", "source"):
        _put(out, key, doc.get(key))
    if doc.get("example") is True:
        out["example"] = "true"
    values = doc.get("settings_values")
    known = {setting.id for setting in system.settings}
    other: dict[str, object] = {}
    for sid, value in (values.items() if isinstance(values, dict) else []):
        if sid not in known:  # a setting the card itself declares (its own `settings:` part)
            other.setdefault("settings_values", {})[sid] = value  # type: ignore[index]
        elif isinstance(value, dict):
            for side, v in value.items():
                out[f"settings_values.{sid}.{side}"] = "true" if v is True else "false" if v is False else value_text(v)
        else:
            out[f"settings_values.{sid}"] = "true" if value is True else "false" if value is False else value_text(value)
    owned = ["format", "kind", "id", "extends", "name", "source", "example", "settings_values", "calendar",
             "initial_ob", "victory_conditions", "supply"]
    if offers(system, "currencies"):
        currencies_form(_part(system, doc, "currencies"), out)
    if offers(system, "steps"):
        steps_form(system, _part(system, doc, "steps"), out)
    if offers(system, "initiative"):
        initiative_form(_part(system, doc, "initiative"), out)
    if offers_idle(system):
        idle_form(_part(system, doc, "idle"), out)
    if offers(system, "fortifications"):
        fortifications_form(_part(system, doc, "fortifications"), out)
    if offers(system, "setup_costs"):
        setup_costs_form(_part(system, doc, "setup_costs"), out)
    owned += owned_parts(system)
    _calendar_form(system, _part(system, doc, "calendar"), out)
    _ob_form(system, _part(system, doc, "initial_ob"), out)
    if offers_rg_charts(system):
        _rg_form(_part(system, doc, "rg_charts"), out)
        owned.append("rg_charts")
    fixed = [t.id for t in replaced_tables(system)]
    if offers_new_tables(system) or fixed:
        owned.append("tables")
        card_tables = [t for t in _items(doc.get("tables")) if isinstance(t, dict)]
        base_tables = [t for t in _items(system.document.get("tables")) if isinstance(t, dict)]
        shown = [t for t in card_tables if offers_new_tables(system) or t.get("id") in fixed]
        shown += [t for t in base_tables if t.get("id") in fixed and t.get("id") not in {c.get("id") for c in shown}]
        for n, table in enumerate(shown):
            _table_form(n, table, out)
        rest = [t for t in card_tables if t not in shown]
        if rest:
            other["tables"] = rest
    _victory_form(_part(system, doc, "victory_conditions"), out)
    left = _supply_form(system, doc.get("supply"), out)
    if left:
        other["supply"] = left
    other.update({k: v for k, v in doc.items() if k not in owned})
    if other:
        out["other"] = yaml.safe_dump(other, allow_unicode=True, sort_keys=False, width=110)
    return out


def initial_form(system: System) -> dict[str, str]:
    """A new card's form: the base system's own parts, one empty calendar row if it has none, and each chart's side."""
    data = document_to_form(system, {"id": f"my-{system.id}-card"})
    if not rows_of(data, "calendar"):
        data[f"calendar.0.{ROW_MARK}"] = "1"
    if offers_rg_charts(system) and not rows_of(data, "rg_charts"):
        for n, side in enumerate(system.sides):
            data[f"rg_charts.{n}.side"] = side.id
            data[f"rg_charts.{n}.{ROW_MARK}"] = "1"
            data[f"rg_charts.{n}.rows.0.{ROW_MARK}"] = "1"
    return data
