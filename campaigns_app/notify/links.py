"""The one-click link every campaign e-mail ends with: a signed, expiring token for one seat (campaign + side), bound
to its player's id through the salt, so the token itself shows only what the e-mail already shows (the campaign's
public id and the reader's own side) and is worthless for another player or campaign."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse

from campaigns_app.models import Seat

MAX_AGE = timedelta(days=30)
SALT = "refit.notify-settings"
TOKEN_MAX = 200  # longer input is not a token this module made


class LinkError(ValueError):
    """A link that is expired or broken."""

    def __init__(self, expired: bool) -> None:
        super().__init__("expired" if expired else "broken")
        self.expired = expired


def _signer(user_id: int) -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=f"{SALT}.{user_id}")


def token_for(seat: Seat) -> str:
    """The token of ``seat``'s link (its player's id in the salt, not in the token)."""
    return _signer(seat.user_id).sign(f"{seat.campaign.public_id}.{seat.side}")


def url_for(seat: Seat) -> str:
    """The absolute one-click link for ``seat``'s e-mails."""
    return settings.SITE_URL + reverse("notify_link", args=[token_for(seat)])


def seat_of(token: str) -> Seat:
    """The seat a valid token names; LinkError(expired) for an expired one, LinkError(False) for anything else."""
    if len(token) > TOKEN_MAX or token.count(":") < 2:
        raise LinkError(False)
    public_id, _, side = token.rsplit(":", 2)[0].partition(".")
    seat = (Seat.objects.filter(campaign__public_id=public_id, side=side)
            .select_related("user", "campaign").first() if public_id and side else None)
    if seat is None:
        raise LinkError(False)
    try:
        _signer(seat.user_id).unsign(token, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise LinkError(True) from None
    except signing.BadSignature:
        raise LinkError(False) from None
    return seat
