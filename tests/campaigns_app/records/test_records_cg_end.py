"""CG end: concession and mutual agreement with a confirm step, the victor per the system, the full reveal, the dice
verification against the commitment, and the seed kept on the server (pages, export, admin) until then."""
from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app.models import Campaign, EventRecord
from rules_engine import dice as engine_dice
from tests.campaigns_app.conftest import client_for, snapshot
from tests.campaigns_app.records.test_records_support import create_rr, play

PAGES_BEFORE_END = [
    "campaign_detail", "campaign_history", "records_roster", "records_roster_csv", "records_purchases",
    "records_purchases_csv", "records_dice", "records_dice_csv", "records_cg_end", "records_verify",
]


@pytest.fixture
def midgame(rr: Any, users: Any) -> Campaign:
    return play(create_rr(users["gerd"], users["cana"]), until_date=3, buy_on={1}).campaign


@pytest.fixture
def finished(rr: Any, users: Any) -> Campaign:
    """An RR CG played to its last date (26 AM): the CG ends by itself."""
    return play(create_rr(users["gerd"], users["cana"]), until_date=12, buy_on={1}, to_end=True).campaign


def _page(user: Any, name: str, campaign: Campaign) -> Any:
    return client_for(user).get(reverse(name, args=[campaign.public_id]))


# ------------------------------------------------------------------------------------------------- the seed


@pytest.mark.parametrize("player", ["gerd", "cana"])
def test_the_dice_export_is_404_before_cg_end_for_both_players(midgame: Campaign, users: Any, player: str) -> None:
    response = _page(users[player], "records_dice_export", midgame)

    assert response.status_code == 404
    assert midgame.dice_seed not in response.content.decode()


@pytest.mark.parametrize("player", ["gerd", "cana"])
def test_the_seed_is_on_no_page_or_export_before_cg_end(midgame: Campaign, users: Any, player: str) -> None:
    for name in PAGES_BEFORE_END:
        response = _page(users[player], name, midgame)
        assert response.status_code == 200, name
        assert midgame.dice_seed not in response.content.decode(), name
    assert midgame.seed_commitment in _page(users[player], "records_verify", midgame).content.decode()


def test_the_admin_never_shows_the_seed_even_to_staff_who_play(midgame: Campaign, users: Any) -> None:
    staff = users["gerd"]
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = client_for(staff)

    change = client.get(reverse("admin:campaigns_app_campaign_change", args=[midgame.pk]))
    listing = client.get(reverse("admin:campaigns_app_campaign_changelist"))

    assert change.status_code == 200 and listing.status_code == 200
    assert midgame.seed_commitment in change.content.decode()  # the public commitment is there, the seed is not
    assert midgame.dice_seed not in change.content.decode()
    assert midgame.dice_seed not in listing.content.decode()
    from campaigns_app.admin import CampaignAdmin

    assert "dice_seed" not in CampaignAdmin.fields and "dice_seed" not in CampaignAdmin.list_display


def test_after_cg_end_the_export_holds_the_seed_and_every_roll(finished: Campaign, users: Any) -> None:
    response = _page(users["cana"], "records_dice_export", finished)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    export = json.loads(response.content)
    assert export["format"] == "refit-dice/1"
    assert export["seed"] == finished.dice_seed
    assert export["commitment"] == finished.seed_commitment
    assert len(export["rolls"]) == EventRecord.objects.filter(campaign=finished, kind="roll").count()
    assert engine_dice.verify_export(export).ok


# ------------------------------------------------------------------------------------------------- verification


def test_verification_says_all_rolls_verified_for_an_honest_campaign(finished: Campaign, users: Any) -> None:
    count = EventRecord.objects.filter(campaign=finished, kind="roll").count()
    assert count >= 20

    html = _page(users["gerd"], "records_verify", finished).content.decode()

    assert f"All {count} rolls verified." in html
    assert "Verification failed" not in html


def test_verification_flags_a_tampered_roll(finished: Campaign, users: Any) -> None:
    record = EventRecord.objects.filter(campaign=finished, kind="roll", side="german").order_by("seq")[1]
    payload = dict(record.payload)
    dice = list(payload["dice"])
    dice[0] = dice[0] % 6 + 1  # a different face
    payload["dice"] = dice
    EventRecord.objects.filter(pk=record.pk).update(payload=payload)

    html = _page(users["cana"], "records_verify", finished).content.decode()

    assert "Verification failed" in html
    assert f"roll german #{payload['number']} ({payload['purpose']}): recorded {dice[0]}+" in html
    assert "rolls verified." not in html


def test_verification_flags_a_roll_removed_from_the_end_of_a_stream(finished: Campaign, users: Any) -> None:
    last = EventRecord.objects.filter(campaign=finished, kind="roll", side="canadian").order_by("-seq").first()
    made = last.payload["number"]
    last.delete()

    html = _page(users["cana"], "records_verify", finished).content.decode()

    assert "Verification failed" in html
    assert f"stream canadian: {made} roll(s) were made, the log holds {made - 1}" in html


