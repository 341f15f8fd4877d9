"""The story of the campaign, one CG Date a page (issue 13 item 6): read through the records' door only after CG end
(rules_engine.record_view.story tells it; before CG end the door refuses and nothing of the CG is read)."""
from __future__ import annotations

from typing import Any

from campaigns_app.models import Seat
from campaigns_app.records import door as record_door

MAX_NUMBER_DIGITS = 4  # a longer CG Date number is refused before it is read as a number


def story_context(seat: Seat, number_text: str) -> dict[str, Any]:
    """CG Date ``number_text``'s story (record_door.StoryError: before CG end, or a number that is no CG Date)."""
    text = number_text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_NUMBER_DIGITS:
        raise record_door.StoryError(f"No CG Date {number_text[:20]!r}: a CG Date is a whole number from 1.")
    view = record_door.record_view(seat.campaign, seat.side, ())
    told = record_door.story(seat.campaign, seat.side, int(text))
    return {
        "campaign": seat.campaign, "seat": seat, "ended": view.ended, "side_name": view.side_name,
        "opponent_name": view.opponent_name, "date": view.date, "nav": "story", "story": told,
    }


def refusal_context(seat: Seat, problem: str) -> dict[str, Any]:
    """The story page saying why there is no story to show (no figure of the CG in it)."""
    view = record_door.record_view(seat.campaign, seat.side, ())
    return {"campaign": seat.campaign, "seat": seat, "ended": view.ended, "side_name": view.side_name,
            "opponent_name": view.opponent_name, "date": view.date, "nav": "story", "story": None,
            "problem": problem}
