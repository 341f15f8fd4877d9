"""The CG Card form's data to the `refit-cg/1` document (``form_to_document``), loader paths to form fields, YAML line
numbers of loader paths, and the form's row actions (add, remove, move up)."""
from __future__ import annotations

import re
from collections.abc import Mapping

import yaml

from rules_engine import card_parts_build, yaml_limits
from rules_engine.card_build_rg import rg_charts_part
from rules_engine.card_form import CAL_KEYS, HEADER, TABLE_KEYS, Built, Doc, Path, document_to_form
from rules_engine.card_reader import Reader, blank
from rules_engine.card_schema import (
    base_number_columns,
    offers_new_tables,
    offers_rg_charts,
    replaced_tables,
    table_columns,
)
from rules_engine.card_values import FlowTextError, word_list
from rules_engine.loader.words import CARD_KEYS, FORMAT
from rules_engine.model import System


def _calendar(system: System, r: Reader) -> list[object]:
    out: list[object] = []
    sides = [s.id for s in system.sides]
    for n in r.rows("calendar"):
        p = f"calendar.{n}"
        if blank(r.data, p):
            continue
        path: Path = ("calendar", len(out))
        r.built.origin[path] = f"{p}.id"
        row: dict[str, object] = {}
        for key in CAL_KEYS:
            if key in ("night", "initial"):
                r.built.origin[(*path, key)] = f"{p}.{key}"
                if r.flag(f"{p}.{key}"):
                    row[key] = True
            else:
                r.put(row, key, f"{p}.{key}", path)
        if system.map_groups and r.raw(f"{p}.map_groups").strip():
            r.built.origin[(*path, "map_groups")] = f"{p}.map_groups"
            try:
                row["map_groups"] = word_list(r.raw(f"{p}.map_groups"))
            except FlowTextError as exc:
                r.built.problems.append((f"{p}.map_groups", str(exc)))
        if base_number_columns(system):
            base: dict[str, object] = {}
            for side in sides:
                r.put(base, side, f"{p}.base_numbers.{side}", (*path, "base_numbers"))
            if base:
                row["base_numbers"] = base
                r.built.origin[(*path, "base_numbers")] = f"{p}.base_numbers.{sides[0]}"
        row.update(r.mapping(f"{p}.extra", path))
        out.append(row)
    return out


def _initial_ob(system: System, r: Reader) -> dict[str, object] | None:
    sides: dict[str, object] = {}
    for side in system.sides:
        p = f"initial_ob.sides.{side.id}"
        path: Path = ("initial_ob", "sides", side.id)
        ob: dict[str, object] = {}
        points: dict[str, object] = {}
        for cur in system.currencies:
            r.put(points, cur.code, f"{p}.points.{cur.code}", (*path, "points"))
        if points:
            ob["points"] = points
        groups: list[object] = []
        for n in r.rows(f"{p}.rg"):
            if blank(r.data, f"{p}.rg.{n}"):
                continue
            group: dict[str, object] = {}
            gpath: Path = (*path, "rg", len(groups))
            r.built.origin[gpath] = f"{p}.rg.{n}.id"
            r.put(group, "id", f"{p}.rg.{n}.id", gpath)
            r.put(group, "group_type", f"{p}.rg.{n}.group_type", gpath, text=True)
            r.put(group, "count", f"{p}.rg.{n}.count", gpath)
            groups.append(group)
        if groups:
            ob["rg"] = groups
        for key in ("elr", "san"):
            r.put(ob, key, f"{p}.{key}", path)
        r.put(ob, "text", f"{p}.text", path, text=True)
        r.built.origin[path] = f"{p}.elr"
        if ob:
            sides[side.id] = ob
    if not sides:
        return None
    r.built.origin[("initial_ob",)] = "initial_ob.ref"
    r.built.origin[("initial_ob", "sides")] = "initial_ob.ref"
    ref = r.value("initial_ob.ref", ("initial_ob", "ref"), text=True)
    return {"ref": ref or "CG Card", "sides": sides}


