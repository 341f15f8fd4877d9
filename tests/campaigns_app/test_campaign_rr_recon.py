"""RR 2.524 through the services (issue 14 item 8): "The sides take turns declaring one Location at a time, with the
German player declaring first"; each side may declare as many Locations as its 2.521 Recon Final dr, shown to it only.
Figures: 2.521 Recon dr (Purchasing Reconnaissance, seed 001): German dr 3 − 1 (attacked in the previous CG Scenario)
= 2 Locations; Canadian dr 3 = 3 Locations."""
from __future__ import annotations

from typing import Any

import pytest

from campaigns_app import services
from campaigns_app.services import ServiceError
from tests.campaigns_app.campaign_script import Play, ScriptedDice

pytestmark = pytest.mark.django_db

DICE = (
    1, 1, 1, 1,  # 19 PM 2.516 secret DRs (Canadian, German)
    3, 3,        # 19 PM 2.521 Recon dr: German 3 − 1 = 2; Canadian 3
)


def declare(play: Play, side: str, where: str) -> None:
    services.recon_declare(user=play.users[side], public_id=play.public_id, location=where)


def to_2_524(monkeypatch: Any, *spare: int) -> Play:
    """An RR campaign at 19 PM 2.524: no Recon bought (2.521 dr as DICE), German Attack, Canadian Idle."""
    play = Play(monkeypatch, "rr", "german", ScriptedDice(*DICE, *spare))
    play.order("german")
    play.order("canadian")
    play.both_done()  # 2.520
    play.both_done()  # Initial Scenario
    play.results(cvp={"canadian": 5, "german": 8}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    play.until("2.512")
    play.supply("german", "san", 3)
    play.supply("canadian", "san", 3)
    play.until("2.518")
    play.order("german")
    play.order("canadian")
    play.until("2.521")
    play.recon("german", 0)
    play.recon("canadian", 0)
    play.chit("german", "attack")
    play.chit("canadian", "idle")
    play.until("2.524")
    return play


def test_rr_2_524_recon_locations_alternate_one_at_a_time_german_first(monkeypatch: Any) -> None:
    play = to_2_524(monkeypatch)
    assert (play.roster("german", "19 PM").recon, play.roster("canadian", "19 PM").recon) == (2, 3)
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    url = reverse("campaign_detail", args=[play.public_id])
    german_page = client_for(play.users["german"]).get(url).content.decode()
    canadian_page = client_for(play.users["canadian"]).get(url).content.decode()
    assert "You may declare <strong>2</strong> more" in german_page and 'name="location"' in german_page
    assert "You may declare <strong>3</strong> more" in canadian_page and 'name="location"' not in canadian_page
    assert "The German declares now." in canadian_page
    with pytest.raises(ServiceError, match="the German declares now"):
        declare(play, "canadian", "K5")
    declare(play, "german", "K5")
    with pytest.raises(ServiceError, match="the Canadian declares now"):
        declare(play, "german", "L6")
    declare(play, "canadian", "M7")
    declare(play, "german", "N8")  # the German's second and last
    declare(play, "canadian", "O9")
    assert play.at() == ("19 PM", "phase", "2.524")
    declare(play, "canadian", "P10")  # the Canadian's third and last: the step is complete
    assert [(r.payload["side"], r.payload["location"]) for r in play.records("recon-declared")] == [
        ("german", "K5"), ("canadian", "M7"), ("german", "N8"), ("canadian", "O9"), ("canadian", "P10")]
    assert {r.visibility for r in play.records("recon-declared")} == {"public"}
    assert play.at()[2] != "2.524"
