"""Sealed notes in the web app: a note's text and length never reach the opponent before it is revealed (pages,
fragments, history and socket renders byte-identical for two different notes of the same step); revealed, it
matches its commitment on both pages; a form sent twice seals once; bad input is a 400 saying what is allowed."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from campaigns_app import services
from campaigns_app.models import Campaign, EventRecord, Seat
from tests.campaigns_app.conftest import client_for, deterministic_csrf, scrub_random, ws_fragments
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm

SHORT = "HIP 9-1 in K5"
LONG = "Secret Bog target: the stone building in O7, and two HIP squads in the orchard; " * 20
FORM = "a" * 32


def _url(name: str, campaign: Campaign, *args: Any) -> str:
    return reverse(name, args=[campaign.public_id, *args])


def _scrub(html: bytes, campaign: Campaign) -> str:
    text = scrub_random(html.decode(), campaign)
    text = re.sub(r"[0-9a-f]{64}", "<commitment>", text)  # random-looking: salted, a different note gives another
    return re.sub(r'name="form_id" value="[0-9a-f]{32}"', "", text)


def _canadian_renders(campaign: Campaign, users: Any, text: str) -> tuple[str, ...]:
    with transaction.atomic():
        services.note_seal(public_id=campaign.public_id, user=users["gerd"], text=text, form_id=FORM)
        client = client_for(users["cana"])
        seat = Seat.objects.get(campaign=campaign, side="canadian")
        renders = tuple(_scrub(html, campaign) for html in (
            client.get(_url("campaign_detail", campaign)).content,
            client.get(_url("campaign_fragments", campaign)).content,
            client.get(_url("campaign_history", campaign)).content,
            client.get(_url("campaign_notes", campaign)).content,
            "".join(ws_fragments(seat).values()).encode(),
            "".join(ws_fragments(seat, notes=True).values()).encode(),  # what its notes page's socket sends
        ))
        transaction.set_rollback(True)
    return renders


def test_the_opponents_pages_are_byte_identical_for_two_different_notes_of_the_same_step(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)

    short, long = _canadian_renders(campaign, users, SHORT), _canadian_renders(campaign, users, LONG)

    assert short == long
    assert "9-1 in K5" not in "".join(short) and "orchard" not in "".join(short)
    assert "The German side sealed note #1 (19 PM, 2.518" in short[2]  # the history says that, when and where
    assert "<commitment>" in short[3]
    assert 'id="notes-list"' in short[5] and "<commitment>" in short[5]  # the notes page's socket: the shadow only


def test_the_writer_reads_the_note_and_the_opponent_reads_it_once_revealed(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    number = services.note_seal(public_id=campaign.public_id, user=users["gerd"], text=SHORT, form_id=FORM)
    german, canadian = client_for(users["gerd"]), client_for(users["cana"])

    assert SHORT in german.get(_url("campaign_notes", campaign)).content.decode()
    assert SHORT not in canadian.get(_url("campaign_notes", campaign)).content.decode()

    response = german.post(_url("campaign_note_reveal", campaign, number))
    assert response.status_code == 302

    page = canadian.get(_url("campaign_notes", campaign)).content.decode()
    assert SHORT in page and "✔ Matches the commitment sealed" in page
    history = canadian.get(_url("campaign_history", campaign)).content.decode()
    assert "The German side revealed note #1 (sealed 19 PM, 2.518" in history and SHORT in history


def test_a_seal_form_sent_twice_seals_one_note(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    german = client_for(users["gerd"])

    for _ in range(2):
        response = german.post(_url("campaign_note_seal", campaign), {"text": SHORT, "form_id": FORM})
        assert response.status_code == 302

    assert EventRecord.objects.filter(campaign=campaign, kind="note-sealed").count() == 1


@pytest.mark.parametrize(("data", "message"), [
    ({"text": "  ", "form_id": FORM}, "A note needs some text."),
    ({"text": "x" * 4001, "form_id": FORM}, "A note is at most 4,000 characters (this one has 4,001)."),
    ({"text": "x" * 30000, "form_id": FORM}, "A note is at most 4,000 characters."),
    ({"text": SHORT, "form_id": "forged"}, "This form has expired: open the notes page again and write the note there."),
])
def test_a_note_that_cannot_be_sealed_is_a_400_saying_why_and_nothing_is_saved(
    rr: Any, users: Any, data: dict[str, str], message: str
) -> None:
    campaign = german_to_buy_at_19pm(users)

    response = client_for(users["gerd"]).post(_url("campaign_note_seal", campaign), data)

    assert response.status_code == 400 and message in response.content.decode()
    assert not EventRecord.objects.filter(campaign=campaign, kind__startswith="note-").exists()


def test_revealing_a_note_the_side_does_not_have_is_a_400(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text=SHORT, form_id=FORM)

    response = client_for(users["cana"]).post(_url("campaign_note_reveal", campaign, 1))

    assert response.status_code == 400 and "Your side has no note #1." in response.content.decode()
    assert not EventRecord.objects.filter(campaign=campaign, kind="note-revealed").exists()


@pytest.mark.parametrize("name", ["campaign_notes", "campaign_note_seal"])
def test_the_notes_are_404_without_a_seat(rr: Any, users: Any, name: str) -> None:
    campaign = german_to_buy_at_19pm(users)
    outsider = client_for(None)

    response = outsider.get(_url(name, campaign)) if name == "campaign_notes" else outsider.post(_url(name, campaign))

    assert response.status_code == 404
