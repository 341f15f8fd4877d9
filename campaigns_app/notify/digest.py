"""The daily digest (``manage.py send_digests``): one e-mail per player with queued lines, grouped by campaign, at
most once per UTC day; each player's row is taken with ``select_for_update(skip_locked)``, so two schedulers running
at once send it once, and the queue is emptied in the same transaction as the sending."""
from __future__ import annotations

import logging
from datetime import UTC, date, datetime

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns_app.models import NotificationSetting, Seat
from campaigns_app.notify import deliver

log = logging.getLogger(__name__)
SUBJECT = "Refit: your daily digest"


def send_digests(moment: datetime) -> int:
    """Every digest due on ``moment``'s UTC day; how many went out."""
    day = moment.astimezone(UTC).date()
    ids = (NotificationSetting.objects.exclude(queue=[])
           .filter(Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=day)).values_list("pk", flat=True))
    sent = 0
    for pk in list(ids):
        try:
            sent += send_one(pk, day)
        except Exception:  # the lines stay queued for the next run
            log.exception("Could not send the digest of notification setting %s", pk)
    return sent


def _groups(row: NotificationSetting) -> list[dict[str, object]]:
    """The queued lines by campaign, in the order each campaign first appears, with its page and one-click link."""
    order: dict[str, dict[str, object]] = {}
    for entry in row.queue:
        group = order.setdefault(str(entry["campaign"]), {"name": entry["name"], "lines": []})
        lines = group["lines"]
        assert isinstance(lines, list)
        lines.append(entry["line"])
    seats = {seat.campaign.public_id: seat for seat in Seat.objects.filter(user_id=row.user_id,
                                                                           campaign__public_id__in=list(order))
             .select_related("campaign", "user")}
    for public_id, group in order.items():
        seat = seats.get(public_id)
        group["url"] = settings.SITE_URL + reverse("campaign_detail", args=[public_id]) if seat else ""
        group["link"] = deliver.footer(seat) if seat else ""
    return list(order.values())


@transaction.atomic
def send_one(pk: int, day: date) -> int:
    """Send one player's digest unless another run holds it or it went out on ``day``; 1 when sent."""
    row = (NotificationSetting.objects.select_for_update(skip_locked=True, of=("self",)).select_related("user")
           .filter(pk=pk).first())
    if row is None or not row.queue or (row.digest_sent_on is not None and row.digest_sent_on >= day):
        return 0
    if row.user.email:
        body = render_to_string("email/digest.txt", {"player": row.user.get_username(), "groups": _groups(row),
                                                      "dropped": row.dropped,
                                                      "settings_url": settings.SITE_URL + reverse("notify_settings")})
        send_mail(SUBJECT, body, None, [row.user.email])  # raises: rolled back, the lines wait for the next run
    row.queue, row.dropped, row.digest_sent_on = [], 0, day
    row.save(update_fields=["queue", "dropped", "digest_sent_on"])
    return 1 if row.user.email else 0
