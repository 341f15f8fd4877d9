"""The story of each CG Date (``@seated``: 404 for anyone without a seat; 404 with a reason before CG end)."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns_app.models import Seat
from campaigns_app.records import door as record_door
from campaigns_app.records.story import refusal_context, story_context
from campaigns_app.web import seated


@seated
@require_GET
def story(request: HttpRequest, seat: Seat, number: str) -> HttpResponse:
    try:
        context, status = story_context(seat, number), 200
    except record_door.StoryError as error:
        context, status = refusal_context(seat, str(error)), 404
    response = render(request, "campaigns/records/story.html", context, status=status)
    response["Cache-Control"] = "private, no-store"
    return response
