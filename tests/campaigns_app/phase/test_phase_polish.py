"""What a player notices on the live page (RR, PostgreSQL): a "Mark finished" form bound to its step, the 2.512 SAN
form's true wording (RR 2.525: each side announces its SAN), "Your move" in words, the 2.501 order while the results
are entered, LVP asked only of the side that records it (RR 2.503), a 0-CPP Initial order form that says so, and the
2.5122 caution once for its step."""
from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import client_for, drive, new_campaign

STALE = "That step is already finished; the page has been refreshed."


def state_of(campaign: Campaign) -> Any:
    return engine.load_state(Campaign.objects.get(pk=campaign.pk).state)


def page(user: Any, campaign: Campaign) -> str:
    return client_for(user).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()


def done_form_in(html: str) -> dict[str, str]:
    """The hidden fields of the page's "Mark finished" form."""
    form = html[html.index('class="done-form"'):]
    form = form[:form.index("</form>")]
    step = re.search(r'name="step" value="([^"]*)"', form)
    token = re.search(r'name="token" value="([^"]*)"', form)
    assert step and token, form
    return {"step": step.group(1), "token": token.group(1)}


def post_done(user: Any, campaign: Campaign, data: dict[str, str], htmx: bool = True) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    return client_for(user).post(reverse("phase_done", args=[campaign.public_id]), data, headers=headers)


def players(users: Any) -> dict[str, Any]:
    return {"german": users["gerd"], "canadian": users["cana"]}


def at(campaign: Campaign, users: Any, until: Any) -> Any:
    return drive(campaign, players(users), until)


def test_a_mark_finished_form_finishes_only_the_step_it_was_shown_for(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.step == "initial-scenario")
    german_form = done_form_in(page(german, campaign))
    assert german_form["step"] == "initial-scenario"

    assert post_done(german, campaign, german_form).status_code == 200
    assert state_of(campaign).done == {"german"}
    events = EventRecord.objects.filter(campaign=campaign).count()

    # the same request again (double click, resent): nothing more is recorded, and the page says why
    again = post_done(german, campaign, german_form)
    assert again.status_code == 200 and STALE in again.content.decode()
    assert state_of(campaign).done == {"german"}
    assert EventRecord.objects.filter(campaign=campaign).count() == events

    assert post_done(canadian, campaign, done_form_in(page(canadian, campaign))).status_code == 200
    assert state_of(campaign).step == "results"

    # a stale page (the Initial Scenario form, now that the results are being entered) finishes nothing
    events = EventRecord.objects.filter(campaign=campaign).count()
    before = Campaign.objects.get(pk=campaign.pk).state
    stale = post_done(german, campaign, german_form)
    assert stale.status_code == 200 and STALE in stale.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).state == before
    assert EventRecord.objects.filter(campaign=campaign).count() == events

    # without JavaScript: redirected to the page, which says so
    followed = client_for(german).post(reverse("phase_done", args=[campaign.public_id]),
                                       {"step": "initial-scenario", "token": german_form["token"]}, follow=True)
    assert STALE in followed.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).state == before


def test_a_mark_finished_form_without_its_token_or_for_another_step_records_nothing(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.step == "initial-scenario")
    form = done_form_in(page(german, campaign))
    before = Campaign.objects.get(pk=campaign.pk).state
    for data in ({}, {"step": form["step"]}, {"step": form["step"], "token": "0" * 48}):
        response = post_done(german, campaign, data)  # no token, or one this server never issued (issue 10.5)
        assert response.status_code == 422 and "That form is not valid" in response.content.decode(), data
        assert Campaign.objects.get(pk=campaign.pk).state == before, data
    response = post_done(german, campaign, {**form, "step": "2.512"})
    assert response.status_code == 200 and STALE in response.content.decode()
    assert Campaign.objects.get(pk=campaign.pk).state == before
    assert post_done(german, campaign, form).status_code == 200
    assert state_of(campaign).done == {"german"}


def test_the_san_form_says_both_players_see_the_san_and_your_move_names_it(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.phase_ref == "2.512")
    html = page(german, campaign)
    needs = html[html.index('id="needs"'):html.index("</form>", html.index('id="needs"'))]
    # rr.yaml: 2.512 secret: none; RR 2.525 each side announces its SAN
    assert "Both players will see your SAN: rule 2.512 is not secret" in needs
    assert "Only you see" not in needs
    owes = html[html.index('id="owes"'):html.index("</section>", html.index('id="owes"'))]
    assert "You: 2.512 New CG Date and SAN Adjustment: type your SAN" in owes
    assert "Canadian: 2.512 New CG Date and SAN Adjustment: type its SAN" in owes
    assert "supply san" not in html


