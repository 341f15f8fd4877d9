"""``record_view_for``: the one place a side's view of the records is built (its parts from their sources)."""
from __future__ import annotations

from rules_engine.event_words import side_name
from rules_engine.model import System
from rules_engine.record_view.dice import dice_log
from rules_engine.record_view.end import end_record
from rules_engine.record_view.model import (
    DatePlace,
    RecordPart,
    RecordSources,
    RecordView,
)
from rules_engine.record_view.purchases import purchase_record
from rules_engine.record_view.roster import roster_record
from rules_engine.record_view.visibility import sides_of
from rules_engine.state import WAITING, CampaignState
from rules_engine.vocabulary import SideId


def record_view_for(system: System, state: CampaignState, side: SideId,
                    sources: RecordSources | None = None) -> RecordView:
    """What ``side`` may see of the records: its own in full, the opponent's only through the record forms' public
    columns until CG end, everything after. Only the parts named in ``sources.parts`` are built."""
    sources = sources if sources is not None else RecordSources()
    _, other = sides_of(system, side)
    parts = sources.parts
    return RecordView(
        side=side,
        side_name=side_name(system, side),
        opponent=other,
        opponent_name=side_name(system, other),
        ended=state.ended,
        started=state.step != WAITING,
        date=DatePlace(state.date_index, state.date_id, len(system.calendar)),
        roster=roster_record(system, state, side, sources.roster_lines) if RecordPart.ROSTER in parts else None,
        purchases=purchase_record(system, state, side, sources.purchase_lines) if RecordPart.PURCHASES in parts else None,
        dice=dice_log(system, sources.events, side, state.ended) if RecordPart.DICE in parts else None,
        end=end_record(system, state, side, sources.events) if RecordPart.END in parts else None,
    )
