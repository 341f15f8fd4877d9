"""The one place campaigns_app talks to rules_engine: parsed systems (cached), state, dice, events and actions.

Everything the web app needs from the engine goes through here, so an engine API change touches one package:
``systems`` (definitions, a campaign's System, names), ``states`` (stored state, dice, events), ``actions`` (what a
seat does: new state and events), ``needs`` (what a side must supply), ``orders`` (order forms' data to orders).
"""
from __future__ import annotations

from campaigns_app.engine.actions import (
    EndAction,
    NothingToDeclare,
    advance,
    board_roll,
    cg_end_action,
    declare,
    phase_assisted_roll,
    phase_choose_order,
    phase_mark_done,
    phase_repair_roll,
    phase_submit_chit,
    phase_submit_order,
    phase_submit_recon,
    phase_submit_results,
    recon_declare,
    record_losses,
    scenario_roll,
    supply,
    violations_of,
)
from campaigns_app.engine.needs import TRACK_LABELS, NeedRow, need_row, needs, opponent_needs
from campaigns_app.engine.orders import OrderData, build_order, build_orders
from campaigns_app.engine.states import (
    DiceNotReady,
    NoDice,
    Outcome,
    StateJson,
    app_event,
    can_mark_done,
    cg_ended,
    committed_dice,
    event_of,
    load_state,
    map_groups_in_play,
    new_seed,
    new_state,
    owes,
    seed_commitment,
    start_state,
    stored_json,
    validate_chit,
    view_for,
    visible_records,
    waiting,
)
from campaigns_app.engine.systems import (
    card_system_for,
    definition_kind,
    needed_values,
    objective_hex_ref,
    other_side,
    parse_card,
    parse_system,
    settle_values,
    side_ids,
    system_for,
    system_of,
    system_with_card,
    value_problems,
    with_player_settings,
    with_values,
)
from rules_engine.dice import CommittedDice, Dice
from rules_engine.errors import DefinitionErrors, RulesError
from rules_engine.event_words import date_name, side_name
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import System
from rules_engine.purchases import Order
from rules_engine.state import CampaignState
from rules_engine.vocabulary import Chit, SideId, Visibility

__all__ = [
    "JSON", "TRACK_LABELS", "CampaignState", "Chit", "CommittedDice", "DefinitionErrors", "Dice", "DiceNotReady",
    "EndAction", "Event", "EventKind", "NeedRow", "NoDice", "NothingToDeclare", "Order", "OrderData", "Outcome", "RulesError",
    "SideId", "StateJson", "System", "Visibility", "advance", "app_event", "board_roll", "build_order",
    "build_orders", "can_mark_done", "card_system_for", "cg_end_action", "cg_ended", "committed_dice", "date_name",
    "declare", "definition_kind", "event_of", "waiting", "load_state", "map_groups_in_play",
    "need_row", "needed_values", "needs", "new_seed", "new_state",
    "objective_hex_ref", "opponent_needs", "other_side", "owes", "parse_card", "parse_system", "phase_assisted_roll",
    "phase_choose_order", "phase_mark_done", "phase_repair_roll", "phase_submit_chit", "phase_submit_order",
    "phase_submit_recon", "phase_submit_results", "recon_declare", "record_losses", "scenario_roll", "seed_commitment", "settle_values", "side_ids", "side_name", "start_state", "stored_json",
    "supply", "system_for", "system_of", "system_with_card", "validate_chit", "value_problems", "view_for", "violations_of", "visible_records", "with_player_settings", "with_values",
]
