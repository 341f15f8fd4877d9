"""The one place deciding what a side may see of the records (PL/RR record forms, ``visibility`` per column):
its own side in full; the opponent's CG Roster only through the form's public columns and no RG Purchase Record
until CG end; everything once the CG has ended. Events: Event.visible_to (SIDE / CG_END open to both at CG end)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from rules_engine.event_sight import HIDING_KEY, Sight, sight
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import FormColumn, System
from rules_engine.state import CampaignState
from rules_engine.view import public_roster_fields
from rules_engine.vocabulary import SideId, Visibility

SUPPLIED_KINDS = frozenset({"supplied", "value-supplied"})  # a player typed a value in (step facts, a lost cell)
RECORDS_HIDDEN_BY = {EventKind.BOARD_ROLL_REVEALED: EventKind.ROLL}
"""The dice log shows a secret roll at the board revealed early as a roll, unless the viewer sees the roll itself (the
roller; both sides at CG end): whoever sees one of a side's secret rolls of a CG Date sees them all."""


def sides_of(system: System, side: SideId) -> tuple[SideId, SideId]:
    """(the viewer's side, the opponent), in that order."""
    return side, system.other_side(side).id


def opponent_roster_fields(system: System, state: CampaignState) -> frozenset[str] | None:
    """The RosterLine fields a side sees of the opponent's CG Roster: the form's public columns (and ``date_id``)
    before CG end; None (every field) after."""
    return None if state.ended else public_roster_fields(system)


def visible_roster_line(line: Mapping[str, JSON], own: bool, fields: frozenset[str] | None) -> dict[str, JSON]:
    """A CG Roster line as the viewer may see it: own lines whole, the opponent's with ``fields`` only."""
    if own or fields is None:
        return dict(line)
    return {key: value for key, value in line.items() if key in fields}


def visible_columns(columns: Iterable[FormColumn], own: bool, ended: bool) -> tuple[list[FormColumn], list[str]]:
    """(columns shown, labels hidden) of a side's form: all of its own, all after CG end, else the public ones."""
    shown: list[FormColumn] = []
    hidden: list[str] = []
    for column in columns:
        if own or ended or column.visibility is Visibility.PUBLIC:
            shown.append(column)
        else:
            hidden.append(column.label)
    return shown, hidden


def purchase_sides(system: System, state: CampaignState, side: SideId) -> tuple[SideId, ...]:
    """The sides whose RG Purchase Record the viewer may see: its own; both after CG end."""
    own, other = sides_of(system, side)
    return (own, other) if state.ended else (own,)


def sees_books(state: CampaignState, side: SideId, of_side: SideId) -> bool:
    """Whether ``side`` may see ``of_side``'s points, fortifications and purchases (its own; all after CG end)."""
    return side == of_side or state.ended


def visible_events(events: Iterable[Event], side: SideId, ended: bool) -> list[Event]:
    """The events ``side`` may see (the dice log's and the supplied values' filter; RECORDS_HIDDEN_BY applied)."""
    seen = [event for event in events if event.visible_to(side, ended)]
    shown = {(event.kind, event.side, event.payload.get(HIDING_KEY)) for event in seen}
    return [event for event in seen if not (event.kind in RECORDS_HIDDEN_BY and (
        RECORDS_HIDDEN_BY[event.kind], event.side, event.payload.get(HIDING_KEY)) in shown)]


def supplied_events(events: Sequence[Event], side: SideId, ended: bool) -> list[Event]:
    """The visible events recording a value a player typed in."""
    return [event for event in visible_events(events, side, ended) if event.kind in SUPPLIED_KINDS]


def records_sight(side: SideId, ended: bool) -> Sight:
    """The dice log's filter as data a query can apply (Event.visible_to, then RECORDS_HIDDEN_BY)."""
    return replace(sight(side, ended), hidden_by=RECORDS_HIDDEN_BY)
