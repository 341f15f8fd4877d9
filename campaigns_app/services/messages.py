"""Messages between the two players: one locked write like every other, bounded in rate (rules_engine.messages:
PER_HOUR per side, PER_CAMPAIGN in all), both live pages refreshed after commit, and an e-mail to a reader with no
page open — at most one per MAIL_GAP while the messages stay unread."""
from __future__ import annotations

from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from campaigns_app import engine
from campaigns_app.campaigns.selectors import seat_online
from campaigns_app.live import fragments
from campaigns_app.messages import mail
from campaigns_app.messages.selectors import form_sent, own_latest, sent_in
from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.notify import deliver
from campaigns_app.services.core import after_commit, append_events, locked, seat_of, seats_of
from campaigns_app.services.errors import RateLimited, ServiceError
from campaigns_app.services.tokens import require_form_id
from rules_engine import messages
from rules_engine.events import EventKind
from rules_engine.plain_text import TextError


@transaction.atomic
def message_send(*, public_id: str, user: User, text: str, form_id: str,
                 moment: datetime | None = None) -> Campaign | None:
    """Send a message to the opponent: the campaign as the write left it (its htmx answer reuses the rendering the
    write published); None when this form was already sent (nothing new). RateLimited when the side wrote PER_HOUR
    messages within the hour or the campaign holds PER_CAMPAIGN (nothing saved)."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    moment = moment or timezone.now()
    require_form_id(form_id, "reload the campaign page and write the message there")
    if form_sent(campaign.pk, seat.side, form_id):
        return None
    wait = messages.rate_wait(own_latest(campaign.pk, seat.side), sent_in(campaign.pk), moment)
    if wait is not None:
        raise RateLimited(wait.words(), wait.again)
    try:
        event = messages.message(seat.side, text, form_id)
    except TextError as error:
        raise ServiceError(str(error)) from None
    (row,) = append_events(campaign, (event,), moment)
    for other in seats:
        if other.side != seat.side:
            _mail_if_away(campaign, other, row, moment)
    after_commit(campaign, engine.system_for(campaign), {}, seats, changed=fragments.MESSAGE)
    return campaign


def _mail_if_away(campaign: Campaign, reader: Seat, row: EventRecord, moment: datetime) -> None:
    """E-mail the message to a reader with no page open (a digest reader: queue each message; "none": nothing), unless
    one was e-mailed within MAIL_GAP and the reader has not opened the page since; the e-mail counts the messages written since the last one that were not e-mailed."""
    if seat_online(campaign.public_id, reader.side):
        return
    chosen = deliver.route(reader)
    if chosen is not deliver.Route.SEND:  # a digest gets every message's line; "none" gets nothing
        if chosen is deliver.Route.QUEUE:
            transaction.on_commit(partial(mail.email_message, campaign.public_id, reader.side, row.side,
                                          str(row.payload["text"])))
        return
    last = (campaign.messages_mailed or {}).get(reader.side) or {}
    last_at = datetime.fromisoformat(last["at"]) if last.get("at") else None
    if not messages.mail_due(last_at, reader.last_seen, moment):
        return
    unread = EventRecord.objects.filter(campaign=campaign, kind=EventKind.MESSAGE, side=row.side,
                                        seq__gt=int(last.get("seq", 0)), seq__lt=row.seq)
    if reader.last_seen is not None:
        unread = unread.filter(created__gt=reader.last_seen)
    campaign.messages_mailed = {**(campaign.messages_mailed or {}), reader.side: {"at": moment.isoformat(),
                                                                                   "seq": row.seq}}
    campaign.save(update_fields=["messages_mailed"])
    transaction.on_commit(partial(mail.email_message, campaign.public_id, reader.side, row.side,
                                  str(row.payload["text"]), unread.count()))
