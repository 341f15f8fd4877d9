"""Dice tables: rows, cells, modifiers and the facts they test (docs/cg-format.md "tables")."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context, item_label, kind_of
from rules_engine.loader.settings import read_range
from rules_engine.loader.words import KNOWN_FACTS, ROUNDING, TABLE_PER, WORD_PATTERN
from rules_engine.model import Cell, Column, DiceTable, Modifier, OriginalEffect, PerFact, Row, SettingRef
from rules_engine.vocabulary import DiceKind


def _fact(c: Checker, value: object, path: str, ctx: Context) -> str | None:
    """A fact a modifier tests: a known fact, ``side_is:<side>`` or ``nationality_is:<nationality>``."""
    text = c.text(value, path)
    if text is None:
        return None
    if text in KNOWN_FACTS:
        return text
    if text.startswith("side_is:"):
        side = text.removeprefix("side_is:")
        if side not in ctx.side_ids:
            c.error(path, f"unknown side {side!r} in fact {text!r}", ", ".join(ctx.side_ids))
            return None
        return text
    if text.startswith("nationality_is:"):
        if not WORD_PATTERN.match(text.removeprefix("nationality_is:")):
            c.error(path, f"bad nationality in fact {text!r}", "nationality_is:<lower-case nationality>")
            return None
        return text
    c.error(path, f"unknown fact {text!r}", ", ".join((*KNOWN_FACTS, "side_is:<side id>", "nationality_is:<nationality>")))
    return None


def read_modifiers(c: Checker, value: object, path: str, ctx: Context, columns: tuple[str, ...]) -> tuple[Modifier, ...]:
    """A table's (or a scenario roll's) DRMs: a value or a setting's, applied when a fact holds or asked."""
    out = []
    for p, m in c.entries(
        value, path, ("reason",), ("value", "when", "unless", "per", "ask", "range", "columns", "na_for", "ref", "note")
    ):
        ok = True
        reason = c.text(m["reason"], f"{p}.reason")
        val: int | SettingRef | None = None
        if "value" in m:
            raw = m["value"]
            if isinstance(raw, dict):
                sm = c.mapping(raw, f"{p}.value", ("setting",))
                if sm is not None and "setting" in sm:
                    sid = c.ref(sm["setting"], f"{p}.value.setting", ctx.settings, "setting")
                    if sid is not None and ctx.settings[sid].type != "int":
                        c.error(f"{p}.value.setting", f"setting {sid!r} is not a whole-number setting")
                        ok = False
                    elif sid is not None:
                        val = SettingRef(sid)
                    else:
                        ok = False
                else:
                    ok = False
            else:
                val = c.integer(raw, f"{p}.value")
                ok = ok and val is not None
        when = _fact(c, m["when"], f"{p}.when", ctx) if "when" in m else None
        unless = _fact(c, m["unless"], f"{p}.unless", ctx) if "unless" in m else None
        per = None
        if "per" in m:
            pm = c.mapping(m["per"], f"{p}.per", ("fact",), ("every", "rounding"))
            if pm is not None and "fact" in pm:
                fact = _fact(c, pm["fact"], f"{p}.per.fact", ctx)
                every = c.integer(pm.get("every", 1), f"{p}.per.every", minimum=1)
                rounding = c.choice(pm.get("rounding", "down"), f"{p}.per.rounding", ROUNDING)
                if fact and every and rounding:
                    per = PerFact(fact, every, rounding)
        ask = c.choice(m["ask"], f"{p}.ask", ("tick", "count", "value")) if "ask" in m else None
        rng = read_range(c, m["range"], f"{p}.range") if "range" in m else None
        kinds = [k for k in ("when", "unless", "per", "ask") if k in m]
        if len(kinds) > 1:
            c.error(p, f"a modifier has at most one of when/unless/per/ask, this one has {', '.join(kinds)}")
        if ask == "value":
            if "value" in m:
                c.error(f"{p}.value", "`ask: value` lets the player enter the value; do not also give `value:`")
        elif "value" not in m:
            c.error(p, "missing required key 'value'", "a whole number, or {setting: <setting id>}; or `ask: value`")
        if rng is not None and ask != "value":
            c.error(f"{p}.range", "`range:` is only for `ask: value`")
        if "per" in m and isinstance(val, SettingRef):
            c.error(f"{p}.value", "a `per:` modifier needs a whole-number value")
        cols = c.refs(m["columns"], f"{p}.columns", columns, "column") if "columns" in m else ()
        na_for = c.refs(m["na_for"], f"{p}.na_for", columns, "column") if "na_for" in m else ()
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if reason and ok:
            out.append(Modifier(reason, val, when, unless, per, ask, rng, cols, na_for, ref, note))
    return tuple(out)


