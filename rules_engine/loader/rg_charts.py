"""RG charts: rows, notes, combined maxima and effects (docs/cg-format.md "rg_charts")."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.tables import read_params
from rules_engine.loader.words import RG_EFFECTS, RG_TYPES
from rules_engine.model import RG_QUALITIES, CombinedMax, PreRegistered, RgChart, RgNote, RgRow, UnitCount


def _units(c: Checker, value: object, path: str) -> tuple[UnitCount, ...]:
    """An RG's Full or Depleted composition: counts of units."""
    out = []
    for p, m in c.entries(value, path, ("count", "unit")):
        count = c.int_cell(m["count"], f"{p}.count")
        unit = c.text(m["unit"], f"{p}.unit", numbers=True)
        if count is not None and unit:
            out.append(UnitCount(count, unit))
    return tuple(out)


def _rg_note(c: Checker, value: object, path: str, ctx: Context) -> RgNote | None:
    """One RG note letter: its text and what the engine reads from it (leader table, surcharges …)."""
    m = c.mapping(
        value,
        path,
        ("text",),
        ("depletable", "leader_table", "on_map_surcharge", "on_map_surcharge_company", "pre_registered", "extra_max",
         "params"),
    )
    if m is None or "text" not in m:
        return None
    text = c.text(m["text"], f"{path}.text")
    depletable = c.boolean(m["depletable"], f"{path}.depletable") if "depletable" in m else False
    leader = c.ref(m["leader_table"], f"{path}.leader_table", ctx.tables, "table") if "leader_table" in m else None
    surcharge = c.integer(m["on_map_surcharge"], f"{path}.on_map_surcharge") if "on_map_surcharge" in m else None
    company = (
        c.integer(m["on_map_surcharge_company"], f"{path}.on_map_surcharge_company")
        if "on_map_surcharge_company" in m else None
    )
    pre = None
    if "pre_registered" in m:
        pm = c.mapping(m["pre_registered"], f"{path}.pre_registered", ("cost", "max"))
        if pm is not None and len(pm) == 2:
            cost = c.integer(pm["cost"], f"{path}.pre_registered.cost", minimum=0)
            most = c.integer(pm["max"], f"{path}.pre_registered.max", minimum=0)
            if cost is not None and most is not None:
                pre = PreRegistered(cost, most)
    extra = c.integer(m["extra_max"], f"{path}.extra_max", minimum=0) if "extra_max" in m else None
    params = read_params(c, m, path)
    if text:
        return RgNote(text, bool(depletable), leader, surcharge, company, pre, extra, params)
    return None


