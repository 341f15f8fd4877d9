"""Access: anyone without a seat — a third user or an anonymous visitor — gets 404 for every campaign URL."""
from __future__ import annotations

from typing import Any

import pytest
from django.urls import URLResolver, reverse

from campaigns_app.urls import campaign_patterns
from tests.campaigns_app.conftest import client_for, deterministic_csrf, snapshot


def _url_params(patterns: list[Any], inherited: tuple[str, ...] = ()) -> dict[str, tuple[str, ...]]:
    """Every named URL under /campaigns/<public id>/ (the included phase, record and rules modules too), with the
    names of the route parameters it takes besides ``public_id``."""
    found: dict[str, tuple[str, ...]] = {}
    for pattern in patterns:
        params = inherited + tuple(getattr(pattern.pattern, "converters", {}).keys())
        if isinstance(pattern, URLResolver):
            found.update(_url_params(pattern.url_patterns, params))
        elif pattern.name:
            found[pattern.name] = params
    return found


URL_PARAMS = _url_params(campaign_patterns)
CAMPAIGN_URL_NAMES = sorted(URL_PARAMS)
POST_DATA = {"side": "german", "chit": "attack", "confirmed": "yes", "player_seed": "mine", "reason": "objectives"}
EXTRA_ARGUMENT_VALUE = "1"  # for a route parameter other than the public id (none today; the test builds them if added)


def campaign_url(name: str, public_id: str) -> str:
    """A valid URL for ``name`` in the campaign ``public_id``, whatever other parameters its route takes."""
    kwargs = {param: EXTRA_ARGUMENT_VALUE for param in URL_PARAMS[name]}
    return reverse(name, kwargs={"public_id": public_id, **kwargs})


def test_every_campaign_url_is_covered_by_this_test() -> None:
    # typed by hand: a campaign URL added without being listed here fails this test until it is checked for access
    assert set(CAMPAIGN_URL_NAMES) == {
        "campaign_detail", "campaign_invite", "campaign_history", "campaign_fragments",
        "chit_confirm", "chit_submit", "step_done", "seed_set",
        "phase_done", "phase_order", "phase_recon", "phase_roll", "phase_results", "phase_supply", "phase_cg_end",
        "phase_board_roll", "phase_scenario_roll", "records_roster", "records_roster_csv", "records_purchases", "records_purchases_csv", "records_dice",
        "records_dice_csv", "records_cg_end", "records_cg_end_propose", "records_cg_end_withdraw",
        "records_cg_end_concede", "records_verify", "records_dice_export",
        "campaign_rules", "campaign_card_download",
        # added this session, each checked by the tests below (404 for a stranger, every method)
        "phase_declare", "phase_first", "phase_losses", "phase_recon_location", "phase_repair",
        "records_cg_end_decline",
        # issue 13: dice statistics and sealed notes
        "records_dice_stats", "campaign_notes", "campaign_note_seal", "campaign_note_reveal",
        "campaign_archive", "campaign_message", "campaign_pause", "campaign_pause_answer",
        # issue 13 item 6: the story of each CG Date
        "records_story",
        # issue 13: the pace changed later by both agreeing
        "campaign_pace", "campaign_pace_answer", "campaign_pace_withdraw",
        # issue 13 item 4b: secret rolls at the board
        "campaign_secret_roll", "campaign_secret_roll_reveal",
    }


def test_urls_with_extra_arguments_are_built_with_them() -> None:
    for name in CAMPAIGN_URL_NAMES:
        assert campaign_url(name, "P" * 22).startswith("/campaigns/" + "P" * 22 + "/")


@pytest.mark.parametrize("who", ["third user", "anonymous"])
@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url_name", CAMPAIGN_URL_NAMES)
def test_a_visitor_without_a_seat_gets_404_for_every_campaign_url(
    campaign_factory: Any, users: Any, who: str, method: str, url_name: str
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"], to_initiative=False)
    before = snapshot(campaign)
    client = client_for(users["carol"] if who == "third user" else None)
    url = campaign_url(url_name, campaign.public_id)

    response = getattr(client, method)(url, POST_DATA if method == "post" else None)

    assert response.status_code == 404
    assert "Hill 112" not in response.content.decode()
    assert snapshot(campaign) == before


@pytest.mark.parametrize("url_name", CAMPAIGN_URL_NAMES)
def test_an_existing_campaign_and_a_made_up_one_answer_the_same_404(
    campaign_factory: Any, users: Any, url_name: str, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    campaign = campaign_factory(users["gerd"], users["cana"], to_initiative=False)
    client = client_for(users["carol"])
    real = client.get(campaign_url(url_name, campaign.public_id))
    made_up = client.get(campaign_url(url_name, "A" * len(campaign.public_id)))
    assert real.status_code == made_up.status_code == 404
    assert real.content == made_up.content


@pytest.mark.parametrize("url_name", CAMPAIGN_URL_NAMES)
def test_any_other_method_from_a_visitor_without_a_seat_is_also_404(
    campaign_factory: Any, users: Any, url_name: str
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"], to_initiative=False)
    before = snapshot(campaign)
    url = campaign_url(url_name, campaign.public_id)
    for client in (client_for(users["carol"]), client_for(None)):
        for method in ("put", "patch", "delete", "head", "options"):
            response = getattr(client, method)(url)
            assert response.status_code == 404, (method, response.status_code)
    assert snapshot(campaign) == before


def test_both_seated_players_can_open_every_page(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    for user in (users["gerd"], users["cana"]):
        client = client_for(user)
        for name in ("campaign_detail", "campaign_invite", "campaign_history", "campaign_fragments"):
            assert client.get(reverse(name, args=[campaign.public_id])).status_code == 200


def test_an_unknown_invitation_token_is_404(users: Any, rr: Any) -> None:
    assert client_for(users["carol"]).get(reverse("campaign_join", args=["x" * 32])).status_code == 404
