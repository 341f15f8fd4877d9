"""The CG-end dice export (refit-dice/1) and its verification: every roll recomputed from the revealed seed."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules_engine.dice.committed import draw_dice, keyed_hmac, roll_message, seed_commitment
from rules_engine.dice.rolls import PUBLIC_STREAM, Roll, roll_from_json, roll_problems, roll_to_json

EXPORT_FORMAT = "refit-dice/1"
_HEX64 = re.compile(r"[0-9a-f]{64}")


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


def _show(dice: Sequence[int]) -> str:
    """Dice as printed in a failure: ``3+5``."""
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
    keyed = keyed_hmac(seed) if seed is not None else None
    numbers: dict[str, list[int]] = {}
    for index, item in enumerate(rolls):
        if not isinstance(item, Mapping):
            failures.append(f"rolls[{index}]: must be an object")
            continue
        problems = roll_problems(item)
        if problems:
            failures.append(f"rolls[{index}]: " + "; ".join(problems))
            continue
        roll = roll_from_json(item)
        numbers.setdefault(roll.stream, []).append(roll.number)
        if not can_recompute:
            continue
        assert keyed is not None and isinstance(campaign, str) and player_seeds is not None
        message = roll_message(campaign, roll.stream, roll.number, roll.kind, roll.roller, roll.purpose, player_seeds)
        expected = draw_dice(keyed, message, len(roll.dice))
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
