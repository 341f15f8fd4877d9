"""What a side may order in a secret purchase: an RG (RR 2.518, PL 2.3, PHD C5.31), the Attack Option (PL 2.4), Patrols
(PL 2.31), points (PL 2.38, PHD C5.35); fortifications are ``FortOrder`` (RR 2.520)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from rules_engine.fortification_purchase import FortOrder
from rules_engine.unshadowed import unshadowed


@unshadowed
@dataclass(frozen=True)
class RgOrder:
    """Buy one RG: set-up mode (entry | on-map | reserve), Pre-Registered hexes (note p), extra CPP (note r)."""

    rg_id: str
    setup_mode: str = "entry"
    pre_registered: int = 0
    extra: int = 0
    setup_area: str | None = None
    objective_hex: str | None = None  # KGP 8.2/8.6198: the hex an "I"/"HW" RG lets its side secretly designate


OBJECTIVE_HEX_MAX = 40  # characters of a designated Objective Hex ("12K4", "St/EE23")


@dataclass(frozen=True)
class AttackOptionOrder:
    """Buy the Attack Option for this firefight (PL 2.4; its cost is on the CG Card)."""


@dataclass(frozen=True)
class PatrolOrder:
    """Buy Patrols (PL 2.31: one CP each unless the CG Card says otherwise)."""

    count: int = 1


@dataclass(frozen=True)
class PointsOrder:
    """Buy points of one currency with another (FP with CP, PL 2.38; DSP with TP, PHD C5.35)."""

    currency: str
    amount: int


Order: TypeAlias = RgOrder | FortOrder | AttackOptionOrder | PatrolOrder | PointsOrder
