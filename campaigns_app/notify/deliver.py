"""The one decision every campaign e-mail goes through: for its reader's seat, send it now, queue its line for the
daily digest, or drop it — the seat's own choice first, else the player's default for all campaigns, else "each"."""
from __future__ import annotations

import logging
from enum import Enum

from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string

from campaigns_app.models import DIGEST_MAX_LINES, NotificationSetting, Notify, Seat
from campaigns_app.notify import links

log = logging.getLogger(__name__)
LINE_MAX = 600  # characters of one digest line (a message's text is cut there)


class Route(Enum):
    """What happens to one campaign e-mail."""

    SEND = "send"
    QUEUE = "queue"
    DROP = "drop"


ROUTES = {Notify.EACH: Route.SEND, Notify.DIGEST: Route.QUEUE, Notify.NONE: Route.DROP}


def default_of(user_id: int) -> Notify:
    """A player's choice for all campaigns ("each" until they choose)."""
    chosen = NotificationSetting.objects.filter(user_id=user_id).values_list("default", flat=True).first()
    return Notify(chosen) if chosen else Notify.EACH


def choice_of(seat: Seat) -> Notify:
    """The choice that holds for ``seat``'s campaign: its own, else the player's default."""
    return Notify(seat.notify) if seat.notify else default_of(seat.user_id)


def route(seat: Seat) -> Route:
    """Send now, queue for the digest, or drop: what ``seat``'s player chose for its campaign."""
    return ROUTES[choice_of(seat)]


def sentence(subject: str) -> str:
    """A digest line's words from an e-mail's subject: its campaign prefix gone, the first letter a capital."""
    words = subject.removeprefix("{campaign}: ")
    return words[:1].upper() + words[1:]


def footer(seat: Seat) -> str:
    """The one-click link that ends every campaign e-mail (and each campaign of a digest)."""
    return render_to_string("email/_notify_link.txt", {"campaign": seat.campaign.name, "url": links.url_for(seat),
                                                       "days": links.MAX_AGE.days})


def deliver(seat: Seat, subject: str, body: str, line: str, chosen: Route | None = None) -> bool:
    """E-mail ``subject``/``body`` to ``seat``'s player now, or queue ``line`` (the same words, short) for their
    digest, or nothing, as they chose (``chosen``: ``route(seat)`` when the caller has it); True when sent now."""
    if not seat.user.email:
        return False
    chosen = chosen or route(seat)
    if chosen is Route.QUEUE:
        enqueue(seat, line)
    if chosen is not Route.SEND:
        return False
    try:
        send_mail(subject, body + footer(seat), None, [seat.user.email])
    except Exception:
        log.exception("Could not e-mail %s about %s", seat.user.email, seat.campaign.public_id)
        return False
    return True


@transaction.atomic
def enqueue(seat: Seat, line: str) -> None:
    """Add a line to the player's digest queue (under its row lock); a full queue drops its oldest line, counted."""
    NotificationSetting.objects.get_or_create(user_id=seat.user_id)
    row = NotificationSetting.objects.select_for_update().get(user_id=seat.user_id)
    queue = [*row.queue, {"campaign": seat.campaign.public_id, "name": seat.campaign.name, "line": line[:LINE_MAX]}]
    over = max(0, len(queue) - DIGEST_MAX_LINES)
    row.queue = queue[over:]
    row.dropped += over
    row.save(update_fields=["queue", "dropped"])
