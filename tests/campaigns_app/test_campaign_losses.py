"""Issue 14 item 6: CVP lost between scenarios count (PHD C5.1 "All ConPh losses count for the previous scenario for
all purposes"; PL 3.11, 2.1). The US records 8 CVP lost at C5.8 (Encircled Units: "failure eliminates the unit"); the
secret DRs that follow count them. Figures typed from seed 003: C5.23 "−1 per 10 CVP amassed" (FRD), rows 3-4 → 2
MMC; C5.29 "+1 Attack chit previous scenario", "−1 per 10 CVP suffered" (FRD), row 7 → 30 TP (US); rows 5-6 and the
US row 6 are the TEST DATA card's."""
from __future__ import annotations

import html
from decimal import Decimal
from typing import Any

import pytest

from campaigns_app import services
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

DICE = (
    1, 1, 3, 3, 4, 4, 6, 6,  # TM I C5.33 Leader Table (card) for the OB-given I1 lines
    # C5.23: German DR 3+3 = 6; with the US losses the German amassed 12 + 8 = 20 → −2 → 4 → "3-4" → 2 MMC
    #        (without them: 12 → −1 → 5 → "5-6"). US DR 4+3 = 7, 25 amassed → −2 → 5.
    3, 3, 4, 3,
    # C5.29 (TM II): German DR 3+3 = 6, 25 suffered → −2 → 4 (card row 4: 23 TP).
    #                US DR 3+4 = 7 +1 (US Attack in TM I) −2 (12 + 8 = 20 suffered) = 6 → card row 6: 31 TP
    #                (without the losses: 7 +1 −1 = 7 → 30 TP, legible)
    3, 3, 3, 4,
)


def through_tm_i(monkeypatch: Any) -> Play:
    play = Play(monkeypatch, "phd", "german", ScriptedDice(*DICE), card=CARDS / "phd-test.yaml")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"german": 12, "us": 25}, attacked={"us": True, "german": False})
    return play


def test_conph_losses_recorded_at_c5_8_feed_the_c5_23_and_c5_29_drm(monkeypatch: Any) -> None:
    play = through_tm_i(monkeypatch)
    play.until("C5.8")
    services.losses_submit(user=play.users["us"], public_id=play.public_id, cvp=8)
    (recorded,) = play.records("losses-recorded")
    assert recorded.visibility == "public" and recorded.payload["counted_for"] == "I"
    assert play.state.history[-1].result.cvp == {"german": 20, "us": 25}  # type: ignore[union-attr]
    assert play.roster("us", "I").cvp_suffered == 20 and play.roster("german", "I").cvp_amassed == 20
    play.until("C5.31")
    c5_23 = {r.side: (r.payload["original"], r.payload["final"], r.payload["result"])
             for r in play.records("table-result", date="I", step="C5.23")}
    assert c5_23 == {"german": (6, 4, "2"), "us": (7, 5, "1")}
    c5_29 = {r.side: (r.payload["dr"], r.payload["amount"]) for r in play.records("replenished", date_id="II")}
    assert c5_29 == {"german": (4, "23"), "us": (6, "31")}  # without the losses the US Final DR is 7 → 30
    assert play.ledger("us").balance("TP") == Decimal(30 + 31)  # C4.2 OB 30 TP carried + 31


def test_losses_are_recorded_only_where_units_are_lost_and_as_a_positive_whole_number(monkeypatch: Any) -> None:
    play = through_tm_i(monkeypatch)
    play.until("C5.1")  # C5.1 records the scenario's losses with its results: the form is at C5.2 and after
    with pytest.raises(services.ServiceError, match="Losses are recorded at the steps where units are lost"):
        services.losses_submit(user=play.users["us"], public_id=play.public_id, cvp=8)
    play.until("C5.8")
    for bad in (0, -3, 1000, True, "8", 10**5000, "9" * 5000):
        with pytest.raises(services.ServiceError, match="CVP lost must be a whole number from 1 to 999"):
            services.losses_submit(user=play.users["us"], public_id=play.public_id, cvp=bad)
    assert play.records("losses-recorded") == []


