"""Campaign state: where a CG stands (date, step, cursor, sealed chits, ledgers, records) as frozen data.

One machine: ``new_campaign`` gives the waiting step (before the second player joins); ``sequence.start`` runs the
between-scenario phase from there (``rules_engine.phase``: ``phase_ref`` names the step, or a mark such as
"@results"); what a campaign remembers (revealed rounds, results, date records, the CG end) in
``rules_engine.history``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TypeAlias, TypedDict, Unpack

from rules_engine.errors import MissingValueError, SubmissionError
from rules_engine.events import JSON, Event
from rules_engine.history import (
    CG_END_REASONS,
    CgEnd,
    DateRecord,
    RevealedRound,
    ScenarioResult,
    frozen_map,
    frozen_nested,
    int_map,
)
from rules_engine.jsonread import JsonReader
from rules_engine.ledger import SideLedger
from rules_engine.model import System
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import Chit, SideId

WAITING = "waiting"  # created, the second player not yet joined: nothing is owed, nothing is rolled
INITIAL_SCENARIO = "initial-scenario"
INITIATIVE = "initiative"
SCENARIO = "scenario"
ENDED = "ended"
PHASE = "phase"  # a between-scenario step (``phase_ref``)
RESULTS = "results"  # both sides enter the scenario's results
STEPS = (WAITING, INITIAL_SCENARIO, INITIATIVE, SCENARIO, ENDED, PHASE, RESULTS)
PASS_KINDS = ("initial", "cycle", "scenario", "idle")
DUAL_ATTACK = "dual-attack"
IDLE = "idle"

SystemLike: TypeAlias = System
"""What the engine reads of a system: every member of ``rules_engine.model.System`` (the only kind of system there is)."""

__all__ = [
    "CG_END_REASONS", "DUAL_ATTACK", "ENDED", "IDLE", "INITIAL_SCENARIO", "INITIATIVE", "PASS_KINDS", "PHASE", "RESULTS",
    "SCENARIO", "STEPS", "WAITING", "CampaignState", "CgEnd", "DateRecord", "RevealedRound", "ScenarioResult", "SystemLike",
    "check_side", "new_campaign", "side_ids", "side_name", "uses_chits",
]


class StateChanges(TypedDict, total=False):
    """The fields ``CampaignState.evolve`` may change (every field, with its type)."""

    system_id: str
    sides: tuple[SideId, SideId]
    date_index: int
    date_id: str
    step: str
    initial: bool
    done: frozenset[SideId]
    attack_chits_used: Mapping[SideId, int]
    sealed: Mapping[SideId, Chit]
    last_round: RevealedRound | None
    ended: bool
    pass_kind: str | None
    phase_ref: str | None
    results: Mapping[SideId, ScenarioResult]
    history: tuple[DateRecord, ...]
    tracks: Mapping[SideId, Mapping[str, int]]
    records: tuple[Event, ...]
    facts_supplied: Mapping[SideId, Mapping[str, int | bool]]
    ledgers: Mapping[SideId, SideLedger]
    cg_end: CgEnd | None
    end_proposals: frozenset[SideId]
    end_reason: str | None
    end_claimant: SideId | None
    pending: Mapping[SideId, Mapping[str, JSON]]
    parts_done: frozenset[SideId]
    supplied_cells: Mapping[SideId, Mapping[str, JSON]]
    map_done: Mapping[str, frozenset[SideId]]
    map_results: Mapping[str, Mapping[SideId, ScenarioResult]]
    map_agreed: Mapping[str, ScenarioResult]
    board_log: tuple[Event, ...]
    board_counts: Mapping[SideId, int]
    run_done: Mapping[SideId, tuple[str, ...]]


@unshadowed
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
    # ---- the between-scenario phase (rules_engine.sequence) ----
    pass_kind: str | None = None  # initial | cycle | scenario | idle
    phase_ref: str | None = None  # the current step ref, or a mark: "@results", "@new-date", "@scenario" …
    results: Mapping[SideId, ScenarioResult] = field(default_factory=dict)  # this scenario's entries so far
    history: tuple[DateRecord, ...] = ()
    tracks: Mapping[SideId, Mapping[str, int]] = field(default_factory=dict)  # san, elr, lvp, cg_lvp …
    records: tuple[Event, ...] = ()  # this date's step results (rolls with breakdown, automatic outcomes)
    facts_supplied: Mapping[SideId, Mapping[str, int | bool]] = field(default_factory=dict)  # for the current step
    ledgers: Mapping[SideId, SideLedger] = field(default_factory=dict)  # secret: each side its own
    cg_end: CgEnd | None = None
    end_proposals: frozenset[SideId] = frozenset()  # sides proposing to end the CG (mutual agreement, objectives met)
    end_reason: str | None = None  # the open proposal: "mutual-agreement" | "objectives" (its first proposer's objectives)
    end_claimant: SideId | None = None  # "objectives": the side that says its CG objectives are met
    # ---- values lost in the rule text (rules_engine.lost_values): server-side only ----
    pending: Mapping[SideId, Mapping[str, JSON]] = field(default_factory=dict)  # a roll waiting for a lost value
    parts_done: frozenset[SideId] = frozenset()  # sides whose part of the current automatic step is finished
    supplied_cells: Mapping[SideId, Mapping[str, JSON]] = field(default_factory=dict)  # "table|row|column" → value
    # ---- KGP 8.2: one CG scenario per Map Group in play (rules_engine.sequence, .results) ----
    map_done: Mapping[str, frozenset[SideId]] = field(default_factory=dict)  # Map Group → sides that marked it finished
    map_results: Mapping[str, Mapping[SideId, ScenarioResult]] = field(default_factory=dict)  # entries per Map Group
    map_agreed: Mapping[str, ScenarioResult] = field(default_factory=dict)  # Map Group → its confirmed results
    # ---- public rolls at the board (rules_engine.board): the current step / scenario only ----
    board_log: tuple[Event, ...] = ()  # the latest rolls made on request there (both sides; public)
    board_counts: Mapping[SideId, int] = field(default_factory=dict)  # how many each side made there
    # ---- a run of on-the-board steps confirmed in one click (rules_engine.sequence.mark_run_done) ----
    run_done: Mapping[SideId, tuple[str, ...]] = field(default_factory=dict)  # side → "date|pass|ref" it finished

    def __post_init__(self) -> None:
        _check_step(self.step, self.pass_kind)
        for name, freeze in _FREEZE.items():
            object.__setattr__(self, name, freeze(getattr(self, name)))

    def evolve(self, **changes: Unpack[StateChanges]) -> CampaignState:
        """``dataclasses.replace``, freezing only the changed fields: the others are frozen already (same result)."""
        values: dict[str, object] = self.__dict__.copy()
        if "step" in changes or "pass_kind" in changes:
            _check_step(changes.get("step", self.step), changes.get("pass_kind", self.pass_kind))
        if not _FIELD_NAMES.issuperset(changes):
            name = next(n for n in changes if n not in _FIELD_NAMES)
            raise TypeError(f"CampaignState has no field {name!r}")
        freezers = _FREEZE
        for name, value in changes.items():
            freeze = freezers.get(name)
            values[name] = value if freeze is None else freeze(value)
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", values)
        return new

    def moved_to(self, pass_kind: str, phase_ref: str, step: str) -> CampaignState:
        """The state with the cursor on a new entry, its marks, facts, Map Group entries and board log afresh (the
        same as ``evolve`` with those fields emptied: ``rules_engine.phase.program.goto``)."""
        _check_step(step, pass_kind)
        values: dict[str, object] = self.__dict__.copy()
        values.update(_FRESH_ENTRY)
        values["pass_kind"], values["phase_ref"], values["step"] = pass_kind, phase_ref, step
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", values)
        return new

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
            "pass_kind": self.pass_kind,
            "phase_ref": self.phase_ref,
            "results": {side: r.to_json() for side, r in self.results.items()},
            "history": [record.to_json() for record in self.history],
            "tracks": {side: dict(values) for side, values in self.tracks.items()},
            "records": [event.to_json() for event in self.records],
            "facts_supplied": {side: dict(values) for side, values in self.facts_supplied.items()},
            "ledgers": {side: dict(ledger.to_json()) for side, ledger in self.ledgers.items()},
            "cg_end": self.cg_end.to_json() if self.cg_end else None,
            "end_proposals": sorted(self.end_proposals),
            "end_reason": self.end_reason,
            "end_claimant": self.end_claimant,
            "pending": {side: dict(p) for side, p in self.pending.items()},
            "parts_done": sorted(self.parts_done),
            "supplied_cells": {side: dict(cells) for side, cells in self.supplied_cells.items()},
            "map_done": {group: sorted(sides) for group, sides in self.map_done.items()},
            "map_results": {group: {side: r.to_json() for side, r in entries.items()}
                            for group, entries in self.map_results.items()},
            "map_agreed": {group: r.to_json() for group, r in self.map_agreed.items()},
            "board_log": [event.to_json() for event in self.board_log],
            "board_counts": dict(self.board_counts),
            "run_done": {side: list(refs) for side, refs in self.run_done.items()},
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
            step=WAITING if data.get("phased") is False else _str(data, "step"),  # stored before the one machine
            initial=bool(data.get("initial", False)),
            done=frozenset(str(s) for s in done),
            attack_chits_used={str(k): _int(_mapping(data, "attack_chits_used"), k)
                               for k in _mapping(data, "attack_chits_used")},
            sealed={str(k): Chit(str(v)) for k, v in _mapping(data, "sealed").items()},
            last_round=RevealedRound.from_json(_as_mapping(last, "last_round")) if last is not None else None,
            ended=bool(data.get("ended", False)),
            pass_kind=_opt_str(data, "pass_kind"),
            phase_ref=_opt_str(data, "phase_ref"),
            results={str(k): ScenarioResult.from_json(_as_mapping(v, "results")) for k, v in _mapping(data, "results").items()},
            history=tuple(DateRecord.from_json(_as_mapping(r, "history")) for r in _list(data, "history")),
            tracks={str(k): int_map(_mapping(data, "tracks"), k) for k in _mapping(data, "tracks")},
            records=tuple(Event.from_json(_as_mapping(r, "records")) for r in _list(data, "records")),
            facts_supplied={str(k): _fact_map(_as_mapping(v, "facts_supplied"))
                            for k, v in _mapping(data, "facts_supplied").items()},
            ledgers={str(k): SideLedger.from_json(_as_mapping(v, "ledgers")) for k, v in _mapping(data, "ledgers").items()},
            cg_end=CgEnd.from_json(_as_mapping(data["cg_end"], "cg_end")) if data.get("cg_end") is not None else None,
            end_proposals=frozenset(str(s) for s in _list(data, "end_proposals")),
            end_reason=_opt_str(data, "end_reason"),
            end_claimant=_opt_str(data, "end_claimant"),
            pending={str(k): dict(_as_mapping(v, "pending")) for k, v in _mapping(data, "pending").items()},
            parts_done=frozenset(str(s) for s in _list(data, "parts_done")),
            supplied_cells={str(k): dict(_as_mapping(v, "supplied_cells"))
                            for k, v in _mapping(data, "supplied_cells").items()},
            map_done={str(k): frozenset(str(s) for s in _list(_mapping(data, "map_done"), str(k)))
                      for k in _mapping(data, "map_done")},
            map_results={str(group): {str(side): ScenarioResult.from_json(_as_mapping(r, "map_results"))
                                      for side, r in _as_mapping(entries, "map_results").items()}
                         for group, entries in _mapping(data, "map_results").items()},
            map_agreed={str(group): ScenarioResult.from_json(_as_mapping(r, "map_agreed"))
                        for group, r in _mapping(data, "map_agreed").items()},
            board_log=tuple(Event.from_json(_as_mapping(r, "board_log")) for r in _list(data, "board_log")),
            board_counts={str(k): _int(_mapping(data, "board_counts"), k) for k in _mapping(data, "board_counts")},
            run_done={str(k): tuple(str(r) for r in _list(_mapping(data, "run_done"), str(k)))
                      for k in _mapping(data, "run_done")},
        )


def _check_step(step: object, pass_kind: object) -> None:
    if step not in STEPS:
        raise ValueError(f"Unknown step {step!r} (allowed: {', '.join(STEPS)})")
    if pass_kind is not None and pass_kind not in PASS_KINDS:
        raise ValueError(f"Unknown pass {pass_kind!r} (allowed: {', '.join(PASS_KINDS)})")


_EMPTY: Mapping[Any, Any] = MappingProxyType({})  # one read-only empty map: nobody can change it


def _map[K, V](mapping: Mapping[K, V]) -> Mapping[K, V]:
    """``frozen_map``, with every empty map the same read-only one."""
    if type(mapping) is MappingProxyType:
        return mapping
    return MappingProxyType(dict(mapping)) if mapping else _EMPTY


def _nested[K, V](mapping: Mapping[K, Mapping[str, V]]) -> Mapping[K, Mapping[str, V]]:
    """``frozen_nested``, with every empty map the same read-only one."""
    return frozen_nested(mapping) if mapping else _EMPTY


def _frozen_sets(mapping: Mapping[str, frozenset[SideId]]) -> Mapping[str, frozenset[SideId]]:
    return frozen_map({k: frozenset(v) for k, v in mapping.items()}) if mapping else _EMPTY


def _frozen_tuples(mapping: Mapping[SideId, tuple[str, ...]]) -> Mapping[SideId, tuple[str, ...]]:
    return frozen_map({k: tuple(v) for k, v in mapping.items()}) if mapping else _EMPTY


_FREEZE: Mapping[str, Callable[[Any], object]] = {  # each field's read-only copy, as ``__post_init__`` makes it
    "sides": tuple, "done": frozenset, "attack_chits_used": _map, "sealed": _map, "results": _map,
    "history": tuple, "tracks": _nested, "records": tuple, "facts_supplied": _nested,
    "ledgers": _map, "end_proposals": frozenset, "pending": _map, "parts_done": frozenset,
    "supplied_cells": _nested, "map_done": _frozen_sets, "run_done": _frozen_tuples,
    "map_results": _nested, "map_agreed": _map, "board_log": tuple, "board_counts": _map,
}
_FRESH_ENTRY: Mapping[str, object] = {  # what a new entry starts with (read-only values: shared safely)
    "done": frozenset(), "facts_supplied": _EMPTY, "parts_done": frozenset(), "map_done": _EMPTY, "map_results": _EMPTY,
    "map_agreed": _EMPTY, "board_log": (), "board_counts": _EMPTY,
}
_FIELD_NAMES = frozenset(f.name for f in fields(CampaignState))
if set(StateChanges.__annotations__) != _FIELD_NAMES:
    raise TypeError("StateChanges must list every field of CampaignState")  # the two lists drift apart otherwise


_READ = JsonReader("campaign state")
_as_mapping = _READ.as_mapping
_mapping = _READ.mapping
_list = _READ.list
_str = _READ.text
_opt_str = _READ.opt_text
_int = _READ.whole


def _fact_map(data: Mapping[str, JSON]) -> dict[str, int | bool]:
    out: dict[str, int | bool] = {}
    for k, v in data.items():
        if not isinstance(v, (int, bool)):
            raise ValueError(f"campaign state: fact {k!r} must be a whole number or true/false (got {v!r})")
        out[str(k)] = v
    return out


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
    first, second = system.sides[0].id, system.sides[1].id
    if side != first and side != second:
        allowed = (first, second)
        raise SubmissionError(f"Unknown side {side!r} (allowed: {', '.join(allowed)})")


def uses_chits(system: SystemLike) -> bool:
    """Whether the system decides initiative with secret, simultaneous chits (RR 2.522)."""
    return system.initiative is not None and system.initiative.mode == "chit"


def new_campaign(system: SystemLike) -> CampaignState:
    """A CG created, waiting for the second player (``WAITING``), on the first calendar date (RR: 19 AM, catalog
    §2.6); ``sequence.start`` starts its phase."""
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
        step=WAITING,
        initial=True,
        attack_chits_used={side: 0 for side in sides},
    )


def stored_ended(data: Mapping[str, JSON]) -> bool:
    """Whether a stored state (``to_json``) is of a CG that is over, read off its ``ended`` key as ``from_json`` reads
    it without parsing the rest: which events a side may see depends on it alone (a message's newest events)."""
    return bool(data.get("ended", False))