def _tables(r: Reader) -> list[dict[str, object]]:
    tables: list[dict[str, object]] = []
    for n in r.rows("tables"):
        p = f"tables.{n}"
        if blank(r.data, p):
            continue
        path: Path = ("tables", len(tables))
        r.built.origin[path] = f"{p}.id"
        table: dict[str, object] = {}
        for key in TABLE_KEYS:
            if key == "secret":
                table["secret"] = r.flag(f"{p}.secret")
                r.built.origin[(*path, key)] = f"{p}.secret"
            else:
                r.put(table, key, f"{p}.{key}", path, text=key in ("id", "name", "dice", "per"))
        columns = table_columns(r.raw(f"{p}.columns"))
        table["columns"] = [{"id": ident, "label": label} for ident, label in columns]
        r.built.origin[(*path, "columns")] = f"{p}.columns"
        rows: list[object] = []
        for m in r.rows(f"{p}.rows"):
            rp = f"{p}.rows.{m}"
            if blank(r.data, rp):
                continue
            rpath: Path = (*path, "rows", len(rows))
            r.built.origin[rpath] = f"{rp}.label"
            row: dict[str, object] = {}
            for key in ("label", "min", "max"):
                r.put(row, key, f"{rp}.{key}", rpath)
            extra = r.mapping(f"{rp}.extra", rpath)
            cells = [r.value(f"{rp}.cells.{k}", (*rpath, "cells", k)) for k in range(len(columns))]
            r.built.origin[(*rpath, "cells")] = f"{rp}.cells.0"
            if "missing" not in extra or any(c is not None for c in cells):
                row["cells"] = cells
            row.update(extra)
            rows.append(row)
        table["rows"] = rows
        r.built.origin[(*path, "rows")] = f"{p}.id"
        table.update(r.mapping(f"{p}.extra", path))
        tables.append(table)
    return tables


def _victory(r: Reader) -> dict[str, object] | None:
    p = "victory_conditions"
    vc: dict[str, object] = {}
    r.built.origin[(p,)] = f"{p}.text"
    r.put(vc, "ref", f"{p}.ref", (p,), text=True)
    r.put(vc, "text", f"{p}.text", (p,), text=True)
    conditions: list[object] = []
    for n in r.rows(f"{p}.conditions"):
        cp = f"{p}.conditions.{n}"
        if blank(r.data, cp):
            continue
        cpath: Path = (p, "conditions", len(conditions))
        r.built.origin[cpath] = f"{cp}.side"
        cond: dict[str, object] = {}
        for key in ("side", "measure", "op", "value"):
            r.put(cond, key, f"{cp}.{key}", cpath, text=key != "value")
        conditions.append(cond)
    if conditions:
        vc["conditions"] = conditions
    r.put(vc, "otherwise", f"{p}.otherwise", (p,), text=True)
    return vc if set(vc) - {"ref"} else None


def _supply(system: System, r: Reader) -> list[object]:
    out: list[object] = []
    pattern = re.compile(r"^supply\.([a-z0-9-]+)\.(\d+)\.([A-Za-z0-9_-]+)$")
    for name in sorted(k for k in r.data if pattern.match(k)):
        m = pattern.match(name)
        assert m is not None
        table = system.tables.get(m.group(1))
        n = int(m.group(2))
        if table is None or n >= len(table.rows):
            continue
        row = table.rows[n]
        final = row.min if row.min is not None else row.max
        path: Path = ("supply", len(out))
        value = r.value(name, (*path, "label" if m.group(3) == "_label" else "value"))
        if value is None or final is None:
            continue
        r.built.origin[path] = name
        if m.group(3) == "_label":
            out.append({"table": table.id, "row": final, "label": value})
        else:
            out.append({"table": table.id, "row": final, "column": m.group(3), "value": value})
    return out


