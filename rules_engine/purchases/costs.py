"""What an order costs: an RG with its set-up mode (RR note o, PL 2.34, ER CG7), Pre-Registered hexes and extra points
(RR notes p and r), the Attack Option (PL 2.4) and points bought with another currency (PL 2.38, PHD C5.35)."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from rules_engine.errors import UnknownNameError
from rules_engine.fortification_purchase import Violation
from rules_engine.ledger import SETUP_MODES, to_decimal
from rules_engine.model import RgChart, RgRow, SetupMode, SpecialRule, System
from rules_engine.purchases.lookups import (
    lost_violation,
    matches_rule_row,
    params_list,
    purchase_ref,
    row_label,
    setting_ref,
    side_setting,
)
from rules_engine.purchases.orders import RgOrder
from rules_engine.system_memo import SystemMemo, small_key
from rules_engine.vocabulary import SideId


def _reserve_rules(system: System) -> tuple[SpecialRule, ...]:
    """The special rules that govern In Reserve set-up (ER CG7a, KGP CG7a; KGP CG7c "U.S. RG cannot be set up in
    Reserve": ``params.reserve_allowed: false``)."""
    return tuple(r for r in system.special_rules
                 if r.params and ("reserve" in r.id or "reserve_allowed" in r.params))


def _setup_rule_value(system: System, key: str) -> tuple[int, str] | None:
    """An enforced special rule's per-RG set-up amount (ER CG7: on_map +1, reserve −1)."""
    for rule in system.special_rules:
        value = rule.params.get(key)
        if rule.enforced and isinstance(value, int) and not isinstance(value, bool):
            return value, rule.ref
    return None


def _mode_refused(system: System, chart: RgChart, row: RgRow, mode: str) -> Violation | None:
    """ER CG7: the ±1 CPP set-up applies to RU that set up; an RG a special rule names (CG12 OBA, CG15 Bombardment,
    CG18 FPF Barrage: ``params.setup_modes``) or one that buys points (a Fortification row giving FPP) has no
    on-map/In Reserve set-up."""
    words = {"on-map": "on-map", "reserve": "In Reserve"}
    for rule in system.special_rules:
        allowed = params_list(rule.params.get("setup_modes"))
        if allowed and mode not in allowed and matches_rule_row(rule, chart, row):
            return Violation(rule.ref, f"{row_label(row)}: {rule.name} is not set up {words.get(mode, mode)} "
                                       f"(allowed: {', '.join(allowed)}) ({rule.ref})")
    if row.gives:
        for rule in system.special_rules:
            if rule.enforced and rule.params.get("applies_to") == "units":
                given = ", ".join(row.gives)
                return Violation(rule.ref, f"{row_label(row)} buys {given}, not a unit: it is not set up "
                                           f"{words.get(mode, mode)} and {rule.name} does not apply (allowed: entry) "
                                           f"({rule.ref})")
    return None


Modifier = tuple[Decimal, list[Violation]]
"""A set-up cost modifier, or the violations that forbid the set-up mode (then the modifier is 0)."""


def _setup_modifier(system: System, chart: RgChart, side: SideId, row: RgRow, mode: str) -> Modifier:
    """The set-up cost modifier of an RG (RR note o, PL 2.34, ER CG7), or the violations that forbid the mode."""
    sc = system.setup_costs
    ref = sc.ref if sc is not None else chart.ref
    modes = {m.mode: m for m in sc.modes} if sc is not None else {}
    if mode not in SETUP_MODES:
        return Decimal(0), [Violation(ref, f"{row_label(row)}: unknown set-up mode {mode!r} "
                                           f"(allowed: {', '.join(SETUP_MODES)}) ({ref})")]
    if mode == "entry":
        return _entry_modifier(row, modes, ref)
    refused = _mode_refused(system, chart, row, mode)
    if refused is not None:
        return Decimal(0), [refused]
    if mode == "on-map":
        return _on_map_modifier(system, chart, side, row, modes, ref)
    return _reserve_modifier(system, side, row, modes, ref)


def _entry_modifier(row: RgRow, modes: Mapping[str, SetupMode], ref: str) -> Modifier:
    """PL 2.34 / PHD C5.32: the entry set-up cost of the RG's type, if the table gives one."""
    cell = modes["entry"].by_type.get(row.type) if "entry" in modes else None
    if cell is None:
        return Decimal(0), []
    if cell.missing:
        return Decimal(0), [lost_violation(f"the entry set-up cost of {row.type}-type RG", cell, ref)]
    return to_decimal(cell.number), []


def _on_map_modifier(
    system: System, chart: RgChart, side: SideId, row: RgRow, modes: Mapping[str, SetupMode], ref: str
) -> Modifier:
    """On-map set-up: never for the RG RR 2.5184 names; else the note's surcharge (RR note o), the table's cost
    (PL 2.34), or the special rule's amount (ER CG7 +1)."""
    sc = system.setup_costs
    if sc is not None and f"{side}:{row.id}" in sc.never_on_map:
        return Decimal(0), [Violation(ref, f"{row_label(row)} may not set up on board ({ref})")]
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and note.on_map_surcharge is not None:
            amount = note.on_map_surcharge
            if row.company and note.on_map_surcharge_company is not None:
                amount = note.on_map_surcharge_company
            return Decimal(amount), []
    if "on-map" in modes and row.type in modes["on-map"].by_type:
        cell = modes["on-map"].by_type[row.type]
        mref = modes["on-map"].ref or ref
        if cell.missing:
            return Decimal(0), [lost_violation(f"the on-map set-up cost of {row.type}-type RG", cell, mref)]
        return to_decimal(cell.number), []
    rule_value = _setup_rule_value(system, "on_map")
    if rule_value is not None:
        return Decimal(rule_value[0]), []
    return Decimal(0), []


def _reserve_refusals(
    system: System, side: SideId, row: RgRow, rules: tuple[SpecialRule, ...], ref: str
) -> list[Violation]:
    """Why an RG may not be bought In Reserve: the CG allows none, a side never (KGP CG7c), only some types may."""
    problems: list[Violation] = []
    allowed = side_setting(system, "reserves_allowed", side)
    if allowed is False:
        setting_ref = next((s.ref for s in system.settings if s.id == "reserves_allowed"), None) or ref
        problems.append(Violation(setting_ref, f"{row_label(row)}: this CG does not allow Reserves ({setting_ref})"))
    for rule in rules:
        rule_side = rule.params.get("side")
        if rule_side is not None and rule_side != side:
            continue
        if rule.params.get("reserve_allowed") is False:
            problems.append(Violation(rule.ref, f"{row_label(row)}: {system.side(side).name} RG cannot be set up "
                                                f"in Reserve ({rule.ref})"))
            continue
        types = params_list(rule.params.get("types")) or params_list(rule.params.get("rg_id_prefixes"))
        if types and row.type not in types:
            problems.append(Violation(rule.ref, f"{row_label(row)}: only RG whose ID begins with "
                                                f"{', '.join(types)} may be bought In Reserve ({rule.ref})"))
    return problems


def _reserve_modifier(system: System, side: SideId, row: RgRow, modes: Mapping[str, SetupMode], ref: str) -> Modifier:
    """In Reserve set-up (ER/KGP CG7a, PHD C5.32): allowed only where the data knows it; the table's cost or the
    special rule's amount (ER CG7 −1)."""
    rules = _reserve_rules(system)
    known = bool(rules) or "reserve" in modes or _setup_rule_value(system, "reserve") is not None
    problems = _reserve_refusals(system, side, row, rules, ref)
    if not known:
        return Decimal(0), [Violation(ref, f"{row_label(row)}: {system.id} has no In Reserve set-up "
                                           f"(allowed: entry, on-map) ({ref})")]
    if problems:
        return Decimal(0), problems
    if "reserve" in modes:
        rmode = modes["reserve"]
        cell = rmode.by_type.get(row.type)
        mref = rmode.ref or ref
        if cell is None:
            return Decimal(0), [Violation(mref, f"{row_label(row)}: the set-up cost table has no In Reserve "
                                                f"row for {row.type}-type RG ({ref})")]
        if cell.missing:
            return Decimal(0), [lost_violation(f"the In Reserve set-up cost of {row.type}-type RG", cell, mref)]
        return to_decimal(cell.number), []
    rule_value = _setup_rule_value(system, "reserve")
    return (Decimal(rule_value[0]) if rule_value else Decimal(0)), []


Cost = tuple[Decimal | None, tuple[Violation, ...]]
"""What an RG order costs (None when the cost is lost or the RG unknown) and the rules it breaks on the way."""


def rg_order_cost(system: System, side: SideId, order: RgOrder) -> Cost:
    """The points an RG order costs: chart cost + set-up modifier (never below the minimum) + Pre-Reg. hexes + extra."""
    side_, rg_id, mode, pre, extra = side, order.rg_id, order.setup_mode, order.pre_registered, order.extra
    if type(side_) is str and type(rg_id) is str and type(mode) is str and type(pre) is int and type(extra) is int:
        return _COSTS(system, (side_, rg_id, mode, pre, extra))  # exact types: an equal key is the same order
    return _order_cost(system, side, order)


def _cost_of(system: System, key: tuple[str, str, str, int, int]) -> Cost:
    side, rg_id, mode, pre, extra = key
    return _order_cost(system, side, RgOrder(rg_id, setup_mode=mode, pre_registered=pre, extra=extra))


# per System and order: the cost reads only the (frozen) System and these five values; a key a player made large is not kept
_COSTS = SystemMemo(_cost_of, bound=4096, keep=small_key).lookup


def _order_cost(system: System, side: SideId, order: RgOrder) -> Cost:
    """``rg_order_cost`` computed (it reads the order's RG, set-up mode, Pre-Registered hexes and extra only)."""
    try:
        chart = system.rg_chart(side)
        row = chart.row(order.rg_id)
    except UnknownNameError as error:
        ref = purchase_ref(system)
        return None, (Violation(ref, f"{error} ({ref})"),)
    ref = chart.ref
    violations: list[Violation] = []
    cost: Decimal | None = None
    if row.cost.missing:
        violations.append(lost_violation(f"the cost of {row_label(row)}", row.cost, ref))
    else:
        cost = to_decimal(row.cost.number)
    modifier, problems = _setup_modifier(system, chart, side, row, order.setup_mode)
    violations.extend(problems)
    pre_note = next((chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].pre_registered), None)
    extra_note = next((chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].extra_max is not None),
                      None)
    extra_cost = Decimal(0)
    if not isinstance(order.pre_registered, int) or order.pre_registered < 0:
        violations.append(Violation(ref, f"{row_label(row)}: Pre-Registered hexes must be a whole number ≥ 0 ({ref})"))
    elif order.pre_registered:
        if pre_note is None or pre_note.pre_registered is None:
            violations.append(Violation(ref, f"{row_label(row)}: Pre-Registered hexes are bought only with an OBA "
                                             f"module whose note allows them ({ref})"))
        else:
            pre = pre_note.pre_registered
            if order.pre_registered > pre.max:
                violations.append(Violation(ref, f"{row_label(row)}: no module may have more than {pre.max} "
                                                 f"Pre-Registered hexes; {order.pre_registered} ordered ({ref} note p)"))
            extra_cost += Decimal(pre.cost * order.pre_registered)
    if not isinstance(order.extra, int) or order.extra < 0:
        violations.append(Violation(ref, f"{row_label(row)}: extra points must be a whole number ≥ 0 ({ref})"))
    elif order.extra:
        if extra_note is None or extra_note.extra_max is None:
            violations.append(Violation(ref, f"{row_label(row)}: extra points may be spent only where the RG note "
                                             f"allows it ({ref})"))
        else:
            if order.extra > extra_note.extra_max:
                violations.append(Violation(ref, f"{row_label(row)}: at most {extra_note.extra_max} extra points "
                                                 f"(x ≤ {extra_note.extra_max}); {order.extra} ordered ({ref} note r)"))
            extra_cost += Decimal(order.extra)
    if cost is None:
        return None, tuple(violations)
    total = cost + modifier
    minimum = system.setup_costs.minimum if system.setup_costs is not None else None
    if modifier and minimum is not None and total < minimum:
        total = Decimal(minimum)
    return total + extra_cost, tuple(violations)


def attack_cost(system: System, side: SideId) -> tuple[Decimal | None, list[Violation]]:
    """PL 2.4 Attack Option: bought only where initiative is purchased; its cost is on the CG Card."""
    initiative = system.initiative
    ref = initiative.ref if initiative is not None else ""
    if initiative is None or initiative.mode != "purchase":
        how = f"chosen with a chit ({ref})" if initiative is not None else "not part of this system's data"
        return None, [Violation(ref, f"the Attack Option is not bought in {system.id}: initiative is {how}")]
    cost = side_setting(system, "attack_option_cost", side)
    sref = setting_ref(system, "attack_option_cost", ref)
    if not isinstance(cost, int) or isinstance(cost, bool):
        return None, [Violation(sref, f"the Attack Option cost is on the CG Card; supply attack_option_cost for "
                                      f"{system.side(side).name} in a CG Card ({sref})")]
    return Decimal(cost), []


def points_price(system: System, side: SideId, code: str) -> int | None:
    """The price of one point of a currency bought with another (setting ``<code>_price``: PL 2.38, PHD C5.35)."""
    price = side_setting(system, f"{code.casefold()}_price", side)
    return price if isinstance(price, int) and not isinstance(price, bool) else None
