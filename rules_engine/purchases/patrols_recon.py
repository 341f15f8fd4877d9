"""Recon bought with its dr (RR 2.521) and Patrols (PL 2.31): the step, the chart row, the allowance and its check."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from rules_engine.errors import MissingValueError, UnknownNameError
from rules_engine.fortification_purchase import Violation
from rules_engine.ledger import SideLedger, amount_text
from rules_engine.model import RgRow, Step, System
from rules_engine.purchases.batch import Batch
from rules_engine.purchases.lookups import cell_number, purchase_ref, side_setting
from rules_engine.purchases.orders import PatrolOrder
from rules_engine.vocabulary import SideId


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
    most: int | None = cell_number(limit.max)
    if limit.by_setting is not None:
        choice = side_setting(system, limit.by_setting, side)
        if choice is None:
            return PatrolAllowance(ref, 0, cost, have,
                                   f"Patrols: the {limit.by_setting} setting is on the CG Card; supply it ({ref})")
        most = cell_number(limit.by_choice.get(str(choice)))
    if cost is None:
        return PatrolAllowance(ref, most, None, have,
                               f"Patrols: the patrol cost is not set; supply patrol_cost in a CG Card ({ref})")
    return PatrolAllowance(ref, most, cost, have)


def check_patrols(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: PatrolOrder, batch: Batch, currency: str
) -> list[Violation]:
    """PL 2.31: Patrols within the per-RePh limit and the points left."""
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
