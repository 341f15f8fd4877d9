"""Set-up costs, Fortifications and purchase limits (docs/cg-format.md)."""
from __future__ import annotations

import re

from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.words import FORMULA_NAMES, FORMULA_PATTERN, FORT_COST_KINDS, RG_TYPES, ROUNDING
from rules_engine.model import Cell, FortCost, FortificationRow, Fortifications, FortLimit, Limit, SetupCosts, SetupMode
from rules_engine.vocabulary import SideId


def read_setup_costs(c: Checker, value: object, path: str) -> SetupCosts | None:
    """``setup_costs``: what setting up RG costs, per set-up mode and RG type."""
    m = c.mapping(value, path, ("ref",), ("minimum", "modes", "on_map_free_types", "never_on_map", "note"))
    if m is None or "ref" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    minimum = c.integer(m["minimum"], f"{path}.minimum") if "minimum" in m else None
    modes = []
    for p, mm in c.entries(m.get("modes", []), f"{path}.modes", ("mode",), ("ref", "by_type")):
        mode = c.choice(mm["mode"], f"{p}.mode", ("on-map", "reserve", "entry"))
        mref = c.text(mm["ref"], f"{p}.ref", numbers=True) if "ref" in mm else None
        by_type = c.keyed_cells(mm.get("by_type", {}), f"{p}.by_type", RG_TYPES, "RG type", "RG type letters to amounts")
        if mode:
            modes.append(SetupMode(mode, by_type, mref))
    free = c.refs(m["on_map_free_types"], f"{path}.on_map_free_types", RG_TYPES, "RG type") if "on_map_free_types" in m else ()
    never = c.texts(m["never_on_map"], f"{path}.never_on_map") if "never_on_map" in m else ()
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    if ref:
        return SetupCosts(ref, tuple(modes), minimum, free, never, note)
    return None


def _fort_cost(c: Checker, value: object, path: str) -> FortCost | None:
    """One Fortification cost: a number, a lost value, or exactly one way of pricing."""
    if isinstance(value, dict) and not ({"missing", "value"} & set(map(str, value))):
        m = c.mapping(value, path, (), (*FORT_COST_KINDS, "rounding"))
        if m is None:
            return None
        kinds = [k for k in FORT_COST_KINDS if k in m]
        if len(kinds) != 1:
            c.error(path, "a cost names exactly one way of pricing", ", ".join(FORT_COST_KINDS) + ", a number, {missing: …}")
            return None
        kind = kinds[0]
        raw = m[kind]
        rounding = c.choice(m["rounding"], f"{path}.rounding", ROUNDING) if "rounding" in m else None
        if kind in ("by_capacity", "by_unit"):
            by: dict[str, Cell] = {}
            if not isinstance(raw, dict):
                c.error(f"{path}.{kind}", f"expected a mapping, got {kind_of(raw)}")
                return None
            for key, amount in raw.items():
                cell = c.int_cell(amount, f"{path}.{kind}.{key}")
                if cell is not None:
                    by[str(key)] = cell
            return FortCost(kind, by=by, rounding=rounding)
        if kind == "formula":
            formula = c.text(raw, f"{path}.formula")
            if formula is None:
                return None
            names = set(re.findall(r"[a-z_]+", formula))
            if not FORMULA_PATTERN.match(formula) or not names <= set(FORMULA_NAMES):
                c.error(f"{path}.formula", f"bad formula {formula!r}", "+, *, parentheses, numbers and " + ", ".join(FORMULA_NAMES))
                return None
            return FortCost(kind, formula=formula, rounding=rounding)
        if kind == "as_per":
            reference = c.text(raw, f"{path}.as_per", numbers=True)
            return FortCost(kind, reference=reference) if reference else None
        amount = c.int_cell(raw, f"{path}.{kind}")
        return FortCost(kind, amount=amount, rounding=rounding) if amount is not None else None
    cell = c.int_cell(value, path)
    return FortCost("fixed", amount=cell) if cell is not None else None


