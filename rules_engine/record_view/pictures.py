"""The campaign in pictures (issue 13 item 6): per CG Date each side's points available (Start + Replenished, RR 2.518)
and spent, and per scenario each side's CVP amassed and LVP controlled — figures only, from what the viewer may see:
the points from the CG Roster lines as ``visibility`` cut them (an opponent's only where the form makes them public,
all after CG end), the scenario results from the campaign's dated records (agreed by both players: public)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from rules_engine.event_words import side_name
from rules_engine.events import JSON
from rules_engine.history import DateRecord
from rules_engine.model import System
from rules_engine.record_view.text import amount
from rules_engine.vocabulary import SideId

POINTS_FIELDS = frozenset({"start", "replenished", "spent"})  # the CG Roster fields the points chart is drawn from


@dataclass(frozen=True)
class PointsAt:
    """One side's points on one CG Date: available (Start + Replenished) and spent (None: no line for the date)."""

    date: str
    available: Decimal | None
    spent: Decimal | None


@dataclass(frozen=True)
class PointsSeries:
    """One side's points per CG Date reached, in play order."""

    side: SideId
    side_name: str
    you: bool
    dates: tuple[PointsAt, ...]


@dataclass(frozen=True)
class ScenarioFigures:
    """One scenario's agreed figures: CVP amassed and LVP controlled per side (a side without a figure: None)."""

    date: str
    label: str
    cvp: tuple[int | None, ...]
    lvp: tuple[int | None, ...]


@dataclass(frozen=True)
class Pictures:
    """The figures of the roster page's charts as the viewer may see them (sides in the system's order)."""

    currency: str
    sides: tuple[tuple[SideId, str], ...]
    points: tuple[PointsSeries, ...]
    points_hidden: tuple[str, ...]  # the sides whose points the viewer may not see yet (named, never their figures)
    scenarios: tuple[ScenarioFigures, ...]


def points_visible(fields: frozenset[str] | None, own: bool) -> bool:
    """Whether a side's points may be drawn: its own, every side's after CG end (``fields`` None), else only where the
    form makes Start, Replenished and Spent public."""
    return own or fields is None or POINTS_FIELDS <= fields


def points_at(date_id: str, line: Mapping[str, JSON]) -> PointsAt:
    """A CG Roster line's points: available = Start + Replenished (RR 2.518 "Total"), spent = Spent."""
    start, replenished, spent = amount(line.get("start")), amount(line.get("replenished")), amount(line.get("spent"))
    if start is None and replenished is None:
        return PointsAt(date_id, None, spent)
    return PointsAt(date_id, (start or Decimal(0)) + (replenished or Decimal(0)), spent)


def scenario_figures(history: Sequence[DateRecord], sides: Sequence[SideId]) -> tuple[ScenarioFigures, ...]:
    """Each scenario played (not an Idle Date), with its agreed CVP and LVP per side (public: both players agreed)."""
    found = []
    for record in history:
        result = record.result
        if result is None:
            continue
        found.append(ScenarioFigures(
            record.date_id, record.label if record.label and record.label != "initial" else "Initial Scenario",
            tuple(result.cvp.get(side) for side in sides), tuple(result.lvp.get(side) for side in sides)))
    return tuple(found)


def pictures(system: System, history: Sequence[DateRecord], dates: Sequence[str], viewer: SideId,
             lines: Mapping[SideId, Mapping[str, Mapping[str, JSON]]],
             fields: frozenset[str] | None) -> Pictures:
    """The charts' figures for ``viewer``: ``lines`` are the CG Roster lines it may see (the opponent's already cut to
    ``fields``; None after CG end), ``dates`` the CG Dates reached in play order."""
    sides = tuple(s.id for s in system.sides)
    series, hidden = [], []
    for side in sides:
        own = side == viewer
        if not points_visible(fields, own):
            hidden.append(side_name(system, side))
            continue
        side_lines = lines.get(side, {})
        series.append(PointsSeries(side, side_name(system, side), own,
                                   tuple(points_at(date, side_lines.get(date, {})) for date in dates)))
    currency = system.currencies[0].code if system.currencies else "points"
    return Pictures(currency, tuple((s, side_name(system, s)) for s in sides), tuple(series), tuple(hidden),
                    scenario_figures(history, sides))