def test_the_losses_form_is_on_the_page_at_c5_8_and_posts_through_the_view(monkeypatch: Any) -> None:
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    play = through_tm_i(monkeypatch)
    play.until("C5.8")
    url = reverse("campaign_detail", args=[play.public_id])
    us_page = client_for(play.users["us"]).get(url).content.decode()
    assert 'id="losses-form"' in us_page
    assert 'id="losses-leaders"' not in us_page  # no PHD step counts leaders lost
    with pytest.raises(services.ServiceError, match="No step of this system counts leaders lost"):
        services.losses_submit(user=play.users["us"], public_id=play.public_id, cvp=8, leaders=1)
    response = client_for(play.users["us"]).post(reverse("phase_losses", args=[play.public_id]), {"cvp": "abc"})
    assert response.status_code == 422
    message = "CVP lost: “abc” is not allowed: enter a whole number from 1 to 999."
    assert message in html.unescape(response.content.decode())
    client_for(play.users["us"]).post(reverse("phase_losses", args=[play.public_id]), {"cvp": "8"})
    assert play.state.history[-1].result.cvp["german"] == 20  # type: ignore[union-attr]
    german_page = client_for(play.users["german"]).get(url).content.decode()
    assert "the US lost 8 CVP; they count for I" in german_page


# ------------------------------------------------- PL 2.1 / 3.44: RePh losses count for the previous firefight (3.11)


def test_reph_losses_recorded_at_3_13_and_3_22_feed_the_3_44_and_2_1_drm(monkeypatch: Any) -> None:
    # Example CG Card (Intensity MID; 2.1 HIST/CP DRM Axis −1). Initial Firefight: Allied amassed 14, Axis 23, Allied
    # won and attacked. RePh: the Axis loses 6 CVP at 3.13 (CC "until one side has been completely eliminated"), the
    # Allied side 8 at 3.22 (4 CVP of guarded prisoners: "worth double CVP") → Allied amassed 20, Axis 31.
    # 3.44: Allied dr 4 −1 (won) −1 (20 amassed: one 20) = 2 → "2-3" → 2 MMC (without the losses: 4 −1 = 3);
    #       Axis dr 6 −1 (31 amassed: one 20) = 5 → "4-5" → 1 (unchanged: 23 and 31 both hold one 20)
    # 3.45 (ignores CVP): Allied 2 −1 +2 = 3 → 2; Axis 5 +2 = 7 → 0.  3.47: DR 6+6 and 1+1 (no CVP drm)
    # 2.1 MID: Allied DR 2+3 = 5 +1 (Attack Option) −3 (31 suffered: three 10s) = 3 → 24 (without the losses: −2 → 23)
    #          Axis DR 4+4 = 8 −1 (HIST) −2 (20 suffered) = 5 → 22 (without the losses: −1 → 6 → 21)
    from tests.campaigns_app.test_campaign_pl25_steps import EXAMPLE_CARD, TO_FIREFIGHT_2

    dice = ScriptedDice(*TO_FIREFIGHT_2)
    play = Play(monkeypatch, "pl25", "allied", dice, card=EXAMPLE_CARD)
    play.order("allied")
    play.order("axis")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"allied": 14, "axis": 23}, attacked={"allied": True, "axis": False}, winner="allied")
    play.until("3.13")
    services.losses_submit(user=play.users["axis"], public_id=play.public_id, cvp=6)
    play.until("3.22")
    services.losses_submit(user=play.users["allied"], public_id=play.public_id, cvp=8)
    assert [r.payload["counted_for"] for r in play.records("losses-recorded")] == ["1", "1"]
    assert play.state.history[-1].result.cvp == {"allied": 20, "axis": 31}  # type: ignore[union-attr]
    assert play.roster("allied", "1").cvp_suffered == 31 and play.roster("axis", "1").cvp_suffered == 20
    play.until("3.45")
    c3_44 = {r.side: (r.payload["original"], r.payload["final"], r.payload["result"])
             for r in play.records("table-result", date="1", step="3.44")}
    assert c3_44 == {"allied": (4, 2, "2"), "axis": (6, 5, "1")}
    play.supply("allied", "leaders_generated", 0)
    play.supply("axis", "leaders_generated", 0)
    play.until("2.3")
    c2_1 = {r.side: (r.payload["dr"], r.payload["amount"]) for r in play.records("replenished", date_id="2")}
    assert c2_1 == {"allied": (3, "24"), "axis": (5, "22")}
    assert (play.ledger("allied").balance("CP"), play.ledger("axis").balance("CP")) == (Decimal(24), Decimal(22))
    assert dice.remaining == 0


