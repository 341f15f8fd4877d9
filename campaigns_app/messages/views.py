"""Sending a message (``@seated``): htmx gets the conversation fragment and the form's next id; without JavaScript,
back to the campaign page. Too many messages: 429 with when the writer may write again (Retry-After)."""
from __future__ import annotations

import math
from datetime import datetime

from django.contrib import messages as flash
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from campaigns_app import services
from campaigns_app.messages.selectors import form_id_input, message_form_id
from campaigns_app.models import Seat
from campaigns_app.web import fragments_response, is_htmx, page, player, seated

MAX_FIELD = 10_000  # characters read from the text field at most (the rule's bound is checked by the service)


@seated
@require_POST
def message_send(request: HttpRequest, seat: Seat) -> HttpResponse:
    text = request.POST.get("text", "")
    error, status, again, written = "", 422, None, None
    if len(text) > MAX_FIELD:
        error = "A message is at most 2,000 characters."
    else:
        try:
            written = services.message_send(public_id=seat.campaign.public_id, user=player(request), text=text,
                                            form_id=request.POST.get("form_id", "")[:64])
        except services.RateLimited as limited:
            error, status, again = str(limited), 429, limited.again
        except services.ServiceError as refused:
            error = str(refused)
    if status == 429:
        return _too_many(request, seat, error, again)
    if is_htmx(request):  # 422: the page's htmx swaps it (the error in #message-error, the text kept)
        if error:
            return HttpResponse(error_paragraph(error), status=422)
        response = fragments_response(seat, ["messages"], written=written)
        response.content += (form_id_input(message_form_id(seat.campaign, seat.side)) + error_paragraph("")).encode()
        return response
    if error:
        return page(request, seat, 400, message_error=error)
    flash.success(request, "Message sent.")
    return redirect(reverse("campaign_detail", args=[seat.campaign.public_id]) + "#messages")


def _too_many(request: HttpRequest, seat: Seat, error: str, again: datetime | None) -> HttpResponse:
    """429: the error where the form shows it (htmx) or the page with it; Retry-After when the writer may write again."""
    response = HttpResponse(error_paragraph(error), status=429) if is_htmx(request) else \
        page(request, seat, 429, message_error=error)
    if again is not None:
        response["Retry-After"] = str(max(1, math.ceil((again - timezone.now()).total_seconds())))
    return response


def error_paragraph(error: str) -> str:
    """The form's error line (empty once a message is sent)."""
    if not error:
        return '<div id="message-error"></div>'
    return format_html('<div id="message-error"><p class="field-error" role="alert">{}</p></div>', error)
