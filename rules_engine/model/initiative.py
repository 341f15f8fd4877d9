"""The sides and the initiative: the chit matrix and the Dual Attack order rolls (RR 2.522, PL 2.41)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import Chit, DiceKind, SideId


@dataclass(frozen=True)
class Side:
    """One of the two sides; ``matrix_role`` places it in the initiative matrix (allied or axis)."""

    id: SideId
    name: str
    nationality: str
    matrix_role: str

    @property
    def short_name(self) -> str:
        """As pages say it: "German"; a side named "… Side" (PL 2.5 "Axis Side") loses the word ("the Axis side")."""
        suffix = " Side"
        return self.name[: -len(suffix)] if self.name.endswith(suffix) and len(self.name) > len(suffix) else self.name


@dataclass(frozen=True)
class OrderRollRow:
    """One row of a Dual Attack set-up or move-order roll: a range of final drs and the side it favours."""

    min: int | None
    max: int | None
    result: SideId
    label: str
    interpreted: bool = False
    verify: bool = False
    note: str | None = None  # how an edge is read (PHD C5.37 "< 3" read as ≤3, as the file's tables read "<")


@dataclass(frozen=True)
class OrderRoll:
    """A dr (or DR) deciding who sets up or moves first in a Dual Attack (RR 2.522/2.525, PL 2.41)."""

    ref: str
    dice: DiceKind
    roller: SideId
    rows: tuple[OrderRollRow, ...]

    def winner(self, final: int) -> OrderRollRow:
        """The row a final roll falls in (beyond the edges: the first or last row)."""
        for row in self.rows:
            if (row.min is None or final >= row.min) and (row.max is None or final <= row.max):
                return row
        return self.rows[0] if self.rows[0].min is not None and final < self.rows[0].min else self.rows[-1]


@dataclass(frozen=True)
class MatrixCell:
    """The outcome of one pair of initiative choices."""

    result: str  # dual-attack | axis-assault | allied-assault | idle
    label: str  # as printed: "Dual Attack", "German Assault", "Idle Date", "Lull Date" …
    setup_first: SideId | None = None
    moves_first: SideId | None = None


@unshadowed
@dataclass(frozen=True)
class Initiative:
    """2.522-style initiative: the choice mode, the 2×2 matrix, chit limits and the Dual Attack rolls."""

    ref: str
    mode: str  # "chit" (free, secret, simultaneous) | "purchase" (Attack Option bought with points)
    matrix: Mapping[tuple[Chit, Chit], MatrixCell]  # key: (axis choice, allied choice)
    chit_limits: Mapping[SideId, int] = field(default_factory=dict)
    chit_limits_ref: str = ""
    initial_counts: bool = False
    dual_attack_setup: OrderRoll | None = None
    dual_attack_move: OrderRoll | None = None
    chosen_at: str | None = None  # the step at which each side seals its chit (PHD C5.31); None: at the initiative step
