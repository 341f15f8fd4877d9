"""Reads for the conversation: the latest messages, oldest first, as both players see them."""
from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, TextField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.prepared import Prepared
from rules_engine import messages
from rules_engine.events import EventKind

SHOWN = 30  # the latest messages on the campaign page; the history keeps them all


def latest_messages(campaign: Campaign) -> list[tuple[str, str, datetime]]:
    """The latest SHOWN messages, oldest first: (side, text, sent) — public to both seats, so read once for both."""
    rows = LATEST.rows(campaign.pk)
    return [(side, str(payload.get("text", "")), created) for side, payload, created in reversed(rows)]


LATEST = Prepared(lambda campaign_id: EventRecord.objects.filter(campaign_id=campaign_id, kind=EventKind.MESSAGE)
                  .order_by("-seq").values_list("side", "payload", "created")[:SHOWN], int)


@dataclass(frozen=True)
class MessageLine:
    """One message as a page prints it (partial ``message_item`` of campaigns/detail.html, rendered once per seat and
    line): who wrote ("You" for the viewer's own), when, the text (plain text: the partial escapes it)."""

    side_name: str
    you: bool
    text: str
    created: datetime


def conversation(messages: list[tuple[str, str, datetime]], system: System, viewer: str) -> tuple[MessageLine, ...]:
    """The messages as ``viewer``'s page shows them, oldest first (a tuple: the page remembers its rendering by it)."""
    return tuple(MessageLine(engine.side_name(system, side), side == viewer, text, created)
                 for side, text, created in messages)


def message_form_id(campaign: Campaign, side: str) -> str:
    """The message form's id: new after each message the side sends (a form sent twice sends once), the same on every
    render until then — so a page holds nothing random and two renders compare byte for byte."""
    key = f"refit-message-form|{campaign.public_id}|{side}|{sent_by(campaign.pk, side)}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), key, hashlib.sha256).hexdigest()[:32]


# the message writes' reads (services.messages), prepared: a message is one of the commonest writes
SENT_BY = Prepared(lambda campaign_id, side: EventRecord.objects.filter(
    campaign_id=campaign_id, kind=EventKind.MESSAGE, side=side).order_by().values("side")
    .annotate(sent=Count("pk")).values_list("sent", flat=True), int, str)
SENT_IN = Prepared(lambda campaign_id: EventRecord.objects.filter(
    campaign_id=campaign_id, kind=EventKind.MESSAGE).order_by().values("campaign_id")
    .annotate(sent=Count("pk")).values_list("sent", flat=True), int)
OWN_LATEST = Prepared(lambda campaign_id, side: EventRecord.objects.filter(
    campaign_id=campaign_id, kind=EventKind.MESSAGE, side=side).order_by("-seq")
    .values_list("created", flat=True)[:messages.PER_HOUR], int, str)


def sent_by(campaign_id: int, side: str) -> int:
    """How many messages ``side`` has sent in the campaign."""
    return SENT_BY.first(campaign_id, side) or 0


def sent_in(campaign_id: int) -> int:
    """How many messages the campaign holds (both sides)."""
    return SENT_IN.first(campaign_id) or 0


def form_sent(campaign_id: int, side: str, form_id: str) -> bool:
    """Whether ``side`` has already sent a message from the form ``form_id`` (a form posted twice sends once)."""
    return FORM_SENT.first(campaign_id, side, form_id) is not None


# the form id as the payload's text (``->>``, SQLite's JSON_EXTRACT) cast to text: compared as a JSON value instead, the
# id is adapted per database (psycopg's Jsonb, SQLite's JSON_EXTRACT of it) and the query could not be prepared; the
# service stores the form id as a string
FORM_SENT = Prepared(lambda campaign_id, side, form_id: EventRecord.objects.filter(
    campaign_id=campaign_id, kind=EventKind.MESSAGE, side=side).annotate(form=Cast(KT("payload__form"), TextField()))
    .filter(form=form_id).order_by().values_list("pk", flat=True)[:1], int, str, str)


def own_latest(campaign_id: int, side: str) -> list[datetime]:
    """When ``side`` sent its latest messages (at most PER_HOUR, newest first): what its hourly limit reads."""
    return OWN_LATEST.rows(campaign_id, side)


def form_id_input(form_id: str) -> str:
    """The form id's hidden input, swapped out-of-band after a message is sent."""
    return f'<input type="hidden" name="form_id" value="{form_id}" id="message-form-id">'
