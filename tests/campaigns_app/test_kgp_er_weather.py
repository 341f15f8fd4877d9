"""ER 1.517 / KGP 8.617 weather and KGP 8.620 dice (issue 14 item 11), through the services and the pages, with the
values-only cards (TEST DATA). Seed 004 CG3 / seed 002 CG3: "The historical weather for each CG Date is listed in
8.617 [1.517]. Alternatively, players may agree to use the optional 8.6171 random weather rules [the optional random
weather table provided]" — the app takes the card's calendar weather, else rolls the card's weather table, else leaves
it to the board; it never invents a table. Seed 004 says nothing secret of 8.620 ("some German RG may be Depleted; see
8.6193 & 8.6201"): its rolls are made at the board, in public.
"""
from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import EventRecord
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db

KGP_STEPS_AS_PRINTED = '''  - {ref: "8.617", name: "Weather"}
  - {ref: "8.619", name: "Purchasing RG", loop_on_idle: true, initial: true'''
KGP_8620 = '''  - {ref: "8.620", name: "German Depletion"}
  - {ref: "8.623", name: "Initiative"'''


def kgp_card(extra: str = "", weather: bool = True) -> str:
    """kgp-values-test.yaml with the printed 8.617 and 8.620 listed by number and name only (TEST DATA)."""
    text = (CARDS / "kgp-values-test.yaml").read_text(encoding="utf-8")
    text = text.replace('  - {ref: "8.619", name: "Purchasing RG", loop_on_idle: true, initial: true', KGP_STEPS_AS_PRINTED, 1)
    text = text.replace('  - {ref: "8.623", name: "Initiative"', KGP_8620, 1)
    if not weather:
        text = text.replace('weather: "Overcast (TEST DATA)"', 'note: "no weather given (TEST DATA)"', 1)
    return text + extra


def page(play: Play, side: str) -> str:
    response = client_for(play.users[side]).get(reverse("campaign_detail", args=[play.public_id]))
    assert response.status_code == 200
    return response.content.decode()


def to_18_pm(play: Play) -> None:
    assert play.until("@initial-scenario") == ["8.619", "8.620"]
    play.both_done()
    play.results(cvp={"us": 0, "german": 0}, attacked={"german": True, "us": False}, lvp={"us": 0, "german": 0})


def test_kgp_8_620_offers_the_roll_dice_form_and_its_roll_is_public(monkeypatch: Any) -> None:
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(4, 2), card_text=kgp_card(),
                player_settings={"kgp_cg": "I"})
    play.until("8.620")
    for side in ("german", "us"):
        assert 'id="board-form' in page(play, side), f"the {side} page offers Roll dice at 8.620"
    services.board_roll_submit(user=play.users["german"], public_id=play.public_id, at="8.620", kind="DR", count=1,
                               purpose="8.6201 Depletion of RG I1")
    [roll] = [r for r in EventRecord.objects.filter(campaign__public_id=play.public_id, kind="roll") if r.payload.get("board")]
    assert (roll.visibility, roll.payload["dice"], roll.payload["stream"]) == ("public", [4, 2], "public")
    assert "8.6201 Depletion of RG I1" in page(play, "us")


def test_kgp_8_617_takes_the_weather_from_the_cards_calendar(monkeypatch: Any) -> None:
    # 8.616 Secret DRs at 18 PM: 1+1, 1+1
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(1, 1, 1, 1), card_text=kgp_card(),
                player_settings={"kgp_cg": "I"})
    to_18_pm(play)
    assert play.at() == ("18 PM", "phase", "8.619")
    [weather] = play.records("weather", date="18 PM")
    assert (weather.visibility, weather.payload["weather"], weather.payload["step"]) == ("public", "Overcast (TEST DATA)", "8.617")
    assert "Overcast (TEST DATA)" in page(play, "us") and "Overcast (TEST DATA)" in page(play, "german")
    assert play.dice.remaining == 0


WEATHER_TABLE = '''
tables:
  - id: weather-test
    ref: "8.6171"
    name: "Random Weather (TEST DATA)"
    dice: DR
    columns:
      - {id: weather, label: Weather}
    rows:
      - {label: "≤6", max: 6, cells: ["Clear (TEST DATA)"]}
      - {label: "≥7", min: 7, cells: ["Snow (TEST DATA)"]}
'''


def test_kgp_8_617_rolls_the_cards_weather_table_in_public_when_the_calendar_gives_none(monkeypatch: Any) -> None:
    text = kgp_card(WEATHER_TABLE, weather=False).replace(
        '{ref: "8.617", name: "Weather"}', '{ref: "8.617", name: "Weather", tables: [weather-test]}', 1)
    # 8.616 Secret DRs 1+1, 1+1; then the 8.617 weather DR 5+3 = 8 → "≥7" → Snow (TEST DATA)
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(1, 1, 1, 1, 5, 3), card_text=text,
                player_settings={"kgp_cg": "I"})
    to_18_pm(play)
    [weather] = play.records("weather", date="18 PM")
    assert (weather.visibility, weather.payload["weather"]) == ("public", "Snow (TEST DATA)")
    [result] = play.records("table-result", step="8.617")
    assert (result.visibility, result.payload["final"]) == ("public", 8)
    assert "Snow (TEST DATA)" in page(play, "us")


def test_kgp_8_617_leaves_the_weather_to_the_board_when_the_card_gives_neither(monkeypatch: Any) -> None:
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(1, 1, 1, 1), card_text=kgp_card(weather=False),
                player_settings={"kgp_cg": "I"})
    to_18_pm(play)
    [weather] = play.records("weather", date="18 PM")
    assert weather.payload["weather"] is None and weather.payload["board"] is True
    assert play.dice.remaining == 0  # no roll on an invented table
    assert "The card gives no weather for 18 PM: determine it at the board from the printed 8.617 chart" in page(play, "us")


def test_er_1_517_takes_the_weather_from_the_cards_calendar(monkeypatch: Any) -> None:
    text = (CARDS / "er-values-test.yaml").read_text(encoding="utf-8").replace(
        '  - {ref: "1.518", name: "Purchasing RG"', '  - {ref: "1.517", name: "Weather"}\n  - {ref: "1.518", name: "Purchasing RG"', 1)
    assert 'weather: "Clear (TEST DATA)"' in text
    play = Play(monkeypatch, "er", "us", ScriptedDice(*([1] * 8)), card_text=text)
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"us": 0, "japanese": 0}, attacked={"us": True, "japanese": False}, lvp={"us": 0, "japanese": 0})
    assert play.at()[0] == "D1 Night"
    [weather] = play.records("weather", date="D1 Night")
    assert (weather.visibility, weather.payload["weather"], weather.payload["night"]) == ("public", "Clear (TEST DATA)", True)
