"""PHD steps played through the services (issue 14 items 9 and 11): C5.41 announces both SANs and leaves the Sniper
Counters to the players; the TM6 Mission End dr is a scenario roll with the circled number typed by the players.
Figures from seed 003: C4.2 Initial OB SAN German 3 / US 2; TM6 "At the end of Turn 5, and at the end of each subsequent
turn thereafter, the TM Scenario Attacker makes a TM ending dr. If the dr < the circled number … the scenario ends
immediately" ("<" read as ≤, as every PHD table reads it)."""
from __future__ import annotations

from typing import Any

import pytest

from campaigns_app import services
from campaigns_app.services import ServiceError
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

# TM I C5.33 Leader Table rolls for the OB-given I1 lines (the TEST DATA card's table): 1+1, 3+3 German; 4+4, 6+6 US
LEADER_DICE = (1, 1, 3, 3, 4, 4, 6, 6)


def at_the_initial_scenario(monkeypatch: Any, *more: int) -> Play:
    play = Play(monkeypatch, "phd", "german", ScriptedDice(*LEADER_DICE, *more), card=CARDS / "phd-test.yaml")
    play.until("C5.31")
    play.order("german")
    play.order("us")
    play.until("C5.35")
    play.order("german")
    play.order("us")
    play.until("C5.41")
    return play


def test_c5_41_announces_both_sans_and_waits_for_the_sniper_counters(monkeypatch: Any) -> None:
    play = at_the_initial_scenario(monkeypatch)
    announced = [r.payload["tracks"] for r in play.records("announced", date="I")]
    assert announced == [{"german": {"san": 3, "elr": 3}, "us": {"san": 2, "elr": 4}}]
    assert play.at() == ("I", "phase", "C5.41")
    assert [r.payload["text"] for r in play.records("board-part", date="I")] == [
        "C5.41: now on the board — Each side places its Sniper Counter on the map."]
    play.done("us")
    assert play.at() == ("I", "phase", "C5.41")
    play.done("german")
    assert play.at() == ("I", "initial-scenario", "@initial-scenario")


@pytest.mark.parametrize(("die", "words"), [
    (3, "dr 3 ≤ 3: the TM Scenario ends immediately"),
    (4, "dr 4 > 3: the TM Scenario continues"),
])
def test_tm6_mission_end_dr_against_the_circled_number_typed(monkeypatch: Any, die: int, words: str) -> None:
    play = at_the_initial_scenario(monkeypatch, die)
    play.both_done()  # C5.41
    with pytest.raises(ServiceError, match="from Turn 5 on"):
        services.scenario_roll_submit(user=play.users["us"], public_id=play.public_id, roll_id="mission-end",
                                      threshold=3, turn=4)
    services.scenario_roll_submit(user=play.users["us"], public_id=play.public_id, roll_id="mission-end",
                                  threshold=3, turn=5)
    (made,) = [r for r in play.records("roll") if str(r.payload.get("purpose", "")).startswith("TM6")]
    assert made.payload["result"] == words
    assert "≤" in str(made.payload.get("caution"))


def test_rules_in_use_states_the_one_reading_of_the_dual_attack_drs(monkeypatch: Any) -> None:
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    play = Play(monkeypatch, "phd", "german", ScriptedDice(), card=CARDS / "phd-test.yaml")
    page = client_for(play.users["us"]).get(reverse("campaign_rules", args=[play.public_id])).content.decode()
    assert "Read as dr ≤3 (1-3)" in page and "Read as dr ≥4 (4-6)" in page
