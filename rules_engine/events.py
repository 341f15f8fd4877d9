"""Events: what a phase did, in order, each with who may see it (every roll is one)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypeAlias

from rules_engine.dice import PUBLIC_STREAM, Roll, board_stream, roll_from_json
from rules_engine.vocabulary import SideId, Visibility

JSON: TypeAlias = "str | int | float | bool | None | Sequence[JSON] | Mapping[str, JSON]"
"""A JSON-safe value (read-only containers, so a ``dict[str, int]`` is one too)."""


class EventKind(StrEnum):
    """What an event records (stored as its string; ``rules_engine.event_text.EVENT_SPECS`` says who sees it and how
    it reads)."""

    ANNOUNCED = "announced"
    BOARD_PART = "board-part"
    BOARD_ROLL_REVEALED = "board-roll-revealed"
    BOARD_ROLL_SEALED = "board-roll-sealed"
    CAMPAIGN_CREATED = "campaign-created"
    CAMPAIGN_STARTED = "campaign-started"
    CG_ENDED = "cg-ended"
    CHIT_CHOSEN = "chit-chosen"
    CHIT_SEALED = "chit-sealed"
    CHITS_REVEALED = "chits-revealed"
    DATE_ADVANCED = "date-advanced"
    DECLARED = "declared"
    ELR_CHANGED = "elr-changed"
    END_DECLINED = "end-declined"
    END_PROPOSED = "end-proposed"
    END_WITHDRAWN = "end-withdrawn"
    IDLE = "idle"
    INITIAL_OB = "initial-ob"
    INITIATIVE_ASSIGNED = "initiative-assigned"
    ITEMS_LOST = "items-lost"
    LEADERS_GENERATED = "leaders-generated"
    LOSSES_RECORDED = "losses-recorded"
    LVP_RECORDED = "lvp-recorded"
    MAP_GROUP_RESULTS_CONFIRMED = "map-group-results-confirmed"
    MESSAGE = "message"
    MOVE_ORDER = "move-order"
    NIGHT_ELR = "night-elr"
    NOTE_REVEALED = "note-revealed"
    NOTE_SEALED = "note-sealed"
    NOTE_WRITTEN = "note-written"
    NOTHING_TO_RESOLVE = "nothing-to-resolve"
    ORDER_RECORDED = "order-recorded"
    OVERDUE = "overdue"
    PACE_AGREED = "pace-agreed"
    PACE_DECLINED = "pace-declined"
    PACE_PROPOSED = "pace-proposed"
    PACE_WITHDRAWN = "pace-withdrawn"
    PAUSE_AGREED = "pause-agreed"
    PAUSE_ASKED = "pause-asked"
    PAUSE_DECLINED = "pause-declined"
    PLAYER_JOINED = "player-joined"
    POINTS_FORFEITED = "points-forfeited"
    RECON_DECLARED = "recon-declared"
    REPLENISHED = "replenished"
    REPLENISHMENT_SKIPPED = "replenishment-skipped"
    RESOLUTION_ORDER = "resolution-order"
    RESULTS_CONFIRMED = "results-confirmed"
    RESULTS_DIFFER = "results-differ"
    RESULTS_ENTERED = "results-entered"
    RESULTS_SUBMITTED = "results-submitted"
    ROLL = "roll"
    ROLL_RESOLVED = "roll-resolved"
    SAN_ADJUSTED = "san-adjusted"
    SECRET_DR = "secret-dr"
    STEP_DONE = "step-done"
    STEP_RESOLVED = "step-resolved"
    SUPPLIED = "supplied"
    TABLE_RESULT = "table-result"
    TRACK_SET = "track-set"
    VALUE_NEEDED = "value-needed"
    VALUE_SUPPLIED = "value-supplied"
    WEATHER = "weather"


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened: PUBLIC (both sides at once), SIDE or CG_END (``side`` now; both sides once the CG ends)."""

    kind: EventKind
    visibility: Visibility
    side: SideId | None
    payload: Mapping[str, JSON]

    def __init__(self, kind: EventKind, visibility: Visibility, side: SideId | None = None,
                 payload: Mapping[str, JSON] | None = None) -> None:
        """An event of ``kind`` (a stored string read back becomes its EventKind; ValueError for an unknown kind)."""
        kind = kind if type(kind) is EventKind else EventKind(kind)
        if visibility is not Visibility.PUBLIC and side is None:
            raise ValueError(f"A {visibility} event needs the side that owns it")
        fields = self.__dict__  # frozen: the fields are written once, here, without a __setattr__ each
        fields["kind"] = kind
        fields["visibility"] = visibility
        fields["side"] = side
        fields["payload"] = payload if payload is not None else {}

    def visible_to(self, viewer: SideId, cg_ended: bool) -> bool:
        """Whether ``viewer`` may see this event now (Visibility: SIDE and CG_END open to both sides at CG end)."""
        if self.visibility is Visibility.PUBLIC:
            return True
        return viewer == self.side or cg_ended

    def to_json(self) -> dict[str, JSON]:
        """The event as JSON-safe data."""
        return {"kind": self.kind, "visibility": str(self.visibility), "side": self.side, "payload": dict(self.payload)}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Event:
        """Inverse of ``to_json``."""
        payload = data.get("payload") or {}
        side = data.get("side")
        if not isinstance(payload, Mapping) or not (side is None or isinstance(side, str)):
            raise ValueError(f"Bad event record: {data!r}")
        return cls(EventKind(str(data["kind"])), Visibility(str(data["visibility"])), side, dict(payload))


def roll_event(roll: Roll, visibility: Visibility, side: SideId | None = None, **extra: JSON) -> Event:
    """The event of one roll (kind "roll"); a secret roll belongs to its roller's stream (or its board stream), a public
    one to "public"."""
    if (visibility is Visibility.PUBLIC) != (roll.stream == PUBLIC_STREAM):
        raise ValueError(
            f"A {visibility} roll event needs a {'public' if visibility is Visibility.PUBLIC else 'side'} stream "
            f"(roll {roll.stream} #{roll.number}, {roll.purpose}): stream numbers must not reveal secret rolls"
        )
    if visibility is not Visibility.PUBLIC:
        side = side if side is not None else roll.roller
        if roll.stream not in (side, board_stream(side)):
            raise ValueError(f"A secret roll of {side!r} belongs to its stream or its board stream, not {roll.stream!r}")
    payload: dict[str, JSON] = {
        "stream": roll.stream,
        "number": roll.number,
        "kind": str(roll.kind),
        "dice": list(roll.dice),
        "total": roll.total,
        "purpose": roll.purpose,
        "roller": roll.roller,
    }
    if not payload.keys().isdisjoint(extra):
        key = next(k for k in extra if k in payload)
        raise ValueError(f"roll_event: extra field {key!r} would overwrite the roll itself")
    payload.update(extra)
    return Event(EventKind.ROLL, visibility, side, payload)


def roll_from_event(event: Event) -> Roll:
    """The roll an event records (for the dice export)."""
    if event.kind is not EventKind.ROLL:
        raise ValueError(f"Not a roll event: {event.kind}")
    return roll_from_json({k: event.payload[k] for k in ("stream", "number", "kind", "dice", "roller", "purpose")})


class EventLike(Protocol):
    """An event as stored or as the engine made it: its kind, visibility, owning side and payload."""

    @property
    def kind(self) -> str: ...

    @property
    def visibility(self) -> str: ...

    @property
    def side(self) -> str | None: ...

    @property
    def payload(self) -> Mapping[str, JSON]: ...
