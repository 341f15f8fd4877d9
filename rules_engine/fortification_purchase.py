"""Fortification purchases with FPP/FP/DSP (RR 2.520, PL 2.38, PHD C5.35) and the forfeit of unspent points."""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from rules_engine.errors import MissingValueError, SubmissionError
from rules_engine.events import Event, EventKind
from rules_engine.ledger import FortificationLine, SideLedger, amount_text, to_decimal
from rules_engine.model import Cell, FortificationRow, Fortifications, System
from rules_engine.vocabulary import SideId, Visibility


@dataclass(frozen=True)
class Violation:
    """One broken purchase rule: the rule reference and a message a player can act on (it cites the rule too)."""

    ref: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class FortOrder:
    """An order for a fortification: ``quantity`` items (or mine factors, or hexsides) of one type."""

    type: str
    quantity: int = 1
    capacity: int | None = None  # by capacity (Foxhole 3/2/1) and formulas
    unit: str | None = None  # by unit (HIP: squad, hs, crew, smc, afv)
    ca_drm: int | None = None  # formula (Pillbox)
    nca_drm: int | None = None
    base_cost: int | None = None  # multiplier (Known Minefield: × 0.8 of this many points)

    def describe(self) -> str:
        """The order as recorded: ``Foxhole (capacity 3) ×2``."""
        parts = []
        if self.capacity is not None:
            parts.append(f"capacity {self.capacity}")
        if self.unit is not None:
            parts.append(self.unit)
        if self.ca_drm is not None or self.nca_drm is not None:
            parts.append(f"CA DRM {self.ca_drm}, NCA DRM {self.nca_drm}")
        if self.base_cost is not None:
            parts.append(f"of {self.base_cost}")
        return ", ".join(parts)


def _refuse(message: str, ref: str | None = None) -> SubmissionError:
    """A refusal whose message ends with the rule in parentheses, like every Violation."""
    error = SubmissionError(f"{message} ({ref})" if ref else message)
    error.ref = ref
    return error


FORMULA_WORDS = {"ca_drm": "CA DRM", "nca_drm": "NCA DRM", "capacity": "capacity"}
"""A cost formula's names as the fortification form labels them (PL 2.38 Pillbox)."""


def formula_words(formula: str) -> str:
    """``(ca_drm + nca_drm) * capacity`` → ``(CA DRM + NCA DRM) × capacity``."""
    text = re.sub(r"[a-z_]+", lambda m: FORMULA_WORDS.get(m.group(0), m.group(0)), formula)
    return text.replace("*", "×")


def _strip(name: str) -> str:
    return name.strip().strip('"').strip().casefold()


def fortification_row(table: Fortifications, name: str) -> FortificationRow | None:
    """The row of a fortification type (case-insensitive; quotes around "?" optional), or None."""
    wanted = _strip(name)
    for row in table.rows:
        if _strip(row.type) == wanted:
            return row
    return None


def _side_names(system: System, sides: Sequence[SideId]) -> str:
    names = []
    for side in sides:
        try:
            names.append(system.side(side).name)
        except ValueError:
            names.append(side)
    return " and ".join(names)


def _cell_amount(cell: Cell, what: str, ref: str) -> Decimal:
    """A fortification cost cell as a Decimal (MissingValueError asking for a CG Card when lost)."""
    if cell.missing:
        raise MissingValueError(f"{what} is lost in the rule text ({cell.note}); supply it in a CG Card ({ref})")
    return to_decimal(cell.number)


_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([a-z_]+)|(.))")


