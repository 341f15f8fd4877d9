"""The dice log comes in pages of a fixed size, oldest roll first: a page reads only its own rolls (the side's sight
applied in the query) with their context (the CG Date then, the table result right after, a value typed later), gives
the rows the whole log gives, and never counts nor shows the opponent's secret rolls; a bad page number is refused."""
from __future__ import annotations

import html as entities
import re
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app import event_pages
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.records import door as record_door
from campaigns_app.records.door import RecordPart
from tests.campaigns_app.conftest import client_for, deterministic_csrf, scrub_random
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_history_pages import every_page
from tests.campaigns_app.records.test_records_support import create_rr, play

ROW = re.compile(r'data-label="Date" class="nowrap">(.*?)</td>\s*<td data-label="Stream" class="nowrap">(.*?)</td>\s*'
                 r'<th scope="row" data-label="Purpose" class="col-purpose">(.*?)<span', re.S)


def rolls(html: str) -> list[tuple[str, str, str]]:
    """(date, stream, purpose) of each roll on a dice log page."""
    return [(date, stream, entities.unescape(purpose)) for date, stream, purpose in ROW.findall(html)]


def dice_url(campaign: Campaign, query: str = "") -> str:
    return reverse("records_dice", args=[campaign.public_id]) + query


@pytest.fixture
def midgame(rr: Any, users: Any) -> Campaign:
    """An RR CG at 20 AM (4th date): both sides bought an RG on 19 PM, Recon on 19 Night."""
    return play(create_rr(users["gerd"], users["cana"]), until_date=3, buy_on={1}).campaign


def test_a_dice_log_page_holds_a_fixed_number_of_rolls_oldest_first_without_the_opponents_secret_ones(
        midgame: Campaign, users: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 2)
    client = client_for(users["cana"])

    first, second, third = (client.get(dice_url(midgame, f"?page={n}")).content.decode() for n in (1, 2, 3))

    assert rolls(first) == [("19 PM", "Canadian #1", "2.516 CPP Replenishment DR — 19 PM"),
                            ("19 PM", "Public #1", "2.5223 Dual Attack set-up dr")]
    assert rolls(second) == [("19 PM", "Public #2", "2.525 Dual Attack move-order dr"),
                             ("19 Night", "Canadian #2", "2.516 CPP Replenishment DR — 19 Night")]
    assert rolls(third) == [("19 Night", "Canadian #3", "2.521 Recon dr (Canadian)"),
                            ("20 AM", "Canadian #4", "2.516 CPP Replenishment DR — 20 AM")]
    for page in (first, second, third):
        assert "6 rolls: 2 public, 4 secret of yours." in page and "German #" not in page
    assert 'href="?page=2" rel="next">Newer →</a>' in first and 'rel="prev"' not in first
    assert 'href="?page=2" rel="prev">← Older</a>' in third and 'rel="next"' not in third
    newest = client.get(dice_url(midgame)).content.decode()  # no page number: the last page, the newest rolls
    assert rolls(newest) == rolls(third) and "Page 3 of 3" in newest


def whole_and_paged(campaign: Campaign, side: str) -> tuple[Any, Any]:
    whole = record_door.record_view(campaign, side, {RecordPart.DICE}).dice
    assert whole is not None
    pages = [record_door.dice_page_of(campaign, side, "1")[1:]]
    while pages[-1][1].newer is not None:
        pages.append(record_door.dice_page_of(campaign, side, str(pages[-1][1].newer))[1:])
    return whole, pages


@pytest.mark.parametrize("side", ["german", "canadian"])
def test_the_pages_together_give_the_rows_and_tallies_of_the_whole_dice_log(
        midgame: Campaign, monkeypatch: Any, side: str) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 2)

    whole, pages = whole_and_paged(midgame, side)

    assert [row for log, _ in pages for row in log.rows] == list(whole.rows) and len(pages) >= 3
    for log, _ in pages:
        assert [log.count(seen) for seen in ("public", "own", "revealed")] == [
            whole.count(seen) for seen in ("public", "own", "revealed")]


