"""A `kind: cg-card` over its system: parts replaced, steps merged, lost cells supplied."""
from __future__ import annotations

import copy
from dataclasses import replace

from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.loader.checker import Checker, kind_of
from rules_engine.loader.players import read_settings_values
from rules_engine.loader.system import build_system
from rules_engine.loader.words import CARD_KEYS, CARD_PARTS, FORMAT
from rules_engine.loader.yaml_text import load_yaml
from rules_engine.model import CardInfo, Cell, DiceTable, System
from rules_engine.vocabulary import Provenance


def _steps_over_system(card_steps: object, system_steps: object) -> object:
    """A card's step list over the system's: a card step keeps what the system file says of the same ref (its part,
    markers, action, params, note) unless the card gives that key itself; the card decides the order and which steps
    run (KGP 8.6031 "CG-Scenario End" stays in the post-scenario part whatever the card lists)."""
    if not isinstance(card_steps, list) or not isinstance(system_steps, list):
        return copy.deepcopy(card_steps)
    by_ref = {str(s.get("ref")): s for s in system_steps if isinstance(s, dict) and "ref" in s}
    out: list[object] = []
    for step in card_steps:
        base = by_ref.get(str(step.get("ref"))) if isinstance(step, dict) and "ref" in step else None
        if base is None or not isinstance(step, dict):
            out.append(copy.deepcopy(step))
            continue
        # the kind is derived from the action (step_kinds): a declared kind of the system's step does not carry over
        merged = {**{k: copy.deepcopy(v) for k, v in base.items() if k != "automation"}, **copy.deepcopy(step)}
        base_params, card_params = base.get("params"), step.get("params")
        if isinstance(base_params, dict) and isinstance(card_params, dict):
            merged["params"] = {**copy.deepcopy(base_params), **copy.deepcopy(card_params)}
        out.append(merged)
    return out


def parse_card(text: str, filename: str, base: System) -> System:
    """Apply a `kind: cg-card` to its base system: replace parts, set settings, fill `supply:` cells of declared-missing values."""
    doc = load_yaml(text, filename)
    c = Checker(filename)
    m = c.mapping(doc, "", ("format", "kind", "id", "extends", "name"), CARD_KEYS)
    if m is None:
        raise DefinitionErrors(c.errors)
    if "format" in m and m["format"] != FORMAT:
        c.error("format", f"unknown format {m['format']!r}", FORMAT)
    if "kind" in m and m["kind"] != "cg-card":
        c.error("kind", f"expected kind 'cg-card', got {kind_of(m['kind'])}", "cg-card")
    ident = c.ident(m["id"], "id", "card id") if "id" in m else None
    name = c.text(m["name"], "name") if "name" in m else None
    source = c.text(m["source"], "source") if "source" in m else None
    example = c.boolean(m["example"], "example") if "example" in m else False
    if "extends" in m and m["extends"] != base.id:
        c.error("extends", f"this card extends {m['extends']!r}, but it was applied to {base.id!r}", base.id)
    if c.errors:
        raise DefinitionErrors(c.errors)

    merged: dict[str, object] = dict(copy.deepcopy(dict(base.document)))
    replaced = [part for part in CARD_PARTS if part in m]
    if "settings_values" in m and "settings" not in replaced:
        replaced.append("settings")  # the values resolve a `missing_parts: {part: settings}` entry
    for part in (p for p in replaced if p in m):
        card_tables = m["tables"] if part == "tables" else None
        base_tables = merged.get("tables")
        if isinstance(card_tables, list) and isinstance(base_tables, list):
            by_id = {t.get("id"): n for n, t in enumerate(base_tables) if isinstance(t, dict)}
            tables = list(base_tables)
            for table in card_tables:
                key = table.get("id") if isinstance(table, dict) else None
                if key in by_id:
                    tables[by_id[key]] = copy.deepcopy(table)
                else:
                    tables.append(copy.deepcopy(table))
            merged["tables"] = tables
        elif part == "steps":
            merged[part] = _steps_over_system(m[part], merged.get("steps"))
        else:
            merged[part] = copy.deepcopy(m[part])
    raw_card_tables = m.get("tables")
    supplied_tables = (
        {t.get("id") for t in raw_card_tables if isinstance(t, dict)} if isinstance(raw_card_tables, list) else set()
    )
    kept_missing = []
    raw_missing = merged.get("missing_parts")
    for entry in raw_missing if isinstance(raw_missing, list) else []:
        if isinstance(entry, dict) and entry.get("part") in replaced:
            if entry.get("part") != "tables" or entry.get("id") is None or entry.get("id") in supplied_tables:
                continue
        kept_missing.append(entry)
    merged["missing_parts"] = kept_missing
    card = CardInfo(ident or "", name or "", base.id, bool(example), source)
    system = build_system(c, merged, card)
    if c.errors or system is None:
        raise DefinitionErrors(c.errors or [DefinitionError(filename, "", "the card does not make a valid system")])

    values = read_settings_values(c, m.get("settings_values"), system) if "settings_values" in m else {}
    tables_after = _supply(c, m["supply"], "supply", system) if "supply" in m else dict(system.tables)
    if c.errors:
        raise DefinitionErrors(c.errors)
    return replace(system, card=card, settings_values=values, tables=tables_after, document=merged)


