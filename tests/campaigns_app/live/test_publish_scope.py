"""A write that can change one input alone — who is online, a message — renders only the fragments that read it and
keeps the seat's others as stored just before (campaigns_app.live.pages.publish, ``changed``); what it stores and
sends is byte for byte what rendering every fragment gives. Which fragments read an input is read off the live
context and the partials here, so a partial that starts reading it elsewhere fails these tests."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import fragments, notifications, presence_store
from campaigns_app.live import pages as live
from campaigns_app.live.pages import VERSION_MARK
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign, LiveView, Seat
from campaigns_app.phase import live_page
from tests.campaigns_app.conftest import client_for, new_campaign
from tests.campaigns_app.live.test_live import seat_of
from tests.campaigns_app.live.test_push import Layer, pages_open

SIDES = ("german", "canadian")


class Rendered:
    """The fragment ids rendered (render_fragment calls), by side."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ids: dict[str, list[str]] = {side: [] for side in SIDES}
        original = fragments.render_fragment

        def counted(fragment_id: str, context: dict[str, Any], request: Any = None) -> str:
            self.ids[context["seat"].side].append(fragment_id)
            return original(fragment_id, context, request)

        monkeypatch.setattr(fragments, "render_fragment", counted)

    def taken(self) -> dict[str, list[str]]:
        """The ids rendered so far (and none counted after this)."""
        made = {side: list(ids) for side, ids in self.ids.items()}
        self.ids = {side: [] for side in SIDES}
        return made


def listening(monkeypatch: pytest.MonkeyPatch) -> Layer:
    """A channel layer that records what each seat's group is sent."""
    layer = Layer()
    monkeypatch.setattr(notifications, "get_channel_layer", lambda: layer)
    return layer


def stored_is_a_whole_rendering(campaign: Campaign) -> None:
    """Each seat's stored view is at the campaign's revision and holds what rendering every fragment gives now."""
    revision = Campaign.objects.get(pk=campaign.pk).revision
    for seat in Seat.objects.filter(campaign=campaign).select_related("user"):
        view = LiveView.objects.get(seat=seat)
        assert view.revision == revision, seat.side
        assert view.fragments == fragments.live_fragments(seat, live_version=VERSION_MARK), seat.side


def send(user: Any, campaign: Campaign, side: str, text: str) -> None:
    response = client_for(user).post(reverse("campaign_message", args=[campaign.public_id]),
                                     {"text": text, "form_id": message_form_id(campaign, side)},
                                     headers={"HX-Request": "true"})
    assert response.status_code == 200


