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

from campaigns_app import engine, fragments, selectors, services
from campaigns_app.forms import CampaignCreateForm, ChitForm, SignupForm
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
    systems = selectors.systems_for_create()
    default = next((s["id"] for s in systems if s["id"] == DEFAULT_SYSTEM), systems[0]["id"] if systems else "")
    chosen_id = request.POST.get("system") or request.GET.get("system") or default
    chosen = next((s for s in systems if s["id"] == chosen_id), systems[0] if systems else None)
    side_choices = chosen["sides"] if chosen else []
    initial = {"system": chosen["id"]} if chosen else {}
    form = CampaignCreateForm(request.POST or None, side_choices=side_choices, initial=initial)
    form.fields["system"].queryset = form.fields["system"].queryset.filter(id__in=[s["id"] for s in systems])
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = services.campaign_create(
                    user=request.user,
                    system_id=form.cleaned_data["system"].id,
                    side=form.cleaned_data["side"],
                    name=form.cleaned_data["name"],
                )
            except services.ServiceError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, "Campaign created. Send the invitation link to your opponent.")
                return redirect("campaign_invite", public_id=campaign.public_id)
        status = 400
    return render(
        request, "campaigns/create.html",
        {"form": form, "systems": systems, "chosen": chosen, "nav": "create"}, status=status,
    )


@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = Invitation.objects.filter(token=token).select_related("campaign", "campaign__system",
                                                                       "campaign__created_by").first()
    if invitation is None:
        raise Http404("This invitation link is not valid.")
    campaign = invitation.campaign
    seats = list(Seat.objects.filter(campaign=campaign))
    if request.user.is_authenticated and any(seat.user_id == request.user.pk for seat in seats):
        return redirect("campaign_detail", public_id=campaign.public_id)
    system = engine.system_of(campaign.system)
    free_side = engine.other_side(system, seats[0].side) if len(seats) == 1 else None
    context = {
        "invitation": invitation,
        "campaign": campaign,
        "creator": campaign.created_by.get_username(),
        "system_name": campaign.system.name,
        "free_side_name": engine.side_name(system, free_side) if free_side else None,
        "creator_side_name": engine.side_name(system, seats[0].side) if seats else None,
        "full": free_side is None,
        "error": None,
    }
    if free_side is None:
        return render(request, "campaigns/join.html", context, status=409)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        try:
            services.campaign_join(user=request.user, token=token)
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
    })


def _detail_context(seat: Seat, **extra: Any) -> dict[str, Any]:
    context = selectors.live_context(seat)
    context.update(extra)
    return context


@seated
@require_GET
def campaign_detail(request: HttpRequest, seat: Seat) -> HttpResponse:
    return render(request, "campaigns/detail.html", _detail_context(seat))


@seated
@require_GET
def campaign_fragments(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The live fragments over plain HTTP: one (``?part=chit-panel``) or all as out-of-band swaps."""
    context = _detail_context(seat)
    part = request.GET.get("part")
    if part:
        if part not in fragments.FRAGMENTS:
            raise Http404("No such fragment.")
        return HttpResponse(fragments.render_fragment(part, context, request))
    return HttpResponse("".join(fragments.render_fragment(f, context, request) for f in fragments.FRAGMENTS))


@seated
@require_GET
def campaign_history(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    system = engine.system_of(campaign.system)
    return render(request, "campaigns/history.html", {
        "campaign": campaign,
        "seat": seat,
        "side_name": engine.side_name(system, seat.side),
        "events": selectors.history(campaign, seat),
    })


def _panel_response(request: HttpRequest, seat: Seat, status: int, **extra: Any) -> HttpResponse:
    """The chit panel alone (htmx) or the whole live page (no JavaScript), with ``extra`` in its context."""
    context = _detail_context(seat, **extra)
    if _is_htmx(request):
        return HttpResponse(fragments.render_fragment("chit-panel", context, request), status=status)
    return render(request, "campaigns/detail.html", context, status=status)


def _chit_fields(request: HttpRequest, seat: Seat) -> tuple[str, str, str | None]:
    """The posted side and chit, and the first problem with them (form shape, then the rules)."""
    form = ChitForm(request.POST)
    side = str(request.POST.get("side", ""))
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
            return HttpResponse(
                fragments.render_fragment("owes", _detail_context(seat, action_error=str(error)), request), status=422
            )
        return render(request, "campaigns/detail.html", _detail_context(seat, action_error=str(error)), status=422)
    if _is_htmx(request):
        return HttpResponse(fragments.render_fragment("owes", _detail_context(seat), request))
    messages.success(request, done)
    return redirect("campaign_detail", public_id=seat.campaign.public_id)


@seated
@require_POST
def step_done(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _action(request, seat, services.step_mark_done, "Marked finished.")


@seated
@require_POST
def move_order(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _action(request, seat, services.move_order_roll, "The move-order roll is made.")
