"""Committed server-side dice (format refit-dice/1): a secret seed, its public commitment, HMAC-SHA256 rolls."""
from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping, Sequence
from functools import lru_cache

from rules_engine.dice.rolls import DICE_PER_KIND, PUBLIC_STREAM, Roll, board_stream, dice_kind, stream_allowed
from rules_engine.errors import RulesError
from rules_engine.vocabulary import DiceKind, SideId

SEED_BYTES = 32
_ACCEPT_BELOW = 252  # the largest multiple of 6 that fits in a byte


def new_seed() -> bytes:
    """A fresh secret campaign seed (32 bytes from ``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def seed_commitment(seed: bytes) -> str:
    """The public commitment to a seed: SHA-256 hex, published at campaign start."""
    return hashlib.sha256(seed).hexdigest()


@lru_cache(maxsize=1024)
def _json_str(text: str) -> str:
    """A string as canonical JSON (cached: purposes repeat)."""
    return json.dumps(text, ensure_ascii=False)


def _campaign_parts(campaign_id: str, player_seeds: Sequence[str]) -> tuple[str, str]:
    """What every roll message of a campaign holds: (its start up to the kind, its player seeds)."""
    seeds = ",".join(_json_str(s) for s in player_seeds)
    return '{"campaign":' + _json_str(campaign_id) + ',"kind":', ',"player_seeds":[' + seeds + "]"


def _roll_parts(head: str, seeds: str, stream: str, kind: DiceKind | str, roller: SideId, purpose: str
                ) -> tuple[bytes, bytes]:
    """The canonical JSON message around the roll number (text before it, text after it), from the campaign's parts."""
    before = head + _json_str(str(kind)) + ',"n":'
    after = (
        seeds
        + ',"purpose":' + _json_str(purpose)
        + ',"roller":' + _json_str(roller)
        + ',"stream":' + _json_str(stream)
        + "}"
    )
    return before.encode("utf-8"), after.encode("utf-8")


def _message_parts(
    campaign_id: str, stream: str, kind: DiceKind | str, roller: SideId, purpose: str, player_seeds: Sequence[str]
) -> tuple[bytes, bytes]:
    """The canonical JSON message around the roll number: (text before it, text after it)."""
    return _roll_parts(*_campaign_parts(campaign_id, player_seeds), stream, kind, roller, purpose)


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


def keyed_hmac(seed: bytes) -> hmac.HMAC:
    """An HMAC-SHA256 keyed with the seed, copied for each block."""
    return hmac.new(seed, digestmod=hashlib.sha256)


def draw_dice(keyed: hmac.HMAC, message: bytes, count: int) -> tuple[int, ...]:
    """``count`` fair dice from the HMAC blocks of ``message`` (bytes ≥ 252 skipped)."""
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
    return draw_dice(keyed_hmac(seed), message, count)


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
        self._keyed = keyed_hmac(seed)
        self._parts: dict[tuple[str, DiceKind, SideId, str], tuple[bytes, bytes]] = {}
        self.campaign_id = campaign_id
        self.player_seeds = (str(player_seeds[0]), str(player_seeds[1]))
        self._head, self._seeds = _campaign_parts(campaign_id, self.player_seeds)  # the same in every roll's message
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
        kind = dice_kind(kind)
        if not stream_allowed(stream, roller):
            raise RulesError(f"A secret roll's stream is its roller's side ({roller!r}) or its board stream "
                             f"({board_stream(roller)!r}); got {stream!r}")
        number = self._next.get(stream, 1)
        key = (stream, kind, roller, purpose)
        parts = self._parts.get(key)
        if parts is None:
            if len(self._parts) > 256:
                self._parts.clear()
            parts = self._parts[key] = _roll_parts(self._head, self._seeds, stream, kind, roller, purpose)
        message = parts[0] + str(number).encode("ascii") + parts[1]
        made = Roll(stream, number, kind, draw_dice(self._keyed, message, DICE_PER_KIND[kind]), roller, purpose)
        self._next[stream] = number + 1
        self.made.append(made)
        return made
