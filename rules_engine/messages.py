"""Messages: the two players' conversation, kept with the campaign as public events (both sides read every one),
bounded in length and in rate so no client can fill the campaign, and e-mailed to a reader who is away at most once
per MAIL_GAP."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from rules_engine.events import Event, EventKind
from rules_engine.pace import minute_words
from rules_engine.plain_text import plain_text
from rules_engine.vocabulary import SideId, Visibility

MAX_MESSAGE = 2000  # characters
PER_HOUR = 30  # messages a side may write in any hour
PER_CAMPAIGN = 2000  # messages a campaign keeps at most
HOUR = timedelta(hours=1)
MAIL_GAP = timedelta(minutes=15)  # a reader away gets one message e-mail at most in this time


def message(side: SideId, text: str, form: str = "") -> Event:
    """A message from ``side`` (TextError when it is empty, too long or not plain text; ``form``: the sending form's
    id, so a form sent twice sends one message)."""
    return Event(EventKind.MESSAGE, Visibility.PUBLIC, side, {"text": plain_text(text, MAX_MESSAGE, "A message"),
                                                               "form": form})


@dataclass(frozen=True)
class Wait:
    """A message the rate bounds refuse: ``again`` is when its side may write again (None: never, the campaign holds
    PER_CAMPAIGN messages)."""

    again: datetime | None

    def words(self) -> str:
        """What the writer reads: why, and when they may write again."""
        if self.again is None:
            return (f"This campaign keeps at most {PER_CAMPAIGN:,} messages and holds them all: no more can be written "
                    "here.")
        return (f"You have written {PER_HOUR} messages within an hour, the most a side may: you may write again at "
                f"{minute_words(self.again)}.")


def rate_wait(own_latest: Sequence[datetime], total: int, moment: datetime) -> Wait | None:
    """Whether a side may write at ``moment`` (None) or must wait: ``own_latest`` holds the moments of its latest
    PER_HOUR messages (or all, when fewer), ``total`` counts the campaign's messages."""
    if total >= PER_CAMPAIGN:
        return Wait(None)
    if len(own_latest) >= PER_HOUR:
        oldest = sorted(own_latest)[-PER_HOUR]
        if oldest > moment - HOUR:
            return Wait(oldest + HOUR)
    return None


def mail_due(last_mailed: datetime | None, reader_seen: datetime | None, moment: datetime) -> bool:
    """Whether a reader away is e-mailed a message written at ``moment``: not when one was e-mailed within MAIL_GAP
    before and the reader has not opened the campaign page since (``reader_seen``: when they last had it open)."""
    if last_mailed is None or moment - last_mailed >= MAIL_GAP:
        return True
    return reader_seen is not None and reader_seen > last_mailed
