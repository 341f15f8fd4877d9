"""The one place campaigns_app talks to rules_engine: parsed systems (cached), state, dice and events.

Everything the web app needs from the engine goes through here, so an engine API change touches one file.
"""
from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rules_engine import dice as engine_dice
from rules_engine.errors import RulesError
from rules_engine.events import Event
from rules_engine.vocabulary import Chit, Visibility

if TYPE_CHECKING:
    from campaigns_app.models import Campaign, CgSystem, EventRecord

_systems: dict[tuple[str, str], Any] = {}
_systems_lock = threading.Lock()


def parse_system(text: str, filename: str) -> Any:
    """rules_engine.loader.parse_system (imported late: the loader may be written after this module)."""
    from rules_engine.loader import parse_system as parse

    return parse(text, filename)


def system_of(cg_system: CgSystem) -> Any:
    """The parsed System of a stored definition, cached by (id, sha256)."""
    key = (cg_system.id, cg_system.sha256)
    found = _systems.get(key)
    if found is None:
        found = parse_system(cg_system.definition, f"{cg_system.id}.yaml")
        with _systems_lock:
            _systems[key] = found
    return found


def side_ids(system: Any) -> list[str]:
    """The two side ids in the system's order (the order of the player seeds too)."""
    return [side.id for side in system.sides]


def objective_hex_ref(system: Any) -> str | None:
    """KGP 8.2: the Objective Hex rule that asks the results for each side's Controlled Objective Hexes (or None)."""
    from rules_engine.victory import objective_hex_ref as ref

    return ref(system)


def side_name(system: Any, side_id: str) -> str:
    """A side as the pages name it: "German", "Canadian"; a side named "… Side" (PL 2.5 "Axis Side") loses the word,
    since the pages say "the Axis side" (never "the Axis Side side")."""
    for side in system.sides:
        if side.id == side_id:
            return str(side.short_name)
    return side_id


def date_name(system: Any, date_id: str) -> str:
    """A CG Date / Firefight / TM Scenario as players name it: the calendar's name ("Firefight 2: Hill 97"), else its id."""
    try:
        entry = system.calendar_entry(date_id)
    except Exception:  # a date met only in the history (no calendar): its id is all there is
        return str(date_id)
    name = getattr(entry, "name", None)
    if not name or name == date_id:
        return str(date_id)
    return str(name) if str(date_id) in str(name) else f"{date_id} ({name})"


def other_side(system: Any, side_id: str) -> str:
    first, second = side_ids(system)
    return second if side_id == first else first


def new_state(system: Any) -> dict[str, Any]:
    from rules_engine.state import new_campaign

    return dict(new_campaign(system).to_json())


def load_state(data: Mapping[str, Any]) -> Any:
    from rules_engine.state import CampaignState

    return CampaignState.from_json(dict(data))


def mark_step_done(system: Any, state: Any, side: str) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine.state import mark_step_done as mark

    return mark(system, state, side)


def owes(system: Any, state: Any, side: str) -> tuple[str, ...]:
    from rules_engine.state import owes as owes_

    return tuple(owes_(system, state, side))


def validate_chit(system: Any, state: Any, side: str, chit: Chit) -> None:
    from rules_engine.initiative import validate_chit as validate

    validate(system, state, side, chit)


def submit_chit(system: Any, state: Any, side: str, chit: Chit, dice: Any) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine.initiative import submit_chit as submit

    return submit(system, state, side, chit, dice)


def can_mark_done(system: Any, state: Any, side: str) -> bool:
    """Whether ``side`` may mark the current on-board step finished now."""
    from rules_engine.state import validate_step_done

    try:
        validate_step_done(system, state, side)
    except RulesError:
        return False
    return True


def move_order_roller(system: Any) -> str | None:
    """The side that makes the Dual Attack move-order roll (RR 2.525), if the system has one."""
    initiative = getattr(system, "initiative", None)
    move = getattr(initiative, "dual_attack_move", None) if initiative is not None else None
    return str(move.roller) if move is not None else None


def move_order_due(system: Any, state: Any, side: str) -> bool:
    """Whether ``side`` is to make the Dual Attack move-order roll now."""
    from rules_engine.initiative import validate_move_order

    if move_order_roller(system) != side:
        return False
    try:
        validate_move_order(system, state)
    except RulesError:
        return False
    return True


def validate_move_order(system: Any, state: Any) -> None:
    from rules_engine.initiative import validate_move_order as validate

    validate(system, state)


def roll_move_order(system: Any, state: Any, dice: Any) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine.initiative import roll_move_order as roll

    return roll(system, state, dice)


def view_for(system: Any, state: Any, side: str) -> dict[str, Any]:
    from rules_engine.view import view_json as view

    return dict(view(system, state, side))


