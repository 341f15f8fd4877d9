"""Typed reads of stored JSON for the frozen dataclasses' ``from_json`` (ValueError naming the bad field)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_engine.events import JSON


@dataclass(frozen=True)
class JsonReader:
    """Reads the fields of one kind of stored data; every error starts with ``where`` ("ledger", "campaign state")."""

    where: str

    def as_mapping(self, value: object, what: str) -> Mapping[str, JSON]:
        """An object, else ValueError."""
        if not isinstance(value, Mapping):
            raise ValueError(f"{self.where}: {what} must be an object")
        return value

    def mapping(self, data: Mapping[str, JSON], key: str) -> Mapping[str, JSON]:
        """The object at ``key`` (empty when absent or null)."""
        return self.as_mapping(data.get(key) or {}, key)

    def as_list(self, value: object, what: str) -> Sequence[JSON]:
        """A list, else ValueError."""
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise ValueError(f"{self.where}: {what} must be a list")
        return value

    def list(self, data: Mapping[str, JSON], key: str) -> Sequence[JSON]:
        """The list at ``key`` (empty when absent or null)."""
        return self.as_list(data.get(key) or [], key)

    def as_whole(self, value: object, what: str) -> int:
        """A whole number (not a boolean), else ValueError."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{self.where}: {what} must be a whole number (got {value!r})")
        return value

    def whole(self, data: Mapping[str, JSON], key: str, default: JSON = None) -> int:
        """The whole number at ``key`` (``default`` when absent)."""
        return self.as_whole(data.get(key, default), key)

    def opt_whole(self, data: Mapping[str, JSON], key: str) -> int | None:
        """The whole number at ``key``, or None when absent or null."""
        return None if data.get(key) is None else self.whole(data, key)

    def text(self, data: Mapping[str, JSON], key: str) -> str:
        """The string at ``key``, else ValueError."""
        value = data.get(key)
        if not isinstance(value, str):
            raise ValueError(f"{self.where}: {key} must be a string (got {value!r})")
        return value

    def opt_text(self, data: Mapping[str, JSON], key: str) -> str | None:
        """The string at ``key``, or None when absent or null."""
        return None if data.get(key) is None else self.text(data, key)
