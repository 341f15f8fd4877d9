"""``validate_order``: every rule a batch of orders breaks, each message citing it; nothing is recorded here."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rules_engine.errors import MissingValueError, UnknownNameError
from rules_engine.fortification_purchase import FortOrder, Violation, validate_fortifications
from rules_engine.ledger import SideLedger, amount_text
from rules_engine.model import System
from rules_engine.purchases.batch import Batch
from rules_engine.purchases.costs import attack_cost, points_price
from rules_engine.purchases.lookups import purchase_currency, purchase_ref, side_setting
from rules_engine.purchases.orders import AttackOptionOrder, Order, PatrolOrder, PointsOrder, RgOrder
from rules_engine.purchases.patrols_recon import check_patrols
from rules_engine.purchases.rg_checks import check_rg
from rules_engine.vocabulary import Chit, SideId


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
    batch = Batch(ledger.balance(currency), {}, {}, {})
    forts: list[FortOrder] = []
    for order in orders:
        if isinstance(order, RgOrder):
            violations.extend(check_rg(system, ledger, side, date_id, order, batch,
                                        initial=initial, chit=chit, currency=currency, at_recon_step=at_recon_step))
        elif isinstance(order, FortOrder):
            forts.append(order)
        elif isinstance(order, AttackOptionOrder):
            violations.extend(_check_attack(system, ledger, side, date_id, batch, currency, initial=initial))
        elif isinstance(order, PatrolOrder):
            violations.extend(check_patrols(system, ledger, side, date_id, order, batch, currency))
        elif isinstance(order, PointsOrder):
            violations.extend(_check_points(system, side, order, batch, currency))
        else:
            violations.append(Violation(ref, f"unknown order {order!r}"))
    if forts:
        violations.extend(_check_forts(system, ledger, side, date_id, forts, batch, currency, initial=initial))
    return tuple(violations)


def _check_attack(
    system: System, ledger: SideLedger, side: SideId, date_id: str, batch: Batch, currency: str, *, initial: bool
) -> list[Violation]:
    """PL 2.4: one Attack Option per firefight, never for the Initial Firefight (1.4), paid from the points left."""
    cost, problems = attack_cost(system, side)
    violations = list(problems)
    aref = system.initiative.ref if system.initiative else purchase_ref(system)
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
    return violations


def _check_forts(
    system: System, ledger: SideLedger, side: SideId, date_id: str, forts: Sequence[FortOrder], batch: Batch,
    currency: str, *, initial: bool,
) -> tuple[Violation, ...]:
    """RR 2.520: the fortifications, with what is left of their currency after the rest of the batch (M1 gives FPP)."""
    table = system.fortifications
    available = None
    if table is not None:
        available = ledger.balance(table.currency) + batch.gives.get(table.currency, Decimal(0))
        if table.currency == currency:
            available = batch.left
    violations, _ = validate_fortifications(system, ledger, side, date_id, forts, initial=initial, available=available)
    return violations


def _check_points(system: System, side: SideId, order: PointsOrder, batch: Batch, currency: str) -> list[Violation]:
    """Points bought with another currency (PL 2.38 FP with CP, PHD C5.35 DSP with TP)."""
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
    price = points_price(system, side, target.code)
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


def missing_value_violation(error: MissingValueError, ref: str) -> Violation:
    """A lost value as a purchase violation."""
    return Violation(ref, f"{error} ({ref})")
