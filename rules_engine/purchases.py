"""Secret purchases: RG (RR 2.518, PL 2.3, PHD C5.31), Attack Option (PL 2.4), Patrols (PL 2.31), points, fortifications.

``validate_order`` lists every broken rule (each message cites it); ``apply_order`` records a valid order. All limits,
costs and surcharges come from the system's data (RG charts and notes, setup costs, limits, settings, special rules).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TypeAlias

from rules_engine.errors import MissingValueError, SubmissionError, UnknownNameError
from rules_engine.fortification_purchase import (
    FortOrder,
    Violation,
    apply_fortifications,
    validate_fortifications,
)
from rules_engine.ledger import (
    SETUP_MODES,
    ItemLine,
    PurchaseLine,
    RosterLine,
    SideLedger,
    amount_text,
    to_decimal,
)
from rules_engine.model import Cell, ObGroup, RgChart, RgRow, SettingValue, SpecialRule, Step, System
from rules_engine.vocabulary import Chit, SideId

__all__ = [
    "AttackOptionOrder", "FortOrder", "Order", "PatrolOrder", "PointsOrder", "RgOrder", "Violation",
    "PatrolAllowance", "apply_order", "patrol_allowance", "purchase_currency", "record_initial_ob", "rg_order_cost", "side_setting", "validate_order",
]


@dataclass(frozen=True)
class RgOrder:
    """Buy one RG: set-up mode (entry | on-map | reserve), Pre-Registered hexes (note p), extra CPP (note r)."""

    rg_id: str
    setup_mode: str = "entry"
    pre_registered: int = 0
    extra: int = 0
    setup_area: str | None = None
    objective_hex: str | None = None  # KGP 8.2/8.6198: the hex an "I"/"HW" RG lets its side secretly designate


OBJECTIVE_HEX_MAX = 40  # characters of a designated Objective Hex ("12K4", "St/EE23")


def objective_hex_prefixes(system: System) -> tuple[tuple[str, ...], str] | None:
    """KGP 8.2 Objective Hex: the RG ID prefixes that allow a designation and the rule's ref (None: no such rule)."""
    for rule in system.special_rules:
        prefixes = rule.params.get("rg_id_prefixes")
        if rule.params.get("results_field") == "objective_hexes" and isinstance(prefixes, list):
            return tuple(str(p) for p in prefixes), str(rule.ref)
    return None


def _check_objective_hex(system: System, order: RgOrder) -> list[Violation]:
    """8.2: only an RG whose ID begins with an "I" or "HW" allows a designation; the hex is short plain text."""
    if order.objective_hex is None:
        return []
    found = objective_hex_prefixes(system)
    if found is None:
        return [Violation("RG", f"RG {order.rg_id}: this CG has no Objective Hexes to designate")]
    prefixes, ref = found
    if not order.rg_id.startswith(prefixes):
        return [Violation(ref, f"RG {order.rg_id}: only an RG whose ID begins with {' or '.join(prefixes)} allows an "
                               f"Objective Hex ({ref})")]
    if len(order.objective_hex) > OBJECTIVE_HEX_MAX:
        return [Violation(ref, f"RG {order.rg_id}: the Objective Hex is {len(order.objective_hex)} characters long; at "
                               f"most {OBJECTIVE_HEX_MAX} are allowed")]
    return []


@dataclass(frozen=True)
class AttackOptionOrder:
    """Buy the Attack Option for this firefight (PL 2.4; its cost is on the CG Card)."""


@dataclass(frozen=True)
class PatrolOrder:
    """Buy Patrols (PL 2.31: one CP each unless the CG Card says otherwise)."""

    count: int = 1


@dataclass(frozen=True)
class PointsOrder:
    """Buy points of one currency with another (FP with CP, PL 2.38; DSP with TP, PHD C5.35)."""

    currency: str
    amount: int


Order: TypeAlias = RgOrder | FortOrder | AttackOptionOrder | PatrolOrder | PointsOrder


# ---------------------------------------------------------------------------------------------------------------------
# Data look-ups
# ---------------------------------------------------------------------------------------------------------------------


def _purchase_step_params(system: System) -> tuple[str, Mapping[str, object]]:
    for step in system.steps:
        if step.secret == "purchase" and step.action in ("purchase-rg", "purchase"):
            return step.ref, step.params
    return "", {}


def purchase_currency(system: System) -> str:
    """The currency RG are bought with (the purchase step's ``currency``; else the system's first currency)."""
    _, params = _purchase_step_params(system)
    currency = params.get("currency")
    if isinstance(currency, str):
        return currency
    if not system.currencies:
        raise UnknownNameError(f"{system.id}: no currency to buy with")
    return system.currencies[0].code


def recon_step(system: System) -> Step | None:
    """The step that buys Recon with its dr (action ``purchase-recon``: RR 2.521), if any."""
    return next((step for step in system.steps if step.action == "purchase-recon"), None)


_RECON_ROWS: dict[tuple[int, SideId], tuple[System, RgRow | None]] = {}