def read_fortifications(c: Checker, value: object, path: str, ctx: Context) -> Fortifications | None:
    """``fortifications``: the types bought with the step's currency, their costs and limits."""
    m = c.mapping(value, path, ("ref", "currency", "rows"), ("forfeit_unspent", "limits", "notes"))
    if m is None or len(set(m) & {"ref", "currency", "rows"}) < 3:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    currency = c.ref(m["currency"], f"{path}.currency", ctx.currency_codes, "currency")
    forfeit = c.boolean(m["forfeit_unspent"], f"{path}.forfeit_unspent") if "forfeit_unspent" in m else False
    rows = []
    for p, rm in c.entries(
        m["rows"], f"{path}.rows", ("type", "cost"), ("initial_only", "isolated_ok", "near_enemy_ok", "sides", "notes", "note"),
        label="type",
    ):
        ftype = c.text(rm["type"], f"{p}.type", numbers=True)
        cost = _fort_cost(c, rm["cost"], f"{p}.cost")
        flags = {k: bool(c.boolean(rm[k], f"{p}.{k}")) if k in rm else False for k in ("initial_only", "isolated_ok", "near_enemy_ok")}
        sides = c.refs(rm["sides"], f"{p}.sides", ctx.side_ids, "side") if "sides" in rm else ()
        fnotes = c.texts(rm["notes"], f"{p}.notes") if "notes" in rm else ()
        fnote = c.text(rm["note"], f"{p}.note") if "note" in rm else None
        if ftype and cost:
            rows.append(FortificationRow(ftype, cost, flags["initial_only"], flags["isolated_ok"], flags["near_enemy_ok"], sides, fnotes, fnote))
    types = tuple(r.type for r in rows)
    limits = []
    for p, lm in c.entries(m.get("limits", []), f"{path}.limits", ("types", "max_points"), ("per",)):
        ltypes = c.refs(lm["types"], f"{p}.types", types, "fortification type")
        most = c.integer(lm["max_points"], f"{p}.max_points", minimum=0)
        per = c.choice(lm.get("per", "scenario"), f"{p}.per", ("scenario", "date", "cg"))
        if ltypes and most is not None and per:
            limits.append(FortLimit(ltypes, most, per))
    notes = c.keyed_texts(m["notes"], f"{path}.notes", "note marks to texts") if "notes" in m else {}
    if ref and currency:
        return Fortifications(ref, currency, tuple(rows), bool(forfeit), tuple(limits), notes)
    return None


def read_limits(c: Checker, value: object, path: str, ctx: Context) -> tuple[Limit, ...]:
    """``limits``: purchase limits, by side, by a setting's choice, or as a percentage."""
    out = []
    ids = []
    for p, m in c.entries(
        value, path, ("id", "text"), ("ref", "per", "max", "by_side", "by_setting", "percent", "rounding", "note", "rg_types"), label="id"
    ):
        ident = c.ident(m["id"], f"{p}.id", "limit id")
        text = c.text(m["text"], f"{p}.text")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        per = c.choice(m["per"], f"{p}.per", ("purchase", "reph", "date", "scenario", "cg", "module", "rg")) if "per" in m else None
        most = c.int_cell(m["max"], f"{p}.max") if "max" in m else None
        by_side: dict[SideId, Cell] = (
            c.keyed_cells(m["by_side"], f"{p}.by_side", ctx.side_ids, "side", "side ids to numbers") if "by_side" in m else {}
        )
        by_setting = None
        by_choice: dict[str, Cell] = {}
        if "by_setting" in m:
            bm = c.mapping(m["by_setting"], f"{p}.by_setting", ("setting", "values"))
            if bm is not None and len(bm) == 2:
                sid = c.ref(bm["setting"], f"{p}.by_setting.setting", ctx.settings, "setting")
                if sid is not None:
                    by_setting = sid
                    by_choice = c.keyed_cells(
                        bm["values"], f"{p}.by_setting.values", ctx.settings[sid].choices or None, "choice", "choices to numbers"
                    )
        percent = c.int_cell(m["percent"], f"{p}.percent") if "percent" in m else None
        rounding = c.choice(m["rounding"], f"{p}.rounding", ROUNDING) if "rounding" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        rg_types = c.refs(m["rg_types"], f"{p}.rg_types", RG_TYPES, "RG type") if "rg_types" in m else ()
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and text:
            out.append(Limit(ident, text, ref, per, most, by_side, by_setting, by_choice, percent, rounding, note,
                             tuple(rg_types)))
    c.unique(ids, "limit id")
    return tuple(out)
