"""The records' door: a campaign's system and state loaded (campaigns_app.engine), the stored record lines and event
log read as far as rules_engine.record_view allows, and a side's ``RecordView`` built from them. The record
selectors, views and exports see only what comes out of here, never a CampaignState."""
from __future__ import annotations

from collections.abc import Collection

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.records import projection as records
from rules_engine.dice import EXPORT_FORMAT, PUBLIC_STREAM, Verification, verify_export
from rules_engine.event_words import cg_ended_text
from rules_engine.events import Event
from rules_engine.record_view import (
    DiceRow,
    EndStatus,
    RecordPart,
    RecordSources,
    RecordTable,
    RecordView,
    end_status,
    opponent_roster_fields,
    purchase_sides,
    record_view_for,
)
from rules_engine.state import CampaignState

# the record types and dice-export names the record selectors, views and exports use (only this door imports them)
__all__ = [
    "ALL_PARTS",
    "EXPORT_FORMAT",
    "PUBLIC_STREAM",
    "DiceRow",
    "RecordPart",
    "RecordTable",
    "RecordView",
    "Verification",
    "campaign_end_status",
    "cg_ended_text",
    "ended",
    "events",
    "record_view",
    "side_ids",
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

