"""Who is online: the live pages' sockets and heartbeats, in the presence store (campaigns_app.live.presence_store).

Who is online is on both live pages: when the set of online sides changes, or a page that stopped beating is
forgotten (its side may have been shown online since), the revision moves (under the campaign row lock, in the same
order as every other write) and both seats' live views are published again (the changed ones pushed). Anything else — the usual beat of an open page every 25 s,
a second tab of a side already online opened or closed — touches no database table and pushes nothing. A beat runs
the same way whatever the opponent does, so it tells nobody anything but who is online.
"""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from campaigns_app.campaigns.selectors import seat_for
from campaigns_app.live import fragments, notifications, presence_store
from campaigns_app.models import Seat, now
from campaigns_app.prepared import PreparedUpdate
from campaigns_app.services.core import LOCKED, seats_of

# a seat's last_seen is now (when its page opened or closed): the UPDATE written once, not compiled per socket
SEEN = PreparedUpdate(Seat, assign=("last_seen",), where=("id",))


@transaction.atomic
def _presence_changed(public_id: str) -> None:
    """What the pages show of presence changed: under the campaign's row lock, publish both seats' live views again
    (the changed ones pushed after commit)."""
    campaign = LOCKED.first(public_id)
    if campaign is None:
        return
    notifications.publish(campaign, seats=seats_of(campaign), changed=fragments.PRESENCE)


def presence_open(*, public_id: str, user: AbstractBaseUser | AnonymousUser, channel_name: str) -> Seat | None:
    """Record an open live page of the user's seat; None when the user holds no seat (the socket is refused)."""
    seat = seat_for(public_id, user)
    if seat is None:
        return None
    if presence_store.store().beat(public_id, seat.side, channel_name, presence_store.clock()):
        _presence_changed(public_id)
    SEEN.run(now(), seat.pk)
    return seat


def presence_beat(*, public_id: str, side: str, channel_name: str) -> bool:
    """A live page of ``side`` is still open (recorded again if it was forgotten meanwhile); any page of the campaign
    that stopped beating is forgotten. Whether what the pages show changed (only then is the database written)."""
    changed = presence_store.store().beat(public_id, side, channel_name, presence_store.clock())
    if changed:
        _presence_changed(public_id)
    return changed


def presence_close(*, public_id: str, seat_id: int, side: str, channel_name: str) -> None:
    """A live page of ``side`` (seat ``seat_id``, as presence_open gave it) closed (the seat's ``last_seen`` is now)."""
    if presence_store.store().close(public_id, side, channel_name, presence_store.clock()):
        _presence_changed(public_id)
    SEEN.run(now(), seat_id)
