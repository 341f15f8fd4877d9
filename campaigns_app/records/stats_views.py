"""The dice statistics page (``@seated``: 404 for anyone without a seat)."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns_app.models import Seat
from campaigns_app.records.stats import StatsQueryError, stats_context
from campaigns_app.web import seated

MAX_QUERY = 64  # longer scope or date words are refused before anything is read


@seated
@require_GET
def dice_stats(request: HttpRequest, seat: Seat) -> HttpResponse:
    scope, date = request.GET.get("scope", ""), request.GET.get("date", "")
    try:
        if len(scope) > MAX_QUERY or len(date) > MAX_QUERY:
            raise StatsQueryError(f"A scope or CG Date is at most {MAX_QUERY} characters.")
        context = stats_context(seat, scope, date)
        status = 200
    except StatsQueryError as error:
        context = stats_context(seat)
        context["query_error"] = str(error)
        status = 400
    response = render(request, "campaigns/records/stats.html", context, status=status)
    response["Cache-Control"] = "private, no-store"
    return response