def evaluate_formula(formula: str, names: Mapping[str, int]) -> Decimal:
    """Evaluate a cost formula (``+ - * ( )``, numbers, ca_drm/nca_drm/capacity); KeyError for a name not given."""
    tokens: list[tuple[str, str]] = []
    for number, name, other in _TOKEN.findall(formula):
        if number:
            tokens.append(("num", number))
        elif name:
            tokens.append(("name", name))
        elif other.strip():
            tokens.append(("op", other))
    pos = 0

    def peek() -> tuple[str, str] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        if pos >= len(tokens):
            raise ValueError(f"formula {formula!r} ends too early")
        pos += 1
        return tokens[pos - 1]

    def atom() -> Decimal:
        kind, text = take()
        if kind == "num":
            return Decimal(text)
        if kind == "name":
            return Decimal(names[text])
        if text == "(":
            value = expr()
            if take() != ("op", ")"):
                raise ValueError(f"formula {formula!r}: missing )")
            return value
        if text == "-":
            return -atom()
        raise ValueError(f"formula {formula!r}: unexpected {text!r}")

    def term() -> Decimal:
        value = atom()
        while peek() == ("op", "*"):
            take()
            value *= atom()
        return value

    def expr() -> Decimal:
        value = term()
        while peek() in (("op", "+"), ("op", "-")):
            _, op = take()
            value = value + term() if op == "+" else value - term()
        return value

    result = expr()
    if pos != len(tokens):
        raise ValueError(f"formula {formula!r}: unexpected {tokens[pos][1]!r}")
    return result


def fortification_cost(system: System, order: FortOrder) -> Decimal:
    """The points an order costs (SubmissionError naming what the order lacks; MissingValueError for a lost cost)."""
    table = system.fortifications
    if table is None:
        raise _refuse(f"{system.id} has no fortification purchase table")
    ref = table.ref
    row = fortification_row(table, order.type)
    if row is None:
        raise _refuse(
            f"unknown fortification {order.type!r} (allowed: {', '.join(r.type for r in table.rows)})", ref
        )
    cost = row.cost
    what = f"{system.id}: the {table.currency} cost of {row.type}"
    if isinstance(order.quantity, bool) or not isinstance(order.quantity, int) or order.quantity < 1:
        raise _refuse(f"{row.type}: the quantity must be a whole number ≥ 1, got {order.quantity!r}", ref)
    quantity = Decimal(order.quantity)
    if cost.kind in ("fixed", "per_factor", "per_hexside"):
        assert cost.amount is not None
        return _cell_amount(cost.amount, what, ref) * quantity
    if cost.kind in ("by_capacity", "by_unit"):
        key_name = "capacity" if cost.kind == "by_capacity" else "unit"
        key = order.capacity if cost.kind == "by_capacity" else order.unit
        allowed = ", ".join(cost.by)
        if key is None or str(key) not in cost.by:
            raise _refuse(
                f"{row.type} is priced by {key_name}: give the {key_name} (allowed: {allowed})", ref
            )
        return _cell_amount(cost.by[str(key)], f"{what} ({key_name} {key})", ref) * quantity
    if cost.kind == "formula":
        assert cost.formula is not None
        given = {"ca_drm": order.ca_drm, "nca_drm": order.nca_drm, "capacity": order.capacity}
        needed = sorted(set(re.findall(r"[a-z_]+", cost.formula)))
        lacking = [FORMULA_WORDS.get(n, n) for n in needed if given.get(n) is None]
        if lacking:
            raise _refuse(
                f"{row.type} costs {formula_words(cost.formula)}: give the {' and the '.join(lacking)}", ref
            )
        value = evaluate_formula(cost.formula, {k: v for k, v in given.items() if v is not None})
        return _round(value, cost.rounding) * quantity
    if cost.kind == "multiplier":
        assert cost.amount is not None
        if order.base_cost is None:
            raise _refuse(
                f"{row.type} costs × {cost.amount.text} {table.currency}: give the base cost it multiplies", ref
            )
        value = _cell_amount(cost.amount, what, ref) * Decimal(order.base_cost)
        return _round(value, cost.rounding or "up")
    raise _refuse(as_per_problem(row.type, str(cost.reference), table.currency), ref)


