"""The notes and secret rolls page and its four actions (``@seated``: 404 for anyone without a seat)."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns_app import services
from campaigns_app.live import pages as live
from campaigns_app.models import Seat
from campaigns_app.notes.rolls import secret_rolls_context
from campaigns_app.notes.selectors import notes_context
from campaigns_app.web import player, seated

MAX_FIELD = 20_000  # characters read from the text field at most (the rule's bound is checked by the service)
MAX_PURPOSE_FIELD = 2_000  # characters read from a roll's purpose field at most (the rule's bound: 200)


def _page(request: HttpRequest, seat: Seat, status: int = 200, **extra: object) -> HttpResponse:
    """The page, its live fragments at the version of the seat's view (under the row lock: its socket then sends only
    what changed after)."""
    with live.snapshot(seat, notes=True) as version:
        context = notes_context(seat)
        context.update(secret_rolls_context(seat))
        context.update(extra)
        context["live_version"] = version
        response = render(request, "campaigns/notes.html", context, status=status)
    response["Cache-Control"] = "private, no-store"
    return response


@seated
@require_GET
def notes_page(request: HttpRequest, seat: Seat) -> HttpResponse:
    return _page(request, seat)


@seated
@require_POST
def note_seal(request: HttpRequest, seat: Seat) -> HttpResponse:
    text = request.POST.get("text", "")
    if len(text) > MAX_FIELD:
        return _page(request, seat, 400, error="A note is at most 4,000 characters.", text="")
    try:
        number = services.note_seal(public_id=seat.campaign.public_id, user=player(request), text=text,
                                    form_id=request.POST.get("form_id", ""))
    except services.ServiceError as error:
        return _page(request, seat, 400, error=str(error), text=text)
    messages.success(request, f"Note #{number} is sealed. Your opponent sees that you sealed it, never its text.")
    return redirect("campaign_notes", seat.campaign.public_id)


@seated
@require_POST
def note_reveal(request: HttpRequest, seat: Seat, number: int) -> HttpResponse:
    try:
        revealed = services.note_reveal(public_id=seat.campaign.public_id, user=player(request), number=number)
    except services.ServiceError as error:
        return _page(request, seat, 400, error=str(error))
    messages.success(request, f"Note #{number} is revealed to both sides." if revealed
                     else f"Note #{number} was already revealed.")
    return redirect("campaign_notes", seat.campaign.public_id)


@seated
@require_POST
def secret_roll(request: HttpRequest, seat: Seat) -> HttpResponse:
    kind, purpose = request.POST.get("kind", ""), request.POST.get("purpose", "")
    if len(purpose) > MAX_PURPOSE_FIELD:
        return _page(request, seat, 400, roll_error="A roll's purpose is at most 200 characters.", purpose="",
                     kind=kind[:2])
    try:
        number = services.secret_roll(public_id=seat.campaign.public_id, user=player(request), kind=kind,
                                      purpose=purpose, form_id=request.POST.get("form_id", ""))
    except services.ServiceError as error:
        return _page(request, seat, 400, roll_error=str(error), purpose=purpose, kind=kind[:2])
    messages.success(request, f"Secret roll #{number} is made. Your opponent sees that you rolled, never the purpose "
                              "or the dice.")
    return redirect("campaign_notes", seat.campaign.public_id)


@seated
@require_POST
def secret_roll_reveal(request: HttpRequest, seat: Seat, number: int) -> HttpResponse:
    try:
        revealed = services.secret_roll_reveal(public_id=seat.campaign.public_id, user=player(request), number=number)
    except services.ServiceError as error:
        return _page(request, seat, 400, roll_error=str(error))
    messages.success(request, f"Secret roll #{number} is revealed to both sides." if revealed
                     else f"Secret roll #{number} was already revealed.")
    return redirect("campaign_notes", seat.campaign.public_id)
