"""Numbers in a definition fit the records (issue 10.3): an Initial OB SAN is matched by a DR (0–12), an ELR runs 0–5,
and any other whole number is at most 99 999; each refusal names the path and what is allowed."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine import loader
from rules_engine.errors import DefinitionErrors

PHD = (Path(__file__).resolve().parents[3] / "fixtures" / "phd.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("      elr: 3\n      san: 3\n", "      elr: 3\n      san: 13\n", "initial_ob.sides.german.san: 13 is above the maximum (allowed: 12 or less)"),
    ("      elr: 3\n      san: 3\n", "      elr: 3\n      san: -5\n", "initial_ob.sides.german.san: -5 is below the minimum (allowed: 0 or more)"),
    ("      elr: 3\n      san: 3\n", "      elr: 6\n      san: 3\n", "initial_ob.sides.german.elr: 6 is above the maximum (allowed: 5 or less)"),
    ("points: {TP: 20, DSP: 60}", "points: {TP: 2147483648, DSP: 60}",
     "initial_ob.sides.german.points.TP: 2147483648 is above the maximum (allowed: 99999 or less)"),
])
def test_an_initial_ob_number_beyond_the_rules_is_refused_with_its_path_and_range(old: str, new: str,
                                                                                  expected: str) -> None:
    assert old in PHD
    with pytest.raises(DefinitionErrors) as caught:
        loader.parse_system(PHD.replace(old, new, 1), "phd.yaml")
    assert expected in str(caught.value)
