"""Currencies, the calendar and the Map Groups in play (KGP 8.2)."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context, item_label
from rules_engine.model import BoughtWith, CalendarEntry, Cell, Currency, MapGroup, SpecialRule
from rules_engine.vocabulary import SideId


def read_currencies(c: Checker, value: object, path: str, ctx: Context) -> tuple[Currency, ...]:
    """``currencies``: each code once; ``forfeit_at_step`` names a step, ``bought_with`` a currency."""
    items = c.seq(value, path)
    ctx.currency_codes = tuple(
        str(item["code"]) for item in items if isinstance(item, dict) and isinstance(item.get("code"), str)
    )
    out = []
    codes = []
    for i, item in enumerate(items):
        p = f"{path}{item_label(item, i, 'code')}"
        m = c.mapping(item, p, ("code", "name"), ("carry_over", "ref", "forfeit_at_step", "bought_with", "note"))
        if m is None or "code" not in m or "name" not in m:
            continue
        code = c.text(m["code"], f"{p}.code")
        name = c.text(m["name"], f"{p}.name")
        carry = c.boolean(m["carry_over"], f"{p}.carry_over") if "carry_over" in m else True
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        forfeit = c.ref(m["forfeit_at_step"], f"{p}.forfeit_at_step", ctx.step_refs, "step") if "forfeit_at_step" in m else None
        bought = None
        if "bought_with" in m:
            bm = c.mapping(m["bought_with"], f"{p}.bought_with", ("currency",), ("via",))
            if bm is not None and "currency" in bm:
                cur = c.ref(bm["currency"], f"{p}.bought_with.currency", ctx.currency_codes, "currency")
                via = c.text(bm["via"], f"{p}.bought_with.via") if "via" in bm else None
                if cur:
                    bought = BoughtWith(cur, via)
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if code:
            codes.append((f"{p}.code", code))
        if code and name:
            out.append(Currency(code, name, bool(carry), ref, forfeit, bought, note))
    c.unique(codes, "currency code")
    return tuple(out)


def read_calendar(c: Checker, value: object, path: str, ctx: Context) -> tuple[CalendarEntry, ...]:
    """``calendar``: the CG Dates in order, each with its base numbers per side and printed values."""
    out: list[CalendarEntry] = []
    ids = []
    for p, m in c.entries(
        value,
        path,
        ("id",),
        ("name", "date", "time", "night", "initial", "replenishment_roll", "base_numbers", "ec", "weather",
         "moon", "wind", "note", "map_groups"),
        label="id",
    ):
        ident = c.text(m["id"], f"{p}.id", numbers=True)
        texts = {k: c.text(m[k], f"{p}.{k}", numbers=True) if k in m else None for k in ("name", "date", "time", "note")}
        flags = {k: c.boolean(m[k], f"{p}.{k}") if k in m else None for k in ("night", "initial", "replenishment_roll")}
        base: dict[SideId, Cell] = (
            c.keyed_cells(m["base_numbers"], f"{p}.base_numbers", ctx.side_ids, "side", "side ids to numbers")
            if "base_numbers" in m else {}
        )
        printed = {k: c.cell(m[k], f"{p}.{k}") if k in m else None for k in ("ec", "weather", "moon", "wind")}
        groups = read_map_group_refs(c, m["map_groups"], f"{p}.map_groups", ctx) if "map_groups" in m else ()
        if ident:
            ids.append((f"{p}.id", ident))
            out.append(
                CalendarEntry(
                    ident, len(out), texts["name"], texts["date"], texts["time"], bool(flags["night"]),
                    bool(flags["initial"]), flags["replenishment_roll"] is not False, base,
                    printed["ec"], printed["weather"], printed["moon"], printed["wind"], texts["note"], groups,
                )
            )
    c.unique(ids, "calendar entry id")
    ctx.calendar_ids = tuple(entry.id for entry in out)
    return tuple(out)


def read_map_groups(c: Checker, rules: tuple[SpecialRule, ...]) -> tuple[MapGroup, ...]:
    """KGP 8.2 Map Groups: the ``map_groups`` param of a special rule, each ``{id, sections}`` (``name`` optional)."""
    declaring = [rule for rule in rules if "map_groups" in rule.params]
    for rule in declaring[1:]:
        c.error(f"special_rules[{rule.id}].params.map_groups",
                f"Map Groups are already declared by special rule {declaring[0].id!r}; declare them once")
    if not declaring:
        return ()
    rule = declaring[0]
    path = f"special_rules[{rule.id}].params.map_groups"
    out: list[MapGroup] = []
    ids: list[tuple[str, str]] = []
    for p, m in c.entries(rule.params["map_groups"], path, ("id", "sections"), ("name",), label="id"):
        ident = c.text(m["id"], f"{p}.id", numbers=True)
        sections = c.integer(m["sections"], f"{p}.sections", minimum=1)
        name = c.text(m["name"], f"{p}.name") if "name" in m else None
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and sections is not None:
            out.append(MapGroup(ident, sections, name, rule.ref))
    if rule.params["map_groups"] == []:
        c.error(path, "an empty list; a system with Map Groups declares at least one")
    c.unique(ids, "Map Group id")
    return tuple(out)


def read_map_group_refs(c: Checker, value: object, path: str, ctx: Context) -> tuple[str, ...]:
    """A list of Map Group ids (KGP 8.2) in play: each declared, none twice, at least one."""
    if not ctx.map_groups:
        c.error(path, "this system declares no Map Groups (a special rule's params.map_groups); leave it out",
                "no Map Groups in this system")
        return ()
    allowed = ", ".join(ctx.map_group_ids)
    if isinstance(value, list) and not value:
        c.error(path, "an empty list; name at least one Map Group in play", allowed)
        return ()
    out: list[str] = []
    for i, text in enumerate(c.texts(value, path)):
        if text not in ctx.map_group_ids:
            c.error(f"{path}[{i}]", f"unknown Map Group {text!r}", allowed)
        elif text in out:
            c.error(f"{path}[{i}]", f"Map Group {text!r} is named twice (one CG scenario per Map Group per CG Date, "
                    "KGP 8.2)", allowed)
        else:
            out.append(text)
    return tuple(out)
