"""Thin views for the campaigns: home, sign-up, list, create, join, invite, the live page, history, chits, seeds.

Every campaign URL answers 404 — never 403, never a login redirect — to anyone without a seat there (anonymous
visitors included), so a URL never confirms that a campaign exists.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.forms import ModelChoiceField
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST, require_safe

from campaigns_app import auth_backend, engine, services
from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.cards import selectors as card_selectors
from campaigns_app.event_pages import PageError
from campaigns_app.forms import CampaignCreateForm, ChitForm, PlayerSeedForm, SignupForm
from campaigns_app.live import fragments, notifications
from campaigns_app.models import Campaign, Invitation, Seat
from campaigns_app.phase import history as phase_history
from campaigns_app.records import lost_values as lost_value_selectors
from campaigns_app.web import NOT_FOUND, fragments_response, is_htmx, page, panel_response, player, safe_next, seated
from rules_engine.pace import pace_words

DEFAULT_SYSTEM = "rr"  # preselected on the create page when loaded


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"nav": "home"})


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(safe_next(request, reverse("campaign_list")))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        notifications.address_reused(request, user)  # the address's other account(s), told by e-mail only
        login(request, user, backend=auth_backend.PATH)
        messages.success(request, f"Welcome to Refit, {user.get_username()}.")
        return redirect(safe_next(request, reverse("campaign_list")))
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request, ""), "nav": "signup"})


@login_required
@require_GET
def campaign_list(request: HttpRequest) -> HttpResponse:
    rows = campaign_selectors.campaign_rows(player(request))
    return render(request, "campaigns/list.html", {"rows": rows, "nav": "campaigns"})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    systems = card_selectors.create_choices(player(request))  # every system, with the user's (and bundled) CG Cards (K5)
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
    system_field = cast(ModelChoiceField, form.fields["system"])  # type: ignore[type-arg]
    if system_field.queryset is not None:
        system_field.queryset = system_field.queryset.filter(id__in=[s["id"] for s in systems])
    # the players' choices (``source: players`` settings) of the chosen system with the chosen card
    setting_system = card_selectors.create_system(player(request), chosen["id"], chosen_card) if chosen else None
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
                    user=player(request),
                    system_id=form.cleaned_data["system"].id,
                    side=form.cleaned_data["side"],
                    name=form.cleaned_data["name"],
                    card_id=request.POST.get("card") or None,
                    player_seed=form.cleaned_data.get("player_seed"),
                    player_settings=submitted,
                    lost_values=typed_lost,
                    pace_hours=form.cleaned_data.get("pace"),
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
    seed_form = PlayerSeedForm(request.POST if request.method == "POST" else None)
    context = {
        "invitation": invitation,
        "campaign": campaign,
        "creator": campaign.created_by.get_username(),
        "system_name": campaign.system.name,
        "pace_words": pace_words(campaign.pace_hours),
        "free_side_name": engine.side_name(system, free_side) if free_side else None,
        "creator_side_name": engine.side_name(system, seats[0].side) if seats else None,
        "full": free_side is None,
        "card_name": campaign.card_name,
        "choices": card_selectors.campaign_choices(campaign),
        "lost_values": lost_value_selectors.campaign_lost_values(campaign),
        "error": None,
        "seed_form": seed_form,
    }
    if free_side is None:
        return render(request, "campaigns/join.html", context, status=409)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if not seed_form.is_valid():
            context["error"] = " ".join(str(e) for e in seed_form.errors.get("player_seed", [])) or "Check your player seed."
            return render(request, "campaigns/join.html", context, status=400)
        try:
            services.campaign_join(user=player(request), token=token, player_seed=seed_form.cleaned_data.get("player_seed"))
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
        "pace_words": pace_words(campaign.pace_hours),
    })


@seated
@require_GET
def campaign_detail(request: HttpRequest, seat: Seat) -> HttpResponse:
    return page(request, seat)


@seated
@require_GET
def campaign_fragments(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The live fragments over plain HTTP: one (``?part=chit-panel``) or all as out-of-band swaps."""
    part = request.GET.get("part")
    if part and part not in fragments.FRAGMENTS:
        raise Http404("No such fragment.")
    return fragments_response(seat, [part] if part else list(fragments.FRAGMENTS))


