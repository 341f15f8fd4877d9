"""Issue 9 item 4: what a new user tripped over, each fixed and checked here."""
from __future__ import annotations

import re
from typing import Any

import pytest

from campaigns_app import services
from campaigns_app.models import PurchaseRecordLine
from tests.campaigns_app.campaign_script import load_system
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_phd_campaign_without_a_card_starts_and_records_its_initial_ob_groups_by_type(alice: Any, bob: Any) -> None:
    """PHD C4.2 gives each side two platoons whose chart rows the rule text lost: created without a CG Card, the
    campaign starts (no HTTP 500) and the RG Purchase Record lists them by group type, without an RG id."""
    load_system("phd")
    from tests.campaigns_app.lost_test_values import PHD_NO_CARD, post_fields

    response = client_for(alice).post("/campaigns/new/", {"name": "Hürtgen", "system": "phd", "side": "german",
                                                          **post_fields(PHD_NO_CARD)})
    assert response.status_code == 302, response.content.decode()[:2000]
    from campaigns_app.models import Campaign

    campaign = Campaign.objects.get(name="Hürtgen")
    services.campaign_join(user=bob, token=campaign.invitations.get().token)
    lines = PurchaseRecordLine.objects.filter(campaign=campaign, side="german").order_by("line")
    assert [(line.rg_id, line.group_type, line.initial_ob) for line in lines] == [
        ("", "Gren Pl", True), ("", "Gren Pl", True)]
    page = client_for(alice).get(f"/campaigns/{campaign.public_id}/purchases/")
    assert page.status_code == 200
    assert "Gren Pl" in page.content.decode()


def test_a_purchase_record_line_bought_still_needs_its_rg_id(alice: Any) -> None:
    """Only an Initial-OB line may lack an RG id (RR 2.5188: a purchase names its RG)."""
    from django.db import IntegrityError, transaction

    from campaigns_app.models import Campaign

    load_system("phd")
    from tests.campaigns_app.lost_test_values import PHD_NO_CARD

    campaign = services.campaign_create(user=alice, system_id="phd", side="german", name="x", lost_values=PHD_NO_CARD)
    with pytest.raises(IntegrityError), transaction.atomic():
        PurchaseRecordLine.objects.create(campaign=campaign, side="german", line=99, date_id="I", rg_id="",
                                          group_type="Gren Pl", cost=0, initial_ob=False)
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_the_idle_date_result_stays_on_both_pages_after_the_jump_to_the_next_date_until_the_next_reveal(
        users: dict[str, Any]) -> None:
    """RR 2.522: both chose Idle → Idle Date; the page is at the next CG Date's idle steps at once, and says why."""
    from tests.campaigns_app.conftest import drive, new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian)
    for side, user in (("german", german), ("canadian", canadian)):
        services.chit_submit(user=user, public_id=campaign.public_id, side=side, chit="idle")
    players = {"german": german, "canadian": canadian}
    # the Idle Date loops the * steps (2.503's board part waits for the players), then the page is at 19 Night
    drive(campaign, players, lambda state: state.date_id == "19 Night")
    for user in (german, canadian):
        page = client_for(user).get(f"/campaigns/{campaign.public_id}/").content.decode()
        assert '<p class="reveal-label">Idle Date — both chose Idle</p>' in page
        assert "Revealed for 19 PM: no scenario is played." in page
    drive(campaign, players, lambda state: state.step == "initiative")
    page = client_for(german).get(f"/campaigns/{campaign.public_id}/").content.decode()
    assert "Idle Date — both chose Idle" in page  # still there while the chits of 19 Night are chosen
    for side, user in players.items():
        services.chit_submit(user=user, public_id=campaign.public_id, side=side,
                             chit="attack" if side == "german" else "idle")
    page = client_for(german).get(f"/campaigns/{campaign.public_id}/").content.decode()
    assert "both chose Idle" not in page and '<p class="reveal-label">German Assault</p>' in page


