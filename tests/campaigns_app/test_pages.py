"""Accounts and the campaign pages: sign-up to invitation to join, the campaign list, the history's visibility."""
from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.core import mail
from django.test import RequestFactory
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign
from tests.campaigns_app.conftest import PASSWORD, client_for
from tests.campaigns_app.lost_test_values import RR as RR_LOST
from tests.campaigns_app.lost_test_values import post_fields
from tests.campaigns_app.phase.test_history_pages import every_page


def test_a_visitor_signs_up_and_is_logged_in(db: Any) -> None:
    client = client_for(None)
    response = client.post(reverse("signup"), {"username": "newbie", "email": "newbie@example.org",
                                               "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("campaign_list")
    assert client.get(reverse("campaign_list")).status_code == 200
    assert User.objects.get(username="newbie").email == "newbie@example.org"


def test_sign_up_with_a_taken_email_reveals_nothing_and_tells_the_address_by_email(users: Any) -> None:
    taken = client_for(None).post(reverse("signup"), {"username": "other", "email": "gerd@example.org",
                                                      "password1": PASSWORD, "password2": PASSWORD})
    fresh = client_for(None).post(reverse("signup"), {"username": "newbie", "email": "new@example.org",
                                                      "password1": PASSWORD, "password2": PASSWORD})
    assert taken.status_code == fresh.status_code == 302 and taken["Location"] == fresh["Location"]
    assert "already" not in client_for(None).get(taken["Location"], follow=True).content.decode()
    assert [message.to for message in mail.outbox] == [["gerd@example.org"]]
    assert "gerd" in mail.outbox[0].body and "other" in mail.outbox[0].body


def test_log_in_log_out_and_change_password(users: Any) -> None:
    client = client_for(None)
    assert client.post(reverse("login"), {"username": "gerd", "password": PASSWORD}).status_code == 302
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": "a-new-Passw0rd!x",
                                                        "new_password2": "a-new-Passw0rd!x"})
    assert response.status_code == 302
    assert client.post(reverse("logout")).status_code == 302
    assert client.login(request=RequestFactory().post("/accounts/login/"), username="gerd", password="a-new-Passw0rd!x")


def test_password_reset_sends_a_working_link_by_email(users: Any) -> None:
    client = client_for(None)
    client.post(reverse("password_reset"), {"email": "gerd@example.org"})
    assert [message.to for message in mail.outbox] == [["gerd@example.org"]]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    response = client.post(form_page.redirect_chain[-1][0], {"new_password1": "reset-Passw0rd!y",
                                                              "new_password2": "reset-Passw0rd!y"})
    assert response.status_code == 302
    assert client.login(request=RequestFactory().post("/accounts/login/"), username="gerd", password="reset-Passw0rd!y")


def test_create_invite_and_join_through_the_pages(users: Any, rr: Any) -> None:
    creator = client_for(users["gerd"])
    page = creator.get(reverse("campaign_create")).content.decode()
    assert 'value="canadian"' in page and 'value="german"' in page

    response = creator.post(reverse("campaign_create"), {"name": "Hill 112", "system": "rr", "side": "german",
                                                         **post_fields(RR_LOST)})
    campaign = Campaign.objects.get()
    assert response["Location"] == reverse("campaign_invite", args=[campaign.public_id])
    invite = creator.get(response["Location"]).content.decode()
    link = re.search(r'id="invite-link" value="http://testserver([^"]+)"', invite).group(1)
    assert link == reverse("campaign_join", args=[campaign.invitations.get().token])

    anonymous = client_for(None).get(link).content.decode()
    assert "Sign up to join" in anonymous and "the <strong>Canadian</strong> side" in anonymous

    joiner = client_for(users["cana"])
    assert joiner.post(link)["Location"] == reverse("campaign_detail", args=[campaign.public_id])
    assert campaign.seats.get(user=users["cana"]).side == "canadian"

    full = client_for(users["carol"]).get(link)
    assert full.status_code == 409 and "This campaign is full" in full.content.decode()
    assert client_for(users["carol"]).post(link).status_code == 409


def test_my_campaigns_lists_system_date_step_and_whether_the_player_owes_an_action(
    campaign_factory: Any, users: Any
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")

    german_list = client_for(users["gerd"]).get(reverse("campaign_list")).content.decode()
    canadian_list = client_for(users["cana"]).get(reverse("campaign_list")).content.decode()

    for page in (german_list, canadian_list):
        assert "Hill 112" in page and "RR Campaign Game" in page
        assert "19 PM" in page and "Initiative Determination (2.522)" in page
    assert "Nothing due" in german_list and "badge-due" not in german_list
    assert '<span class="badge badge-due">Your move</span>' in canadian_list
    assert "choose your Initiative chit" in canadian_list
    for page in (german_list, canadian_list):  # a phone shows the heading as the cell's label: "WHOSE MOVE:"
        assert '<th scope="col">Whose move</th>' in page and '<td data-label="Whose move">' in page
        assert "Your move?" not in page


def test_the_history_shows_a_sides_secret_events_to_that_side_only(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    url = reverse("campaign_history", args=[campaign.public_id])

    german = every_page(client_for(users["gerd"]), url)
    canadian = every_page(client_for(users["cana"]), url)

    assert "You chose Attack for 19 PM (sealed)." in german
    assert "chose Attack" not in canadian and "You chose" not in canadian
    for page in (german, canadian):
        assert "gerd created the campaign" in page and "cana joined and took the Canadian side." in page
    assert "The German side has chosen an Initiative chit for 19 PM." in canadian
    assert "You have chosen an Initiative chit" not in german  # its own "You chose Attack … (sealed)" says it once

    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="attack")
    canadian = every_page(client_for(users["cana"]), url)
    assert "Initiative chits revealed for 19 PM: Canadian Attack, German Attack → Dual Attack." in canadian
    assert re.search(r"2\.5223 Dual Attack set-up dr: dr [1-6] rolled for the Canadian side", canadian)
    assert 'class="die"' in canadian


def test_no_event_sequence_number_or_primary_key_reaches_the_pages(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    client = client_for(users["cana"])
    for name in ("campaign_detail", "campaign_history", "campaign_fragments"):
        page = client.get(reverse(name, args=[campaign.public_id])).content.decode()
        assert "seq" not in page
        assert f"/campaigns/{campaign.pk}/" not in page


def test_the_home_page_answers_a_head_request_as_a_get_for_uptime_checks(db: Any) -> None:
    client = client_for(None)
    head, get = client.head("/"), client.get("/")
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert client.post("/").status_code == 405
