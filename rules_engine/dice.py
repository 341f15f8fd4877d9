"""Dice: DR (coloured + white die) and dr, committed server-side dice that both players can verify at CG end.

How a committed roll is made (format ``refit-dice/1``)
------------------------------------------------------
* At campaign start the server draws a secret 32-byte ``seed`` and publishes ``commitment = SHA-256(seed)`` (hex).
  Each player then gives a seed string of their own (``player_seeds``, in side order, after the commitment is shown);
  they are bound into every roll, so the server could not have chosen its seed to suit them.
* Rolls are numbered per *stream*, gap-free from 1: ``"public"`` for public rolls, or a side id for that side's secret
  rolls, so a number never tells a player how many secret rolls the other side has made.
* Roll ``n`` of a stream: ``message`` = the canonical JSON (keys sorted, separators ``,`` and ``:``, UTF-8, no ASCII
  escaping) of ``{"campaign", "kind", "n", "player_seeds", "purpose", "roller", "stream"}``;
  block 0 = ``HMAC-SHA256(seed, message)``; block k ≥ 1 = ``HMAC-SHA256(seed, message + b"\\n" + str(k))``.
  The bytes of block 0, then block 1, … are read in order; a byte ``b < 252`` gives the die ``b % 6 + 1``, a byte
  ``≥ 252`` is skipped (so every face is exactly equally likely). A DR takes two dice: coloured first, then white.
  ``kind`` is bound as well, so a DR cannot be passed off as a dr (its first die) or the other way round.
* At CG end the seed is revealed in an export (``export_rolls``) and anyone can recompute every roll (``verify_export``,
  or ``python -m rules_engine verify-dice FILE``). Numbering finds a removed or duplicated roll inside a stream; a roll
  removed from the *end* of a stream shows only against the counts the players saw (the public roll events).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from rules_engine.errors import RulesError
from rules_engine.vocabulary import DiceKind, SideId

EXPORT_FORMAT = "refit-dice/1"
PUBLIC_STREAM = "public"
SEED_BYTES = 32
DICE_PER_KIND: Mapping[DiceKind, int] = {DiceKind.DR: 2, DiceKind.dr: 1}
_ACCEPT_BELOW = 252  # the largest multiple of 6 that fits in a byte
_HEX64 = re.compile(r"[0-9a-f]{64}")


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


class Dice(Protocol):
    """A source of rolls, injected into every phase that rolls."""

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = PUBLIC_STREAM) -> Roll:
        """Roll a DR or a dr for ``purpose`` (cite the rule: "2.522 Dual Attack set-up dr")."""
        ...


class DiceExhaustedError(RuntimeError):
    """FixedDice ran out of values: a test rolled more dice than it scripted."""


def new_seed() -> bytes:
    """A fresh secret campaign seed (32 bytes from ``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: SHA-256 hex, published at campaign start."""
    return hashlib.sha256(seed).hexdigest()


@lru_cache(maxsize=1024)
def _json_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _message_parts(
    campaign_id: str, stream: str, kind: DiceKind | str, roller: SideId, purpose: str, player_seeds: Sequence[str]
) -> tuple[bytes, bytes]:
    """The canonical JSON message around the roll number: (text before it, text after it)."""
    seeds = ",".join(_json_str(s) for s in player_seeds)
    before = '{"campaign":' + _json_str(campaign_id) + ',"kind":' + _json_str(str(kind)) + ',"n":'
    after = (
        ',"player_seeds":[' + seeds + "]"
        + ',"purpose":' + _json_str(purpose)
        + ',"roller":' + _json_str(roller)
        + ',"stream":' + _json_str(stream)
        + "}"
    )
    return before.encode("utf-8"), after.encode("utf-8")


def roll_message(
    campaign_id: str,
    stream: str,
    number: int,
    kind: DiceKind | str,
    roller: SideId,
    purpose: str,
    player_seeds: Sequence[str],
) -> bytes:
    """The canonical JSON message HMAC'd for one roll (keys sorted, compact, UTF-8)."""
    before, after = _message_parts(campaign_id, stream, kind, roller, purpose, player_seeds)
    return before + str(int(number)).encode("ascii") + after


def _keyed(seed: bytes) -> hmac.HMAC:
    return hmac.new(seed, digestmod=hashlib.sha256)


def _dice(keyed: hmac.HMAC, message: bytes, count: int) -> tuple[int, ...]:
    dice: list[int] = []
    block = 0
    while len(dice) < count:
        mac = keyed.copy()
        mac.update(message if block == 0 else message + b"\n" + str(block).encode("ascii"))
        for byte in mac.digest():
            if byte < _ACCEPT_BELOW:
                dice.append(byte % 6 + 1)
                if len(dice) == count:
                    break
        block += 1
    return tuple(dice)


def dice_from_message(seed: bytes, message: bytes, count: int) -> tuple[int, ...]:
    """``count`` fair dice drawn from HMAC-SHA256 blocks of ``message`` (bytes ≥ 252 rejected)."""
    return _dice(_keyed(seed), message, count)


def _kind(kind: DiceKind | str) -> DiceKind:
    if isinstance(kind, DiceKind):
        return kind
    try:
        return DiceKind(kind)
    except ValueError:
        raise RulesError(f"Unknown dice kind {kind!r} (allowed: DR, dr)") from None


class CommittedDice:
    """Server-side dice from a committed seed; ``counters`` (next number per stream) must be persisted after rolling."""

    def __init__(
        self,
        seed: bytes,
        campaign_id: str,
        player_seeds: tuple[str, str],
        counters: Mapping[str, int] = {},
    ) -> None:
        if len(seed) != SEED_BYTES:
            raise RulesError(f"A dice seed is {SEED_BYTES} bytes; got {len(seed)}")
        if len(player_seeds) != 2:
            raise RulesError(f"Two player seeds are needed (one per side); got {len(player_seeds)}")
        for stream, number in counters.items():
            if not isinstance(number, int) or number < 1:
                raise RulesError(f"Dice counter for stream {stream!r} must be a whole number ≥ 1; got {number!r}")
        self._seed = seed
        self._keyed = _keyed(seed)
        self._parts: dict[tuple[str, DiceKind, SideId, str], tuple[bytes, bytes]] = {}
        self.campaign_id = campaign_id
        self.player_seeds = (str(player_seeds[0]), str(player_seeds[1]))
        self._next: dict[str, int] = dict(counters)
        self.made: list[Roll] = []

    @property
    def commitment(self) -> str:
        """SHA-256 hex of the seed."""
        return seed_commitment(self._seed)

    @property
    def counters(self) -> dict[str, int]:
        """The next roll number of each stream used so far (persist this; streams not listed start at 1)."""
        return dict(self._next)

    def roll(self, kind: DiceKind, purpose: str, roller: SideId, stream: str = PUBLIC_STREAM) -> Roll:
        """Make the next roll of ``stream``."""
        kind = _kind(kind)
        if stream != PUBLIC_STREAM and stream != roller:
            raise RulesError(f"A secret roll's stream is its roller's side ({roller!r}); got {stream!r}")
        number = self._next.get(stream, 1)
        key = (stream, kind, roller, purpose)
        parts = self._parts.get(key)
        if parts is None:
            if len(self._parts) > 256:
                self._parts.clear()
            parts = self._parts[key] = _message_parts(self.campaign_id, stream, kind, roller, purpose, self.player_seeds)
        message = parts[0] + str(number).encode("ascii") + parts[1]
        made = Roll(stream, number, kind, _dice(self._keyed, message, DICE_PER_KIND[kind]), roller, purpose)
        self._next[stream] = number + 1
        self.made.append(made)
        return made


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
        kind = _kind(kind)
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
    problems = _roll_problems(data)
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


def export_rolls(
    seed: bytes, campaign_id: str, player_seeds: Sequence[str], rolls: Iterable[Roll]
) -> dict[str, object]:
    """The CG-end dice export (format refit-dice/1): revealed seed, commitment and every roll, by stream and number."""
    ordered = sorted(rolls, key=lambda r: (r.stream != PUBLIC_STREAM, r.stream, r.number))
    return {
        "format": EXPORT_FORMAT,
        "campaign": campaign_id,
        "seed": seed.hex(),
        "commitment": seed_commitment(seed),
        "player_seeds": [str(s) for s in player_seeds],
        "rolls": [roll_to_json(r) for r in ordered],
    }


@dataclass(frozen=True)
class Verification:
    """The result of recomputing an export: ok when every roll matches and nothing is malformed or missing."""

    ok: bool
    checked: int
    failures: tuple[str, ...] = field(default_factory=tuple)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _roll_problems(data: Mapping[str, object]) -> list[str]:
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
    if isinstance(stream, str) and isinstance(roller, str) and stream not in (PUBLIC_STREAM, roller):
        problems.append(f"stream must be {PUBLIC_STREAM!r} or the roller's side {roller!r} (got {stream!r})")
    unknown = sorted(set(data) - {"stream", "number", "kind", "dice", "roller", "purpose"})
    if unknown:
        problems.append(f"unknown field(s) {', '.join(unknown)}")
    return problems


def _show(dice: Sequence[int]) -> str:
    return "+".join(str(d) for d in dice)


def verify_export(data: Mapping[str, object]) -> Verification:
    """Recompute every roll of a refit-dice/1 export from its revealed seed (commitment, dice, gap-free numbering)."""
    failures: list[str] = []
    if data.get("format") != EXPORT_FORMAT:
        failures.append(f"format: expected {EXPORT_FORMAT!r}, got {data.get('format')!r}")
    campaign = data.get("campaign")
    if not isinstance(campaign, str) or not campaign:
        failures.append(f"campaign: must be a non-empty string (got {campaign!r})")
    seed: bytes | None = None
    seed_hex = data.get("seed")
    if not isinstance(seed_hex, str) or not _HEX64.fullmatch(seed_hex):
        failures.append("seed: must be 64 lower-case hex digits (the 32-byte seed revealed at CG end)")
    else:
        seed = bytes.fromhex(seed_hex)
    commitment = data.get("commitment")
    if not isinstance(commitment, str) or not _HEX64.fullmatch(commitment):
        failures.append("commitment: must be 64 lower-case hex digits (the SHA-256 published at campaign start)")
    elif seed is not None and seed_commitment(seed) != commitment:
        failures.append(
            f"commitment: SHA-256 of the revealed seed is {seed_commitment(seed)}, "
            f"but the commitment published at campaign start is {commitment}"
        )
    player_seeds = data.get("player_seeds")
    if not (isinstance(player_seeds, list) and len(player_seeds) == 2 and all(isinstance(s, str) for s in player_seeds)):
        failures.append("player_seeds: must be a list of two strings (one per side)")
        player_seeds = None
    rolls = data.get("rolls")
    if not isinstance(rolls, list):
        failures.append("rolls: must be a list")
        rolls = []
    unknown = sorted(set(data) - {"format", "campaign", "seed", "commitment", "player_seeds", "rolls"})
    if unknown:
        failures.append(f"unknown field(s) {', '.join(unknown)}")

    can_recompute = seed is not None and isinstance(campaign, str) and player_seeds is not None
    checked = 0
    keyed = _keyed(seed) if seed is not None else None
    numbers: dict[str, list[int]] = {}
    for index, item in enumerate(rolls):
        if not isinstance(item, Mapping):
            failures.append(f"rolls[{index}]: must be an object")
            continue
        problems = _roll_problems(item)
        if problems:
            failures.append(f"rolls[{index}]: " + "; ".join(problems))
            continue
        roll = roll_from_json(item)
        numbers.setdefault(roll.stream, []).append(roll.number)
        if not can_recompute:
            continue
        assert keyed is not None and isinstance(campaign, str) and player_seeds is not None
        message = roll_message(campaign, roll.stream, roll.number, roll.kind, roll.roller, roll.purpose, player_seeds)
        expected = _dice(keyed, message, len(roll.dice))
        checked += 1
        if expected != roll.dice:
            failures.append(
                f"roll {roll.stream} #{roll.number} ({roll.purpose}): "
                f"recorded {_show(roll.dice)}, recomputed {_show(expected)}"
            )
    for stream in sorted(numbers):
        seen = numbers[stream]
        duplicates = sorted(n for n, times in Counter(seen).items() if times > 1)
        if duplicates:
            failures.append(f"stream {stream}: roll number(s) {', '.join(map(str, duplicates))} appear more than once")
        missing = sorted(set(range(1, max(seen) + 1)) - set(seen))
        if missing:
            failures.append(
                f"stream {stream}: roll number(s) {', '.join(map(str, missing))} missing "
                f"(numbers must run 1 to {max(seen)} without gaps)"
            )
    return Verification(ok=not failures, checked=checked, failures=tuple(failures))
