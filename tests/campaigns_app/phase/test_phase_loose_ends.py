"""Loose ends of the play loop: player seeds chosen by the players, PHD chits sealed at C5.31, the CG ending on
"objectives met", the PHD C5.36 recon form, checklist kind labels and wording seen from each side.

Golden texts are typed by hand from the rule texts and the wording decided for the pages, never read from the code.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.cards import services as card_services
from campaigns_app.models import Campaign, Seat
from rules_engine import dice as engine_dice
from rules_engine import sequence
from rules_engine.loader import parse_system
from tests.campaigns_app.campaign_script import CARDS, load_system
from tests.campaigns_app.conftest import client_for, drive, new_campaign, snapshot, ws_fragments
from tests.campaigns_app.lost_test_values import PHD_TEST_CARD, post_fields
from tests.campaigns_app.lost_test_values import RR as RR_LOST

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def page(client: Any, name: str, campaign: Campaign) -> str:
    response = client.get(reverse(name, args=[campaign.public_id]))
    assert response.status_code == 200
    return response.content.decode()


def seat_seeds(campaign: Campaign) -> dict[str, str]:
    return dict(Seat.objects.filter(campaign=campaign).values_list("side", "player_seed"))


def play_rr(users: dict[str, User], german_seed: str | None = None, canadian_seed: str | None = None) -> Campaign:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST,
                                        player_seed=german_seed)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token, player_seed=canadian_seed)
    campaign.refresh_from_db()
    return campaign


PLAYERS = lambda users: {"german": users["gerd"], "canadian": users["cana"]}  # noqa: E731


# ------------------------------------------------------------------------------------------------------ player seeds


def test_the_creator_and_the_joiner_each_choose_their_own_player_seed(rr: Any, users: Any) -> None:
    gerd, cana = client_for(users["gerd"]), client_for(users["cana"])
    response = gerd.post(reverse("campaign_create"), {"name": "Hill 112", "system": "rr", "side": "german",
                                                      "player_seed": "Gerd's lucky 7", **post_fields(RR_LOST)})
    assert response.status_code == 302
    campaign = Campaign.objects.get(name="Hill 112")
    join_url = reverse("campaign_join", args=[campaign.invitations.get().token])

    join_page = cana.get(join_url).content.decode()
    assert campaign.seed_commitment in join_page  # the commitment is shown before the joiner gives a seed
    assert 'name="player_seed"' in join_page
    assert cana.post(join_url, {"player_seed": "  maple leaf 1944 "}).status_code == 302

    assert seat_seeds(campaign) == {"german": "Gerd's lucky 7", "canadian": "maple leaf 1944"}


def test_the_seed_field_is_prefilled_with_a_fresh_random_value(rr: Any, users: Any) -> None:
    client = client_for(users["gerd"])
    found = [re.search(r'name="player_seed" value="([^"]+)"', client.get(reverse("campaign_create")).content.decode())
             for _ in range(2)]
    assert all(found)
    first, second = (m.group(1) for m in found if m)
    assert first != second and 1 <= len(first) <= 64
    assert "so the server could not have chosen its seed to suit the dice" in client.get(
        reverse("campaign_create")).content.decode()


@pytest.mark.parametrize(("seed", "message"), [
    ("", "1 to 64 printable characters"),
    ("x" * 65, "65 characters long; at most 64 are allowed"),
    ("tab\there", "cannot be printed"),
])
def test_a_bad_player_seed_is_refused_with_a_clear_message_and_nothing_is_saved(
    rr: Any, users: Any, seed: str, message: str
) -> None:
    with pytest.raises(services.ServiceError, match=message):
        services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", player_seed=seed, lost_values=RR_LOST)
    response = client_for(users["gerd"]).post(reverse("campaign_create"), {
        "name": "Hill 112", "system": "rr", "side": "german", "player_seed": seed, **post_fields(RR_LOST)})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Campaign.objects.exists()


def test_a_bad_seed_at_joining_leaves_the_seat_free(rr: Any, users: Any) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST)
    before = snapshot(campaign)
    response = client_for(users["cana"]).post(reverse("campaign_join", args=[campaign.invitations.get().token]),
                                              {"player_seed": "x" * 65})
    assert response.status_code == 400
    assert "at most 64 are allowed" in response.content.decode()
    assert snapshot(campaign) == before
    assert Seat.objects.filter(campaign=campaign).count() == 1


def test_the_creator_changes_its_seed_on_the_campaign_page_until_the_opponent_joins_then_both_are_fixed(
    rr: Any, users: Any
) -> None:
    # Fixed at the join, not at the first roll: the first roll may be one side's secret roll (RR 2.519 for an RG bought
    # before the Initial Scenario), and a seed form that vanished then would tell the other player it happened.
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST,
                                        player_seed="gerd-1")
    gerd, cana = client_for(users["gerd"]), client_for(users["cana"])
    detail = page(gerd, "campaign_detail", campaign)
    assert 'id="seed-form"' in detail
    assert "so the server could not have chosen its seed to suit the dice" in detail

    response = gerd.post(reverse("seed_set", args=[campaign.public_id]), {"player_seed": " Gerd's own seed "})
    assert response.status_code == 302
    assert seat_seeds(campaign)["german"] == "Gerd's own seed"

    refused = gerd.post(reverse("seed_set", args=[campaign.public_id]), {"player_seed": "bad\nseed"})
    assert refused.status_code == 422
    assert "cannot be printed" in refused.content.decode()
    assert seat_seeds(campaign)["german"] == "Gerd's own seed"

    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token, player_seed="maple")
    assert "Gerd's own seed" not in page(cana, "campaign_detail", campaign)  # the opponent is not shown it
    before = snapshot(campaign)
    fixed = gerd.post(reverse("seed_set", args=[campaign.public_id]), {"player_seed": "too late"})
    assert fixed.status_code == 422
    assert "Your player seed is fixed: both players have joined" in fixed.content.decode()
    assert snapshot(campaign) == before
    with pytest.raises(services.ServiceError, match="fixed"):
        services.seat_seed_set(user=users["cana"], public_id=campaign.public_id, seed="too late")
    detail = page(gerd, "campaign_detail", campaign)
    assert 'id="seed-form"' not in detail
    assert "Gerd&#x27;s own seed" in detail and "(fixed)" in detail


def test_a_page_opened_before_the_opponent_joined_is_sent_the_fixed_seed_instead_of_the_form(
    rr: Any, users: Any
) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST,
                                        player_seed="gerd-1")
    german = Seat.objects.get(campaign=campaign, side="german")
    assert 'id="seed-form"' in ws_fragments(german)["dice-card"]
    # saved through htmx: the answer carries the dice card with the new seed
    saved = client_for(users["gerd"]).post(reverse("seed_set", args=[campaign.public_id]), {"player_seed": "gerd-2"},
                                           HTTP_HX_REQUEST="true", follow=True)
    assert 'value="gerd-2"' in saved.content.decode()
    assert 'value="gerd-2"' in ws_fragments(german)["dice-card"]

    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token, player_seed="maple")

    card = ws_fragments(german)["dice-card"]  # what the German's open page is sent now
    assert 'id="seed-form"' not in card
    assert "gerd-2" in card and "(fixed)" in card
    assert "maple" not in card  # the opponent's seed is never shown before CG end


def test_the_seeds_the_players_chose_are_bound_into_every_roll(rr: Any, users: Any) -> None:
    campaign = play_rr(users, "Gerd's lucky 7", "maple leaf 1944")
    drive(campaign, PLAYERS(users), lambda state: state.step == "initiative")
    services.cg_end_concede(user=users["cana"], public_id=campaign.public_id)
    response = client_for(users["gerd"]).get(reverse("records_dice_export", args=[campaign.public_id]))
    data = json.loads(b"".join(response.streaming_content) if response.streaming else response.content)
    assert data["player_seeds"] == ["maple leaf 1944", "Gerd's lucky 7"]  # RR side order: Canadian, German
    assert len(data["rolls"]) > 0
    verification = engine_dice.verify_export(data)
    assert verification.ok, verification.failures
    tampered = dict(data, player_seeds=["maple leaf 1944", "another seed"])
    assert not engine_dice.verify_export(tampered).ok


# --------------------------------------------------------------------------------------- PHD: chits sealed at C5.31


def phd_campaign(users: Any) -> Campaign:
    load_system("phd")
    card = card_services.card_create(users["gerd"], (CARDS / "phd-test.yaml").read_text(encoding="utf-8"),
                                     filename="phd-test.yaml")
    campaign = services.campaign_create(user=users["gerd"], system_id="phd", side="german", name="Hill 112",
                                        card_id=card.id, lost_values=PHD_TEST_CARD)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    campaign.refresh_from_db()
    return campaign


def put_at(campaign: Campaign, ref: str) -> None:
    """The campaign's cursor at step ``ref`` of TM Scenario II's ConPh (the "cycle" pass), nothing done yet there."""
    state = engine.load_state(campaign.state)
    state = replace(state, step="phase", phase_ref=ref, pass_kind="cycle", date_index=1, date_id="II",
                    done=frozenset(), sealed={}, pending={}, parts_done=frozenset(), facts_supplied={}, initial=False)
    Campaign.objects.filter(pk=campaign.pk).update(state=state.to_json())
    campaign.refresh_from_db()


def chit_panel(html: str) -> str:
    match = re.search(r'<section id="chit-panel".*?</section>', html, re.S)
    assert match
    return match.group(0)


def test_a_phd_side_seals_its_initiative_chit_at_c5_31_through_the_pages(users: Any) -> None:
    campaign = phd_campaign(users)
    gerd, cana = client_for(users["gerd"]), client_for(users["cana"])
    put_at(campaign, "C5.30")
    assert "hidden" in chit_panel(page(gerd, "campaign_detail", campaign)).split(">")[0]  # not yet

    put_at(campaign, "C5.31")
    german = page(gerd, "campaign_detail", campaign)
    panel = chit_panel(german)
    assert "hidden" not in panel.split(">")[0]
    assert 'id="chit-form"' in panel
    assert "now, at C5.31" in panel and "revealed together at C5.37" in panel
    assert 'id="order-form"' in german  # the C5.31 requisition form is there as well
    assert "choose your Initiative chit (chosen at C5.31, revealed at C5.37)" in german

    fresh = Campaign.objects.get(pk=campaign.pk)
    state = engine.load_state(fresh.state)
    form = {"step": services.current_step_ref(state),
            "token": services.form_token(fresh, fresh.seats.get(side="german"), state, "done")}
    refused = gerd.post(reverse("phase_done", args=[campaign.public_id]), form)
    assert refused.status_code == 422
    assert "choose your Initiative chit (Attack or Idle) first" in refused.content.decode()

    url = reverse("chit_submit", args=[campaign.public_id])
    assert gerd.post(url, {"side": "german", "chit": "attack", "confirmed": "yes"}).status_code == 302
    assert engine.load_state(Campaign.objects.get(pk=campaign.pk).state).sealed == {"german": "attack"}
    german = page(gerd, "campaign_detail", campaign)
    assert "Your <strong>Attack</strong> chit is sealed. Both chits are revealed at C5.37." in german
    us = page(cana, "campaign_detail", campaign)
    assert "Has chosen" in us and "chit is sealed" not in us
    assert "German: choose its Initiative chit" not in us
    assert "German: choose" not in us

    put_at(campaign, "C5.35")  # past C5.31 with nothing sealed: no chit form
    assert 'id="chit-form"' not in page(gerd, "campaign_detail", campaign)


# --------------------------------------------------------------------------------------------- PHD C5.36 recon form


def test_the_phd_recon_form_appears_at_c5_36_and_says_the_cost_is_missing(users: Any) -> None:
    campaign = phd_campaign(users)
    gerd = client_for(users["gerd"])
    put_at(campaign, "C5.36")
    german = page(gerd, "campaign_detail", campaign)
    assert 'id="recon-form"' in german
    assert "the TP cost of a reconnaissance is not in the rule text" in german
    assert "supply it in a CG Card" in german
    assert re.search(r'name="recon" value="buy" disabled', german)

    before = snapshot(campaign)
    refused = gerd.post(reverse("phase_recon", args=[campaign.public_id]),
                        {"recon": "buy", "extra": "0", "token": re.search(
                            r'name="token" value="([^"]+)"', german).group(1)})  # type: ignore[union-attr]
    assert refused.status_code == 422
    assert "the TP cost of a reconnaissance is not in the rule text" in refused.content.decode()
    assert snapshot(campaign) == before

    token = re.search(r'id="recon-form".*?name="token" value="([^"]+)"', german, re.S).group(1)  # type: ignore[union-attr]
    done = gerd.post(reverse("phase_recon", args=[campaign.public_id]), {"recon": "none", "token": token})
    assert done.status_code == 302
    assert "german" in engine.load_state(Campaign.objects.get(pk=campaign.pk).state).done


# ------------------------------------------------------------------------------------------ checklist kind labels


def _labels(system_id: str) -> dict[str, str]:
    from campaigns_app.phase.steps import step_kind_label

    system = parse_system((FIXTURES / f"{system_id}.yaml").read_text(encoding="utf-8"), f"{system_id}.yaml")
    return {step.ref: step_kind_label(system, {"ref": step.ref, "kind": sequence.step_kind(system, step),
                                               "secret": step.secret})[0] for step in system.steps}


def test_checklist_kind_labels_follow_the_step_data_for_rr_pl_and_phd() -> None:
    rr, pl, phd = _labels("rr"), _labels("pl25"), _labels("phd")
    # RR: 2.522 chits are a secret simultaneous choice; 2.516 and 2.513 are secret rolls; 2.501 is on the board
    assert rr["2.522"] == "Sealed chits"
    assert rr["2.521"] == "Secret order"
    assert rr["2.516"] == "Automatic · secret"
    assert rr["2.513"] == "Assisted · secret"
    assert rr["2.517"] == "Automatic"
    assert rr["2.501"] == "On the board"
    # PL: 2.41 Firefight Types is resolved from the Attack Options bought (2.4), not on the board
    assert pl["2.41"] == "Automatic"
    assert pl["2.3"] == "Secret order"
    assert pl["2.1"] == "Automatic · secret"
    # PHD: the chits are sealed at C5.31 with the requisition and revealed at C5.37
    assert phd["C5.31"] == "Secret order + sealed chit"
    assert phd["C5.37"] == "Chits revealed"
    assert phd["C5.36"] == "Secret order"
    assert phd["C5.23"] == "Automatic · secret"
    assert phd["C5.24"] == "Assisted · secret"
    assert phd["C5.2"] == "On the board"


@pytest.mark.parametrize("system_id", ["rr", "pl25", "phd", "er", "kgp"])
def test_no_secret_choice_is_labelled_on_the_board(system_id: str) -> None:
    system = parse_system((FIXTURES / f"{system_id}.yaml").read_text(encoding="utf-8"), f"{system_id}.yaml")
    labels = _labels(system_id)
    for step in system.steps:
        if step.secret == "choice":
            assert labels[step.ref] != "On the board", step.ref


def test_the_rr_live_checklist_shows_2_522_as_sealed_chits(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    html = page(client_for(users["gerd"]), "campaign_detail", campaign)
    item = re.search(r'<li class="check check-current[^"]*".*?</li>', html, re.S)
    assert item and "2.522" in item.group(0)
    assert "Sealed chits" in item.group(0) and "On the board" not in item.group(0)


# ---------------------------------------------------------------------------------------------- wording per side


def test_what_the_opponent_owes_is_worded_from_the_readers_side(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    canadian = page(client_for(users["cana"]), "campaign_detail", campaign)
    assert "German: choose its Initiative chit (2.522)" in canadian
    assert "German: choose your" not in canadian
    assert "You: choose your Initiative chit (2.522)" in canadian


def test_the_chooser_sees_its_chit_once_in_the_latest_events_and_the_opponent_only_that_it_chose(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    german = page(client_for(users["gerd"]), "campaign_detail", campaign)
    assert "You chose Attack for 19 PM (sealed)." in german
    assert "You have chosen an Initiative chit" not in german
    history = page(client_for(users["gerd"]), "campaign_history", campaign)
    assert history.count("for 19 PM (sealed)") == 1 and "You have chosen an Initiative chit" not in history
    canadian = page(client_for(users["cana"]), "campaign_detail", campaign)
    assert "The German side has chosen an Initiative chit for 19 PM." in canadian
    assert "chose Attack" not in canadian


def test_the_reveal_lists_the_sides_in_the_systems_order_everywhere(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="idle")
    for user in (users["gerd"], users["cana"]):
        client = client_for(user)
        history = page(client, "campaign_history", campaign)
        assert "Initiative chits revealed for 19 PM: Canadian Idle, German Attack → German Assault." in history
        detail = page(client, "campaign_detail", campaign)
        table = re.search(r'id="chit-reveal".*?<tbody>(.*?)</tbody>', detail, re.S)
        assert table and table.group(1).index("Canadian") < table.group(1).index("German")


def test_the_scenario_button_names_the_scenario_after_the_reveal(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    drive(campaign, PLAYERS(users), lambda state: state.step == "scenario")  # German Attack, Canadian Idle
    html = page(client_for(users["gerd"]), "campaign_detail", campaign)
    assert "The scenario (German Assault) is finished" in html
    assert "Mark the Scenario: German Assault finished" not in html


# ------------------------------------------------------------------------------------- CG end: objectives met


def test_a_side_claims_its_cg_objectives_are_met_and_the_other_confirms_through_the_cg_end_page(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    gerd, cana = client_for(users["gerd"]), client_for(users["cana"])
    propose = reverse("records_cg_end_propose", args=[campaign.public_id])

    before = page(gerd, "records_cg_end", campaign)
    assert "Propose: CG objectives met (we win)" in before and "Propose to end by mutual agreement" in before

    asked = gerd.post(propose, {"reason": "objectives"})
    assert asked.status_code == 200
    assert "Propose that your side has met its CG objectives and wins the CG?" in asked.content.decode()
    assert 'name="reason" value="objectives"' in asked.content.decode()
    assert gerd.post(propose, {"reason": "objectives", "confirmed": "yes"}).status_code == 302
    state = engine.load_state(Campaign.objects.get(pk=campaign.pk).state)
    assert (state.end_reason, state.end_claimant, state.ended) == ("objectives", "german", False)

    assert "waiting for the Canadian side to confirm" in page(gerd, "records_cg_end", campaign)
    canadian = page(cana, "records_cg_end", campaign)
    assert "The German side says its CG objectives are met and it wins the CG." in canadian
    assert "Confirm: the German side's CG objectives are met" in canadian

    other = cana.post(propose, {"reason": "mutual-agreement", "confirmed": "yes"})
    assert other.status_code == 422  # a different proposal while this one is open: the engine's message
    assert "confirm it, or withdraw it first" in other.content.decode()

    assert cana.post(propose, {"reason": "objectives", "confirmed": "yes"}).status_code == 302
    state = engine.load_state(Campaign.objects.get(pk=campaign.pk).state)
    assert state.ended and state.cg_end is not None
    assert (state.cg_end.reason, state.cg_end.victor) == ("objectives", "german")
    history = page(cana, "campaign_history", campaign)
    assert "The German side says its CG objectives are met." in history
    assert "The Canadian side confirms that the German side&#x27;s CG objectives are met." in history
    ended = page(cana, "records_cg_end", campaign)
    assert "the German side met its CG objectives" in ended and "Victor: <strong>German</strong>" in ended


def test_an_unknown_reason_to_end_is_refused(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    before = snapshot(campaign)
    with pytest.raises(services.ServiceError, match="allowed: mutual-agreement, objectives"):
        services.cg_end_propose(user=users["gerd"], public_id=campaign.public_id, reason="bored")
    response = client_for(users["gerd"]).post(reverse("records_cg_end_propose", args=[campaign.public_id]),
                                              {"reason": "bored", "confirmed": "yes"})
    assert response.status_code == 422
    assert "allowed: mutual-agreement, objectives" in response.content.decode()
    assert snapshot(campaign) == before


def test_mutual_agreement_still_ends_the_cg_without_a_victor(users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.cg_end_propose(user=users["gerd"], public_id=campaign.public_id)
    services.cg_end_propose(user=users["cana"], public_id=campaign.public_id, reason="mutual-agreement")
    state = engine.load_state(Campaign.objects.get(pk=campaign.pk).state)
    assert state.ended and state.cg_end is not None and state.cg_end.reason == "mutual-agreement"
    assert state.cg_end.victor is None
