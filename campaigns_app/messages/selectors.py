"""Reads for the conversation: the latest messages, oldest first, as both players see them."""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime
from typing import Any

from django.conf import settings

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.prepared import Prepared
from rules_engine.events import EventKind

SHOWN = 30  # the latest messages on the campaign page; the history keeps them all


def latest_messages(campaign: Campaign) -> list[tuple[str, str, datetime]]:
    """The latest SHOWN messages, oldest first: (side, text, sent) — public to both seats, so read once for both."""
    rows = LATEST.rows(campaign.pk)
    return [(side, str(payload.get("text", "")), created) for side, payload, created in reversed(rows)]


LATEST = Prepared(lambda campaign_id: EventRecord.objects.filter(campaign_id=campaign_id, kind=EventKind.MESSAGE)
                  .order_by("-seq").values_list("side", "payload", "created")[:SHOWN], int)


def conversation(messages: list[tuple[str, str, datetime]], system: System, viewer: str) -> list[dict[str, Any]]:
    """The messages as ``viewer``'s page shows them: who wrote ("You" for its own), when, the text (plain text: the
    template escapes it)."""
    return [{"side_name": engine.side_name(system, side), "you": side == viewer, "text": text, "created": created}
            for side, text, created in messages]


def message_form_id(campaign: Campaign, side: str) -> str:
    """The message form's id: new after each message the side sends (a form sent twice sends once), the same on every
    render until then — so a page holds nothing random and two renders compare byte for byte."""
    sent = EventRecord.objects.filter(campaign=campaign, kind=EventKind.MESSAGE, side=side).count()
    key = f"refit-message-form|{campaign.public_id}|{side}|{sent}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), key, hashlib.sha256).hexdigest()[:32]


def form_id_input(form_id: str) -> str:
    """The form id's hidden input, swapped out-of-band after a message is sent."""
    return f'<input type="hidden" name="form_id" value="{form_id}" id="message-form-id">'
