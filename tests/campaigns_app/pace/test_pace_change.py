"""Changing the pace later, only by both agreeing: either player proposes one of the create page's paces, the other
agrees or declines, the proposer may withdraw; agreed, every running deadline starts again from that moment at the
new pace. Refusals say what is wrong (4xx) and save nothing; the history records each step; both pages are pushed."""
from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.urls import reverse
from django.utils import timezone

from campaigns_app import services
from campaigns_app.live import pages as live
from campaigns_app.live import presence_store
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.pace.selectors import deadline_of
from campaigns_app.services import pace as pace_services
from tests.campaigns_app.conftest import client_for, load_rr, make_user
from tests.campaigns_app.live.test_consumer import drain, open_socket
from tests.campaigns_app.lost_test_values import RR as RR_LOST

HTMX = {"HTTP_HX_REQUEST": "true"}
PACE_KINDS = ("pace-proposed", "pace-agreed", "pace-declined", "pace-withdrawn")


def paced(users: Any, hours: int | None = 48) -> Campaign:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                        lost_values=RR_LOST, pace_hours=hours)
    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)
    return Campaign.objects.get(pk=campaign.pk)


def fresh(campaign: Campaign) -> Campaign:
    return Campaign.objects.get(pk=campaign.pk)


def page_of(user: Any, campaign: Campaign) -> str:
    return client_for(user).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()


def history_of(user: Any, campaign: Campaign) -> str:
    return client_for(user).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()


def pace_events(campaign: Campaign) -> list[str]:
    return list(EventRecord.objects.filter(campaign=campaign, kind__in=PACE_KINDS).order_by("seq")
                .values_list("kind", flat=True))


def post(user: Any, campaign: Campaign, name: str, data: dict[str, str], **headers: str) -> Any:
    return client_for(user).post(reverse(name, args=[campaign.public_id]), data, **headers)


def test_a_pace_agreed_10_hours_into_a_48_hour_action_makes_it_due_24_hours_after_the_agreement(
    rr: Any, users: Any
) -> None:
    campaign = paced(users, 48)
    Campaign.objects.filter(pk=campaign.pk).update(due={
        "german": {"since": "2026-11-02T08:00:00+00:00", "reminded": ""},
        "canadian": {"since": "2026-11-01T20:00:00+00:00", "reminded": "soon"}})
    assert deadline_of(fresh(campaign), "german", datetime(2026, 11, 2, 9, 0, tzinfo=UTC)) == (
        datetime(2026, 11, 4, 8, 0, tzinfo=UTC), False)

    pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24,
                               moment=datetime(2026, 11, 2, 17, 0, tzinfo=UTC))
    assert fresh(campaign).pace_hours == 48  # nothing changes before the other side agrees
    pace_services.pace_answer(public_id=campaign.public_id, user=users["cana"], agree=True,
                              moment=datetime(2026, 11, 2, 18, 0, tzinfo=UTC))

    after = fresh(campaign)
    assert after.pace_hours == 24 and after.pace_request == {}
    assert after.due == {"german": {"since": "2026-11-02T18:00:00+00:00", "reminded": ""},
                         "canadian": {"since": "2026-11-02T18:00:00+00:00", "reminded": ""}}
    moment = datetime(2026, 11, 2, 19, 0, tzinfo=UTC)
    assert deadline_of(after, "german", moment) == (datetime(2026, 11, 3, 18, 0, tzinfo=UTC), False)
    assert deadline_of(after, "canadian", moment) == (datetime(2026, 11, 3, 18, 0, tzinfo=UTC), False)
    assert pace_events(campaign) == ["pace-proposed", "pace-agreed"]


