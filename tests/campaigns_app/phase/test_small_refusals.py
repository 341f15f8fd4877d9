"""Small refusals (issue 10.5): a forged form token is called not valid (a spent genuine one is "already recorded"),
requests over Django's size and field limits get Refit's own error page, and a chit sent twice in one form is refused."""
from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns_app.models import Campaign
from tests.campaigns_app.conftest import client_for, snapshot
from tests.campaigns_app.phase.test_form_numbers import at_19pm_purchase  # noqa: F401  (the fixture)
from tests.campaigns_app.phase.test_phase_flow import page, post, token_in


@pytest.mark.parametrize("forged", ["0" * 48, "f" * 32, "", "x" * 10_000])
def test_a_forged_form_token_is_refused_as_not_valid_and_nothing_is_saved(
    at_19pm_purchase: Campaign, users: Any, forged: str  # noqa: F811
) -> None:
    campaign = at_19pm_purchase
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {"token": forged, "nothing": "no", "qty-I4": "1"})
    body = response.content.decode()
    assert response.status_code == 422
    assert "That form is not valid" in body and "already recorded" not in body
    assert snapshot(campaign) == before


def test_a_genuine_token_sent_again_is_still_already_recorded(at_19pm_purchase: Campaign, users: Any) -> None:  # noqa: F811
    campaign = at_19pm_purchase
    form = {"token": token_in(page(users["gerd"], campaign)), "nothing": "no", "qty-I4": "1"}
    assert post(users["gerd"], campaign, "phase_order", form).status_code == 200
    before = snapshot(campaign)
    again = post(users["gerd"], campaign, "phase_order", form)
    assert again.status_code == 200 and "already recorded" in again.content.decode()
    assert snapshot(campaign) == before


def test_a_token_for_another_players_form_is_not_valid(at_19pm_purchase: Campaign, users: Any) -> None:  # noqa: F811
    campaign = at_19pm_purchase
    canadian_token = token_in(page(users["cana"], campaign))
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {"token": canadian_token, "nothing": "yes"})
    assert response.status_code == 422 and "That form is not valid" in response.content.decode()
    assert snapshot(campaign) == before


def test_a_post_over_the_field_limit_gets_refits_own_error_page(at_19pm_purchase: Campaign, users: Any) -> None:  # noqa: F811
    campaign = at_19pm_purchase
    before = snapshot(campaign)
    from django.conf import settings

    fields = {f"f{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 200)}  # the card builder's limit
    response = client_for(users["gerd"]).post(reverse("phase_order", args=[campaign.public_id]), fields)
    body = response.content.decode()
    assert response.status_code == 400
    assert "That request could not be read" in body and "Nothing was saved" in body and "Traceback" not in body
    assert snapshot(campaign) == before


def test_a_post_over_the_size_limit_gets_refits_own_error_page(at_19pm_purchase: Campaign, users: Any) -> None:  # noqa: F811
    campaign = at_19pm_purchase
    before = snapshot(campaign)
    response = client_for(users["gerd"]).post(reverse("phase_order", args=[campaign.public_id]),
                                              {"nothing": "no", "qty-I4": "1" * (3 * 1024 * 1024)})
    assert response.status_code == 400 and "That request could not be read" in response.content.decode()
    assert snapshot(campaign) == before


def test_a_chit_sent_twice_in_one_form_is_refused(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    before = snapshot(campaign)
    for name in ("chit_confirm", "chit_submit"):
        response = client_for(users["gerd"]).post(
            reverse(name, args=[campaign.public_id]),
            "side=german&chit=idle&chit=attack&confirmed=yes", content_type="application/x-www-form-urlencoded")
        assert response.status_code == 422
        assert "Choose one chit, Attack or Idle, once" in response.content.decode()
    assert snapshot(campaign) == before