@seated
@require_GET
def campaign_history(request: HttpRequest, seat: Seat) -> HttpResponse:
    """One page of the seat's history (``?page=``: 1 the oldest; none the newest); 400 naming the pages for any other."""
    campaign = seat.campaign
    system = engine.system_for(campaign)
    context = {"campaign": campaign, "seat": seat, "side_name": engine.side_name(system, seat.side)}
    try:
        events, shown = phase_history.history_page(campaign, seat, request.GET.get("page"))
    except PageError as error:
        return render(request, "campaigns/history.html", {**context, "events": [], "page_error": str(error)},
                      status=400)
    return render(request, "campaigns/history.html", {**context, "events": events, "page": shown})


def _chit_fields(request: HttpRequest) -> tuple[str, str, str | None]:
    """The posted side and chit, and the first problem with the form's shape (the rules' answer comes after)."""
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
    return side, chit, None


def _chit_to_confirm(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The confirm step: the rules' answer now (read fresh), then "Submit Attack? This is final." (nothing saved)."""
    side, chit, problem = _chit_fields(request)
    problem = problem or campaign_selectors.seat_chit_problem(seat, side, chit)
    if problem:
        return panel_response(request, seat, 422, chit_error=problem)
    return panel_response(request, seat, 200, confirm_chit=chit)


@seated
@require_POST
def chit_confirm(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Step one of two: check the choice and ask "Submit Attack? This is final." (nothing is saved yet)."""
    return _chit_to_confirm(request, seat)


@seated
@require_POST
def chit_submit(request: HttpRequest, seat: Seat) -> HttpResponse:
    """Step two: seal the chit (final). The rules are checked once, by the service under the row lock; its refusal
    is rendered like the confirm step's."""
    if request.POST.get("confirmed") != "yes":
        return _chit_to_confirm(request, seat)
    side, chit, problem = _chit_fields(request)
    if problem:
        return panel_response(request, seat, 422, chit_error=problem)
    try:
        written = services.chit_submit(user=player(request), public_id=seat.campaign.public_id, side=side, chit=chit)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        return panel_response(request, seat, 422, chit_error=str(error))
    if is_htmx(request):
        return panel_response(request, seat, 200, written)
    messages.success(request, f"Your {chit.capitalize()} chit is sealed.")
    return redirect("campaign_detail", public_id=seat.campaign.public_id)


def _action(request: HttpRequest, seat: Seat, service: Callable[..., Any], done: str) -> HttpResponse:
    try:
        written = service(user=player(request), public_id=seat.campaign.public_id)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        if is_htmx(request):
            return fragments_response(seat, ["owes"], 422, action_error=str(error))
        return page(request, seat, 422, action_error=str(error))
    if is_htmx(request):
        return fragments_response(seat, ["owes"], written=written if isinstance(written, Campaign) else None)
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
            services.seat_seed_set(user=player(request), public_id=seat.campaign.public_id,
                                   seed=form.cleaned_data["player_seed"])
        except services.NotSeated:
            raise Http404(NOT_FOUND) from None
        except services.ServiceError as error:
            problem = str(error)
    if problem:
        fresh = (Seat.objects.select_related("campaign", "campaign__system", "user")
                 .defer("campaign__system__definition").get(pk=seat.pk))
        return page(request, fresh, 422, seed_error=problem)
    messages.success(request, "Your player seed is saved.")
    return redirect(f"{reverse('campaign_detail', args=[seat.campaign.public_id])}#dice-card")


@seated
@require_POST
def step_done(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _action(request, seat, services.step_mark_done, "Marked finished.")
