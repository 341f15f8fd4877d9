"""Secret purchases: RG (RR 2.518, PL 2.3, PHD C5.31), Attack Option (PL 2.4), Patrols (PL 2.31), points and
fortifications (RR 2.520).

``validate_order`` (validation) lists every broken rule (each message cites it); ``apply_order`` (resolution) records a
valid order. All limits, costs and surcharges come from the system's data (RG charts and notes, setup costs, limits,
settings, special rules). Modules: ``orders`` (what may be ordered), ``lookups`` (data and settings), ``costs``,
``rg_checks`` and ``patrols_recon`` (the rules an order may break), ``validation``, ``record_lines``, ``resolution``.
"""
from __future__ import annotations

from rules_engine.fortification_purchase import FortOrder, Violation
from rules_engine.purchases.costs import rg_order_cost
from rules_engine.purchases.lookups import (
    int_settings,
    objective_hex_prefixes,
    purchase_currency,
    purchase_ref,
    rule_rg_ids,
    side_setting,
)
from rules_engine.purchases.orders import (
    OBJECTIVE_HEX_MAX,
    AttackOptionOrder,
    Order,
    PatrolOrder,
    PointsOrder,
    RgOrder,
)
from rules_engine.purchases.patrols_recon import PatrolAllowance, patrol_allowance, recon_row, recon_step
from rules_engine.purchases.record_lines import record_initial_ob
from rules_engine.purchases.resolution import apply_order, record_order
from rules_engine.purchases.validation import missing_value_violation, validate_order

__all__ = [
    "OBJECTIVE_HEX_MAX",
    "AttackOptionOrder",
    "FortOrder",
    "Order",
    "PatrolAllowance",
    "PatrolOrder",
    "PointsOrder",
    "RgOrder",
    "Violation",
    "apply_order",
    "int_settings",
    "missing_value_violation",
    "objective_hex_prefixes",
    "patrol_allowance",
    "purchase_currency",
    "purchase_ref",
    "record_order",
    "recon_row",
    "recon_step",
    "record_initial_ob",
    "rg_order_cost",
    "rule_rg_ids",
    "side_setting",
    "validate_order",
]
