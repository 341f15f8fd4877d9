"""A bounded fuzz of every field of every phase form (issue 10.9): types, signs, sizes, unicode and repeated fields,
posted with and without htmx, never answer 5xx, and a refused post leaves the database unchanged. Every form is
fuzzed at a purchase step, the results and the Initiative; the step forms (declare, first, repair, losses, Recon
Location, done, move order) also where they are reachable: RR 2.524, PL 3.17, 2.7 and 3.46, a KGP scenario (CG14).

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
from tests.campaigns_app.phase.test_phase_flow import page, players, started

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
    "phase_declare": ["rule", "map_group"],
    "phase_first": ["first"],
    "phase_repair": ["threshold", "drm", "purpose"],
    "phase_losses": ["cvp"],
    "phase_recon_location": ["location"],
    "step_done": ["step", "map_group"],
}
POSTS_PER_FORM = 14


def any_token(html: str) -> str:
    """A genuine one-time token of one of the page's forms (empty when the page has none)."""
    tokens = re.findall(r'name="token" value="([0-9a-f]+)"', html)
    return tokens[len(tokens) // 2] if tokens else ""


def database_state(campaign: Campaign) -> tuple[Any, ...]:
    return (snapshot(campaign), PurchaseRecordLine.objects.filter(campaign=campaign).count(),
            list(RosterLine.objects.filter(campaign=campaign).order_by("side", "date_id").values()))


def fuzz(campaign: Campaign, user: Any, rng: random.Random, only: tuple[str, ...] = (),
         values: list[str] = VALUES) -> int:
    """Post every form (or the ``only`` ones) POSTS_PER_FORM times with random fields; the number of refused posts."""
    refused = 0
    client = client_for(user)
    for name, fields in FORMS.items():
        if only and name not in only:
            continue
        url = reverse(name, args=[campaign.public_id])
        for _ in range(POSTS_PER_FORM):
            data: dict[str, Any] = {}
            for field in rng.sample(fields, k=rng.randint(1, len(fields))):
                data[field] = ([rng.choice(values), rng.choice(values)] if rng.random() < 0.2  # a repeated field
                               else rng.choice(values))
            if rng.random() < 0.5:
                data["token"] = any_token(page(user, campaign)) if rng.random() < 0.5 else rng.choice(values)
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
    from tests.campaigns_app.lost_test_values import RR

    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Second",
                                        lost_values=RR)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    drive(campaign, players(users), lambda s: s.step == "initiative")
    fuzz(campaign, users["gerd"], random.Random(10_3))


# The step forms where they are reachable. The values also hold what those forms accept, so some posts succeed.
STEP_FORMS = ("phase_declare", "phase_first", "phase_repair", "phase_losses", "phase_recon_location", "step_done",
              "phase_done")
STEP_VALUES = [*VALUES, "allied", "axis", "malfunctioned", "disabled", "K5", "fanaticism", "4"]
SPARE_DICE = (3,) * 300  # scripted dice for every roll a succeeding fuzzed post makes


def test_fuzzed_step_forms_at_rr_2_524_recon_locations_never_answer_5xx_and_a_refusal_saves_nothing(
    db: Any, monkeypatch: Any
) -> None:
    from tests.campaigns_app.test_campaign_rr_recon import to_2_524

    play = to_2_524(monkeypatch, *SPARE_DICE)
    fuzz(play.campaign, play.users["canadian"], random.Random(10_4), STEP_FORMS, STEP_VALUES)  # not its turn
    fuzz(play.campaign, play.users["german"], random.Random(10_5), STEP_FORMS, STEP_VALUES)


def test_fuzzed_step_forms_at_pl_3_17_losses_never_answer_5xx_and_a_refusal_saves_nothing(
    db: Any, monkeypatch: Any
) -> None:
    from tests.campaigns_app.campaign_script import Play, ScriptedDice
    from tests.campaigns_app.test_campaign_pl25_steps import EXAMPLE_CARD, TO_FIREFIGHT_2

    play = Play(monkeypatch, "pl25", "allied", ScriptedDice(*TO_FIREFIGHT_2, *SPARE_DICE), card=EXAMPLE_CARD)
    play.order("allied")
    play.order("axis")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"allied": 14, "axis": 23}, attacked={"allied": True, "axis": False}, winner="allied")
    play.until("3.17")  # PL 3.17 Encircled Units: each side records the CVP it lost
    fuzz(play.campaign, play.users["axis"], random.Random(10_6), STEP_FORMS, STEP_VALUES)


def test_fuzzed_step_forms_at_pl_2_7_patrol_order_never_answer_5xx_and_a_refusal_saves_nothing(
    db: Any, monkeypatch: Any
) -> None:
    from tests.campaigns_app.test_campaign_pl25_steps import to_firefight_2

    play, _ = to_firefight_2(monkeypatch, 3, 2, 5, 4, *SPARE_DICE)
    play.order("allied", {"type": "attack-option"})
    play.order("axis")
    play.order("allied", {"type": "patrol", "count": 2})
    play.order("axis", {"type": "patrol", "count": 1})
    play.until("2.7")  # PL 2.74: the Axis (the previous Defender) chooses which side resolves its Patrols first
    fuzz(play.campaign, play.users["axis"], random.Random(10_7), STEP_FORMS, STEP_VALUES)


def test_fuzzed_step_forms_at_pl_3_46_repair_never_answer_5xx_and_a_refusal_saves_nothing(
    db: Any, monkeypatch: Any
) -> None:
    from tests.campaigns_app.test_campaign_pl25_steps import to_firefight_2

    play, _ = to_firefight_2(monkeypatch, *SPARE_DICE)
    play.until("3.46")  # PL 3.46 repair drs (Firefight 2 is Idle: its loop runs 3.46)
    fuzz(play.campaign, play.users["allied"], random.Random(10_8), STEP_FORMS, STEP_VALUES)


def test_fuzzed_step_forms_at_a_kgp_scenario_where_fanaticism_is_declared_never_answer_5xx_and_a_refusal_saves_nothing(
    db: Any, monkeypatch: Any
) -> None:
    from tests.campaigns_app.campaign_script import Play, ScriptedDice
    from tests.campaigns_app.test_campaign_kgp_rules import CARD

    play = Play(monkeypatch, "kgp", "german", ScriptedDice(*SPARE_DICE), card=CARD, player_settings={"kgp_cg": "I"})
    play.until("@initial-scenario")  # KGP CG14: the German may declare Fanaticism for the scenario on St
    fuzz(play.campaign, play.users["us"], random.Random(10_9), STEP_FORMS, [*STEP_VALUES, "St"])
    fuzz(play.campaign, play.users["german"], random.Random(10_10), STEP_FORMS, [*STEP_VALUES, "St"])
