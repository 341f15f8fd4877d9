"""The secret order forms' rows: the RG chart, the fortification table, recon, the side's balances."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from campaigns_app.engine import System
from campaigns_app.phase.steps import side_list
from rules_engine import purchases
from rules_engine.fortification_purchase import formula_words
from rules_engine.ledger import SETUP_MODES, amount_text
from rules_engine.model.rg_charts import PreRegistered
from rules_engine.purchases import objective_hex_prefixes
from rules_engine.view import SideView

SETUP_MODE_LABELS = {"entry": "Enters", "on-map": "On map", "reserve": "In Reserve"}


def rg_rows(system: System, side: str, ledger: Any, date_id: str, date_index: int, *, initial: bool = False,
             chit: Any = None) -> list[dict[str, Any]]:
    """The side's RG chart as the order form lists it (cost per set-up mode, #P, remaining, availability)."""
    try:
        chart = system.rg_chart(side)
    except Exception:
        return []
    rows = []
    for row in chart.rows:
        modes = []
        for mode in SETUP_MODES:
            cost, problems = purchases.rg_order_cost(system, side, purchases.RgOrder(row.id, mode))
            if cost is not None and not problems:
                modes.append({"mode": mode, "label": SETUP_MODE_LABELS[mode], "cost": amount_text(cost)})
        bought = ledger.purchased_count((row.id,)) if ledger is not None else 0
        bought_today = ledger.purchased_count((row.id,), date_id) if ledger is not None else 0
        cg_max = row.cg_max.number if row.cg_max is not None and not row.cg_max.missing else None
        date_max = row.date_max.number if row.date_max is not None and not row.date_max.missing else None
        unavailable = []
        if modes and ledger is not None:
            # why this RG cannot be bought now whatever the points (availability, maxima reached, another step's RG)
            rich = ledger.with_points(purchases.purchase_currency(system), 10 ** 6)
            problems = purchases.validate_order(system, rich, side, date_id, [purchases.RgOrder(row.id, modes[0]["mode"])],
                                                initial=initial, chit=chit)
            unavailable = [_short(v.message, row.id) for v in problems]
        notes = [{"letter": letter, "text": chart.notes[letter].text} for letter in row.notes if letter in chart.notes]
        pre = next((chart.notes[n].pre_registered for n in row.notes if n in chart.notes and chart.notes[n].pre_registered), None)
        extra = next((chart.notes[n].extra_max for n in row.notes if n in chart.notes and chart.notes[n].extra_max is not None), None)
        left_cg = None if cg_max is None else int(cg_max) - bought
        left_date = None if date_max is None else int(date_max) - bought_today
        limits = [n for n in (left_cg, left_date) if n is not None]
        rows.append({
            "id": row.id, "type": row.type, "group_type": row.group_type, "description": row.description,
            "cost": row.cost.text if not row.cost.missing else "?", "cost_missing": row.cost.missing,
            "date_max": row.date_max.text if row.date_max is not None else "—",
            "cg_max": row.cg_max.text if row.cg_max is not None else "—",
            "full": ", ".join(f"{u.count.text} × {u.unit}" for u in row.full),
            "depleted": ", ".join(f"{u.count.text} × {u.unit}" for u in row.depleted),
            "bought": bought, "remaining": left_cg, "notes": notes, "unavailable": unavailable,
            "modes": modes, "pre_registered": pre, "extra_max": extra, "max_now": max(min(limits), 0) if limits else 9,
            "gives": ", ".join(f"{c.text} {code}" for code, c in row.gives.items()),
            "objective_hex": _objective_hex_ref(system, row.id),
        })
        rows[-1]["line"] = rg_line(rows[-1])
    return rows


@dataclass(frozen=True)
class ModeChoice:
    """One set-up mode an RG may be bought in, with its cost."""

    mode: str
    label: str
    cost: str


@dataclass(frozen=True)
class NoteChip:
    """A chart note an RG row points to."""

    letter: str
    text: str


@dataclass(frozen=True)
class RgLine:
    """One RG row exactly as the order form prints it (partial ``rg_row`` of campaigns/phase/order.html, rendered once
    per seat and values): the row's words, numbers and choices, hashable."""

    id: str
    group_type: str
    full: str
    depleted: str
    gives: str
    notes: tuple[NoteChip, ...]
    unavailable: tuple[str, ...]
    cost: str
    date_max: str
    cg_max: str
    bought: int
    remaining: int | None
    max_now: int
    modes: tuple[ModeChoice, ...]
    pre_registered: PreRegistered | None
    extra_max: int | None
    objective_hex: str | None


