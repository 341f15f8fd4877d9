"""Thin views: parse the request, call a service or selector, render.

Every campaign URL answers 404 — never 403, never a login redirect — to anyone without a seat there (anonymous
visitors included), so a URL never confirms that a campaign exists.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns_app import (
    card_selectors, end_selectors, engine, form_numbers, fragments, live, lost_value_selectors, notifications,
    order_forms, selectors, services,
)
from campaigns_app.forms import CampaignCreateForm, ChitForm, PlayerSeedForm, SignupForm
from campaigns_app.models import Invitation, Seat

NOT_FOUND = "No such campaign."
DEFAULT_SYSTEM = "rr"  # preselected on the create page when loaded

SeatView = Callable[..., HttpResponse]


def seated(view: SeatView) -> Callable[..., HttpResponse]:
    """Resolve the user's seat in ``public_id`` or answer 404 (anonymous, third user and unknown id alike)."""

    @wraps(view)
    def wrapper(request: HttpRequest, public_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
        seat = selectors.seat_for(public_id, request.user)
        if seat is None:
            raise Http404(NOT_FOUND)
        return view(request, seat, *args, **kwargs)

    return wrapper


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _safe_next(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return target
    return fallback


# ----------------------------------------------------------------------------------------------------------- pages


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"nav": "home"})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_safe_next(request, reverse("campaign_list")))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        notifications.address_reused(request, user)  # the address's other account(s), told by e-mail only
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Refit, {user.get_username()}.")
        return redirect(_safe_next(request, reverse("campaign_list")))
    return render(request, "registration/signup.html", {"form": form, "next": _safe_next(request, ""), "nav": "signup"})


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    rows = selectors.campaign_rows(request.user)
    return render(request, "campaigns/list.html", {"rows": rows, "nav": "campaigns"})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    systems = card_selectors.create_choices(request.user)  # every system, with the user's (and bundled) CG Cards (K5)
    default = next((s["id"] for s in systems if s["id"] == DEFAULT_SYSTEM), systems[0]["id"] if systems else "")
    chosen_id = request.POST.get("system") or request.GET.get("system") or default
    chosen = next((s for s in systems if s["id"] == chosen_id), systems[0] if systems else None)
    card_ids = [card["id"] for card in chosen["cards"]] if chosen else []
    chosen_card = request.POST.get("card", request.GET.get("card", ""))
    if chosen_card not in card_ids:
        chosen_card = card_ids[0] if chosen and chosen["needs_card"] and card_ids else ""
    side_choices = chosen["sides"] if chosen else []
    initial = {"system": chosen["id"], "side": request.GET.get("side", "")} if chosen else {}
    form = CampaignCreateForm(request.POST or None, side_choices=side_choices, initial=initial)
    form.fields["system"].queryset = form.fields["system"].queryset.filter(id__in=[s["id"] for s in systems])
    # the players' choices (``source: players`` settings) of the chosen system with the chosen card
    setting_system = card_selectors.create_system(request.user, chosen["id"], chosen_card) if chosen else None
    submitted = (card_selectors.player_settings_from_post(setting_system, request.POST)
                 if request.method == "POST" and setting_system is not None else None)
    problems: dict[str, str] = {}
    typed_lost = lost_value_selectors.lost_values_from_post(request.POST) if request.method == "POST" else {}
    lost_problems: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = services.campaign_create(
                    user=request.user,
                    system_id=form.cleaned_data["system"].id,
                    side=form.cleaned_data["side"],
                    name=form.cleaned_data["name"],
                    card_id=request.POST.get("card") or None,
                    player_seed=form.cleaned_data.get("player_seed"),
                    player_settings=submitted,
                    lost_values=typed_lost,
                )
            except services.PlayerSettingsInvalid as error:
                problems = error.problems
                form.add_error(None, str(error))
            except services.LostValuesInvalid as error:
                lost_problems = error.problems
                form.add_error(None, "Type every value lost in the rule text as printed on your chart"
                               + (f": {error.problems['']}" if "" in error.problems else " (see each value below)."))
            except services.ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, "Campaign created. Send the invitation link to your opponent.")
                return redirect("campaign_invite", public_id=campaign.public_id)
        status = 400
    setting_fields = card_selectors.player_setting_fields(setting_system, submitted) if setting_system else []
    for field in setting_fields:
        field["problem"] = problems.get(field["id"], "")
    lost_fields = lost_value_selectors.lost_value_fields(setting_system, typed_lost, lost_problems)
    return render(
        request, "campaigns/create.html",
        {"form": form, "systems": systems, "chosen": chosen, "chosen_card": chosen_card, "setting_fields": setting_fields,
         "lost_fields": lost_fields, "nav": "create"}, status=status,
    )