def test_after_cg_end_the_pages_give_both_sides_every_roll_as_the_whole_log_does(
        rr: Any, users: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 7)
    finished = play(create_rr(users["gerd"], users["cana"]), until_date=12, buy_on={1}, to_end=True).campaign
    assert finished.state["ended"]

    whole, pages = whole_and_paged(finished, "canadian")

    assert [row for log, _ in pages for row in log.rows] == list(whole.rows)
    assert whole.count("revealed") > 0 and pages[0][0].count("revealed") == whole.count("revealed")
    html = every_page(client_for(users["cana"]), dice_url(finished))
    assert "German #1" in html and 'class="badge badge-due">Revealed' in html


def test_page_one_of_the_dice_log_runs_the_same_queries_and_bytes_for_a_4_date_and_a_13_date_campaign(
        midgame: Campaign, users: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 5)
    long = play(create_rr(users["gerd"], users["carol"], name="Long"), until_date=12, buy_on={1, 2, 5}).campaign
    assert EventRecord.objects.filter(campaign=long).count() > 3 * EventRecord.objects.filter(campaign=midgame).count()
    sizes, counts = [], []
    client = client_for(users["gerd"])
    for campaign in (midgame, long):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(dice_url(campaign, "?page=1"))
        assert response.status_code == 200 and len(rolls(response.content.decode())) == 5
        sizes.append(len(response.content.replace(b"Long", b"Hill 112")))
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6
    assert abs(sizes[0] - sizes[1]) < sizes[0] // 20


@pytest.mark.parametrize("asked", ["x", "-2", "0", "2.0", "", "٣", "123456789012", "4"])
def test_a_dice_log_page_number_that_is_no_page_is_refused_naming_the_pages_there_are(
        midgame: Campaign, users: Any, monkeypatch: Any, asked: str) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 2)

    response = client_for(users["cana"]).get(dice_url(midgame, f"?page={asked}"))

    assert response.status_code == 400
    page = response.content.decode()
    assert "a page is a whole number from 1 to 3." in page and not rolls(page) and "No rolls yet" not in page


def canadian_pages(campaign: Campaign, client: Any) -> list[str]:
    """The Canadian's history pages 1, 2 and the last, and every dice log page (random strings scrubbed)."""
    history = reverse("campaign_history", args=[campaign.public_id])
    first = client.get(history + "?page=1").content.decode()
    last = re.search(r"Page 1 of (\d+)", first)
    assert last and int(last.group(1)) > 3
    pages = [first, client.get(history + "?page=2").content.decode(),
             client.get(f"{history}?page={last.group(1)}").content.decode(), every_page(client, dice_url(campaign))]
    assert "Page 3 of 3" in pages[-1]  # the Canadian's 6 rolls, 2 a page
    return [scrub_random(page, campaign) for page in pages]


def test_a_campaign_played_with_or_without_the_germans_secret_purchases_gives_the_canadian_the_same_pages(
        rr: Any, users: Any, monkeypatch: Any) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 2)
    client = client_for(users["cana"])
    created = create_rr(users["gerd"], users["cana"])
    seen, hidden = [], []
    for buyers in (frozenset({"canadian"}), frozenset({"german", "canadian"})):  # the same dice: played, rolled back
        with transaction.atomic():
            played = play(Campaign.objects.get(pk=created.pk), until_date=3, buy_on={1, 2}, buyers=buyers)
            assert bool(played.bought["german"]) is ("german" in buyers)
            seen.append(canadian_pages(played.campaign, client))
            hidden.append(EventRecord.objects.filter(campaign=created, side="german").exclude(
                visibility="public").count())
            transaction.set_rollback(True)

    assert hidden[0] < hidden[1]  # the German's secret orders and rolls
    assert seen[0] == seen[1]
