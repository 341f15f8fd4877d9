"""Reads for the secret rolls at the board on the notes page: every such roll as the seat's side may see it
(rules_engine.board_secret decides: the dice and purpose of its own rolls, of revealed ones and of all after CG end; of
the opponent's hidden rolls only who, which kind, its number, when and where)."""
from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from campaigns_app import door, engine
from campaigns_app.models import EventRecord, Seat
from rules_engine.board_secret import MAX_PURPOSE, BoardRollRecord, board_rolls_for
from rules_engine.dice import board_stream
from rules_engine.events import EventKind

SHOWN_KINDS = (EventKind.BOARD_ROLL_SEALED, EventKind.BOARD_ROLL_REVEALED)


def secret_rolls_context(seat: Seat) -> dict[str, Any]:
    """The page's secret rolls (own and opponent's, in order) and a fresh form id for the rolling form."""
    campaign = seat.campaign
    system = door.system_of(campaign)
    ended = bool((campaign.state or {}).get("ended"))
    streams = [board_stream(side) for side in engine.side_ids(system)]
    rows = (EventRecord.objects.filter(campaign=campaign, kind__in=SHOWN_KINDS)
            | EventRecord.objects.filter(campaign=campaign, kind=EventKind.ROLL, payload__stream__in=streams))
    records = [BoardRollRecord(kind, visibility, side or None, payload or {}, created.isoformat())
               for kind, visibility, side, payload, created in rows.order_by("seq").values_list(
                   "kind", "visibility", "side", "payload", "created")]
    views = board_rolls_for(records, seat.side, ended)
    items = [{"roll": roll, "made_at": datetime.fromisoformat(roll.made_at)} for roll in views]
    return {
        "own_rolls": [item for item, roll in zip(items, views) if roll.own],
        "opponent_rolls": [item for item, roll in zip(items, views) if not roll.own],
        "roll_form_id": secrets.token_hex(16), "max_purpose": MAX_PURPOSE,
        "can_roll": not ended and (campaign.state or {}).get("step") != "waiting",
    }