@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = (Invitation.objects.filter(token=token)
                  .select_related("campaign", "campaign__system", "campaign__created_by")
                  .defer("campaign__system__definition").first())
    if invitation is None:
        raise Http404("This invitation link is not valid.")
    campaign = invitation.campaign
    seats = list(Seat.objects.filter(campaign=campaign))
    if request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in seats):
        return redirect("campaign_detail", public_id=campaign.public_id)
    system = engine.system_for(campaign)
    free_side = engine.other_side(system, seats[0].side) if len(seats) == 1 else None
    context = {
        "invitation": invitation,
        "campaign": campaign,
        "creator": campaign.created_by.get_username(),
        "system_name": campaign.system.name,
        "free_side_name": engine.side_name(system, free_side) if free_side else None,
        "creator_side_name": engine.side_name(system, seats[0].side) if seats else None,
        "full": free_side is None,
        "card_name": campaign.card_name,
        "choices": card_selectors.campaign_choices(campaign),
        "lost_values": lost_value_selectors.campaign_lost_values(campaign),
        "error": None,
        "seed_form": PlayerSeedForm(request.POST if request.method == "POST" else None),
    }
    if free_side is None:
        return render(request, "campaigns/join.html", context, status=409)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        seed_form = context["seed_form"]
        if not seed_form.is_valid():
            context["error"] = " ".join(str(e) for e in seed_form.errors.get("player_seed", [])) or "Check your player seed."
            return render(request, "campaigns/join.html", context, status=400)
        try:
            services.campaign_join(user=request.user, token=token, player_seed=seed_form.cleaned_data.get("player_seed"))
        except services.CampaignFull as error:
            context.update(full=True, error=str(error))
            return render(request, "campaigns/join.html", context, status=409)
        except services.ServiceError as error:
            context["error"] = str(error)
            return render(request, "campaigns/join.html", context, status=400)
        messages.success(request, f"You joined {campaign.name} as the {context['free_side_name']} side.")
        return redirect("campaign_detail", public_id=campaign.public_id)
    return render(request, "campaigns/join.html", context)