def test_leaders_lost_at_a_reph_step_raise_the_3_45_generate_limit(monkeypatch: Any) -> None:
    # 3.45 "A side may only Generate a total of one fewer leaders than they lost in the current CG/RePh".
    # Dice as test_campaign_pl25_steps' 3.45 test: 3.44 Allied 4, Axis 6; 3.45 Allied dr 2 −1 (won) +2 = 3 → "2-3"
    # → 2 leaders. The Allied side entered 2 leaders lost with the results and loses 1 more (2 CVP) at 3.17: 3 lost →
    # it may Generate min(2, 3 − 1) = 2 (with the results' 2 alone: 1). The 2 CVP leave 3.44 as it was (Axis amassed
    # 23 + 2 = 25: still one 20).
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for
    from tests.campaigns_app.test_campaign_pl25_steps import EXAMPLE_CARD

    play = Play(monkeypatch, "pl25", "allied", ScriptedDice(4, 6, 2, 5), card=EXAMPLE_CARD)
    play.order("allied")
    play.order("axis")
    play.until("@initial-scenario")
    play.both_done()
    play.results(cvp={"allied": 14, "axis": 23}, attacked={"allied": True, "axis": False}, winner="allied",
                 leaders_lost={"allied": 2, "axis": 0})
    play.until("3.17")
    page = client_for(play.users["allied"]).get(reverse("campaign_detail", args=[play.public_id])).content.decode()
    assert 'id="losses-leaders"' in page
    for bad in (-1, 100, "1"):
        with pytest.raises(services.ServiceError, match="Leaders lost must be a whole number from 0 to 99"):
            services.losses_submit(user=play.users["allied"], public_id=play.public_id, cvp=2, leaders=bad)
    services.losses_submit(user=play.users["allied"], public_id=play.public_id, cvp=2, leaders=1)
    (recorded,) = play.records("losses-recorded")
    assert recorded.payload["text"] == "3.17: the Allied Side lost 2 CVP, 1 leader among them; they count for 1 " \
        "(CVP suffered 25)" and recorded.payload["leaders"] == 1
    assert play.state.history[-1].result.leaders_lost == {"allied": 3, "axis": 0}  # type: ignore[union-attr]
    play.until("3.45")
    assert play.state.facts_supplied["allied"]["leaders_may_generate"] == 2
    with pytest.raises(services.ServiceError, match="from 0 to 2, got 3"):
        play.supply("allied", "leaders_generated", 3)


@pytest.mark.parametrize(("cvp", "expected"), [
    ("9" * 4000, "CVP lost: “99999999999999999999…” is not allowed: enter a whole number from 1 to 999."),
    ("1000", "CVP lost: 1000 is out of range: enter a whole number from 1 to 999."),
    ("0", "CVP lost: 0 is out of range: enter a whole number from 1 to 999."),
    ("-3", "CVP lost: -3 is out of range: enter a whole number from 1 to 999."),
    ("", "CVP lost: enter a whole number from 1 to 999."),
])
def test_a_cvp_lost_outside_1_to_999_is_refused_with_a_short_message_naming_the_range_and_nothing_is_saved(
    monkeypatch: Any, cvp: str, expected: str
) -> None:
    from django.urls import reverse

    from campaigns_app.models import Campaign
    from tests.campaigns_app.conftest import client_for

    play = through_tm_i(monkeypatch)
    play.until("C5.8")
    before = Campaign.objects.get(public_id=play.public_id)
    response = client_for(play.users["us"]).post(reverse("phase_losses", args=[play.public_id]), {"cvp": cvp})
    assert response.status_code == 422
    page = html.unescape(response.content.decode())
    assert expected in page
    assert "9" * 100 not in page  # a short excerpt, never the whole value
    after = Campaign.objects.get(public_id=play.public_id)
    assert (after.state, after.revision, after.updated) == (before.state, before.revision, before.updated)
    assert play.records("losses-recorded") == []
