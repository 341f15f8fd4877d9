"""Thin views for the secret orders: RG, fortifications, points, Attack Option, patrols, repairs, recon."""
from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST

from campaigns_app import door, engine, services
from campaigns_app.models import Seat
from campaigns_app.phase import form_numbers, order_forms
from campaigns_app.phase.views import phase_response, run_phase
from campaigns_app.web import int_field, player, seated
from rules_engine.board import REPAIR_DRM
from rules_engine.sequence import main_currency


def _rg_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    system = engine.system_for(seat.campaign)
    orders: list[dict[str, Any]] = []
    try:
        chart = system.rg_chart(seat.side)
    except Exception:
        return orders
    for row in chart.rows:
        count = int_field(request, f"qty-{row.id}", f"RG {row.id} quantity", problems, 0, 0, 20) or 0
        if not count:
            continue
        order = {
            "type": "rg", "rg_id": row.id,
            "setup_mode": str(request.POST.get(f"mode-{row.id}") or "entry")[:40],
            "pre_registered": int_field(request, f"pre-{row.id}", f"RG {row.id} Pre-Registered hexes", problems, 0, 0),
            "extra": int_field(request, f"extra-{row.id}", f"RG {row.id} extra points", problems, 0, 0),
            "setup_area": str(request.POST.get(f"area-{row.id}", "")).strip()[:80] or None,
            "objective_hex": str(request.POST.get(f"ohex-{row.id}", "")).strip()[:200] or None,
        }
        orders.extend(dict(order) for _ in range(count))
    return orders


def _currency(seat: Seat) -> str | None:
    return main_currency(engine.system_for(seat.campaign))


POINTS_MAX = 999


def _points_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    """PL 2.38 / PHD C5.35: the points the fortification form buys with another currency (FP with CP, DSP with TP)."""
    if "points" not in request.POST:
        return []
    offer = order_forms.points_purchase(door.system_of(seat.campaign), seat.side,
                                        door.side_view(seat.campaign, seat.side).ledger)
    if offer is None:
        return []
    high = POINTS_MAX if offer["problem"] else offer["max_now"]
    amount = int_field(request, "points", f"{offer['code']} to buy with {offer['paid_with']}", problems, 0, 0,
                        high) or 0
    return [{"type": "points", "currency": offer["code"], "amount": amount}] if amount else []


def _fort_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    system = engine.system_for(seat.campaign)
    table = system.fortifications
    orders: list[dict[str, Any]] = []
    if table is None:
        return orders
    for index, row in enumerate(table.rows):
        quantity = int_field(request, f"fqty-{index}", f"{row.type} quantity", problems, 0, 0, 999) or 0
        if not quantity:
            continue
        order: dict[str, Any] = {"type": "fort", "fort_type": row.type, "quantity": quantity}
        option = str(request.POST.get(f"fopt-{index}", "")).strip()
        if row.cost.kind == "by_capacity" and option:
            order["capacity"] = form_numbers.whole_number(option, f"{row.type} capacity", problems, None, 0)
        elif row.cost.kind == "by_unit" and option:
            order["unit"] = option[:80]
        if row.cost.kind == "formula":
            order["ca_drm"] = int_field(request, f"fca-{index}", f"{row.type} CA DRM", problems, None, None)
            order["nca_drm"] = int_field(request, f"fnca-{index}", f"{row.type} NCA DRM", problems, None, None)
        if row.cost.kind == "multiplier":
            order["base_cost"] = int_field(request, f"fbase-{index}", f"{row.type} base points", problems, None, 0)
        orders.append(order)
    return orders


@seated
@require_POST
def order_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The side's secret order at the current input step (RG, fortifications, Attack Option, patrols, points)."""
    problems: list[str] = []
    orders: list[dict[str, Any]] = []
    if request.POST.get("nothing") != "yes":
        orders = _points_orders(request, seat, problems) + _rg_orders(request, seat, problems) \
            + _fort_orders(request, seat, problems)
        if request.POST.get("attack_option") == "yes":
            orders.append({"type": "attack-option"})
        if "patrols" in request.POST:
            most = order_forms.patrol_purchase(door.system_of(seat.campaign), door.side_view(seat.campaign, seat.side),
                                               _currency(seat))["most"]
            high = most if most is not None else 20
            patrols = int_field(request, "patrols", "Patrols", problems, 0, 0, high) or 0
            if patrols:
                orders.append({"type": "patrol", "count": patrols})
        if not orders and not problems:
            problems.append("Your order is empty. Enter a quantity for what you buy, or choose “Buy nothing this time”.")
    typed = _order_typed(request)  # a refused form comes back with everything typed
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems, **typed)
    token = str(request.POST.get("token", ""))
    return run_phase(request, seat, lambda: services.order_submit(
        user=player(request), public_id=seat.campaign.public_id, orders=orders, token=token),
        "Your order is recorded (secret).", refused_extra=typed)


ORDER_FIELDS = ("qty-", "mode-", "pre-", "extra-", "ohex-", "fqty-", "fopt-", "fca-", "fnca-", "fbase-")


def _order_typed(request: HttpRequest) -> dict[str, Any]:
    """The order, fortification, Patrol, points and Attack Option fields as typed (short excerpts, a bounded number of
    them), as the order templates read them back."""
    fields: dict[str, str] = {}
    for key in list(request.POST.keys())[:400]:
        if key.startswith(ORDER_FIELDS) and len(key) <= 40:
            fields[key] = str(request.POST.get(key, ""))[:40]
    return {"order_typed": fields,
            "patrols_typed": str(request.POST.get("patrols", ""))[:40],
            "points_typed": str(request.POST.get("points", ""))[:40],
            "attack_option_typed": request.POST.get("attack_option") == "yes"}


@seated
@require_POST
def repair_roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """PL 3.46 / 3.461: a repair dr — what is repaired, the DRM the rule names (their total), what for."""
    problems: list[str] = []
    low, high = REPAIR_DRM
    drm = int_field(request, "drm", "The DRM", problems, 0, low, high)
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return run_phase(request, seat, lambda: services.repair_roll_submit(
        user=player(request), public_id=seat.campaign.public_id, threshold=str(request.POST.get("threshold", "")),
        drm=drm or 0, purpose=str(request.POST.get("purpose", "")), token=token), "Rolled.")


@seated
@require_POST
def resolution_order_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """PL 2.74: the chooser names the side that resolves its Patrols first."""
    first = str(request.POST.get("first", "")).strip()
    sides = engine.side_ids(engine.system_for(seat.campaign))
    if first not in sides:
        return phase_response(request, seat, 422, phase_errors=["Choose which side resolves its Patrols first."])
    token = str(request.POST.get("token", ""))
    return run_phase(request, seat, lambda: services.resolution_order_submit(
        user=player(request), public_id=seat.campaign.public_id, first=first, token=token),
        "The order of resolution is recorded.")


@seated
@require_POST
def recon_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """RR 2.521: no Recon, or Recon with 0–3 extra CPP."""
    problems: list[str] = []
    choice = str(request.POST.get("recon", "")).strip()
    extra: int | None = None
    if choice == "none":
        extra = None
    elif choice == "buy":
        extra = int_field(request, "extra", "Extra CPP", problems, 0, 0)
    else:
        problems.append("Choose “No Recon” or “Buy Recon”.")
    if problems:
        return phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return run_phase(request, seat, lambda: services.recon_submit(
        user=player(request), public_id=seat.campaign.public_id, extra=extra, token=token),
        "Recon recorded." if extra is not None else "No Recon this CG Date.")
