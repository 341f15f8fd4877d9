"""The players' archive download (``@seated``; after CG end only, 404 before: while the CG runs it would hold secrets)."""
from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from campaigns_app.archive.build import build_archive
from campaigns_app.models import Seat
from campaigns_app.records import door as record_door
from campaigns_app.web import seated


@seated
@require_GET
def archive_download(request: HttpRequest, seat: Seat) -> HttpResponse:
    campaign = seat.campaign
    if not record_door.ended(campaign):
        raise Http404("The campaign's archive is available at CG end.")
    text = json.dumps(build_archive(campaign), ensure_ascii=False, indent=1)
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{slugify(campaign.name) or "campaign"}-archive.json"'
    response["Cache-Control"] = "private, no-store"
    return response
