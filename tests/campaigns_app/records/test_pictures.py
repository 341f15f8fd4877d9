"""The campaign in pictures (CG Roster charts) and the story of each CG Date (issue 13 item 6).

The golden figures come from the scripted RR campaign of test_campaign_rr.py (seed 001, its dice), worked by hand there:
Available = Start + Replenished (RR 2.518 "Total"); the CVP and LVP are what both players entered.
"""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign
from tests.campaigns_app.campaign_script import Play, ScriptedDice
from tests.campaigns_app.conftest import client_for, deterministic_csrf
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm
from tests.campaigns_app.test_campaign_rr import DICE, rg

pytestmark = pytest.mark.django_db


def scripted_rr(monkeypatch: Any) -> Play:
    """test_campaign_rr's campaign, played to 20 PM 2.518 (every scripted die rolled)."""
    play = Play(monkeypatch, "rr", "german", ScriptedDice(*DICE))
    play.order("german")
    play.order("canadian")
    play.both_done()
    play.both_done()
    play.results(cvp={"canadian": 5, "german": 8}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    play.until("2.512")
    play.supply("german", "san", 6)
    play.supply("canadian", "san", 3)
    play.until("2.518")
    play.order("german", rg("I1"))
    play.order("canadian", rg("I1"))
    play.both_done()
    play.recon("german", 1)
    play.recon("canadian", None)
    play.chit("german", "attack")
    play.chit("canadian", "idle")
    play.done("canadian")
    play.done("german")
    play.until("@scenario")
    play.both_done()
    play.results(cvp={"canadian": 12, "german": 6}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})
    play.until("2.522")
    play.chit("german", "idle")
    play.chit("canadian", "idle")
    play.both_done()
    play.until("2.518")
    play.order("canadian", rg("G1"))
    play.order("german")
    play.both_done()
    play.recon("canadian", 0)
    play.recon("german", None)
    play.chit("german", "idle")
    play.chit("canadian", "attack")
    play.until("@scenario")
    play.both_done()
    play.results(cvp={"canadian": 9, "german": 11}, attacked={"german": False, "canadian": True}, lvp={"canadian": 5})
    play.until("2.518")
    assert play.at() == ("20 PM", "phase", "2.518") and play.dice.remaining == 0
    return play


def _get(user: Any, name: str, campaign: Campaign, *args: Any, status: int = 200) -> str:
    response = client_for(user).get(reverse(name, args=[campaign.public_id, *args]))
    assert response.status_code == status, (name, response.status_code)
    assert response["Cache-Control"] == "private, no-store"
    return response.content.decode()


def _chart_table(html: str, chart_id: str) -> list[list[str]]:
    """A chart's figures table: its header, then each row's cells, as text."""
    figure = re.search(rf'<figure class="picture" id="{chart_id}">(.*?)</figure>', html, re.S)
    assert figure, f"no {chart_id}"
    rows = re.findall(r"<tr>(.*?)</tr>", figure.group(1), re.S)
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
            for row in rows]


@pytest.fixture
def rr_play(monkeypatch: Any) -> Play:
    return scripted_rr(monkeypatch)


# ------------------------------------------------------------------------------------------------- golden figures


def test_before_cg_end_each_side_sees_its_own_points_per_cg_date_and_is_told_the_opponents_are_hidden(
    rr_play: Play
) -> None:
    campaign = rr_play.campaign
    german = _get(rr_play.users["german"], "records_roster", campaign)
    canadian = _get(rr_play.users["canadian"], "records_roster", campaign)

    # German: 19 PM 0 + 73 = 73, spent I1 28 + Recon 4 = 32, left 41; 19 Night 41 + 68 = 109; 20 AM 109 + 49 = 158;
    # 20 PM 158 + 68 = 226
    assert _chart_table(german, "chart-points") == [
        ["CG Date", "German available", "German spent"],
        ["19 AM", "0", "0"], ["19 PM", "73", "32"], ["19 Night", "109", "0"], ["20 AM", "158", "0"],
        ["20 PM", "226", "0"]]
    # Canadian: 19 PM 35, spent I1 20; 19 Night 15 + 23 = 38; 20 AM 38 + 32 = 70, spent G1 6 + Recon 3 = 9;
    # 20 PM 61 + 33 = 94
    assert _chart_table(canadian, "chart-points") == [
        ["CG Date", "Canadian available", "Canadian spent"],
        ["19 AM", "0", "0"], ["19 PM", "35", "20"], ["19 Night", "38", "0"], ["20 AM", "70", "9"],
        ["20 PM", "94", "0"]]
    assert "the German side's points are hidden until CG end" in canadian
    assert "the Canadian side's points are hidden until CG end" in german


