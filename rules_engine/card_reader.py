"""Reading the CG Card form's typed fields into document values, noting where each value came from and what the form
could not read (``card_build``, ``card_parts_build``)."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.card_form import Built, Path
from rules_engine.card_schema import ROW_MARK, rows_of
from rules_engine.card_values import MAX_FIELD_CHARS, FlowTextError, typed_value

MAX_ROWS = 400
TRUE = ("true", "on", "1", "yes")


class Reader:
    """Reads typed fields, records where each document value came from and what the form could not read."""

    def __init__(self, data: Mapping[str, str], built: Built) -> None:
        self.data = data
        self.built = built

    def raw(self, name: str) -> str:
        text = self.data.get(name, "")
        if len(text) > MAX_FIELD_CHARS:
            self.built.problems.append((name, f"too long ({len(text)} characters; at most {MAX_FIELD_CHARS})"))
            return ""
        return text

    def value(self, name: str, path: Path, *, text: bool = False) -> object:
        raw = self.raw(name)
        self.built.origin[path] = name
        if text:
            return raw.strip() or None
        try:
            return typed_value(raw)
        except FlowTextError as exc:
            self.built.problems.append((name, str(exc)))
            return raw

    def flag(self, name: str) -> bool:
        return self.raw(name).strip().lower() in TRUE

    def mapping(self, name: str, path: Path) -> dict[str, object]:
        raw = self.raw(name).strip()
        if not raw:
            return {}
        try:
            loaded = typed_value(raw if raw.startswith("{") else "{" + raw + "}")
        except FlowTextError as exc:
            self.built.problems.append((name, str(exc)))
            return {}
        if not isinstance(loaded, dict):
            self.built.problems.append((name, "expected a mapping such as {key: value}"))
            return {}
        for key in loaded:
            self.built.origin[(*path, str(key))] = name
        return {str(k): v for k, v in loaded.items()}

    def put(self, out: dict[str, object], key: str, name: str, path: Path, *, text: bool = False) -> None:
        value = self.value(name, (*path, key), text=text)
        if value is not None:
            out[key] = value

    def rows(self, prefix: str) -> list[int]:
        found = rows_of(self.data, prefix)
        if len(found) > MAX_ROWS:
            self.built.problems.append((prefix, f"too many rows ({len(found)}; at most {MAX_ROWS})"))
            return found[:MAX_ROWS]
        return found


def blank(data: Mapping[str, str], prefix: str) -> bool:
    return not any(v.strip() for k, v in data.items() if k.startswith(prefix + ".") and not k.endswith(ROW_MARK))


__all__ = ["MAX_ROWS", "Reader", "TRUE", "blank"]
