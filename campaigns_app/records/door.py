"""The records' door: a campaign's system and state loaded (campaigns_app.engine), the stored record lines and event
log read as far as rules_engine.record_view allows, and a side's ``RecordView`` built from them. The record
selectors, views and exports see only what comes out of here, never a CampaignState."""
from __future__ import annotations

import json
from collections.abc import Collection

from django.db.models import Count, JSONField, OuterRef, QuerySet, Subquery
from django.db.models.functions import JSONObject

from campaigns_app import engine, event_pages
from campaigns_app.engine import System
from campaigns_app.event_pages import Page, page_of, visible_records
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.records import projection as records
from rules_engine.dice import EXPORT_FORMAT, PUBLIC_STREAM, Verification, verify_export
from rules_engine.event_words import cg_ended_text
from rules_engine.events import JSON, Event, EventKind
from rules_engine.record_view import (
    DATE_KINDS,
    RESOLVED_KIND,
    ROW_KINDS,
    DicePage,
    DiceRow,
    EndStatus,
    PagedRoll,
    RecordPart,
    RecordSources,
    RecordTable,
    RecordView,
    Story,
    StoryError,
    dice_page,
    end_status,
    opponent_roster_fields,
    purchase_sides,
    reached_dates,
    record_view_for,
    records_sight,
    story_for,
)
from rules_engine.state import CampaignState
from rules_engine.vocabulary import Visibility

# the record types and dice-export names the record selectors, views and exports use (only this door imports them)
__all__ = [
    "ALL_PARTS",
    "EXPORT_FORMAT",
    "DicePage",
    "PUBLIC_STREAM",
    "DiceRow",
    "RecordPart",
    "RecordTable",
    "RecordView",
    "Story",
    "StoryError",
    "Verification",
    "campaign_end_status",
    "cg_ended_text",
    "dice_page_of",
    "ended",
    "events",
    "record_view",
    "side_ids",
    "story",
    "verify_export",
]

ALL_PARTS = frozenset(RecordPart)


def _system(campaign: Campaign) -> System:
    system: System = engine.system_for(campaign)
    return system


def _state(campaign: Campaign) -> CampaignState:
    state: CampaignState = engine.load_state(campaign.state)
    return state


def events(campaign: Campaign) -> list[Event]:
    """The campaign's event log, in order (every event: the view filters what a side may see)."""
    return [engine.event_of(record) for record in EventRecord.objects.filter(campaign=campaign).order_by("seq")]


def record_view(campaign: Campaign, side: str, parts: Collection[RecordPart] = ALL_PARTS) -> RecordView:
    """What ``side`` may see of the campaign's records (only ``parts`` are read and built)."""
    system, state = _system(campaign), _state(campaign)
    wanted = frozenset(parts)
    roster = (records.roster_lines(campaign, side, opponent_roster_fields(system, state))
              if RecordPart.ROSTER in wanted else {})
    purchases = (records.purchase_lines(campaign, purchase_sides(system, state, side))
                 if RecordPart.PURCHASES in wanted else {})
    needs_events = RecordPart.DICE in wanted or (RecordPart.END in wanted and state.ended)
    sources = RecordSources(wanted, roster, purchases, events(campaign) if needs_events else ())
    return record_view_for(system, state, side, sources)


def side_ids(campaign: Campaign) -> tuple[str, str]:
    """The campaign's two side ids in the system's order (the order of the player seeds too)."""
    first, second = _system(campaign).sides
    return first.id, second.id


def ended(campaign: Campaign) -> bool:
    """Whether the campaign's CG is over."""
    return _state(campaign).ended


def campaign_end_status(campaign: Campaign) -> EndStatus:
    """How the CG ended, or who proposes to end it (public)."""
    return end_status(_state(campaign))


