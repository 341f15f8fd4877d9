"""Issue 15 item 6: every per-system example card in docs/cg-format.md ("The card per system") loads with the loader
and can start a campaign — the guide's examples are tested, not just shown. A block is marked by its first line,
``# refit-doc-example: <system id>``; each must say it is an EXAMPLE / TEST DATA and set ``example: true``."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaigns_app.cards.selectors import start_blockers
from rules_engine.loader import parse_card, parse_system

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "cg-format.md"
SYSTEMS = ("pl25", "rr", "phd", "er", "kgp")
BLOCK = re.compile(r"^```yaml\n(# refit-doc-example: (\S+)\n.*?)^```", re.S | re.M)


def examples() -> dict[str, str]:
    found: dict[str, str] = {}
    for match in BLOCK.finditer(GUIDE.read_text(encoding="utf-8")):
        assert match.group(2) not in found, f"two example cards for {match.group(2)}"
        found[match.group(2)] = match.group(1)
    return found


def test_the_guide_has_one_marked_example_card_for_each_system() -> None:
    assert sorted(examples()) == sorted(SYSTEMS)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_guides_example_card_loads_and_can_start_a_campaign(system_id: str) -> None:
    text = examples()[system_id]
    head = text.split("format:", 1)[0]
    assert "EXAMPLE" in head and "TEST DATA" in head, "the example must say it is EXAMPLE / TEST DATA before its keys"
    system = parse_system((REPO / "fixtures" / f"{system_id}.yaml").read_text(encoding="utf-8"), f"{system_id}.yaml")
    card = parse_card(text, f"docs/cg-format.md ({system_id} example)", system)
    assert card.id == system_id
    assert start_blockers(card) == []


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_guides_example_card_says_it_is_an_example(system_id: str) -> None:
    assert re.search(r"^example: true$", examples()[system_id], re.M)
    assert re.search(r'^name: ".*(EXAMPLE|TEST DATA)', examples()[system_id], re.M)


@pytest.mark.django_db
@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_guides_example_card_opened_in_the_card_builder_saves_and_can_start_a_campaign(system_id: str) -> None:
    """The browser builder first: the example, opened in the form ("Edit in the form") and saved unchanged, is a card
    the Start a campaign page accepts."""
    from django.contrib.auth.models import User

    from campaigns_app.cards import services as card_services
    from campaigns_app.models import CgCard
    from tests.campaigns_app.card_builder import build_card, card_form
    from tests.campaigns_app.cards.test_cards_pages import load_system
    from tests.campaigns_app.conftest import client_for

    load_system(system_id)
    client = client_for(User.objects.create_user("writer", password="correct-horse-battery-staple-42"))
    response = build_card(client, system_id, {}, start=card_form(system_id, examples()[system_id]))
    assert response.status_code == 302, response.content.decode()[-3000:]
    card = CgCard.objects.get(card_id=f"doc-example-{system_id}")
    assert start_blockers(card_services.card_check(card.text, system_id=system_id).system) == []
