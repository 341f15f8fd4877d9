"""A seat's history: the events its side may see (rules_engine.event_text decides and words them), in order."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

from campaigns_app import door, event_pages
from campaigns_app.cards.selectors import choice_rows
from campaigns_app.engine import System
from campaigns_app.event_pages import Page, page_of, visible_records
from campaigns_app.local_time import local_time
from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.prepared import Prepared
from campaigns_app.records.lost_values import value_rows
from rules_engine.event_sight import sight
from rules_engine.event_text import Words, describe, visible_events
from rules_engine.events import JSON, EventKind
from rules_engine.pace import DEADLINE_WORDS


@dataclass(frozen=True)
class RecentEvent:
    """One of the newest events as ``recent_records`` reads it: the columns a history line reads, no model instance."""

    seq: int
    kind: str
    visibility: str
    side: str
    payload: dict[str, JSON]
    created: datetime


Recorded = EventRecord | RecentEvent  # a stored event: a model row, or one of the newest events read as RecentEvent


@dataclass(frozen=True)
class EventLine:
    """What the live page's latest events print of one event, and nothing else (``history_item`` in
    campaigns/detail.html reads these alone): hashable, so an event already shown is not rendered again
    (templatetags/rendered_once.py) — each new event moves the list by one."""

    kind: str
    secret: bool
    text: str  # plain text (the partial escapes it)
    dice: tuple[JSON, ...]
    words: SafeString  # the text as HTML: escaped, or an overdue line's with its <time>


def _describe_event(system: System, record: Recorded, viewer: str) -> dict[str, Any]:
    """A history line: what happened, in words (rules_engine.event_text), and its dice (if a roll)."""
    payload = record.payload or {}
    said = describe(Words(system), record.kind, payload, record.side or None, viewer)
    dice = (payload.get("dice") or []) if record.kind == EventKind.ROLL else None
    # "Only you" on the viewer's own secret records; the opponent's, seen after CG end, are revealed, not his own
    secret = record.visibility != EventRecord.Visibility.PUBLIC and record.side == viewer
    words = _overdue_words(said.text, payload) if record.kind == EventKind.OVERDUE else conditional_escape(said.text)
    return {
        "kind": record.kind,
        "text": said.text,
        "detail": said.detail,
        "choices": _creation_choices(system, payload) if record.kind == EventKind.CAMPAIGN_CREATED else "",
        "dice": dice,
        "secret": secret,
        "created": record.created,
        "words": words,
        "line": EventLine(str(record.kind), secret, str(said.text), tuple(dice) if isinstance(dice, list) else (), words),
    }


def _overdue_words(text: str, payload: dict[str, Any]) -> SafeString:
    """An overdue line's words as HTML, its deadline a <time> that refit.js shows in the reader's own time like every
    other deadline (UTC without JavaScript); the words escaped as they are when they do not hold it."""
    written = str(payload.get("deadline") or "")
    try:
        moment = datetime.strptime(written, DEADLINE_WORDS).replace(tzinfo=UTC)
    except ValueError:
        return conditional_escape(text)
    before, found, after = text.partition(f"{written} UTC")
    if not found:
        return conditional_escape(text)
    return format_html("{}{}{}", before, local_time(moment), after)


def _creation_choices(system: System, payload: dict[str, Any]) -> str:
    """The rules a campaign plays by, chosen at its creation: the players' choices (``source: players`` settings) and
    the values lost in the rule text typed then (printed rule values, not secrets)."""
    choices = ""
    chosen = payload.get("settings") or {}
    if chosen:
        rows = choice_rows(system, chosen)
        choices = "Players' choices: " + "; ".join(f"{row['title']}: {row['value']}" for row in rows) + "."
    typed = payload.get("lost_values") or {}
    if typed:
        lost = "Values lost in the rule text, typed as printed: " + "; ".join(
            f"{row['ref']} {row['chart']}, {row['row']}, {row['column']}: {row['value']}"
            for row in value_rows(system, typed, "")) + "."
        choices = f"{choices} {lost}".strip()
    return choices


def _visible(records: Sequence[Recorded], side: str, ended: bool) -> list[Recorded]:
    """The records ``side`` may see (rules_engine.event_text decides)."""
    return visible_events(records, side, ended)


HISTORY_WINDOW = 24  # events read at a time, newest first, for the latest few


def recent_records(campaign: Campaign) -> list[RecentEvent]:
    """The campaign's newest HISTORY_WINDOW events, in order, whoever may see them: read once for both seats' latest
    history (``history(recent=…)`` filters them for one side, as it does the rows it reads itself). Read as values,
    not model instances: a model instance per row cost more CPU than the query."""
    return [RecentEvent(*row) for row in reversed(RECENT.rows(campaign.pk))]


RECENT = Prepared(lambda campaign_id: EventRecord.objects.filter(campaign_id=campaign_id).order_by("-seq")
                  .values_list(*RecentEvent.__dataclass_fields__)[:HISTORY_WINDOW], int)


def history(campaign: Campaign, seat: Seat, latest: int | None = None, ended: bool | None = None,
            recent: list[RecentEvent] | None = None) -> list[dict[str, Any]]:
    """The events the seat's side may see, in order (``latest``: only the last few, read from the newest back;
    ``ended``: whether the CG is over, when the caller knows; ``recent``: the campaign's newest events as
    ``recent_records`` read them, used as the first window)."""
    system = door.system_of(campaign)
    if ended is None:
        ended = door.ended(campaign)
    if latest is None:
        visible = _visible(list(EventRecord.objects.filter(campaign=campaign).order_by("seq")), seat.side, ended)
    else:
        window = max(HISTORY_WINDOW, latest + 1)
        while True:
            records: Sequence[Recorded]
            if recent is not None and window == HISTORY_WINDOW:
                records = recent  # no queryset built: a live page's latest events are almost always in it
            else:
                records = list(EventRecord.objects.filter(campaign=campaign).order_by("-seq")[:window])[::-1]
            visible = _visible(records, seat.side, ended)
            if len(records) < window:  # the whole campaign
                break
            # the window's first event may be a chit-sealed whose chit-chosen (just before it) was not read
            visible = [r for r in visible if r.seq != records[0].seq]
            if len(visible) >= latest:
                break
            window *= 4
        visible = visible[-latest:]
    return [_describe_event(system, record, seat.side) for record in visible]


def history_page(campaign: Campaign, seat: Seat, asked: str | None) -> tuple[list[dict[str, Any]], Page]:
    """One page of the seat's history, in order (``asked``: its number, 1 the oldest; None the newest): the events the
    side may not see are left out in the query, so only the page's own events are read (event_pages.PageError for a
    page number that is no page)."""
    system = door.system_of(campaign)
    records = visible_records(campaign, sight(seat.side, door.ended(campaign)))
    page = page_of(asked, records.count(), event_pages.PAGE_SIZE)
    shown = list(records.order_by("seq")[page.start:page.stop])
    return [_describe_event(system, record, seat.side) for record in shown], page
