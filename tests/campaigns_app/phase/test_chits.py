"""The sealed chit through the web pages: the confirm step, forged and invalid submissions, and no leak to the opponent."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.core import signing
from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign, EventRecord, Invitation, Seat
from campaigns_app.models import now as models_now
from tests.campaigns_app.conftest import client_for, deterministic_csrf, snapshot, ws_fragments


def post_chit(client: Any, campaign: Any, side: str, chit: str, *, confirmed: bool = True, htmx: bool = False) -> Any:
    data = {"side": side, "chit": chit}
    if confirmed:
        data["confirmed"] = "yes"
    headers = {"HX-Request": "true"} if htmx else {}
    name = "chit_submit" if confirmed else "chit_confirm"
    return client.post(reverse(name, args=[campaign.public_id]), data, headers=headers)


def test_choosing_a_chit_asks_for_confirmation_and_saves_nothing_until_confirmed(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    before = snapshot(campaign)

    response = post_chit(client_for(users["gerd"]), campaign, "german", "attack", confirmed=False)

    assert response.status_code == 200
    assert "Submit Attack? This is final." in response.content.decode()
    assert snapshot(campaign) == before


def test_the_confirm_step_works_as_an_htmx_fragment_too(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    response = post_chit(client_for(users["gerd"]), campaign, "german", "idle", confirmed=False, htmx=True)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="chit-panel"')
    assert "Submit Idle? This is final." in html


def test_a_confirmed_chit_is_sealed_and_the_page_says_so(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    client = client_for(users["gerd"])
    response = post_chit(client, campaign, "german", "attack")
    assert response.status_code == 302
    page = client.get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    assert "Your <strong>Attack</strong> chit is sealed" in page
    campaign.refresh_from_db()
    assert campaign.state["sealed"] == {"german": "attack"}


FORGERIES = {
    "a chit for the other side": ("canadian", "attack", "you cannot submit a chit for the Canadian side"),
    "an unknown chit value": ("german", "ambush", "is not an Initiative chit (allowed: attack, idle)"),
    "an unknown side": ("russian", "attack", "Unknown side “russian” (allowed: german)"),
    "an empty chit": ("german", "", "Choose Attack or Idle."),
}


@pytest.mark.parametrize("forgery", FORGERIES, ids=list(FORGERIES))
@pytest.mark.parametrize("confirmed", [False, True], ids=["confirm step", "submit step"])
def test_a_forged_chit_is_refused_with_a_clear_message_and_nothing_changes(
    campaign_factory: Any, users: Any, forgery: str, confirmed: bool
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    side, chit, message = FORGERIES[forgery]
    before = snapshot(campaign)

    response = post_chit(client_for(users["gerd"]), campaign, side, chit, confirmed=confirmed)

    assert response.status_code == 422
    assert message in response.content.decode()
    assert snapshot(campaign) == before


def test_a_second_chit_is_refused_because_a_submitted_chit_is_final(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    client = client_for(users["gerd"])
    post_chit(client, campaign, "german", "attack")
    before = snapshot(campaign)

    response = post_chit(client, campaign, "german", "idle")

    assert response.status_code == 422
    assert "A submitted chit is final." in response.content.decode()
    assert snapshot(campaign) == before


def test_a_chit_after_the_reveal_is_refused(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    post_chit(client_for(users["gerd"]), campaign, "german", "attack")
    post_chit(client_for(users["cana"]), campaign, "canadian", "idle")
    before = snapshot(campaign)

    response = post_chit(client_for(users["cana"]), campaign, "canadian", "attack")

    assert response.status_code == 422
    assert "have already been revealed (German Assault)" in response.content.decode()
    assert snapshot(campaign) == before


def test_a_chit_during_the_initial_scenario_is_refused(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"], to_initiative=False)
    before = snapshot(campaign)
    response = post_chit(client_for(users["gerd"]), campaign, "german", "attack")
    assert response.status_code == 422
    assert "Initiative chits are placed only at Initiative Determination" in response.content.decode()
    assert snapshot(campaign) == before


def test_the_attack_chit_limit_is_enforced_with_a_clear_message(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    campaign.state = {**campaign.state, "attack_chits_used": {"canadian": 2, "german": 0}}  # RR 2.5221: Canadian max 2
    campaign.save(update_fields=["state"])
    before = snapshot(campaign)

    response = post_chit(client_for(users["cana"]), campaign, "canadian", "attack")

    assert response.status_code == 422
    assert "has used its 2 Attack chits" in response.content.decode()
    assert snapshot(campaign) == before


def test_both_players_see_the_reveal_with_the_matrix_result(campaign_factory: Any, users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    post_chit(client_for(users["gerd"]), campaign, "german", "idle")
    post_chit(client_for(users["cana"]), campaign, "canadian", "attack")
    for user in (users["gerd"], users["cana"]):
        page = client_for(user).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
        assert '<p class="reveal-label">Canadian Assault</p>' in page
        assert "German sets up first." in page and "Canadian moves first." in page


def pin_clock(monkeypatch: Any) -> None:
    """Renders compared byte for byte happen at different instants; pin Refit's clock so only the choice differs."""
    for module in ("core", "campaigns", "presence"):  # the services modules that read Refit's clock
        monkeypatch.setattr(f"campaigns_app.services.{module}.now", lambda: _FIXED_NOW)
    # the e-mails' one-click links carry a TimestampSigner time (signed and checked by the same clock)
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=_FIXED_NOW.timestamp))
    for model in (EventRecord, Campaign, Seat, Invitation):
        for field in model._meta.get_fields():
            if getattr(field, "default", None) is models_now:
                monkeypatch.setattr(field, "default", lambda: _FIXED_NOW)
                monkeypatch.setattr(field, "_get_default", lambda: _FIXED_NOW, raising=False)