def read_rg_charts(c: Checker, value: object, path: str, ctx: Context) -> tuple[RgChart, ...]:
    """``rg_charts``: one chart per side, its rows (type, cost, maxima, units) and note letters."""
    out = []
    chart_sides = []
    for p, m in c.entries(
        value, path, ("side", "ref", "name", "rows"), ("columns", "notes", "combined_max"), label="side"
    ):
        side = c.ref(m["side"], f"{p}.side", ctx.side_ids, "side")
        if side:
            chart_sides.append((f"{p}.side", side))
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        columns: dict[str, str] = {}
        if "columns" in m:
            cm = c.mapping(m["columns"], f"{p}.columns", (), ("cost", "date_max", "cg_max"))
            for key, label in (cm or {}).items():
                t = c.text(label, f"{p}.columns.{key}")
                if t:
                    columns[key] = t
        notes: dict[str, RgNote] = {}
        if "notes" in m:
            raw_notes = m["notes"]
            if isinstance(raw_notes, dict):
                for key, raw in raw_notes.items():
                    note = _rg_note(c, raw, f"{p}.notes.{key}", ctx)
                    if note is not None:
                        notes[str(key)] = note
            else:
                c.error(f"{p}.notes", f"expected a mapping of note letters, got {kind_of(raw_notes)}")
        raw_letters = m.get("notes")
        note_letters = tuple(str(k) for k in raw_letters) if isinstance(raw_letters, dict) else ()
        rows = []
        ids = []
        for rp, rm in c.entries(
            m["rows"],
            f"{p}.rows",
            ("id", "type", "group_type", "cost"),
            ("date_max", "cg_max", "full", "depleted", "description", "company", "notes", "available_after",
             "available_from", "gives", "sw", "note", "effects", "quality"),
            label="id",
        ):
            rid = c.text(rm["id"], f"{rp}.id", numbers=True)
            rtype = c.choice(rm["type"], f"{rp}.type", RG_TYPES)
            if rid and rtype and not rid.startswith(rtype):
                c.error(f"{rp}.type", f"RG {rid!r} does not start with its type letter(s) {rtype!r}")
            group = c.text(rm["group_type"], f"{rp}.group_type")
            cost = c.int_cell(rm["cost"], f"{rp}.cost")
            date_max = c.int_cell(rm["date_max"], f"{rp}.date_max") if "date_max" in rm else None
            cg_max = c.int_cell(rm["cg_max"], f"{rp}.cg_max") if "cg_max" in rm else None
            full = _units(c, rm["full"], f"{rp}.full") if "full" in rm else ()
            depleted = _units(c, rm["depleted"], f"{rp}.depleted") if "depleted" in rm else ()
            desc = c.text(rm["description"], f"{rp}.description", numbers=True) if "description" in rm else None
            company = c.boolean(rm["company"], f"{rp}.company") if "company" in rm else False
            rnotes = c.refs(rm["notes"], f"{rp}.notes", note_letters, "RG note") if "notes" in rm else ()
            after = c.ref(rm["available_after"], f"{rp}.available_after", ctx.calendar_ids, "calendar entry") if "available_after" in rm else None
            since = c.ref(rm["available_from"], f"{rp}.available_from", ctx.calendar_ids, "calendar entry") if "available_from" in rm else None
            gives = (
                c.keyed_cells(rm["gives"], f"{rp}.gives", ctx.currency_codes, "currency", "currency codes to amounts")
                if "gives" in rm else {}
            )
            sw: dict[str, int] = {}
            if "sw" in rm:
                raw_sw = rm["sw"]
                if isinstance(raw_sw, dict):
                    for weapon, count in raw_sw.items():
                        n = c.integer(count, f"{rp}.sw.{weapon}", minimum=0)
                        if n is not None:
                            sw[str(weapon)] = n
                else:
                    c.error(f"{rp}.sw", f"expected a mapping of weapons to counts, got {kind_of(raw_sw)}")
            rnote = c.text(rm["note"], f"{rp}.note") if "note" in rm else None
            effects = _rg_effects(c, rm["effects"], f"{rp}.effects") if "effects" in rm else {}
            quality = c.choice(rm["quality"], f"{rp}.quality", RG_QUALITIES) if "quality" in rm else None
            if rid:
                ids.append((f"{rp}.id", rid))
            if rid and rtype and group and cost is not None:
                rows.append(
                    RgRow(rid, rtype, group, cost, date_max, cg_max, full, depleted, desc, bool(company), rnotes,
                          after, since, gives, sw, rnote, effects, quality)
                )
        c.unique(ids, "RG id")
        combined = []
        row_ids = tuple(r.id for r in rows)
        for cp, cm2 in c.entries(m.get("combined_max", []), f"{p}.combined_max", ("ids", "max"), ("per", "ref")):
            cids = c.refs(cm2["ids"], f"{cp}.ids", row_ids, "RG id")
            most = c.integer(cm2["max"], f"{cp}.max", minimum=0)
            per = c.choice(cm2.get("per", "cg"), f"{cp}.per", ("cg", "date"))
            cref = c.text(cm2["ref"], f"{cp}.ref", numbers=True) if "ref" in cm2 else None
            if cids and most is not None and per:
                combined.append(CombinedMax(cids, most, per, cref))
        if side and ref and name:
            out.append(RgChart(side, ref, name, tuple(rows), columns, notes, tuple(combined)))
    c.unique(chart_sides, "RG chart side")
    return tuple(out)


def _rg_effects(c: Checker, value: object, path: str) -> dict[str, int]:
    """``effects: [{san: 1}]`` — what buying the RG changes (RR M2 "SAN Increase +1"); each entry one track and amount."""
    out: dict[str, int] = {}
    for i, item in enumerate(c.seq(value, path)):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, (), RG_EFFECTS)
        if m is None:
            continue
        if len(m) != 1:
            c.error(p, "an effect names one track and its change", ", ".join(RG_EFFECTS))
            continue
        for name, raw in m.items():
            amount = c.integer(raw, f"{p}.{name}")
            if amount is not None:
                out[name] = out.get(name, 0) + amount
    return out