def recon_row(system: System, side: SideId) -> RgRow | None:
    """The side's RG row that is the Recon purchase: the row with a note allowing extra points for the Recon drm (RR M3,
    note r "May spend extra CPP (2.521)"); None without a recon step or such a row (cached per system object)."""
    found = _RECON_ROWS.get((id(system), side))
    if found is not None and found[0] is system:
        return found[1]
    row: RgRow | None = None
    if recon_step(system) is not None:
        try:
            chart = system.rg_chart(side)
        except (UnknownNameError, MissingValueError):
            chart = None
        for candidate in chart.rows if chart is not None else ():
            if any(chart.notes[n].extra_max is not None for n in candidate.notes if n in chart.notes):  # type: ignore[union-attr]
                row = candidate
                break
    if len(_RECON_ROWS) > 256:
        _RECON_ROWS.clear()
    _RECON_ROWS[(id(system), side)] = (system, row)
    return row


def purchase_ref(system: System) -> str:
    """The rule number of the RG purchase step (2.518, 2.3, C5.31)."""
    ref, _ = _purchase_step_params(system)
    return ref or (system.rg_charts[0].ref if system.rg_charts else "")


def side_setting(system: System, setting_id: str, side: SideId) -> SettingValue | None:
    """A setting's value for one side (per-side settings give that side's), else its default, else None."""
    value = system.settings_values.get(setting_id)
    if isinstance(value, Mapping):
        return value.get(side)
    if value is not None:
        return value
    for setting in system.settings:
        if setting.id == setting_id:
            return setting.default
    return None


def int_settings(system: System, side: SideId) -> dict[str, int]:
    """The whole-number settings for one side (what tables.resolve takes for CG-Card DRM)."""
    out: dict[str, int] = {}
    for key in system.settings_values:
        value = side_setting(system, key, side)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
    return out


def _has_setting(system: System, setting_id: str) -> bool:
    return any(s.id == setting_id for s in system.settings)


def _number(cell: Cell | None) -> int | None:
    if cell is None or cell.missing or cell.value is None:
        return None
    value = cell.number
    return int(value)


def _lost(what: str, cell: Cell, ref: str) -> Violation:
    return Violation(ref, f"{what} is lost in the rule text ({cell.note}); supply it in a CG Card ({ref})")


def _row_label(row: RgRow) -> str:
    return f"RG {row.id} ({row.group_type})"


def _params_list(value: object) -> tuple[str, ...]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(str(v) for v in value)
    return ()


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


def _matches_rule_row(rule: SpecialRule, chart: RgChart, row: RgRow) -> bool:
    """Whether a special rule (ER CG15/CG18) governs an RG row: by note (``special_rule: id``) or by group type."""
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and note.params.get("special_rule") == rule.id:
            return True
    wanted = _params_list(rule.params.get("group_types"))
    text = f"{row.group_type} {row.description or ''}".casefold()
    return any(w.casefold() in text for w in wanted)


def _mode_refused(system: System, chart: RgChart, row: RgRow, mode: str) -> Violation | None:
    """ER CG7: the ±1 CPP set-up applies to RU that set up; an RG a special rule names (CG12 OBA, CG15 Bombardment,
    CG18 FPF Barrage: ``params.setup_modes``) or one that buys points (a Fortification row giving FPP) has no
    on-map/In Reserve set-up."""
    words = {"on-map": "on-map", "reserve": "In Reserve"}
    for rule in system.special_rules:
        allowed = _params_list(rule.params.get("setup_modes"))
        if allowed and mode not in allowed and _matches_rule_row(rule, chart, row):
            return Violation(rule.ref, f"{_row_label(row)}: {rule.name} is not set up {words.get(mode, mode)} "
                                       f"(allowed: {', '.join(allowed)}) ({rule.ref})")
    if row.gives:
        for rule in system.special_rules:
            if rule.enforced and rule.params.get("applies_to") == "units":
                given = ", ".join(row.gives)
                return Violation(rule.ref, f"{_row_label(row)} buys {given}, not a unit: it is not set up "
                                           f"{words.get(mode, mode)} and {rule.name} does not apply (allowed: entry) "
                                           f"({rule.ref})")
    return None


def rule_rg_ids(system: System, side: SideId, rule_id: str) -> frozenset[str]:
    """The ids of the side's RG rows a special rule governs (ER CG18: the FPF Barrage rows)."""
    rule = next((r for r in system.special_rules if r.id == rule_id), None)
    try:
        chart = system.rg_chart(side)
    except UnknownNameError:
        return frozenset()
    if rule is None:
        return frozenset()
    return frozenset(row.id for row in chart.rows if _matches_rule_row(rule, chart, row))


# ---------------------------------------------------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------------------------------------------------


