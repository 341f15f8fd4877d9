"""KGP 8.2 Objective Hex (issue 15 item 3): "As soon as (but never before) such an Objective Hex is Controlled … by
Infantry of the designating side, its identity must immediately be revealed to the opponent and it becomes a permanent
Strategic Location." The players record in the scenario results how many of its own Objective Hexes each side Controls
at the end; a card's CG Victory Conditions may use that count (measure ``objective_hexes``). The conditions below are
TEST DATA standing for a printed card (seed 004 has no KGP CG Victory Conditions).
"""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import services
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db

VICTORY = '''
victory_conditions:
  text: "TEST DATA: the German wins if he Controls 2 or more of his Objective Hexes; otherwise the U.S. wins."
  conditions:
    - {side: german, measure: objective_hexes, op: ">=", value: 2}
  otherwise: us
'''


def results_form(german: str, us: str) -> dict[str, str]:
    return {"map_group": "St", "cvp-us": "0", "cvp-german": "0", "attacked-us": "no", "attacked-german": "yes",
            "objective_hexes-us": us, "objective_hexes-german": german}


def played(monkeypatch: Any, german: str) -> Play:
    text = (CARDS / "kgp-values-test.yaml").read_text(encoding="utf-8") + VICTORY
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(), card_text=text, player_settings={"kgp_cg": "I"})
    play.until("@initial-scenario")
    play.both_done()
    page = client_for(play.users["us"]).get(reverse("campaign_detail", args=[play.public_id])).content.decode()
    assert 'name="objective_hexes-german"' in page and "(rule 8.2 Objective Hex, 8.6198" in page
    for side in ("german", "us"):
        response = client_for(play.users[side]).post(reverse("phase_results", args=[play.public_id]),
                                                     results_form(german, "0"), headers={"HX-Request": "true"})
        assert response.status_code == 200, response.content.decode()[:500]
    for side in ("german", "us"):
        services.cg_end_propose(user=play.users[side], public_id=play.public_id)
    return play


def victory_block(play: Play, side: str) -> str:
    html = client_for(play.users[side]).get(reverse("records_cg_end", args=[play.public_id])).content.decode()
    return html[html.index('id="victory-conditions"'):]


def test_the_objective_hexes_the_german_controls_reach_the_cg_victory_check(monkeypatch: Any) -> None:
    play = played(monkeypatch, german="2")
    [result] = [r.result for r in play.state.history if r.result is not None]
    assert dict(result.objective_hexes) == {"german": 2, "us": 0}
    for side in ("german", "us"):
        block = victory_block(play, side)
        assert "German Objective Hexes Controlled 2 ≥ 2: met" in block
        assert "<strong>German</strong> wins" in block


def test_one_objective_hex_controlled_is_not_enough_and_the_us_wins_otherwise(monkeypatch: Any) -> None:
    play = played(monkeypatch, german="1")
    block = victory_block(play, "us")
    assert "German Objective Hexes Controlled 1 ≥ 2: not met" in block and "<strong>U.S.</strong> wins" in block


def test_a_negative_objective_hex_count_is_refused_and_nothing_is_saved(monkeypatch: Any) -> None:
    text = (CARDS / "kgp-values-test.yaml").read_text(encoding="utf-8") + VICTORY
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(), card_text=text, player_settings={"kgp_cg": "I"})
    play.until("@initial-scenario")
    play.both_done()
    before = play.campaign.state
    response = client_for(play.users["german"]).post(reverse("phase_results", args=[play.public_id]),
                                                     results_form("-1", "0"), headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "Objective Hexes Controlled by the German side" in response.content.decode()
    assert play.campaign.state == before


SECRET_HEX = "Zq77 church"  # TEST DATA: a hex text that appears nowhere else


def at_18_pm_8_619(monkeypatch: Any) -> Play:
    # 18 PM 8.616 (card: Base Number − Secret DR): U.S. 35 − (3+3) = 29; German 45 − (6+5) = 34
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(3, 3, 6, 5), card_text=(CARDS / "kgp-values-test.yaml")
                .read_text(encoding="utf-8"), player_settings={"kgp_cg": "I"})
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"us": 0, "german": 0}, attacked={"german": True, "us": False}, lvp={"us": 0, "german": 0})
    assert play.at() == ("18 PM", "phase", "8.619")
    return play


def order_token(html: str) -> str:
    match = re.search(r'action="[^"]*/phase/order/".*?name="token" value="([0-9a-f]+)"', html, re.S)
    assert match, "the order form carries a one-time token"
    return match.group(1)


OPPONENT_PAGES = ("campaign_detail", "campaign_history", "records_roster", "records_roster_csv", "records_purchases",
                  "records_purchases_csv", "records_dice", "records_dice_csv")


def test_the_objective_hex_an_i_rg_designates_is_secret_from_the_opponent_and_on_its_owners_purchase_record(
    monkeypatch: Any
) -> None:
    play = at_18_pm_8_619(monkeypatch)
    german = client_for(play.users["german"])
    order_page = german.get(reverse("campaign_detail", args=[play.public_id])).content.decode()
    assert 'name="ohex-I1"' in order_page and 'name="ohex-O1"' not in order_page  # only an "I"/"HW" RG (8.2)
    response = german.post(reverse("phase_order", args=[play.public_id]),
                           {"qty-I1": "1", "mode-I1": "entry", "ohex-I1": SECRET_HEX, "token": order_token(order_page)},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200, response.content.decode()[:400]
    [line] = [line for line in play.ledger("german").purchases if line.date_id == "18 PM"]
    assert SECRET_HEX in line.notes
    own = german.get(reverse("records_purchases", args=[play.public_id])).content.decode()
    assert SECRET_HEX in own
    us = client_for(play.users["us"])
    for name in OPPONENT_PAGES:
        body = us.get(reverse(name, args=[play.public_id])).content.decode()
        assert SECRET_HEX not in body and "Objective Hex (secret" not in body, name


def test_an_objective_hex_for_an_rg_that_is_not_i_or_hw_is_refused_and_nothing_is_saved(monkeypatch: Any) -> None:
    play = at_18_pm_8_619(monkeypatch)
    before = play.campaign.state
    german = client_for(play.users["german"])
    token = order_token(german.get(reverse("campaign_detail", args=[play.public_id])).content.decode())
    response = german.post(
        reverse("phase_order", args=[play.public_id]), {"qty-O1": "1", "mode-O1": "entry", "ohex-O1": "12K4",
                                                        "token": token},
        headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert "RG O1: only an RG whose ID begins with I or HW allows an Objective Hex (8.2 Objective Hex, 8.6198)" in \
        response.content.decode()
    assert play.campaign.state == before