def test_the_2_501_order_names_the_roles_while_the_results_are_entered(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.step == "results")
    html = page(german, campaign)
    checklist = html[html.index('id="checklist"'):html.index('id="ledger-summary"')]
    # RR 2.501 Conclusion of Melee: Attacker then Defender; who attacked is in the results
    assert "In order: Attacker, then Defender (known once the results are in)" in checklist
    assert not re.search(r"In order: </span>", checklist)

    at(campaign, users, lambda s: s.phase_ref == "2.501")  # DEFAULT_RESULTS: the German attacked
    checklist = page(german, campaign)
    assert "In order: German then Canadian" in checklist


def test_only_the_canadian_is_asked_for_lvp_in_the_results(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.step == "results")
    html = page(german, campaign)
    assert 'id="lvp-canadian"' in html and 'id="lvp-german"' not in html
    # RR 2.503 (2.5032): only the Canadian records his Current-LVP Total
    assert "No LVP for the German side: only the Canadian side records LVP (rule 2.503)." in html
    form = {"cvp-german": "4", "cvp-canadian": "6", "attacked-german": "yes", "attacked-canadian": "no",
            "lvp-canadian": "3", "lvp-german": "9"}
    for user in (german, canadian):
        response = client_for(user).post(reverse("phase_results", args=[campaign.public_id]), form,
                                         headers={"HX-Request": "true"})
        assert response.status_code == 200
    state = state_of(campaign)
    assert state.history[-1].result.lvp == {"canadian": 3}  # a German LVP posted anyway is not kept


def test_the_initial_order_form_says_there_is_nothing_to_buy_with_0_cpp(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    html = page(german, campaign)
    notice = html[html.index('id="nothing-to-buy"'):html.index("</div>", html.index('id="nothing-to-buy"'))]
    assert "You have 0 CPP: nothing can be bought now." in notice
    # rr.yaml missing_parts: initial_ob (the Initial Scenario card is not in the seed)
    assert "The RR Initial Scenario OB (with its starting CPP) is not in the rule text; a CG Card can supply it." in notice
    form = html[html.index('id="order-form"'):html.index("</form>", html.index('id="order-form"'))]
    quantities = re.findall(r'<input id="qty-[^"]+"[^>]*>', form)
    assert quantities and all(" disabled" in q for q in quantities)
    assert "Submit my order" not in form and "Buy nothing this time" in form

    at(campaign, users, lambda s: s.phase_ref == "2.518" and s.pass_kind != "initial")  # 19 PM: CPP replenished
    html = page(german, campaign)
    assert 'id="order-form"' in html and 'id="nothing-to-buy"' not in html
    assert "Submit my order" in html


def test_the_2_5122_caution_is_shown_once_for_the_step(rr: Any, users: Any) -> None:
    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    at(campaign, users, lambda s: s.phase_ref == "2.513")
    html = page(german, campaign)
    records = html[html.index('id="step-records"'):html.index("</section>", html.index('id="step-records"'))]
    assert records.count("2.5122 as written") == 1
    caution_at = records.index("2.5122 as written")
    assert 'class="record step-caution"' in records[:caution_at]
    first_san = records.index("SAN adjustment")
    assert caution_at < first_san  # stated for the step, before its SAN lines
    assert records.count("SAN adjustment") == 2  # German and Canadian, each announced (2.525)


def test_after_cg_end_the_campaign_page_says_how_the_cg_ended_once_not_in_both_your_move_and_the_step_card(
        rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.cg_end_concede(user=users["gerd"], public_id=campaign.public_id)

    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()

    owes = page[page.index('id="owes"'):page.index('id="step-panel"')]
    ended = "The Campaign Game ended on 19 PM: the German side conceded; the Canadian side wins."
    assert "Campaign Game" not in owes and "Nothing is due from either side any more." in owes
    assert page.count(">The Campaign Game is over</h2>") == 1
    assert page.count(f'<p id="cg-end-text">{ended}</p>') == 1
    assert page.count(f">{ended}<") == 2, "the step card and the latest events' line of the cg-ended event"
