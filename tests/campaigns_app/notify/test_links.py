"""The one-click link every campaign e-mail ends with: it works without logging in, a GET changes nothing (mail
scanners follow links), a POST saves; an expired or altered token, or one moved to another campaign or player, gets a
400 page that says so and how to change the settings after logging in; the token shows nothing secret."""
from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.core import mail, signing
from django.test import Client
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign, NotificationSetting, Seat
from campaigns_app.notify import links
from tests.campaigns_app.notify.helpers import choose_default, created

EXPIRED = "This link has expired"
BROKEN = "This link is broken"
HOW = "To change your e-mails, <a href=\"/accounts/login/?next=/notifications/\">log in</a>"


def _joined(users: Any, name: str = "Hill 112") -> Campaign:
    campaign = created(users, name)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    return campaign


def _seat(campaign: Campaign, side: str) -> Seat:
    return Seat.objects.select_related("campaign", "user").get(campaign=campaign, side=side)


def _settings(users: Any) -> tuple[Any, ...]:
    return (tuple(Seat.objects.order_by("pk").values_list("pk", "notify")),
            tuple(NotificationSetting.objects.order_by("pk").values_list("user_id", "default")))


def _link_path(seat: Seat) -> str:
    return reverse("notify_link", args=[links.token_for(seat)])


def test_the_link_in_an_email_opens_the_choices_without_login_and_the_get_changes_nothing(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = created(users)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    url = re.search(r"http://refit\.test(/notifications/link/\S+/)", mail.outbox[0].body)
    assert url is not None
    before = _settings(users)

    response = Client().get(url.group(1))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1 id=\"page-title\">E-mails about “Hill 112”</h1>" in html
    assert 'name="csrfmiddlewaretoken"' in html and 'method="post"' in html
    assert '<label for="id-campaign">This campaign</label>' in html and '<label for="id-default">All my campaigns</label>' in html
    assert _settings(users) == before  # a scanner that follows the link changes nothing


def test_a_post_from_the_link_page_saves_this_campaigns_choice_and_the_default(rr: Any, users: Any) -> None:
    campaign, other = _joined(users), _joined(users, "Wood")
    client = Client(enforce_csrf_checks=True)
    path = _link_path(_seat(campaign, "german"))
    client.get(path)

    response = client.post(path, {"csrfmiddlewaretoken": client.cookies["csrftoken"].value,
                                  "campaign": "none", "default": "digest"})

    assert response.status_code == 302 and response["Location"] == path
    assert _seat(campaign, "german").notify == "none"
    assert _seat(other, "german").notify == ""  # the other campaign follows the default
    assert NotificationSetting.objects.get(user=users["gerd"]).default == "digest"
    assert not NotificationSetting.objects.filter(user=users["cana"]).exists()
    assert "Your e-mail settings are saved." in client.get(path).content.decode()


def test_a_post_without_the_csrf_token_is_refused(rr: Any, users: Any) -> None:
    campaign = _joined(users)
    response = Client(enforce_csrf_checks=True).post(_link_path(_seat(campaign, "german")), {"campaign": "none",
                                                                                             "default": "none"})
    assert response.status_code == 403
    assert _seat(campaign, "german").notify == ""


def test_a_bad_choice_on_the_link_page_says_what_is_allowed_and_saves_nothing(rr: Any, users: Any) -> None:
    campaign = _joined(users)
    response = Client().post(_link_path(_seat(campaign, "german")), {"campaign": "none", "default": "weekly"})

    assert response.status_code == 400
    assert ("&#x27;weekly&#x27; is not a choice for all campaigns: choose each (every e-mail), digest (one daily "
            "digest) or none.") in response.content.decode()
    assert _seat(campaign, "german").notify == ""  # the valid half is not saved either
    assert not NotificationSetting.objects.exists()


def test_an_expired_link_gets_a_400_saying_so_and_how_to_change_it_after_logging_in(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    campaign = _joined(users)
    sent_at = 1_800_000_000
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: sent_at))
    path = _link_path(_seat(campaign, "german"))
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: sent_at + 30 * 24 * 3600))  # 30 days: still valid
    assert Client().get(path).status_code == 200
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: sent_at + 30 * 24 * 3600 + 1))

    for response in (Client().get(path), Client().post(path, {"campaign": "none", "default": "none"})):
        html = response.content.decode()
        assert response.status_code == 400
        assert EXPIRED in html and "works for 30 days after its e-mail was sent" in html and HOW in html
    assert _seat(campaign, "german").notify == "" and not NotificationSetting.objects.exists()


