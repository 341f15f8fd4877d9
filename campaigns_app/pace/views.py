"""Asking for a pause, proposing a new pace, answering and withdrawing (``@seated``): htmx gets the players card;
without JavaScript, the page."""
from __future__ import annotations

import math
from datetime import date
from typing import Protocol

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaigns_app import services
from campaigns_app.models import Seat
from campaigns_app.services import pace as pace_services
from campaigns_app.web import fragments_response, is_htmx, page, player, seated
from rules_engine.pace import PACES


class Answer(Protocol):
    """A service answering the opponent's request (``pause_answer``, ``pace_answer``)."""

    def __call__(self, *, public_id: str, user: User, agree: bool) -> None: ...


PACE_ALLOWED = "no time limit or " + ", ".join(str(hours) for hours in PACES) + " hours per action"


def _answer(request: HttpRequest, seat: Seat, error: str, limited: services.RateLimited | None = None,
            form: str = "") -> HttpResponse:
    """The players card (htmx 422 / 429) or the page (400 / 429), the refused ``form`` open; the page when done."""
    if limited is not None:
        error = str(limited)
    if not error:
        return fragments_response(seat, ["players"]) if is_htmx(request) else \
            redirect("campaign_detail", seat.campaign.public_id)
    status = 429 if limited is not None else 422 if is_htmx(request) else 400
    response = fragments_response(seat, ["players"], status, pace_error=error, pace_error_form=form) \
        if is_htmx(request) else page(request, seat, status, pace_error=error, pace_error_form=form)
    if limited is not None and limited.again is not None:
        response["Retry-After"] = str(max(1, math.ceil((limited.again - timezone.now()).total_seconds())))
    return response


def _agree_or_decline(request: HttpRequest, seat: Seat, answer_with: Answer, what: str) -> HttpResponse:
    """The opponent's pause or new pace answered: the form's ``answer`` is agree or decline."""
    answer = request.POST.get("answer", "")
    error = ""
    if answer not in ("agree", "decline"):
        error = f"Answer {what} with agree or decline."
    else:
        try:
            answer_with(public_id=seat.campaign.public_id, user=player(request), agree=answer == "agree")
        except services.ServiceError as refused:
            error = str(refused)
    return _answer(request, seat, error)


@seated
@require_POST
def pause_ask(request: HttpRequest, seat: Seat) -> HttpResponse:
    text = request.POST.get("until", "")[:20]
    error = ""
    try:
        until = date.fromisoformat(text)
    except ValueError:
        error = f"{text!r} is not a date: give the pause's last day as YYYY-MM-DD."
    else:
        try:
            pace_services.pause_ask(public_id=seat.campaign.public_id, user=player(request), until=until)
        except services.RateLimited as limited:
            return _answer(request, seat, "", limited, "pause")
        except services.ServiceError as refused:
            error = str(refused)
    return _answer(request, seat, error, form="pause")


@seated
@require_POST
def pause_answer(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _agree_or_decline(request, seat, pace_services.pause_answer, "a pause")


@seated
@require_POST
def pace_propose(request: HttpRequest, seat: Seat) -> HttpResponse:
    text = request.POST.get("hours", "").strip()[:10]
    error = ""
    if text and not (text.isascii() and text.isdigit() and int(text) in PACES):
        error = f"{text!r} is not a pace: choose {PACE_ALLOWED}."
    else:
        try:
            pace_services.pace_propose(public_id=seat.campaign.public_id, user=player(request),
                                       hours=int(text) if text else None)
        except services.RateLimited as limited:
            return _answer(request, seat, "", limited, "pace")
        except services.ServiceError as refused:
            error = str(refused)
    return _answer(request, seat, error, form="pace")


@seated
@require_POST
def pace_answer(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _agree_or_decline(request, seat, pace_services.pace_answer, "a new pace")


@seated
@require_POST
def pace_withdraw(request: HttpRequest, seat: Seat) -> HttpResponse:
    error = ""
    try:
        pace_services.pace_withdraw(public_id=seat.campaign.public_id, user=player(request))
    except services.ServiceError as refused:
        error = str(refused)
    return _answer(request, seat, error)
