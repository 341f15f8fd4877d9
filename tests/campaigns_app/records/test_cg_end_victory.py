"""CG end names the victor by the CG Card's CG Victory Conditions and shows how they were met, to both players (issue 9
item 3). The card's conditions are TEST DATA standing for a printed card; the figures are worked by hand: the Initial
Scenario results both players enter are German 4 CVP, Canadian 6 CVP (conftest DEFAULT_RESULTS)."""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns_app import services
from campaigns_app.cards import services as card_services
from campaigns_app.models import Campaign
from tests.campaigns_app.conftest import client_for, drive
from tests.campaigns_app.lost_test_values import RR as RR_LOST

CARD = """\
format: refit-cg/1
kind: cg-card
id: rr-victory-test
extends: rr
name: "TEST DATA — RR victory card"
victory_conditions:
  text: "TEST DATA: the German wins with 5 or more CVP; otherwise the Canadian wins."
  conditions:
    - {side: german, measure: cvp, op: ">=", value: 5}
{extra}  otherwise: canadian
"""


def ended_campaign(users: Any, extra: str = "") -> Campaign:
    card = card_services.card_create(users["gerd"], CARD.replace("{extra}", extra), filename="card.yaml")
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                        card_id=card.id, lost_values=RR_LOST)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    drive(campaign, {"german": users["gerd"], "canadian": users["cana"]}, lambda s: s.step == "initiative")
    services.cg_end_propose(user=users["gerd"], public_id=campaign.public_id)
    services.cg_end_propose(user=users["cana"], public_id=campaign.public_id)
    campaign.refresh_from_db()
    return campaign


def test_both_players_see_the_victor_by_the_cards_conditions_and_how_they_were_met(rr: Any, users: Any) -> None:
    campaign = ended_campaign(users)
    for user in (users["gerd"], users["cana"]):
        html = client_for(user).get(reverse("records_cg_end", args=[campaign.public_id])).content.decode()
        block = html[html.index('id="victory-conditions"'):]
        assert "TEST DATA: the German wins with 5 or more CVP" in block
        # German CVP 4 ≥ 5: not met → otherwise the Canadian
        assert "German CVP earned over the CG 4 ≥ 5: not met" in block
        assert 'id="victory-victor"' in block and "<strong>Canadian</strong> wins" in block


def test_a_condition_needing_a_value_the_records_lack_names_it_and_no_victor(rr: Any, users: Any) -> None:
    # RR 2.5032: only the Canadian records LVP, so the German's CG-LVP total is not in the records
    campaign = ended_campaign(users, '    - {side: german, measure: cg_lvp, op: ">=", value: 40}\n')
    html = client_for(users["cana"]).get(reverse("records_cg_end", args=[campaign.public_id])).content.decode()
    block = html[html.index('id="victory-conditions"'):]
    assert 'id="victory-needs"' in block and "German CG-LVP total" in block
    assert 'id="victory-victor"' not in block
