"""Small formatting helpers of the record pages: cells as text, amounts, side and date names."""
from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from rules_engine.model import CalendarEntry, Cell, Form, System


def text(value: object) -> str:
    """A cell's text: "" for None, yes/no for a bool, else the value as a string."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def amount(value: object) -> Decimal | None:
    """A number of points (None when blank or not a number)."""
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def amount_text(value: Decimal) -> str:
    """28, 4.5 (no trailing zeros)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def form_for(system: System, pers: Sequence[str]) -> Form | None:
    """The system's record form kept per one of ``pers`` ("date", "scenario", "rg"), or None."""
    for form in system.forms:
        if form.per in pers:
            return form
    return None


def date_label(date_id: str, entry: CalendarEntry | None) -> str:
    """A CG Roster's date cell: "19 PM", "Firefight 2 (Hill 97)", "19 Night · Night"."""
    label = str(date_id)
    if entry is not None:
        if entry.name and entry.name != entry.id:
            label = f"{label} ({entry.name})"
        if entry.night and "night" not in label.casefold():
            label = f"{label} · Night"
    return label


def cell_text(cell: Cell | None) -> str:
    """A printed calendar cell (EC, weather) as text."""
    return "" if cell is None else cell.text
