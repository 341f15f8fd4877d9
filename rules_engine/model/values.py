"""Values with provenance: legible, interpreted or missing (docs/cg-format.md "Values and provenance")."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from rules_engine.errors import MissingValueError
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import Provenance

Scalar: TypeAlias = int | float | str
CellValue: TypeAlias = int | float | str | tuple[str, ...]
SettingValue: TypeAlias = int | str | bool
JSONScalar: TypeAlias = str | int | float | bool | None

VERIFY_NOTE = "verify against your printed chart"


def value_text(value: CellValue) -> str:
    """A value as printed: ``25``, ``1.5``, ``9-2``, ``10-3, 9-1, 8-1``."""
    if isinstance(value, tuple):
        return ", ".join(value)
    return str(value)


@unshadowed
@dataclass(frozen=True)
class Cell:
    """One value from a rule text: legible, interpreted (keeping ``as_written``) or missing (``value`` is None)."""

    value: CellValue | None
    provenance: Provenance = Provenance.LEGIBLE
    as_written: str | None = None
    note: str | None = None  # interpreted: why it was read so; missing: what is lost; supplied: who supplied it
    verify: bool = False  # the catalog flags it ⚠: "verify against your printed chart"
    supplied: bool = False  # filled in by a CG Card `supply:` entry

    @property
    def missing(self) -> bool:
        """True when the value is lost in the rule text and nobody has supplied it."""
        return self.provenance is Provenance.MISSING

    @property
    def text(self) -> str:
        """The value as printed (``""`` for a missing value)."""
        return "" if self.value is None else value_text(self.value)

    @property
    def number(self) -> int | float:
        """The value as a number (MissingValueError when lost, ValueError when it is text)."""
        if self.value is None:
            raise MissingValueError(f"the value is lost ({self.note})")
        if isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            raise ValueError(f"{self.text!r} is not a number")
        return self.value

    @property
    def caution(self) -> str | None:
        """What a user should be told about this value, or None for a plain legible value."""
        parts: list[str] = []
        if self.provenance is Provenance.INTERPRETED:
            parts.append(f"interpreted from {self.as_written!r}" + (f" ({self.note})" if self.note else ""))
        elif self.supplied and self.note:
            parts.append(self.note)
        if self.verify:
            parts.append(VERIFY_NOTE)
        return "; ".join(parts) or None


def legible(value: CellValue) -> Cell:
    """A plainly printed value."""
    return Cell(value)
