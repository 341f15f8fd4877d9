"""Who is online: the live pages' connections and heartbeats.

Who is online is on both live pages: when the set of online sides changes, or a page that stopped beating is
forgotten (its side may have been shown online since), both seats' live views are published again (the changed ones
pushed). A page opened or closed while its side stays online (a second tab) changes nothing anyone sees. Each function locks the
campaign row first, in the same order as every other write.
"""
from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.live import notifications
from campaigns_app.models import Campaign, LiveConnection, Seat, now

ONLINE_WITHIN = campaign_selectors.ONLINE_WITHIN


def _seat_for_connection(public_id: str, user: AbstractBaseUser | AnonymousUser) -> Seat | None:
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(campaign__public_id=public_id, user_id=user.pk).select_related("campaign").first()


def _online_sides(campaign_id: int, moment: datetime) -> set[str]:
    return set(LiveConnection.objects.filter(seat__campaign_id=campaign_id, last_beat__gte=moment - ONLINE_WITHIN)
               .values_list("seat__side", flat=True))


def _lock_campaign(campaign_id: int) -> str:
    """Lock the campaign row; its public id."""
    return str(Campaign.objects.select_for_update(of=("self",)).filter(pk=campaign_id)
               .values_list("public_id", flat=True).get())


def _presence_changed(campaign_id: int, public_id: str, before: set[str], moment: datetime, expired: int = 0) -> None:
    if expired or _online_sides(campaign_id, moment) != before:
        notifications.publish(Campaign.objects.select_related("system").defer("system__definition").get(pk=campaign_id))


def _expire_connections(campaign_id: int, moment: datetime) -> int:
    """Forget pages that stopped beating without closing (a lost network): their side goes offline. How many."""
    deleted, _ = LiveConnection.objects.filter(seat__campaign_id=campaign_id,
                                               last_beat__lt=moment - ONLINE_WITHIN).delete()
    return int(deleted)


@transaction.atomic
def presence_open(*, public_id: str, user: AbstractBaseUser | AnonymousUser, channel_name: str) -> Seat | None:
    """Record an open live page of the user's seat; None when the user holds no seat (the socket is refused)."""
    seat = _seat_for_connection(public_id, user)
    if seat is None:
        return None
    _lock_campaign(seat.campaign_id)
    moment = now()
    before = _online_sides(seat.campaign_id, moment)
    expired = _expire_connections(seat.campaign_id, moment)
    LiveConnection.objects.update_or_create(channel_name=channel_name, defaults={"seat": seat, "last_beat": moment})
    Seat.objects.filter(pk=seat.pk).update(last_seen=moment)
    _presence_changed(seat.campaign_id, public_id, before, moment, expired)
    return seat


def _usual_beat(connection: LiveConnection | None, moment: datetime) -> bool:
    """The usual beat (every open page, every 25 s): online before and after, nobody to forget — no lock needed."""
    if connection is None or connection.last_beat < moment - ONLINE_WITHIN:
        return False
    return not LiveConnection.objects.filter(seat__campaign_id=connection.seat.campaign_id,
                                             last_beat__lt=moment - ONLINE_WITHIN).exists()


@transaction.atomic
def presence_beat(*, channel_name: str, seat_id: int | None = None) -> None:
    """A live page is still open (recorded again if it was forgotten meanwhile: ``seat_id`` says whose it is); any
    page of the campaign that stopped beating is forgotten."""
    moment = now()
    connection = LiveConnection.objects.filter(channel_name=channel_name).select_related("seat").first()
    if connection is not None and _usual_beat(connection, moment):
        LiveConnection.objects.filter(pk=connection.pk).update(last_beat=moment)
        Seat.objects.filter(pk=connection.seat_id).update(last_seen=moment)
        return
    seat = connection.seat if connection is not None else Seat.objects.filter(pk=seat_id).first() if seat_id else None
    if seat is None:
        return
    public_id = _lock_campaign(seat.campaign_id)
    moment = now()
    before = _online_sides(seat.campaign_id, moment)
    LiveConnection.objects.update_or_create(channel_name=channel_name, defaults={"seat": seat, "last_beat": moment})
    Seat.objects.filter(pk=seat.pk).update(last_seen=moment)
    expired = _expire_connections(seat.campaign_id, moment)
    _presence_changed(seat.campaign_id, public_id, before, moment, expired)


@transaction.atomic
def presence_close(*, public_id: str, channel_name: str) -> None:
    """A live page closed."""
    connection = LiveConnection.objects.filter(channel_name=channel_name).select_related("seat").first()
    if connection is None:
        return
    _lock_campaign(connection.seat.campaign_id)
    moment = now()
    before = _online_sides(connection.seat.campaign_id, moment)
    LiveConnection.objects.filter(pk=connection.pk).delete()
    _presence_changed(connection.seat.campaign_id, public_id, before, moment)
