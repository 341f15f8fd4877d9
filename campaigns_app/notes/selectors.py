"""Reads for the notes page: every note as the seat's side may see it (rules_engine.notes decides: the text of its own
notes, of revealed notes, and of all notes after CG end; of the opponent's sealed notes only who, when, where and the
commitment)."""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from campaigns_app import door, engine
from campaigns_app.models import EventRecord, Seat
from rules_engine.events import EventKind
from rules_engine.notes import MAX_NOTE, NoteRecord, notes_for

NOTE_KINDS = (EventKind.NOTE_WRITTEN, EventKind.NOTE_SEALED, EventKind.NOTE_REVEALED)


def notes_context(seat: Seat) -> dict[str, Any]:
    """The notes page: the notes in order (own and opponent's), and a fresh form id for the sealing form."""
    campaign = seat.campaign
    system = door.system_of(campaign)
    ended = bool((campaign.state or {}).get("ended"))
    rows = (EventRecord.objects.filter(campaign=campaign, kind__in=NOTE_KINDS).order_by("seq")
            .values_list("kind", "visibility", "side", "payload", "created"))
    records = [NoteRecord(kind, visibility, side or None, payload or {}, created.isoformat())
               for kind, visibility, side, payload, created in rows]
    views = notes_for(records, seat.side, ended)
    notes = [{"note": note, "sealed_at": datetime.fromisoformat(note.sealed_at),
              "side_name": engine.side_name(system, note.side)} for note in views]
    own = [item for item, note in zip(notes, views) if note.own]
    theirs = [item for item, note in zip(notes, views) if not note.own]
    return {
        "campaign": campaign, "seat": seat, "ended": ended, "nav": "notes",
        "side_name": engine.side_name(system, seat.side),
        "opponent_name": engine.side_name(system, engine.other_side(system, seat.side)),
        "own_notes": own, "opponent_notes": theirs,
        "form_id": secrets.token_hex(16), "max_note": MAX_NOTE,
    }
