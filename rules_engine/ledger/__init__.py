"""A side's secret books: points, the RG Purchase Record (RR 2.5188), fortifications and the CG Roster (RR 2.518).

Modules: ``amounts`` (point amounts), ``lines`` (record and roster lines), ``side`` (``SideLedger``), ``json_fields``.
"""
from __future__ import annotations

from rules_engine.ledger.amounts import SETUP_MODES, STRENGTHS, Amount, amount_text, to_decimal
from rules_engine.ledger.lines import FortificationLine, ItemLine, PurchaseLine, RosterLine
from rules_engine.ledger.side import SideLedger, new_ledger

__all__ = [
    "SETUP_MODES",
    "STRENGTHS",
    "Amount",
    "FortificationLine",
    "ItemLine",
    "PurchaseLine",
    "RosterLine",
    "SideLedger",
    "amount_text",
    "new_ledger",
    "to_decimal",
]
