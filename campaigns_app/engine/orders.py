"""Engine order objects from plain data (what the order forms post and scripted tests pass)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import cast

from rules_engine.errors import RulesError
from rules_engine.fortification_purchase import FortOrder
from rules_engine.purchases import AttackOptionOrder, Order, PatrolOrder, PointsOrder, RgOrder

OrderData = Mapping[str, object]


def _int(value: object) -> int:
    """A posted whole number (0 for nothing)."""
    return int(cast(int | str, value or 0))


def _rg(item: OrderData) -> RgOrder:
    return RgOrder(str(item["rg_id"]), str(item.get("setup_mode") or "entry"), _int(item.get("pre_registered")),
                   _int(item.get("extra")), cast(str | None, item.get("setup_area") or None),
                   cast(str | None, item.get("objective_hex") or None))


def _fort(item: OrderData) -> FortOrder:
    """A fortification order; its options as posted (the engine checks them)."""
    number = {name: cast(int | None, item.get(name)) for name in ("capacity", "ca_drm", "nca_drm", "base_cost")}
    return FortOrder(str(item["fort_type"]), _int(item.get("quantity") or 1), number["capacity"],
                     cast(str | None, item.get("unit")), number["ca_drm"], number["nca_drm"], number["base_cost"])


def build_order(item: OrderData) -> Order:
    """One order: ``{"type": "rg", "rg_id", "setup_mode", "pre_registered", "extra", "setup_area"}``, ``{"type":
    "fort", "fort_type", "quantity", "capacity", "unit", "ca_drm", "nca_drm", "base_cost"}``, ``{"type":
    "attack-option"}``, ``{"type": "patrol", "count"}``, ``{"type": "points", "currency", "amount"}``."""
    kind = item.get("type")
    if kind == "rg":
        return _rg(item)
    if kind == "fort":
        return _fort(item)
    if kind == "attack-option":
        return AttackOptionOrder()
    if kind == "patrol":
        return PatrolOrder(_int(item.get("count") or 1))
    if kind == "points":
        return PointsOrder(str(item["currency"]), _int(item.get("amount")))
    raise RulesError(f"Unknown order type {kind!r} (allowed: rg, fort, attack-option, patrol, points)")


def build_orders(items: Iterable[OrderData]) -> list[Order]:
    """Engine order objects from plain data, in order (see build_order)."""
    return [build_order(item) for item in items]