def story(campaign: Campaign, side: str, number: int) -> Story:
    """CG Date ``number``'s story as ``side`` reads it (StoryError before CG end: nothing but the state is read then)."""
    system, state = _system(campaign), _state(campaign)
    if not state.ended:
        return story_for(system, state, side, number, (), {}, {})  # raises: the story waits for CG end
    dates = reached_dates(system, state)
    wanted = dates[number - 1].id if 1 <= number <= len(dates) else None
    return story_for(system, state, side, number, _date_events(campaign, wanted),
                     records.roster_lines(campaign, side, opponent_roster_fields(system, state)),
                     records.purchase_lines(campaign, purchase_sides(system, state, side)))


def _date_events(campaign: Campaign, date_id: str | None) -> list[Event]:
    """The events from ``date_id``'s public date event to the next CG Date's (two queries: the date events, then the
    date's own events), so a story page reads one date, however long the campaign."""
    marks = list(EventRecord.objects.filter(campaign=campaign, visibility=Visibility.PUBLIC, kind__in=DATE_KINDS)
                 .order_by("seq").values_list("seq", "payload__date"))
    start = next((seq for seq, date in marks if date == date_id), None)
    if start is None:
        return []
    stop = next((seq for seq, date in marks if seq > start and date != date_id), None)
    found = EventRecord.objects.filter(campaign=campaign, seq__gte=start)
    if stop is not None:
        found = found.filter(seq__lt=stop)
    return [engine.event_of(record) for record in found.order_by("seq")]


def dice_page_of(campaign: Campaign, side: str, asked: str | None) -> tuple[RecordView, DicePage, Page]:
    """``side``'s RecordView (no part built) and page ``asked`` of the dice log it may see (event_pages.page_of: None
    the newest), read from the page's own rolls and their context only (rules_engine.record_view.dice_page builds it;
    records_sight filters in the query)."""
    system, state = _system(campaign), _state(campaign)
    view = record_view_for(system, state, side, RecordSources())
    visible = visible_records(campaign, records_sight(side, state.ended))
    rolls = visible.filter(kind__in=[str(kind) for kind in ROW_KINDS])
    counted = {(kind, Visibility(visibility), owner or None): n for kind, visibility, owner, n in
               rolls.order_by().values_list("kind", "visibility", "side").annotate(n=Count("id")).values_list(
                   "kind", "visibility", "side", "n")}
    page = page_of(asked, sum(counted.values()), event_pages.PAGE_SIZE)
    shown = list(rolls.annotate(
        date_then=Subquery(
            EventRecord.objects.filter(campaign=campaign, visibility=Visibility.PUBLIC, kind__in=DATE_KINDS,
                                       seq__lt=OuterRef("seq"), payload__date__isnull=False)
            .exclude(payload__date="").order_by("-seq").values("payload__date")[:1], output_field=JSONField()),
        follower=_one(visible.filter(seq__gt=OuterRef("seq")).order_by("seq")),
        resolved=_one(visible.filter(kind=RESOLVED_KIND, seq__gt=OuterRef("seq"), payload__stream=OuterRef(
            "payload__stream"), payload__number=OuterRef("payload__number")).order_by("-seq")),
    ).order_by("seq")[page.start:page.stop])
    paged = [PagedRoll(engine.event_of(record), str(record.date_then or ""), _event(record.follower),
                       _event(record.resolved)) for record in shown]
    return view, dice_page(system, paged, counted, side), page


def _one(records: QuerySet[EventRecord]) -> Subquery:
    """The first of ``records`` as one JSON object (kind, visibility, side, payload): a column of the outer query."""
    fields = JSONObject(kind="kind", visibility="visibility", side="side", payload="payload")
    return Subquery(records.values(event=fields)[:1], output_field=JSONField())


def _event(data: dict[str, JSON] | None) -> Event | None:
    """The Event a ``_one`` column holds, if any."""
    if data is None:
        return None
    payload, owner = data.get("payload"), data.get("side")
    if isinstance(payload, str):  # SQLite's json_object() embeds a JSON column as its text, PostgreSQL as an object
        payload = json.loads(payload)
    if not isinstance(payload, dict):
        raise ValueError(f"Bad event record: {data!r}")
    return Event(EventKind(str(data["kind"])), Visibility(str(data["visibility"])), str(owner) if owner else None,
                 payload)
