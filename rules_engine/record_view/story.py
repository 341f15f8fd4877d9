"""The story of the campaign, one CG Date at a time (issue 13 item 6), told only after CG end — when everything is
revealed to both sides: what each side bought, the Initiative chits, the scenario result and the Refit Phase outcomes,
in the history's own words (``event_text``) from the events of that date."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_engine.event_text import Words, describe, visible_events
from rules_engine.event_words import date_name, result_summary, side_name
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import System
from rules_engine.record_view.dice import DATE_KINDS
from rules_engine.record_view.model import PurchaseLines, RosterLines
from rules_engine.record_view.pictures import points_at
from rules_engine.record_view.roster import reached_dates
from rules_engine.record_view.text import amount_text, date_label, text
from rules_engine.state import CampaignState
from rules_engine.vocabulary import SideId, Visibility

K = EventKind
ENDING = "How the CG ended"  # a chapter of the last CG Date's story only (the others have no end to tell)
CHAPTERS: tuple[tuple[str, frozenset[EventKind]], ...] = (
    ("Points and purchases", frozenset({K.INITIAL_OB, K.REPLENISHED, K.REPLENISHMENT_SKIPPED, K.POINTS_FORFEITED,
                                        K.RECON_DECLARED, K.DECLARED, K.ITEMS_LOST})),
    ("Initiative chits", frozenset({K.CHIT_CHOSEN, K.CHIT_SEALED, K.CHITS_REVEALED, K.INITIATIVE_ASSIGNED,
                                    K.MOVE_ORDER, K.IDLE})),
    ("Scenario result", frozenset({K.RESULTS_CONFIRMED, K.MAP_GROUP_RESULTS_CONFIRMED, K.RESULTS_DIFFER,
                                   K.LOSSES_RECORDED, K.LVP_RECORDED})),
    ("Refit Phase outcomes", frozenset({K.ROLL, K.TABLE_RESULT, K.SECRET_DR, K.SAN_ADJUSTED, K.ELR_CHANGED,
                                        K.NIGHT_ELR, K.WEATHER, K.LEADERS_GENERATED, K.TRACK_SET, K.ANNOUNCED,
                                        K.RESOLUTION_ORDER, K.NOTHING_TO_RESOLVE})),
    (ENDING, frozenset({K.CG_ENDED})),
)
KIND_WORDS = {"initial": "Initial Scenario", "idle": "Idle Date", "scenario": "Scenario"}


class StoryError(ValueError):
    """No story to tell: the CG has not ended, or no CG Date has that number."""


@dataclass(frozen=True)
class StoryDate:
    """A CG Date with a story: its number (1 the first) and label."""

    number: int
    label: str


@dataclass(frozen=True)
class Bought:
    """What one side had and bought on the date: points (Start + Replenished, Spent, Left) and each RG bought."""

    side_name: str
    you: bool
    points: str
    groups: tuple[str, ...]
    fortifications: tuple[str, ...]


@dataclass(frozen=True)
class Chapter:
    """One part of the date's story: its title and the history's lines for it, in order."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Story:
    """The story of one CG Date, as both sides see it after CG end."""

    date: StoryDate
    name: str
    what: str  # "German Assault", "Idle Date", "Initial Scenario" (empty when the date saw no scenario)
    chits: str
    result: str
    bought: tuple[Bought, ...]
    chapters: tuple[Chapter, ...]
    dates: tuple[StoryDate, ...]
    previous: StoryDate | None
    next: StoryDate | None


def story_dates(system: System, state: CampaignState) -> tuple[StoryDate, ...]:
    """The CG Dates reached, numbered from 1 in play order (public: the calendar)."""
    return tuple(StoryDate(i, date_label(d.id, d.entry)) for i, d in enumerate(reached_dates(system, state), start=1))


def date_events(events: Sequence[Event], date_id: str) -> list[Event]:
    """The events logged while the campaign was on ``date_id`` (from its public date event to the next one)."""
    found, current = [], ""
    for event in events:
        if event.visibility is Visibility.PUBLIC and event.kind in DATE_KINDS:
            current = str(event.payload.get("date") or current)
        if current == date_id:
            found.append(event)
    return found


def _bought(system: System, side: SideId, viewer: SideId, date_id: str, roster: Mapping[str, JSON],
            purchases: Sequence[Mapping[str, JSON]]) -> Bought:
    at = points_at(date_id, roster)
    currency = system.currencies[0].code if system.currencies else "points"
    points = ""
    if at.available is not None:
        points = f"{amount_text(at.available)} {currency} available"
        if at.spent is not None:
            points += f", {amount_text(at.spent)} spent"
        if roster.get("left") is not None:
            points += f", {text(roster.get('left'))} left"
    groups = tuple(f"RG {line.get('rg_id')} {line.get('group_type')}: {text(line.get('cost'))} {currency}"
                   + (f", strength {line.get('strength')}" if line.get("strength") else "")
                   for line in purchases if line.get("date_id") == date_id and not line.get("initial_ob"))
    forts = roster.get("fortifications") or []
    return Bought(side_name(system, side), side == viewer, points, groups,
                  tuple(str(f) for f in forts) if isinstance(forts, (list, tuple)) else ())


def _line(words: Words, event: Event, viewer: SideId) -> str:
    """An event's history line, with the side it belongs to where the words do not name it ("German: 2.516: …")."""
    said = describe(words, event.kind, event.payload, event.side, viewer).text
    owner = words.side(event.side) if event.side else ""
    if not owner or owner in said or said.startswith("You"):
        return said
    return f"{owner}: {said}"


def story_for(system: System, state: CampaignState, viewer: SideId, number: int, events: Sequence[Event],
              roster: RosterLines, purchases: PurchaseLines) -> Story:
    """CG Date ``number``'s story (StoryError before CG end — nothing is told while the CG runs — or for a number that
    is no CG Date reached)."""
    if not state.ended:
        raise StoryError("The story of each CG Date is told once the CG has ended; the records show the CG so far.")
    dates = story_dates(system, state)
    if not 1 <= number <= len(dates):
        reached = f"CG Dates 1 to {len(dates)}" if len(dates) > 1 else "only CG Date 1"
        raise StoryError(f"No CG Date {number}: the campaign reached {reached}.")
    date_id = reached_dates(system, state)[number - 1].id
    record = next((r for r in state.history if r.date_id == date_id), None)
    words = Words(system)
    shown = visible_events(list(date_events(events, date_id)), viewer, True)
    chapters = [Chapter(title, tuple(_line(words, e, viewer) for e in shown if e.kind in kinds))
                for title, kinds in CHAPTERS]
    chapters = [c for c in chapters if c.lines or c.title != ENDING]
    chits = ""
    if record is not None and record.choices and record.kind != "initial":
        chits = ", ".join(f"{side_name(system, s.id)} {record.choices[s.id].capitalize()}" for s in system.sides
                          if s.id in record.choices)
    what = ""
    if record is not None:
        what = record.label if record.label and record.label != "initial" else KIND_WORDS.get(record.kind, record.kind)
    bought = tuple(_bought(system, s.id, viewer, date_id, roster.get(s.id, {}).get(date_id, {}),
                           purchases.get(s.id, ())) for s in system.sides)
    return Story(
        date=dates[number - 1], name=date_name(system, date_id), what=what, chits=chits,
        result=result_summary(system, record.result.to_json()) if record is not None and record.result else "",
        bought=bought, chapters=tuple(chapters), dates=dates,
        previous=dates[number - 2] if number > 1 else None, next=dates[number] if number < len(dates) else None)
