"""Messages between the two players: on both campaign pages and in the history, live over the socket, e-mailed to
a reader who is away, plain text with links made clickable, bounded, a form sent twice sends once."""
from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import presence_store
from campaigns_app.live.pages import VERSION_MARK
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign, EventRecord, LiveView
from tests.campaigns_app.conftest import client_for, load_rr, make_user
from tests.campaigns_app.live.test_consumer import drain, open_socket
from tests.campaigns_app.phase.test_phase_flow import started

HTMX = {"HTTP_HX_REQUEST": "true"}


def _send(user: Any, campaign: Campaign, text: str, form_id: str | None = None, **headers: str) -> Any:
    side = "german" if user.username == "gerd" else "canadian"
    data = {"text": text, "form_id": form_id if form_id is not None else message_form_id(campaign, side)}
    return client_for(user).post(reverse("campaign_message", args=[campaign.public_id]), data, **headers)


def test_a_message_reaches_both_pages_and_the_history_escaped_with_its_link_clickable(rr: Any, users: Any) -> None:
    campaign = started(users)

    response = _send(users["gerd"], campaign, "See <b>https://vasl.info/hill112</b>\nAttack at dawn", **HTMX)

    assert response.status_code == 200
    fragment = response.content.decode()
    assert 'id="messages"' in fragment and 'id="message-form-id"' in fragment
    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    assert '<a href="https://vasl.info/hill112" rel="nofollow">https://vasl.info/hill112</a>' in page
    assert "&lt;b&gt;" in page and "<b>https" not in page and "<br>Attack at dawn" in page
    history = client_for(users["cana"]).get(reverse("campaign_history", args=[campaign.public_id])).content.decode()
    assert "The German side wrote: “See &lt;b&gt;https://vasl.info/hill112&lt;/b&gt;" in history


def test_a_message_time_is_shown_in_the_readers_own_time_zone_and_says_utc_without_javascript(
    rr: Any, users: Any
) -> None:
    campaign = started(users)
    _send(users["gerd"], campaign, "Dawn attack?")
    sent = EventRecord.objects.get(campaign=campaign, kind="message").created

    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()

    stamp = sent.strftime("%-d %b, %H:%M")
    assert (f'<time datetime="{sent.isoformat()}" data-local="short" class="muted small">'
            f"{stamp} UTC</time>") in page


def test_a_form_sent_twice_sends_one_message_and_the_next_form_sends_another(rr: Any, users: Any) -> None:
    campaign = started(users)
    form_id = message_form_id(campaign, "german")

    for _ in range(2):
        assert _send(users["gerd"], campaign, "Ready?", form_id, **HTMX).status_code == 200
    assert _send(users["gerd"], campaign, "Hello?", **HTMX).status_code == 200

    texts = [e.payload["text"] for e in EventRecord.objects.filter(campaign=campaign, kind="message").order_by("seq")]
    assert texts == ["Ready?", "Hello?"]


@pytest.mark.parametrize(("text", "form_id", "message"), [
    ("   ", None, "A message needs some text."),
    ("x" * 2001, None, "A message is at most 2,000 characters (this one has 2,001)."),
    ("x" * 20000, None, "A message is at most 2,000 characters."),
    ("Hello", "forged", "This form has expired: reload the campaign page and write the message there."),
])
def test_a_message_that_cannot_be_sent_says_why_and_nothing_is_saved(
    rr: Any, users: Any, text: str, form_id: str | None, message: str
) -> None:
    campaign = started(users)

    htmx = _send(users["gerd"], campaign, text, form_id, **HTMX)
    plain = _send(users["gerd"], campaign, text, form_id)

    assert htmx.status_code == 422 and message in htmx.content.decode()
    assert plain.status_code == 400 and message in plain.content.decode()
    assert not EventRecord.objects.filter(campaign=campaign, kind="message").exists()


def test_the_reader_away_gets_the_message_by_email_and_the_reader_on_the_page_does_not(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = started(users)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _send(users["gerd"], campaign, "Your move, take your time")

    assert [m.to for m in mail.outbox] == [["cana@example.org"]]
    assert mail.outbox[0].subject == "Hill 112: a message from gerd"
    assert "Your move, take your time" in mail.outbox[0].body and "#messages" in mail.outbox[0].body

    presence_store.store().beat(campaign.public_id, "canadian", "test.live!9", presence_store.clock())
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _send(users["gerd"], campaign, "Still there?")
    assert mail.outbox == []


def test_a_reader_on_the_notes_page_is_not_away_and_gets_no_message_email(
    rr: Any, users: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = started(users)
    socket = presence_store.socket_key("test.notes!9", presence_store.NOTES_PAGE)
    presence_store.store().beat(campaign.public_id, "canadian", socket, presence_store.clock())
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        _send(users["gerd"], campaign, "Are you reading your notes?")

    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
async def test_the_opponents_open_page_receives_the_message_live() -> None:
    channel_layers.backends.clear()

    def build() -> tuple[Campaign, Any, Any]:
        load_rr()
        users = {"gerd": make_user("gerd"), "cana": make_user("cana")}
        return started(users), users["gerd"], users["cana"]

    campaign, german, canadian = await database_sync_to_async(build)()
    socket, connected = await open_socket(canadian, campaign.public_id)
    assert connected
    await drain(socket)

    await database_sync_to_async(services.message_send)(
        public_id=campaign.public_id, user=german, text="Dawn attack on Hill 112",
        form_id=await database_sync_to_async(message_form_id)(campaign, "german"))
    frames = "".join(await drain(socket, until="Dawn attack"))

    assert 'id="messages"' in frames and "Dawn attack on Hill 112" in frames
    await socket.disconnect()
    channel_layers.backends.clear()


def test_the_campaign_pages_links_lead_to_the_messages_first_they_sit_below_the_step_on_a_phone(rr: Any,
                                                                                                 users: Any) -> None:
    campaign = started(users)
    page = client_for(users["cana"]).get(reverse("campaign_detail", args=[campaign.public_id])).content.decode()
    links = page.split('<nav aria-label="Campaign pages">')[1].split("</nav>")[0]
    assert links.strip().startswith('<a class="button button-secondary button-small" href="#messages-title">Messages</a>')
    assert '<h2 id="messages-title" class="card-title">Messages</h2>' in page


@pytest.mark.django_db(transaction=True)
def test_the_htmx_answer_to_a_message_reuses_the_rendering_its_write_published(rr: Any, users: Any) -> None:
    campaign = started(users)
    for side in ("german", "canadian"):  # both pages open: the write renders and stores both seats' views
        presence_store.store().beat(campaign.public_id, side, f"test.live!{side}", presence_store.clock())

    with CaptureQueriesContext(connection) as captured:
        response = _send(users["gerd"], campaign, "Attack at dawn", **HTMX)

    assert response.status_code == 200
    stored = LiveView.objects.get(seat__campaign=campaign, seat__side="german")
    assert response.content.decode().startswith(stored.fragments["messages"].replace(VERSION_MARK, str(stored.version)))
    assert "Attack at dawn" in stored.fragments["messages"]
    live_view_reads = [q["sql"] for q in captured.captured_queries
                       if q["sql"].startswith("SELECT") and '"campaigns_app_liveview"' in q["sql"].split(" WHERE ")[0]]
    assert len(live_view_reads) == 1, live_view_reads  # the publish's own read of both stored views, none after it
