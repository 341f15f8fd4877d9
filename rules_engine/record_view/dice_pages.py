"""A page of the dice log, built from its own rolls only: each roll comes with what the whole log would have given it
(the CG Date then, the event the viewer sees right after it, the ``roll-resolved`` completing it), and the log's
tallies come counted by (visibility, owner) — so a page never needs the rest of the log, and gives the same rows."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_engine.events import Event
from rules_engine.history import frozen_map
from rules_engine.model import System
from rules_engine.record_view.dice import DATE_KINDS, ROW_KINDS, resolved_row, roll_row, seen_as
from rules_engine.record_view.model import DiceRow
from rules_engine.vocabulary import SideId, Visibility

ROLL_KIND = "roll"
RESOLVED_KIND = "roll-resolved"
SEEN_AS = ("public", "own", "revealed")

__all__ = ["DATE_KINDS", "RESOLVED_KIND", "ROLL_KIND", "ROW_KINDS", "DicePage", "PagedRoll", "dice_page"]


@dataclass(frozen=True)
class PagedRoll:
    """A roll the viewer may see, with its context in the whole log: ``date`` the CG Date of the last public date
    event before it (with one), ``follower`` the next event the viewer sees, ``resolved`` the last ``roll-resolved`` the
    viewer sees after it for its stream and number (each repeats the whole replayed roll, so the last says it all)."""

    roll: Event
    date: str = ""
    follower: Event | None = None
    resolved: Event | None = None


@dataclass(frozen=True)
class DicePage:
    """One page of the dice log: its rows, in the order made, and the whole log's tallies (public | own | revealed)."""

    rows: tuple[DiceRow, ...]
    tallies: Mapping[str, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tallies", frozen_map(self.tallies))

    def count(self, seen: str) -> int:
        """How many rolls of the whole log are public | own | revealed."""
        return self.tallies.get(seen, 0)


def dice_page(system: System, rolls: Sequence[PagedRoll],
              counted: Mapping[tuple[str, Visibility, SideId | None], int], viewer: SideId) -> DicePage:
    """The page's rows (as ``dice.dice_log`` would make them) and the tallies of the rolls the viewer may see,
    counted by (event kind, visibility, owning side)."""
    rows = []
    for paged in rolls:
        row = roll_row(system, paged.roll, paged.follower, paged.date, viewer)
        rows.append(resolved_row(row, paged.resolved.payload) if paged.resolved is not None else row)
    tallies = dict.fromkeys(SEEN_AS, 0)
    for (kind, visibility, side), n in counted.items():
        tallies[seen_as(visibility, side, viewer, kind)] += n
    return DicePage(tuple(rows), tallies)