def _owes(page: str) -> str:
    found = re.search(r'<section id="owes".*?</section>', page, re.S)
    assert found, "no Your move section"
    return found.group(0)


def test_the_opponents_proposal_to_end_the_cg_is_in_your_move_with_agree_and_decline(users: dict[str, Any]) -> None:
    """PL 1.3 mutual agreement: the side asked answers in "Your move"; Decline clears the proposal and both learn it."""
    from campaigns_app import engine
    from tests.campaigns_app.conftest import new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian)
    services.cg_end_propose(user=german, public_id=campaign.public_id)
    url = f"/campaigns/{campaign.public_id}/"
    asked = _owes(client_for(canadian).get(url).content.decode())
    assert "You: agree to or decline the proposal to end the CG" in asked
    assert "The German side proposes to end the CG now, by mutual agreement." in asked
    assert 'id="end-agree"' in asked and "Agree: end the CG" in asked
    assert 'id="end-decline"' in asked and "Decline: the CG goes on" in asked
    waiting = _owes(client_for(german).get(url).content.decode())
    assert "Canadian: agree to or decline the proposal to end the CG" in waiting and 'id="end-question"' not in waiting

    answer = client_for(canadian).post(f"{url}phase/cg-end/", {"action": "decline"}, follow=True)
    assert "You declined the proposal to end the CG: the CG goes on." in answer.content.decode()
    campaign.refresh_from_db()
    assert not engine.load_state(campaign.state).end_proposals and not campaign.state["ended"]
    for user in (german, canadian):
        page = client_for(user).get(url).content.decode()
        assert 'id="end-question"' not in page and "agree to or decline" not in page
    assert "The Canadian side declined the proposal to end the CG: the CG goes on." in (
        client_for(german).get(f"{url}history/").content.decode())


def test_agreeing_to_end_the_cg_says_on_both_pages_how_and_when_it_ended(users: dict[str, Any]) -> None:
    from tests.campaigns_app.conftest import new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian)
    services.cg_end_propose(user=german, public_id=campaign.public_id)
    url = f"/campaigns/{campaign.public_id}/"
    answer = client_for(canadian).post(f"{url}phase/cg-end/", {"action": "propose", "reason": "mutual-agreement"},
                                       follow=True)
    said = "The Campaign Game ended on 19 PM: both sides agreed to end it."
    assert f"{said} Everything is revealed to both sides." in answer.content.decode()
    for user in (german, canadian):
        page = client_for(user).get(url).content.decode()
        step_card = re.search(r'<section id="step-panel".*?</section>', page, re.S)
        assert step_card and said in step_card.group(0) and said not in _owes(page)
        assert "mutual-agreement" not in page
    assert said in client_for(german).get(f"{url}history/").content.decode()


def test_a_concession_says_who_conceded_and_who_wins(users: dict[str, Any]) -> None:
    from tests.campaigns_app.conftest import new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian)
    answer = client_for(german).post(f"/campaigns/{campaign.public_id}/phase/cg-end/",
                                     {"action": "concede", "confirmed": "yes"}, follow=True)
    assert ("The Campaign Game ended on 19 PM: the German side conceded; the Canadian side wins."
            in answer.content.decode())


def _escape_form(user: Any, url: str) -> dict[str, str]:
    """The RR 2.506 Escape Table roll form as the page gives it (its token), Infantry column, no DRM ticked."""
    page = client_for(user).get(url).content.decode()
    form = re.search(r'<details class="roll-box" id="roll-escape".*?</form>', page, re.S)
    assert form, "no Escape Table roll form"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))
    fields.pop("csrfmiddlewaretoken", None)
    fields.update({"column": "infantry", "q-3": "-1"})
    return fields


