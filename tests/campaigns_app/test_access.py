"""Access: anyone without a seat — a third user or an anonymous visitor — gets 404 for every campaign URL."""
from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLResolver, reverse

from campaigns_app.urls import campaign_patterns
from tests.campaigns_app.conftest import client_for, deterministic_csrf, snapshot



def _url_names(patterns: list[Any]) -> list[str]:
    """Every named URL under /campaigns/<public id>/, including the included phase and record modules."""
    names: list[str] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names.extend(_url_names(pattern.url_patterns))
        elif pattern.name:
            names.append(pattern.name)
    return names


CAMPAIGN_URL_NAMES = _url_names(campaign_patterns)
POST_DATA = {"side": "german", "chit": "attack", "confirmed": "yes"}


def test_every_campaign_url_is_covered_by_this_test() -> None:
    # every campaign URL (the records' and CG Cards' modules included) is enumerated from the URLconf above
    assert set(CAMPAIGN_URL_NAMES) >= {
        "campaign_detail", "campaign_invite", "campaign_history", "campaign_fragments",
        "chit_confirm", "chit_submit", "step_done", "move_order",
        "phase_done", "phase_order", "phase_recon", "phase_roll", "phase_results", "phase_supply", "phase_cg_end",
    }


@pytest.mark.parametrize("who", ["third user", "anonymous"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url_name", CAMPAIGN_URL_NAMES)
def test_a_visitor_without_a_seat_gets_404_for_every_campaign_url(
    campaign_factory: Any, users: Any, who: str, method: str, url_name: str
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    before = snapshot(campaign)
    client = client_for(users["carol"] if who == "third user" else None)
    url = reverse(url_name, args=[campaign.public_id])

    response = getattr(client, method)(url, POST_DATA if method == "post" else None)

    assert response.status_code == 404
    assert "Hill 112" not in response.content.decode()
    assert snapshot(campaign) == before


@pytest.mark.parametrize("url_name", CAMPAIGN_URL_NAMES)
def test_an_existing_campaign_and_a_made_up_one_answer_the_same_404(
    campaign_factory: Any, users: Any, url_name: str, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    campaign = campaign_factory(users["gerd"], users["cana"])
    client = client_for(users["carol"])
    real = client.get(reverse(url_name, args=[campaign.public_id]))
    made_up = client.get(reverse(url_name, args=["A" * len(campaign.public_id)]))
    assert real.status_code == made_up.status_code == 404
    assert real.content == made_up.content


def test_both_seated_players_can_open_every_page(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    for user in (users["gerd"], users["cana"]):
        client = client_for(user)
        for name in ("campaign_detail", "campaign_invite", "campaign_history", "campaign_fragments"):
            assert client.get(reverse(name, args=[campaign.public_id])).status_code == 200


def test_an_unknown_invitation_token_is_404(users: Any, rr: Any) -> None:
    assert client_for(users["carol"]).get(reverse("campaign_join", args=["x" * 32])).status_code == 404
