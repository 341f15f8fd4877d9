"""Campaign state, dice and events for the web app: stored JSON in and out, the committed dice, the event log's
visibility (rules_engine Event.visible_to decides)."""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Mapping

from campaigns_app.models import Campaign, EventRecord
from rules_engine import dice as engine_dice
from rules_engine import initiative, map_groups, sequence, view
from rules_engine import state as engine_state
from rules_engine.dice import CommittedDice, Dice, Roll
from rules_engine.errors import RulesError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import MapGroup, System
from rules_engine.state import CampaignState
from rules_engine.vocabulary import DiceKind, SideId, Visibility

StateJson = dict[str, JSON]
Outcome = tuple[CampaignState, tuple[Event, ...]]


def new_state(system: System) -> StateJson:
    """A campaign at its first step, as stored JSON (rules_engine.state.new_campaign)."""
    return dict(engine_state.new_campaign(system).to_json())


class _Parsed(threading.local):
    """The states this thread last parsed or stored, with the very JSON objects they came from or went to."""

    def __init__(self) -> None:
        self.pairs: deque[tuple[Mapping[str, JSON], CampaignState]] = deque(maxlen=4)


_parsed = _Parsed()


def load_state(data: Mapping[str, JSON]) -> CampaignState:
    """The CampaignState of stored JSON (the same JSON object this thread parsed or stored last: not parsed again —
    a write's publishing reads both seats' views of the state it just stored)."""
    for json, state in _parsed.pairs:
        if json is data:
            return state
    state = CampaignState.from_json(dict(data))
    _parsed.pairs.append((data, state))
    return state


def stored_json(state: CampaignState) -> StateJson:
    """The state as stored JSON, remembered with it (``load_state`` of that very object gives the state back)."""
    data = dict(state.to_json())
    _parsed.pairs.append((data, state))
    return data


def waiting(state: CampaignState) -> bool:
    """Whether the campaign is at the waiting step (created, its phase not started: ``sequence.start`` starts it)."""
    return state.step == engine_state.WAITING


def owes(system: System, state: CampaignState, side: SideId) -> tuple[str, ...]:
    """What ``side`` must do before the campaign can go on."""
    return tuple(sequence.owes(system, state, side))


def can_mark_done(system: System, state: CampaignState, side: SideId) -> bool:
    """Whether ``side`` may mark the current step finished now."""
    try:
        sequence.validate_mark_done(system, state, side)
    except RulesError:
        return False
    return True


def validate_chit(system: System, state: CampaignState, side: SideId, chit: str) -> None:
    """RR 2.522: SubmissionError unless ``side`` may seal ``chit`` now."""
    initiative.validate_chit(system, state, side, chit)


def view_for(system: System, state: CampaignState, side: SideId) -> dict[str, JSON]:
    """rules_engine.view.view_json: what ``side`` may see of the state, as JSON (the rules CLI and tests)."""
    return dict(view.view_json(system, state, side))


def cg_ended(state: CampaignState) -> bool:
    """Whether the CG is over (then SIDE / CG_END events open to both sides)."""
    return bool(state.ended)


def map_groups_in_play(system: System, state: CampaignState) -> tuple[MapGroup, ...]:
    """KGP 8.2: the Map Groups with a CG scenario on the current date (empty for a system without Map Groups)."""
    return map_groups.in_play(system, state)


# ------------------------------------------------------------------------------------------------------------ dice


def new_seed() -> bytes:
    """A fresh secret campaign seed."""
    return engine_dice.new_seed()


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed (SHA-256 hex)."""
    return engine_dice.seed_commitment(seed)


def committed_dice(campaign: Campaign, player_seeds: tuple[str, str]) -> CommittedDice:
    """The campaign's server-side dice, continuing its persisted counters."""
    return CommittedDice(bytes.fromhex(campaign.dice_seed), campaign.public_id, player_seeds,
                         dict(campaign.dice_counters or {}))


class DiceNotReady(RulesError):
    """A roll was asked for before both player seeds exist (the phase then starts when the second player joins)."""


class NoDice:
    """Dice for starting a campaign before the opponent has joined: any roll defers the start."""

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = engine_dice.PUBLIC_STREAM) -> Roll:
        """Never a roll: DiceNotReady."""
        raise DiceNotReady("the phase rolls dice before both players have joined")


def start_state(system: System, dice: Dice | None = None) -> tuple[StateJson, tuple[Event, ...]] | None:
    """``sequence.start`` as stored JSON and events; None when the start rolls dice and ``dice`` is not given yet."""
    try:
        state, events = sequence.start(system, dice if dice is not None else NoDice())
    except DiceNotReady:
        return None
    return dict(state.to_json()), tuple(events)


# ---------------------------------------------------------------------------------------------------------- events


def app_event(kind: EventKind, **payload: JSON) -> Event:
    """A public event the web app itself records (campaign created, player joined)."""
    return Event(kind, Visibility.PUBLIC, None, payload)


def event_of(record: EventRecord) -> Event:
    """The rules_engine Event a stored record holds."""
    return Event(EventKind(record.kind), Visibility(record.visibility), record.side or None, record.payload)


def visible_records(records: Iterable[EventRecord], viewer: SideId, ended: bool) -> list[EventRecord]:
    """The records ``viewer`` may see (rules_engine Event.visible_to decides)."""
    return [record for record in records if event_of(record).visible_to(viewer, ended)]