def test_both_sides_see_the_agreed_cvp_and_lvp_of_every_scenario_and_no_idle_date(rr_play: Play) -> None:
    campaign = rr_play.campaign
    for side in ("german", "canadian"):
        html = _get(rr_play.users[side], "records_roster", campaign)
        assert _chart_table(html, "chart-cvp") == [
            ["Scenario", "Canadian", "German"],
            ["19 AM (Initial Scenario)", "5", "8"], ["19 PM (German Assault)", "12", "6"],
            ["20 AM (Canadian Assault)", "9", "11"]]
        assert _chart_table(html, "chart-lvp") == [  # RR: only the Canadian side records LVP (no German column)
            ["Scenario", "Canadian"],
            ["19 AM (Initial Scenario)", "3"], ["19 PM (German Assault)", "4"],
            ["20 AM (Canadian Assault)", "5"]]
        lvp = html.split('id="chart-lvp"')[1].split("</figure>")[0]
        assert "German</li>" not in lvp and "Canadian</li>" in lvp and "by the Canadian side in each scenario played" in lvp


def test_after_cg_end_both_sides_points_are_drawn_for_both_players(rr_play: Play) -> None:
    services.cg_end_concede(user=rr_play.users["german"], public_id=rr_play.public_id)
    html = _get(rr_play.users["canadian"], "records_roster", rr_play.campaign)

    table = _chart_table(html, "chart-points")
    assert table[0] == ["CG Date", "Canadian available", "Canadian spent", "German available", "German spent"]
    assert table[2] == ["19 PM", "35", "20", "73", "32"]
    assert table[4] == ["20 AM", "70", "9", "158", "0"]
    assert "points are hidden" not in html


def test_each_chart_is_an_svg_with_a_title_a_description_and_a_viewbox_that_fits_a_phone(rr_play: Play) -> None:
    html = _get(rr_play.users["german"], "records_roster", rr_play.campaign)

    svgs = re.findall(r'<svg viewBox="0 0 360 230" width="100%" role="img" class="picture-svg" '
                      r'aria-labelledby="(chart-\w+)-title \1-desc">(.*?)</svg>', html, re.S)
    assert [chart for chart, _ in svgs] == ["chart-points", "chart-cvp", "chart-lvp"]
    for chart, body in svgs:
        assert f'<title id="{chart}-title">' in body and f'<desc id="{chart}-desc">' in body
    points = dict(svgs)["chart-points"]
    assert 'class="line side-1 available"' in points and 'class="line side-1 spent"' in points  # solid vs dashed
    assert '<title>German CPP available on 20 PM: 226</title>' in points


# ----------------------------------------------------------------------------------------------------------- leaks

ORDERS = {
    "nothing": [],
    "infantry on map and fortifications": [{"type": "rg", "rg_id": "I4", "setup_mode": "on-map"},
                                           {"type": "rg", "rg_id": "M1"}],
    "two AT sections": [{"type": "rg", "rg_id": "G2"}, {"type": "rg", "rg_id": "G3"}],
}


def _canadian_roster(campaign: Campaign, users: Any, orders: list[dict[str, Any]]) -> tuple[bytes, ...]:
    """The Canadian's CG Roster, its CSV and the story pages (refused) after the German's secret order (then rolled
    back)."""
    with transaction.atomic():
        services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=orders)
        client = client_for(users["cana"])
        renders = (client.get(reverse("records_roster", args=[campaign.public_id])).content,
                   client.get(reverse("records_roster_csv", args=[campaign.public_id])).content,
                   *(client.get(reverse("records_story", args=[campaign.public_id, n])).content for n in "12"))
        transaction.set_rollback(True)
    return renders


