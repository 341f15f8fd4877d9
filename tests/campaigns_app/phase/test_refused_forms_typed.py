"""A refused order comes back with everything the player typed (issue 9 item 4): the Patrols count (PL 2.31), the points
bought with another currency on the fortification form (PL 2.38 CP → FP, PHD C5.35 TP → DSP) and the Attack Option
tick (PL 2.3), whether the form's own bounds or the rules refused it; nothing is saved. A Dummy Minefield (PL 2.38 "As
per F.7B", a cost the rule text does not give) is shown unbuyable and refused in a player's words.

Figures typed by hand: the example PL card (fixtures/cards/example-pl25.yaml) — Firefight 2 opens with Allied 23 CP,
Axis 21 CP (worked in test_campaign_pl25_steps); MID Intensity allows 2 Patrols; Attack Option 4 CP Allied; Allied
RG A1 12 CP, I1 6 CP, I2 4 CP. The PHD test card (tests/campaigns_app/cards/phd-test.yaml): 1 TP per DSP; C4.2 German
20 TP at TM I.
"""
from __future__ import annotations

import re
from typing import Any

import pytest

from campaigns_app.models import EventRecord
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.test_campaign_pl25_steps import fp_card, page, post, to_firefight_2, token_in

pytestmark = pytest.mark.django_db


def errors_of(body: str) -> str:
    start = body.index('id="phase-errors"')
    return body[start:body.index("</ul>", start)]


def saved(play: Play) -> tuple[str, int]:
    return play.state.to_json(), EventRecord.objects.count()


def test_a_patrol_count_beyond_the_intensity_limit_comes_back_typed_at_2_31(monkeypatch: Any) -> None:
    play, _ = to_firefight_2(monkeypatch)
    play.order("allied")
    play.order("axis")
    html = page(play, "axis")
    before = saved(play)
    refused = post(play, "axis", "phase_order", {"token": token_in(html, "patrol-form"), "nothing": "no",
                                                 "patrols": "3"})
    body = refused.content.decode()
    assert refused.status_code == 422 and "from 0 to 2" in errors_of(body)
    assert re.search(r'id="patrol-count"[^>]*value="3"', body)
    assert saved(play) == before


def test_fp_to_buy_and_the_fortifications_come_back_typed_when_2_38_refuses_them(monkeypatch: Any) -> None:
    play, _ = to_firefight_2(monkeypatch, card_text=fp_card())
    play.until("2.38")
    html = page(play, "axis")
    before = saved(play)
    # 21 CP at 2 CP per FP (the test card) → at most 10 FP; Trip Flares is row 4 of the card's table
    refused = post(play, "axis", "phase_order", {"token": token_in(html, "fort-form"), "nothing": "no",
                                                 "points": "11", "fqty-4": "3"})
    body = refused.content.decode()
    assert refused.status_code == 422 and "FP to buy with CP" in errors_of(body)
    assert re.search(r'id="points-amount"[^>]*value="11"', body)
    assert re.search(r'id="fqty-4"[^>]*value="3"', body)
    assert saved(play) == before


def test_the_attack_option_tick_comes_back_when_the_order_costs_more_cp_than_the_side_has(monkeypatch: Any) -> None:
    play, _ = to_firefight_2(monkeypatch)
    html = page(play, "allied")
    before = saved(play)
    # A1 12 + I1 6 + I2 4 = 22 of the Allied 23 CP → 1 CP left for the 4 CP Attack Option
    form = {"token": token_in(html, "order-form"), "nothing": "no", "attack_option": "yes",
            "qty-A1": "1", "qty-I1": "1", "qty-I2": "1"}
    refused = post(play, "allied", "phase_order", form)
    body = refused.content.decode()
    assert refused.status_code == 422 and "the Attack Option costs 4 CP; you have 1 CP left (2.41)" in errors_of(body)
    assert re.search(r'id="attack-option-box"[^>]*checked', body)
    assert re.search(r'id="qty-A1"[^>]*value="1"', body) and re.search(r'id="qty-I2"[^>]*value="1"', body)
    assert saved(play) == before


def test_an_unticked_attack_option_stays_unticked_when_the_form_is_refused(monkeypatch: Any) -> None:
    play, _ = to_firefight_2(monkeypatch)
    html = page(play, "allied")
    refused = post(play, "allied", "phase_order", {"token": token_in(html, "order-form"), "nothing": "no",
                                                   "qty-I1": "abc"})
    body = refused.content.decode()
    assert refused.status_code == 422
    assert re.search(r'id="attack-option-box"', body) and not re.search(r'id="attack-option-box"[^>]*checked', body)
    assert re.search(r'id="qty-I1"[^>]*value="abc"', body)


def test_dsp_to_buy_come_back_typed_when_c5_35_refuses_them(monkeypatch: Any) -> None:
    # the TM I C5.33 Leader Table rolls of the OB-given I1 lines (as in test_campaign_phd_steps)
    play = Play(monkeypatch, "phd", "german", ScriptedDice(1, 1, 3, 3, 4, 4, 6, 6), card=CARDS / "phd-test.yaml")
    play.until("C5.31")
    play.order("german")
    play.order("us")
    play.until("C5.35")
    html = page(play, "german")
    before = saved(play)
    # 20 TP at 1 TP per DSP → at most 20 DSP
    refused = post(play, "german", "phase_order", {"token": token_in(html, "fort-form"), "nothing": "no",
                                                   "points": "21"})
    body = refused.content.decode()
    assert refused.status_code == 422 and "DSP to buy with TP: 21 is out of range" in errors_of(body)
    assert "from 0 to 20" in errors_of(body)
    assert re.search(r'id="points-amount"[^>]*value="21"', body)
    assert saved(play) == before


def test_a_dummy_minefield_as_per_f7b_is_shown_unbuyable_and_refused_in_player_words(monkeypatch: Any) -> None:
    # PL 2.38 Fortification Points Table: Dummy Minefield "As per F.7B", a cost the rule text does not give; the test
    # card lists it after its five rows (row 5)
    row = "    - {type: Trip Flares, cost: 1}\n"
    text = fp_card()
    assert row in text
    text = text.replace(row, row + "    - {type: Dummy Minefield, cost: {as_per: F.7B}}\n")
    play, _ = to_firefight_2(monkeypatch, card_text=text)
    play.until("2.38")
    html = page(play, "axis")
    assert "as per F.7B" in html and "Cost not given by the rule text: buy it only where your CG Card gives it" in html
    assert re.search(r'id="fqty-5"[^>]*disabled', html)
    before = saved(play)
    refused = post(play, "axis", "phase_order", {"token": token_in(html, "fort-form"), "nothing": "no",
                                                 "points": "2", "fqty-5": "1"})
    body = refused.content.decode()
    assert refused.status_code == 422
    assert ("Dummy Minefield costs “as per F.7B”, a cost the rule text does not give: it can be bought only where "
            "your CG Card gives its FP cost (type it in the card&#x27;s fortifications) (2.38)") in errors_of(body)
    assert "seed" not in errors_of(body)
    assert re.search(r'id="points-amount"[^>]*value="2"', body)
    assert saved(play) == before
