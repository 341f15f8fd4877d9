"""One-time form tokens: each seat's form is bound to one step occurrence (``rules_engine.view.FormFacts``), so a
form posted twice records once, and a forged token is told apart from a spent one."""
from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

from campaigns_app.models import Campaign, Seat
from rules_engine.view import FormFacts


def form_tag(campaign: Campaign, seat: Seat, purpose: str, map_group: str | None) -> str:
    """The part of a form token that never changes for one seat's form: it proves the server issued the token, so a
    forged one is told apart from a genuine one that is merely spent (already recorded, or a stale page)."""
    message = "|".join(("form", campaign.public_id, str(seat.pk), purpose, map_group or ""))
    return hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()[:16]


def form_token(campaign: Campaign, seat: Seat, facts: FormFacts, purpose: str, map_group: str | None = None) -> str:
    """A one-time token for one seat's form at one step occurrence (``order``, ``recon``, ``roll``, ``board``,
    ``done``, ``first``).

    It changes once the form's action is recorded (the side finishes the step, or its roll count at the step grows),
    so a form posted twice (double click, resent request) records once: the replay no longer matches and is a no-op.
    It depends only on the seat's own side (``facts``: its SideView's), so it never differs with what the opponent did
    in secret. A scenario played per Map Group (KGP 8.2) has one form per Map Group: ``map_group`` names it.
    """
    message = "|".join(str(part) for part in (campaign.public_id, seat.side, seat.pk, *facts.parts(purpose, map_group)))
    occurrence = hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()[:32]
    return form_tag(campaign, seat, purpose, map_group) + occurrence
