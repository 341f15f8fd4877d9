"""One million committed dice: every face equally likely, coloured and white independent, the DR sum shaped 1/36 … 6/36 … 1/36."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from rules_engine.dice import CommittedDice
from rules_engine.vocabulary import DiceKind

DR_ROLLS = 400_000  # 800,000 dice: 400,000 coloured and 400,000 white
DR1_ROLLS = 200_000  # 200,000 single dice → 1,000,000 dice in all
# Chi-square critical values at significance 0.001 (standard tables): 5, 10 and 35 degrees of freedom.
CRITICAL_5, CRITICAL_10, CRITICAL_35 = 20.515, 29.588, 66.619
# The exact 2d6 distribution, typed by hand: ways to make 2, 3, … 12 out of 36.
WAYS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}


def chi_square(observed: Counter[int] | Counter[tuple[int, int]], expected: dict[object, float]) -> float:
    return sum((observed.get(k, 0) - e) ** 2 / e for k, e in expected.items())  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def rolls() -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    dice = CommittedDice(bytes.fromhex("5e" * 32), "statistics", ("first player", "second player"))
    drs: list[tuple[int, ...]] = []
    ones: list[tuple[int, ...]] = []
    for _ in range(DR_ROLLS // 1000):
        drs.extend(dice.roll(DiceKind.DR, "statistics DR", "canadian").dice for _ in range(1000))
        dice.made.clear()  # keep memory flat; only the dice are needed here
    for _ in range(DR1_ROLLS // 1000):
        ones.extend(dice.roll(DiceKind.dr, "statistics dr", "german", "german").dice for _ in range(1000))
        dice.made.clear()
    return drs, ones


@pytest.mark.slow
def test_a_million_dice_are_fair(rolls: tuple[list[tuple[int, ...]], list[tuple[int, ...]]]) -> None:
    drs, ones = rolls
    assert 2 * len(drs) + len(ones) == 1_000_000
    assert sum(WAYS.values()) == 36
    faces = {f: 0.0 for f in range(1, 7)}
    for name, values, count in [
        ("DR coloured die", Counter(d[0] for d in drs), DR_ROLLS),
        ("DR white die", Counter(d[1] for d in drs), DR_ROLLS),
        ("dr", Counter(d[0] for d in ones), DR1_ROLLS),
    ]:
        assert set(values) == set(faces), name
        statistic = chi_square(values, {f: count / 6 for f in faces})
        assert statistic < CRITICAL_5, f"{name}: chi-square {statistic:.2f} ≥ {CRITICAL_5} over faces {dict(values)}"
    sums = Counter(d[0] + d[1] for d in drs)
    expected_sums: dict[object, float] = {t: float(DR_ROLLS * Fraction(w, 36)) for t, w in WAYS.items()}
    statistic = chi_square(sums, expected_sums)
    assert set(sums) == set(WAYS)
    assert statistic < CRITICAL_10, f"DR sums: chi-square {statistic:.2f} ≥ {CRITICAL_10}: {dict(sums)}"
    pairs = Counter((d[0], d[1]) for d in drs)
    expected_pairs: dict[object, float] = {(c, w): DR_ROLLS / 36 for c in range(1, 7) for w in range(1, 7)}
    statistic = chi_square(pairs, expected_pairs)
    assert statistic < CRITICAL_35, f"coloured×white: chi-square {statistic:.2f} ≥ {CRITICAL_35}"


@pytest.mark.slow
def test_the_fairness_check_would_catch_a_loaded_die() -> None:
    """The same statistic rejects dice drawn with the naive ``b % 6`` over all 256 byte values (1–4 slightly favoured)."""
    loaded = Counter({f: 0 for f in range(1, 7)})
    for b in range(256):
        loaded[b % 6 + 1] += 1_000_000 // 256  # the exact proportions of a million naive dice
    statistic = chi_square(loaded, {f: sum(loaded.values()) / 6 for f in range(1, 7)})
    assert statistic > CRITICAL_5
