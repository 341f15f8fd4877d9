"""One RR CG date through the browser-facing views and services (PostgreSQL): the Initial Scenario's †† steps,
results entry (differing, then agreed), the RePh with the SAN the players supply, the 19 PM CPP replenishment, a
secret purchase with its set-up surcharge, the 2.519 rolls, fortifications with forfeit, Recon, chits, the scenario
steps in their order, and the next CG Date.

Golden values are typed from the seed (RR 2.5161 Base Numbers 19 PM: German 80, Canadian 40; 2.5184 note o: +3 CPP
on-map; RG I4 Eng Pltn 14 CPP; RG M1 1 CPP gives 15 FPP; Foxhole capacity 3 = 3 FPP; 2.521 Recon 3 CPP + extra).
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import client_for, drive, scrub_random
from tests.campaigns_app.lost_test_values import RR as RR_LOST

RESULTS_FORM = {"cvp-german": "4", "cvp-canadian": "6", "attacked-german": "yes", "attacked-canadian": "no",
                "lvp-canadian": "3", "lvp-german": "", "leaders_lost-german": "", "leaders_lost-canadian": "",
                "units_lost-german": "", "units_lost-canadian": ""}


def state_of(campaign: Campaign) -> Any:
    return engine.load_state(Campaign.objects.get(pk=campaign.pk).state)


def page(user: Any, campaign: Campaign) -> str:
    return client_for(user).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()


def token_in(html: str) -> str:
    match = re.search(r'name="token" value="([0-9a-f]+)"', html)
    assert match, "the form carries a one-time token"
    return match.group(1)


def post(user: Any, campaign: Campaign, name: str, data: dict[str, str]) -> Any:
    return client_for(user).post(reverse(name, args=[campaign.public_id]), data, headers={"HX-Request": "true"})


def done_form(user: Any, campaign: Campaign) -> dict[str, str]:
    """What the user's "Mark finished" form posts: the current step and its one-time token (as the page renders them)."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    seat = campaign.seats.get(user=user)
    state = engine.load_state(campaign.state)
    return {"step": services.current_step_ref(state), "token": services.form_token(campaign, seat, state, "done")}


def players(users: Any) -> dict[str, Any]:
    return {"german": users["gerd"], "canadian": users["cana"]}


def started(users: Any) -> Campaign:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    return campaign


def german_to_buy_at_19pm(users: Any) -> Campaign:
    """A campaign at 19 PM 2.518 (SAN 3 typed at 2.512) where the Canadian has bought nothing: the German's turn."""
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.518")
    services.order_submit(user=users["cana"], public_id=campaign.public_id, orders=[])
    return campaign


def test_the_live_page_is_the_checklist_of_the_initial_pass(rr: Any, users: Any) -> None:
    campaign = started(users)
    html = page(users["gerd"], campaign)

    checklist = html[html.index('id="checklist"'):html.index('id="ledger-summary"')]
    refs = re.findall(r'class="check-ref">([0-9.]+)<', checklist)
    assert refs == ["2.518", "2.519", "2.520"]  # RR ††: the only steps before a CG Initial Scenario
    assert "Initial Scenario" in checklist
    assert checklist.count("Secret order") == 2 and "Automatic" in checklist
    assert 'aria-current="step"' in checklist
    assert 'id="order-form"' in html and "German Reinforcement Group Chart" in html