def _setup_modifier(system: System, chart: RgChart, side: SideId, row: RgRow, mode: str) -> tuple[Decimal, list[Violation]]:
    """The set-up cost modifier of an RG (RR note o, PL 2.34, ER CG7), or the violations that forbid the mode."""
    sc = system.setup_costs
    ref = sc.ref if sc is not None else chart.ref
    modes = {m.mode: m for m in sc.modes} if sc is not None else {}
    if mode not in SETUP_MODES:
        return Decimal(0), [Violation(ref, f"{_row_label(row)}: unknown set-up mode {mode!r} "
                                           f"(allowed: {', '.join(SETUP_MODES)}) ({ref})")]
    if mode != "entry":
        refused = _mode_refused(system, chart, row, mode)
        if refused is not None:
            return Decimal(0), [refused]
    if mode == "entry":
        cell = modes["entry"].by_type.get(row.type) if "entry" in modes else None
        if cell is None:
            return Decimal(0), []
        if cell.missing:
            return Decimal(0), [_lost(f"the entry set-up cost of {row.type}-type RG", cell, ref)]
        return to_decimal(cell.number), []
    if mode == "on-map":
        if sc is not None and f"{side}:{row.id}" in sc.never_on_map:
            return Decimal(0), [Violation(ref, f"{_row_label(row)} may not set up on board ({ref})")]
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
                return Decimal(0), [_lost(f"the on-map set-up cost of {row.type}-type RG", cell, mref)]
            return to_decimal(cell.number), []
        rule_value = _setup_rule_value(system, "on_map")
        if rule_value is not None:
            return Decimal(rule_value[0]), []
        return Decimal(0), []
    # reserve
    problems: list[Violation] = []
    allowed = side_setting(system, "reserves_allowed", side)
    if allowed is False:
        setting_ref = next((s.ref for s in system.settings if s.id == "reserves_allowed"), None) or ref
        problems.append(Violation(setting_ref, f"{_row_label(row)}: this CG does not allow Reserves ({setting_ref})"))
    rules = _reserve_rules(system)
    known = bool(rules) or "reserve" in modes or _setup_rule_value(system, "reserve") is not None
    if not known:
        return Decimal(0), [Violation(ref, f"{_row_label(row)}: {system.id} has no In Reserve set-up "
                                           f"(allowed: entry, on-map) ({ref})")]
    for rule in rules:
        rule_side = rule.params.get("side")
        if rule_side is not None and rule_side != side:
            continue
        if rule.params.get("reserve_allowed") is False:
            problems.append(Violation(rule.ref, f"{_row_label(row)}: {system.side(side).name} RG cannot be set up "
                                                f"in Reserve ({rule.ref})"))
            continue
        types = _params_list(rule.params.get("types")) or _params_list(rule.params.get("rg_id_prefixes"))
        if types and row.type not in types:
            problems.append(Violation(rule.ref, f"{_row_label(row)}: only RG whose ID begins with "
                                                f"{', '.join(types)} may be bought In Reserve ({rule.ref})"))
    if problems:
        return Decimal(0), problems
    if "reserve" in modes:
        rmode = modes["reserve"]
        cell = rmode.by_type.get(row.type)
        mref = rmode.ref or ref
        if cell is None:
            return Decimal(0), [Violation(mref, f"{_row_label(row)}: the set-up cost table has no In Reserve "
                                                f"row for {row.type}-type RG ({ref})")]
        if cell.missing:
            return Decimal(0), [_lost(f"the In Reserve set-up cost of {row.type}-type RG", cell, mref)]
        return to_decimal(cell.number), []
    rule_value = _setup_rule_value(system, "reserve")
    return (Decimal(rule_value[0]) if rule_value else Decimal(0)), []


def rg_order_cost(system: System, side: SideId, order: RgOrder) -> tuple[Decimal | None, tuple[Violation, ...]]:
    """The points an RG order costs: chart cost + set-up modifier (never below the minimum) + Pre-Reg. hexes + extra."""
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
        violations.append(_lost(f"the cost of {_row_label(row)}", row.cost, ref))
    else:
        cost = to_decimal(row.cost.number)
    modifier, problems = _setup_modifier(system, chart, side, row, order.setup_mode)
    violations.extend(problems)
    pre_note = next((chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].pre_registered), None)
    extra_note = next((chart.notes[n] for n in row.notes if n in chart.notes and chart.notes[n].extra_max is not None),
                      None)
    extra_cost = Decimal(0)
    if not isinstance(order.pre_registered, int) or order.pre_registered < 0:
        violations.append(Violation(ref, f"{_row_label(row)}: Pre-Registered hexes must be a whole number ≥ 0 ({ref})"))
    elif order.pre_registered:
        if pre_note is None or pre_note.pre_registered is None:
            violations.append(Violation(ref, f"{_row_label(row)}: Pre-Registered hexes are bought only with an OBA "
                                             f"module whose note allows them ({ref})"))
        else:
            pre = pre_note.pre_registered
            if order.pre_registered > pre.max:
                violations.append(Violation(ref, f"{_row_label(row)}: no module may have more than {pre.max} "
                                                 f"Pre-Registered hexes; {order.pre_registered} ordered ({ref} note p)"))
            extra_cost += Decimal(pre.cost * order.pre_registered)
    if not isinstance(order.extra, int) or order.extra < 0:
        violations.append(Violation(ref, f"{_row_label(row)}: extra points must be a whole number ≥ 0 ({ref})"))
    elif order.extra:
        if extra_note is None or extra_note.extra_max is None:
            violations.append(Violation(ref, f"{_row_label(row)}: extra points may be spent only where the RG note "
                                             f"allows it ({ref})"))
        else:
            if order.extra > extra_note.extra_max:
                violations.append(Violation(ref, f"{_row_label(row)}: at most {extra_note.extra_max} extra points "
                                                 f"(x ≤ {extra_note.extra_max}); {order.extra} ordered ({ref} note r)"))
            extra_cost += Decimal(order.extra)
    if cost is None:
        return None, tuple(violations)
    total = cost + modifier
    minimum = system.setup_costs.minimum if system.setup_costs is not None else None
    if modifier and minimum is not None and total < minimum:
        total = Decimal(minimum)
    return total + extra_cost, tuple(violations)


# ---------------------------------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------------------------------


