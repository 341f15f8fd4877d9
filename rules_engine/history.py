"""What a campaign remembers as frozen data: revealed Initiative rounds (RR 2.5222), scenario results, date records
and how the CG ended (PL 1.3) — each with its JSON form."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar

from rules_engine.dice import Roll, roll_from_json, roll_to_json
from rules_engine.events import JSON
from rules_engine.jsonread import JsonReader
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import Chit, SideId

CG_END_REASONS = ("last-date", "objectives", "concession", "mutual-agreement")


def frozen_map[K, V](mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy (a map frozen here already is kept: ``replace`` re-runs ``__post_init__`` on every change)."""
    if type(mapping) is MappingProxyType:
        return mapping
    return MappingProxyType(dict(mapping))


def frozen_nested[K, V](mapping: Mapping[K, Mapping[str, V]]) -> Mapping[K, Mapping[str, V]]:
    """A read-only copy of a map of maps (kept when frozen already)."""
    if type(mapping) is MappingProxyType and all(type(v) is MappingProxyType for v in mapping.values()):
        return mapping
    return MappingProxyType({k: frozen_map(v) for k, v in mapping.items()})



@unshadowed
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
        object.__setattr__(self, "chits", frozen_map(self.chits))

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


def int_map(data: Mapping[str, JSON], key: str) -> dict[SideId, int]:
    """``data[key]`` as {side: whole number}."""
    return {str(k): _int(_mapping(data, key), k) for k in _mapping(data, key)}


def bool_map(data: Mapping[str, JSON], key: str) -> dict[SideId, bool]:
    """``data[key]`` as {side: true/false}."""
    out: dict[SideId, bool] = {}
    for k, v in _mapping(data, key).items():
        if not isinstance(v, bool):
            raise ValueError(f"campaign state: {key}.{k} must be true or false (got {v!r})")
        out[str(k)] = v
    return out


@unshadowed
@dataclass(frozen=True)
class ScenarioResult:
    """One side's entry of a scenario's outcome (issue 4 item 5): ``cvp[side]`` = CVP that side amassed."""

    cvp: Mapping[SideId, int]
    attacked: Mapping[SideId, bool]
    winner: SideId | None = None  # None where the system has no scenario Victory Conditions (RR 2.5231)
    lvp: Mapping[SideId, int] = field(default_factory=dict)  # Current-LVP/TVP controlled (RR 2.5032)
    leaders_lost: Mapping[SideId, int] = field(default_factory=dict)
    units_lost: Mapping[SideId, int] = field(default_factory=dict)
    # KGP 8.2 Objective Hex: how many of its own designated Objective Hexes the side Controls at the scenario's end
    objective_hexes: Mapping[SideId, int] = field(default_factory=dict)

    FIELDS: ClassVar[tuple[str, ...]] = ("cvp", "winner", "lvp", "leaders_lost", "units_lost", "attacked",
                                         "objective_hexes")

    def __post_init__(self) -> None:
        for name in ("cvp", "attacked", "lvp", "leaders_lost", "units_lost", "objective_hexes"):
            object.__setattr__(self, name, frozen_map(getattr(self, name)))

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data."""
        return {
            "cvp": dict(self.cvp),
            "winner": self.winner,
            "lvp": dict(self.lvp),
            "leaders_lost": dict(self.leaders_lost),
            "units_lost": dict(self.units_lost),
            "attacked": dict(self.attacked),
            **({"objective_hexes": dict(self.objective_hexes)} if self.objective_hexes else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> ScenarioResult:
        """Inverse of ``to_json``."""
        return cls(
            cvp=int_map(data, "cvp"),
            attacked=bool_map(data, "attacked"),
            winner=_opt_str(data, "winner"),
            lvp=int_map(data, "lvp"),
            leaders_lost=int_map(data, "leaders_lost"),
            units_lost=int_map(data, "units_lost"),
            objective_hexes=int_map(data, "objective_hexes"),
        )


@unshadowed
@dataclass(frozen=True)
class DateRecord:
    """What happened on one CG Date / Firefight / TM Scenario: initial, scenario or idle; choices, roles, result."""

    date_index: int
    date_id: str
    kind: str  # initial | scenario | idle
    label: str = ""
    choices: Mapping[SideId, str] = field(default_factory=dict)  # attack | idle (public once revealed)
    setup_first: SideId | None = None
    moves_first: SideId | None = None
    result: ScenarioResult | None = None  # with Map Groups: the date's figures over all of them (results.combine)
    map_results: Mapping[str, ScenarioResult] = field(default_factory=dict)  # KGP 8.2: each Map Group's scenario

    def __post_init__(self) -> None:
        object.__setattr__(self, "choices", frozen_map(self.choices))
        object.__setattr__(self, "map_results", frozen_map(self.map_results))

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data (everything in it is public)."""
        data: dict[str, JSON] = {
            "date_index": self.date_index,
            "date_id": self.date_id,
            "kind": self.kind,
            "label": self.label,
            "choices": dict(self.choices),
            "setup_first": self.setup_first,
            "moves_first": self.moves_first,
            "result": self.result.to_json() if self.result else None,
        }
        if self.map_results:  # a list: the Map Groups' play order survives any JSON store (jsonb sorts keys)
            data["map_results"] = [{"map_group": group, "result": result.to_json()}
                                   for group, result in self.map_results.items()]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> DateRecord:
        """Inverse of ``to_json``."""
        result = data.get("result")
        return cls(
            date_index=_int(data, "date_index"),
            date_id=_str(data, "date_id"),
            kind=_str(data, "kind"),
            label=str(data.get("label") or ""),
            choices={str(k): str(v) for k, v in _mapping(data, "choices").items()},
            setup_first=_opt_str(data, "setup_first"),
            moves_first=_opt_str(data, "moves_first"),
            result=ScenarioResult.from_json(_as_mapping(result, "result")) if result is not None else None,
            map_results={_str(_as_mapping(item, "map_results"), "map_group"):
                         ScenarioResult.from_json(_as_mapping(_as_mapping(item, "map_results").get("result"), "result"))
                         for item in _list(data, "map_results")},
        )


@dataclass(frozen=True)
class CgEnd:
    """How the CG ended (PL 1.3: last date, CG objectives, concession, mutual agreement)."""

    reason: str
    date_id: str
    side: SideId | None = None  # the conceding side / the side whose objectives were met
    victor: SideId | None = None

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data."""
        return {"reason": self.reason, "date_id": self.date_id, "side": self.side, "victor": self.victor}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> CgEnd:
        """Inverse of ``to_json``."""
        reason = _str(data, "reason")
        if reason not in CG_END_REASONS:
            raise ValueError(f"campaign state: unknown CG end reason {reason!r} (allowed: {', '.join(CG_END_REASONS)})")
        return cls(reason, _str(data, "date_id"), _opt_str(data, "side"), _opt_str(data, "victor"))



def _roll_json(roll: Roll) -> dict[str, JSON]:
    data: dict[str, JSON] = {**roll_to_json(roll)}
    return data


_READ = JsonReader("campaign state")
_as_mapping = _READ.as_mapping
_mapping = _READ.mapping
_list = _READ.list
_str = _READ.text
_opt_str = _READ.opt_text
_int = _READ.whole