def test_verification_flags_a_seed_that_does_not_match_the_published_commitment(finished: Campaign, users: Any) -> None:
    Campaign.objects.filter(pk=finished.pk).update(dice_seed="0" * 64)

    html = _page(users["cana"], "records_verify", finished).content.decode()

    assert "Verification failed" in html
    assert "but the commitment published at campaign start is " + finished.seed_commitment in html


def test_verification_before_cg_end_explains_and_recomputes_nothing(midgame: Campaign, users: Any) -> None:
    html = _page(users["cana"], "records_verify", midgame).content.decode()

    assert 'id="verify-pending"' in html
    assert "rolls verified" not in html


# ------------------------------------------------------------------------------------------------- ending the CG


def test_conceding_asks_for_confirmation_first_and_changes_nothing(midgame: Campaign, users: Any) -> None:
    before = snapshot(midgame)

    response = client_for(users["cana"]).post(reverse("records_cg_end_concede", args=[midgame.public_id]))

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="cg-end-confirm"' in html and "Concede the CG?" in html and "This is final." in html
    assert snapshot(midgame) == before


def test_conceding_ends_the_cg_names_the_opponent_victor_and_reveals_everything(midgame: Campaign, users: Any) -> None:
    response = client_for(users["cana"]).post(reverse("records_cg_end_concede", args=[midgame.public_id]),
                                              {"confirmed": "yes"}, follow=True)

    assert response.status_code == 200
    fresh = Campaign.objects.get(pk=midgame.pk)
    assert fresh.state["ended"] and fresh.state["cg_end"]["reason"] == "concession"
    for player in ("gerd", "cana"):
        html = _page(users[player], "records_cg_end", fresh).content.decode()
        assert "the Canadian side conceded" in html
        assert 'id="victor">Victor: <strong>German</strong>' in html
        assert fresh.dice_seed in html
    assert _page(users["cana"], "records_dice_export", fresh).status_code == 200
    dice = _page(users["cana"], "records_dice", fresh).content.decode()
    assert "German #1" in dice


def test_mutual_agreement_needs_both_sides_and_a_proposal_can_be_withdrawn(midgame: Campaign, users: Any) -> None:
    german, canadian = client_for(users["gerd"]), client_for(users["cana"])
    url = lambda name: reverse(name, args=[midgame.public_id])  # noqa: E731

    german.post(url("records_cg_end_propose"), {"confirmed": "yes"})
    assert "The German side proposes to end the CG by mutual agreement." in _page(
        users["cana"], "records_cg_end", midgame).content.decode()
    german.post(url("records_cg_end_withdraw"), {"confirmed": "yes"})
    assert "Neither side has proposed to end the CG." in _page(users["cana"], "records_cg_end", midgame).content.decode()
    assert not Campaign.objects.get(pk=midgame.pk).state["ended"]

    german.post(url("records_cg_end_propose"), {"confirmed": "yes"})
    canadian.post(url("records_cg_end_propose"), {"confirmed": "yes"})

    fresh = Campaign.objects.get(pk=midgame.pk)
    assert fresh.state["ended"] and fresh.state["cg_end"]["reason"] == "mutual-agreement"
    html = _page(users["gerd"], "records_cg_end", fresh).content.decode()
    assert "both sides agreed to end it (mutual agreement)" in html
    assert 'id="no-victory-rule"' in html  # RR: the CG Victory Conditions are not in the seed
    assert "Victor:" not in html


def test_rr_cg_end_on_the_last_date_names_no_victor_and_shows_the_totals(finished: Campaign, users: Any) -> None:
    html = _page(users["cana"], "records_cg_end", finished).content.decode()

    assert "The CG ended on <strong>26 AM</strong>: the last CG Date was played." in html
    assert "No victor is named." in html and "not in the rule text" in html
    assert "Victor:" not in html
    # Final totals, hand-worked from the driver's entries: the Canadian records Current-LVP 3 after every scenario
    # and carries it on Idle Dates (RR 2.5032–.5033), so the CG-LVP Total after 13 dates is 13 × 3 = 39.
    row = html[html.index('id="final-totals"'):]
    row = row[row.index("<th scope=\"row\">Canadian</th>"):]
    assert row.startswith('<th scope="row">Canadian</th><td>39</td><td>3</td>')
    assert finished.dice_seed in html


def test_cg_end_actions_are_refused_once_the_cg_has_ended(finished: Campaign, users: Any) -> None:
    before = snapshot(finished)

    response = client_for(users["gerd"]).post(reverse("records_cg_end_concede", args=[finished.public_id]),
                                              {"confirmed": "yes"})

    assert response.status_code == 422
    assert "already ended" in response.content.decode()
    assert snapshot(finished) == before
