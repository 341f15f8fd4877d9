"""The dice statistics page: each side counts the public rolls and its own secret rolls until CG end, then all."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app.models import Campaign
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.records.test_records_support import create_rr, play


def _stats(user: Any, campaign: Campaign, status: int = 200, **query: str) -> str:
    response = client_for(user).get(reverse("records_dice_stats", args=[campaign.public_id]), query)
    assert response.status_code == status, response.status_code
    assert response["Cache-Control"] == "private, no-store"
    return response.content.decode()


def _group_counts(html: str) -> dict[str, int]:
    return {label: int(count) for label, count in
            re.findall(r'<h2 id="stats-\d+">([^<]+?) <span class="muted small">(\d+) rolls?</span></h2>', html)}


def _dice_log_rows(user: Any, campaign: Campaign) -> list[tuple[str, str]]:
    html = client_for(user).get(reverse("records_dice", args=[campaign.public_id])).content.decode()
    return re.findall(r'<td data-label="Stream" class="nowrap">(\w+) #\d+</td>.*?rolled for the (\w+) side', html,
                      re.S)


@pytest.fixture
def midgame(rr: Any, users: Any) -> Any:
    """An RR CG at 20 AM: both sides bought an RG on 19 PM (secret rolls) and rolled Recon on 19 Night."""
    return play(create_rr(users["gerd"], users["cana"]), until_date=3, buy_on={1})


def test_before_cg_end_the_opponents_secret_rolls_are_not_counted(midgame: Any, users: Any) -> None:
    campaign = midgame.campaign
    canadian_secret = _group_counts(_stats(users["cana"], campaign, scope="secret"))
    german_secret = _group_counts(_stats(users["gerd"], campaign, scope="secret"))

    assert canadian_secret["German"] == 0 and canadian_secret["Canadian"] > 0
    assert german_secret["Canadian"] == 0 and german_secret["German"] > 0
    assert "German #" not in _stats(users["cana"], campaign)


def test_the_page_counts_every_roll_of_the_viewers_dice_log(midgame: Any, users: Any) -> None:
    rows = _dice_log_rows(users["cana"], midgame.campaign)
    counts = _group_counts(_stats(users["cana"], midgame.campaign))

    assert counts["Both sides"] == len(rows) > 0
    assert counts["Canadian"] == sum(1 for _, roller in rows if roller == "Canadian")
    assert counts["German"] == sum(1 for stream, roller in rows if roller == "German" and stream == "Public")


def test_the_page_draws_an_svg_chart_with_a_title_for_every_measure_rolled(midgame: Any, users: Any) -> None:
    html = _stats(users["cana"], midgame.campaign)

    assert html.count('<svg viewBox="0 0 320 150" width="100%" role="img"') >= 1
    assert re.search(r'<title id="g2-small-title">dr results: 1: \d+ \(fair [\d.]+\), 2:', html)
    assert "Mean" in html and "(fair 3.50)" in html
    assert "Too few rolls for a fair test" in html or "unusual" in html


def test_one_cg_date_and_one_scope_can_be_chosen(midgame: Any, users: Any) -> None:
    everything = _group_counts(_stats(users["cana"], midgame.campaign))
    public = _group_counts(_stats(users["cana"], midgame.campaign, scope="public"))
    secret = _group_counts(_stats(users["cana"], midgame.campaign, scope="secret"))
    dated = _group_counts(_stats(users["cana"], midgame.campaign, date="19 PM"))

    assert public["Both sides"] + secret["Both sides"] == everything["Both sides"]
    assert 0 < dated["Both sides"] < everything["Both sides"]


@pytest.mark.parametrize(("query", "message"), [
    ({"scope": "theirs"}, "Unknown scope &#x27;theirs&#x27;: choose one of all, public, secret."),
    ({"date": "31 PM"}, "No rolls on CG Date &#x27;31 PM&#x27;: choose the whole campaign or one of 19 PM"),
    ({"date": "x" * 65}, "A scope or CG Date is at most 64 characters."),
])
def test_a_scope_or_date_not_offered_is_a_400_saying_what_is_allowed(midgame: Any, users: Any, query: dict[str, str],
                                                                      message: str) -> None:
    html = _stats(users["cana"], midgame.campaign, 400, **query)

    assert message in html


def test_after_cg_end_both_sides_secret_rolls_are_counted(rr: Any, users: Any) -> None:
    played = play(create_rr(users["gerd"], users["cana"]), until_date=12, buy_on={1}, to_end=True)

    secret = _group_counts(_stats(users["cana"], played.campaign, scope="secret"))

    assert secret["German"] > 0 and secret["Canadian"] > 0
    assert "python -m rules_engine verify-dice FILE --stats" in _stats(users["cana"], played.campaign)


def test_before_cg_end_an_opponent_without_counted_rolls_reads_no_public_rolls_not_no_rolls(rr: Any, users: Any) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    html = _stats(users["cana"], campaign)
    german = html.split('id="stats-2">German ', 1)[1].split("</section>", 1)[0]
    canadian = html.split('id="stats-1">Canadian ', 1)[1].split("</section>", 1)[0]
    assert '<p class="muted">No public rolls.</p>' in german  # its secret rolls may exist: the page cannot say none
    assert '<p class="muted">No rolls.</p>' in canadian