@dataclass
class _Batch:
    """Running totals while a batch of orders is checked in order."""

    left: Decimal
    gives: dict[str, Decimal]
    date_counts: dict[str, int]
    cg_counts: dict[str, int]
    infantry: int = 0
    patrols: int = 0
    attack: int = 0


def _index(system: System, entry_id: str) -> int | None:
    for entry in system.calendar:
        if entry.id == entry_id:
            return entry.index
    return None


def _availability(system: System, chart: RgChart, row: RgRow, date_index: int) -> list[Violation]:
    out: list[Violation] = []
    after = row.available_after
    start = row.available_from
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and isinstance(note.params.get("available_from"), str):
            start = str(note.params["available_from"])
    if after is not None:
        idx = _index(system, after)
        if idx is not None and date_index <= idx:
            out.append(Violation(chart.ref, f"{_row_label(row)} is only available after {after} ({chart.ref})"))
    if start is not None:
        idx = _index(system, start)
        if idx is not None and date_index < idx:
            out.append(Violation(chart.ref, f"{_row_label(row)} may only be bought on/after {start} ({chart.ref})"))
    return out


def _count(ledger: SideLedger, batch: _Batch, ids: Sequence[str], date_id: str, per: str) -> int:
    if per == "date":
        return ledger.purchased_count(ids, date_id) + sum(batch.date_counts.get(i, 0) for i in ids)
    return ledger.purchased_count(ids) + sum(batch.cg_counts.get(i, 0) for i in ids)


def _check_rg(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: RgOrder, batch: _Batch,
    *, initial: bool, chit: Chit | None, currency: str, at_recon_step: bool = False,
) -> list[Violation]:
    cost, problems = rg_order_cost(system, side, order)
    violations = list(problems) + _check_objective_hex(system, order)
    found = recon_row(system, side)
    recon = recon_step(system) if found is not None and found.id == order.rg_id and not at_recon_step else None
    if recon is not None and found is not None:
        # RR note r "May spend extra CPP (2.521)" sends the Recon RG to 2.521 PURCHASING RECONNAISSANCE, which alone
        # makes the Recon dr ("Each side may now make a Recon dr, provided it first expends the required CPP"): M3 and
        # 2.521 are one purchase, so it is not bought again at 2.518.
        violations.append(Violation(recon.ref, f"{_row_label(found)} is bought at {recon.ref} {recon.name} with its "
                                               f"Recon dr, not here ({recon.ref})"))
    try:
        chart = system.rg_chart(side)
        row = chart.row(order.rg_id)
    except UnknownNameError:
        return violations
    ref = chart.ref
    entry_index = _index(system, date_id)
    if entry_index is not None:
        violations.extend(_availability(system, chart, row, entry_index))
    # maxima (2.5185, 2.5186; Initial-OB RG not counted)
    for per, cell, label in (("date", row.date_max, chart.columns.get("date_max", "Date Max")),
                             ("cg", row.cg_max, chart.columns.get("cg_max", "CG Max"))):
        if cell is None:
            continue
        if cell.missing:
            violations.append(_lost(f"the {label} of {_row_label(row)}", cell, ref))
            continue
        most = _number(cell)
        have = _count(ledger, batch, (row.id,), date_id, per)
        if most is not None and have + 1 > most:
            when = "on this date" if per == "date" else "in the CG"
            violations.append(Violation(ref, f"{_row_label(row)}: {label} is {most} and {have} "
                                             f"{'is' if have == 1 else 'are'} already bought {when} ({ref})"))
    for combined in chart.combined_max:
        if row.id not in combined.ids:
            continue
        have = _count(ledger, batch, combined.ids, date_id, combined.per)
        if have + 1 > combined.max:
            cref = f"{ref} {combined.ref}" if combined.ref else ref
            violations.append(Violation(cref, (
                f"{_row_label(row)}: at most {combined.max} RG combined from {' and '.join(combined.ids)} "
                f"{'per CG Date' if combined.per == 'date' else 'for the CG'}; {have} already bought ({cref})")))
    # initial-scenario-only RG (a note with params.initial_only)
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and note.params.get("initial_only") is True and not initial:
            violations.append(Violation(ref, f"{_row_label(row)} is only available for the Initial Scenario ({ref})"))
    # recon (2.521: not when preparing to play the Initial Scenario)
    if initial and any(chart.notes[n].extra_max is not None for n in row.notes if n in chart.notes):
        for step in system.steps:
            if step.action == "purchase-recon" and step.params.get("not_before_initial"):
                violations.append(Violation(step.ref, f"{_row_label(row)}: Recon may not be bought when preparing "
                                                      f"to play the Initial Scenario ({step.ref})"))
                break
    # chit-dependent RG (ER CG15 Bombardment with Attack, CG18 FPF Barrage with Idle)
    for rule in system.special_rules:
        needs = rule.params.get("requires_chit")
        if not isinstance(needs, str) or not _matches_rule_row(rule, chart, row):
            continue
        sides = _params_list(rule.params.get("sides"))
        if sides and side not in sides:
            violations.append(Violation(rule.ref, f"{_row_label(row)}: {rule.name} is available only to "
                                                  f"{' and '.join(system.side(s).name for s in sides)} ({rule.ref})"))
        if chit is None:
            # CG15 "when selecting an Attack Chit", CG18 "if he is selecting an Idle initiative chit for the upcoming
            # scenario": no chit is selected for the Initial Scenario, so the condition cannot be met there.
            then = ("no Initiative chit is selected for the Initial Scenario" if initial
                    else "choose your chit first")
            violations.append(Violation(rule.ref, f"{_row_label(row)}: {rule.name} may be bought only when "
                                                  f"selecting the {needs.capitalize()} chit; {then} ({rule.ref})"))
        elif str(chit) != needs:
            violations.append(Violation(rule.ref, f"{_row_label(row)}: {rule.name} may be bought only when "
                                                  f"selecting the {needs.capitalize()} chit, not {chit.capitalize()} "
                                                  f"({rule.ref})"))
    violations.extend(_module_limit(system, chart, ledger, side, date_id, row, batch, entry_index))
    # infantry platoons (PL 2.3): the limit names the RG types it counts
    for limit in system.limits:
        if limit.id != "infantry-platoons" or row.type not in limit.rg_types:
            continue
        setting = side_setting(system, "max_infantry_platoons", side)
        most = setting if isinstance(setting, int) and not isinstance(setting, bool) else _number(limit.max)
        have = sum(1 for p in ledger.purchases if p.date_id == date_id and not p.initial_ob
                   and _row_type(chart, p.rg_id) in limit.rg_types) + batch.infantry
        if most is not None and have + 1 > most:
            lref = limit.ref or ref
            violations.append(Violation(lref, f"{_row_label(row)}: a side may never purchase more than {most} "
                                              f"infantry platoons ({lref}); {have} already ordered"))
        batch.infantry += 1
    batch.date_counts[row.id] = batch.date_counts.get(row.id, 0) + 1
    batch.cg_counts[row.id] = batch.cg_counts.get(row.id, 0) + 1
    if cost is not None and not problems:
        if cost > batch.left:
            violations.append(Violation(ref, f"{_row_label(row)} costs {amount_text(cost)} {currency}; you have "
                                             f"{amount_text(batch.left)} {currency} left ({purchase_ref(system)})"))
        elif not violations:
            batch.left -= cost
            for code, cell in row.gives.items():
                if not cell.missing and cell.value is not None:
                    batch.gives[code] = batch.gives.get(code, Decimal(0)) + to_decimal(cell.number)
    return violations