def test_an_opponents_assisted_roll_is_listed_as_theirs_and_each_roll_says_what_it_was_for(
        users: dict[str, Any]) -> None:
    """RR 2.506 Escape is rolled in the open: the German's roll is "The German side's rolls" on the Canadian page (not
    "Your rolls"), and the unit typed as "what for" tells two rolls apart."""
    from tests.campaigns_app.conftest import drive, new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    drive(campaign, {"german": german, "canadian": canadian}, lambda state: state.phase_ref == "2.506")
    url = f"/campaigns/{campaign.public_id}/"
    for unit in ("4-6-7 in 23Q5", "8-1 leader in 23Q6"):
        response = client_for(german).post(f"{url}phase/roll/", {**_escape_form(german, url), "purpose": unit},
                                           follow=True)
        assert response.status_code == 200, response.content.decode()[:3000]
        body = response.content.decode()
        err = re.findall(r'role="alert"[^>]*>(.*?)</', body, re.S)
        assert not err, err
    own = client_for(german).get(url).content.decode()
    theirs = client_for(canadian).get(url).content.decode()
    mine = re.search(r'<ul class="roll-results" id="own-step-rolls">(.*?)</ul>', own, re.S)
    assert mine and mine.group(1).count('<span class="roll-side">You</span>') == 2
    assert "4-6-7 in 23Q5" in mine.group(1) and "8-1 leader in 23Q6" in mine.group(1)
    assert "The Canadian side's rolls at this step" not in own
    assert 'id="own-step-rolls"' not in theirs and "Your rolls at this step" not in theirs
    listed = re.search(r"The German side.s rolls at this step</h3>\s*<ul[^>]*>(.*?)</ul>", theirs, re.S)
    assert listed and listed.group(1).count('<span class="roll-side">German</span>') == 2
    assert "4-6-7 in 23Q5" in listed.group(1) and "8-1 leader in 23Q6" in listed.group(1)


def test_an_assisted_rolls_what_for_is_bounded_and_a_refused_one_rolls_nothing(users: dict[str, Any]) -> None:
    from campaigns_app.models import EventRecord
    from tests.campaigns_app.conftest import drive, new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian, to_initiative=False)
    drive(campaign, {"german": german, "canadian": canadian}, lambda state: state.phase_ref == "2.506")
    before = EventRecord.objects.filter(campaign=campaign).count()
    url = f"/campaigns/{campaign.public_id}/"
    response = client_for(german).post(f"{url}phase/roll/", {**_escape_form(german, url), "purpose": "x" * 81})
    assert response.status_code == 422
    assert "at most 80 are allowed" in response.content.decode()
    assert EventRecord.objects.filter(campaign=campaign).count() == before


def test_pl_sides_are_the_axis_side_and_the_allied_side_never_the_axis_side_side(
        users: dict[str, Any], django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]) -> None:
    """PL 2.5 names its sides "Axis Side" / "Allied Side": pages and e-mails say "the Axis side"."""
    from pathlib import Path

    from campaigns_app.cards import services as card_services

    load_system("pl25")
    axis, allied = users["gerd"], users["cana"]
    card = card_services.card_create(axis, Path("fixtures/cards/example-pl25.yaml").read_text(encoding="utf-8"),
                                     filename="example-pl25.yaml")
    campaign = services.campaign_create(user=axis, system_id="pl25", side="axis", name="Carentan", card_id=card.id,
                                        player_settings={"redeployment_option": "A"})
    join = client_for(allied).get(f"/join/{campaign.invitations.get().token}/").content.decode()
    assert "the Allied side" in join and "Side side" not in join
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_join(user=allied, token=campaign.invitations.get().token)
    for user in (axis, allied):
        for path in ("", "history/", "roster/", "purchases/", "rules/", "cg-end/"):
            page = client_for(user).get(f"/campaigns/{campaign.public_id}/{path}").content.decode()
            assert "Side side" not in page, path
    assert "You play the <strong>Axis</strong> side" in client_for(axis).get(f"/campaigns/{campaign.public_id}/").content.decode()
    for message in mailoutbox:
        assert "Side side" not in message.body
