"""The running totals of a batch of orders while it is validated in order (points left, counts bought so far)."""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal


@dataclass
class Batch:
    """Running totals while a batch of orders is checked in order."""

    left: Decimal
    gives: dict[str, Decimal]
    date_counts: dict[str, int]
    cg_counts: dict[str, int]
    infantry: int = 0
    patrols: int = 0
    attack: int = 0