def as_per_problem(fort_type: str, reference: str, currency: str) -> str:
    """A fortification priced "as per" a rule whose cost the rule text does not give (PL 2.38 Dummy Minefield, "as
    per F.7B"), in a player's words."""
    return (f"{fort_type} costs “as per {reference}”, a cost the rule text does not give: it can be bought only "
            f"where your CG Card gives its {currency} cost (type it in the card's fortifications)")


def _round(value: Decimal, rounding: str | None) -> Decimal:
    """A cost rounded as the fortification row says (up, down, or kept as is: A-P mine factors cost 1.5)."""
    if rounding == "up":
        return value.to_integral_value(rounding=ROUND_CEILING)
    if rounding == "down":
        return value.to_integral_value(rounding=ROUND_FLOOR)
    return value


def _initial_ban(system: System, side: SideId, currency: str) -> tuple[str, str] | None:
    """An enforced special rule saying this side may not spend this currency in the Initial Scenario (PHD I3)."""
    key = f"no_{currency.casefold()}"
    for rule in system.special_rules:
        sides = rule.params.get(key)
        if rule.enforced and isinstance(sides, Sequence) and not isinstance(sides, str) and side in sides:
            return rule.ref, rule.text
    return None


def validate_fortifications(
    system: System,
    ledger: SideLedger,
    side: SideId,
    date_id: str,
    orders: Sequence[FortOrder],
    *,
    initial: bool,
    available: Decimal | None = None,
) -> tuple[tuple[Violation, ...], Decimal]:
    """Every broken rule of a batch of fortification orders, and the total cost of the valid ones."""
    table = system.fortifications
    if not orders:
        return (), Decimal(0)
    if table is None:
        return (Violation("", f"{system.id} has no fortification purchase table"),), Decimal(0)
    ref = table.ref
    currency = table.currency
    left = ledger.balance(currency) if available is None else available
    violations: list[Violation] = []
    total = Decimal(0)
    limit_spent: dict[int, Decimal] = {}
    for i, limit in enumerate(table.limits):
        types = {_strip(t) for t in limit.types}
        limit_spent[i] = sum(
            (f.cost for f in ledger.fortifications
             if _strip(f.type) in types and (limit.per == "cg" or f.date_id == date_id)),
            Decimal(0),
        )
    ban = _initial_ban(system, side, currency) if initial else None
    if ban is not None:
        violations.append(Violation(ban[0], f"{system.side(side).name} may not buy {currency} items in the Initial "
                                            f"Scenario: {ban[1]} ({ban[0]})"))
        return tuple(violations), Decimal(0)
    for order in orders:
        row = fortification_row(table, order.type)
        if row is None:
            violations.append(Violation(ref, f"unknown fortification {order.type!r} "
                                             f"(allowed: {', '.join(r.type for r in table.rows)}) ({ref})"))
            continue
        ok = True
        if row.sides and side not in row.sides:
            violations.append(Violation(ref, f"{row.type} is only available for {_side_names(system, row.sides)} "
                                             f"purchase ({ref})"))
            ok = False
        if row.initial_only and not initial:
            violations.append(Violation(ref, f"{row.type} is only available for purchase during the Initial "
                                             f"Scenario ({ref})"))
            ok = False
        try:
            cost = fortification_cost(system, order)
        except SubmissionError as error:
            violations.append(Violation(ref, str(error)))
            continue
        except MissingValueError as error:
            violations.append(Violation(ref, str(error)))
            continue
        for i, limit in enumerate(table.limits):
            if _strip(row.type) in {_strip(t) for t in limit.types}:
                after = limit_spent[i] + cost
                if after > limit.max_points:
                    violations.append(Violation(ref, (
                        f"at most {limit.max_points} {currency} per {limit.per} on {', '.join(limit.types)}; "
                        f"{row.type} ({amount_text(cost)} {currency}) would make {amount_text(after)} ({ref})")))
                    ok = False
                else:
                    limit_spent[i] = after
        if cost > left:
            violations.append(Violation(ref, f"{row.type} costs {amount_text(cost)} {currency}; you have "
                                             f"{amount_text(left)} {currency} left ({ref})"))
            continue
        if ok:
            left -= cost
            total += cost
    return tuple(violations), total


