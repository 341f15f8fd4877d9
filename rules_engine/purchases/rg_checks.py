"""The rules one RG order may break: availability, Date/CG maxima (RR 2.5185, 2.5186), Initial-Scenario-only RG, Recon
(RR 2.521), chit-dependent RG (ER CG15, CG18), OBA modules (KGP CG15), infantry platoons (PL 2.3), points left."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from rules_engine.errors import UnknownNameError
from rules_engine.fortification_purchase import Violation
from rules_engine.ledger import SideLedger, amount_text, to_decimal
from rules_engine.model import RgChart, RgRow, SpecialRule, System
from rules_engine.purchases.batch import Batch
from rules_engine.purchases.costs import rg_order_cost
from rules_engine.purchases.lookups import (
    calendar_index,
    cell_number,
    lost_violation,
    matches_rule_row,
    objective_hex_prefixes,
    params_list,
    purchase_ref,
    row_label,
    row_type,
    side_setting,
)
from rules_engine.purchases.orders import OBJECTIVE_HEX_MAX, RgOrder
from rules_engine.purchases.patrols_recon import recon_row, recon_step
from rules_engine.system_memo import SystemMemo, small_key
from rules_engine.vocabulary import Chit, SideId


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


def _availability(system: System, chart: RgChart, row: RgRow, date_index: int) -> list[Violation]:
    """An RG row's availability dates (``available_after``/``available_from`` on the chart or its notes)."""
    out: list[Violation] = []
    after = row.available_after
    start = row.available_from
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and isinstance(note.params.get("available_from"), str):
            start = str(note.params["available_from"])
    if after is not None:
        idx = calendar_index(system, after)
        if idx is not None and date_index <= idx:
            out.append(Violation(chart.ref, f"{row_label(row)} is only available after {after} ({chart.ref})"))
    if start is not None:
        idx = calendar_index(system, start)
        if idx is not None and date_index < idx:
            out.append(Violation(chart.ref, f"{row_label(row)} may only be bought on/after {start} ({chart.ref})"))
    return out


def batch_count(ledger: SideLedger, batch: Batch, ids: Sequence[str], date_id: str, per: str) -> int:
    """How many of these RG are bought per date or per CG, the batch so far included (RR 2.5185, 2.5186)."""
    if per == "date":
        return ledger.purchased_count(ids, date_id) + sum(batch.date_counts.get(i, 0) for i in ids)
    return ledger.purchased_count(ids) + sum(batch.cg_counts.get(i, 0) for i in ids)


def check_rg(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: RgOrder, batch: Batch,
    *, initial: bool, chit: Chit | None, currency: str, at_recon_step: bool = False,
) -> list[Violation]:
    """Every rule one RG order breaks; on success its cost leaves the batch and what it gives is credited."""
    cost, problems = rg_order_cost(system, side, order)
    violations = list(problems) + _check_objective_hex(system, order)
    rg_id = order.rg_id
    exact = type(side) is str and type(rg_id) is str and type(date_id) is str and type(at_recon_step) is bool
    found, fixed = (_ROW_RULES(system, (side, rg_id, date_id, at_recon_step)) if exact
                    else _row_rules(system, (side, rg_id, date_id, at_recon_step)))
    violations.extend(fixed)
    if found is None:
        return violations
    chart, row, entry_index = found
    violations.extend(_maxima(chart, row, ledger, batch, date_id))
    violations.extend(_combined_maxima(chart, row, ledger, batch, date_id))
    if exact and type(initial) is bool and (chit is None or type(chit) is Chit):
        violations.extend(_CHOICE_RULES(system, (side, rg_id, initial, chit)))
    else:
        violations.extend(_choice_rules(system, (side, rg_id, initial, chit)))
    violations.extend(_module_limit(system, chart, ledger, side, date_id, row, batch, entry_index))
    violations.extend(_infantry_platoons(system, chart, ledger, side, date_id, row, batch))
    batch.date_counts[row.id] = batch.date_counts.get(row.id, 0) + 1
    batch.cg_counts[row.id] = batch.cg_counts.get(row.id, 0) + 1
    if cost is not None and not problems:
        violations.extend(_spend(system, chart, row, cost, batch, currency, clean=not violations))
    return violations