def read_params(c: Checker, m: dict[str, object], path: str) -> dict[str, object]:
    """The free-form ``params`` mapping of a step, RG note or special rule (empty when absent)."""
    raw = m.get("params", {})
    if isinstance(raw, dict):
        return {str(k): v for k, v in raw.items()}
    c.error(f"{path}.params", f"expected a mapping, got {kind_of(raw)}")
    return {}


def read_roll_range(c: Checker, m: dict[str, object], path: str, index: int, count: int) -> tuple[int | None, int | None]:
    """A row's ``min``/``max`` rolls: only the first row may leave out min, only the last max (open-ended)."""
    lo = c.integer(m["min"], f"{path}.min") if "min" in m else None
    hi = c.integer(m["max"], f"{path}.max") if "max" in m else None
    if "min" not in m and index != 0:
        c.error(path, "only the first row may leave out `min:` (open-ended)")
    if "max" not in m and index != count - 1:
        c.error(path, "only the last row may leave out `max:` (open-ended)")
    return lo, hi


def _table_rows(c: Checker, value: object, path: str, columns: int) -> tuple[Row, ...]:
    """A table's rows: contiguous and not overlapping, a gap declared as a ``missing:`` row."""
    rows: list[Row] = []
    items = c.seq(value, path)
    if not items:
        c.error(path, "a table needs at least one row")
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, (), ("label", "min", "max", "edge", "verify", "note", "cells", "missing"))
        if m is None:
            continue
        lo, hi = read_roll_range(c, m, p, i, len(items))
        if lo is not None and hi is not None and lo > hi:
            c.error(p, f"min {lo} is above max {hi}")
        label: str | None = None
        label_missing: str | None = None
        if "label" in m:
            raw = m["label"]
            if isinstance(raw, dict):
                lm = c.mapping(raw, f"{p}.label", ("missing",))
                if lm is not None and "missing" in lm:
                    label_missing = c.text(lm["missing"], f"{p}.label.missing")
            else:
                label = c.text(raw, f"{p}.label", numbers=True)
        edge = c.choice(m.get("edge", "legible"), f"{p}.edge", ("legible", "interpreted"))
        verify = c.boolean(m["verify"], f"{p}.verify") if "verify" in m else False
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        missing = c.text(m["missing"], f"{p}.missing") if "missing" in m else None
        cells: list[Cell] = []
        if "missing" in m:
            if "cells" in m:
                c.error(f"{p}.cells", "a row declared `missing:` has no cells (write each lost cell as {missing: …})")
            if "min" not in m or "max" not in m:
                c.error(p, "a `missing:` row needs both `min:` and `max:`")
        elif "cells" not in m:
            c.error(p, "missing required key 'cells'")
        else:
            raw_cells = c.seq(m["cells"], f"{p}.cells")
            if len(raw_cells) != columns and isinstance(m["cells"], list):
                c.error(f"{p}.cells", f"{len(raw_cells)} cells for {columns} column(s)", f"exactly {columns}")
            for j, raw_cell in enumerate(raw_cells):
                cell = c.cell(raw_cell, f"{p}.cells[{j}]")
                if cell is not None:
                    cells.append(cell)
        rows.append(
            Row(lo, hi, label, tuple(cells), label_missing, edge == "interpreted", bool(verify), missing, note)
        )
    if len(rows) == len(items):
        for i in range(1, len(rows)):
            prev, row = rows[i - 1], rows[i]
            if prev.max is None or row.min is None:
                continue
            if row.min > prev.max + 1:
                gap = str(prev.max + 1) if row.min - 1 == prev.max + 1 else f"{prev.max + 1}-{row.min - 1}"
                c.error(
                    f"{path}[{i}]",
                    f"rows are not contiguous: finals {gap} fall between rows[{i - 1}] and rows[{i}]",
                    f"declare the gap as a row {{min: {prev.max + 1}, max: {row.min - 1}, missing: \"…\"}}",
                )
            elif row.min <= prev.max:
                c.error(f"{path}[{i}]", f"overlaps rows[{i - 1}] (finals {row.min}-{prev.max} are in both)")
    return tuple(rows)


