"""Dice statistics for a whole CG: counts against what fair dice give, the mean and a chi-square test, per measure.

A DR is two dice, coloured then white (``rolls.Roll``); a dr is one die. The measures: DR totals (2–12, the usual
triangle: 7 six times in 36), the coloured and the white die of the DRs, and the dr (each face 1 time in 6). The test
is Pearson's chi-square goodness of fit; its p-value is how often fair dice are at least this uneven. It is only fair
when every face is expected at least ``MIN_EXPECTED`` times, so smaller samples get counts and a mean, no verdict.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules_engine.dice.rolls import PUBLIC_STREAM, Roll
from rules_engine.vocabulary import DiceKind

MIN_EXPECTED = 5  # Pearson's rule of thumb: every face expected at least 5 times
ITERATIONS = 500  # bound on the series and continued fraction (they converge in far fewer steps)
EPSILON = 1e-15
FACES = (1, 2, 3, 4, 5, 6)
TOTALS = tuple(range(2, 13))


class Measure(StrEnum):
    """What is counted."""

    DR = "DR"
    COLOURED = "coloured die"
    WHITE = "white die"
    SMALL = "dr"


class Scope(StrEnum):
    """Which streams: every roll, the public stream only, or the secret streams only."""

    ALL = "all"
    PUBLIC = "public"
    SECRET = "secret"


@dataclass(frozen=True)
class Sample:
    """One roll as the statistics see it: who rolled, DR or dr, its dice, secret or public, its CG Date."""

    roller: str
    kind: DiceKind
    dice: tuple[int, ...]
    secret: bool
    date: str = ""


@dataclass(frozen=True)
class Distribution:
    """One measure of one group: observed and expected counts per face, the mean, the chi-square test."""

    measure: Measure
    faces: tuple[int, ...]
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    count: int
    mean: float | None
    expected_mean: float
    chi_square: float | None
    degrees: int
    p_value: float | None
    verdict: str

    @property
    def needed(self) -> int:
        """How many rolls a fair test needs (every face expected at least MIN_EXPECTED times)."""
        smallest = min(share(self.measure, face) for face in self.faces)
        return math.ceil(MIN_EXPECTED / smallest - 1e-9)


@dataclass(frozen=True)
class Group:
    """One roller (or both sides together) and its four measures."""

    label: str
    count: int
    distributions: tuple[Distribution, ...]


def share(measure: Measure, face: int) -> float:
    """The share of rolls fair dice give ``face`` (DR total 7: 6/36; any die face: 1/6)."""
    if measure is Measure.DR:
        return (6 - abs(7 - face)) / 36
    return 1 / 6


def faces_of(measure: Measure) -> tuple[int, ...]:
    """The faces a measure counts."""
    return TOTALS if measure is Measure.DR else FACES


def values_of(measure: Measure, samples: Iterable[Sample]) -> list[int]:
    """The values a measure counts, from the rolls that have it (a malformed roll counts nowhere)."""
    values: list[int] = []
    for sample in samples:
        dice = sample.dice
        if sample.kind is DiceKind.DR and len(dice) == 2 and all(d in FACES for d in dice):
            value = {Measure.DR: dice[0] + dice[1], Measure.COLOURED: dice[0], Measure.WHITE: dice[1]}.get(measure)
            if value is not None:
                values.append(value)
        elif sample.kind is DiceKind.dr and measure is Measure.SMALL and len(dice) == 1 and dice[0] in FACES:
            values.append(dice[0])
    return values


def chi_square_sf(statistic: float, degrees: int) -> float:
    """P(X ≥ statistic) for a chi-square distribution with ``degrees`` degrees of freedom."""
    if degrees < 1:
        raise ValueError(f"degrees of freedom must be at least 1 (got {degrees})")
    if statistic <= 0:
        return 1.0
    return upper_gamma_regularized(degrees / 2, statistic / 2)


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): a series below a + 1, a continued fraction (Lentz) above."""
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(ITERATIONS):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * EPSILON:
                break
        return min(1.0, max(0.0, 1.0 - total * front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < EPSILON:
            break
    return min(1.0, max(0.0, front * h))


def verdict(p_value: float | None, count: int, needed: int) -> str:
    """The test in a player's words."""
    if count == 0:
        return "No rolls yet."
    if p_value is None:
        more = needed - count
        return f"Too few rolls for a fair test: {needed} are needed, {more} more to go."
    if p_value >= 0.05:
        return "Nothing unusual: fair dice are often this uneven."
    times = f"{round(1 / p_value):,}" if p_value >= 0.001 else "1,000"
    if p_value >= 0.01:
        return f"Somewhat unusual: fair dice are at least this uneven about 1 time in {times}."
    if p_value >= 0.001:
        return f"Unusual: fair dice are at least this uneven about 1 time in {times}."
    return "Very unusual: fair dice are at least this uneven less than 1 time in 1,000."


def distribution(measure: Measure, samples: Iterable[Sample]) -> Distribution:
    """One measure's counts, mean and chi-square test."""
    faces = faces_of(measure)
    values = values_of(measure, samples)
    count = len(values)
    observed = tuple(values.count(face) for face in faces)
    expected = tuple(count * share(measure, face) for face in faces)
    expected_mean = sum(face * share(measure, face) for face in faces)
    mean = sum(values) / count if count else None
    degrees = len(faces) - 1
    statistic: float | None = None
    p_value: float | None = None
    smallest = min(share(measure, face) for face in faces)
    needed = math.ceil(MIN_EXPECTED / smallest - 1e-9)
    if count >= needed:
        statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
        p_value = chi_square_sf(statistic, degrees)
    return Distribution(measure, faces, observed, expected, count, mean, expected_mean, statistic, degrees, p_value,
                        verdict(p_value, count, needed))


def in_scope(sample: Sample, scope: Scope) -> bool:
    """Whether a roll belongs to the scope (public or secret streams)."""
    return scope is Scope.ALL or sample.secret == (scope is Scope.SECRET)


def group(label: str, samples: Sequence[Sample]) -> Group:
    """A group's four measures."""
    return Group(label, len(samples), tuple(distribution(measure, samples) for measure in Measure))


def statistics(samples: Sequence[Sample], rollers: Sequence[str], scope: Scope = Scope.ALL,
               date: str | None = None) -> tuple[Group, ...]:
    """Each roller's group, then both together, over the rolls in ``scope`` (and of one CG Date when given)."""
    chosen = [s for s in samples if in_scope(s, scope) and (date is None or s.date == date)]
    groups = [group(roller, [s for s in chosen if s.roller == roller]) for roller in rollers]
    return (*groups, group("Both sides", chosen))


def samples_of_rolls(rolls: Iterable[Roll]) -> list[Sample]:
    """The export's rolls (refit-dice/1) as samples: a roll on a side's stream is secret."""
    return [Sample(str(roll.roller), roll.kind, tuple(roll.dice), roll.stream != PUBLIC_STREAM) for roll in rolls]


def figures_text(groups: Sequence[Group]) -> list[str]:
    """The statistics as lines of text (the offline verifier prints the same figures as the page)."""
    lines: list[str] = []
    for found in groups:
        lines.append(f"{found.label}: {found.count} roll{'' if found.count == 1 else 's'}")
        for dist in found.distributions:
            if not dist.count:
                continue
            counts = " ".join(f"{face}:{seen}" for face, seen in zip(dist.faces, dist.observed))
            mean = f"mean {dist.mean:.2f} (fair {dist.expected_mean:.2f})" if dist.mean is not None else ""
            test = (f"chi-square {dist.chi_square:.2f}, {dist.degrees} df, p = {dist.p_value:.3f}"
                    if dist.chi_square is not None and dist.p_value is not None else "no test")
            lines.append(f"  {dist.measure} ×{dist.count}: {counts}; {mean}; {test}. {dist.verdict}")
    return lines
