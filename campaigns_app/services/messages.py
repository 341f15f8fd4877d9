"""Messages between the two players: one locked write like every other, both live pages refreshed after commit, and
an e-mail to the reader when no page of theirs is open."""
from __future__ import annotations

import re
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import engine
from campaigns_app.messages import mail
from campaigns_app.models import EventRecord
from campaigns_app.services.core import after_commit, append_events, locked, seat_of, seats_of
from campaigns_app.services.errors import ServiceError
from rules_engine import messages
from rules_engine.events import EventKind
from rules_engine.plain_text import TextError

FORM_ID = re.compile(r"[0-9a-f]{32}")


@transaction.atomic
def message_send(*, public_id: str, user: User, text: str, form_id: str) -> bool:
    """Send a message to the opponent; False when this form was already sent (nothing new)."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    if not FORM_ID.fullmatch(form_id):
        raise ServiceError("This form has expired: reload the campaign page and write the message there.")
    if EventRecord.objects.filter(campaign=campaign, kind=EventKind.MESSAGE, side=seat.side,
                                  payload__form=form_id).exists():
        return False
    try:
        event = messages.message(seat.side, text, form_id)
    except TextError as error:
        raise ServiceError(str(error)) from None
    append_events(campaign, (event,))
    system = engine.system_for(campaign)
    after_commit(campaign, system, {})
    for other in seats:
        if other.side != seat.side:
            transaction.on_commit(partial(mail.email_message, public_id, other.side, seat.side,
                                          str(event.payload["text"])))
    return True