def _is_module(rule: SpecialRule, chart: RgChart, side: SideId, row: RgRow) -> bool:
    """KGP CG15: an RG row counts as an OBA module (its group types) unless the rule excludes it (U.S. "O3"; a
    Bombardment RG is not a module)."""
    excluded = rule.params.get("excluded_rg")
    if isinstance(excluded, Mapping) and row.id in _params_list(excluded.get(side)):
        return False
    text = f"{row.group_type} {row.description or ''}".casefold()
    if any(w.casefold() in text for w in _params_list(rule.params.get("excluded_group_types"))):
        return False
    return _matches_rule_row(rule, chart, row)


def _module_limit(system: System, chart: RgChart, ledger: SideLedger, side: SideId, date_id: str, row: RgRow,
                  batch: _Batch, entry_index: int | None) -> list[Violation]:
    """KGP CG15 "a maximum of two … modules per Map Group per CG Date": the modules bought on this CG Date, at most
    max_modules × the Map Groups in play that date."""
    found: list[Violation] = []
    for rule in system.special_rules:
        most = rule.params.get("max_modules")
        if not rule.enforced or not isinstance(most, int) or not _is_module(rule, chart, side, row):
            continue
        groups = system.map_groups_on(entry_index) if entry_index is not None else ()
        allowed = most * max(len(groups), 1)
        key = f"module:{rule.id}"
        have = sum(1 for p in ledger.purchases if p.date_id == date_id and not p.initial_ob
                   and p.rg_id in {r.id for r in chart.rows if _is_module(rule, chart, side, r)})
        have += batch.date_counts.get(key, 0)
        batch.date_counts[key] = batch.date_counts.get(key, 0) + 1
        if have + 1 > allowed:
            where = (f"{len(groups)} Map Group{'s' if len(groups) != 1 else ''} in play ({', '.join(g.id for g in groups)})"
                     if groups else "one scenario")
            found.append(Violation(rule.ref, f"{_row_label(row)}: at most {most} OBA modules per Map Group per CG "
                                             f"Date — {allowed} on {date_id} with {where}; {have} already bought "
                                             f"({rule.ref})"))
    return found


def _row_type(chart: RgChart, rg_id: str) -> str | None:
    for row in chart.rows:
        if row.id == rg_id:
            return row.type
    return None


def _setting_ref(system: System, setting_id: str, fallback: str) -> str:
    return next((s.ref for s in system.settings if s.id == setting_id and s.ref), None) or fallback


def _attack_cost(system: System, side: SideId) -> tuple[Decimal | None, list[Violation]]:
    initiative = system.initiative
    ref = initiative.ref if initiative is not None else ""
    if initiative is None or initiative.mode != "purchase":
        how = f"chosen with a chit ({ref})" if initiative is not None else "not part of this system's data"
        return None, [Violation(ref, f"the Attack Option is not bought in {system.id}: initiative is {how}")]
    cost = side_setting(system, "attack_option_cost", side)
    sref = _setting_ref(system, "attack_option_cost", ref)
    if not isinstance(cost, int) or isinstance(cost, bool):
        return None, [Violation(sref, f"the Attack Option cost is on the CG Card; supply attack_option_cost for "
                                      f"{system.side(side).name} in a CG Card ({sref})")]
    return Decimal(cost), []


