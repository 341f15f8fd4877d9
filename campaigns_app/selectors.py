"""Reads: seats, the campaign list, what one seat's live page shows, its history. Nothing here writes.

Everything a player sees of a campaign's state comes through its side's SideView (campaigns_app.door, rules_engine
view_for) and rules_engine.event_text; event sequence numbers and primary keys never reach a template. The reads live
in campaigns_app.campaigns.selectors (the campaign list, seats) and campaigns_app.phase (the live page); this module
keeps their names where callers import them.
"""
from __future__ import annotations

from campaigns_app.campaigns.selectors import (
    HEARTBEAT_SECONDS,
    ONLINE_WITHIN,
    CampaignRow,
    campaign_rows,
    chit_problem,
    seat_chit_problem,
    seat_for,
    seat_online,
    seeds_fixed,
    systems_for_create,
)
from campaigns_app.phase.board import OP_SIGNS
from campaigns_app.phase.context import phase_context
from campaigns_app.phase.history import HISTORY_WINDOW, history
from campaigns_app.phase.live_page import HISTORY_LATEST, PHASE_FRAGMENT_IDS, live_context, their_words
from campaigns_app.phase.orders import SETUP_MODE_LABELS
from campaigns_app.phase.results import lvp_recorders
from campaigns_app.phase.steps import KIND_LABELS, MARK_KIND, SECRET_KIND_LABELS, step_kind_label, step_label
from rules_engine.event_text import RESULT_LABELS, STEP_LABELS, result_summary

__all__ = [
    "HEARTBEAT_SECONDS", "HISTORY_LATEST", "HISTORY_WINDOW", "KIND_LABELS", "MARK_KIND", "ONLINE_WITHIN", "OP_SIGNS",
    "PHASE_FRAGMENT_IDS", "RESULT_LABELS", "SECRET_KIND_LABELS", "SETUP_MODE_LABELS", "STEP_LABELS", "CampaignRow",
    "campaign_rows", "chit_problem", "history", "live_context", "lvp_recorders", "phase_context", "result_summary",
    "seat_chit_problem", "seat_for", "seat_online", "seeds_fixed", "step_kind_label", "step_label",
    "systems_for_create", "their_words",
]