def test_the_history_tells_both_players_who_proposed_and_who_agreed(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    pace_services.pace_propose(public_id=campaign.public_id, user=users["cana"], hours=168)
    pace_services.pace_answer(public_id=campaign.public_id, user=users["gerd"], agree=True)

    german, canadian = history_of(users["gerd"], campaign), history_of(users["cana"], campaign)

    assert "The Canadian side proposed a new pace: 1 week per action (until now: 2 days per action)." in german
    assert "You agreed to the new pace: 1 week per action (was: 2 days per action); every running deadline " \
           "started again from then." in german
    assert "You proposed a new pace: 1 week per action (until now: 2 days per action)." in canadian
    assert "The German side agreed to the new pace: 1 week per action (was: 2 days per action)" in canadian
    assert "<strong>Pace:</strong> 1 week per action" in page_of(users["cana"], campaign)


def test_a_declined_pace_changes_nothing_and_the_history_says_so(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    due = fresh(campaign).due
    pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=None)

    response = post(users["cana"], campaign, "campaign_pace_answer", {"answer": "decline"})

    assert response.status_code == 302
    after = fresh(campaign)
    assert after.pace_hours == 48 and after.due == due and after.pace_request == {}
    assert "You declined the new pace: no time limit; it stays 2 days per action." in history_of(users["cana"], campaign)
    assert pace_events(campaign) == ["pace-proposed", "pace-declined"]


def test_the_proposer_may_withdraw_and_then_propose_again(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    assert post(users["gerd"], campaign, "campaign_pace", {"hours": "72"}).status_code == 302

    assert post(users["gerd"], campaign, "campaign_pace_withdraw", {}).status_code == 302

    assert fresh(campaign).pace_request == {} and fresh(campaign).pace_hours == 48
    assert "The German side withdrew the proposed pace: 3 days per action; it stays 2 days per action." in \
        history_of(users["cana"], campaign)
    assert post(users["gerd"], campaign, "campaign_pace", {"hours": "24"}).status_code == 302
    assert fresh(campaign).pace_request == {"side": "german", "hours": 24}


def test_a_campaign_without_a_time_limit_can_agree_to_one_and_its_deadlines_appear(rr: Any, users: Any) -> None:
    campaign = paced(users, None)
    page = page_of(users["gerd"], campaign)
    assert "<strong>Pace:</strong> No time limit" in page and "Propose a new pace" in page
    assert '<option value="">No time limit</option>' not in page  # the current pace is not offered

    post(users["gerd"], campaign, "campaign_pace", {"hours": "24"})
    post(users["cana"], campaign, "campaign_pace_answer", {"answer": "agree"})

    assert fresh(campaign).pace_hours == 24
    assert page_of(users["gerd"], campaign).count("due by <time datetime=") == 2


@pytest.mark.parametrize(("opened", "who", "name", "data", "message"), [
    (False, "gerd", "campaign_pace", {"hours": "48"}, "2 days per action is the pace already: propose a different one."),
    (False, "gerd", "campaign_pace", {"hours": "5"},
     "&#x27;5&#x27; is not a pace: choose no time limit or 24, 48, 72, 168 hours per action."),
    (False, "gerd", "campaign_pace", {"hours": "9" * 400},
     "&#x27;9999999999&#x27; is not a pace: choose no time limit or 24, 48, 72, 168 hours per action."),
    (False, "cana", "campaign_pace_answer", {"answer": "agree"},
     "There is no new pace of your opponent&#x27;s to answer."),
    (True, "gerd", "campaign_pace_answer", {"answer": "agree"},
     "There is no new pace of your opponent&#x27;s to answer."),
    (True, "cana", "campaign_pace_answer", {"answer": "maybe"}, "Answer a new pace with agree or decline."),
    (True, "cana", "campaign_pace_withdraw", {}, "There is no new pace of yours to withdraw."),
    (True, "cana", "campaign_pace", {"hours": "24"},
     "Your opponent has proposed a new pace: agree or decline it first."),
    (True, "gerd", "campaign_pace", {"hours": "24"},
     "You have proposed a new pace already: withdraw it first to propose another."),
])
def test_a_refused_pace_request_says_why_as_a_4xx_and_saves_nothing(
    rr: Any, users: Any, opened: bool, who: str, name: str, data: dict[str, str], message: str
) -> None:
    campaign = paced(users, 48)
    if opened:
        pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=72)
    before = fresh(campaign)
    events = EventRecord.objects.filter(campaign=campaign).count()

    htmx = post(users[who], campaign, name, data, **HTMX)
    plain = post(users[who], campaign, name, data)

    assert htmx.status_code == 422 and message in htmx.content.decode()
    assert plain.status_code == 400 and message in plain.content.decode()
    after = fresh(campaign)
    assert (after.pace_hours, after.pace_request, after.due) == (before.pace_hours, before.pace_request, before.due)
    assert EventRecord.objects.filter(campaign=campaign).count() == events


def test_a_new_pace_waits_for_the_opponent_to_join(rr: Any, users: Any) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112",
                                        lost_values=RR_LOST, pace_hours=48)

    with pytest.raises(services.ServiceError, match="A new pace needs both players"):
        pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24)
    assert fresh(campaign).pace_request == {}


def test_a_third_player_cannot_see_or_touch_the_pace(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)

    assert post(users["carol"], campaign, "campaign_pace", {"hours": "24"}).status_code == 404
    assert fresh(campaign).pace_request == {} and pace_events(campaign) == []


def test_the_proposal_is_on_both_live_pages_with_the_answer_form_only_on_the_opponents(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    for side in ("german", "canadian"):
        presence_store.store().beat(campaign.public_id, side, f"test.live!{side}", presence_store.clock())

    pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24)

    seats = {seat.side: seat for seat in campaign.seats.all()}
    german, canadian = (live.published(seats[side].pk) for side in ("german", "canadian"))
    assert german is not None and canadian is not None
    assert "You proposed a new pace: 1 day per action; waiting for your opponent" in german.stamped("players")
    assert "campaign_pace_answer" not in german.stamped("players")
    players = canadian.stamped("players")
    assert "The German side proposes a new pace: 1 day per action (now: 2 days per action)." in players
    assert "every action due then is due a full new pace from that moment" in players
    assert reverse("campaign_pace_answer", args=[campaign.public_id]) in players


