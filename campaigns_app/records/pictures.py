"""The campaign in pictures: the roster page's server-drawn SVG charts (no JS) from the figures of the side's
``RecordView`` (rules_engine.record_view.pictures decides what the side may see): points available / spent per CG
Date for each side it may see (a line chart), CVP amassed and LVP controlled per scenario (grouped bar charts).
Each chart comes with its figures as table rows, the same numbers a screen reader reads from the table."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from rules_engine.record_view.pictures import Pictures
from rules_engine.record_view.text import amount_text

WIDTH = 360
HEIGHT = 230
LEFT = 40  # room for the y-axis figures
RIGHT = 12
TOP = 22  # room for the unit above the y axis and a bar's figure
BOTTOM = 52  # room for the slanted date labels
MAX_LABELS = 8  # x-axis labels drawn at most (every n-th date beyond; the table has them all)


@dataclass(frozen=True)
class Tick:
    """A y-axis gridline and its figure."""

    y: float
    text: str


@dataclass(frozen=True)
class Label:
    """An x-axis label (a CG Date), slanted from (x, y)."""

    x: float
    y: float
    text: str


@dataclass(frozen=True)
class Marker:
    """One data point of a line: its place and what it says."""

    x: float
    y: float
    title: str


@dataclass(frozen=True)
class Line:
    """One series of a line chart: its polyline segments (broken where a date has no figure) and markers."""

    name: str
    css: str  # side-0 / side-1 plus available / spent: the colour and the dash
    shape: str  # circle | square
    segments: tuple[str, ...]
    markers: tuple[Marker, ...]


@dataclass(frozen=True)
class Bar:
    """One bar of a grouped bar chart."""

    x: float
    y: float
    width: float
    height: float
    css: str
    title: str
    label_x: float
    label_y: float
    value: str


@dataclass(frozen=True)
class Chart:
    """A chart ready to draw: its id, words, axes and marks, and its figures as table rows."""

    id: str
    title: str
    desc: str
    y_label: str
    ticks: tuple[Tick, ...]
    labels: tuple[Label, ...]
    lines: tuple[Line, ...] = ()
    bars: tuple[Bar, ...] = ()
    head: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    legend: tuple[tuple[str, str, str], ...] = ()  # (words, css, shape)

    @property
    def base_y(self) -> float:
        return HEIGHT - BOTTOM

    @property
    def x_end(self) -> int:
        return WIDTH - RIGHT


def _nice_top(largest: float) -> tuple[float, float]:
    """The y-axis top and step: a round step (1, 2, 5 × 10ⁿ) giving at most five gridlines above 0."""
    if largest <= 0:
        return 1.0, 1.0
    raw = largest / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return step * math.ceil(largest / step), step


def _ticks(top: float, step: float) -> tuple[Tick, ...]:
    count = round(top / step)
    return tuple(Tick(_y(step * i, top), _figure(step * i)) for i in range(count + 1))


def _y(value: float, top: float) -> float:
    return round(TOP + (HEIGHT - BOTTOM - TOP) * (1 - value / top), 1)


def _figure(value: float | Decimal | int | None) -> str:
    """A figure as printed: 28, 4.5; "–" for none."""
    if value is None:
        return "–"
    return amount_text(Decimal(str(value)).normalize() if not isinstance(value, int) else Decimal(value))


def _xs(count: int) -> list[float]:
    """The x of each of ``count`` evenly spaced points (the middle for one)."""
    plot = WIDTH - LEFT - RIGHT
    if count == 1:
        return [LEFT + plot / 2]
    return [round(LEFT + plot * i / (count - 1), 1) for i in range(count)]


def _labels(xs: Sequence[float], texts: Sequence[str]) -> tuple[Label, ...]:
    every = max(1, math.ceil(len(texts) / MAX_LABELS))
    return tuple(Label(x, HEIGHT - BOTTOM + 14, text) for i, (x, text) in enumerate(zip(xs, texts))
                 if i % every == 0 or i == len(texts) - 1)


def points_chart(figures: Pictures) -> Chart | None:
    """Points available (solid line, circles) and spent (dashed line, squares) per CG Date for each side shown."""
    if not figures.points or not figures.points[0].dates:
        return None
    dates = [at.date for at in figures.points[0].dates]
    values = [float(v) for s in figures.points for at in s.dates for v in (at.available, at.spent) if v is not None]
    top, step = _nice_top(max(values, default=0.0))
    xs = _xs(len(dates))
    lines, legend = [], []
    for series in figures.points:
        index = [s for s, _ in figures.sides].index(series.side)
        for what, shape in (("available", "circle"), ("spent", "square")):
            name = f"{series.side_name} {figures.currency} {what}"
            segments: list[list[str]] = [[]]
            markers = []
            for x, at in zip(xs, series.dates):
                value = at.available if what == "available" else at.spent
                if value is None:
                    segments.append([])
                    continue
                y = _y(float(value), top)
                segments[-1].append(f"{x},{y}")
                markers.append(Marker(x, y, f"{name} on {at.date}: {_figure(value)}"))
            css = f"side-{index} {what}"
            lines.append(Line(name, css, shape, tuple(" ".join(s) for s in segments if len(s) > 1), tuple(markers)))
            legend.append((name, css, shape))
    head = ("CG Date", *(f"{s.side_name} {what}" for s in figures.points for what in ("available", "spent")))
    rows = tuple((date, *(_figure(getattr(s.dates[i], what)) for s in figures.points for what in ("available", "spent")))
                 for i, date in enumerate(dates))
    shown = " and ".join(s.side_name for s in figures.points)
    return Chart(
        "chart-points", f"{figures.currency} available and spent per CG Date",
        f"A line chart of the {shown} side's {figures.currency} per CG Date, {dates[0]} to {dates[-1]}: available "
        f"(Start + Replenished) as solid lines with circles, spent as dashed lines with squares.",
        figures.currency, _ticks(top, step), _labels(xs, dates), lines=tuple(lines), head=head, rows=rows,
        legend=tuple(legend))


def bar_chart(figures: Pictures, what: str) -> Chart | None:
    """``what`` (cvp | lvp) per scenario, a bar per side: the first side's filled, the second's hatched."""
    scenarios = figures.scenarios
    if not scenarios:
        return None
    words = {"cvp": "CVP amassed", "lvp": "LVP controlled"}[what]
    per = [getattr(s, what) for s in scenarios]
    shown = [j for j in range(len(figures.sides)) if any(values[j] is not None for values in per)]
    if not shown:  # no side records it (LVP in a system without them)
        return None
    named = [(j, figures.sides[j][1]) for j in shown]  # a side that records none (RR: German LVP) is left out
    top, step = _nice_top(float(max((v for values in per for v in values if v is not None), default=0)))
    plot = WIDTH - LEFT - RIGHT
    slot = plot / len(scenarios)
    width = round(slot * 0.8 / len(named), 1)
    bars = []
    for i, (scenario, values) in enumerate(zip(scenarios, per)):
        for k, (j, name) in enumerate(named):
            value = values[j]
            if value is None:
                continue
            x = round(LEFT + slot * i + slot * 0.1 + width * k, 1)
            y = _y(float(value), top)
            bars.append(Bar(x, y, width, round(HEIGHT - BOTTOM - y, 1), f"side-{j}",
                            f"{name} {words} on {scenario.date}: {value}", round(x + width / 2, 1), round(y - 3, 1),
                            str(value)))
    centres = [round(LEFT + slot * i + slot / 2, 1) for i in range(len(scenarios))]
    dates = [s.date for s in scenarios]
    head = ("Scenario", *(name for _, name in named))
    rows = tuple((f"{s.date} ({s.label})", *(_figure(values[j]) for j, _ in named)) for s, values in zip(scenarios, per))
    sides = " and ".join(name for _, name in named)
    kinds = (f"{named[0][1]} filled bars, {named[-1][1]} hatched bars" if len(named) > 1
             else f"{'filled' if named[0][0] == 0 else 'hatched'} bars")
    return Chart(
        f"chart-{what}", f"{words} per scenario",
        f"A bar chart of the {words} by the {sides} side{'s' if len(named) > 1 else ''} in each scenario played, "
        f"{dates[0]} to {dates[-1]}: {kinds}.",
        what.upper(), _ticks(top, step), _labels(centres, dates), bars=tuple(bars), head=head, rows=rows,
        legend=tuple((name, f"side-{j}", "bar") for j, name in named))


def pictures_context(figures: Pictures | None) -> dict[str, Any]:
    """The roster page's charts and what it says of the sides whose points are hidden."""
    if figures is None:
        return {"charts": [], "points_hidden": ()}
    charts = [points_chart(figures), bar_chart(figures, "cvp"), bar_chart(figures, "lvp")]
    return {"charts": [c for c in charts if c is not None], "points_hidden": figures.points_hidden,
            "chart_width": WIDTH, "chart_height": HEIGHT, "chart_left": LEFT}
