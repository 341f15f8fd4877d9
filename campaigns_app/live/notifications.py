"""After-commit notifications: each seat's frame to its own channel group, and "your move" e-mails.

A write publishes both seats' views in its transaction (campaigns_app.live.pages.publish, ``publish`` here); after
commit each seat whose page changed gets a frame on its OWN group (``campaign-<public id>-<side>``) carrying only its
own fragments, rendered from its own side's view: nothing one side may not see ever travels through a group the
other side listens to. The channel layer is not the source of truth: a socket that missed a frame resyncs from the
"""
from __future__ import annotations

import logging
from collections.abc import Collection, Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns_app import door, engine
from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.engine import System
from campaigns_app.live import fragments
from campaigns_app.live import pages as live
from campaigns_app.models import Campaign, Seat
from campaigns_app.notify import deliver

log = logging.getLogger(__name__)

FRAME = "campaign.frame"


def group_name(public_id: str, side: str) -> str:
    """The channel group of one seat's live pages (``campaign-<public id>-<side>``)."""
    return f"campaign-{public_id}-{side}"


def publish(campaign: Campaign, system: System | None = None, seats: list[Seat] | None = None,
            moved: bool = False, changed: Collection[str] | None = None) -> None:
    """Inside the writing transaction, the campaign row locked (``campaign`` read under the lock, with its system
    row): publish every seat's view now (pages.publish; ``moved``: the caller's UPDATE moved the revision;
    ``changed``: the only fragments the write can change) and send each changed seat its frame after commit."""
    found = seats if seats is not None else list(Seat.objects.filter(campaign=campaign).select_related("user"))
    frames = live.publish(campaign, system if system is not None else door.system_of(campaign), found, moved, changed)
    public_id = campaign.public_id
    if frames:
        transaction.on_commit(lambda: push(public_id, frames))


def frame_message(frame: live.Frame) -> dict[str, object]:
    """The channel message of one seat's frame (its fragments in ORDER, the version still a mark)."""
    return {"type": FRAME, "version": frame.version, "previous": frame.previous,
            "fragments": {key: frame.fragments[key] for key in fragments.ORDER if key in frame.fragments}}


def push(public_id: str, frames: Iterable[live.Frame]) -> None:
    """Send each frame to its own seat's group only (after commit)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for frame in frames:
        try:
            async_to_sync(layer.group_send)(group_name(public_id, frame.side), frame_message(frame))
        except Exception:  # the database is the truth; a lost frame is repaired by the next frame or reconnect
            log.exception("Could not notify %s", group_name(public_id, frame.side))


SUBJECTS = {
    "joined": "{campaign}: your opponent has joined",
    "action": "{campaign}: your move",
    "chose": "{campaign}: your opponent has chosen — your move",
    "revealed": "{campaign}: the Initiative chits are revealed",
}


def email_action_due(public_id: str, side: str, reason: str) -> bool:
    """E-mail the player of ``side`` that an action is due, unless their live page is open; True when sent."""
    if campaign_selectors.seat_online(public_id, side):  # the presence store: no SQL for a player on the page
        return False
    seat = (Seat.objects.filter(campaign__public_id=public_id, side=side)
            .select_related("user", "campaign", "campaign__system").defer("campaign__system__definition").first())
    if seat is None or not seat.user.email:
        return False
    subject = SUBJECTS.get(reason, SUBJECTS["action"])
    chosen = deliver.route(seat)
    if chosen is not deliver.Route.SEND:  # queued for the digest or dropped: no view read, nothing rendered
        return deliver.deliver(seat, "", "", deliver.sentence(subject) + ".", chosen)
    campaign = seat.campaign
    system = door.system_of(campaign)
    view = door.side_view(campaign, side)
    opponent_side = engine.other_side(system, side)
    opponent = Seat.objects.filter(campaign=campaign, side=opponent_side).select_related("user").first()
    context = {
        "player": seat.user.get_username(),
        "campaign": campaign.name,
        "system": campaign.system.name,
        "side": engine.side_name(system, side),
        "opponent": opponent.user.get_username() if opponent else "Your opponent",
        "opponent_side": engine.side_name(system, opponent_side),
        "reason": reason,
        "owes": view.owes,
        "url": settings.SITE_URL + reverse("campaign_detail", args=[public_id]),
    }
    return deliver.deliver(seat, subject.format(campaign=campaign.name), render_to_string("email/action_due.txt", context),
                           deliver.sentence(subject) + ".", chosen)


def address_reused(request: object, user: object) -> bool:
    """A new account was made with an e-mail address another account already uses: tell that address (only its
    owner reads it), never the person signing up, so sign-up reveals nothing about who has an account."""
    email = str(getattr(user, "email", "") or "")
    others = list(get_user_model().objects.filter(email__iexact=email).exclude(pk=getattr(user, "pk", None))  # type: ignore[misc]
                  .values_list("username", flat=True)[:5])
    if not email or not others:
        return False
    body = render_to_string("email/address_reused.txt", {
        "new": getattr(user, "username", ""), "others": others,
        "login_url": settings.SITE_URL + reverse("login"), "reset_url": settings.SITE_URL + reverse("password_reset"),
    })
    try:
        send_mail("Refit: a new account uses your e-mail address", body, None, [email])
    except Exception:
        log.exception("Could not e-mail %s about a reused address", email)
        return False
    return True
