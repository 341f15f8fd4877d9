"""Issue 9 item 2 on the pages: every value the rule text lost that the campaign could need is typed on the create page
(labelled with its rule number and printed chart), checked, stored with the campaign, shown to the opponent before
joining and listed in the history. The values typed are TEST DATA standing for the players' printed charts."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, EventRecord, Invitation
from rules_engine.errors import RulesError
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.lost_test_values import RR as RR_LOST
from tests.campaigns_app.lost_test_values import post_fields

FORM = {"name": "Hill 112", "system": "rr", "side": "german"}


def test_the_create_page_asks_each_lost_value_by_rule_number_and_chart(rr: Any, users: Any) -> None:
    html = client_for(users["gerd"]).get(reverse("campaign_create") + "?system=rr").content.decode()
    block = html[html.index('id="lost-values"'):]
    assert 'name="lost:company-leader|11|leaders"' in block and 'name="lost:escape-equipment|1|result"' in block
    assert "2.5193 Company Leader Allotment Table (RG Note L)" in block and "final DR 12" in block
    assert "2.5061 Escape Results" in block and "final dr 3-4" in block


def test_a_campaign_with_a_lost_value_missing_is_refused_with_a_message_per_value_and_nothing_saved(
    rr: Any, users: Any
) -> None:
    response = client_for(users["gerd"]).post(reverse("campaign_create"), {
        **FORM, "lost:company-leader|11|leaders": "twelve"})
    assert response.status_code == 400
    html = response.content.decode()
    errors = re.findall(r'<p class="field-error" role="alert">([^<]*)</p>', html)
    assert len(errors) == 2
    assert any("2.5061 Escape Results" in e and "type it as printed" in e for e in errors)
    assert any("2.5193" in e and "this column lists leaders" in e for e in errors)
    assert 'value="twelve"' in html  # what was typed comes back
    assert not Campaign.objects.exists() and not Invitation.objects.exists() and not EventRecord.objects.exists()


def test_the_service_refuses_unknown_and_out_of_range_values(rr: Any, users: Any) -> None:
    with pytest.raises(services.LostValuesInvalid) as caught:
        services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="X",
                                 lost_values={**RR_LOST, "nothing|0|x": "1"})
    assert "not a value lost in the rule text of this CG" in caught.value.problems[""]
    assert not Campaign.objects.exists()


def test_the_values_are_stored_shown_to_the_opponent_before_joining_and_in_the_history(rr: Any, users: Any) -> None:
    response = client_for(users["gerd"]).post(reverse("campaign_create"), {**FORM, **post_fields(RR_LOST)})
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.supplied_values == {"company-leader|11|leaders": ["9-1", "8-0"],
                                        "escape-equipment|1|result": "Captured (TEST DATA)"}
    system = engine.system_for(campaign)
    assert system.tables["company-leader"].cell(12, "leaders").value == ("9-1", "8-0")  # for both sides
    invite = client_for(users["gerd"]).get(reverse("campaign_invite", args=[campaign.public_id])).content.decode()
    join = client_for(users["cana"]).get(reverse("campaign_join", args=[campaign.invitations.get().token])).content.decode()
    for html in (invite, join):
        block = html[html.index('id="lost-values"'):]
        assert "2.5193 Company Leader Allotment Table (RG Note L), final DR 12, Leader Received" in block
        assert "9-1, 8-0" in block and "Captured (TEST DATA)" in block
    assert "by joining you accept them" in join
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    history = client_for(users["cana"]).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()
    assert "Values lost in the rule text, typed as printed" in history and "9-1, 8-0" in history


def test_a_campaign_stored_before_values_were_settled_still_opens_and_says_what_is_missing(
    rr: Any, users: Any
) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Old",
                                        lost_values=RR_LOST)
    Campaign.objects.filter(pk=campaign.pk).update(supplied_values={})  # as stored before this change
    campaign.refresh_from_db()
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    for user in (users["gerd"], users["cana"]):
        assert client_for(user).get(reverse("campaign_detail", args=[campaign.public_id])).status_code == 200
        assert client_for(user).get(reverse("campaign_rules", args=[campaign.public_id])).status_code == 200
    with pytest.raises(RulesError, match="not in the rule text"):
        engine.system_for(campaign).tables["company-leader"].cell(12, "leaders")