def _supply(c: Checker, value: object, path: str, system: System) -> dict[str, DiceTable]:
    """Fill declared-missing cells (and lost row labels) of the system's tables."""
    tables = dict(system.tables)
    for p, m in c.entries(value, path, ("table", "row"), ("column", "value", "label", "note")):
        tid = c.ref(m["table"], f"{p}.table", tables, "table")
        final = c.integer(m["row"], f"{p}.row")
        if tid is None or final is None:
            continue
        table = tables[tid]
        index = next((n for n, row in enumerate(table.rows) if row.covers(final)), None)
        if index is None:
            c.error(f"{p}.row", f"no row of {tid} covers final {final}", ", ".join(r.range_text for r in table.rows))
            continue
        row = table.rows[index]
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        card_note = f"supplied by CG Card {system.card.id if system.card else ''}".strip() + (f": {note}" if note else "")
        if "value" not in m and "label" not in m:
            c.error(p, "a supply entry gives `value:` (a cell) or `label:` (a lost row label)")
            continue
        if "label" in m:
            label = c.text(m["label"], f"{p}.label", numbers=True)
            if row.label_missing is None:
                c.error(f"{p}.label", f"the label of {tid} row {row.range_text} is not missing; a card only fills lost values")
            elif label:
                row = replace(row, label=label, label_missing=None)
        if "value" in m:
            columns = [col.id for col in table.columns]
            try:
                column = table.column(str(m["column"]) if "column" in m else None)
            except ValueError as exc:
                c.error(f"{p}.column", str(exc), ", ".join(columns))
                column = None
            plain = c.plain(m["value"], f"{p}.value")
            if column is not None and plain is not None:
                k = table.columns.index(column)
                cells = list(row.cells) if row.missing is None else [
                    Cell(None, Provenance.MISSING, note=row.missing) for _ in table.columns
                ]
                if not cells[k].missing:
                    lost = [
                        f"row {r.range_text} column {col.id}"
                        for r in table.rows for n, col in enumerate(table.columns)
                        if r.missing is not None or (n < len(r.cells) and r.cells[n].missing)
                    ]
                    c.error(
                        f"{p}.value",
                        f"{tid} row {row.range_text} column {column.id} is not missing ({cells[k].text}); "
                        "a card only fills values lost in the rule text",
                        "; ".join(lost) or "this table has no missing cells",
                    )
                else:
                    cells[k] = Cell(plain, Provenance.LEGIBLE, note=card_note, supplied=True)
                    row = replace(row, cells=tuple(cells), missing=None)
        rows = list(table.rows)
        rows[index] = row
        tables[tid] = replace(table, rows=tuple(rows))
    return tables
