"""Issue 9 item 4: what a new user tripped over, each fixed and checked here."""
from __future__ import annotations

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
    response = client_for(alice).post("/campaigns/new/", {"name": "Hürtgen", "system": "phd", "side": "german"})
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
    campaign = services.campaign_create(user=alice, system_id="phd", side="german", name="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        PurchaseRecordLine.objects.create(campaign=campaign, side="german", line=99, date_id="I", rg_id="",
                                          group_type="Gren Pl", cost=0, initial_ob=False)
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_the_idle_date_result_stays_on_both_pages_after_the_jump_to_the_next_date_until_the_next_reveal(
        users: dict[str, Any]) -> None:
    """RR 2.522: both chose Idle → Idle Date; the page is at the next CG Date's idle steps at once, and says why."""
    from campaigns_app import engine
    from tests.campaigns_app.conftest import drive, new_campaign

    german, canadian = users["gerd"], users["cana"]
    campaign = new_campaign(german, canadian)
    for side, user in (("german", german), ("canadian", canadian)):
        services.chit_submit(user=user, public_id=campaign.public_id, side=side, chit="idle")
    campaign.refresh_from_db()
    assert engine.load_state(campaign.state).date_id == "19 Night"  # the jump: 19 PM was the Idle Date
    for user in (german, canadian):
        page = client_for(user).get(f"/campaigns/{campaign.public_id}/").content.decode()
        assert '<p class="reveal-label">Idle Date — both chose Idle</p>' in page
        assert "Revealed for 19 PM: no scenario is played." in page
    players = {"german": german, "canadian": canadian}
    drive(campaign, players, lambda state: state.step == "initiative")
    page = client_for(german).get(f"/campaigns/{campaign.public_id}/").content.decode()
    assert "Idle Date — both chose Idle" in page  # still there while the chits of 19 Night are chosen
    for side, user in players.items():
        services.chit_submit(user=user, public_id=campaign.public_id, side=side,
                             chit="attack" if side == "german" else "idle")
    page = client_for(german).get(f"/campaigns/{campaign.public_id}/").content.decode()
    assert "both chose Idle" not in page and '<p class="reveal-label">German Assault</p>' in page