def test_one_rr_cg_date_through_the_browser_facing_services(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = started(users)

    # 2.518 / 2.520 before the Initial Scenario: both buy nothing (the RR Initial Scenario's CPP are not in the seed)
    for step in ("2.518", "2.520"):
        for user in (german, canadian):
            html = page(user, campaign)
            response = post(user, campaign, "phase_order", {"token": token_in(html), "nothing": "yes"})
            assert response.status_code == 200
        assert state_of(campaign).phase_ref != step
    assert state_of(campaign).step == "initial-scenario"
    for user in (german, canadian):
        assert post(user, campaign, "phase_done", done_form(user, campaign)).status_code == 200

    # results: entries that differ block the campaign and both see the difference
    assert post(german, campaign, "phase_results", RESULTS_FORM).status_code == 200
    assert post(canadian, campaign, "phase_results", {**RESULTS_FORM, "cvp-german": "5"}).status_code == 200
    assert state_of(campaign).step == "results"
    for user in (german, canadian):
        html = page(user, campaign)
        assert 'id="results-differ"' in html and "CVP amassed" in html
    assert post(canadian, campaign, "phase_results", RESULTS_FORM).status_code == 200
    state = state_of(campaign)
    assert state.step == "phase" and state.phase_ref == "2.501"
    assert state.history[-1].result.cvp == {"german": 4, "canadian": 6}

    # 2.501 is ordered (Attacker then Defender): the German attacked, so the Canadian must wait
    response = post(canadian, campaign, "phase_done", done_form(canadian, campaign))
    assert response.status_code == 422 and "German goes first" in response.content.decode()
    assert post(german, campaign, "phase_done", done_form(german, campaign)).status_code == 200
    assert post(canadian, campaign, "phase_done", done_form(canadian, campaign)).status_code == 200

    # to 2.512: each side supplies its SAN through the need form (the RR seed gives no starting SAN)
    state = drive(campaign, players(users), lambda s: s.phase_ref == "2.512")
    assert state.date_id == "19 PM"
    html = page(german, campaign)
    assert 'id="needs"' in html and "Your current SAN" in html
    for user in (german, canadian):
        assert post(user, campaign, "phase_supply", {"need": "san", "input": "number", "value": "3"}).status_code == 200

    # to 2.518 of 19 PM: 2.516 replenished secretly, CPP = Base Number − DR
    state = drive(campaign, players(users), lambda s: s.phase_ref == "2.518")
    for side, base in (("german", 80), ("canadian", 40)):
        [roll] = [r for r in EventRecord.objects.filter(campaign=campaign, kind="roll", side=side, visibility="cg-end")
                  if r.payload["purpose"].startswith("2.516")]
        assert state.ledgers[side].balance("CPP") == Decimal(base - roll.payload["total"])
    german_cpp = state.ledgers["german"].balance("CPP")

    # the German buys I4 on map (14 + 3 note o) and M1 (1 CPP, gives 15 FPP) in secret
    html = page(german, campaign)
    assert 'data-cost-on-map="17"' in html
    order = {"token": token_in(html), "nothing": "no", "qty-I4": "1", "mode-I4": "on-map", "qty-M1": "1"}
    assert post(german, campaign, "phase_order", order).status_code == 200
    state = state_of(campaign)
    ledger = state.ledgers["german"]
    assert ledger.balance("CPP") == german_cpp - 17 - 1
    assert ledger.balance("FPP") == Decimal(15)
    assert [(p.rg_id, p.setup_mode, p.cost) for p in ledger.purchases] == [("I4", "on-map", Decimal(17)),
                                                                           ("M1", "entry", Decimal(1))]
    html = page(canadian, campaign)
    response = post(canadian, campaign, "phase_order", {"token": token_in(html), "nothing": "yes"})
    assert response.status_code == 200

    # 2.519 rolled at once and secretly: the German sees his I4 rolls, the Canadian nothing of them
    state = state_of(campaign)
    assert state.phase_ref == "2.520"
    assert state.ledgers["german"].purchases[0].strength in ("F", "D")
    assert "RG I4" in page(german, campaign)
    assert "I4" not in scrub_random(page(canadian, campaign), campaign)

    # 2.520: two capacity-3 Foxholes (3 FPP each); the unspent 9 FPP are forfeit when the step is completed
    html = page(german, campaign)
    foxhole = re.search(r'name="fopt-(\d+)"[^>]*>(?:<option value="\d">\d</option>)*', html)
    assert foxhole
    index = foxhole.group(1)
    response = post(german, campaign, "phase_order",
                    {"token": token_in(html), "nothing": "no", f"fqty-{index}": "2", f"fopt-{index}": "3"})
    assert response.status_code == 200
    assert state_of(campaign).ledgers["german"].balance("FPP") == Decimal(9)
    html = page(canadian, campaign)
    post(canadian, campaign, "phase_order", {"token": token_in(html), "nothing": "yes"})
    state = state_of(campaign)
    assert state.ledgers["german"].balance("FPP") == Decimal(0)
    assert state.phase_ref == "2.521"

    # 2.521 Recon: 3 CPP + 1 extra for the German; none for the Canadian
    before = state.ledgers["german"].balance("CPP")
    html = page(german, campaign)
    assert post(german, campaign, "phase_recon", {"token": token_in(html), "recon": "buy", "extra": "1"}).status_code == 200
    html = page(canadian, campaign)
    assert post(canadian, campaign, "phase_recon", {"token": token_in(html), "recon": "none"}).status_code == 200
    state = state_of(campaign)
    assert state.ledgers["german"].balance("CPP") == before - 4
    assert state.step == "initiative"

    # chits (2.522), then the scenario's steps in order, the scenario, results and the next date's RePh
    services.chit_submit(user=german, public_id=campaign.public_id, side="german", chit="attack")
    services.chit_submit(user=canadian, public_id=campaign.public_id, side="canadian", chit="idle")
    state = state_of(campaign)
    assert state.pass_kind == "scenario" and state.phase_ref == "2.523"
    state = drive(campaign, players(users), lambda s: s.step == "results")
    assert state.date_id == "19 PM"
    state = drive(campaign, players(users), lambda s: s.date_id == "19 Night")
    assert state.phase_ref == "2.513"  # 2.512 ran by itself: both SANs are known now
    assert [r.date_id for r in state.history] == ["19 AM", "19 PM"]


def test_an_assisted_roll_records_the_ticked_drm_with_its_breakdown(rr: Any, users: Any) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.phase_ref == "2.506")
    html = page(users["gerd"], campaign)
    assert "Escape Table" in html and "-1 if lone, unwounded SMC" in html

    # escape modifiers 0 (−1 lone SMC, tick) and 12 (+2 Isolated, tick) on the Infantry column
    response = post(users["gerd"], campaign, "phase_roll", {
        "token": token_in(html[html.index('class="roll-form"'):]), "step": "2.506", "table": "escape",
        "column": "infantry", "ask-0": "tick", "q-0": "yes", "ask-12": "tick", "q-12": "yes"})
    assert response.status_code == 200
    result = EventRecord.objects.get(campaign=campaign, kind="table-result")
    payload = result.payload
    assert result.visibility == "public"  # the Escape Table is not secret
    assert [m["value"] for m in payload["modifiers"]] == [-1, 2]
    assert payload["final"] == payload["original"] + 1
    assert "Original" in page(users["cana"], campaign)


def test_a_concession_ends_the_cg_and_the_other_side_wins(rr: Any, users: Any) -> None:
    campaign = started(users)
    response = post(users["cana"], campaign, "phase_cg_end", {"action": "concede"})
    assert "Concede the CG?" in response.content.decode() and not state_of(campaign).ended
    post(users["cana"], campaign, "phase_cg_end", {"action": "concede", "confirmed": "yes"})
    state = state_of(campaign)
    assert state.ended and state.cg_end.victor == "german" and state.cg_end.reason == "concession"
