"""KGP 8.2 Objective Hex (issue 15 item 3): "As soon as (but never before) such an Objective Hex is Controlled … by
Infantry of the designating side, its identity must immediately be revealed to the opponent and it becomes a permanent
Strategic Location." The players record in the scenario results how many of its own Objective Hexes each side Controls
at the end; a card's CG Victory Conditions may use that count (measure ``objective_hexes``). The conditions below are
TEST DATA standing for a printed card (seed 004 has no KGP CG Victory Conditions).
"""
from __future__ import annotations

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