@seated
@require_GET
def campaign_invite(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    invitation = campaign.invitations.order_by("created").first()
    link = request.build_absolute_uri(reverse("campaign_join", args=[invitation.token])) if invitation else ""
    opponent = Seat.objects.filter(campaign=campaign).exclude(pk=seat.pk).select_related("user").first()
    return render(request, "campaigns/invite.html", {
        "campaign": campaign, "seat": seat, "link": link, "opponent": opponent,
        "choices": card_selectors.campaign_choices(campaign),
        "lost_values": lost_value_selectors.campaign_lost_values(campaign),
    })


# The live page and its fragments. Every live fragment carries the version of the seat's view it shows
# (campaigns_app.live), so the page never lets an older one replace a newer one, whichever arrives last. Fragments
# with nothing of this response's own (no error, notice or confirmation) are the seat's published view — the very HTML
# its websocket frames carry; the others, and whole pages, are rendered under the campaign's row lock at that version.


def _page(request: HttpRequest, seat: Seat, status: int = 200, **extra: Any) -> HttpResponse:
    """The whole live page (with CSRF fields: its forms also post without JavaScript)."""
    return live.render(seat, lambda context: render(request, "campaigns/detail.html", context, status=status), **extra)


def _fragments(seat: Seat, ids: list[str], status: int = 200, **extra: Any) -> HttpResponse:
    """Live fragments for htmx: the published view, or rendered with ``extra`` (errors, a notice, a confirmation) —
    like the published view, without the request (no CSRF field: htmx sends the header), so only ``extra`` differs."""
    if not extra:
        view = live.published(seat.pk)
        if view is None:
            raise Http404(NOT_FOUND)
        return HttpResponse("".join(view.stamped(f) for f in ids), status=status)
    return live.render(seat, lambda context: HttpResponse(
        "".join(fragments.render_fragment(f, context) for f in ids), status=status), **extra)


@seated
@require_GET
def campaign_detail(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, seat)


@seated
@require_GET
def campaign_fragments(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The live fragments over plain HTTP: one (``?part=chit-panel``) or all as out-of-band swaps."""
    part = request.GET.get("part")
    if part and part not in fragments.FRAGMENTS:
        raise Http404("No such fragment.")
    return _fragments(seat, [part] if part else list(fragments.FRAGMENTS))


@seated
@require_GET
def campaign_history(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    system = engine.system_for(campaign)
    return render(request, "campaigns/history.html", {
        "campaign": campaign,
        "seat": seat,
        "side_name": engine.side_name(system, seat.side),
        "events": selectors.history(campaign, seat),
    })


def _panel_response(request: HttpRequest, seat: Seat, status: int, **extra: Any) -> HttpResponse:
    """The chit panel alone (htmx) or the whole live page (no JavaScript), with ``extra`` in its context."""
    if _is_htmx(request):
        return _fragments(seat, ["chit-panel"], status, **extra)
    return _page(request, seat, status, **extra)


def _chit_fields(request: HttpRequest, seat: Seat) -> tuple[str, str, str | None]:
    """The posted side and chit, and the first problem with them (form shape, then the rules)."""
    form = ChitForm(request.POST)
    side = str(request.POST.get("side", ""))
    if len(request.POST.getlist("chit")) > 1 or len(request.POST.getlist("side")) > 1:
        return side, "", "Choose one chit, Attack or Idle, once (the form sent more than one)."
    chit = str(request.POST.get("chit", "")).strip().lower()
    if not form.is_valid():
        if "chit" in form.errors and not request.POST.get("chit"):
            return side, chit, "Choose Attack or Idle."
        problems = [str(error) for errors in form.errors.values() for error in errors]
        return side, chit, " ".join(problems)
    return side, chit, selectors.seat_chit_problem(seat, side, chit)


@seated
@require_POST
def chit_confirm(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Step one of two: check the choice and ask "Submit Attack? This is final." (nothing is saved yet)."""
    side, chit, problem = _chit_fields(request, seat)
    if problem:
        return _panel_response(request, seat, 422, chit_error=problem)
    return _panel_response(request, seat, 200, confirm_chit=chit)


@seated
@require_POST
def chit_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Step two: seal the chit (final)."""
    side, chit, problem = _chit_fields(request, seat)
    if problem:
        return _panel_response(request, seat, 422, chit_error=problem)
    if request.POST.get("confirmed") != "yes":
        return _panel_response(request, seat, 200, confirm_chit=chit)
    try:
        services.chit_submit(user=request.user, public_id=seat.campaign.public_id, side=side, chit=chit)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        return _panel_response(request, seat, 422, chit_error=str(error))
    if _is_htmx(request):
        return _panel_response(request, seat, 200)
    messages.success(request, f"Your {chit.capitalize()} chit is sealed.")
    return redirect("campaign_detail", public_id=seat.campaign.public_id)


def _action(request: HttpRequest, seat: Seat, service: Callable[..., Any], done: str) -> HttpResponse:
    try:
        service(user=request.user, public_id=seat.campaign.public_id)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        if _is_htmx(request):
            return _fragments(seat, ["owes"], 422, action_error=str(error))
        return _page(request, seat, 422, action_error=str(error))
    if _is_htmx(request):
        return _fragments(seat, ["owes"])
    messages.success(request, done)
    return redirect("campaign_detail", public_id=seat.campaign.public_id)


@seated
@require_POST
def seed_set(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Change the user's own player seed (until the first roll); the page is shown again with the outcome."""
    form = PlayerSeedForm(request.POST)
    problem = None
    if not form.is_valid() or form.cleaned_data.get("player_seed") is None:
        problem = " ".join(str(e) for e in form.errors.get("player_seed", [])) or "Type your new player seed."
    else:
        try:
            services.seat_seed_set(user=request.user, public_id=seat.campaign.public_id,
                                   seed=form.cleaned_data["player_seed"])
        except services.NotSeated:
            raise Http404(NOT_FOUND) from None
        except services.ServiceError as error:
            problem = str(error)
    if problem:
        fresh = (Seat.objects.select_related("campaign", "campaign__system", "user")
                 .defer("campaign__system__definition").get(pk=seat.pk))
        return _page(request, fresh, 422, seed_error=problem)
    messages.success(request, "Your player seed is saved.")
    return redirect(f"{reverse('campaign_detail', args=[seat.campaign.public_id])}#dice-card")


@seated
@require_POST
def step_done(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _action(request, seat, services.step_mark_done, "Marked finished.")


@seated
@require_POST
def move_order(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _action(request, seat, services.move_order_roll, "The move-order roll is made.")


# ----------------------------------------------------------------------------------------------- between-scenario phase


def _phase_response(request: HttpRequest, seat: Seat, status: int = 200, done: str | None = None,
                    **extra: Any) -> HttpResponse:
    """After a phase action: htmx gets every live fragment (swapped out of band by id); without JavaScript the page
    is rendered again (refused: with the messages) or the browser is redirected to it (recorded)."""
    if _is_htmx(request):
        return _fragments(seat, list(fragments.FRAGMENTS), status, **extra)
    if status >= 400:
        return _page(request, seat, status, **extra)
    if done:
        messages.success(request, done)
    return redirect(f"{reverse('campaign_detail', args=[seat.campaign.public_id])}#step-panel")


REPLAYED = "That form was already recorded; nothing was changed."
STEP_ALREADY_FINISHED = "That step is already finished; the page has been refreshed."


def _run_phase(request: HttpRequest, seat: Seat, call: Callable[[], Any], done: str | Callable[[Any], str],
               replayed: str = REPLAYED, refused_extra: dict[str, Any] | None = None) -> HttpResponse:
    extra = refused_extra or {}
    try:
        campaign = call()
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.RefusedOrder as error:
        return _phase_response(request, seat, 422, phase_errors=error.messages, **extra)
    except services.ServiceError as error:
        return _phase_response(request, seat, 422, phase_errors=[str(error)], **extra)
    if getattr(campaign, "replayed", False):
        return _phase_response(request, seat, 200, done=replayed, phase_notice=replayed)
    return _phase_response(request, seat, 200, done=done(campaign) if callable(done) else done)


def _int_field(request: HttpRequest, name: str, label: str, problems: list[str], default: int | None = 0,
               low: int | None = 0, high: int | None = None) -> int | None:
    """The posted whole number, bounded (``form_numbers``): out of range or not a number is a problem and ``default``."""
    return form_numbers.field(request.POST, name, label, problems, default, low, high)


@seated
@require_POST
def phase_done(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Mark the step the form names finished for the user's side; a stale or resent form (its step already
    finished, or no longer current) finishes nothing and says so."""
    token = str(request.POST.get("token", ""))
    step_ref = str(request.POST.get("step", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    run = request.POST.get("run") == "yes"  # a run of on-the-board steps in one click
    return _run_phase(request, seat, lambda: services.phase_mark_done(
        user=request.user, public_id=seat.campaign.public_id, token=token, step_ref=step_ref, map_group=map_group,
        run=run),
        f"The scenario on {map_group} is marked finished." if map_group else
        "These steps are marked finished." if run else "Marked finished.",
        replayed=STEP_ALREADY_FINISHED)


def _rg_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    system = engine.system_for(seat.campaign)
    orders: list[dict[str, Any]] = []
    try:
        chart = system.rg_chart(seat.side)
    except Exception:
        return orders
    for row in chart.rows:
        count = _int_field(request, f"qty-{row.id}", f"RG {row.id} quantity", problems, 0, 0, 20) or 0
        if not count:
            continue
        order = {
            "type": "rg", "rg_id": row.id,
            "setup_mode": str(request.POST.get(f"mode-{row.id}") or "entry")[:40],
            "pre_registered": _int_field(request, f"pre-{row.id}", f"RG {row.id} Pre-Registered hexes", problems, 0, 0),
            "extra": _int_field(request, f"extra-{row.id}", f"RG {row.id} extra points", problems, 0, 0),
            "setup_area": str(request.POST.get(f"area-{row.id}", "")).strip()[:80] or None,
            "objective_hex": str(request.POST.get(f"ohex-{row.id}", "")).strip()[:200] or None,
        }
        orders.extend(dict(order) for _ in range(count))
    return orders


def _currency(seat: Seat) -> str | None:
    from rules_engine.sequence import main_currency

    return main_currency(engine.system_for(seat.campaign))


POINTS_MAX = 999


def _points_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    """PL 2.38 / PHD C5.35: the points the fortification form buys with another currency (FP with CP, DSP with TP)."""
    if "points" not in request.POST:
        return []
    state = engine.load_state(seat.campaign.state)
    offer = order_forms.points_purchase(engine.system_for(seat.campaign), seat.side, state.ledgers.get(seat.side))
    if offer is None:
        return []
    high = POINTS_MAX if offer["problem"] else offer["max_now"]
    amount = _int_field(request, "points", f"{offer['code']} to buy with {offer['paid_with']}", problems, 0, 0,
                        high) or 0
    return [{"type": "points", "currency": offer["code"], "amount": amount}] if amount else []


def _fort_orders(request: HttpRequest, seat: Seat, problems: list[str]) -> list[dict[str, Any]]:
    system = engine.system_for(seat.campaign)
    table = getattr(system, "fortifications", None)
    orders: list[dict[str, Any]] = []
    if table is None:
        return orders
    for index, row in enumerate(table.rows):
        quantity = _int_field(request, f"fqty-{index}", f"{row.type} quantity", problems, 0, 0, 999) or 0
        if not quantity:
            continue
        order: dict[str, Any] = {"type": "fort", "fort_type": row.type, "quantity": quantity}
        option = str(request.POST.get(f"fopt-{index}", "")).strip()
        if row.cost.kind == "by_capacity" and option:
            order["capacity"] = form_numbers.whole_number(option, f"{row.type} capacity", problems, None, 0)
        elif row.cost.kind == "by_unit" and option:
            order["unit"] = option[:80]
        if row.cost.kind == "formula":
            order["ca_drm"] = _int_field(request, f"fca-{index}", f"{row.type} CA DRM", problems, None, None)
            order["nca_drm"] = _int_field(request, f"fnca-{index}", f"{row.type} NCA DRM", problems, None, None)
        if row.cost.kind == "multiplier":
            order["base_cost"] = _int_field(request, f"fbase-{index}", f"{row.type} base points", problems, None, 0)
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
            most = order_forms.patrol_purchase(engine.system_for(seat.campaign), engine.load_state(seat.campaign.state),
                                               seat.side, _currency(seat))["most"]
            high = most if most is not None else 20
            patrols = _int_field(request, "patrols", "Patrols", problems, 0, 0, high) or 0
            if patrols:
                orders.append({"type": "patrol", "count": patrols})
        if not orders and not problems:
            problems.append("Your order is empty. Enter a quantity for what you buy, or choose “Buy nothing this time”.")
    typed = _order_typed(request)  # a refused form comes back with everything typed
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems, **typed)
    token = str(request.POST.get("token", ""))
    return _run_phase(request, seat, lambda: services.order_submit(
        user=request.user, public_id=seat.campaign.public_id, orders=orders, token=token),
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
    from rules_engine.board import REPAIR_DRM

    problems: list[str] = []
    low, high = REPAIR_DRM
    drm = _int_field(request, "drm", "The DRM", problems, 0, low, high)
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return _run_phase(request, seat, lambda: services.repair_roll_submit(
        user=request.user, public_id=seat.campaign.public_id, threshold=str(request.POST.get("threshold", "")),
        drm=drm or 0, purpose=str(request.POST.get("purpose", "")), token=token), "Rolled.")


@seated
@require_POST
def resolution_order_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """PL 2.74: the chooser names the side that resolves its Patrols first."""
    first = str(request.POST.get("first", "")).strip()
    sides = engine.side_ids(engine.system_for(seat.campaign))
    if first not in sides:
        return _phase_response(request, seat, 422, phase_errors=["Choose which side resolves its Patrols first."])
    token = str(request.POST.get("token", ""))
    return _run_phase(request, seat, lambda: services.resolution_order_submit(
        user=request.user, public_id=seat.campaign.public_id, first=first, token=token),
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
        extra = _int_field(request, "extra", "Extra CPP", problems, 0, 0)
    else:
        problems.append("Choose “No Recon” or “Buy Recon”.")
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return _run_phase(request, seat, lambda: services.recon_submit(
        user=request.user, public_id=seat.campaign.public_id, extra=extra, token=token),
        "Recon recorded." if extra is not None else "No Recon this CG Date.")


def _answers(request: HttpRequest, problems: list[str]) -> dict[int, int | bool]:
    """The DRM conditions a roll form posts: ``q-<index>`` ticked (``ask-<index>`` tick) or a number (count, value)."""
    answers: dict[int, int | bool] = {}
    for key, raw in request.POST.items():
        if not key.startswith("q-"):
            continue
        index = form_numbers.small_index(key[2:])
        if index is None:
            continue
        kind = str(request.POST.get(f"ask-{index}", "tick"))
        if kind == "tick":
            answers[index] = raw in ("on", "yes", "1", "true")
        else:
            value = _int_field(request, key, f"DRM {index + 1}", problems, None, None)
            if value:
                answers[index] = value
    return answers


@seated
@require_POST
def roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """An assisted roll: the table, its column and the DRM conditions the player ticked, counted or valued."""
    problems: list[str] = []
    table_id = str(request.POST.get("table", ""))
    column = str(request.POST.get("column", "")).strip() or None
    answers = _answers(request, problems)
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    return _run_phase(request, seat, lambda: services.assisted_roll_submit(
        user=request.user, public_id=seat.campaign.public_id, step_ref=str(request.POST.get("step", "")),
        table_id=table_id, column=column, answers=answers, token=token,
        what_for=str(request.POST.get("purpose", ""))), "Rolled.")


@seated
@require_POST
def board_roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Public rolls at the board (RR 2.504, the scenario): the dice (DR or dr), how many, and what they are for (and,
    with Map Groups in play, KGP 8.2, which Map Group's scenario)."""
    from rules_engine.board import COUNT_MAX

    problems: list[str] = []
    kind = str(request.POST.get("kind", "")).strip()
    purpose = str(request.POST.get("purpose", ""))
    count = _int_field(request, "count", "How many rolls", problems, 1, 1, COUNT_MAX)
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    typed = {"board_kind": kind, "board_count": request.POST.get("count", ""), "board_purpose": purpose[:200],
             "board_map_group": (map_group or "")[:20]}  # the form the typed values go back into
    if problems:
        where = f"Map Group {map_group}: " if map_group else ""
        return _phase_response(request, seat, 422, phase_errors=[where + p for p in problems], **typed)
    token = str(request.POST.get("token", ""))
    at = str(request.POST.get("at", ""))
    try:
        campaign = services.board_roll_submit(user=request.user, public_id=seat.campaign.public_id, at=at, kind=kind,
                                              count=count or 1, purpose=purpose, token=token, map_group=map_group)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        return _phase_response(request, seat, 422, phase_errors=[str(error)], **typed)
    if getattr(campaign, "replayed", False):
        return _phase_response(request, seat, 200, done=REPLAYED, phase_notice=REPLAYED)
    return _phase_response(request, seat, 200, done="Rolled.")


@seated
@require_POST
def scenario_roll_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """One of the scenario's own rolls (Game End dr …): the typed threshold and Game Turn, the DRM ticked."""
    from rules_engine.board import THRESHOLD_RANGE, TURN_MAX

    problems: list[str] = []
    roll_id = str(request.POST.get("roll", ""))
    threshold = _int_field(request, "threshold", "The number to compare with", problems, None, *THRESHOLD_RANGE)
    turn = _int_field(request, "turn", "The Game Turn", problems, None, 1, TURN_MAX)
    answers = _answers(request, problems)
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems)
    token = str(request.POST.get("token", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    return _run_phase(request, seat, lambda: services.scenario_roll_submit(
        user=request.user, public_id=seat.campaign.public_id, roll_id=roll_id, threshold=threshold, turn=turn,
        answers=answers, token=token, map_group=map_group), f"Rolled for {map_group}." if map_group else "Rolled.")


@seated
@require_POST
def declare_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """A declaration made at the board (KGP CG14 German Fanaticism): counted, and shown to both sides."""
    rule_id = str(request.POST.get("rule", ""))
    token = str(request.POST.get("token", ""))
    map_group = str(request.POST.get("map_group", "")).strip() or None
    return _run_phase(request, seat, lambda: services.declaration_submit(
        user=request.user, public_id=seat.campaign.public_id, rule_id=rule_id, token=token, map_group=map_group),
        "Declared.")


@seated
@require_POST
def results_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The side's entry of the scenario results (both must agree)."""
    system = engine.system_for(seat.campaign)
    problems: list[str] = []
    entry: dict[str, Any] = {"cvp": {}, "attacked": {}, "lvp": {}, "leaders_lost": {}, "units_lost": {}, "winner": None}
    lvp_sides, _ = selectors.lvp_recorders(system)
    for side in engine.side_ids(system):
        name = engine.side_name(system, side)
        cvp = _int_field(request, f"cvp-{side}", f"CVP amassed by the {name} side", problems, None, 0)
        if cvp is None and not any(p.startswith(f"CVP amassed by the {name}") for p in problems):
            problems.append(f"Enter the CVP amassed by the {name} side (0 if none).")
        entry["cvp"][side] = cvp or 0
        attacked = request.POST.get(f"attacked-{side}")
        if attacked not in ("yes", "no"):
            problems.append(f"Say whether the {name} side attacked (yes or no).")
        entry["attacked"][side] = attacked == "yes"
        for field, label in (("lvp", "LVP controlled"), ("leaders_lost", "Leaders lost"), ("units_lost", "Units lost")):
            if field == "lvp" and lvp_sides is not None and side not in lvp_sides:
                continue  # this side records no LVP (the data's record-lvp step names who does)
            value = _int_field(request, f"{field}-{side}", f"{label} by the {name} side", problems, None, 0)
            if value is not None:
                entry[field][side] = value
        if engine.objective_hex_ref(system) is not None:  # KGP 8.2: own Objective Hexes Controlled at the scenario's end
            value = _int_field(request, f"objective_hexes-{side}", f"Objective Hexes Controlled by the {name} side",
                               problems, None, 0)
            if value is not None:
                entry.setdefault("objective_hexes", {})[side] = value
    winner = str(request.POST.get("winner", "")).strip()
    entry["winner"] = winner or None
    map_group = str(request.POST.get("map_group", "")).strip() or None  # KGP 8.2: the Map Group's scenario
    if problems:
        where = f"Map Group {map_group}: " if map_group else ""
        return _phase_response(request, seat, 422, phase_errors=[where + p for p in problems])
    return _run_phase(request, seat, lambda: services.results_submit(
        user=request.user, public_id=seat.campaign.public_id, entry=entry, map_group=map_group),
        f"Your results entry for {map_group} is recorded." if map_group else "Your results entry is recorded.")


VALUE_TEXT_MAX = 200  # the longest text typed for a chart cell ("8-0, 7-0" …)


@seated
@require_POST
def supply_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Supply one value the current step needs (SAN/ELR/LVP, a DRM fact, a value lost in the rule text)."""
    need_id = str(request.POST.get("need", ""))[:80]
    kind = str(request.POST.get("input", "number"))
    raw = str(request.POST.get("value", "")).strip()
    if kind not in ("fact", "number") and len(raw) > VALUE_TEXT_MAX:
        return _phase_response(request, seat, 422, phase_errors=[
            f"That value is {len(raw)} characters long; a value from a chart is at most {VALUE_TEXT_MAX}."])
    value: Any = raw
    problems: list[str] = []
    if kind == "questions":  # issue 14 item 7: every question of the form at once; an unticked box is "no"
        answers: dict[str, Any] = {}
        for key in list(request.POST)[:400]:
            if key.startswith("tick:"):
                answers[key.removeprefix("tick:")[:80]] = True
            elif key.startswith("count:"):
                count = form_numbers.whole_number(str(request.POST.get(key, "")), "Each count", problems, 0, 99)
                if count is None:
                    return _phase_response(request, seat, 422, phase_errors=problems)
                answers[key.removeprefix("count:")[:80]] = count
            if len(answers) > 200:
                return _phase_response(request, seat, 422, phase_errors=["Too many answers (at most 200)."])
        value = answers
    elif kind == "fact":
        if raw in ("yes", "no"):
            value = raw == "yes"
        else:
            value = form_numbers.whole_number(raw, "Your answer", problems, None, None)
            if value is None:
                return _phase_response(request, seat, 422, phase_errors=[
                    f"Answer yes, no or {form_numbers.allowed(None, None)} (you typed “{form_numbers.excerpt(raw)}”)."])
    elif kind == "number":  # a SAN/ELR/LVP within its own range (issue 9 item 4), another value the forms' bound
        ref = engine.load_state(seat.campaign.state).phase_ref
        value = form_numbers.track_value(raw, need_id, ref, problems)
        if value is None:
            return _phase_response(request, seat, 422, phase_errors=problems or [
                f"Type {form_numbers.allowed(None, None)}."])
    elif not raw:
        return _phase_response(request, seat, 422, phase_errors=["Type the value as printed on your chart."])
    return _run_phase(request, seat, lambda: services.value_supply(
        user=request.user, public_id=seat.campaign.public_id, need_id=need_id, value=value), "Thank you; recorded.")


@seated
@require_POST
def recon_declare(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Declare one Recon Location in turn (RR 2.524, PHD C5.40)."""
    location = str(request.POST.get("location", ""))[:40]
    return _run_phase(request, seat, lambda: services.recon_declare(
        user=request.user, public_id=seat.campaign.public_id, location=location), "Declared: both players see it.")


@seated
@require_POST
def losses_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Record the CVP (and leaders) this side lost at the current step (PL 3.11, 3.45; PHD C5.1)."""
    from rules_engine.losses import MAX_CVP, MAX_LEADERS

    problems: list[str] = []
    cvp = _int_field(request, "cvp", "CVP lost", problems, None, 1, MAX_CVP)
    if cvp is None and not problems:
        problems.append(f"CVP lost: enter {form_numbers.allowed(1, MAX_CVP)}.")
    leaders = _int_field(request, "leaders", "Leaders lost", problems, 0, 0, MAX_LEADERS)
    if problems:
        return _phase_response(request, seat, 422, phase_errors=problems)
    return _run_phase(request, seat, lambda: services.losses_submit(
        user=request.user, public_id=seat.campaign.public_id, cvp=cvp, leaders=leaders), "Recorded: both players see it.")


@seated
@require_POST
def cg_end(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Propose, withdraw, agree to (propose too) or decline the end of the CG by mutual agreement, or concede (asked to
    confirm first)."""
    action = str(request.POST.get("action", ""))
    calls = {"propose": services.cg_end_propose, "withdraw": services.cg_end_withdraw,
             "decline": services.cg_end_decline, "concede": services.cg_end_concede}
    if action not in calls:
        return _phase_response(request, seat, 422,
                               phase_errors=["Unknown action (allowed: propose, withdraw, decline, concede)."])
    if action == "concede" and request.POST.get("confirmed") != "yes":
        return _phase_response(request, seat, 200, confirm_concede=True)
    kwargs: dict[str, Any] = {}
    if action == "propose":
        kwargs["reason"] = str(request.POST.get("reason") or "mutual-agreement")
    return _run_phase(request, seat, lambda: calls[action](user=request.user, public_id=seat.campaign.public_id, **kwargs),
                      lambda campaign: end_selectors.cg_end_message(campaign, action))