def validate_order(
    system: System,
    ledger: SideLedger,
    side: SideId,
    date_id: str,
    orders: Sequence[Order],
    *,
    initial: bool,
    chit: Chit | None = None,
    at_recon_step: bool = False,
) -> tuple[Violation, ...]:
    """Every rule the orders break, each with its own message citing the rule (empty: the order may be applied).
    ``at_recon_step``: the order is the Recon purchase of the recon step (RR 2.521 buys RG M3, see ``recon_row``)."""
    ref = purchase_ref(system)
    violations: list[Violation] = []
    try:
        system.side(side)
    except UnknownNameError as error:
        return (Violation(ref, str(error)),)
    if ledger.side != side:
        return (Violation(ref, f"this ledger belongs to {ledger.side!r}, not {side!r}"),)
    try:
        system.calendar_entry(date_id)
    except UnknownNameError as error:
        violations.append(Violation(ref, str(error)))
    currency = purchase_currency(system)
    batch = _Batch(ledger.balance(currency), {}, {}, {})
    forts: list[FortOrder] = []
    for order in orders:
        if isinstance(order, RgOrder):
            violations.extend(_check_rg(system, ledger, side, date_id, order, batch,
                                        initial=initial, chit=chit, currency=currency, at_recon_step=at_recon_step))
        elif isinstance(order, FortOrder):
            forts.append(order)
        elif isinstance(order, AttackOptionOrder):
            cost, problems = _attack_cost(system, side)
            violations.extend(problems)
            aref = system.initiative.ref if system.initiative else ref
            if initial and not problems:
                # 1.4 Attack Option "[EXC: Dual Attack; Attacker assigned for Initial Firefight.]"; 2.4 "(or were
                # assigned by the CG card)": the Initial Firefight's roles come from the card, not from a purchase
                violations.append(Violation(aref, "the Initial Firefight's Attacker is assigned by the CG Card; no "
                                                  f"Attack Option is bought for it (1.4, {aref})"))
            elif ledger.items_on(date_id, "attack-option") + batch.attack >= 1:
                violations.append(Violation(aref, f"the Attack Option is already bought for this firefight ({aref})"))
            elif cost is not None and not problems:
                if cost > batch.left:
                    violations.append(Violation(aref, f"the Attack Option costs {amount_text(cost)} {currency}; you "
                                                      f"have {amount_text(batch.left)} {currency} left ({aref})"))
                else:
                    batch.left -= cost
            batch.attack += 1
        elif isinstance(order, PatrolOrder):
            violations.extend(_check_patrols(system, ledger, side, date_id, order, batch, currency))
        elif isinstance(order, PointsOrder):
            violations.extend(_check_points(system, side, order, batch, currency))
        else:
            violations.append(Violation(ref, f"unknown order {order!r}"))
    if forts:
        table = system.fortifications
        available = None
        if table is not None:
            available = ledger.balance(table.currency) + batch.gives.get(table.currency, Decimal(0))
            if table.currency == currency:
                available = batch.left
        fort_violations, _ = validate_fortifications(system, ledger, side, date_id, forts, initial=initial,
                                                     available=available)
        violations.extend(fort_violations)
    return tuple(violations)


@dataclass(frozen=True)
class PatrolAllowance:
    """What a side may still buy of PL 2.31 Patrols on a date: the limit, the price and what is already bought."""

    ref: str
    most: int | None  # the per-RePh limit by Intensity; None when the rule sets none
    price: int | None  # the patrol cost (setting patrol_cost); None when not set
    have: int  # bought on the date already
    problem: str | None = None  # why none may be bought (the CG does not use Patrols, a setting is missing)


def patrol_allowance(system: System, ledger: SideLedger, side: SideId, date_id: str) -> PatrolAllowance:
    """2.31 Patrols: "one CP each" unless the CG Card says otherwise; one / two / three per RePh by Intensity Low /
    Mid / High; none where the CG does not use Patrols."""
    limit = next((lim for lim in system.limits if lim.id == "patrols"), None)
    have = ledger.items_on(date_id, "patrol")
    if limit is None:
        return PatrolAllowance(purchase_ref(system), 0, None, have, f"{system.id} has no Patrol purchases")
    ref = limit.ref or purchase_ref(system)
    price = side_setting(system, "patrol_cost", side)
    cost = price if isinstance(price, int) and not isinstance(price, bool) else None
    if side_setting(system, "patrols_allowed", side) is False:
        return PatrolAllowance(ref, 0, cost, have, f"this CG does not use Patrols ({ref})")
    most: int | None = _number(limit.max)
    if limit.by_setting is not None:
        choice = side_setting(system, limit.by_setting, side)
        if choice is None:
            return PatrolAllowance(ref, 0, cost, have,
                                   f"Patrols: the {limit.by_setting} setting is on the CG Card; supply it ({ref})")
        most = _number(limit.by_choice.get(str(choice)))
    if cost is None:
        return PatrolAllowance(ref, most, None, have,
                               f"Patrols: the patrol cost is not set; supply patrol_cost in a CG Card ({ref})")
    return PatrolAllowance(ref, most, cost, have)


