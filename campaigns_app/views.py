"""Thin views: parse the request, call a service or selector, render. They live in campaigns_app.campaigns.views (the
campaigns, the live page, chits) and campaigns_app.phase.views / .order_views (the between-scenario phase); this module
keeps their names where callers import them.

Every campaign URL answers 404 — never 403, never a login redirect — to anyone without a seat there (anonymous
visitors included), so a URL never confirms that a campaign exists.
"""
from __future__ import annotations

from campaigns_app.campaigns.views import (
    DEFAULT_SYSTEM,
    campaign_create,
    campaign_detail,
    campaign_fragments,
    campaign_history,
    campaign_invite,
    campaign_join,
    campaign_list,
    chit_confirm,
    chit_submit,
    home,
    seed_set,
    signup,
    step_done,
)
from campaigns_app.phase.order_views import (
    ORDER_FIELDS,
    POINTS_MAX,
    order_submit,
    recon_submit,
    repair_roll_submit,
    resolution_order_submit,
)
from campaigns_app.phase.views import (
    REPLAYED,
    STEP_ALREADY_FINISHED,
    VALUE_TEXT_MAX,
    board_roll_submit,
    cg_end,
    declare_submit,
    losses_submit,
    phase_done,
    recon_declare,
    results_submit,
    roll_submit,
    scenario_roll_submit,
    supply_submit,
)
from campaigns_app.web import NOT_FOUND, SeatView, seated

__all__ = [
    "DEFAULT_SYSTEM", "NOT_FOUND", "ORDER_FIELDS", "POINTS_MAX", "REPLAYED", "STEP_ALREADY_FINISHED", "VALUE_TEXT_MAX",
    "SeatView", "board_roll_submit", "campaign_create", "campaign_detail", "campaign_fragments", "campaign_history",
    "campaign_invite", "campaign_join", "campaign_list", "cg_end", "chit_confirm", "chit_submit", "declare_submit",
    "home", "losses_submit", "order_submit", "phase_done", "recon_declare", "recon_submit",
    "repair_roll_submit", "resolution_order_submit", "results_submit", "roll_submit", "scenario_roll_submit", "seated",
    "seed_set", "signup", "step_done", "supply_submit",
]
