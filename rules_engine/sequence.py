"""The between-scenario phase (RR 2.5 RePh, PL 2.0/3.0 RePh, PHD C5 ConPh): the public face of ``rules_engine.phase``.

Every name the app and the tests use lives in a module of ``rules_engine.phase`` (the step program, starting, order,
facts, rolling, needs, supply, automatic handlers, pausing, the scenario flow, ``advance``, marking, owes, ending); this
module re-exports them so ``sequence.x`` keeps working.
"""
from __future__ import annotations

from rules_engine.phase.advance import advance
from rules_engine.phase.dates import end_cg, enter_idle
from rules_engine.phase.ending import (
    END_REASONS,
    assisted_roll,
    call_with_advance,
    concede,
    decline_end,
    propose_end,
    submit_chit,
    withdraw_end,
)
from rules_engine.phase.facts import facts_for, setting_value, side_settings
from rules_engine.phase.handlers import AUTO_HANDLERS, PARTS, Handler, Part, SanAdjust
from rules_engine.phase.marking import (
    ORDER_TYPES,
    board_run,
    mark_done,
    mark_run_done,
    submit_order,
    submit_recon,
    validate_mark_done,
)
from rules_engine.phase.needs import (
    TABLE_HANDLERS,
    TRACK_NEEDS,
    TRACK_RANGES,
    TRACKS,
    needs,
    public_needs,
    roll_questions_for,
)
from rules_engine.phase.order import (
    InitialRoles,
    choose_resolution_order,
    initial_roles,
    order_chooser,
    resolve_order,
    waiting_for,
)
from rules_engine.phase.owes import checklist, owes
from rules_engine.phase.pausing import Work
from rules_engine.phase.program import (
    ASSISTED,
    AUTOMATIC,
    INITIAL_MARK,
    INPUT,
    MARKS,
    NEW,
    NEW_DATE,
    ON_BOARD,
    PART_WORDS,
    POST,
    RESULTS_MARK,
    SCENARIO_MARK,
    Events,
    Layout,
    current_kind,
    current_program,
    current_step,
    layout,
    move_on,
    program,
    settle,
    settled,
    step_kind,
)
from rules_engine.phase.rolling import Resolution, roll_on, table_column
from rules_engine.phase.start import start
from rules_engine.phase.supply import supply
from rules_engine.phase.tracks import ROSTER_TRACKS, fold_san, main_currency, roster_update
from rules_engine.step_kinds import INITIATIVE_ACTIONS

__all__ = [
    "ASSISTED", "AUTOMATIC", "AUTO_HANDLERS", "END_REASONS", "Events", "Handler", "INITIAL_MARK",
    "INITIATIVE_ACTIONS", "INPUT", "InitialRoles", "Layout", "MARKS", "NEW", "NEW_DATE", "ON_BOARD", "ORDER_TYPES",
    "PARTS", "PART_WORDS", "POST", "Part", "RESULTS_MARK", "ROSTER_TRACKS", "Resolution", "SCENARIO_MARK",
    "SanAdjust", "TABLE_HANDLERS", "TRACKS", "TRACK_NEEDS", "TRACK_RANGES", "Work", "advance",
    "assisted_roll", "board_run", "call_with_advance", "checklist", "choose_resolution_order", "concede",
    "current_kind", "current_program", "current_step", "decline_end", "end_cg", "enter_idle", "facts_for", "fold_san",
    "initial_roles", "layout", "main_currency", "mark_done", "mark_run_done", "move_on", "needs", "order_chooser",
    "owes", "program", "propose_end", "public_needs", "resolve_order", "roll_on", "roll_questions_for",
    "roster_update", "setting_value", "settle", "settled", "side_settings", "start", "step_kind", "submit_chit",
    "submit_order", "submit_recon", "supply", "table_column", "validate_mark_done", "waiting_for", "withdraw_end",
]
