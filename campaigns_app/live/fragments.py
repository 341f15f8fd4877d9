"""The live page's fragments, rendered from the database for one seat (used by the page, the views and the consumer).

Each fragment is a template partial of ``campaigns/detail.html`` whose root element has a stable id and a
``data-live-version`` (campaigns_app.live.pages); the websocket sends them as htmx out-of-band swaps.
"""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.template.loader import render_to_string

from campaigns_app.live.presence_store import CAMPAIGN_PAGE, NOTES_PAGE
from campaigns_app.models import Seat
from campaigns_app.notes.live import NOTES_FRAGMENTS
from campaigns_app.phase import live_page

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
    "messages": "messages",
    "dice-card": "dice_card",  # the seed form becomes the fixed seed when the opponent joins
}
# What a write that changes one input alone can change: the fragments whose partials read it (their context names:
# ``online`` is read only through ``players``, the messages only through ``conversation``, the events only through
# ``history_latest``; tests/campaigns_app/live/test_publish_scope.py reads the partials to hold this). A publish for
# such a write renders only these and keeps the seat's others as it stored them just before (pages.publish).
PRESENCE = ("players",)  # who is online
MESSAGE = ("messages", "history-latest")  # a message: the conversation, and the newest events it is one of
# the fragments each live page shows (a seat's view holds the notes page's only while one is open: pages.publish)
SHOWN = {CAMPAIGN_PAGE: tuple(FRAGMENTS), NOTES_PAGE: tuple(NOTES_FRAGMENTS)}
ORDER = (*FRAGMENTS, *NOTES_FRAGMENTS)  # every fragment id a frame may carry, in order


def render_fragment(fragment_id: str, context: dict[str, Any], request: Any = None) -> str:
    name = FRAGMENTS[fragment_id]
    return render_to_string(name if "#" in name else f"{TEMPLATE}#{name}", context, request=request)


def live_fragments(seat: Seat, common: live_page.Shared | None = None, only: Collection[str] | None = None,
                   **extra: Any) -> dict[str, str]:
    """Every fragment of the seat's live page (``only``: these of them), by element id (no request: no CSRF field,
    htmx sends the header), in FRAGMENTS order; ``common``: the rows a publishing service holds (live_page.shared).
    Read through campaigns_app.live.pages, which renders this once per change and gives it its version."""
    context = live_page.live_context(seat, common, only)
    context.update(extra)
    return {fragment_id: render_fragment(fragment_id, context) for fragment_id in FRAGMENTS
            if only is None or fragment_id in only}