def test_an_altered_or_cut_token_gets_a_400_saying_the_link_is_broken(rr: Any, users: Any) -> None:
    campaign = _joined(users)
    token = links.token_for(_seat(campaign, "german"))
    last = token[-1]
    for bad in (token[:-1] + ("A" if last != "A" else "B"), token[:-5], "nonsense", "x" * 300, token + ":x",
                token.replace(".german", ".canadian")):
        response = Client().post(reverse("notify_link", args=[bad]), {"campaign": "none", "default": "none"})
        assert response.status_code == 400, bad
        assert BROKEN in response.content.decode() and HOW in response.content.decode()
    assert _settings(users)[0] == tuple(Seat.objects.order_by("pk").values_list("pk", "notify"))
    assert set(Seat.objects.values_list("notify", flat=True)) == {""}


def test_a_token_for_campaign_a_cannot_change_campaign_b_nor_another_players_seat(rr: Any, users: Any) -> None:
    hill, wood = _joined(users), _joined(users, "Wood")
    gerd_hill = links.token_for(_seat(hill, "german"))
    moved_campaign = gerd_hill.replace(hill.public_id, wood.public_id, 1)  # gerd's seat in Wood, the same user
    moved_player = gerd_hill.replace(".german", ".canadian", 1)  # cana's seat in the same campaign

    for bad in (moved_campaign, moved_player):
        response = Client().post(reverse("notify_link", args=[bad]), {"campaign": "none", "default": "none"})
        assert response.status_code == 400 and BROKEN in response.content.decode()
    assert set(Seat.objects.values_list("notify", flat=True)) == {""} and not NotificationSetting.objects.exists()

    # a third player's seat with the same campaign and side as one of gerd's: gerd's token is bound to gerd
    third = created({"gerd": users["carol"]}, "Carol's")
    carol_seat = _seat(third, "german")
    forged = signing.TimestampSigner(salt=f"{links.SALT}.{users['gerd'].pk}").sign(f"{third.public_id}.german")
    response = Client().post(reverse("notify_link", args=[forged]), {"campaign": "none", "default": "none"})
    assert response.status_code == 400 and BROKEN in response.content.decode()
    assert Seat.objects.get(pk=carol_seat.pk).notify == ""


def test_the_token_shows_only_the_campaign_the_readers_side_a_time_and_a_signature(rr: Any, users: Any) -> None:
    campaign = _joined(users)
    token = links.token_for(_seat(campaign, "canadian"))

    named, stamp, signature = token.split(":")
    assert named == f"{campaign.public_id}.canadian"
    assert re.fullmatch(r"[0-9A-Za-z]{1,8}", stamp) and re.fullmatch(r"[A-Za-z0-9_-]{43}", signature)
    assert token.count(":") == 2  # nothing else: the player's id is in the salt, never in the token


def test_an_unchanged_choice_page_keeps_the_current_choices_selected(rr: Any, users: Any) -> None:
    campaign = _joined(users)
    choose_default(users["gerd"], "digest")
    Seat.objects.filter(pk=_seat(campaign, "german").pk).update(notify="none")

    html = Client().get(_link_path(_seat(campaign, "german"))).content.decode()
    assert '<option value="none" selected>No e-mail</option>' in html.split('id="id-default"')[0]
    assert '<option value="digest" selected>One daily digest</option>' in html.split('id="id-default"')[1]