def test_the_opponents_roster_charts_and_story_pages_are_byte_identical_whatever_the_german_bought(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)

    seen = [_canadian_roster(campaign, users, orders) for orders in ORDERS.values()]

    assert all(renders == seen[0] for renders in seen[1:])
    page = seen[0][0].decode()
    assert 'id="chart-points"' in page and "German available" not in page
    with transaction.atomic():  # the German's own page does change: the secret is drawn for him
        services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=ORDERS["two AT sections"])
        german = client_for(users["gerd"]).get(reverse("records_roster", args=[campaign.public_id])).content.decode()
        transaction.set_rollback(True)
    assert ["19 PM"] == [row[0] for row in _chart_table(german, "chart-points")[1:] if row[2] not in ("0", "–")]


# ----------------------------------------------------------------------------------------------------------- story


def test_the_story_is_refused_before_cg_end_with_nothing_of_the_campaign_in_it(rr_play: Play) -> None:
    campaign = rr_play.campaign
    for side in ("german", "canadian"):
        for number in ("1", "2", "99", "x"):
            html = _get(rr_play.users[side], "records_story", campaign, number, status=404)
            assert "told once the CG has ended" in html or "a whole number" in html
            for secret in ("I1", "G1", "Replenished", "Base Number", "Attack", "Idle", "CVP"):
                assert secret not in html.split('<div class="records-page')[1], (side, number, secret)
    roster = _get(rr_play.users["german"], "records_roster", campaign)
    assert "Story of the campaign" not in roster


def test_after_cg_end_each_date_tells_what_was_bought_the_chits_the_result_and_the_reph(rr_play: Play) -> None:
    services.cg_end_concede(user=rr_play.users["german"], public_id=rr_play.public_id)
    campaign = rr_play.campaign

    html = _get(rr_play.users["canadian"], "records_story", campaign, "2")

    assert "The story of 19 PM" in html and "CG Date 2 of 5" in html
    assert "<strong>Initiative chits:</strong> Canadian Idle, German Attack" in html
    assert ("<strong>Scenario result:</strong> CVP Canadian 12, German 6; LVP Canadian 4; German attacked" in html)
    assert "73 CPP available, 32 spent, 41 left" in html  # the German's, revealed at CG end
    assert "35 CPP available, 20 spent, 15 left" in html
    assert "RG I1 Para Inf Coy: 28 CPP, strength D" in html  # German I1 Depleted (Strength DR 10)
    assert "RG I1 Inf Coy: 20 CPP, strength F" in html
    # the German's secret replenishment, in the history's words, with whose it was
    assert "<li>German: 2.516: Base Number 80 − DR 7 = 73 CPP</li>" in html
    assert "The German side chose Attack for 19 PM (sealed)." in html
    assert "Initiative chits revealed for 19 PM: Canadian Idle, German Attack → German Assault." in html
    assert 'rel="prev"' in html and 'rel="next"' in html
    idle = _get(rr_play.users["german"], "records_story", campaign, "3")
    assert "Idle Date" in idle and "No scenario result on this CG Date." in idle
    assert _get(rr_play.users["german"], "records_story", campaign, "6", status=404).count("CG Dates 1 to 5") == 1
    assert "Story of the campaign" in _get(rr_play.users["german"], "records_roster", campaign)


def test_the_story_is_404_for_anyone_without_a_seat(rr_play: Play, users: Any) -> None:
    services.cg_end_concede(user=rr_play.users["german"], public_id=rr_play.public_id)
    for who in (users["carol"], None):
        response = client_for(who).get(reverse("records_story", args=[rr_play.public_id, "1"]))
        assert response.status_code == 404 and "19 AM" not in response.content.decode()


def test_a_story_page_runs_the_same_number_of_queries_in_a_4_date_and_a_13_date_campaign(
    rr: Any, users: Any, django_assert_num_queries: Any
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.campaigns_app.records.test_records_support import create_rr, play

    short = play(create_rr(users["gerd"], users["cana"], name="Short"), until_date=3, buy_on={1}).campaign
    long = play(create_rr(users["gerd"], users["carol"], name="Long"), until_date=12, buy_on={1, 2, 5}).campaign
    for campaign in (short, long):
        services.cg_end_concede(user=users["gerd"], public_id=campaign.public_id)
    client = client_for(users["gerd"])

    with CaptureQueriesContext(connection) as short_queries:
        assert client.get(reverse("records_story", args=[short.public_id, "2"])).status_code == 200
    with django_assert_num_queries(len(short_queries)):
        html = client.get(reverse("records_story", args=[long.public_id, "2"])).content.decode()
    assert "The story of 19 PM" in html and "CG Date 2 of 13" in html