Found = tuple[RgChart, RgRow, int | None] | None
"""An RG order's chart, row and CG Date index (None: the side has no such RG)."""


def _row_rules(system: System, key: tuple[SideId, str, str, bool]) -> tuple[Found, tuple[Violation, ...]]:
    """What an RG order breaks whatever else is bought with it: the Recon RG bought elsewhere (RR 2.521), its
    availability dates; with its chart, row and date (``check_rg``, remembered per System as ``_ROW_RULES``)."""
    side, rg_id, date_id, at_recon_step = key
    out = _recon_bought_elsewhere(system, side, rg_id, at_recon_step)
    try:
        chart = system.rg_chart(side)
        row = chart.row(rg_id)
    except UnknownNameError:
        return None, tuple(out)
    entry_index = calendar_index(system, date_id)
    if entry_index is not None:
        out.extend(_availability(system, chart, row, entry_index))
    return (chart, row, entry_index), tuple(out)


# per System and exact-typed (side, RG, date, at the Recon step): frozen data only; a key a player made large is not kept
_ROW_RULES = SystemMemo(_row_rules, bound=4096, keep=small_key).lookup


def _choice_rules(system: System, key: tuple[SideId, str, bool, Chit | None]) -> tuple[Violation, ...]:
    """What an RG order breaks by when it is bought: the Initial Scenario only, Recon not before it (RR 2.521),
    chit-dependent RG (ER CG15, CG18); for an RG of the side's chart (``check_rg``, remembered as ``_CHOICE_RULES``)."""
    side, rg_id, initial, chit = key
    chart = system.rg_chart(side)
    row = chart.row(rg_id)
    return (*_initial_only(chart, row, initial), *_recon_before_initial(system, chart, row, initial),
            *_chit_dependent(system, chart, side, row, chit, initial))


# per System and exact-typed (side, RG, Initial Scenario?, chit); a key a player made large is not kept
_CHOICE_RULES = SystemMemo(_choice_rules, bound=4096, keep=small_key).lookup


def _recon_bought_elsewhere(system: System, side: SideId, rg_id: str, at_recon_step: bool) -> list[Violation]:
    """RR note r "May spend extra CPP (2.521)": the Recon RG is bought at 2.521 with its Recon dr, not at 2.518."""
    found = recon_row(system, side)
    recon = recon_step(system) if found is not None and found.id == rg_id and not at_recon_step else None
    if recon is None or found is None:
        return []
    # RR note r sends the Recon RG to 2.521 PURCHASING RECONNAISSANCE, which alone makes the Recon dr ("Each side may
    # now make a Recon dr, provided it first expends the required CPP"): M3 and 2.521 are one purchase.
    return [Violation(recon.ref, f"{row_label(found)} is bought at {recon.ref} {recon.name} with its "
                                 f"Recon dr, not here ({recon.ref})")]


def _maxima(chart: RgChart, row: RgRow, ledger: SideLedger, batch: Batch, date_id: str) -> list[Violation]:
    """RR 2.5185 Date Max, 2.5186 CG Max (Initial-OB RG not counted)."""
    ref = chart.ref
    out: list[Violation] = []
    rg_id = row.id
    bought: tuple[int, int] | None = None
    for per, most, label, lost in _LIMITS(row, (ref, chart.columns.get("date_max", "Date Max"),
                                                chart.columns.get("cg_max", "CG Max"))):
        if lost is not None:
            out.append(lost)
            continue
        if most is None:
            continue
        if bought is None:
            bought = ledger.bought_counts(rg_id, date_id)
        if per == "date":  # ``batch_count`` of one RG
            have = bought[0] + batch.date_counts.get(rg_id, 0)
        else:
            have = bought[1] + batch.cg_counts.get(rg_id, 0)
        if have + 1 > most:
            when = "on this date" if per == "date" else "in the CG"
            out.append(Violation(ref, f"{row_label(row)}: {label} is {most} and {have} "
                                      f"{'is' if have == 1 else 'are'} already bought {when} ({ref})"))
    return out