def cg_ended(state: Any) -> bool:
    """Whether the CG is over (then SIDE / CG_END events open to both sides)."""
    for name in ("cg_ended", "ended", "is_over"):
        value = getattr(state, name, None)
        if value is not None:
            return bool(value() if callable(value) else value)
    return False


def new_seed() -> bytes:
    return engine_dice.new_seed()


def seed_commitment(seed: bytes) -> str:
    return engine_dice.seed_commitment(seed)


def committed_dice(campaign: Campaign, player_seeds: tuple[str, str]) -> engine_dice.CommittedDice:
    """The campaign's server-side dice, continuing its persisted counters."""
    return engine_dice.CommittedDice(
        bytes.fromhex(campaign.dice_seed), campaign.public_id, player_seeds, dict(campaign.dice_counters or {})
    )


def app_event(kind: str, **payload: Any) -> Event:
    """A public event the web app itself records (campaign created, player joined)."""
    return Event(kind, Visibility.PUBLIC, None, payload)


def event_of(record: EventRecord) -> Event:
    return Event(record.kind, Visibility(record.visibility), record.side or None, record.payload)


def visible_records(records: Iterable[EventRecord], viewer: str, ended: bool) -> list[EventRecord]:
    """The records ``viewer`` may see (rules_engine Event.visible_to decides)."""
    return [record for record in records if event_of(record).visible_to(viewer, ended)]


# ------------------------------------------------------------------------------------------- the between-scenario phase


def system_for(campaign: Campaign) -> Any:
    """The campaign's System: its base system with the CG Card copied into the campaign at creation (if any), the
    players' choices made at creation (``source: players`` settings) over it, and the lost values typed at creation
    filled in for both sides (``lost_values.with_cells``), cached by all of them."""
    return with_values(_chosen_system_for(campaign), dict(campaign.supplied_values or {}))