@pytest.mark.django_db(transaction=True)
async def test_both_open_pages_receive_the_proposal_and_the_agreement_live() -> None:
    channel_layers.backends.clear()

    def build() -> tuple[Campaign, Any, Any]:
        load_rr()
        users = {"gerd": make_user("gerd"), "cana": make_user("cana")}
        return paced(users, 48), users["gerd"], users["cana"]

    campaign, german, canadian = await database_sync_to_async(build)()
    german_socket, german_on = await open_socket(german, campaign.public_id)
    canadian_socket, canadian_on = await open_socket(canadian, campaign.public_id)
    assert german_on and canadian_on
    await drain(german_socket)
    await drain(canadian_socket)

    await database_sync_to_async(pace_services.pace_propose)(public_id=campaign.public_id, user=german, hours=72)
    assert "You proposed a new pace: 3 days per action" in "".join(await drain(german_socket, until="proposed a new"))
    assert "The German side proposes a new pace: 3 days per action" in "".join(
        await drain(canadian_socket, until="proposes a new"))

    await database_sync_to_async(pace_services.pace_answer)(public_id=campaign.public_id, user=canadian, agree=True)
    for socket in (german_socket, canadian_socket):
        assert "<strong>Pace:</strong> 3 days per action" in "".join(await drain(socket, until="3 days per action"))
        await socket.disconnect()
    channel_layers.backends.clear()


def test_a_side_proposes_at_most_5_new_paces_a_day_the_6th_is_refused_with_when_and_nothing_saved(
    rr: Any, users: Any
) -> None:
    campaign = paced(users, 48)
    for hour in range(5):  # 2 Nov 09:00 … 13:00, each withdrawn at once
        moment = datetime(2026, 11, 2, 9 + hour, 0, tzinfo=UTC)
        pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24, moment=moment)
        pace_services.pace_withdraw(public_id=campaign.public_id, user=users["gerd"], moment=moment)

    with pytest.raises(services.RateLimited) as refused:
        pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24,
                                   moment=datetime(2026, 11, 2, 20, 0, tzinfo=UTC))

    assert str(refused.value) == ("You have proposed a new pace 5 times within 24 hours, the most a side may: you may "
                                  "propose again at 09:00 UTC on 03 Nov 2026.")
    assert fresh(campaign).pace_request == {} and pace_events(campaign).count("pace-proposed") == 5
    pace_services.pace_propose(public_id=campaign.public_id, user=users["cana"], hours=72,  # the other side may
                               moment=datetime(2026, 11, 2, 20, 0, tzinfo=UTC))
    pace_services.pace_withdraw(public_id=campaign.public_id, user=users["cana"])
    pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24,
                               moment=datetime(2026, 11, 3, 9, 0, tzinfo=UTC))
    assert fresh(campaign).pace_request == {"side": "german", "hours": 24}


def test_a_proposal_asked_too_often_is_answered_429_on_the_players_card_and_the_page(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    first = timezone.now() - timedelta(hours=2)
    for n in range(5):
        moment = first + timedelta(minutes=n)
        pace_services.pace_propose(public_id=campaign.public_id, user=users["gerd"], hours=24, moment=moment)
        pace_services.pace_withdraw(public_id=campaign.public_id, user=users["gerd"], moment=moment)

    htmx = post(users["gerd"], campaign, "campaign_pace", {"hours": "24"}, **HTMX)
    plain = post(users["gerd"], campaign, "campaign_pace", {"hours": "24"})

    for response in (htmx, plain):
        assert response.status_code == 429
        assert "You have proposed a new pace 5 times within 24 hours" in response.content.decode()
        assert 22 * 3600 - 120 < int(response["Retry-After"]) <= 22 * 3600
    assert 'id="players"' in htmx.content.decode()
    assert fresh(campaign).pace_request == {}


def test_a_side_asks_for_a_pause_at_most_5_times_a_day(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    for hour in range(5):
        moment = datetime(2026, 11, 2, 9 + hour, 0, tzinfo=UTC)
        pace_services.pause_ask(public_id=campaign.public_id, user=users["cana"], until=date(2026, 11, 9),
                                moment=moment)
        pace_services.pause_answer(public_id=campaign.public_id, user=users["gerd"], agree=False, moment=moment)

    with pytest.raises(services.RateLimited, match="You have asked for a pause 5 times within 24 hours, the most a "
                                                   "side may: you may ask again at 09:00 UTC on 03 Nov 2026."):
        pace_services.pause_ask(public_id=campaign.public_id, user=users["cana"], until=date(2026, 11, 9),
                                moment=datetime(2026, 11, 2, 22, 0, tzinfo=UTC))
    assert fresh(campaign).pause_request == {}


def test_after_the_cg_ends_no_new_pace_is_offered_or_taken(rr: Any, users: Any) -> None:
    campaign = paced(users, 48)
    services.cg_end_concede(user=users["cana"], public_id=campaign.public_id)

    refused = post(users["gerd"], campaign, "campaign_pace", {"hours": "24"})

    assert refused.status_code == 400
    assert "The Campaign Game has ended: there is no pace left to change." in refused.content.decode()
    assert "Propose a new pace" not in page_of(users["gerd"], campaign)
    assert fresh(campaign).pace_request == {} and fresh(campaign).pace_hours == 48