Limit = tuple[str, int | None, str, Violation | None]
"""A row's Date Max or CG Max: (per "date" | "cg", the maximum or None, its column label, the violation when lost)."""


def _limits(row: RgRow, key: tuple[str, str, str]) -> tuple[Limit, ...]:
    """The Date Max and CG Max cells of a chart row as ``_maxima`` reads them (remembered per row as ``_LIMITS``)."""
    ref, date_label, cg_label = key
    out: list[Limit] = []
    for per, cell, label in (("date", row.date_max, date_label), ("cg", row.cg_max, cg_label)):
        if cell is None:
            continue
        if cell.missing:
            out.append((per, None, label, lost_violation(f"the {label} of {row_label(row)}", cell, ref)))
            continue
        out.append((per, cell_number(cell), label, None))
    return tuple(out)


# per chart row object (frozen) and its chart's ref and column labels (texts of the System or its CG Card: kept if short)
_LIMITS = SystemMemo(_limits, bound=4096, keep=small_key).lookup


def _combined_maxima(chart: RgChart, row: RgRow, ledger: SideLedger, batch: Batch, date_id: str) -> list[Violation]:
    """A chart's combined maximum over several RG (per CG Date or for the CG)."""
    ref = chart.ref
    out: list[Violation] = []
    for combined in chart.combined_max:
        if row.id not in combined.ids:
            continue
        have = batch_count(ledger, batch, combined.ids, date_id, combined.per)
        if have + 1 > combined.max:
            cref = f"{ref} {combined.ref}" if combined.ref else ref
            out.append(Violation(cref, (
                f"{row_label(row)}: at most {combined.max} RG combined from {' and '.join(combined.ids)} "
                f"{'per CG Date' if combined.per == 'date' else 'for the CG'}; {have} already bought ({cref})")))
    return out


def _initial_only(chart: RgChart, row: RgRow, initial: bool) -> list[Violation]:
    """An RG only available for the Initial Scenario (a note with ``params.initial_only``)."""
    out: list[Violation] = []
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and note.params.get("initial_only") is True and not initial:
            out.append(Violation(chart.ref, f"{row_label(row)} is only available for the Initial Scenario "
                                            f"({chart.ref})"))
    return out


def _recon_before_initial(system: System, chart: RgChart, row: RgRow, initial: bool) -> list[Violation]:
    """RR 2.521: Recon is not bought when preparing to play the Initial Scenario."""
    if initial and any(chart.notes[n].extra_max is not None for n in row.notes if n in chart.notes):
        for step in system.steps:
            if step.action == "purchase-recon" and step.params.get("not_before_initial"):
                return [Violation(step.ref, f"{row_label(row)}: Recon may not be bought when preparing "
                                            f"to play the Initial Scenario ({step.ref})")]
    return []


def _chit_dependent(
    system: System, chart: RgChart, side: SideId, row: RgRow, chit: Chit | None, initial: bool
) -> list[Violation]:
    """ER CG15 Bombardment only with an Attack chit, CG18 FPF Barrage only with an Idle chit (some sides only)."""
    out: list[Violation] = []
    for rule, needs in _CHIT_RULES(system, None):
        if not matches_rule_row(rule, chart, row):
            continue
        sides = params_list(rule.params.get("sides"))
        if sides and side not in sides:
            out.append(Violation(rule.ref, f"{row_label(row)}: {rule.name} is available only to "
                                           f"{' and '.join(system.side(s).name for s in sides)} ({rule.ref})"))
        if chit is None:
            # CG15 "when selecting an Attack Chit", CG18 "if he is selecting an Idle initiative chit for the upcoming
            # scenario": no chit is selected for the Initial Scenario, so the condition cannot be met there.
            then = ("no Initiative chit is selected for the Initial Scenario" if initial
                    else "choose your chit first")
            out.append(Violation(rule.ref, f"{row_label(row)}: {rule.name} may be bought only when "
                                           f"selecting the {needs.capitalize()} chit; {then} ({rule.ref})"))
        elif str(chit) != needs:
            out.append(Violation(rule.ref, f"{row_label(row)}: {rule.name} may be bought only when "
                                           f"selecting the {needs.capitalize()} chit, not {chit.capitalize()} "
                                           f"({rule.ref})"))
    return out


