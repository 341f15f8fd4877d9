"""Refit's tables, one module per feature: ``campaigns`` (systems, cards, campaigns, seats, invitations, events,
live pages) and ``records`` (the CG Roster and RG Purchase Record lines).

Players never see a primary key: campaigns are addressed by ``public_id`` and invitations by ``token``,
both random and unguessable; event sequence numbers stay on the server (they would count hidden events).
"""
from __future__ import annotations

from campaigns_app.models.campaigns import (
    Campaign,
    CgCard,
    CgSystem,
    EventRecord,
    Invitation,
    LiveView,
    Seat,
    new_card_id,
    new_invitation_token,
    new_player_seed,
    new_public_id,
    now,
)
from campaigns_app.models.notify import DIGEST_MAX_LINES, NotificationSetting, Notify
from campaigns_app.models.records import PurchaseRecordLine, RosterLine

__all__ = [
    "DIGEST_MAX_LINES", "Campaign", "CgCard", "CgSystem", "EventRecord", "Invitation", "LiveView", "NotificationSetting",
    "Notify", "PurchaseRecordLine",
    "RosterLine", "Seat", "new_card_id", "new_invitation_token", "new_player_seed", "new_public_id", "now",
]
