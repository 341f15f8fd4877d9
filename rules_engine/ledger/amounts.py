"""Point amounts as the books keep them (Decimals: A-P mine factors cost 1.5 FPP) and the fixed words of a line."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import TypeAlias

Amount: TypeAlias = Decimal | int | str
"""Anything a point amount is written as; stored as a Decimal (A-P mine factors cost 1.5 FPP)."""

SETUP_MODES = ("entry", "on-map", "reserve")
STRENGTHS = ("F", "D")


def to_decimal(value: Amount | float) -> Decimal:
    """A point amount as a Decimal (floats through their shortest text: 1.5 → Decimal('1.5'))."""
    if isinstance(value, bool):
        raise ValueError(f"not a point amount: {value!r}")
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"not a point amount: {value!r}") from None


def amount_text(value: Decimal) -> str:
    """A point amount as printed: ``28``, ``1.5`` (no trailing zeros)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def frozen_mapping[K, V](mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy of a mapping (the books' lines are frozen)."""
    return MappingProxyType(dict(mapping))
