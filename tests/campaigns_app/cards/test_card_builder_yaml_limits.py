"""The card builder's YAML boxes are parsed within the loader's fixed limits (issue 10.2): the "other" box and the
values typed as YAML flow text refuse deep nesting, alias trees, dates that are no dates and huge integers with a
short message beside the field — the save with a 400 and nothing saved, the check (htmx) with the message in the
field's slot — fast, and never a 500."""
from __future__ import annotations

import html
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns_app.models import CgCard
from tests.campaigns_app.card_builder import build_card, validate_card
from tests.campaigns_app.cards.test_cards_pages import load_system
from tests.campaigns_app.conftest import client_for


def alias_tree(levels: int) -> str:
    """``steps:`` naming an alias tree of 10**levels leaves."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + f"\nsteps: *a{levels - 1}\n"


CASES = [
    ("other", "steps: " + "[" * 3000, "nested more than 32 levels deep (at most 32 allowed)"),
    ("other", "steps: " + "[" * 5000, "too long (5007 characters; at most 4000)"),
    ("other", alias_tree(6), "more than 50000 values once aliases (*name) are expanded (at most 50000 allowed)"),
    ("other", "zz: 2001-02-30", "“2001-02-30” looks like a date but is not a real one"),
    ("other", "steps: " + "7" * 3000, "has 3000 digits (at most 15 allowed)"),
    ("rg_charts.0.rows.0.cost", "[" * 3000, "nested more than 32 levels deep (at most 32 allowed)"),
    ("rg_charts.0.rows.0.cost", "[2001-02-30]", "looks like a date but is not a real one"),
    ("rg_charts.0.rows.0.cost", "[" + "9" * 3000 + "]", "has 3000 digits (at most 15 allowed)"),
]


@pytest.fixture
def pl(db: Any) -> None:
    load_system("pl25")


@pytest.mark.parametrize(("field", "value", "expected"), CASES)
def test_saving_a_builder_yaml_value_beyond_the_limits_is_refused_fast_with_a_short_message_and_nothing_is_saved(
    pl: None, alice: User, field: str, value: str, expected: str
) -> None:
    started = time.monotonic()
    response = build_card(client_for(alice), "pl25", {field: value})
    elapsed = time.monotonic() - started
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert expected in page
    assert elapsed < 5, f"refused in {elapsed:.1f} s"
    assert len(response.content) < 200_000, "the message quotes an excerpt, never the whole value"
    assert not CgCard.objects.exists()


@pytest.mark.parametrize(("field", "value", "expected"), CASES)
def test_checking_a_builder_yaml_value_beyond_the_limits_shows_the_message_fast_and_saves_nothing(
    pl: None, alice: User, field: str, value: str, expected: str
) -> None:
    started = time.monotonic()
    response = validate_card(client_for(alice), "pl25", {field: value})
    elapsed = time.monotonic() - started
    page = html.unescape(response.content.decode())
    assert response.status_code == 200  # htmx swaps the answer in: the problem is shown beside its field
    assert expected in page
    assert "Not saved yet" in page
    assert elapsed < 5, f"checked in {elapsed:.1f} s"
    assert len(response.content) < 200_000
    assert not CgCard.objects.exists()
