"""Reading the books back from their JSON: one reader naming the ledger in every error, and its small helpers."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.events import JSON
from rules_engine.jsonread import JsonReader

READ = JsonReader("ledger")


def unit_pair(value: object) -> tuple[int, str]:
    """A unit entry [count, unit] of a Purchase Record line."""
    pair = READ.as_list(value, "units")
    if len(pair) != 2:
        raise ValueError("ledger: each unit entry is [count, unit]")
    return READ.as_whole(pair[0], "units"), str(pair[1])


def whole_or_zero(data: Mapping[str, JSON], key: str) -> int:
    """A ledger's whole number (0 when absent)."""
    return READ.whole(data, key, 0)
