"""CG Card YAML is parsed within fixed limits (issue 10.2): an alias tree, deep nesting, dates that are no dates and
huge integers are each refused with a 400 and a short, clear message, fast, and nothing is saved."""
from __future__ import annotations

import html
import time

import pytest
from django.contrib.auth.models import User

from campaigns_app.models import CgCard
from rules_engine import yaml_limits
from tests.campaigns_app.cards.test_cards_pages import post_card, systems  # noqa: F401  (the fixture)


def laughs(levels: int) -> str:
    """An alias tree of 10**levels leaves, referenced by ``kind:`` and ``extends:``."""
    lines = ["format: refit-cg/1", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    lines += [f"kind: *a{levels - 1}", f"extends: *a{levels - 1}", "id: laughs", "name: Laughs"]
    return "\n".join(lines) + "\n"


CASES = [
    (laughs(7), "more than 50000 values once aliases (*name) are expanded (at most 50000 allowed)"),
    (laughs(9), "more than 50000 values once aliases (*name) are expanded (at most 50000 allowed)"),
    ("[" * 5000, "nested more than 32 levels deep (at most 32 allowed)"),
    ("".join("  " * i + f"k{i}:\n" for i in range(400)) + "  " * 400 + "v\n",
     "nested more than 32 levels deep (at most 32 allowed)"),
    ("format: refit-cg/1\nkind: cg-card\nextends: pl25\nname: 2001-13-45\n",
     "“2001-13-45” looks like a date but is not a real one"),
    ("format: refit-cg/1\nkind: cg-card\nextends: pl25\nzz: 2001-02-30\n",
     "“2001-02-30” looks like a date but is not a real one"),
    ("format: refit-cg/1\nkind: cg-card\nextends: pl25\nname: x\nid: " + "7" * 5000 + "\n",
     "has 5000 digits (at most 15 allowed)"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_a_card_beyond_the_yaml_limits_is_refused_fast_with_a_short_clear_message_and_nothing_is_saved(
    systems: None, alice: User, text: str, expected: str  # noqa: F811
) -> None:
    started = time.monotonic()
    response = post_card(alice, text)
    elapsed = time.monotonic() - started
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert expected in page
    assert elapsed < 5, f"refused in {elapsed:.1f} s"
    assert len(response.content) < 200_000, "the message quotes an excerpt, never the whole value"
    assert not CgCard.objects.filter(owner=alice).exists()


def test_the_bundled_systems_are_well_within_the_limits() -> None:
    from pathlib import Path

    from django.conf import settings

    for path in sorted(Path(settings.REFIT_FIXTURES_DIR).glob("*.yaml")):
        assert yaml_limits.check(path.read_text(encoding="utf-8")) is None, path.name


def test_an_unknown_kind_quotes_only_an_excerpt_of_a_large_value(systems: None, alice: User) -> None:  # noqa: F811
    big = "format: refit-cg/1\nkind: [" + ", ".join(["averyveryverylongvalue"] * 2000) + "]\nextends: pl25\n"
    response = post_card(alice, big)
    assert response.status_code == 400
    assert len(response.content) < 100_000
    assert not CgCard.objects.filter(owner=alice).exists()


