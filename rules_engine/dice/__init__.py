"""Dice: DR (coloured + white die) and dr, committed server-side dice that both players can verify at CG end.

How a committed roll is made (format ``refit-dice/1``)
------------------------------------------------------
* At campaign start the server draws a secret 32-byte ``seed`` and publishes ``commitment = SHA-256(seed)`` (hex).
  Each player then gives a seed string of their own (``player_seeds``, in side order, after the commitment is shown);
  they are bound into every roll, so the server could not have chosen its seed to suit them.
* Rolls are numbered per *stream*, gap-free from 1: ``"public"`` for public rolls, a side id for that side's secret
  rolls, or ``"board-<side>"`` for the secret rolls a side makes at the board with a purpose it types
  (rules_engine.board_secret), so a number never tells a player how many secret rolls the other side has made.
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

from rules_engine.dice.committed import (
    SEED_BYTES,
    CommittedDice,
    dice_from_message,
    new_seed,
    roll_message,
    seed_commitment,
)
from rules_engine.dice.export import EXPORT_FORMAT, Verification, export_rolls, verify_export
from rules_engine.dice.rolls import (
    BOARD_PREFIX,
    DICE_PER_KIND,
    PUBLIC_STREAM,
    Dice,
    DiceExhaustedError,
    FixedDice,
    Roll,
    board_stream,
    roll_from_json,
    roll_to_json,
    stream_allowed,
)

__all__ = [
    "BOARD_PREFIX",
    "DICE_PER_KIND",
    "EXPORT_FORMAT",
    "PUBLIC_STREAM",
    "SEED_BYTES",
    "CommittedDice",
    "Dice",
    "DiceExhaustedError",
    "FixedDice",
    "Roll",
    "Verification",
    "board_stream",
    "dice_from_message",
    "export_rolls",
    "new_seed",
    "roll_from_json",
    "roll_message",
    "roll_to_json",
    "seed_commitment",
    "stream_allowed",
    "verify_export",
]
