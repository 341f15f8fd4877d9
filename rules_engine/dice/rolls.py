"""A roll as made (DR: coloured + white die; dr: one die), the ``Dice`` seam, scripted dice for tests, a roll's JSON."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from rules_engine.errors import RulesError
from rules_engine.vocabulary import DiceKind, SideId

PUBLIC_STREAM = "public"
BOARD_PREFIX = "board-"  # a side's stream of secret rolls at the board ("board-german"), apart from the rules' own
DICE_PER_KIND: Mapping[DiceKind, int] = {DiceKind.DR: 2, DiceKind.dr: 1}


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as made: DR dice are (coloured, white); dr dice are (die,)."""

    stream: str
    number: int
    kind: DiceKind
    dice: tuple[int, ...]
    roller: SideId
    purpose: str

    @property
    def total(self) -> int:
        """The sum of the dice (the original DR/dr, before modifiers)."""
        return sum(self.dice)

    @property
    def coloured(self) -> int:
        """The coloured die of a DR (the only die of a dr)."""
        return self.dice[0]

    @property
    def white(self) -> int | None:
        """The white die of a DR (None for a dr)."""
        return self.dice[1] if len(self.dice) > 1 else None

    @property
    def doubles(self) -> bool:
        """A DR whose two dice show the same face."""
        return len(self.dice) == 2 and self.dice[0] == self.dice[1]


def board_stream(side: SideId) -> str:
    """The stream of ``side``'s secret rolls at the board (numbered apart from the rules' secret rolls)."""
    return f"{BOARD_PREFIX}{side}"


def stream_allowed(stream: str, roller: SideId) -> bool:
    """Whether a roll of ``roller`` may be on ``stream``: public, its own secret stream or its board stream."""
    return stream in (PUBLIC_STREAM, roller, board_stream(roller))


class Dice(Protocol):
    """A source of rolls, injected into every phase that rolls."""

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = PUBLIC_STREAM) -> Roll:
        """Roll a DR or a dr for ``purpose`` (cite the rule: "2.522 Dual Attack set-up dr")."""
        ...


class DiceExhaustedError(RuntimeError):
    """FixedDice ran out of values: a test rolled more dice than it scripted."""


def dice_kind(kind: DiceKind | str) -> DiceKind:
    """A dice kind from its text (RulesError naming the allowed kinds)."""
    if isinstance(kind, DiceKind):
        return kind
    try:
        return DiceKind(kind)
    except ValueError:
        raise RulesError(f"Unknown dice kind {kind!r} (allowed: DR, dr)") from None


class FixedDice:
    """Scripted dice for tests: one value per die (a DR takes two: coloured, then white); raises when exhausted."""

    def __init__(self, *values: int) -> None:
        for value in values:
            if not isinstance(value, int) or not 1 <= value <= 6:
                raise ValueError(f"A die shows 1 to 6; got {value!r}")
        self._values = list(values)
        self._next: dict[str, int] = {}
        self.made: list[Roll] = []

    @property
    def remaining(self) -> int:
        """How many scripted dice are left."""
        return len(self._values)

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = PUBLIC_STREAM) -> Roll:
        """Take the next scripted value(s)."""
        kind = dice_kind(kind)
        count = DICE_PER_KIND[kind]
        if len(self._values) < count:
            raise DiceExhaustedError(
                f"FixedDice has {len(self._values)} value(s) left but {purpose!r} needs {count} ({kind})"
            )
        dice = tuple(self._values[:count])
        del self._values[:count]
        number = self._next.get(stream, 1)
        self._next[stream] = number + 1
        made = Roll(stream, number, kind, dice, roller, purpose)
        self.made.append(made)
        return made


def roll_to_json(roll: Roll) -> dict[str, str | int | list[int]]:
    """A roll as stored in an export (and in campaign state)."""
    return {
        "stream": roll.stream,
        "number": roll.number,
        "kind": str(roll.kind),
        "dice": list(roll.dice),
        "roller": roll.roller,
        "purpose": roll.purpose,
    }


def roll_from_json(data: Mapping[str, object]) -> Roll:
    """Inverse of ``roll_to_json`` (raises RulesError naming the bad field)."""
    problems = roll_problems(data)
    if problems:
        raise RulesError("Bad roll record: " + "; ".join(problems))
    dice, number = data["dice"], data["number"]
    assert isinstance(dice, list) and isinstance(number, int)
    return Roll(
        str(data["stream"]),
        number,
        DiceKind(str(data["kind"])),
        tuple(int(d) for d in dice),
        str(data["roller"]),
        str(data["purpose"]),
    )


def _is_int(value: object) -> bool:
    """A whole number that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def roll_problems(data: Mapping[str, object]) -> list[str]:
    """Everything wrong with a stored roll record, one message each (empty: well-formed)."""
    problems: list[str] = []
    for key in ("stream", "roller", "purpose"):
        if not isinstance(data.get(key), str) or not data.get(key):
            problems.append(f"{key} must be a non-empty string")
    number = data.get("number")
    if not _is_int(number) or int(str(number)) < 1:
        problems.append(f"number must be a whole number ≥ 1 (got {number!r})")
    kind = data.get("kind")
    if kind not in ("DR", "dr"):
        problems.append(f"kind must be DR or dr (got {kind!r})")
    dice = data.get("dice")
    if not isinstance(dice, list) or not all(_is_int(d) and 1 <= int(d) <= 6 for d in dice):
        problems.append(f"dice must be a list of whole numbers 1 to 6 (got {dice!r})")
    elif kind in ("DR", "dr") and len(dice) != DICE_PER_KIND[DiceKind(str(kind))]:
        problems.append(f"a {kind} has {DICE_PER_KIND[DiceKind(str(kind))]} dice (got {len(dice)})")
    stream, roller = data.get("stream"), data.get("roller")
    if isinstance(stream, str) and isinstance(roller, str) and not stream_allowed(stream, roller):
        problems.append(f"stream must be {PUBLIC_STREAM!r}, the roller's side {roller!r} or its board stream "
                        f"{board_stream(roller)!r} (got {stream!r})")
    unknown = sorted(set(data) - {"stream", "number", "kind", "dice", "roller", "purpose"})
    if unknown:
        problems.append(f"unknown field(s) {', '.join(unknown)}")
    return problems
