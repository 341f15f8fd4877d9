"""The notes page for screen-reader users and at CG end: each new line of the opponent's lists carries the sentence
the page's live region says (the shadow's words: who, which note or roll — never its text, purpose or dice), and once
the CG has ended the lists say so and the page's sealing and rolling forms are marked to go."""
from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from django.urls import reverse

from campaigns_app import services
from campaigns_app.live import presence_store
from campaigns_app.models import Campaign, EventRecord, LiveView, Seat
from tests.campaigns_app.conftest import client_for, new_campaign

FORM = "a" * 32
OVER = "The Campaign Game is over: every note and secret roll is revealed."


def _notes_page_open(campaign: Campaign, side: str) -> None:
    socket = presence_store.socket_key(f"test.notes!{side}", presence_store.NOTES_PAGE)
    presence_store.store().beat(campaign.public_id, side, socket, presence_store.clock())


def _canadian_fragments(campaign: Campaign) -> dict[str, str]:
    fragments: dict[str, str] = LiveView.objects.get(seat=Seat.objects.get(campaign=campaign, side="canadian")).fragments
    return fragments


def test_the_notes_page_has_a_live_region_outside_its_swapped_lists(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])

    page = client_for(users["cana"]).get(reverse("campaign_notes", args=[campaign.public_id])).content.decode()

    assert '<div id="live-announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">' in page
    assert page.index('id="live-announcer"') < page.index('id="notes-list"')
    for fragment_id in ("notes-list", "secret-rolls-list"):
        assert re.search(rf'<div id="{fragment_id}" data-live-version="\d+" data-announce-new>', page)


def test_the_opponents_new_note_and_secret_roll_carry_their_sentence_in_the_shadows_words(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    _notes_page_open(campaign, "canadian")

    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text="HIP in K5 stone", form_id=FORM)
    services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="dr", purpose="Sniper target",
                         form_id="b" * 32)

    fragments = _canadian_fragments(campaign)
    assert 'data-announce="The German side sealed note #1."' in fragments["notes-list"]
    assert 'data-announce="The German side made secret dr #1."' in fragments["secret-rolls-list"]
    assert "K5" not in fragments["notes-list"] and "Sniper" not in fragments["secret-rolls-list"]


def test_a_revealed_note_and_roll_of_the_opponent_carry_a_new_sentence(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    _notes_page_open(campaign, "canadian")
    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text="HIP in K5 stone", form_id=FORM)
    services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose="Sniper target",
                         form_id="b" * 32)

    services.note_reveal(public_id=campaign.public_id, user=users["gerd"], number=1)
    services.secret_roll_reveal(public_id=campaign.public_id, user=users["gerd"], number=1)

    fragments = _canadian_fragments(campaign)
    assert 'data-announce="The German side revealed note #1."' in fragments["notes-list"]
    assert 'data-announce="The German side revealed secret DR #1."' in fragments["secret-rolls-list"]


def test_own_notes_carry_no_sentence_to_announce(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    _notes_page_open(campaign, "canadian")

    services.note_seal(public_id=campaign.public_id, user=users["cana"], text="Plan B", form_id=FORM)

    assert "data-announce=" not in _canadian_fragments(campaign)["notes-list"]


def test_at_cg_end_an_open_notes_pages_lists_say_the_cg_is_over_and_mark_it_ended(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    _notes_page_open(campaign, "canadian")
    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text="HIP in K5 stone", form_id=FORM)
    assert OVER not in _canadian_fragments(campaign)["notes-list"]

    services.cg_end_concede(user=users["gerd"], public_id=campaign.public_id)

    notes_list = _canadian_fragments(campaign)["notes-list"]
    assert f'data-cg-ended data-announce="{OVER}">{OVER}</p>' in notes_list
    assert notes_list.count(OVER) == 2, "said once on the page, once in the live region's words"


def test_the_sealing_and_rolling_forms_are_marked_to_go_when_the_cg_ends_live(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])

    page = client_for(users["cana"]).get(reverse("campaign_notes", args=[campaign.public_id])).content.decode()

    assert '<section class="card" aria-labelledby="seal-heading" data-while-cg-open>' in page
    assert 'id="secret-roll-form" data-while-cg-open>' in page
    assert OVER not in page


def test_after_cg_end_the_notes_page_has_no_form_and_says_the_cg_is_over_once(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.cg_end_concede(user=users["gerd"], public_id=campaign.public_id)

    page = client_for(users["cana"]).get(reverse("campaign_notes", args=[campaign.public_id])).content.decode()

    assert "data-while-cg-open" not in page and 'id="note-form"' not in page and 'id="secret-roll-form"' not in page
    assert page.count(f">{OVER}<") == 1


def test_a_notes_and_a_secret_rolls_moment_is_a_local_time_with_its_utc_text(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.note_seal(public_id=campaign.public_id, user=users["cana"], text="Plan B", form_id=FORM)
    services.secret_roll(public_id=campaign.public_id, user=users["cana"], kind="dr", purpose="Sniper target",
                         form_id="b" * 32)
    moment = datetime(2026, 12, 5, 14, 7, tzinfo=UTC)
    EventRecord.objects.filter(campaign=campaign).update(created=moment)  # the note and the roll were made then

    page = client_for(users["cana"]).get(reverse("campaign_notes", args=[campaign.public_id])).content.decode()

    stamp = '<time datetime="2026-12-05T14:07:00+00:00" data-local>5 Dec 2026, 14:07 UTC</time>'
    assert f"sealed {stamp}" in page
    assert f"made {stamp}" in page
