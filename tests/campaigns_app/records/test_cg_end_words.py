"""What a player reads once a CG is conceded on its first CG Date (found walking the embedded default in two
browsers): the campaign page's dice card points at the verification instead of promising a reveal "at CG end", the
dice log states the commitment in a sentence of its own, and the story of a date with no scenario says so."""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.records.test_records_support import create_rr

BEFORE = "Its SHA-256 commitment lets you check every roll when the seed is revealed at CG end."


def test_after_a_first_date_concession_the_pages_speak_of_the_ended_cg(rr: Any, users: Any) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    client = client_for(users["cana"])
    page = client.get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    assert BEFORE in page
    assert 'Your points <span class="badge badge-secret">Only you</span>' in page
    assert "Your opponent never sees these until the rules reveal them." in page
    dice = client.get(reverse("records_dice", args=[campaign.public_id])).content.decode()
    assert f'Commitment (SHA-256 of the dice seed): <code class="hash">{campaign.seed_commitment}</code>' in dice
    assert "(SHA-256 <code" not in dice

    conceded = client_for(users["gerd"]).post(reverse("records_cg_end_concede", args=[campaign.public_id]),
                                              {"confirmed": "yes"})
    assert conceded.status_code == 302
    page = client.get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    verify = reverse("records_verify", args=[campaign.public_id])
    assert (f'The CG is over and the seed is revealed: <a href="{verify}">verify every roll</a> against its SHA-256 '
            "commitment.") in page
    assert BEFORE not in page
    assert 'Your points <span class="badge">Both sides now</span>' in page  # the CG-end records show every side's
    assert "The Campaign Game is over: both sides see every record now." in page
    assert "Your opponent never sees these" not in page
    assert '<h2 id="checklist-title" class="card-title">Steps</h2>' in page  # not an empty "Before the Initial Scenario"
    assert '<p class="muted" id="checklist-ended">No more steps: the Campaign Game is over.</p>' in page
    story = client.get(reverse("records_story", args=[campaign.public_id, "1"])).content.decode()
    assert ">Scenario</h2>" in story and "No scenario was recorded on this CG Date." in story
    assert "How the CG ended" in story
    assert "The Campaign Game ended on 19 AM: the German side conceded; the Canadian side wins." in story


def test_the_verification_of_a_cg_conceded_before_any_roll_does_not_read_all_0_rolls_verified(rr: Any,
                                                                                                users: Any) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    client_for(users["gerd"]).post(reverse("records_cg_end_concede", args=[campaign.public_id]), {"confirmed": "yes"})
    html = client_for(users["cana"]).get(reverse("records_verify", args=[campaign.public_id])).content.decode()
    assert "No roll to verify; the revealed seed matches its commitment." in html
    assert "All 0 rolls" not in html and "rules_engine/dice.py" not in html
    assert "described in Refit's source, rules_engine/dice/." in html


def test_the_rules_pages_still_missing_parts_are_named_as_players_name_them(rr: Any, users: Any) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    html = client_for(users["cana"]).get(reverse("campaign_rules", args=[campaign.public_id])).content.decode()
    missing = html.split('id="card-missing"')[1].split("</section>")[0]
    for words in ("<strong>Initial OB</strong>", "<strong>Steps</strong> <code>2.502</code>",
                  "<strong>CG Special Rules</strong> <span", "<strong>CG Victory Conditions</strong>",
                  "<strong>CG Special Rules</strong> <code>2.42</code>", "<strong>RG charts</strong> <span"):
        assert words in missing, words
    for key in ("initial ob", "cg-ssr", "initial-scenario", "vehicle-notes", "endnotes", "special rules", "rg charts"):
        assert key not in missing, key