def test_a_message_renders_only_the_messages_and_the_latest_events_and_stores_a_whole_rendering(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    layer = listening(monkeypatch)
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    rendered = Rendered(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        send(users["cana"], campaign, "canadian", "Hold the <b>crossroads</b> at dawn")

    made = rendered.taken()
    stored_is_a_whole_rendering(campaign)  # first: a fragment kept that the write changed fails here
    assert made == {"german": ["history-latest", "messages"], "canadian": ["history-latest", "messages"]}
    sent = {group.rsplit("-", 1)[1]: message["fragments"] for group, message in layer.sent}
    assert sorted(sent) == ["canadian", "german"]
    for side in SIDES:
        assert list(sent[side]) == ["history-latest", "messages"], side  # in the frame's order
        assert "Hold the &lt;b&gt;crossroads&lt;/b&gt; at dawn" in sent[side]["messages"]


def test_a_side_coming_online_renders_only_the_players_fragment_and_stores_a_whole_rendering(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    presence_store.store().beat(campaign.public_id, "canadian", "test.live!canadian", presence_store.clock())
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    layer = listening(monkeypatch)
    rendered = Rendered(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="test.live!german")

    # the Canadian view was stored at the chit: only its players; the German one never was: every fragment
    made = rendered.taken()
    stored_is_a_whole_rendering(campaign)  # first: a fragment kept that the write changed fails here
    assert made == {"german": list(fragments.FRAGMENTS), "canadian": ["players"]}
    (message,) = [message for group, message in layer.sent if group.endswith("-canadian")]
    assert list(message["fragments"]) == ["players"]
    assert message["fragments"]["players"].count("presence-online") == 2


def test_a_view_stored_before_the_write_before_is_rendered_whole(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    presence_store.store().close(campaign.public_id, "german", "test.live!german", presence_store.clock())
    presence_store.store().close(campaign.public_id, "canadian", "test.live!canadian", presence_store.clock())
    # nobody is looking: the chit is stored, no view is rendered, the revision moves past the stored views
    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="idle")
    pages_open(campaign)
    rendered = Rendered(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        send(users["gerd"], campaign, "german", "Well played")

    made = rendered.taken()
    stored_is_a_whole_rendering(campaign)  # first: a fragment kept that the write changed fails here
    assert made == {side: list(fragments.FRAGMENTS) for side in SIDES}
    view = live.published(seat_of(campaign, "german").pk)
    assert view is not None and 'id="chit-reveal"' in view.fragments["chit-panel"]


def context_names_that_move(campaign: Campaign, side: str, change: Callable[[live_page.Shared], live_page.Shared]
                            ) -> set[str]:
    """The live context's names whose values differ when only ``change`` is made to the shared rows."""
    seat = seat_of(campaign, side)
    common = live_page.shared(Campaign.objects.select_related("system").get(pk=campaign.pk))
    before = live_page.live_context(seat, common)
    after = live_page.live_context(seat, change(common))
    assert before.keys() == after.keys()
    return {name for name in before if before[name] != after[name]}


def test_who_is_online_reaches_the_context_only_as_players_and_the_messages_only_as_the_conversation(
    rr: Any, users: Any,
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    letter = ("german", "Push on to the church", datetime(2026, 11, 28, 9, 30, tzinfo=UTC))
    for side in SIDES:
        assert context_names_that_move(campaign, side, lambda common: dataclasses.replace(
            common, online={"german", "canadian"} - common.online)) == {"players"}
        assert context_names_that_move(campaign, side, lambda common: dataclasses.replace(
            common, messages=[*common.messages, letter])) == {"conversation"}
        assert context_names_that_move(campaign, side, lambda common: dataclasses.replace(
            common, recent=[])) == {"history_latest"}


TEMPLATES = Path(settings.BASE_DIR) / "templates"


def partial_text(name: str) -> str:
    """A template's text, or one partial's (``template#partial``)."""
    template, _, partial = name.partition("#")
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    if not partial:
        return text
    found = re.search(r"{%\s*partialdef\s+" + re.escape(partial) + r"\b.*?{%\s*endpartialdef\s*%}", text, re.S)
    assert found is not None, name
    return found.group(0)


def partial_source(name: str) -> str:
    """The tags and variables (``{% … %}``, ``{{ … }}``) of a fragment's partial and of every template or partial it
    includes."""
    source = partial_text(name)
    pending = [source]
    while pending:
        for included in re.findall(r"""{%\s*include\s+["']([^"']+)["']""", pending.pop()):
            text = partial_text(included)
            source += text
            pending.append(text)
    return " ".join(re.findall(r"{%.*?%}|{{.*?}}", source, re.S))


def readers(context_name: str) -> set[str]:
    """The live fragments whose partials (with what they include) name ``context_name`` in a tag or variable."""
    return {fragment_id for fragment_id, name in fragments.FRAGMENTS.items()
            if re.search(r"\b" + context_name + r"\b",
                         partial_source(name if "#" in name else f"{fragments.TEMPLATE}#{name}"))}


def test_a_scoped_write_renders_exactly_the_fragments_whose_partials_read_what_it_changes() -> None:
    assert readers("players") == set(fragments.PRESENCE) == {"players"}
    assert readers("conversation") | readers("history_latest") == set(fragments.MESSAGE)
    assert readers("conversation") == {"messages"} and readers("history_latest") == {"history-latest"}


def test_the_context_parts_are_made_for_exactly_the_fragments_whose_partials_read_them() -> None:
    assert readers("phase") == live_page.PHASE_READERS
    assert readers("history_latest") == live_page.HISTORY_READERS
    assert readers("conversation") == live_page.MESSAGES_READERS
    assert live_page.VIEW_READERS | {"messages", "history-latest"} == set(fragments.FRAGMENTS)


def test_a_fragment_rendered_alone_reads_no_name_its_context_left_out_and_renders_the_same_bytes(
    rr: Any, users: Any,
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    for side in SIDES:
        seat = seat_of(campaign, side)
        row = Campaign.objects.select_related("system").get(pk=campaign.pk)
        common = live_page.shared(row)
        whole = live_page.live_context(seat, common)
        rendered = fragments.live_fragments(seat, common, live_version=VERSION_MARK)
        for fragment_id in fragments.FRAGMENTS:
            left_out = whole.keys() - live_page.live_context(seat, common, only=[fragment_id]).keys()
            assert {name for name in left_out if fragment_id in readers(name)} == set(), (side, fragment_id)
            rows_for_it = live_page.shared(row, only=[fragment_id])  # the messages and events read only if it shows them
            alone = fragments.live_fragments(seat, rows_for_it, only=[fragment_id], live_version=VERSION_MARK)
            assert alone == {fragment_id: rendered[fragment_id]}, (side, fragment_id)
        messages_alone = live_page.live_context(seat, common, only=fragments.MESSAGE).keys()
        assert {"view", "phase", "players"}.isdisjoint(messages_alone) and "history_latest" in messages_alone
        assert "phase" not in live_page.live_context(seat, common, only=fragments.PRESENCE)


def test_a_presence_change_reads_neither_the_messages_nor_the_newest_events_when_every_watched_view_is_whole(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    with django_capture_on_commit_callbacks(execute=True):
        send(users["cana"], campaign, "canadian", "Hold the crossroads")  # both seats' views stored, whole
    reads: list[str] = []
    for name in ("latest_messages", "recent_records"):
        original = getattr(live_page, name)
        monkeypatch.setattr(live_page, name, lambda *args, _name=name, _original=original: (
            reads.append(_name), _original(*args))[1])
    rendered = Rendered(monkeypatch)

    with django_capture_on_commit_callbacks(execute=True):
        services.presence_close(public_id=campaign.public_id, seat_id=seat_of(campaign, "german").pk, side="german",
                                channel_name="test.live!german")

    assert rendered.taken() == {"german": [], "canadian": ["players"]}  # the German page closed: only the Canadian
    assert reads == []
    canadian = seat_of(campaign, "canadian")  # what it stored is what a whole rendering gives
    assert LiveView.objects.get(seat=canadian).fragments == fragments.live_fragments(canadian, live_version=VERSION_MARK)
    reads.clear()
    with django_capture_on_commit_callbacks(execute=True):
        send(users["cana"], campaign, "canadian", "Still there?")
    assert sorted(reads) == ["latest_messages", "recent_records"]
