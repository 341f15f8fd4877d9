"""Pace: the hours a player has for each due action, agreed by both players when the campaign is made and changed
later only when both agree; pauses stop the clock. Overdue never plays for anyone: it is shown, reminded once and
recorded. Pure: the caller gives the moments (timezone-aware datetimes)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum

PACES = (24, 48, 72, 168)  # hours offered on the create page (none is offered too)
MAX_PAUSE_DAYS = 60
SOON_SHARE = 4  # the first reminder goes out when a quarter of the time is left
ASKS_PER_DAY = 5  # pauses asked for, and new paces proposed, by one side in any 24 hours (each kind counted alone)
DAY = timedelta(hours=24)
DEADLINE_WORDS = "%d %b %Y %H:%M"  # an overdue event's deadline, UTC, as its payload and words give it


class Reminder(StrEnum):
    """Which reminder a due action has had."""

    NONE = ""
    SOON = "soon"
    OVERDUE = "overdue"


@dataclass(frozen=True)
class Pause:
    """A pause both players agreed to: no deadline runs from ``start`` to ``end``."""

    start: datetime
    end: datetime


def pause_end(last_day: date) -> datetime:
    """The moment a pause ends: midnight UTC after its last day."""
    return datetime.combine(last_day + timedelta(days=1), time.min, tzinfo=UTC)


def paused_at(pauses: Sequence[Pause], moment: datetime) -> Pause | None:
    """The pause running at ``moment`` (None when the clock runs)."""
    return next((p for p in pauses if p.start <= moment < p.end), None)


def paused_time(pauses: Sequence[Pause], since: datetime, moment: datetime) -> timedelta:
    """How long the clock stood still between ``since`` and ``moment``."""
    total = timedelta()
    for pause in pauses:
        start, end = max(pause.start, since), min(pause.end, moment)
        if end > start:
            total += end - start
    return total


def deadline(due_since: datetime, hours: int, pauses: Sequence[Pause], moment: datetime) -> datetime | None:
    """When an action due since ``due_since`` must be done at ``hours`` per action (None while paused)."""
    if paused_at(pauses, moment) is not None:
        return None
    return due_since + timedelta(hours=hours) + paused_time(pauses, due_since, moment)


def reminder_due(due_since: datetime, hours: int, pauses: Sequence[Pause], moment: datetime,
                 sent: Reminder) -> Reminder:
    """The reminder to send now: SOON once when a quarter of the time is left, OVERDUE once when it has passed."""
    due = deadline(due_since, hours, pauses, moment)
    if due is None:
        return Reminder.NONE
    if moment >= due and sent is not Reminder.OVERDUE:
        return Reminder.OVERDUE
    if moment >= due - timedelta(hours=hours) / SOON_SHARE and sent is Reminder.NONE:
        return Reminder.SOON
    return Reminder.NONE


def ask_again(own_latest: Sequence[datetime], moment: datetime) -> datetime | None:
    """When a side may ask again (None: now): ``own_latest`` holds the moments of its latest ASKS_PER_DAY asks of one
    kind (or all, when fewer); a new one waits until the oldest of them is a day old."""
    if len(own_latest) < ASKS_PER_DAY:
        return None
    oldest = sorted(own_latest)[-ASKS_PER_DAY]
    return oldest + DAY if oldest > moment - DAY else None


def minute_words(moment: datetime) -> str:
    """"11:01 UTC on 27 Nov 2026": the first whole minute at or after ``moment`` (a UTC moment)."""
    shown = moment.replace(second=0, microsecond=0)
    shown += timedelta(minutes=1) if shown < moment else timedelta()
    return f"{shown:%H:%M} UTC on {shown:%d %b %Y}"


def pace_words(hours: int | None) -> str:
    """The pace as players say it."""
    if not hours:
        return "No time limit"
    if hours % 24 == 0:
        days = hours // 24
        return f"{days} day{'s' if days != 1 else ''} per action" if days != 7 else "1 week per action"
    return f"{hours} hours per action"


def change_problem(current: int | None, proposed: int | None) -> str:
    """Why a new pace cannot be proposed ("" when it can): one offered on the create page, other than the current."""
    if proposed is not None and proposed not in PACES:
        return f"A pace is no time limit or one of {', '.join(str(h) for h in PACES)} hours per action."
    if proposed == current:
        return f"{pace_words(current)} is the pace already: propose a different one."
    return ""


def repaced(due: Mapping[str, Mapping[str, str]], moment: str) -> dict[str, dict[str, str]]:
    """Each due action's clock once a new pace is agreed at ``moment``: it starts again there, so the action is due
    the new pace after the change (time already spent is not carried over), and no reminder has been sent for it."""
    return {side: {"since": moment, "reminded": Reminder.NONE.value} for side in due}


def next_due(due: Mapping[str, Mapping[str, str]], before: Mapping[str, Sequence[str]],
             after: Mapping[str, Sequence[str]], moment: str) -> dict[str, dict[str, str]]:
    """Each side's due action after a write: a side that owes something new is due since ``moment`` (no reminder
    sent yet); one that still owes the same keeps its time; one that owes nothing has nothing due."""
    result: dict[str, dict[str, str]] = {}
    for side, owed in after.items():
        if not owed:
            continue
        kept = due.get(side)
        if kept is not None and tuple(before.get(side, ())) == tuple(owed):
            result[side] = dict(kept)
        else:
            result[side] = {"since": moment, "reminded": Reminder.NONE.value}
    return result


def pauses_of(stored: object) -> tuple[Pause, ...]:
    """The stored pauses ([[start, end] ISO 8601 …]); anything malformed is ignored."""
    found: list[Pause] = []
    for item in stored if isinstance(stored, list) else []:
        if isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item):
            try:
                found.append(Pause(datetime.fromisoformat(item[0]), datetime.fromisoformat(item[1])))
            except ValueError:
                continue
    return tuple(found)
