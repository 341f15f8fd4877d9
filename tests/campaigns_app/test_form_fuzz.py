"""A bounded fuzz of every field of every phase form (issue 10.9): types, signs, sizes, unicode and repeated fields,
posted with and without htmx, never answer 5xx, and a refused post leaves the database unchanged.

Bounded: a fixed seed, a fixed number of posts per form, values of at most 5 000 characters.
"""
from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign, PurchaseRecordLine, RosterLine
from tests.campaigns_app.conftest import client_for, drive, snapshot
from tests.campaigns_app.test_phase_flow import page, players, started

VALUES = ["", "0", "1", "-1", "2", "3", "12", "20", "21", "-0", "+5", " 7 ", "1e3", "0x1f", "3.5", "NaN", "inf",
          "9" * 25, "-" + "9" * 25, "1" * 5000, "١٢", "𝟙", "٣", "Ⅻ", "yes", "no", "on", "true", "attack", "idle",
          "none", "buy", "propose", "concede", "withdraw", "entry", "on-map", "german", "canadian", "<script>x</script>",
          "\x00", "\u202e1", "é" * 300, "null", "[]", "{}", "' OR 1=1 --", "../../etc/passwd", "%00"]

FORMS: dict[str, list[str]] = {
    "phase_order": ["nothing", "qty-I1", "qty-I4", "mode-I4", "pre-O3", "qty-O3", "extra-M3", "qty-M3", "fqty-0",
                    "fopt-0", "fca-0", "fnca-0", "fbase-0", "fqty-1", "fqty-99999", "attack_option", "patrols",
                    "qty-" + "Z" * 300],
    "phase_recon": ["recon", "extra"],
    "phase_roll": ["table", "column", "step", "q-0", "ask-0", "q-1", "ask-1", "q-99999999", "q-x"],
    "phase_board_roll": ["kind", "count", "purpose", "map_group", "at"],
    "phase_scenario_roll": ["roll", "threshold", "turn", "q-0", "ask-0", "map_group"],
    "phase_results": ["cvp-german", "cvp-canadian", "attacked-german", "attacked-canadian", "lvp-german",
                      "lvp-canadian", "leaders_lost-german", "units_lost-canadian", "winner", "map_group"],
    "phase_supply": ["need", "input", "value"],
    "phase_cg_end": ["action", "confirmed", "reason"],
    "phase_done": ["step", "map_group"],
    "chit_confirm": ["side", "chit"],
    "chit_submit": ["side", "chit", "confirmed"],
    "seed_set": ["player_seed"],
}
POSTS_PER_FORM = 14


def any_token(html: str) -> str:
    """A genuine one-time token of one of the page's forms (empty when the page has none)."""
    tokens = re.findall(r'name="token" value="([0-9a-f]+)"', html)
    return tokens[len(tokens) // 2] if tokens else ""


def database_state(campaign: Campaign) -> tuple[Any, ...]:
    return (snapshot(campaign), PurchaseRecordLine.objects.filter(campaign=campaign).count(),
            list(RosterLine.objects.filter(campaign=campaign).order_by("side", "date_id").values()))


def fuzz(campaign: Campaign, user: Any, rng: random.Random) -> int:
    """Post every form POSTS_PER_FORM times with random fields; the number of refused posts."""
    refused = 0
    client = client_for(user)
    for name, fields in FORMS.items():
        url = reverse(name, args=[campaign.public_id])
        for _ in range(POSTS_PER_FORM):
            data: dict[str, Any] = {}
            for field in rng.sample(fields, k=rng.randint(1, len(fields))):
                data[field] = ([rng.choice(VALUES), rng.choice(VALUES)] if rng.random() < 0.2  # a repeated field
                               else rng.choice(VALUES))
            if rng.random() < 0.5:
                data["token"] = any_token(page(user, campaign)) if rng.random() < 0.5 else rng.choice(VALUES)
            headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
            before = database_state(campaign)
            response = client.post(url, data, headers=headers)
            assert response.status_code < 500, (name, data, response.status_code)
            if response.status_code >= 400:
                refused += 1
                assert database_state(campaign) == before, (name, data, response.status_code)
    return refused


@pytest.fixture
def at_19pm_purchase(rr: Any, users: Any) -> Campaign:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.518")
    return campaign


def test_fuzzed_phase_forms_at_a_purchase_step_never_answer_5xx_and_a_refusal_saves_nothing(
    at_19pm_purchase: Campaign, users: Any
) -> None:
    refused = fuzz(at_19pm_purchase, users["gerd"], random.Random(10_1))
    assert refused > len(FORMS) * POSTS_PER_FORM // 2  # the fuzz mostly sends nonsense


def test_fuzzed_phase_forms_at_results_and_initiative_never_answer_5xx_and_a_refusal_saves_nothing(
    rr: Any, users: Any
) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.step == "results")
    fuzz(campaign, users["cana"], random.Random(10_2))
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Second")
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    drive(campaign, players(users), lambda s: s.step == "initiative")
    fuzz(campaign, users["gerd"], random.Random(10_3))
