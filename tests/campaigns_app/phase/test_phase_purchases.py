"""Secret RG orders through the services and views: every purchase rule the RR data states refuses the order with its
own message citing the rule, and nothing is saved; a form posted twice records one purchase.

Values typed from the seed (RR 2.518 German RG Chart): I3 CG Date Max 1; M4 "available after 19 PM"; I2 (Lehr) never
on map (2.5184); RR has no In Reserve set-up; O3 Pre-Registered hexes (note p); M3 extra CPP (note r, x ≤ 3);
G2/G3 combined max 2 for the CG (note f); I4 CG Max 1; Trench German only, Initial Scenario only (2.520).
"""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import client_for, drive, snapshot
from tests.campaigns_app.phase.test_phase_flow import page, players, post, started, state_of, token_in


@pytest.fixture
def at_19pm_purchase(rr: Any, users: Any) -> Campaign:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.518")
    return campaign


def refused(user: Any, campaign: Campaign, orders: list[dict[str, Any]]) -> list[str]:
    before = snapshot(campaign)
    with pytest.raises(services.RefusedOrder) as caught:
        services.order_submit(user=user, public_id=campaign.public_id, orders=orders)
    assert snapshot(campaign) == before, "a refused order saves nothing"
    return caught.value.messages


def rg(rg_id: str, **extra: Any) -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, **extra}


@pytest.mark.parametrize(("orders", "expected"), [
    ([rg("Z9")], "unknown RG 'Z9' on the German Reinforcement Group Chart"),
    ([rg("I3"), rg("I3")], "RG I3 (PzGr Coy): CG Date Max is 1 and 1 is already bought on this date (2.518)"),
    ([rg("M4")], "RG M4 (Activate A20 Entry) is only available after 19 PM (2.518)"),
    ([rg("I2", setup_mode="on-map")], "RG I2 (PzGr Coy (Lehr)) may not set up on board (2.5184)"),
    ([rg("I4", setup_mode="reserve")], "RG I4 (Eng Pltn): rr has no In Reserve set-up (allowed: entry, on-map)"),
    ([rg("O3", pre_registered=99)], "Pre-Registered hexes; 99 ordered (2.518 note p)"),
    ([rg("I4", extra=1)], "RG I4 (Eng Pltn): extra points may be spent only where the RG note allows it (2.518)"),
    ([rg("M3", extra=9)], "RG M3 (Recon): at most 3 extra points (x ≤ 3); 9 ordered (2.518 note r)"),
    ([rg("I1"), rg("I1"), rg("I3")], "RG I3 (PzGr Coy) costs 25 CPP; you have"),
])
def test_each_broken_purchase_rule_is_refused_with_its_message_and_nothing_is_saved(
    at_19pm_purchase: Campaign, users: Any, orders: list[dict[str, Any]], expected: str
) -> None:
    messages = refused(users["gerd"], at_19pm_purchase, orders)
    assert any(expected in message for message in messages), messages


def test_fortifications_the_side_or_the_date_may_not_buy_are_refused(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    drive(campaign, players(users), lambda s: s.phase_ref == "2.520")
    german = refused(users["gerd"], campaign, [{"type": "fort", "fort_type": "Trench"}])
    assert any("Trench is only available for purchase during the Initial Scenario (2.520)" in m for m in german)
    canadian = refused(users["cana"], campaign, [{"type": "fort", "fort_type": "Wire"}])
    assert any("Wire is only available for German purchase (2.520)" in m for m in canadian)


def test_recon_extra_beyond_the_limit_is_refused_citing_2_521(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    drive(campaign, players(users), lambda s: s.phase_ref == "2.521")
    before = snapshot(campaign)
    with pytest.raises(services.ServiceError, match=r"extra CPP must be 0 to 3 .*2\.521"):
        services.recon_submit(user=users["gerd"], public_id=campaign.public_id, extra=4)
    assert snapshot(campaign) == before


def test_the_cg_and_combined_maxima_count_earlier_dates(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=[rg("I4"), rg("G2"), rg("G3")])
    drive(campaign, players(users), lambda s: s.date_id == "19 Night" and s.phase_ref == "2.518")
    messages = refused(users["gerd"], campaign, [rg("I4"), rg("G2")])
    assert any("RG I4 (Eng Pltn): CG Max is 1 and 1 is already bought in the CG (2.518)" in m for m in messages)
    assert any("at most 2 RG combined from G2 and G3 for the CG; 2 already bought (2.518 note f)" in m
               for m in messages), messages


def test_several_broken_rules_are_each_listed_on_the_page_and_nothing_is_saved(
    at_19pm_purchase: Campaign, users: Any
) -> None:
    campaign = at_19pm_purchase
    html = page(users["gerd"], campaign)
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {
        "token": token_in(html), "nothing": "no", "qty-M4": "1", "qty-I2": "1", "mode-I2": "on-map",
        "qty-O3": "1", "pre-O3": "99"})
    body = response.content.decode()
    assert response.status_code == 422
    errors = body[body.index('id="phase-errors"'):]
    errors = errors[:errors.index("</ul>")]
    assert "Nothing was saved." in errors and "Please fix these 3 things" in errors
    assert len(re.findall(r"<li>", errors)) == 3
    assert snapshot(campaign) == before


def test_an_order_form_posted_twice_records_one_purchase(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    form = {"token": token_in(page(users["gerd"], campaign)), "nothing": "no", "qty-I4": "1"}

    first = post(users["gerd"], campaign, "phase_order", form)
    again = post(users["gerd"], campaign, "phase_order", form)  # double click / resent request
    no_js = client_for(users["gerd"]).post(reverse("phase_order", args=[campaign.public_id]), form)

    assert first.status_code == 200 and again.status_code == 200 and no_js.status_code == 302
    assert "already recorded" in again.content.decode()
    ledger = state_of(campaign).ledgers["german"]
    assert [p.rg_id for p in ledger.purchases] == ["I4"]
    assert EventRecord.objects.filter(campaign=campaign, kind="order-recorded").count() == 1


def test_a_roll_form_posted_twice_rolls_once(rr: Any, users: Any) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.phase_ref == "2.510")
    html = page(users["cana"], campaign)
    form = {"token": token_in(html[html.index('class="roll-form"'):]), "step": "2.510", "table": "wounded-leader"}
    assert post(users["cana"], campaign, "phase_roll", form).status_code == 200
    assert post(users["cana"], campaign, "phase_roll", form).status_code == 200
    assert EventRecord.objects.filter(campaign=campaign, kind="table-result").count() == 1
    counters = Campaign.objects.get(pk=campaign.pk).dice_counters
    html = page(users["cana"], campaign)
    assert post(users["cana"], campaign, "phase_roll", {**form, "token": token_in(html[html.index('class="roll-form"'):])}
                ).status_code == 200
    assert EventRecord.objects.filter(campaign=campaign, kind="table-result").count() == 2
    assert Campaign.objects.get(pk=campaign.pk).dice_counters != counters  # the counters are persisted with each roll


def test_an_empty_order_asks_for_a_quantity_or_buy_nothing(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {"token": token_in(page(users["gerd"], campaign)),
                                                             "nothing": "no"})
    assert response.status_code == 422 and "Buy nothing this time" in response.content.decode()
    assert snapshot(campaign) == before
    assert engine.load_state(Campaign.objects.get(pk=campaign.pk).state).phase_ref == "2.518"
