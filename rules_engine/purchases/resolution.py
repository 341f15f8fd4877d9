"""``apply_order``: a valid batch of orders recorded in the side's books (points, record lines, roster); ``record_order``
the same for a batch just validated."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rules_engine.errors import SubmissionError
from rules_engine.fortification_purchase import FortOrder, apply_fortifications
from rules_engine.ledger import ItemLine, SideLedger, to_decimal
from rules_engine.model import System
from rules_engine.purchases.costs import attack_cost, points_price, rg_order_cost
from rules_engine.purchases.lookups import purchase_currency, side_setting
from rules_engine.purchases.orders import AttackOptionOrder, Order, PatrolOrder, PointsOrder, RgOrder
from rules_engine.purchases.record_lines import new_purchase_line, roster_for
from rules_engine.purchases.validation import validate_order
from rules_engine.vocabulary import Chit, SideId


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
    return record_order(system, ledger, side, date_id, orders, initial=initial)


def record_order(
    system: System, ledger: SideLedger, side: SideId, date_id: str, orders: Sequence[Order], *, initial: bool,
) -> SideLedger:
    """``apply_order`` for orders ``validate_order`` has just accepted with the same ledger (not checked again)."""
    currency = purchase_currency(system)
    forts: list[FortOrder] = []
    for order in orders:
        roster = roster_for(ledger, date_id, currency)
        if isinstance(order, RgOrder):
            cost, _ = rg_order_cost(system, side, order)
            assert cost is not None
            line = new_purchase_line(system, ledger, side, date_id, order, cost, initial_ob=False)
            row = system.rg_chart(side).row(order.rg_id)
            points = dict(ledger.points)  # the cost paid and what the RG gives (RR M1 FPP), in one new ledger
            points[currency] = points.get(currency, Decimal(0)) - cost
            for code, cell in row.gives.items():
                if any(c.code == code for c in system.currencies) and not cell.missing:
                    points[code] = points.get(code, Decimal(0)) + to_decimal(cell.number)
            roster = roster.evolve(purchased=(*roster.purchased, (row.id, cost)), spent=roster.spent + cost,
                                   san_pending=roster.san_pending + row.effects.get("san", 0), left=points[currency])
            ledger = ledger.with_roster_line(roster, purchases=(*ledger.purchases, line), points=points)  # one copy
            continue
        elif isinstance(order, FortOrder):
            forts.append(order)
            continue
        else:
            item = _item_line(system, ledger, side, date_id, order, currency)
            ledger = ledger.evolve(items=(*ledger.items, item)).adjust(currency, -item.cost)
            for code, amount in item.gives.items():
                ledger = ledger.adjust(code, amount)
            roster = roster.evolve(spent=roster.spent + item.cost)
        ledger = ledger.with_roster_line(roster.evolve(left=ledger.balance(currency)))
    if forts:
        if ledger.roster_line(date_id) is None:
            ledger = ledger.with_roster_line(roster_for(ledger, date_id, currency))
        ledger = apply_fortifications(system, ledger, side, date_id, forts, initial=initial)
        written = ledger.roster_line(date_id)
        if written is not None:
            ledger = ledger.with_roster_line(written.evolve(left=ledger.balance(currency)))
    return ledger


def _item_line(
    system: System, ledger: SideLedger, side: SideId, date_id: str,
    order: AttackOptionOrder | PatrolOrder | PointsOrder, currency: str,
) -> ItemLine:
    """The item line of an Attack Option (PL 2.4), Patrols (PL 2.31) or points (PL 2.38)."""
    number = ledger.next_item_line
    if isinstance(order, AttackOptionOrder):
        cost, _ = attack_cost(system, side)
        assert cost is not None
        return ItemLine(number, date_id, "attack-option", 1, cost, currency, notes="Attack Option")
    if isinstance(order, PatrolOrder):
        price = side_setting(system, "patrol_cost", side)
        assert isinstance(price, int)
        return ItemLine(number, date_id, "patrol", order.count, Decimal(price * order.count), currency,
                        notes="Patrols")
    price = points_price(system, side, order.currency)
    assert price is not None
    return ItemLine(number, date_id, "points", order.amount, Decimal(price * order.amount), currency,
                    gives={order.currency: Decimal(order.amount)}, notes=f"{order.amount} {order.currency}")