def _check_patrols(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: PatrolOrder, batch: _Batch, currency: str
) -> list[Violation]:
    allowance = patrol_allowance(system, ledger, side, date_id)
    ref = allowance.ref
    if not isinstance(order.count, int) or isinstance(order.count, bool) or order.count < 1:
        return [Violation(ref, f"Patrols: the number must be a whole number ≥ 1, got {order.count!r} ({ref})")]
    if allowance.problem is not None:
        return [Violation(ref, allowance.problem)]
    out: list[Violation] = []
    have = allowance.have + batch.patrols
    if allowance.most is not None and have + order.count > allowance.most:
        out.append(Violation(ref, f"Patrols: at most {allowance.most} per RePh at this Intensity; {have} already "
                                  f"bought, {order.count} ordered ({ref})"))
    assert allowance.price is not None
    cost = Decimal(allowance.price * order.count)
    batch.patrols += order.count
    if cost > batch.left:
        out.append(Violation(ref, f"{order.count} Patrol(s) cost {amount_text(cost)} {currency}; you have "
                                  f"{amount_text(batch.left)} {currency} left ({ref})"))
    elif not out:
        batch.left -= cost
    return out


def _points_price(system: System, side: SideId, code: str) -> int | None:
    price = side_setting(system, f"{code.casefold()}_price", side)
    return price if isinstance(price, int) and not isinstance(price, bool) else None


def _check_points(system: System, side: SideId, order: PointsOrder, batch: _Batch, currency: str) -> list[Violation]:
    target = next((c for c in system.currencies if c.code == order.currency), None)
    ref = purchase_ref(system)
    if target is None or target.bought_with is None:
        allowed = ", ".join(c.code for c in system.currencies if c.bought_with is not None) or "none"
        return [Violation(ref, f"{order.currency} cannot be bought in {system.id} (allowed: {allowed})")]
    tref = target.ref or ref
    if not isinstance(order.amount, int) or isinstance(order.amount, bool) or order.amount < 1:
        return [Violation(tref, f"{target.code}: the amount must be a whole number ≥ 1, got {order.amount!r} ({tref})")]
    if side_setting(system, f"{target.code.casefold()}_allowed", side) is False:
        return [Violation(tref, f"{target.code} are not available to {system.side(side).name} on this CG Card ({tref})")]
    price = _points_price(system, side, target.code)
    if price is None:
        via = target.bought_with.via or target.bought_with.currency
        price_id = f"{target.code.casefold()}_price"
        label = next((s.label for s in system.settings if s.id == price_id), f"the {target.code} price")
        return [Violation(tref, f"the {target.bought_with.currency} price of {target.code} is not in the rule text "
                                f"({via}); the CG Card must give it: {label} ({tref})")]
    cost = Decimal(price * order.amount)
    if cost > batch.left:
        return [Violation(tref, f"{order.amount} {target.code} cost {amount_text(cost)} {currency}; you have "
                                f"{amount_text(batch.left)} {currency} left ({tref})")]
    batch.left -= cost
    batch.gives[target.code] = batch.gives.get(target.code, Decimal(0)) + Decimal(order.amount)
    return []


# ---------------------------------------------------------------------------------------------------------------------
# Applying
# ---------------------------------------------------------------------------------------------------------------------


def _roster_for(ledger: SideLedger, date_id: str, currency: str) -> RosterLine:
    line = ledger.roster_line(date_id)
    if line is None:
        line = RosterLine(date_id, start=ledger.balance(currency), elr=ledger.elr, san=ledger.san)
    return line


def _full_units(row: RgRow) -> tuple[tuple[int, str], ...]:
    return tuple((int(u.count.number), u.unit) for u in row.full if not u.count.missing)


def _new_line(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: RgOrder, cost: Decimal, *, initial_ob: bool
) -> PurchaseLine:
    chart = system.rg_chart(side)
    row = chart.row(order.rg_id)
    bought = ledger.purchased_count((row.id,)) + (0 if initial_ob else 1)
    cg_max = _number(row.cg_max)
    notes = []
    if row.gives:
        notes.append("gives " + ", ".join(f"{c.text} {code}" for code, c in row.gives.items()))
    if row.effects.get("san") and not initial_ob:
        notes.append(f"SAN {row.effects['san']:+d} (secret until each side announces its SAN)")
    if row.note:
        notes.append(row.note)
    if order.objective_hex:
        notes.append(f"Objective Hex (secret until Controlled by own Infantry): {order.objective_hex}")
    return PurchaseLine(
        line=ledger.next_line, date_id=date_id, rg_id=row.id, group_type=row.group_type, cost=cost,
        setup_mode=order.setup_mode, pre_registered=order.pre_registered, extra=order.extra, initial_ob=initial_ob,
        number_purchased=bought, remaining=None if cg_max is None else cg_max - bought,
        units=_full_units(row), setup_area=order.setup_area, notes="; ".join(notes),
    )


