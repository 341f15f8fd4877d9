"""What the secret-order forms show besides the RG chart and the fortification table (read only, for selectors and
views): the Attack Option (PL 2.4), the Patrol purchase (PL 2.31), points bought with points at the fortification step
(PL 2.38 CP → FP, PHD C5.35 TP → DSP) and the choice of who resolves first (PL 2.74).

Every number a player may type here is bounded: ``max_now`` is the most the rules and the side's points allow now.
"""
from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from campaigns_app.engine import System
from rules_engine.board import repair_thresholds
from rules_engine.ledger import amount_text, new_ledger
from rules_engine.purchases import patrol_allowance, side_setting
from rules_engine.sequence import ORDER_TYPES
from rules_engine.view import SideView


def _int_setting(system: System, setting_id: str, side: str) -> int | None:
    value = side_setting(system, setting_id, side)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _setting_label(system: System, setting_id: str) -> str:
    found = next((s for s in system.settings if s.id == setting_id), None)
    return str(found.label) if found is not None else setting_id


def attack_option(system: System, view: SideView, step: Any, currency: str | None) -> dict[str, Any] | None:
    """PL 2.4: the Attack Option box of the order form (None where this step buys none)."""
    initiative = system.initiative
    if "AttackOptionOrder" not in ORDER_TYPES.get(step.action or "", ()) or initiative is None \
            or initiative.mode != "purchase":
        return None
    ref = next((s.ref for s in system.settings if s.id == "attack_option_cost" and s.ref), None) or initiative.ref
    if view.pass_kind == "initial":
        return {"ref": ref, "initial": True}
    ledger = view.ledger or new_ledger(view.side)
    cost = _int_setting(system, "attack_option_cost", view.side)
    balance = ledger.balance(currency) if currency else Decimal(0)
    problem = None
    if cost is None:
        problem = (f"The CG Card gives no {_setting_label(system, 'attack_option_cost')}: the Attack Option cannot "
                   "be bought with this card.")
    elif ledger.items_on(view.date_id, "attack-option"):
        problem = "You have already bought the Attack Option for this firefight."
    elif cost > balance:
        problem = f"It costs {cost} {currency}; you have {amount_text(balance)} {currency}."
    return {"ref": ref, "initial": False, "cost": cost, "currency": currency, "problem": problem}


def patrol_purchase(system: System, view: SideView, currency: str | None) -> dict[str, Any]:
    """PL 2.31: the Patrol purchase form (how many, at most, at what price)."""
    side = view.side
    ledger = view.ledger or new_ledger(side)
    allowance = patrol_allowance(system, ledger, side, view.date_id)
    balance = ledger.balance(currency) if currency else Decimal(0)
    max_now = 0
    if allowance.problem is None and allowance.price:
        afford = int(balance // allowance.price)
        left = max(0, allowance.most - allowance.have) if allowance.most is not None else afford
        max_now = max(0, min(left, afford))
    intensity = side_setting(system, "intensity", side)
    return {"ref": allowance.ref, "price": allowance.price, "most": allowance.most, "have": allowance.have,
            "max_now": max_now, "problem": allowance.problem, "currency": currency,
            "intensity": str(intensity).capitalize() if intensity else None, "balance": amount_text(balance)}


def points_purchase(system: System, side: str, ledger: Any) -> dict[str, Any] | None:
    """PL 2.38 / PHD C5.35: the points the fortification step sells for another currency (None when it sells none)."""
    table = system.fortifications
    if table is None:
        return None
    target = next((c for c in system.currencies if c.code == table.currency and c.bought_with is not None), None)
    bought = target.bought_with if target is not None else None
    if target is None or bought is None:
        return None
    # only where a fortification step sells them for that currency (PL 2.38 ``bought_with: CP``, PHD C5.35); RR's
    # FPP come with RG M1 (bought on the RG chart), never by a conversion at 2.520
    if not any(s.action == "purchase-fortifications" and s.params.get("bought_with") == bought.currency
               for s in system.steps):
        return None
    code, paid_with = target.code, bought.currency
    ledger = ledger or new_ledger(side)
    balance = ledger.balance(paid_with)
    price_id = f"{code.casefold()}_price"
    price = _int_setting(system, price_id, side)
    problem = None
    if side_setting(system, f"{code.casefold()}_allowed", side) is False:
        problem = f"This CG Card gives your side no {code} ({target.ref or ''})."
    elif price is None:
        problem = (f"The {paid_with} price of {code} is not in the rule text and the CG Card gives none "
                   f"({_setting_label(system, price_id)}); add it to the card to buy {code} here.")
    max_now = int(balance // price) if price and problem is None else 0
    return {"code": code, "name": target.name, "paid_with": paid_with, "price": price, "ref": target.ref,
            "balance": amount_text(balance), "max_now": max_now, "problem": problem}


def resolution_choice(system: System, view: SideView) -> dict[str, Any] | None:
    """PL 2.74: both sides resolve at this step and the order is not chosen yet — who chooses, and the choices."""
    found = view.resolution
    if found is None:
        return None
    chooser, side = found.chooser, view.side
    return {"you_choose": chooser == side, "chooser_name": system.side(chooser).name if chooser else None,
            "sides": [{"id": s, "name": system.side(s).name, "you": s == side} for s in found.sides]}


def chosen_option(system: System, step: Any) -> dict[str, Any] | None:
    """The players' choice a step plays by (``params.setting`` with ``params.describe``: PL 3.2 / 2.5 / 3.34 the
    Redeployment Option), in words."""
    if step is None:
        return None
    setting_id, words = step.params.get("setting"), step.params.get("describe")
    if not isinstance(setting_id, str) or not hasattr(words, "get"):
        return None
    value = system.settings_values.get(setting_id)
    if value is None:
        return None
    return {"label": _setting_label(system, setting_id), "value": str(value), "text": words.get(str(value)) or ""}


def repair_rows(system: System, step: Any) -> list[dict[str, Any]]:
    """PL 3.46 / 3.461: what a repair roll may be for at this step, by the ``repair`` rule's thresholds."""
    return [{"id": str(t.get("id")), "item": str(t.get("item")), "most": t.get("success_max"),
             "as_written": str(t.get("as_written") or ""), "drm": [str(d) for d in _items(t.get("drm"))],
             "failure": str(t.get("failure") or "")} for t in repair_thresholds(system, step)]


def _items(value: object) -> Iterable[object]:
    """``value``'s items when it is a list or tuple, else none."""
    return value if isinstance(value, (list, tuple)) else ()