def _table(c: Checker, item: object, p: str, ctx: Context, system_id: str) -> DiceTable | None:
    """One dice table, or None when a required part is broken."""
    m = c.mapping(
        item,
        p,
        ("id", "ref", "name", "dice", "columns", "rows"),
        ("per", "secret", "modifiers", "original", "notes", "note"),
    )
    if m is None:
        return None
    ident = c.ident(m["id"], f"{p}.id", "table id") if "id" in m else None
    ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
    name = c.text(m["name"], f"{p}.name") if "name" in m else None
    dice = c.choice(m["dice"], f"{p}.dice", [k.value for k in DiceKind]) if "dice" in m else None
    per = c.choice(m.get("per", "side"), f"{p}.per", TABLE_PER)
    secret = c.boolean(m["secret"], f"{p}.secret") if "secret" in m else False
    columns: list[Column] = []
    col_ids = []
    if "columns" in m:
        raw_cols = c.seq(m["columns"], f"{p}.columns")
        if not raw_cols and isinstance(m["columns"], list):
            c.error(f"{p}.columns", "a table needs at least one column", "e.g. [{id: result, label: Result}]")
        for j, raw in enumerate(raw_cols):
            cp = f"{p}.columns[{j}]"
            cm = c.mapping(raw, cp, ("id", "label"))
            if cm is None or len(cm) < 2:
                continue
            cid = c.ident(cm["id"], f"{cp}.id", "column id")
            clabel = c.text(cm["label"], f"{cp}.label", numbers=True)
            if cid and clabel:
                columns.append(Column(cid, clabel))
                col_ids.append((f"{cp}.id", cid))
        c.unique(col_ids, "column id")
    n_columns = len(c.seq(m["columns"], f"{p}.columns")) if isinstance(m.get("columns"), list) else len(columns)
    rows = _table_rows(c, m["rows"], f"{p}.rows", n_columns) if "rows" in m else ()
    column_ids = tuple(col.id for col in columns)
    modifiers = read_modifiers(c, m["modifiers"], f"{p}.modifiers", ctx, column_ids) if "modifiers" in m else ()
    original = []
    for op, om in c.entries(m.get("original", []), f"{p}.original", ("roll", "effect"), ("columns",)):
        roll = c.integer(om["roll"], f"{op}.roll")
        effect = c.text(om["effect"], f"{op}.effect")
        ocols = c.refs(om["columns"], f"{op}.columns", column_ids, "column") if "columns" in om else ()
        if roll is not None and effect:
            original.append(OriginalEffect(roll, effect, ocols))
    notes = c.keyed_texts(m["notes"], f"{p}.notes", "note marks to texts") if "notes" in m else {}
    note = c.text(m["note"], f"{p}.note") if "note" in m else None
    if ident and ref and name and dice and per and columns and rows and len(columns) == n_columns:
        return DiceTable(
            ident, ref, name, DiceKind(dice), tuple(columns), rows, per, bool(secret), modifiers,
            tuple(original), notes, note, system_id,
        )
    return None


def read_tables(c: Checker, value: object, path: str, ctx: Context, system_id: str) -> dict[str, DiceTable]:
    """``tables``: each id once."""
    out: dict[str, DiceTable] = {}
    ids = []
    for i, item in enumerate(c.seq(value, path)):
        p = f"{path}{item_label(item, i)}"
        table = _table(c, item, p, ctx, system_id)
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            ids.append((f"{p}.id", str(item["id"])))
        if table is not None and table.id not in out:
            out[table.id] = table
    c.unique(ids, "table id")
    ctx.tables = out
    return out
