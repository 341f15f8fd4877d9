"""Sealed notes (issue 13): seal a note (its text for the writer, its commitment for both), reveal it. Each call locks
the campaign row like every other write, appends the events (rules_engine.notes makes them) and refreshes both live
pages after commit."""
from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import engine
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.services.core import after_commit, append_events, locked, reveal_once, seat_of, seats_of
from campaigns_app.services.errors import ServiceError
from campaigns_app.services.tokens import current_step_ref, require_form_id
from rules_engine import notes
from rules_engine.events import EventKind

MAX_NOTES = 200  # per side and campaign


def _written(campaign: Campaign, side: str) -> list[EventRecord]:
    return list(EventRecord.objects.filter(campaign=campaign, kind=EventKind.NOTE_WRITTEN, side=side).order_by("seq"))


@transaction.atomic
def note_seal(*, public_id: str, user: User, text: str, form_id: str) -> int:
    """Seal a note of the user's side; its number. A form sent twice (same ``form_id``) seals it once."""
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    require_form_id(form_id, "open the notes page again and write the note there")
    state = engine.load_state(campaign.state)
    if state.ended:
        raise ServiceError("The CG has ended: every note is revealed and no new note can be sealed.")
    written = _written(campaign, seat.side)
    for record in written:
        if (record.payload or {}).get("form") == form_id:
            return int(record.payload["note"])
    if len(written) >= MAX_NOTES:
        raise ServiceError(f"A side can seal at most {MAX_NOTES} notes in a campaign.")
    waiting = engine.waiting(state)
    date, step = ("", "") if waiting else (state.date_id, current_step_ref(state))
    number = len(written) + 1
    try:
        events = notes.seal(seat.side, number, text, secrets.token_hex(16), date, step, form_id)
    except notes.NoteError as error:
        raise ServiceError(str(error)) from None
    append_events(campaign, events)
    after_commit(campaign, engine.system_for(campaign), {})
    return number


@transaction.atomic
def note_reveal(*, public_id: str, user: User, number: int) -> bool:
    """Reveal the user's side's note ``number`` to both sides; False when it was already revealed."""
    if not 1 <= number <= MAX_NOTES:
        raise ServiceError(f"Your side has no note #{number}.")
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    return reveal_once(campaign, seat.side, _written(campaign, seat.side), "note", number, EventKind.NOTE_REVEALED,
                       notes.reveal, f"Your side has no note #{number}.")
