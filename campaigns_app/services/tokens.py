"""One-time form tokens: a form posted twice (double click, resent request) records once."""
from __future__ import annotations

import hmac
import re

from campaigns_app import form_tokens
from campaigns_app.engine import CampaignState
from campaigns_app.form_tokens import form_tag
from campaigns_app.models import Campaign, Seat
from campaigns_app.services.errors import FormNotValid, ServiceError
from rules_engine.view import form_facts

FORM_NOT_VALID = ("That form is not valid: this page did not issue it, or it was changed. Nothing was changed; "
                  "reload the page and try again.")


def form_token(campaign: Campaign, seat: Seat, state: CampaignState, purpose: str, map_group: str | None = None
               ) -> str:
    """The seat's one-time form token at the state's step occurrence, from its side's FormFacts (form_tokens)."""
    return form_tokens.form_token(campaign, seat, form_facts(state, seat.side), purpose, map_group)


def require_genuine(campaign: Campaign, seat: Seat, purpose: str, map_group: str | None, token: str | None) -> None:
    """FormNotValid unless ``token`` was issued by this server for this seat's form (spent or not)."""
    expected = form_tag(campaign, seat, purpose, map_group)
    if token is None or len(token) != 48 or not hmac.compare_digest(token[:16], expected):
        raise FormNotValid(FORM_NOT_VALID)


def current_step_ref(state: CampaignState) -> str:
    """The step a "Mark finished" form finishes: the phase step ref ("2.512"), else the spine step ("scenario")."""
    return str(state.phase_ref if state.step == "phase" else state.step)


FORM_ID = re.compile(r"[0-9a-f]{32}")  # a once-only form's id (a message, a note, a secret roll): a form sent twice acts once


def require_form_id(form_id: str, again: str) -> None:
    """ServiceError unless ``form_id`` is a once-only form's id; ``again`` says where to fill the form anew."""
    if not FORM_ID.fullmatch(form_id):
        raise ServiceError(f"This form has expired: {again}.")
