"""What the scenario and the CG end read: scenario rolls, the initial OB, the CG Victory Conditions."""
from __future__ import annotations

from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.tables import read_modifiers
from rules_engine.loader.words import THRESHOLD_OPS, VICTORY_VALUE_LIMIT
from rules_engine.model import (
    InitialOb,
    ObGroup,
    ScenarioRoll,
    SideOb,
    SpecialRule,
    Step,
    Threshold,
    VictoryCondition,
    VictoryConditions,
)
from rules_engine.vocabulary import VICTORY_MEASURES, VICTORY_OPS, DiceKind, SideId


def read_scenario_rolls(
    c: Checker, value: object, path: str, ctx: Context, steps: tuple[Step, ...], rules: tuple[SpecialRule, ...]
) -> tuple[ScenarioRoll, ...]:
    """``scenario_rolls``: the public rolls made during the scenario, each with a typed threshold or a table."""
    out = []
    ids = []
    in_scenario = tuple(s.ref for s in steps if s.in_scenario)
    for p, m in c.entries(
        value, path, ("id", "ref", "name", "dice", "roller", "when"),
        ("threshold", "outcomes", "table", "modifiers", "sides", "from_turn", "night_only", "step", "rule", "note",
         "roller_role", "requires_rg", "not_in_initial_scenario"),
        label="id",
    ):
        ident = c.ident(m["id"], f"{p}.id", "scenario roll id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        dice = c.choice(m["dice"], f"{p}.dice", [k.value for k in DiceKind])
        roller = c.text(m["roller"], f"{p}.roller")
        when = c.text(m["when"], f"{p}.when")
        threshold = None
        if "threshold" in m:
            tm = c.mapping(m["threshold"], f"{p}.threshold", ("op", "label"), ("as_written", "interpreted", "verify"))
            if tm is not None and "op" in tm and "label" in tm:
                op = c.choice(tm["op"], f"{p}.threshold.op", THRESHOLD_OPS)
                label = c.text(tm["label"], f"{p}.threshold.label")
                written = c.text(tm["as_written"], f"{p}.threshold.as_written") if "as_written" in tm else None
                interp = c.text(tm["interpreted"], f"{p}.threshold.interpreted") if "interpreted" in tm else None
                verify = c.boolean(tm["verify"], f"{p}.threshold.verify") if "verify" in tm else False
                if op and label:
                    threshold = Threshold(op, label, written, interp, bool(verify))
        outcomes: tuple[str, str] = ("", "")
        if "outcomes" in m:
            om = c.mapping(m["outcomes"], f"{p}.outcomes", ("met", "not_met"))
            if om is not None and len(om) == 2:
                met, not_met = c.text(om["met"], f"{p}.outcomes.met"), c.text(om["not_met"], f"{p}.outcomes.not_met")
                outcomes = (met or "", not_met or "")
        table = c.ref(m["table"], f"{p}.table", ctx.tables, "table") if "table" in m else None
        if ("threshold" in m) == ("table" in m):
            c.error(p, "a scenario roll compares with a typed `threshold:` or rolls on a `table:` (one of the two)")
        if "threshold" in m and "outcomes" not in m:
            c.error(p, "a roll with a `threshold:` says its two `outcomes:` (met, not_met)")
        if table is not None and dice and ctx.tables[table].dice.value != dice:
            c.error(f"{p}.dice", f"table {table!r} is rolled with a {ctx.tables[table].dice.value}")
        modifiers = read_modifiers(c, m["modifiers"], f"{p}.modifiers", ctx, ()) if "modifiers" in m else ()
        if table is not None and modifiers:
            c.error(f"{p}.modifiers", "a roll on a table takes the table's own modifiers")
        for j, modifier in enumerate(modifiers):
            if modifier.per is not None or modifier.ask in ("count",):
                c.error(f"{p}.modifiers[{j}]", "a scenario roll's modifier is a fact (`when:`/`unless:`), "
                        "a tick (`ask: tick`), a typed value (`ask: value`) or always applied")
        sides = c.refs(m["sides"], f"{p}.sides", ctx.side_ids, "side") if "sides" in m else ()
        from_turn = c.integer(m["from_turn"], f"{p}.from_turn", minimum=1) if "from_turn" in m else None
        night_only = bool(c.boolean(m["night_only"], f"{p}.night_only")) if "night_only" in m else False
        step = c.ref(m["step"], f"{p}.step", in_scenario, "step played during the scenario (`in_scenario: true`)") \
            if "step" in m else None
        rule = c.ref(m["rule"], f"{p}.rule", tuple(r.id for r in rules), "special rule") if "rule" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        role = c.choice(m["roller_role"], f"{p}.roller_role", ("attacker", "defender")) if "roller_role" in m else None
        requires_rg = bool(c.boolean(m["requires_rg"], f"{p}.requires_rg")) if "requires_rg" in m else False
        if requires_rg and rule is None:
            c.error(f"{p}.requires_rg", "a roll that needs an RG bought names the special rule of that RG (`rule:`)")
        not_initial = (c.text(m["not_in_initial_scenario"], f"{p}.not_in_initial_scenario")
                       if "not_in_initial_scenario" in m else None)
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and ref and name and dice and roller and when and (threshold is not None or table is not None):
            out.append(ScenarioRoll(ident, ref, name, DiceKind(dice), roller, when, outcomes, threshold, table,
                                    modifiers, sides, from_turn, night_only, step, rule, note, role, requires_rg,
                                    not_initial))
    c.unique(ids, "scenario roll id")
    return tuple(out)


def read_initial_ob(c: Checker, value: object, path: str, ctx: Context) -> InitialOb | None:
    """``initial_ob``: per side ``points`` {currency: n}, ``rg`` [{id | group_type, count}], ``elr``, ``san``, ``text``."""
    m = c.mapping(value, path, ("ref", "sides"), ("note",))
    if m is None or "ref" not in m or "sides" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    raw_sides = m["sides"]
    sides: dict[SideId, SideOb] = {}
    if not isinstance(raw_sides, dict):
        c.error(f"{path}.sides", f"expected a mapping of side ids, got {kind_of(raw_sides)}", ", ".join(ctx.side_ids))
        raw_sides = {}
    for key, raw in raw_sides.items():
        name = str(key)
        p = f"{path}.sides.{name}"
        if name not in ctx.side_ids:
            c.error(p, f"unknown side {name!r}", ", ".join(ctx.side_ids))
            continue
        sm = c.mapping(raw, p, (), ("points", "rg", "elr", "san", "text"))
        if sm is None:
            continue
        points: dict[str, int] = {}
        if "points" in sm:
            raw_points = sm["points"]
            if not isinstance(raw_points, dict):
                c.error(f"{p}.points", f"expected a mapping of currency codes to numbers, got {kind_of(raw_points)}",
                        ", ".join(ctx.currency_codes) or "no currency is defined")
            else:
                for code, amount in raw_points.items():
                    cp = f"{p}.points.{code}"
                    if str(code) not in ctx.currency_codes:
                        c.error(cp, f"unknown currency {code!r}", ", ".join(ctx.currency_codes) or "no currency is defined")
                        continue
                    number = c.integer(amount, cp, minimum=0)
                    if number is not None:
                        points[str(code)] = number
        groups: list[ObGroup] = []
        for gp, gm in c.entries(sm.get("rg", []), f"{p}.rg", ("count",), ("id", "group_type")):
            if "id" not in gm and "group_type" not in gm:
                c.error(gp, "an OB-given RG needs its chart id or its group type", "id, group_type")
                continue
            count = c.integer(gm["count"], f"{gp}.count", minimum=1)
            rg_id = c.text(gm["id"], f"{gp}.id", numbers=True) if "id" in gm else None
            group = c.text(gm["group_type"], f"{gp}.group_type", numbers=True) if "group_type" in gm else None
            if count is not None and (rg_id or group):
                groups.append(ObGroup(count, rg_id, group))
        elr = c.integer(sm["elr"], f"{p}.elr", minimum=0, maximum=5) if "elr" in sm else None  # an ELR: 0 to 5
        san = c.integer(sm["san"], f"{p}.san", minimum=0, maximum=12) if "san" in sm else None  # matched by a DR
        text = c.text(sm["text"], f"{p}.text") if "text" in sm else None
        sides[name] = SideOb(name, points, tuple(groups), elr, san, text)
    return InitialOb(ref, sides, note) if ref else None


def read_victory_conditions(c: Checker, value: object, path: str, ctx: Context) -> VictoryConditions | None:
    """``victory_conditions``: the CG Victory Conditions as printed (``text``), optional checkable ``conditions`` tried
    in order, and the victor ``otherwise`` (docs/cg-format.md)."""
    m = c.mapping(value, path, ("text",), ("ref", "conditions", "otherwise"))
    if m is None or "text" not in m:
        return None
    text = c.text(m["text"], f"{path}.text")
    ref = c.text(m["ref"], f"{path}.ref", numbers=True) if "ref" in m else "CG Card"
    sides = ", ".join(ctx.side_ids)
    conditions: list[VictoryCondition] = []
    for p, cm in c.entries(m.get("conditions", []), f"{path}.conditions", ("side", "measure", "op", "value")):
        side = c.choice(cm["side"], f"{p}.side", ctx.side_ids) if ctx.side_ids else None
        measure = c.choice(cm["measure"], f"{p}.measure", VICTORY_MEASURES)
        op = c.choice(cm["op"], f"{p}.op", VICTORY_OPS)
        number = c.integer(cm["value"], f"{p}.value", minimum=-VICTORY_VALUE_LIMIT)
        if number is not None and number > VICTORY_VALUE_LIMIT:
            c.error(f"{p}.value", f"{number} is above the maximum",
                    f"a whole number from {-VICTORY_VALUE_LIMIT} to {VICTORY_VALUE_LIMIT}")
            number = None
        if side and measure and op and number is not None:
            conditions.append(VictoryCondition(side, measure, op, number))
    otherwise = None
    if "otherwise" in m:
        otherwise = c.choice(m["otherwise"], f"{path}.otherwise", ctx.side_ids) if ctx.side_ids else None
        if otherwise is None and not ctx.side_ids:
            c.error(f"{path}.otherwise", "no sides are defined", sides or "none")
    if text is None or ref is None:
        return None
    return VictoryConditions(text, ref, tuple(conditions), otherwise)
