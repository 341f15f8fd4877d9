"""The whole-CG dice statistics (rules_engine.dice.stats) against figures computed by hand from fixed roll lists."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest

from rules_engine.cli import main
from rules_engine.dice import CommittedDice, export_rolls
from rules_engine.dice.stats import Measure, Sample, Scope, chi_square_sf, distribution, statistics
from rules_engine.vocabulary import DiceKind

DR, dr = DiceKind.DR, DiceKind.dr


def small(faces: list[int], roller: str = "Canadian", secret: bool = False, date: str = "19 PM") -> list[Sample]:
    return [Sample(roller, dr, (face,), secret, date) for face in faces]


@pytest.mark.parametrize(("statistic", "degrees", "p"), [
    (11.070, 5, 0.05), (15.086, 5, 0.01), (18.307, 10, 0.05), (23.209, 10, 0.01),  # standard chi-square tables
    (2.0, 2, 0.367879),  # two degrees of freedom: e^(-x/2) = e^-1
    (10.0, 5, 0.075235),  # 2(1 - Φ(√10)) + √(2/π) e^-5 (√10 + 10^1.5 / 3), worked by hand
])
def test_chi_square_tail_matches_the_tables(statistic: float, degrees: int, p: float) -> None:
    assert chi_square_sf(statistic, degrees) == pytest.approx(p, abs=1e-4)


def test_thirty_even_dr_are_nothing_unusual() -> None:
    dist = distribution(Measure.SMALL, small([1, 2, 3, 4, 5, 6] * 5))

    assert dist.observed == (5, 5, 5, 5, 5, 5)
    assert dist.mean == 3.5 and dist.chi_square == 0.0 and dist.p_value == 1.0 and dist.degrees == 5
    assert dist.verdict == "Nothing unusual: fair dice are often this uneven."


def test_a_lopsided_dr_sample_has_its_hand_computed_chi_square() -> None:
    # 10 ones, 5 each of 2–5, no six: expected 5 each; (5² + 0 + 0 + 0 + 0 + 5²) / 5 = 10
    dist = distribution(Measure.SMALL, small([1] * 10 + [2, 3, 4, 5] * 5))

    assert dist.observed == (10, 5, 5, 5, 5, 0)
    assert dist.chi_square == pytest.approx(10.0)
    assert dist.mean == pytest.approx(80 / 30)
    assert dist.p_value == pytest.approx(0.0752, abs=1e-4)
    assert dist.verdict.startswith("Nothing unusual")


def test_thirty_sixes_are_very_unusual() -> None:
    # expected 5 each: five empty faces (0 − 5)² / 5 = 5 each, the six (30 − 5)² / 5 = 125: 25 + 125 = 150
    dist = distribution(Measure.SMALL, small([6] * 30))

    assert dist.chi_square == pytest.approx(150.0)
    assert dist.verdict == "Very unusual: fair dice are at least this uneven less than 1 time in 1,000."


def test_a_small_sample_gets_counts_and_a_mean_but_no_verdict() -> None:
    dist = distribution(Measure.SMALL, small([6, 6, 1]))

    assert dist.count == 3 and dist.mean == pytest.approx(13 / 3)
    assert dist.p_value is None and dist.chi_square is None
    assert dist.verdict == "Too few rolls for a fair test: 30 are needed, 27 more to go."


def test_every_dr_combination_once_gives_the_fair_triangle_and_even_coloured_and_white_dice() -> None:
    samples = [Sample("German", DR, (c, w), True) for c in range(1, 7) for w in range(1, 7)]

    totals = distribution(Measure.DR, samples)
    assert totals.faces == (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    assert totals.observed == (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)
    assert totals.mean == 7.0
    assert totals.verdict == "Too few rolls for a fair test: 180 are needed, 144 more to go."
    coloured = distribution(Measure.COLOURED, samples)
    assert coloured.observed == (6,) * 6 and coloured.p_value == 1.0
    assert distribution(Measure.WHITE, samples).observed == (6,) * 6


def test_groups_split_by_roller_scope_and_date() -> None:
    samples = [*small([1, 2], "Canadian"), *small([3], "German", secret=True),
               *small([4], "German", date="20 AM"), Sample("German", DR, (2, 5), False, "20 AM")]

    everyone = statistics(samples, ["Canadian", "German"])
    assert [(g.label, g.count) for g in everyone] == [("Canadian", 2), ("German", 3), ("Both sides", 5)]
    secret = statistics(samples, ["Canadian", "German"], Scope.SECRET)
    assert [g.count for g in secret] == [0, 1, 1]
    dated = statistics(samples, ["Canadian", "German"], Scope.PUBLIC, "20 AM")
    both = dated[2]
    assert both.count == 2
    assert [(d.measure, d.observed) for d in both.distributions if d.count] == [
        (Measure.DR, (0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0)), (Measure.COLOURED, (0, 1, 0, 0, 0, 0)),
        (Measure.WHITE, (0, 0, 0, 0, 1, 0)), (Measure.SMALL, (0, 0, 0, 1, 0, 0))]


def test_a_malformed_roll_counts_nowhere() -> None:
    samples = [Sample("German", DR, (7, 1), False), Sample("German", dr, (0,), False), Sample("German", DR, (3,), False)]

    assert all(distribution(measure, samples).count == 0 for measure in Measure)


def test_the_offline_verifier_prints_the_statistics_of_a_verified_export(tmp_path: Path) -> None:
    seed = bytes.fromhex("11" * 32)
    dice = CommittedDice(seed, "stats-test", ("alpha", "beta"))
    rolls = [dice.roll(dr, "test dr", "german", "german") for _ in range(3)]
    rolls.append(dice.roll(DR, "test DR", "canadian"))
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(export_rolls(seed, "stats-test", ["alpha", "beta"], rolls)))
    out, err = StringIO(), StringIO()

    assert main(["verify-dice", str(path), "--stats"], out, err) == 0

    text = out.getvalue()
    assert text.startswith("all 4 rolls verified\n")
    assert "\nall rolls\ncanadian: 1 roll\n" in text and "german: 3 rolls" in text and "Both sides: 4 rolls" in text
    faces = [r.dice[0] for r in rolls[:3]]
    counts = " ".join(f"{face}:{faces.count(face)}" for face in range(1, 7))
    assert f"  dr ×3: {counts}; mean {sum(faces) / 3:.2f} (fair 3.50); no test. Too few rolls" in text
    assert "\nsecret rolls\ncanadian: 0 rolls\ngerman: 3 rolls\n" in text
