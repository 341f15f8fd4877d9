"""The one place campaigns_app talks to rules_engine: parsed systems (cached), state, dice and events.

Everything the web app needs from the engine goes through here, so an engine API change touches one file.
"""
from __future__ import annotations

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


def side_name(system: Any, side_id: str) -> str:
    for side in system.sides:
        if side.id == side_id:
            return str(side.name)
    return side_id


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
    from rules_engine.view import view_for as view

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
