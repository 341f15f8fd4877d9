"""Reads for the pace: each side's deadline, the pause, a pause asked for, a new pace proposed. Public to both seats (what is due is on
both pages already). "Overdue" is what the reminders recorded, so a page shows it from the moment it is recorded."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from django.utils import timezone

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign
from rules_engine import pace


def pace_context(campaign: Campaign, system: System, viewer: str, moment: datetime | None = None) -> dict[str, Any]:
    """The pace as the campaign page shows it."""
    moment = moment or timezone.now()
    today = moment.astimezone(UTC).date()  # a pause's days are UTC days (services.pace.pause_ask)
    hours = campaign.pace_hours
    pauses = pace.pauses_of(campaign.pauses)
    running = pace.paused_at(pauses, moment)
    asked = campaign.pause_request or {}
    proposed = campaign.pace_request or {}
    sides = []
    for side, entry in (campaign.due or {}).items():
        if not hours:
            break
        since = datetime.fromisoformat(entry["since"])
        sides.append({"side": side, "side_name": engine.side_name(system, side), "you": side == viewer,
                      "deadline": pace.deadline(since, hours, pauses, moment),
                      "overdue": entry.get("reminded") == pace.Reminder.OVERDUE})
    return {
        "hours": hours, "words": pace.pace_words(hours), "due": sides,
        "paused_until": running.end if running else None,
        "asked": {"by_you": asked.get("side") == viewer, "ends": pace.pause_end(date.fromisoformat(str(asked["until"]))),
                  "side_name": engine.side_name(system, str(asked.get("side")))} if asked else None,
        "max_pause_days": pace.MAX_PAUSE_DAYS, "pause_first": today + timedelta(days=1),
        "pause_last": today + timedelta(days=pace.MAX_PAUSE_DAYS),
        "proposed": {"by_you": proposed.get("side") == viewer, "words": pace.pace_words(proposed.get("hours")),
                     "side_name": engine.side_name(system, str(proposed.get("side")))} if proposed else None,
        "choices": [{"value": h or "", "words": pace.pace_words(h)} for h in (None, *pace.PACES) if h != hours],
    }


def deadline_of(campaign: Campaign, side: str, moment: datetime | None = None) -> tuple[datetime | None, bool]:
    """The side's deadline (None: nothing due, no pace, or paused) and whether it is recorded overdue."""
    entry = (campaign.due or {}).get(side)
    if not campaign.pace_hours or not entry:
        return None, False
    since = datetime.fromisoformat(entry["since"])
    found = pace.deadline(since, campaign.pace_hours, pace.pauses_of(campaign.pauses), moment or timezone.now())
    return found, entry.get("reminded") == pace.Reminder.OVERDUE
