"""The records' pages: CG Roster, RG Purchase Record, dice log (each with a CSV and a print view), CG end and the dice
verification. Read-only, except the CG-end actions, which call the services (``cg_end_*``) after a confirm step.

Every URL is ``@seated`` (404 for anyone without a seat). The dice export exists only after CG end (404 before):
the seed never leaves the server while the CG runs.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from campaigns_app import services
from campaigns_app.event_pages import PageError
from campaigns_app.models import Seat
from campaigns_app.records import door as record_door
from campaigns_app.records import end_selectors, exports
from campaigns_app.records import selectors as record_selectors
from campaigns_app.web import NOT_FOUND, seated


def _download(content: str, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _filename(seat: Seat, what: str, ext: str) -> str:
    return f"{slugify(seat.campaign.name) or 'campaign'}-{what}-{seat.side}.{ext}"


def _page(request: HttpRequest, template: str, context: dict[str, Any], status: int = 200) -> HttpResponse:
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "private, no-store"
    return response


# ------------------------------------------------------------------------------------------------------ the records


@seated
@require_GET
def roster(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, "campaigns/records/roster.html", record_selectors.roster_context(seat))


@seated
@require_GET
def roster_csv(request: HttpRequest, seat: Seat) -> HttpResponse:
    context = record_selectors.roster_context(seat)
    return _download(exports.tables_csv(context["tables"]), _filename(seat, "cg-roster", "csv"), "text/csv; charset=utf-8")


@seated
@require_GET
def purchases(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, "campaigns/records/purchases.html", record_selectors.purchases_context(seat))


@seated
@require_GET
def purchases_csv(request: HttpRequest, seat: Seat) -> HttpResponse:
    context = record_selectors.purchases_context(seat)
    return _download(exports.tables_csv(context["tables"]), _filename(seat, "rg-purchase-record", "csv"),
                     "text/csv; charset=utf-8")


@seated
@require_GET
def dice_log(request: HttpRequest, seat: Seat) -> HttpResponse:
    """One page of the dice log (``?page=``: 1 the oldest rolls; none the newest); 400 naming the pages for any other."""
    try:
        context = record_selectors.dice_page_context(seat, request.GET.get("page"))
    except PageError as error:
        return _page(request, "campaigns/records/dice.html", record_selectors.dice_error_context(seat, str(error)),
                     status=400)
    return _page(request, "campaigns/records/dice.html", context)


@seated
@require_GET
def dice_csv(request: HttpRequest, seat: Seat) -> HttpResponse:
    context = record_selectors.dice_context(seat)
    return _download(exports.dice_csv(context["rows"]), _filename(seat, "dice-log", "csv"), "text/csv; charset=utf-8")


# ------------------------------------------------------------------------------------------------------------ CG end

CG_END_ACTIONS: dict[str, tuple[str, str, str]] = {
    # action: (service name, confirm question, done message)
    "propose": ("cg_end_propose", ("Propose to end the CG by mutual agreement? It ends once your opponent agrees too; "
                "then everything is revealed to both sides."), "You proposed to end the CG."),
    "withdraw": ("cg_end_withdraw", "Withdraw your proposal to end the CG?", "Your proposal is withdrawn."),
    "decline": ("cg_end_decline", "Decline the proposal to end the CG? The CG goes on.",
                "You declined the proposal to end the CG: the CG goes on."),
    "concede": ("cg_end_concede", ("Concede the CG? Your opponent wins, the CG ends at once and everything — purchases, "
                "secret rolls, the dice seed — is revealed to both sides. This is final."), "You conceded the CG."),
}


OBJECTIVES_QUESTIONS = {
    # (proposing side is the claimant?) → the confirm question for a proposal that the CG objectives are met
    True: "Propose that your side has met its CG objectives and wins the CG? It ends once your opponent confirms; then "
          "everything is revealed to both sides.",
    False: "Confirm that the {claimant} side has met its CG objectives? The CG ends now with the {claimant} side as "
           "the victor, and everything is revealed to both sides. This is final.",
}


@seated
@require_GET
def cg_end(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, "campaigns/records/cg_end.html", record_selectors.cg_end_context(seat))


def _cg_end_action(request: HttpRequest, seat: Seat, action: str) -> HttpResponse:
    """Step one (no ``confirmed``): ask; step two (``confirmed=yes``): call the service."""
    service_name, question, done = CG_END_ACTIONS[action]
    kwargs: dict[str, Any] = {}
    if action == "propose":
        reason = str(request.POST.get("reason") or "mutual-agreement")
        if reason not in services.END_REASONS:
            context = record_selectors.cg_end_context(seat)
            context["action_error"] = (f"Unknown reason to end the CG “{reason}” "
                                       f"(allowed: {', '.join(services.END_REASONS)}).")
            return _page(request, "campaigns/records/cg_end.html", context, status=422)
        kwargs["reason"] = reason
    if request.POST.get("confirmed") != "yes":
        context = record_selectors.cg_end_context(seat)
        if kwargs.get("reason") == "objectives":
            claimant = context["end_claimant_name"] if context["end_reason"] == "objectives" else None
            question = OBJECTIVES_QUESTIONS[claimant is None].format(claimant=claimant)
        context.update(confirm_action=action, confirm_question=question, confirm_reason=kwargs.get("reason"),
                       confirm_url=reverse(f"records_cg_end_{action}", args=[seat.campaign.public_id]))
        return _page(request, "campaigns/records/cg_end.html", context)
    service: Callable[..., Any] = getattr(services, service_name)
    if kwargs.get("reason") == "objectives":
        done = "Recorded: the CG objectives are met."
    try:
        campaign = service(user=request.user, public_id=seat.campaign.public_id, **kwargs)
    except services.NotSeated:
        raise Http404(NOT_FOUND) from None
    except services.ServiceError as error:
        fresh = (Seat.objects.select_related("campaign", "campaign__system").defer("campaign__system__definition")
                 .get(pk=seat.pk))
        context = record_selectors.cg_end_context(fresh)
        context["action_error"] = str(error)
        return _page(request, "campaigns/records/cg_end.html", context, status=422)
    messages.success(request, done if kwargs.get("reason") == "objectives" and not record_door.ended(campaign)
                     else end_selectors.cg_end_message(campaign, action))
    return redirect("records_cg_end", public_id=seat.campaign.public_id)


@seated
@require_POST
def cg_end_propose(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _cg_end_action(request, seat, "propose")


@seated
@require_POST
def cg_end_withdraw(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _cg_end_action(request, seat, "withdraw")


@seated
@require_POST
def cg_end_decline(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _cg_end_action(request, seat, "decline")


@seated
@require_POST
def cg_end_concede(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _cg_end_action(request, seat, "concede")


@seated
@require_GET
def verification(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, "campaigns/records/verify.html", record_selectors.verification_context(seat))


@seated
@require_GET
def dice_export(request: HttpRequest, seat: Seat) -> HttpResponse:
    """The refit-dice/1 JSON (seed revealed): after CG end only — 404 before."""
    export = record_selectors.dice_export(seat.campaign)
    if export is None:
        raise Http404("The dice export is available at CG end.")
    return _download(exports.dice_json(export), _filename(seat, "dice", "json"), "application/json")