def _chit_rules(system: System, _: None) -> tuple[tuple[SpecialRule, str], ...]:
    """The special rules that make an RG need a chit (``requires_chit``), with the chit."""
    return tuple((rule, needs) for rule in system.special_rules
                 if isinstance(needs := rule.params.get("requires_chit"), str))


_CHIT_RULES = SystemMemo(_chit_rules).lookup  # once per System: its special rules never change


def _infantry_platoons(
    system: System, chart: RgChart, ledger: SideLedger, side: SideId, date_id: str, row: RgRow, batch: Batch
) -> list[Violation]:
    """PL 2.3: at most so many infantry platoons per date (the limit names the RG types it counts)."""
    out: list[Violation] = []
    for limit in system.limits:
        if limit.id != "infantry-platoons" or row.type not in limit.rg_types:
            continue
        setting = side_setting(system, "max_infantry_platoons", side)
        most = setting if isinstance(setting, int) and not isinstance(setting, bool) else cell_number(limit.max)
        have = sum(1 for p in ledger.purchases if p.date_id == date_id and not p.initial_ob
                   and row_type(chart, p.rg_id) in limit.rg_types) + batch.infantry
        if most is not None and have + 1 > most:
            lref = limit.ref or chart.ref
            out.append(Violation(lref, f"{row_label(row)}: a side may never purchase more than {most} "
                                       f"infantry platoons ({lref}); {have} already ordered"))
        batch.infantry += 1
    return out


def _spend(
    system: System, chart: RgChart, row: RgRow, cost: Decimal, batch: Batch, currency: str, *, clean: bool
) -> list[Violation]:
    """The RG's cost against the points left; a clean order spends it and credits what the RG gives (RR M1 FPP)."""
    if cost > batch.left:
        return [Violation(chart.ref, f"{row_label(row)} costs {amount_text(cost)} {currency}; you have "
                                     f"{amount_text(batch.left)} {currency} left ({purchase_ref(system)})")]
    if clean:
        batch.left -= cost
        for code, cell in row.gives.items():
            if not cell.missing and cell.value is not None:
                batch.gives[code] = batch.gives.get(code, Decimal(0)) + to_decimal(cell.number)
    return []


def _is_module(rule: SpecialRule, chart: RgChart, side: SideId, row: RgRow) -> bool:
    """KGP CG15: an RG row counts as an OBA module (its group types) unless the rule excludes it (U.S. "O3"; a
    Bombardment RG is not a module)."""
    excluded = rule.params.get("excluded_rg")
    if isinstance(excluded, Mapping) and row.id in params_list(excluded.get(side)):
        return False
    text = f"{row.group_type} {row.description or ''}".casefold()
    if any(w.casefold() in text for w in params_list(rule.params.get("excluded_group_types"))):
        return False
    return matches_rule_row(rule, chart, row)


def _module_limit(system: System, chart: RgChart, ledger: SideLedger, side: SideId, date_id: str, row: RgRow,
                  batch: Batch, entry_index: int | None) -> list[Violation]:
    """KGP CG15 "a maximum of two … modules per Map Group per CG Date": the modules bought on this CG Date, at most
    max_modules × the Map Groups in play that date."""
    found: list[Violation] = []
    for rule, most in _MODULE_RULES(system, None):
        if not _is_module(rule, chart, side, row):
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
            found.append(Violation(rule.ref, f"{row_label(row)}: at most {most} OBA modules per Map Group per CG "
                                             f"Date — {allowed} on {date_id} with {where}; {have} already bought "
                                             f"({rule.ref})"))
    return found


def _module_rules(system: System, _: None) -> tuple[tuple[SpecialRule, int], ...]:
    """The enforced special rules limiting OBA modules (``max_modules``), with the limit."""
    return tuple((rule, most) for rule in system.special_rules
                 if rule.enforced and isinstance(most := rule.params.get("max_modules"), int))


_MODULE_RULES = SystemMemo(_module_rules).lookup  # once per System
