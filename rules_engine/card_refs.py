"""The rule numbers of the card parts the card builder labels (calendar, Initial OB, CG Victory Conditions, RG charts),
per system, as the rules catalog gives them (../shared/rules-catalog.md). A part the catalog gives no number for has
none here: its fields are labelled with the printed chart only.

Sources: PL 1.7 (the CG Firefights are on each CG Card: 1.2, 2.2, 2.42), 1.8 (CG End: 1.3), 1.2 (2.3 Purchasing
Reinforcements); RR 2.6 (CPP Base Numbers 2.5161, weather 2.517); ER 3.5 (calendar and weather 1.517); PHD 4.6 (C4.2
TM dates, C5.30 Weather Table), 4.4 (C5.31 RG chart columns; the Initial TM OB C4.2), 4.8 (the TM Objective C4.2);
KGP 5.6 (CG Dates 8.51–.53, weather 8.617; the CG continues until its Victory Conditions are met 8.3, the specific
ones in 8.51–.53), 5.1 (CPP buy RG in 8.619) and the gap list, section 7 (8.51–.53: the CG calendars, Initial Scenarios and CG VC).
"""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.model import System

PART_REFS: Mapping[str, Mapping[str, str]] = {
    "pl25": {"calendar": "1.2, 2.2, 2.42", "victory_conditions": "1.3", "rg_charts": "2.3"},
    "rr": {"calendar": "2.5161, 2.517"},
    "er": {"calendar": "1.517"},
    "phd": {"calendar": "C4.2, C5.30", "initial_ob": "C4.2", "victory_conditions": "C4.2", "rg_charts": "C5.31"},
    "kgp": {"calendar": "8.51–.53, 8.617", "initial_ob": "8.51–.53", "victory_conditions": "8.3, 8.51–.53",
            "rg_charts": "8.619"},
}
"""System id → card part → the rule number(s) the catalog gives for it."""


def part_ref(system: System, part: str) -> str:
    """The rule number(s) of a card part of ``system`` ("" where the catalog gives none)."""
    return PART_REFS.get(system.id, {}).get(part, "")


__all__ = ["PART_REFS", "part_ref"]
