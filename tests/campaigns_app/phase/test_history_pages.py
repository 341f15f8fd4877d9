"""The history page comes in pages of a fixed size, oldest first: each page reads only its own events (the side's
sight applied in the query), so its queries and bytes do not grow with the campaign and no hidden event moves a page's
bounds; a page number that is no page is refused with the numbers allowed."""
from __future__ import annotations

import html as entities
import itertools
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app import event_pages, services
from campaigns_app.event_pages import visible_records
from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.phase.history import history
from rules_engine.event_sight import sight
from rules_engine.event_text import visible_events
from tests.campaigns_app.conftest import client_for, new_campaign
from tests.campaigns_app.records.test_records_support import create_rr, play


def lines(html: str) -> list[str]:
    """The history lines of a page, as read (tags and dice dropped)."""
    return [entities.unescape(re.sub(r"<[^>]+>", "", re.sub(r' <span class="dice">.*', "", body, flags=re.S)).strip())
            for body in re.findall(r'<div class="event-body">\s*<p>(.*?)</p>', html, re.S)]


def history_page(client: Client, campaign: Campaign, query: str = "") -> Any:
    return client.get(reverse("campaign_history", args=[campaign.public_id]) + query)


def every_page(client: Client, url: str) -> str:
    """Every page of a paged list, first to last, following its "Newer" links (the HTML of each, joined)."""
    pages = []
    for number in itertools.count(1):
        pages.append(client.get(f"{url}?page={number}").content.decode())
        if 'rel="next"' not in pages[-1]:
            return "\n".join(pages)
    raise AssertionError("unreachable")


def test_a_history_page_holds_a_fixed_number_of_events_oldest_first_without_the_opponents_secret_ones(
        campaign_factory: Any, users: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 5)
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    canadian = client_for(users["cana"])

    first, second, third = (history_page(canadian, campaign, f"?page={n}").content.decode() for n in (1, 2, 3))

    assert lines(first) == [
        "gerd created the campaign (RR Campaign Game — Refit Phase) and took the German side.",
        "The Campaign Game began on 19 AM.",
        "cana joined and took the Canadian side.",
        "The German side finished 2.518 Purchasing Reinforcement Groups (19 AM).",
        "You finished 2.518 Purchasing Reinforcement Groups (19 AM).",
    ]
    assert lines(second) == [
        "Step 2.519 resolved by the app (19 AM).",
        "The German side finished 2.520 Purchasing Fortifications (19 AM).",
        "You finished 2.520 Purchasing Fortifications (19 AM).",
        "The German side finished Initial Scenario (19 AM).",
        "You finished Initial Scenario (19 AM).",
    ]
    # the German's secret "You entered the results" (between these two) is neither shown nor counted
    assert lines(third)[:3] == [
        "The German side entered the scenario results of 19 AM.",
        "Only you You entered the results of 19 AM.",
        "You entered the scenario results of 19 AM.",
    ]
    newest = history_page(canadian, campaign).content.decode()  # no page number: the last page, the newest events
    assert 'rel="next"' not in newest and 'rel="prev"' in newest
    assert lines(newest)[-1] == "The German side has chosen an Initiative chit for 19 PM."
    assert 'href="?page=2" rel="next">Newer →</a>' in first and 'rel="prev"' not in first
    assert 'href="?page=1" rel="prev">← Older</a>' in second and 'href="?page=3" rel="next">Newer →</a>' in second
    assert '<ol class="event-list" id="history" start="6">' in second


def test_the_pages_together_are_the_whole_history_each_side_sees(
        campaign_factory: Any, users: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 7)
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    for user, side in ((users["gerd"], "german"), (users["cana"], "canadian")):
        client = client_for(user)
        whole = [re.sub(r"<[^>]+>", "", e["text"]) for e in history(campaign, Seat.objects.get(campaign=campaign,
                                                                                                 side=side))]
        paged = lines(every_page(client, reverse("campaign_history", args=[campaign.public_id])))
        assert [line.removeprefix("Only you ") for line in paged] == whole and len(whole) > 2 * 7


@pytest.mark.parametrize("side", ["german", "canadian"])
@pytest.mark.parametrize("ended", [False, True])
def test_the_query_sees_the_events_rules_engine_shows_the_side(
        campaign_factory: Any, users: Any, side: str, ended: bool) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    records = list(EventRecord.objects.filter(campaign=campaign).order_by("seq"))

    in_sql = list(visible_records(campaign, sight(side, ended)).order_by("seq").values_list("seq", flat=True))

    assert in_sql == [record.seq for record in visible_events(records, side, ended)]
    assert len(in_sql) < len(records)  # some event is hidden from each side (a chosen chit, a sealed one …)


def test_page_one_runs_the_same_queries_and_about_the_same_bytes_for_a_1_date_and_a_13_date_campaign(
        rr: Any, users: Any) -> None:
    short = play(create_rr(users["gerd"], users["cana"], name="Short"), until_date=1, buy_on=set()).campaign
    long = play(create_rr(users["gerd"], users["carol"], name="Long"), until_date=12, buy_on={1, 2, 5}).campaign
    assert EventRecord.objects.filter(campaign=long).count() > 5 * EventRecord.objects.filter(campaign=short).count()
    client = client_for(users["gerd"])
    sizes, counts = {}, set()
    for campaign in (short, long):
        for query in ("", "?page=1"):  # the newest page and the first
            with CaptureQueriesContext(connection) as queries:
                response = history_page(client, campaign, query)
            assert response.status_code == 200 and len(response.content) < 40_000
            sizes[campaign.name, query] = len(response.content)
            counts.add(len(queries))
        # page 1 full in both: the same 50 oldest events, bar the campaign's name
        assert len(lines(history_page(client, campaign, "?page=1").content.decode())) == event_pages.PAGE_SIZE
    assert len(counts) == 1 and counts.pop() <= 7  # the same number for both, newest page or page 1
    assert abs(sizes["Long", "?page=1"] - sizes["Short", "?page=1"]) < sizes["Short", "?page=1"] // 20


@pytest.mark.parametrize("asked", ["abc", "-1", "0", "1.5", "", " ", "²", "99999999999999999999999", "3", "1e3"])
def test_a_page_number_that_is_no_page_is_refused_naming_the_pages_there_are(
        campaign_factory: Any, users: Any, asked: str) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])  # 69 events: 2 pages of 50 for each side

    response = history_page(client_for(users["cana"]), campaign, f"?page={asked}")

    assert response.status_code == 400
    html = response.content.decode()
    assert "a page is a whole number from 1 to 2." in html and 'href="?page=1">First page</a>' in html
    assert '<a href="?">Newest page</a>' in html
    assert not lines(html)


def test_a_campaign_with_one_page_says_there_is_only_page_1(rr: Any, users: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"], to_initiative=False)
    client = client_for(users["cana"])

    assert "there is only page 1." in history_page(client, campaign, "?page=2").content.decode()
    only = history_page(client, campaign, "?page=1").content.decode()
    assert len(lines(only)) == 3 and 'class="pager"' not in only