def apply_fortifications(
    system: System, ledger: SideLedger, side: SideId, date_id: str, orders: Sequence[FortOrder], *, initial: bool
) -> SideLedger:
    """Record fortification orders and deduct their cost (SubmissionError listing every violation, nothing changed)."""
    violations, _ = validate_fortifications(system, ledger, side, date_id, orders, initial=initial)
    if violations:
        error = _refuse("; ".join(v.message for v in violations))
        error.ref = violations[0].ref or None
        raise error
    table = system.fortifications
    if table is None:
        return ledger
    for order in orders:
        row = fortification_row(table, order.type)
        assert row is not None
        cost = fortification_cost(system, order)
        line = FortificationLine(ledger.next_fortification_line, date_id, row.type, order.quantity, cost,
                                 table.currency, order.describe(), markers_note(system, row.type, order.quantity))
        ledger = ledger.evolve(fortifications=(*ledger.fortifications, line)).adjust(table.currency, -cost)
        roster = ledger.roster_line(date_id)
        if roster is not None:
            label = row.type if order.quantity == 1 else f"{row.type} ×{order.quantity}"
            ledger = ledger.with_roster_line(roster.evolve(fortifications=(*roster.fortifications, label)))
    return ledger


def markers_note(system: System, fort_type: str, quantity: int) -> str:
    """ER CG16 "Each purchase allows the player to place 3 path markers on map during the RePh (step 1.520) … any that
    are not placed during RePh step 1.520 are lost": the markers a purchase of a rule's fortification type gives."""
    for rule in system.special_rules:
        wanted = rule.params.get("fortification_type")
        per = rule.params.get("markers_per_purchase")
        if isinstance(wanted, str) and _strip(wanted) == _strip(fort_type) and isinstance(per, int):
            step = rule.params.get("placed_at_step")
            when = f" during step {step}" if isinstance(step, str) else ""
            lost = "; any not placed then are lost" if rule.params.get("unused_lost") is True else ""
            return f"{per * quantity} path markers to place{when}{lost} ({rule.ref})"
    return ""


def forfeited_currencies(system: System) -> tuple[tuple[str, str], ...]:
    """(currency, rule) pairs whose unspent points are forfeit (RR 2.520 FPP, PHD C5.35 DSP)."""
    out: list[tuple[str, str]] = []
    table = system.fortifications
    if table is not None and table.forfeit_unspent:
        out.append((table.currency, table.ref))
    for currency in system.currencies:
        if currency.forfeit_at_step and all(c != currency.code for c, _ in out):
            out.append((currency.code, currency.forfeit_at_step))
    return tuple(out)


def forfeit_unspent(system: System, ledger: SideLedger) -> tuple[SideLedger, tuple[Event, ...]]:
    """2.520 "All FPP unspent upon completion of this step are forfeit" — zero those points, one event each."""
    events: list[Event] = []
    for currency, rule in forfeited_currencies(system):
        amount = ledger.balance(currency)
        if amount == 0:
            continue
        ledger = ledger.with_points(currency, 0)
        events.append(Event(EventKind.POINTS_FORFEITED, Visibility.CG_END, ledger.side, {
            "currency": currency, "amount": amount_text(amount), "rule": rule,
            "text": f"{amount_text(amount)} unspent {currency} forfeit ({rule})",
        }))
    return ledger, tuple(events)


__all__ = [
    "FortOrder", "Violation", "apply_fortifications", "as_per_problem", "evaluate_formula", "forfeit_unspent",
    "forfeited_currencies", "formula_words", "fortification_cost", "fortification_row", "validate_fortifications",
]
