"""The e-mail settings page of a logged-in player: reached from the account menu, My campaigns and the campaign page;
the default and each campaign's own choice saved together; a bad value or a campaign not theirs refused whole."""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign, NotificationSetting, Seat
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.notify.helpers import created

URL = "/notifications/"


def _joined(users: Any, name: str) -> Campaign:
    campaign = created(users, name)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    return campaign


def test_the_page_needs_a_login(rr: Any) -> None:
    response = client_for(None).get(URL)
    assert response.status_code == 302 and response["Location"] == "/accounts/login/?next=/notifications/"


def test_the_settings_page_is_linked_from_the_menu_my_campaigns_and_the_campaign_page(rr: Any, users: Any) -> None:
    campaign = _joined(users, "Hill 112")
    client = client_for(users["gerd"])
    for page in (reverse("campaign_list"), reverse("campaign_detail", args=[campaign.public_id])):
        html = client.get(page).content.decode()
        assert html.count(f'href="{URL}"') == 2, page  # the account menu and the page's own link


def test_the_page_shows_the_default_and_one_choice_per_campaign(rr: Any, users: Any) -> None:
    hill, wood = _joined(users, "Hill 112"), _joined(users, "Wood")
    Seat.objects.filter(campaign=wood, user=users["gerd"]).update(notify="digest")

    html = client_for(users["gerd"]).get(URL).content.decode()

    assert '<h1 id="page-title">E-mail settings</h1>' in html
    assert '<option value="each" selected>Every e-mail</option>' in html.split('id="id-default"')[1].split("</select>")[0]
    assert '<label for="id-campaign-1">Wood</label>' in html and f'name="campaign-{wood.public_id}"' in html
    assert '<label for="id-campaign-2">Hill 112</label>' in html and f'name="campaign-{hill.public_id}"' in html
    wood_select = html.split(f'name="campaign-{wood.public_id}"')[1].split("</select>")[0]
    assert '<option value="digest" selected>One daily digest</option>' in wood_select


def test_saving_stores_the_default_and_each_campaigns_choice(rr: Any, users: Any) -> None:
    hill, wood = _joined(users, "Hill 112"), _joined(users, "Wood")

    client = client_for(users["gerd"])
    response = client.post(URL, {"default": "digest", f"campaign-{hill.public_id}": "none",
                                 f"campaign-{wood.public_id}": "default"})

    assert response.status_code == 302 and response["Location"] == URL
    assert NotificationSetting.objects.get(user=users["gerd"]).default == "digest"
    assert Seat.objects.get(campaign=hill, user=users["gerd"]).notify == "none"
    assert Seat.objects.get(campaign=wood, user=users["gerd"]).notify == ""
    assert set(Seat.objects.filter(user=users["cana"]).values_list("notify", flat=True)) == {""}
    assert "Your e-mail settings are saved." in client.get(URL).content.decode()


def test_a_bad_choice_is_refused_with_what_is_allowed_and_nothing_is_saved(rr: Any, users: Any) -> None:
    hill = _joined(users, "Hill 112")

    response = client_for(users["gerd"]).post(URL, {"default": "none", f"campaign-{hill.public_id}": "hourly"})

    assert response.status_code == 400
    assert ("&#x27;hourly&#x27; is not a choice for a campaign: choose default (as for all campaigns), each (every "
            "e-mail), digest (one daily digest) or none.") in response.content.decode()
    assert not NotificationSetting.objects.exists()
    assert Seat.objects.get(campaign=hill, user=users["gerd"]).notify == ""


def test_a_campaign_that_is_not_the_players_is_refused_and_nothing_is_saved(rr: Any, users: Any) -> None:
    theirs = created({"gerd": users["carol"]}, "Carol's")

    response = client_for(users["gerd"]).post(URL, {"default": "none", f"campaign-{theirs.public_id}": "none"})

    assert response.status_code == 400
    assert "One of these campaigns is not yours: reload the settings page and choose again." in response.content.decode()
    assert Seat.objects.get(campaign=theirs).notify == "" and not NotificationSetting.objects.exists()


def test_an_over_long_value_is_cut_before_it_is_checked(rr: Any, users: Any) -> None:
    response = client_for(users["gerd"]).post(URL, {"default": "x" * 5000})
    assert response.status_code == 400 and "is not a choice for all campaigns" in response.content.decode()
    assert "x" * 21 not in response.content.decode()
