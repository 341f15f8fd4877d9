"""PHD C5.40 through the services (issue 14 item 8): "Any side that has requisitioned a reconnaissance may, alternating
(German first), declare the locations to reconnoitre"; each side may declare as many locations as its C5.36 Recon Final
dr ("The number of locations that may be reconnoitred is recorded on the TM Roster in the "Recce" column"), shown to it
only. The reconnaissance's TP cost is on the lost RG chart line (note n): the card below adds one (TEST DATA)."""
from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import services
from campaigns_app.services import ServiceError
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db

RECON_ROW = '      - {id: M1, type: M, group_type: Recon, notes: [n], cost: 1, date_max: 1, cg_max: 5}\n'
RECON_NOTE = '      n: {text: "If purchased for 2 TP, the player receives a +5 drm (TEST DATA cost)", extra_max: 1}\n'

DICE = (
    1, 1, 3, 3, 4, 4, 6, 6,  # TM I C5.33 Leader Table (card) for the OB-given I1 lines
    3, 3, 4, 3,              # C5.23 (German, US)
    3, 3, 3, 4,              # C5.29 (TM II)
    2, 3,                    # C5.36 Recon dr: German dr 2 (no drm) = 2 locations; US dr 3 = 3 locations
)


def card_text() -> str:
    text = (CARDS / "phd-test.yaml").read_text(encoding="utf-8")
    for row in ("      - {id: G1, type: G,", "      - {id: A1, type: A,"):
        at = text.index(row)
        end = text.index("\n", at) + 1
        text = text[:end] + RECON_ROW + text[end:]
    for note in ('      l: {text: "Determine Leader as per Table C5.33 (TEST DATA)", leader_table: leader, '
                 'params: {columns_by_type: {I: german}}}\n',
                 '      l: {text: "Determine Leader as per Table C5.33 (TEST DATA)", leader_table: leader, '
                 'params: {columns_by_type: {I: us, A: armour}}}\n'):
        assert note in text
        text = text.replace(note, note + RECON_NOTE)
    return text


def declare(play: Play, side: str, where: str) -> None:
    services.recon_declare(user=play.users[side], public_id=play.public_id, location=where)


def test_phd_c5_40_recon_locations_alternate_one_at_a_time_german_first(monkeypatch: Any) -> None:
    play = Play(monkeypatch, "phd", "german", ScriptedDice(*DICE), card_text=card_text())
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"german": 12, "us": 25}, attacked={"us": True, "german": False})
    play.until("C5.31")
    play.chit("german", "attack")
    play.chit("us", "idle")
    play.order("german")
    play.order("us")
    play.until("C5.36")
    play.recon("german", 0)
    play.recon("us", 0)
    assert (play.roster("german", "II").recon, play.roster("us", "II").recon) == (2, 3)
    play.until("C5.40")
    url = reverse("campaign_detail", args=[play.public_id])
    german_page = client_for(play.users["german"]).get(url).content.decode()
    us_page = client_for(play.users["us"]).get(url).content.decode()
    assert "You may declare <strong>2</strong> more" in german_page and 'name="location"' in german_page
    assert "<strong>3</strong> more" not in german_page  # the US count is shown to the US only
    assert "You may declare <strong>3</strong> more" in us_page and 'name="location"' not in us_page
    assert "<strong>2</strong> more" not in us_page
    assert "The German declares now." in us_page
    with pytest.raises(ServiceError, match="the German declares now"):
        declare(play, "us", "K5")
    declare(play, "german", "K5")
    with pytest.raises(ServiceError, match="the US declares now"):
        declare(play, "german", "L6")
    declare(play, "us", "M7")
    declare(play, "german", "N8")  # the German's second and last
    declare(play, "us", "O9")
    assert play.at() == ("II", "phase", "C5.40")
    declare(play, "us", "P10")  # the US's third and last: the step is complete
    assert [(r.payload["side"], r.payload["location"]) for r in play.records("recon-declared")] == [
        ("german", "K5"), ("us", "M7"), ("german", "N8"), ("us", "O9"), ("us", "P10")]
    assert {r.visibility for r in play.records("recon-declared")} == {"public"}
    assert play.at()[2] != "C5.40"
    assert play.dice.remaining == 0
