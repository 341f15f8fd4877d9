"""The dice statistics page: the side's dice log (what rules_engine.record_view lets it see: public rolls and its own
secret rolls; everything after CG end) counted per roller and measure, with server-drawn SVG bar charts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns_app.models import Seat
from campaigns_app.records import door as record_door
from campaigns_app.records.door import RecordPart
from rules_engine.dice.stats import Distribution, Scope, statistics
from rules_engine.record_view import dice_samples

CHART_WIDTH = 320
CHART_HEIGHT = 150
AXIS = 20  # room under the bars for the faces
TOP = 14  # room above the tallest bar for its count
SCOPE_WORDS = {Scope.ALL: "All rolls", Scope.PUBLIC: "Public rolls", Scope.SECRET: "Secret rolls"}


class StatsQueryError(ValueError):
    """A scope or CG Date the page does not offer."""


@dataclass(frozen=True)
class Bar:
    """One face of a chart: its bar (observed) and the line fair dice would reach (expected), in SVG units."""

    face: int
    observed: int
    expected: str
    x: float
    width: float
    y: float
    height: float
    expected_y: float
    label_x: float
    x_end: float
    count_y: float


def chart(dist: Distribution) -> list[Bar]:
    """The bars of one distribution, scaled to the taller of the observed and expected counts."""
    slots = len(dist.faces)
    slot = CHART_WIDTH / slots
    tallest = max([*dist.observed, *dist.expected, 1])
    plot = CHART_HEIGHT - AXIS - TOP
    bars = []
    for index, (face, seen, fair) in enumerate(zip(dist.faces, dist.observed, dist.expected)):
        height = plot * seen / tallest
        bars.append(Bar(face, seen, f"{fair:.1f}", round(index * slot + slot * 0.15, 1), round(slot * 0.7, 1),
                        round(TOP + plot - height, 1), round(height, 1), round(TOP + plot - plot * fair / tallest, 1),
                        round(index * slot + slot / 2, 1), round(index * slot + slot * 0.85, 1),
                        round(TOP + plot - height - 3, 1)))
    return bars


def parse_query(scope_text: str, date_text: str, dates: list[str]) -> tuple[Scope, str | None]:
    """The page's choices from the query string (StatsQueryError saying what is allowed)."""
    try:
        scope = Scope(scope_text or Scope.ALL.value)
    except ValueError:
        allowed = ", ".join(s.value for s in Scope)
        raise StatsQueryError(f"Unknown scope {scope_text[:40]!r}: choose one of {allowed}.") from None
    if date_text and date_text not in dates:
        allowed = ", ".join(dates) or "none yet"
        raise StatsQueryError(f"No rolls on CG Date {date_text[:40]!r}: choose the whole campaign or one of {allowed}.")
    return scope, date_text or None


def stats_context(seat: Seat, scope_text: str = "", date_text: str = "") -> dict[str, Any]:
    """Counts, means, chi-square tests and charts of the rolls the side may see (StatsQueryError for bad choices)."""
    view = record_door.record_view(seat.campaign, seat.side, (RecordPart.DICE,))
    if view.dice is None:
        raise ValueError("record view part not built")
    samples = dice_samples(view.dice)
    dates = list(dict.fromkeys(sample.date for sample in samples if sample.date))
    scope, date = parse_query(scope_text, date_text, dates)
    rollers = list(dict.fromkeys([view.side_name, view.opponent_name, *(sample.roller for sample in samples)]))
    groups = [
        {"label": group.label, "count": group.count,
         "distributions": [{"dist": dist, "bars": chart(dist), "id": f"g{index}-{dist.measure.name.lower()}"}
                           for dist in group.distributions if dist.count]}
        for index, group in enumerate(statistics(samples, rollers, scope, date))
    ]
    return {
        "campaign": seat.campaign, "seat": seat, "ended": view.ended, "side_name": view.side_name,
        "opponent_name": view.opponent_name, "date": view.date, "nav": "stats",
        "groups": groups, "dates": dates, "chosen_date": date or "", "scope": scope.value,
        "scopes": [(s.value, SCOPE_WORDS[s]) for s in Scope], "roll_count": len(samples),
        "chart_width": CHART_WIDTH, "chart_height": CHART_HEIGHT, "axis_y": CHART_HEIGHT - AXIS + 14,
        "base_y": CHART_HEIGHT - AXIS,
    }
