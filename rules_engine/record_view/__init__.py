"""What a side may see of the records — CG Roster, RG Purchase Record, dice log, CG end — decided in one place
(``visibility``) and built by ``record_view_for`` into frozen data (``model``)."""
from __future__ import annotations

from rules_engine.record_view.build import record_view_for
from rules_engine.record_view.dice import dice_samples
from rules_engine.record_view.dice_pages import (
    DATE_KINDS,
    RESOLVED_KIND,
    ROLL_KIND,
    ROW_KINDS,
    DicePage,
    PagedRoll,
    dice_page,
)
from rules_engine.record_view.end import end_status
from rules_engine.record_view.model import (
    Book,
    CgEndFacts,
    Column,
    DatePlace,
    DiceLog,
    DiceRow,
    EndRecord,
    EndStatus,
    FormHeading,
    Modifier,
    PurchaseLines,
    PurchaseRecord,
    RecordPart,
    RecordSources,
    RecordTable,
    RecordView,
    RosterLines,
    RosterRecord,
    SuppliedValue,
    TotalsRow,
    VictoryRule,
)
from rules_engine.record_view.pictures import Pictures
from rules_engine.record_view.roster import reached_dates
from rules_engine.record_view.story import Story, StoryError, story_for
from rules_engine.record_view.visibility import (
    SUPPLIED_KINDS,
    opponent_roster_fields,
    purchase_sides,
    records_sight,
    visible_events,
)

__all__ = [
    "DATE_KINDS",
    "RESOLVED_KIND",
    "ROLL_KIND",
    "ROW_KINDS",
    "SUPPLIED_KINDS",
    "Book",
    "CgEndFacts",
    "Column",
    "DatePlace",
    "DicePage",
    "DiceLog",
    "DiceRow",
    "EndRecord",
    "EndStatus",
    "FormHeading",
    "Modifier",
    "PagedRoll",
    "Pictures",
    "PurchaseLines",
    "PurchaseRecord",
    "RecordPart",
    "RecordSources",
    "RecordTable",
    "RecordView",
    "RosterLines",
    "RosterRecord",
    "Story",
    "StoryError",
    "SuppliedValue",
    "TotalsRow",
    "VictoryRule",
    "dice_page",
    "dice_samples",
    "end_status",
    "opponent_roster_fields",
    "purchase_sides",
    "reached_dates",
    "record_view_for",
    "records_sight",
    "story_for",
    "visible_events",
]
