"""Campaign state: the CG spine (Initial Scenario → Initiative (RR 2.522) → scenario → … → CG end) as frozen data.

Spine (issue 4 will insert the full between-scenario phase): the first calendar entry is the Initial Scenario's date
("initial-scenario", on the board; both sides mark it finished); then the *next* date's initiative step (chit systems) or
its scenario; an Idle Date moves on to the next date's initiative step; after the last calendar entry the CG ends.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Protocol

from rules_engine.dice import Roll, roll_from_json, roll_to_json
from rules_engine.errors import MissingValueError, SubmissionError
from rules_engine.events import JSON, Event
from rules_engine.model import Initiative, Side
from rules_engine.vocabulary import Chit, SideId, Visibility

INITIAL_SCENARIO = "initial-scenario"
INITIATIVE = "initiative"
SCENARIO = "scenario"
ENDED = "ended"
STEPS = (INITIAL_SCENARIO, INITIATIVE, SCENARIO, ENDED)
DUAL_ATTACK = "dual-attack"
IDLE = "idle"


class CalendarEntryLike(Protocol):
    """What the spine needs of a calendar entry."""

    @property
    def id(self) -> str: ...


class SystemLike(Protocol):
    """What the spine needs of a System (``rules_engine.loader.System`` has all of it)."""

    @property
    def id(self) -> str: ...

    @property
    def sides(self) -> tuple[Side, Side]: ...

    @property
    def calendar(self) -> Sequence[CalendarEntryLike]: ...

    @property
    def initiative(self) -> Initiative | None: ...


def _frozen_map[K, V](mapping: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RevealedRound:
    """One round of Initiative chits after the simultaneous reveal (RR 2.5222) and its Dual Attack rolls."""

    date_index: int
    date_id: str
    chits: Mapping[SideId, Chit]
    result: str
    label: str
    setup_first: SideId | None = None
    moves_first: SideId | None = None
    rolls: tuple[Roll, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "chits", _frozen_map(self.chits))

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data (every part of a revealed round is public)."""
        return {
            "date_index": self.date_index,
            "date_id": self.date_id,
            "chits": {side: str(chit) for side, chit in self.chits.items()},
            "result": self.result,
            "label": self.label,
            "setup_first": self.setup_first,
            "moves_first": self.moves_first,
            "rolls": [_roll_json(roll) for roll in self.rolls],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> RevealedRound:
        """Inverse of ``to_json``."""
        chits = _mapping(data, "chits")
        rolls = data.get("rolls") or []
        if not isinstance(rolls, Sequence):
            raise ValueError("revealed round: rolls must be a list")
        return cls(
            date_index=_int(data, "date_index"),
            date_id=_str(data, "date_id"),
            chits={str(side): Chit(str(chit)) for side, chit in chits.items()},
            result=_str(data, "result"),
            label=_str(data, "label"),
            setup_first=_opt_str(data, "setup_first"),
            moves_first=_opt_str(data, "moves_first"),
            rolls=tuple(roll_from_json(_as_mapping(r, "roll")) for r in rolls),
        )


@dataclass(frozen=True)
class CampaignState:
    """Where a CG stands: date, step, who is done, Attack chits used, sealed chits, the last revealed round."""

    system_id: str
    sides: tuple[SideId, SideId]
    date_index: int
    date_id: str
    step: str
    initial: bool = False
    done: frozenset[SideId] = frozenset()
    attack_chits_used: Mapping[SideId, int] = field(default_factory=dict)
    sealed: Mapping[SideId, Chit] = field(default_factory=dict)  # the current round's chits, before the reveal
    last_round: RevealedRound | None = None
    ended: bool = False

    def __post_init__(self) -> None:
        if self.step not in STEPS:
            raise ValueError(f"Unknown step {self.step!r} (allowed: {', '.join(STEPS)})")
        object.__setattr__(self, "sides", tuple(self.sides))
        object.__setattr__(self, "done", frozenset(self.done))
        object.__setattr__(self, "attack_chits_used", _frozen_map(self.attack_chits_used))
        object.__setattr__(self, "sealed", _frozen_map(self.sealed))

    def other(self, side: SideId) -> SideId:
        """The opposing side."""
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data for storage (server-side: it contains both sealed chits; never send it to a player)."""
        return {
            "system_id": self.system_id,
            "sides": list(self.sides),
            "date_index": self.date_index,
            "date_id": self.date_id,
            "step": self.step,
            "initial": self.initial,
            "done": sorted(self.done),
            "attack_chits_used": dict(self.attack_chits_used),
            "sealed": {side: str(chit) for side, chit in self.sealed.items()},
            "last_round": self.last_round.to_json() if self.last_round else None,
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> CampaignState:
        """Inverse of ``to_json`` (ValueError naming the bad field)."""
        sides = data.get("sides")
        if not (isinstance(sides, Sequence) and not isinstance(sides, str) and len(sides) == 2):
            raise ValueError("campaign state: sides must be a list of two side ids")
        done = data.get("done") or []
        if not isinstance(done, Sequence) or isinstance(done, str):
            raise ValueError("campaign state: done must be a list of side ids")
        last = data.get("last_round")
        return cls(
            system_id=_str(data, "system_id"),
            sides=(str(sides[0]), str(sides[1])),
            date_index=_int(data, "date_index"),
            date_id=_str(data, "date_id"),
            step=_str(data, "step"),
            initial=bool(data.get("initial", False)),
            done=frozenset(str(s) for s in done),
            attack_chits_used={str(k): _int(_mapping(data, "attack_chits_used"), k)
                               for k in _mapping(data, "attack_chits_used")},
            sealed={str(k): Chit(str(v)) for k, v in _mapping(data, "sealed").items()},
            last_round=RevealedRound.from_json(_as_mapping(last, "last_round")) if last is not None else None,
            ended=bool(data.get("ended", False)),
        )


def _roll_json(roll: Roll) -> dict[str, JSON]:
    data: dict[str, JSON] = {**roll_to_json(roll)}
    return data


def _as_mapping(value: object, what: str) -> Mapping[str, JSON]:
    if not isinstance(value, Mapping):
        raise ValueError(f"campaign state: {what} must be an object")
    return value


def _mapping(data: Mapping[str, JSON], key: str) -> Mapping[str, JSON]:
    return _as_mapping(data.get(key) or {}, key)


def _str(data: Mapping[str, JSON], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ValueError(f"campaign state: {key} must be a string (got {value!r})")
    return value


def _opt_str(data: Mapping[str, JSON], key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def _int(data: Mapping[str, JSON], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"campaign state: {key} must be a whole number (got {value!r})")
    return value


def side_ids(system: SystemLike) -> tuple[SideId, SideId]:
    """The two side ids, in the system's order."""
    return (system.sides[0].id, system.sides[1].id)


def side_name(system: SystemLike, side: SideId) -> str:
    """A side's display name ("Canadian")."""
    for candidate in system.sides:
        if candidate.id == side:
            return candidate.name
    return side


def check_side(system: SystemLike, side: SideId) -> None:
    """SubmissionError unless ``side`` is one of the system's two sides."""
    allowed = side_ids(system)
    if side not in allowed:
        raise SubmissionError(f"Unknown side {side!r} (allowed: {', '.join(allowed)})")


def uses_chits(system: SystemLike) -> bool:
    """Whether the system decides initiative with secret, simultaneous chits (RR 2.522)."""
    return system.initiative is not None and system.initiative.mode == "chit"


def new_campaign(system: SystemLike) -> CampaignState:
    """A CG at its start: the Initial Scenario on the first calendar date (RR: 19 AM, catalog §2.6)."""
    if not system.calendar:
        raise MissingValueError(
            f"{system.id}: the calendar is not in the rule text; supply it in a CG Card before starting a campaign"
        )
    sides = side_ids(system)
    return CampaignState(
        system_id=system.id,
        sides=sides,
        date_index=0,
        date_id=system.calendar[0].id,
        step=INITIAL_SCENARIO,
        initial=True,
        attack_chits_used={side: 0 for side in sides},
    )


def advance_date(system: SystemLike, state: CampaignState) -> tuple[CampaignState, tuple[Event, ...]]:
    """2.5121 the next CG Date: its initiative step (chit systems) or its scenario; after the last date, CG end."""
    index = state.date_index + 1
    if index >= len(system.calendar):
        ended = replace(state, step=ENDED, ended=True, initial=False, done=frozenset(), sealed={})
        return ended, (Event("cg-ended", Visibility.PUBLIC, None, {"date": state.date_id}),)
    step = INITIATIVE if uses_chits(system) else SCENARIO
    date_id = system.calendar[index].id
    new = replace(state, date_index=index, date_id=date_id, step=step, initial=False, done=frozenset(), sealed={})
    return new, (Event("date-advanced", Visibility.PUBLIC, None, {"date": date_id, "date_index": index, "step": step}),)


def _move_order_pending(system: SystemLike, state: CampaignState) -> bool:
    initiative = system.initiative
    last = state.last_round
    return (
        state.step == SCENARIO
        and initiative is not None
        and initiative.dual_attack_move is not None
        and last is not None
        and last.date_index == state.date_index
        and last.result == DUAL_ATTACK
        and last.moves_first is None
    )


def validate_step_done(system: SystemLike, state: CampaignState, side: SideId) -> None:
    """SubmissionError unless ``side`` may mark the current on-board step finished now."""
    check_side(system, side)
    if state.step == ENDED:
        raise SubmissionError("The CG has ended; there is nothing left to mark finished.")
    if state.step == INITIATIVE:
        ref = system.initiative.ref if system.initiative else None
        raise SubmissionError(f"No scenario is being played on {state.date_id}: choose your Initiative chit first.", ref)
    if side in state.done:
        raise SubmissionError(f"You have already marked the scenario of {state.date_id} finished; waiting for the other side.")
    if _move_order_pending(system, state):
        move = system.initiative.dual_attack_move if system.initiative else None
        raise SubmissionError(
            "The Dual Attack move-order dr has not been made yet; it decides who moves first.", move.ref if move else None
        )


def mark_step_done(system: SystemLike, state: CampaignState, side: SideId) -> tuple[CampaignState, tuple[Event, ...]]:
    """A side marks the on-board step (Initial Scenario / scenario) finished; when both have, the next date begins."""
    validate_step_done(system, state, side)
    done = state.done | {side}
    events: list[Event] = [
        Event("step-done", Visibility.PUBLIC, side, {"date": state.date_id, "step": state.step, "side": side})
    ]
    new = replace(state, done=done)
    if done >= set(state.sides):
        new, more = advance_date(system, new)
        events.extend(more)
    return new, tuple(events)


def owes(system: SystemLike, state: CampaignState, side: SideId) -> tuple[str, ...]:
    """What ``side`` still has to do at this point (public: it never contains a choice); empty when nothing."""
    check_side(system, side)
    owed: list[str] = []
    if state.step == INITIAL_SCENARIO and side not in state.done:
        owed.append("mark the Initial Scenario finished")
    elif state.step == INITIATIVE and side not in state.sealed:
        ref = system.initiative.ref if system.initiative else ""
        owed.append(f"choose your Initiative chit ({ref})" if ref else "choose your Initiative chit")
    elif state.step == SCENARIO:
        move = system.initiative.dual_attack_move if system.initiative else None
        if move is not None and _move_order_pending(system, state) and move.roller == side:
            owed.append(f"make the Dual Attack move-order {move.dice} ({move.ref})")
        if side not in state.done:
            owed.append("mark the scenario finished")
    return tuple(owed)
