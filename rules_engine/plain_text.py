"""Plain text the players type (messages, sealed notes): line ends normalised, ends trimmed, a length bound, no
control characters; a TextError says what is wrong and what is allowed."""
from __future__ import annotations

import unicodedata

from rules_engine.errors import RulesError


class TextError(RulesError):
    """Text that cannot be kept (the message says what is allowed)."""


def plain_text(text: str, limit: int, what: str) -> str:
    """``text`` as it will be kept, or TextError naming ``what`` ("A note", "A message") and the bound."""
    cleaned = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not cleaned:
        raise TextError(f"{what} needs some text.")
    if len(cleaned) > limit:
        raise TextError(f"{what} is at most {limit:,} characters (this one has {len(cleaned):,}).")
    if any(unicodedata.category(ch) == "Cc" and ch not in "\n\t" for ch in cleaned):
        raise TextError(f"{what} is plain text: control characters are not allowed.")
    return cleaned