def _chosen_system_for(campaign: Campaign) -> Any:
    choices = campaign.player_settings or {}
    if not choices:
        return card_system_for(campaign)
    words = json.dumps(choices, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    key = (campaign.system_id, f"{campaign.system.sha256}+{campaign.card_sha256}+players:{words}")
    found = _systems.get(key)
    if found is None:
        found = with_player_settings(card_system_for(campaign), choices)
        with _systems_lock:
            _systems[key] = found
    return found


def needed_values(system: Any) -> tuple[Any, ...]:
    """rules_engine.lost_values.needed_values: every value lost in the rule text a campaign of ``system`` could need."""
    from rules_engine.lost_values import needed_values as needed

    return needed(system)


def settle_values(system: Any, raw: Mapping[str, object]) -> dict[str, Any]:
    """rules_engine.lost_values.settle: the typed lost values checked (SubmissionError, one line per problem)."""
    from rules_engine.lost_values import settle

    return settle(system, raw)


def with_values(system: Any, values: Mapping[str, Any]) -> Any:
    """rules_engine.lost_values.with_cells: the system with settled lost values filled in."""
    from rules_engine.lost_values import SETTLED_NOTE, with_cells

    return with_cells(system, dict(values), SETTLED_NOTE)


def card_system_for(campaign: Campaign) -> Any:
    """The campaign's base system with its copied CG Card (if any), without the players' choices."""
    if campaign.card_sha256:
        return system_with_card(campaign.system, campaign.card_text, campaign.card_sha256)
    return system_of(campaign.system)


def with_player_settings(system: Any, values: Mapping[str, Any], complete: bool = False) -> Any:
    """rules_engine.loader.with_player_settings: the players' choices applied over the card (DefinitionErrors)."""
    from rules_engine.loader import with_player_settings as apply

    return apply(system, values, complete=complete)


def system_with_card(cg_system: CgSystem, card_text: str, card_sha256: str, filename: str = "card.yaml") -> Any:
    """rules_engine.loader.parse_card of a card on its base system, cached by (system sha256, card sha256)."""
    from rules_engine.loader import parse_card

    key = (cg_system.id, f"{cg_system.sha256}+{card_sha256}")
    found = _systems.get(key)
    if found is None:
        found = parse_card(card_text, filename, system_of(cg_system))
        with _systems_lock:
            _systems[key] = found
    return found


class DiceNotReady(RulesError):
    """A roll was asked for before both player seeds exist (the phase then starts when the second player joins)."""


class _NoDice:
    """Dice for starting a campaign before the opponent has joined: any roll defers the start."""

    def roll(self, *args: Any, **kwargs: Any) -> Any:
        raise DiceNotReady("the phase rolls dice before both players have joined")


def start_state(system: Any, dice: Any | None = None) -> tuple[dict[str, Any], tuple[Event, ...]] | None:
    """``sequence.start`` as stored JSON and events; None when the start rolls dice and ``dice`` is not given yet."""
    from rules_engine import sequence

    try:
        state, events = sequence.start(system, dice if dice is not None else _NoDice())
    except DiceNotReady:
        return None
    return dict(state.to_json()), tuple(events)


def is_phased(data: Mapping[str, Any]) -> bool:
    return bool(data.get("phased"))


def advance(system: Any, state: Any, dice: Any) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.advance(system, state, dice)


def phase_mark_done(system: Any, state: Any, side: str, map_group: str | None = None, run: bool = False
                    ) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    if run:
        return sequence.mark_run_done(system, state, side)
    return sequence.mark_done(system, state, side, map_group)


def phase_submit_order(system: Any, state: Any, side: str, orders: list[Any]) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.submit_order(system, state, side, orders)


def phase_repair_roll(system: Any, state: Any, side: str, threshold: str, drm: int, purpose: str, dice: Any
                      ) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import board, sequence

    return board.repair_roll(system, state, side, sequence.current_step(system, state), threshold, drm, purpose, dice)


def phase_choose_order(system: Any, state: Any, side: str, first: str) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.choose_resolution_order(system, state, side, first)


def phase_submit_recon(system: Any, state: Any, side: str, extra: int | None, dice: Any) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.submit_recon(system, state, side, extra, dice)


def phase_assisted_roll(
    system: Any, state: Any, side: str, step_ref: str, table_id: str, column: str | None,
    answers: Mapping[int, int | bool], dice: Any, purpose: str = "",
) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.assisted_roll(system, state, side, step_ref, table_id, column, answers, dice, purpose)


def board_roll(
    system: Any, state: Any, side: str, at: str, kind: str, count: int, purpose: str, dice: Any,
    map_group: str | None = None,
) -> tuple[Any, tuple[Event, ...]]:
    """Public rolls at the board on request (rules_engine.board: RR 2.504, the scenario — with Map Groups in play,
    KGP 8.2, the scenario on ``map_group``)."""
    from rules_engine import board

    return board.board_roll(system, state, side, at, kind, count, purpose, dice, map_group)


def declare(system: Any, state: Any, side: str, rule_id: str, map_group: str | None = None
            ) -> tuple[Any, tuple[Event, ...]]:
    """A declaration made at the board during the scenario (KGP CG14 German Fanaticism), counted and public."""
    from rules_engine import declarations

    return declarations.declare(system, state, side, rule_id, map_group)


def scenario_roll(
    system: Any, state: Any, side: str, roll_id: str, threshold: Any, turn: Any, answers: Mapping[int, int | bool],
    dice: Any, map_group: str | None = None,
) -> tuple[Any, tuple[Event, ...]]:
    """One of the scenario's own public rolls (PL CG2 / KGP CG23 Game End dr … — KGP: per Map Group's scenario)."""
    from rules_engine import board

    return board.scenario_roll(system, state, side, roll_id, threshold=threshold, turn=turn, answers=answers,
                               dice=dice, map_group=map_group)


def phase_submit_results(system: Any, state: Any, side: str, entry: Mapping[str, Any],
                         map_group: str | None = None) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import results

    return results.submit_results(system, state, side, results.result_from_json(entry), map_group)


def map_groups_in_play(system: Any, state: Any) -> tuple[Any, ...]:
    """KGP 8.2: the Map Groups with a CG scenario on the current date (empty for a system without Map Groups)."""
    from rules_engine.map_groups import in_play

    return in_play(system, state)


def phase_submit_chit(system: Any, state: Any, side: str, chit: Chit, dice: Any) -> tuple[Any, tuple[Event, ...]]:
    from rules_engine import sequence

    return sequence.submit_chit(system, state, side, chit, dice)


def cg_end_action(action: str, system: Any, state: Any, side: str, reason: str | None = None) -> tuple[Any, tuple[Event, ...]]:
    """propose | withdraw | decline | concede (PL 1.3 mutual agreement or CG objectives met, concession)."""
    from rules_engine import sequence

    if action == "propose":
        return sequence.propose_end(system, state, side, reason or "mutual-agreement")
    handler = {"withdraw": sequence.withdraw_end, "decline": sequence.decline_end, "concede": sequence.concede}[action]
    return handler(system, state, side)


# Needs: what a side must supply before the current step can go on (a DRM fact, its SAN/ELR/LVP, a value lost in the
# rule text). rules_engine.sequence.needs returns names (str) or Need objects; both are normalised to dicts here.

TRACK_LABELS = {
    "san": ("Your current SAN", "Sniper Activation Number, as on your CG Roster."),
    "elr": ("Your current ELR", "Experience Level Rating, as on your CG Roster."),
    "lvp": ("Your Current-LVP Total", "Location Victory Points you control now (CG Roster, LVP column, upper half)."),
}


def _need_dict(need: Any) -> dict[str, Any]:
    """A Need (rules_engine.lost_values.Need, or a bare name from an older engine) as the need form renders it."""
    if isinstance(need, str):
        need_id, kind, shape, text = need, ("track" if need in TRACK_LABELS else "fact"), "number", ""
        data: dict[str, Any] = {"table": None, "row": None, "column": None, "final": None, "examples": []}
    else:
        need_id, kind, shape, text = str(need.id), str(need.kind), str(need.shape), str(need.text)
        data = {name: getattr(need, name, None) for name in ("table", "table_ref", "table_name", "final", "row",
                                                             "column", "column_label", "step", "public", "low",
                                                             "high")}
        data["examples"] = list(getattr(need, "examples", ()) or ())
    label, help_text = TRACK_LABELS.get(need_id, ("", "")) if kind == "track" else ("", "")
    if kind == "table-value":
        label = f"{data.get('table_name')} ({data.get('table_ref')}): the value for final {data.get('final')}"
        if data.get("column_label"):
            label += f", column {data['column_label']}"
        help_text = text[:1].upper() + text[1:] + "."
    elif kind == "fact":
        label = text[:1].upper() + text[1:]  # the table's own words for the DRM (never the internal key)
        help_text = ""
    elif kind == "questions":  # issue 14 item 7: the DRM ticks of this side's own secret rolls
        label = "Questions for your secret rolls"
        help_text = text[:1].upper() + text[1:] + "."
    inputs = {"number": "number", "yes-no": "fact", "questions": "questions"}
    return {"id": need_id, "kind": kind, "shape": shape, "label": label or need_id, "text": help_text,
            "input": inputs.get(shape, "text"), **data}


def needs(system: Any, state: Any, side: str) -> list[dict[str, Any]]:
    from rules_engine import sequence

    try:
        found = sequence.needs(system, state, side)
    except RulesError:
        return []
    return [_need_dict(need) for need in found]


def opponent_needs(system: Any, state: Any, side: str) -> list[dict[str, Any]]:
    """The opponent's needs ``side`` may see (a value lost in the text that a public roll fell on)."""
    from rules_engine import sequence

    public = getattr(sequence, "public_needs", None)
    if public is None:
        return []
    try:
        return [_need_dict(need) for need in public(system, state, side)]
    except RulesError:
        return []


def supply(system: Any, state: Any, side: str, need_id: str, value: Any, dice: Any = None) -> tuple[Any, tuple[Event, ...]]:
    """``sequence.supply``: one need id and its value (a table value as printed; SAN/ELR/LVP a whole number)."""
    import inspect

    from rules_engine import sequence

    if "dice" in inspect.signature(sequence.supply).parameters:
        return sequence.supply(system, state, side, need_id, value, dice=dice)  # type: ignore[call-arg]
    return sequence.supply(system, state, side, {need_id: value})  # type: ignore[arg-type]


def build_orders(items: Iterable[Mapping[str, Any]]) -> list[Any]:
    """Engine order objects from plain data (what the order forms post and scripted tests pass):
    ``{"type": "rg", "rg_id", "setup_mode", "pre_registered", "extra", "setup_area"}``, ``{"type": "fort", "fort_type",
    "quantity", "capacity", "unit", "ca_drm", "nca_drm", "base_cost"}``, ``{"type": "attack-option"}``,
    ``{"type": "patrol", "count"}``, ``{"type": "points", "currency", "amount"}``."""
    from rules_engine.purchases import AttackOptionOrder, FortOrder, PatrolOrder, PointsOrder, RgOrder

    orders: list[Any] = []
    for item in items:
        kind = item.get("type")
        if kind == "rg":
            orders.append(RgOrder(str(item["rg_id"]), str(item.get("setup_mode") or "entry"),
                                  int(item.get("pre_registered") or 0), int(item.get("extra") or 0),
                                  item.get("setup_area") or None, item.get("objective_hex") or None))
        elif kind == "fort":
            orders.append(FortOrder(str(item["fort_type"]), int(item.get("quantity") or 1),
                                    *(item.get(name) for name in ("capacity", "unit", "ca_drm", "nca_drm", "base_cost"))))
        elif kind == "attack-option":
            orders.append(AttackOptionOrder())
        elif kind == "patrol":
            orders.append(PatrolOrder(int(item.get("count") or 1)))
        elif kind == "points":
            orders.append(PointsOrder(str(item["currency"]), int(item.get("amount") or 0)))
        else:
            raise RulesError(f"Unknown order type {kind!r} (allowed: rg, fort, attack-option, patrol, points)")
    return orders