def rg_line(row: dict[str, Any]) -> RgLine:
    """The row of ``rg_rows`` as its hashable line."""
    return RgLine(row["id"], row["group_type"], row["full"], row["depleted"], row["gives"],
                  tuple(NoteChip(n["letter"], n["text"]) for n in row["notes"]), tuple(row["unavailable"]), row["cost"],
                  row["date_max"], row["cg_max"], row["bought"], row["remaining"], row["max_now"],
                  tuple(ModeChoice(m["mode"], m["label"], m["cost"]) for m in row["modes"]), row["pre_registered"],
                  row["extra_max"], row["objective_hex"])


def _objective_hex_ref(system: System, rg_id: str) -> str | None:
    """KGP 8.2/8.6198: the rule's ref when this RG allows its side to secretly designate an Objective Hex."""
    found = objective_hex_prefixes(system)
    return found[1] if found is not None and rg_id.startswith(found[0]) else None


def _short(message: str, rg_id: str) -> str:
    """"RG M4 (Activate A20 Entry) is only available after 19 PM (2.518)" → "Only available after 19 PM (2.518)"."""
    prefix = f"RG {rg_id} ("
    if message.startswith(prefix):
        depth = 0
        start = index = len("RG ") + len(rg_id) + 1
        for index in range(start, len(message)):
            depth += {"(": 1, ")": -1}.get(message[index], 0)
            if depth == 0:
                break
        rest = message[index + 1:].lstrip(" :")
        rest = rest[3:] if rest.startswith("is ") else rest
        return rest[:1].upper() + rest[1:]
    return message


def fort_rows(system: System, side: str, initial: bool) -> list[dict[str, Any]]:
    table = system.fortifications
    if table is None:
        return []
    rows = []
    for index, row in enumerate(table.rows):
        cost = row.cost
        if cost.kind == "fixed" and cost.amount is not None:
            price = f"{cost.amount.text} each"
        elif cost.kind in ("per_factor", "per_hexside") and cost.amount is not None:
            price = f"{cost.amount.text} per {'factor' if cost.kind == 'per_factor' else 'hexside'}"
        elif cost.by:
            price = ", ".join(f"{key}: {cell.text}" for key, cell in cost.by.items())
        elif cost.formula:
            price = formula_words(cost.formula)
        else:
            price = f"as per {cost.reference}" if cost.reference else cost.kind
        problem = None
        if cost.kind == "as_per":  # PL 2.38 Dummy Minefield "as per F.7B": a cost the rule text does not give
            problem = "Cost not given by the rule text: buy it only where your CG Card gives it"
        elif row.sides and side not in row.sides:
            problem = f"{side_list(system, row.sides)} only"
        elif row.initial_only and not initial:
            problem = "Initial Scenario only"
        rows.append({"index": index, "type": row.type, "kind": cost.kind, "price": price,
                     "options": list(cost.by.keys()), "option_name": "capacity" if cost.kind == "by_capacity" else "unit",
                     "formula": cost.formula, "problem": problem, "note": row.note, "currency": table.currency})
    return rows


def nothing_to_buy(rows: list[dict[str, Any]], ledger: Any, currency: str | None) -> bool:
    """True when the side has no points and no RG it may buy costs nothing (every quantity box would be refused)."""
    if ledger is None or currency is None or ledger.balance(currency) > 0:
        return False
    for row in rows:
        if row["unavailable"]:
            continue
        for mode in row["modes"]:
            try:
                if Decimal(str(mode["cost"]).strip()) <= 0:
                    return False
            except InvalidOperation:
                return False  # a cost the app cannot read: let the player try
    return True


def recon_context(system: System, view: SideView, step: Any, currency: str | None) -> dict[str, Any]:
    """The recon form (RR 2.521, PHD C5.36): its cost, extra points and — when the rule text lost the cost and no CG
    Card supplies it — the engine's own message saying so (the form then offers only "No Recon")."""
    params = step.params
    cost = params.get("cost")
    row = None
    try:
        row = purchases.recon_row(system, view.side)
    except Exception:
        row = None
    cost_text = str(cost) if isinstance(cost, int) else (row.cost.text if row is not None and not row.cost.missing else None)
    # the engine's message (it refuses before any roll): SideView.recon_problem
    problem = view.recon_problem if not isinstance(cost, int) and row is None else None
    return {"cost": cost_text, "extra_max": params.get("extra_max"), "currency": params.get("currency", currency),
            "problem": problem, "ref": step.ref}


def balance(ledger: Any, currency: str | None) -> str:
    if ledger is None or currency is None:
        return "0"
    return amount_text(ledger.balance(currency))


def has_chart(system: System, side: str) -> bool:
    try:
        system.rg_chart(side)
    except Exception:
        return False
    return True
