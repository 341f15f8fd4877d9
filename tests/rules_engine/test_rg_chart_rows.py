"""An RG chart's line found by its id: the first line with that id, an unknown id refused naming the ids there are."""
from __future__ import annotations

import pytest

from rules_engine.errors import UnknownNameError
from rules_engine.model import RgChart, RgRow
from rules_engine.model.values import Cell

I1 = RgRow("I1", "I", "Para Inf Coy", Cell(28))
I1_AGAIN = RgRow("I1", "I", "Para Inf Coy (second line)", Cell(30))
M3 = RgRow("M3", "M", "Recon", Cell(3))


def chart(*rows: RgRow) -> RgChart:
    return RgChart("german", "2.518", "German RG Chart", rows)


def test_a_line_is_found_by_its_id_on_its_own_chart() -> None:
    german = chart(I1, M3)
    assert german.row("M3") is M3 and german.row("I1") is I1
    other = chart(M3)  # another chart: its own lines only
    with pytest.raises(UnknownNameError, match=r"unknown RG 'I1' on the German RG Chart \(allowed: M3\)"):
        other.row("I1")


def test_two_lines_with_one_id_give_the_first_as_written() -> None:
    assert chart(I1, I1_AGAIN, M3).row("I1") is I1


def test_an_unknown_id_is_refused_naming_the_ids_there_are() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown RG 'X9' on the German RG Chart \(allowed: I1, M3\)"):
        chart(I1, M3).row("X9")
