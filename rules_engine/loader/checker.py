"""Generic checks: every problem is recorded with its path, and parsing goes on so one pass reports all."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from rules_engine.errors import DefinitionError
from rules_engine.loader.words import ID_PATTERN, INTEGER_MAX
from rules_engine.model import Cell, CellValue, DiceTable, MapGroup, Setting
from rules_engine.vocabulary import Provenance


def kind_of(value: object) -> str:
    """What a YAML value is, in words, for a problem (a YAML boolean gets a hint to quote it)."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return (
            f"the YAML boolean {str(value).lower()} (YAML reads yes/no/on/off/true/false as booleans; "
            "quote the text, e.g. \"no\")"
        )
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


class Checker:
    """Collects DefinitionErrors for one file."""

    def __init__(self, filename: str) -> None:
        self.file = filename
        self.errors: list[DefinitionError] = []

    def error(self, path: str, problem: str, allowed: str | None = None) -> None:
        self.errors.append(DefinitionError(self.file, path, problem, allowed))

    # -- shapes -------------------------------------------------------------------------------------------------------

    def mapping(
        self, value: object, path: str, required: Iterable[str] = (), optional: Iterable[str] = ()
    ) -> dict[str, object] | None:
        """A mapping with only the allowed keys (all required ones present), else None."""
        required = tuple(required)
        allowed = required + tuple(k for k in optional if k not in required)
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping with keys {', '.join(allowed)}, got {kind_of(value)}")
            return None
        result: dict[str, object] = {}
        for key, item in value.items():
            name = str(key).lower() if isinstance(key, bool) else str(key)
            if name not in allowed:
                self.error(join_path(path, name), f"unknown key {name!r}", ", ".join(allowed))
                continue
            result[name] = item
        for key in required:
            if key not in result:
                self.error(path, f"missing required key {key!r}")
        return result

    def entries(
        self, value: object, path: str, required: tuple[str, ...], optional: tuple[str, ...] = (), label: str | None = None
    ) -> Iterator[tuple[str, dict[str, object]]]:
        """Each mapping of a list that has all its required keys, with its path (``[<label key>]`` when usable, else ``[i]``)."""
        for i, item in enumerate(self.seq(value, path)):
            p = f"{path}{item_label(item, i, label)}" if label else f"{path}[{i}]"
            m = self.mapping(item, p, required, optional)
            if m is not None and all(key in m for key in required):
                yield p, m

    def seq(self, value: object, path: str) -> list[object]:
        """A list (an empty list when the value is not one, after recording the problem)."""
        if isinstance(value, list):
            return value
        self.error(path, f"expected a list, got {kind_of(value)}")
        return []

    def text(self, value: object, path: str, *, numbers: bool = False, empty: bool = False) -> str | None:
        """Text (numbers accepted and turned into text where a label is expected)."""
        if isinstance(value, str):
            if not value.strip() and not empty:
                self.error(path, "empty text")
                return None
            return value
        if numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.error(path, f"expected text, got {kind_of(value)}")
        return None

    def ident(self, value: object, path: str, what: str = "id", pattern: re.Pattern[str] = ID_PATTERN) -> str | None:
        """A short id: lower-case letters, digits, hyphens."""
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if not pattern.match(text):
            self.error(path, f"bad {what} {text!r}", "lower-case letters, digits and hyphens, e.g. cp-replenishment")
            return None
        return text

    def integer(self, value: object, path: str, minimum: int | None = None,
                maximum: int = INTEGER_MAX) -> int | None:
        """A whole number (not a boolean), at most ``maximum`` (every count a card gives fits the records)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"expected a whole number, got {kind_of(value)}")
            return None
        if minimum is not None and value < minimum:
            self.error(path, f"{value} is below the minimum", f"{minimum} or more")
            return None
        if value > maximum:
            self.error(path, f"{value} is above the maximum", f"{maximum} or less")
            return None
        return value

    def number(self, value: object, path: str) -> int | float | None:
        """A number (whole or decimal)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(path, f"expected a number, got {kind_of(value)}")
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        """true or false."""
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, got {kind_of(value)}")
            return None
        return value

    def choice(self, value: object, path: str, choices: Iterable[str]) -> str | None:
        """One of a fixed set of words."""
        choices = tuple(choices)
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if text not in choices:
            self.error(path, f"unknown value {text!r}", ", ".join(choices))
            return None
        return text

    def texts(self, value: object, path: str, *, numbers: bool = True) -> tuple[str, ...]:
        """A list of texts."""
        out = []
        for i, item in enumerate(self.seq(value, path)):
            text = self.text(item, f"{path}[{i}]", numbers=numbers)
            if text is not None:
                out.append(text)
        return tuple(out)

    def refs(self, value: object, path: str, known: Iterable[str], what: str) -> tuple[str, ...]:
        """A list of references that must all name known things."""
        known = tuple(known)
        out = []
        for i, text in enumerate(self.texts(value, path)):
            if text not in known:
                self.error(f"{path}[{i}]", f"unknown {what} {text!r}", ", ".join(known) or "none defined")
            else:
                out.append(text)
        return tuple(out)

    def ref(self, value: object, path: str, known: Iterable[str], what: str) -> str | None:
        """One reference to a known thing."""
        known = tuple(known)
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if text not in known:
            self.error(path, f"unknown {what} {text!r}", ", ".join(known) or "none defined")
            return None
        return text

    def unique(self, ids: Iterable[tuple[str, str]], what: str) -> None:
        """Report ids used twice (pairs of (path, id))."""
        seen: dict[str, str] = {}
        for path, ident in ids:
            if ident in seen:
                self.error(path, f"duplicate {what} {ident!r} (first used at {seen[ident]})")
            else:
                seen[ident] = path

    # -- values with provenance ---------------------------------------------------------------------------------------

    def plain(self, value: object, path: str) -> CellValue | None:
        """A printed value: a number, a text, or a list of texts (a leader list)."""
        if isinstance(value, bool):
            self.error(path, f"expected a value as printed, got {kind_of(value)}")
            return None
        if isinstance(value, (int, float, str)):
            if isinstance(value, str) and not value.strip():
                self.error(path, "empty text; write \"-\" for a printed dash or {missing: …} for a lost value")
                return None
            return value
        if isinstance(value, list):
            items = []
            for i, item in enumerate(value):
                text = self.text(item, f"{path}[{i}]", numbers=True)
                if text is not None:
                    items.append(text)
            return tuple(items)
        self.error(
            path,
            f"expected a value as printed (number, text or list), got {kind_of(value)}",
            "25, 9-2, Plentiful, [10-3, 9-1, 8-1], {value: …, as_written: …, interpreted: …}, {missing: …}",
        )
        return None

    def cell(self, value: object, path: str) -> Cell | None:
        """A legible, interpreted or missing value (docs/cg-format.md "Values and provenance")."""
        if not isinstance(value, dict):
            plain = self.plain(value, path)
            return None if plain is None else Cell(plain)
        if "missing" in value:
            m = self.mapping(value, path, ("missing",), ("verify",))
            if m is None:
                return None
            note = self.text(m["missing"], join_path(path, "missing"))
            return Cell(None, Provenance.MISSING, note=note or "lost", verify=bool(m.get("verify", False)))
        m = self.mapping(value, path, ("value",), ("as_written", "interpreted", "verify", "note"))
        if m is None:
            return None
        plain = self.plain(m["value"], join_path(path, "value"))
        verify = self.boolean(m["verify"], join_path(path, "verify")) if "verify" in m else False
        note = self.text(m["note"], join_path(path, "note")) if "note" in m else None
        if "interpreted" in m or "as_written" in m:
            if "interpreted" not in m:
                self.error(path, "an interpreted value needs `interpreted:` (why it was read so)")
            if "as_written" not in m:
                self.error(path, "an interpreted value needs `as_written:` (the text exactly as printed)")
            as_written = (
                self.text(m["as_written"], join_path(path, "as_written"), numbers=True) if "as_written" in m else None
            )
            why = self.text(m["interpreted"], join_path(path, "interpreted")) if "interpreted" in m else None
            reason = "; ".join(part for part in (why, note) if part) or None
            if plain is None:
                return None
            return Cell(plain, Provenance.INTERPRETED, as_written=as_written, note=reason, verify=bool(verify))
        if plain is None:
            return None
        return Cell(plain, note=note, verify=bool(verify))

    def int_cell(self, value: object, path: str) -> Cell | None:
        """A value that must be a number when it is not missing."""
        cell = self.cell(value, path)
        if cell is not None and cell.value is not None and (
            isinstance(cell.value, bool) or not isinstance(cell.value, (int, float))
        ):
            self.error(path, f"expected a number, got {kind_of(cell.value)}")
            return None
        return cell

    def keyed_cells(
        self, value: object, path: str, known: Iterable[str] | None, what: str, shape: str
    ) -> dict[str, Cell]:
        """A mapping of known keys (all keys when ``known`` is None) to numbers or missing values."""
        out: dict[str, Cell] = {}
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping of {shape}, got {kind_of(value)}")
            return out
        allowed = None if known is None else tuple(known)
        for key, amount in value.items():
            name = str(key)
            if allowed is not None and name not in allowed:
                self.error(f"{path}.{name}", f"unknown {what} {name!r}", ", ".join(allowed))
                continue
            cell = self.int_cell(amount, f"{path}.{name}")
            if cell is not None:
                out[name] = cell
        return out

    def keyed_texts(self, value: object, path: str, shape: str) -> dict[str, str]:
        """A mapping of marks to texts (note marks and their notes)."""
        out: dict[str, str] = {}
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping of {shape}, got {kind_of(value)}")
            return out
        for key, text in value.items():
            t = self.text(text, f"{path}.{key}")
            if t:
                out[str(key)] = t
        return out


def join_path(path: str, key: str) -> str:
    """A key's path under ``path`` (the key alone at the top level)."""
    return f"{path}.{key}" if path else key


def item_label(item: object, index: int, key: str = "id") -> str:
    """`[cp-replenishment]` when the item has a usable id, else `[2]`."""
    if isinstance(item, dict):
        ident = item.get(key)
        if isinstance(ident, str) and ident.strip() and not any(c in ident for c in "[]"):
            return f"[{ident}]"
    return f"[{index}]"


class Context:
    """What later parts may refer to."""

    def __init__(self) -> None:
        self.side_ids: tuple[str, ...] = ()
        self.nationalities: tuple[str, ...] = ()
        self.tables: dict[str, DiceTable] = {}
        self.step_refs: tuple[str, ...] = ()
        self.settings: dict[str, Setting] = {}
        self.currency_codes: tuple[str, ...] = ()
        self.calendar_ids: tuple[str, ...] = ()
        self.map_groups: tuple[MapGroup, ...] = ()

    @property
    def map_group_ids(self) -> tuple[str, ...]:
        return tuple(group.id for group in self.map_groups)
