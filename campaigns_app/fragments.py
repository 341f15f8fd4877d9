"""The live page's fragments, rendered from the database for one seat (used by the page, the views and the consumer).

Each fragment is a template partial of ``campaigns/detail.html`` whose root element has a stable id; the websocket
sends them as htmx out-of-band swaps.
"""
from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from campaigns_app import selectors
from campaigns_app.models import Seat

TEMPLATE = "campaigns/detail.html"
PHASE = "campaigns/phase/live.html"
# element id → partial name (of detail.html, or "template#partial")
FRAGMENTS = {
    "campaign-status": "status",
    "owes": "owes",
    "step-panel": f"{PHASE}#step_panel",
    "chit-panel": "chit_panel",
    "step-records": f"{PHASE}#step_records",
    "checklist": f"{PHASE}#checklist",
    "ledger-summary": f"{PHASE}#ledger_summary",
    "players": "players",
    "history-latest": "history_latest",
}


def render_fragment(fragment_id: str, context: dict[str, Any], request: Any = None) -> str:
    name = FRAGMENTS[fragment_id]
    return render_to_string(name if "#" in name else f"{TEMPLATE}#{name}", context, request=request)


def live_fragments(seat: Seat) -> dict[str, str]:
    """Every fragment of the seat's live page, by element id (no request: no CSRF field, htmx sends the header)."""
    context = selectors.live_context(seat)
    return {fragment_id: render_fragment(fragment_id, context) for fragment_id in FRAGMENTS}


def live_fragments_for(public_id: str, user_id: int) -> dict[str, str] | None:
    """As live_fragments, looked up by campaign and user; None when the user no longer holds a seat."""
    seat = (
        Seat.objects.filter(campaign__public_id=public_id, user_id=user_id)
        .select_related("campaign", "campaign__system", "user")
        .first()
    )
    return live_fragments(seat) if seat is not None else None
