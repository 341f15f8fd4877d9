"""The books' lines for a purchase: the RG Purchase Record line (#P/#R, RR 2.5188), the CG Roster line of a date and
the Initial Scenario OB's lines (RR 2.5188, PHD C4.2)."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from rules_engine.errors import UnknownNameError
from rules_engine.ledger import PurchaseLine, RosterLine, SideLedger
from rules_engine.model import ObGroup, RgRow, System
from rules_engine.purchases.lookups import cell_number
from rules_engine.purchases.orders import RgOrder
from rules_engine.vocabulary import SideId


def roster_for(ledger: SideLedger, date_id: str, currency: str) -> RosterLine:
    """The date's CG Roster line, or a new one starting from the side's current points (RR 2.518)."""
    line = ledger.roster_line(date_id)
    if line is None:
        line = RosterLine(date_id, start=ledger.balance(currency), elr=ledger.elr, san=ledger.san)
    return line


def _full_units(row: RgRow) -> tuple[tuple[int, str], ...]:
    """The units of a full-strength RG (lost counts left out)."""
    return tuple((int(u.count.number), u.unit) for u in row.full if not u.count.missing)


def new_purchase_line(
    system: System, ledger: SideLedger, side: SideId, date_id: str, order: RgOrder, cost: Decimal, *, initial_ob: bool
) -> PurchaseLine:
    """An RG Purchase Record line (RR 2.5188): #P counts this RG bought in the CG, #R what the CG Max leaves."""
    chart = system.rg_chart(side)
    row = chart.row(order.rg_id)
    bought = ledger.purchased_count((row.id,)) + (0 if initial_ob else 1)
    cg_max = cell_number(row.cg_max)
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
                line = new_purchase_line(system, ledger, side, date_id, RgOrder(row.id), Decimal(0), initial_ob=True)
                line = line.evolve(notes="Initial Scenario OB")
            else:
                line = PurchaseLine(
                    line=ledger.next_line, date_id=date_id, rg_id=group.rg_id or "", group_type=group.group_type or "",
                    cost=Decimal(0), initial_ob=True, rolled=True,
                    notes=f"Initial Scenario OB; no rolls made: {why} (supply the chart in a CG Card)",
                )
            ledger = ledger.evolve(purchases=(*ledger.purchases, line))
    return ledger