def _other(r: Reader, owned: set[str]) -> dict[str, object]:
    raw = r.raw("other")
    if not raw.strip():
        return {}
    try:
        loaded = yaml_limits.load(raw)
    except yaml_limits.LimitExceeded as exc:
        r.built.problems.append(("other", f"refused: {exc}"))
        return {}
    except yaml.YAMLError as exc:
        r.built.problems.append(("other", f"not valid YAML: {yaml_limits.excerpt(str(exc), 300)}"))
        return {}
    if not isinstance(loaded, dict):
        r.built.problems.append(("other", "expected a mapping of card parts (steps: …, initiative: …)"))
        return {}
    out: dict[str, object] = {}
    for key, value in loaded.items():
        name = str(key)
        if name in owned or name in HEADER:
            r.built.problems.append(("other", f"{name!r} is filled in the form above; give it once"))
        elif name not in CARD_KEYS:
            r.built.problems.append(("other", f"unknown card part {name!r} (allowed: {', '.join(CARD_KEYS)})"))
        else:
            out[name] = value
    return out


def _parts(system: System, r: Reader) -> dict[str, object]:
    parts: dict[str, object] = {"calendar": _calendar(system, r), "initial_ob": _initial_ob(system, r),
                                "victory_conditions": _victory(r)}
    parts.update(card_parts_build.parts(system, r))
    if offers_rg_charts(system):
        parts["rg_charts"] = rg_charts_part(r)
    if offers_new_tables(system) or replaced_tables(system):
        parts["tables"] = _tables(r)
    return parts


def form_to_document(system: System, data: Mapping[str, str]) -> Built:
    """The `refit-cg/1` card document the form data gives (parts equal to the base system's are left out)."""
    built = Built({})
    r = Reader(data, built)
    doc: Doc = {"format": FORMAT, "kind": "cg-card"}
    r.put(doc, "id", "id", (), text=True)
    doc["extends"] = system.id
    r.put(doc, "name", "name", (), text=True)
    r.put(doc, "source", "source", (), text=True)
    if r.flag("example"):
        doc["example"] = True
    values: dict[str, object] = {}
    for s in system.settings:
        if s.per_side:
            per: dict[str, object] = {}
            for side in system.sides:
                r.put(per, side.id, f"settings_values.{s.id}.{side.id}", ("settings_values", s.id),
                      text=s.type in ("text", "choice"))
            if per:
                values[s.id] = per
            built.origin[("settings_values", s.id)] = f"settings_values.{s.id}.{system.sides[0].id}"
        else:
            r.put(values, s.id, f"settings_values.{s.id}", ("settings_values",), text=s.type in ("text", "choice"))
        for key, value in list(values.items()):
            if s.type == "bool" and key == s.id:
                values[key] = _bool(value)
    parts = _parts(system, r)
    base = _parts(system, Reader(document_to_form(system, {}), Built({})))
    for key, value in parts.items():
        if value is not None and value != base.get(key) and (value or key == "calendar" or system.document.get(key)):
            doc[key] = value
    supply = _supply(system, r)
    other = _other(r, {*doc, *parts, "victory_conditions"} - {"tables", "rg_charts"})
    more = other.pop("settings_values", None)
    if isinstance(more, dict):
        for key in more:
            built.origin[("settings_values", str(key))] = "other"
        values.update({str(k): v for k, v in more.items()})
    elif more is not None:
        built.problems.append(("other", "settings_values is a mapping of setting ids to values"))
    if values:
        doc = {**{k: v for k, v in doc.items() if k in HEADER}, "settings_values": values,
               **{k: v for k, v in doc.items() if k not in HEADER}}
    for key in ("tables", "rg_charts", "supply"):
        extra = other.pop(key, None)
        if isinstance(extra, list):
            start = len(doc.get(key) or []) if key != "supply" else len(supply)  # type: ignore[arg-type]
            for i in range(len(extra)):
                built.origin[(key, start + i)] = "other"
            if key == "supply":
                supply += extra
            else:
                doc[key] = [*(doc.get(key) or []), *extra]  # type: ignore[misc]
        elif extra is not None:
            built.problems.append(("other", f"{key} is a list"))
    if supply:
        doc["supply"] = supply
    for key, value in other.items():
        built.origin[(key,)] = "other"
        doc[key] = value
    built.doc = doc
    return built


def _bool(value: object) -> object:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if isinstance(value, dict):
        return {k: _bool(v) for k, v in value.items()}
    return value


__all__ = ["form_to_document"]