def apply_order(
    system: System,
    ledger: SideLedger,
    side: SideId,
    date_id: str,
    orders: Sequence[Order],
    *,
    initial: bool,
    chit: Chit | None = None,
    at_recon_step: bool = False,
) -> SideLedger:
    """Record a valid order: Purchase Record lines (#P/#R), points deducted, `gives` credited, the CG Roster line."""
    violations = validate_order(system, ledger, side, date_id, orders, initial=initial, chit=chit,
                                at_recon_step=at_recon_step)
    if violations:
        error = SubmissionError("; ".join(v.message for v in violations))
        error.ref = violations[0].ref or None
        raise error
    currency = purchase_currency(system)
    forts: list[FortOrder] = []
    for order in orders:
        roster = _roster_for(ledger, date_id, currency)
        if isinstance(order, RgOrder):
            cost, _ = rg_order_cost(system, side, order)
            assert cost is not None
            line = _new_line(system, ledger, side, date_id, order, cost, initial_ob=False)
            ledger = replace(ledger, purchases=(*ledger.purchases, line)).adjust(currency, -cost)
            row = system.rg_chart(side).row(order.rg_id)
            for code, cell in row.gives.items():
                if any(c.code == code for c in system.currencies) and not cell.missing:
                    ledger = ledger.adjust(code, to_decimal(cell.number))
            roster = replace(roster, purchased=(*roster.purchased, (row.id, cost)), spent=roster.spent + cost,
                             san_pending=roster.san_pending + row.effects.get("san", 0))
        elif isinstance(order, FortOrder):
            forts.append(order)
            continue
        else:
            item = _item_line(system, ledger, side, date_id, order, currency)
            ledger = replace(ledger, items=(*ledger.items, item)).adjust(currency, -item.cost)
            for code, amount in item.gives.items():
                ledger = ledger.adjust(code, amount)
            roster = replace(roster, spent=roster.spent + item.cost)
        ledger = ledger.with_roster_line(replace(roster, left=ledger.balance(currency)))
    if forts:
        if ledger.roster_line(date_id) is None:
            ledger = ledger.with_roster_line(_roster_for(ledger, date_id, currency))
        ledger = apply_fortifications(system, ledger, side, date_id, forts, initial=initial)
        written = ledger.roster_line(date_id)
        if written is not None:
            ledger = ledger.with_roster_line(replace(written, left=ledger.balance(currency)))
    return ledger


def _item_line(
    system: System, ledger: SideLedger, side: SideId, date_id: str,
    order: AttackOptionOrder | PatrolOrder | PointsOrder, currency: str,
) -> ItemLine:
    number = ledger.next_item_line
    if isinstance(order, AttackOptionOrder):
        cost, _ = _attack_cost(system, side)
        assert cost is not None
        return ItemLine(number, date_id, "attack-option", 1, cost, currency, notes="Attack Option")
    if isinstance(order, PatrolOrder):
        price = side_setting(system, "patrol_cost", side)
        assert isinstance(price, int)
        return ItemLine(number, date_id, "patrol", order.count, Decimal(price * order.count), currency,
                        notes="Patrols")
    price = _points_price(system, side, order.currency)
    assert price is not None
    return ItemLine(number, date_id, "points", order.amount, Decimal(price * order.amount), currency,
                    gives={order.currency: Decimal(order.amount)}, notes=f"{order.amount} {order.currency}")


def _ob_row(system: System, side: SideId, group: ObGroup) -> tuple[RgRow | None, str]:
    """The chart row of an OB-given RG: by id, else the one row of that group type; else None and why."""
    try:
        chart = system.rg_chart(side)
    except UnknownNameError:
        return None, f"{system.id} has no RG chart for {side}"
    if group.rg_id is not None:
        found = [r for r in chart.rows if r.id == group.rg_id]
    else:
        found = [r for r in chart.rows if r.group_type.casefold() == (group.group_type or "").casefold()]
    if len(found) == 1:
        return found[0], ""
    name = group.rg_id or group.group_type
    if not found:
        return None, f"no line {name!r} on the {chart.name}" + ("" if chart.rows else " (its rows are lost)")
    return None, f"{len(found)} lines {name!r} on the {chart.name} ({', '.join(r.id for r in found)})"


def record_initial_ob(
    system: System, ledger: SideLedger, side: SideId, date_id: str, rg_ids: Sequence[str | ObGroup]
) -> SideLedger:
    """2.5188 / PHD C4.2: one Purchase Record line per RG given in the Initial Scenario OB (cost 0; not counted for
    maxima). An entry is an RG id, or an ``ObGroup`` (id or group type, count) resolved against the chart; an OB RG whose
    chart line is not available is still recorded (by its group type, its rolls not made, a note saying why)."""
    for entry in rg_ids:
        group = ObGroup(1, entry) if isinstance(entry, str) else entry
        row, why = _ob_row(system, side, group)
        if row is None and isinstance(entry, str):
            system.rg_chart(side).row(entry)  # UnknownNameError listing the ids
        for _ in range(group.count):
            if row is not None:
                line = _new_line(system, ledger, side, date_id, RgOrder(row.id), Decimal(0), initial_ob=True)
                line = replace(line, notes="Initial Scenario OB")
            else:
                line = PurchaseLine(
                    line=ledger.next_line, date_id=date_id, rg_id=group.rg_id or "", group_type=group.group_type or "",
                    cost=Decimal(0), initial_ob=True, rolled=True,
                    notes=f"Initial Scenario OB; no rolls made: {why} (supply the chart in a CG Card)",
                )
            ledger = replace(ledger, purchases=(*ledger.purchases, line))
    return ledger


def missing_value_violation(error: MissingValueError, ref: str) -> Violation:
    """A lost value as a purchase violation."""
    return Violation(ref, f"{error} ({ref})")
