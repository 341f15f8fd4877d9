"""One-time form tokens: a form posted twice (double click, resent request) records once."""
from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

from campaigns_app.engine import CampaignState
from campaigns_app.models import Campaign, Seat
from campaigns_app.services.errors import FormNotValid

FORM_NOT_VALID = ("That form is not valid: this page did not issue it, or it was changed. Nothing was changed; "
                  "reload the page and try again.")


def _digest(message: str, length: int) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), message.encode(), hashlib.sha256).hexdigest()[:length]


def form_token(campaign: Campaign, seat: Seat, state: CampaignState, purpose: str, map_group: str | None = None
               ) -> str:
    """A one-time token for one seat's form at one step occurrence (``order``, ``recon``, ``roll``, ``board``,
    ``done``).

    It changes once the form's action is recorded (the side finishes the step, or its roll count at the step grows),
    so a form posted twice (double click, resent request) records once: the replay no longer matches and is a no-op.
    It depends only on the seat's own side, so it never differs with what the opponent did in secret. A scenario played
    per Map Group (KGP 8.2) has one form per Map Group: ``map_group`` names it.
    """
    count = 0
    if purpose == "roll":
        count = sum(
            1 for event in state.records
            if event.kind == "table-result" and event.payload.get("side") == seat.side
            and event.payload.get("step") == state.phase_ref
        )
    elif purpose == "board":  # the side's public rolls at the board here (rules_engine.board)
        count = int(state.board_counts.get(seat.side, 0))
    done = seat.side in state.done
    if map_group is not None:
        done = seat.side in state.map_done.get(map_group, ())
    message = "|".join(str(part) for part in (
        campaign.public_id, seat.side, seat.pk, purpose, state.date_index, state.pass_kind, state.phase_ref,
        len(state.history), count, done, map_group or "",
    ))
    return form_tag(campaign, seat, purpose, map_group) + _digest(message, 32)


def form_tag(campaign: Campaign, seat: Seat, purpose: str, map_group: str | None) -> str:
    """The part of a form token that never changes for one seat's form: it proves the server issued the token, so a
    forged one is told apart from a genuine one that is merely spent (already recorded, or a stale page)."""
    return _digest("|".join(("form", campaign.public_id, str(seat.pk), purpose, map_group or "")), 16)


def require_genuine(campaign: Campaign, seat: Seat, purpose: str, map_group: str | None, token: str | None) -> None:
    """FormNotValid unless ``token`` was issued by this server for this seat's form (spent or not)."""
    expected = form_tag(campaign, seat, purpose, map_group)
    if token is None or len(token) != 48 or not hmac.compare_digest(token[:16], expected):
        raise FormNotValid(FORM_NOT_VALID)


def current_step_ref(state: CampaignState) -> str:
    """The step a "Mark finished" form finishes: the phase step ref ("2.512"), else the spine step ("scenario")."""
    return str(state.phase_ref if state.step == "phase" else state.step)