def _opponent_renders(campaign: Any, users: Any, german_chit: str) -> tuple[bytes, bytes, dict[str, str], bytes]:
    """What the Canadian gets — page, fragments over HTTP, websocket fragments, history — after the German seals."""
    with transaction.atomic():
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit=german_chit)
        client = client_for(users["cana"])
        page = client.get(reverse("campaign_detail", args=[campaign.public_id])).content
        over_http = client.get(reverse("campaign_fragments", args=[campaign.public_id])).content
        over_ws = ws_fragments(Seat.objects.get(campaign=campaign, side="canadian"))
        history = client.get(reverse("campaign_history", args=[campaign.public_id])).content
        transaction.set_rollback(True)
    return page, over_http, over_ws, history


def test_the_opponents_view_before_the_reveal_is_byte_identical_whatever_the_choice(
    campaign_factory: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = campaign_factory(users["gerd"], users["cana"])

    after_attack = _opponent_renders(campaign, users, "attack")
    after_idle = _opponent_renders(campaign, users, "idle")

    assert after_attack == after_idle
    page = after_attack[0].decode()
    assert "has chosen" in page.lower()  # the opponent learns that the German has chosen — and only that


def test_a_forged_chit_for_the_side_that_has_chosen_gets_the_same_answer_whatever_it_chose(
    campaign_factory: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = campaign_factory(users["gerd"], users["cana"])
    answers = []
    for german_chit in ("attack", "idle"):
        with transaction.atomic():
            services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit=german_chit)
            response = post_chit(client_for(users["cana"]), campaign, "german", "attack")
            answers.append((response.status_code, response.content))
            transaction.set_rollback(True)
    assert answers[0] == answers[1]
    assert answers[0][0] == 422
    assert "you cannot submit a chit for the German side" in answers[0][1].decode()


from datetime import datetime  # noqa: E402
from datetime import timezone as _tz

_FIXED_NOW = datetime(2026, 1, 1, 12, 0, tzinfo=_tz.utc)

