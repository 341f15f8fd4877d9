"""The notes page's live fragments: its notes list and its secret rolls list, rendered from what the seat's side may
see only (rules_engine.notes / rules_engine.board_secret decide, through notes_context and secret_rolls_context). They
are published with the seat's live view only while a notes page of the seat is open (campaigns_app.live.pages), so a
write adds no work for them otherwise."""
from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from campaigns_app.models import Seat
from campaigns_app.notes.rolls import secret_rolls_context
from campaigns_app.notes.selectors import notes_context

# element id → "template#partial"
NOTES_FRAGMENTS = {
    "notes-list": "campaigns/notes.html#notes_list",
    "secret-rolls-list": "campaigns/_secret_rolls.html#rolls_list",
}


def notes_fragments(seat: Seat, **extra: Any) -> dict[str, str]:
    """The notes page's fragments of the seat, by element id (no request: no CSRF field; static/refit.js adds the
    page's own to a form a fragment brings), in NOTES_FRAGMENTS order."""
    context = notes_context(seat)
    context.update(secret_rolls_context(seat))
    context.update(extra)
    return {fragment_id: render_to_string(name, context) for fragment_id, name in NOTES_FRAGMENTS.items()}
