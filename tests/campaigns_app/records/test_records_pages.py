"""CG Roster, RG Purchase Record and dice log: who sees what (pages, print views, CSV), and constant query counts."""
from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.records.test_records_support import create_rr, play

RECORD_PAGES = ["records_roster", "records_purchases", "records_dice", "campaign_history"]
RECORD_CSVS = ["records_roster_csv", "records_purchases_csv", "records_dice_csv"]
ALL_RECORD_URLS = [
    "records_roster", "records_roster_csv", "records_purchases", "records_purchases_csv", "records_dice",
    "records_dice_csv", "records_dice_stats", "records_cg_end", "records_verify", "records_dice_export",
]
POSTS = ["records_cg_end_propose", "records_cg_end_withdraw", "records_cg_end_concede"]
# RR CG Roster (2.518) columns the fixture marks visibility: both — the only ones an opponent sees before CG end.
RR_PUBLIC_ROSTER = ["CG Date", "LVP", "ELR", "SAN", "Initiative"]
RR_FULL_ROSTER = ["CG Date", "Start", "Replenished", "RG Purchased", "Spent", "Left", "Recon", "LVP", "ELR", "SAN",
                  "Initiative", "Fortifications"]


def _get(user: Any, name: str, campaign: Campaign) -> str:
    response = client_for(user).get(reverse(name, args=[campaign.public_id]))
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


def _section(html: str, side: str, kind: str) -> str:
    """The HTML of one side's section of a record page (from its heading to the end of its <section>)."""
    match = re.search(rf'<section[^>]*aria-labelledby="side-{side}-{kind}".*?</section>', html, re.S)
    assert match, f"no {side} {kind} section"
    return match.group(0)


def _headers(section: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", section, re.S)
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1), re.S)] if head else []


def _body_rows(section: str) -> list[str]:
    body = re.search(r"<tbody>(.*?)</tbody>", section, re.S)
    return re.findall(r"<tr>.*?</tr>", body.group(1), re.S) if body else []


def _csv_blocks(text: str) -> list[list[list[str]]]:
    """CSV blocks (one per side, separated by a blank line): each a header line and the lines after it."""
    blocks: list[list[list[str]]] = [[]]
    for row in csv.reader(io.StringIO(text)):
        if not row:
            blocks.append([])
        else:
            blocks[-1].append(row)
    return [block for block in blocks if block]


@pytest.fixture
def midgame(rr: Any, users: Any) -> Any:
    """An RR CG at 20 AM (4th date), its chits due: both sides bought an RG on 19 PM, Recon on 19 Night."""
    campaign = create_rr(users["gerd"], users["cana"])
    return play(campaign, until_date=3, buy_on={1})


# --------------------------------------------------------------------------------------------------------- access


@pytest.mark.parametrize("who", ["third user", "anonymous"])
@pytest.mark.parametrize("url_name", ALL_RECORD_URLS + POSTS)
def test_every_record_url_is_404_without_a_seat(rr: Any, users: Any, who: str, url_name: str) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    client = client_for(users["carol"] if who == "third user" else None)
    url = reverse(url_name, args=[campaign.public_id])

    response = client.post(url, {"confirmed": "yes"}) if url_name in POSTS else client.get(url)

    assert response.status_code == 404
    assert "Hill 112" not in response.content.decode()
    assert not Campaign.objects.get(pk=campaign.pk).state.get("ended")


# ------------------------------------------------------------------------------------------------- query counts


@pytest.mark.parametrize("url_name", RECORD_PAGES + RECORD_CSVS)
def test_record_pages_run_the_same_number_of_queries_for_a_1_date_and_a_13_date_campaign(
    rr: Any, users: Any, url_name: str, django_assert_num_queries: Any
) -> None:
    short = create_rr(users["gerd"], users["cana"], name="Short")
    long = play(create_rr(users["gerd"], users["carol"], name="Long"), until_date=12, buy_on={1, 2, 5}).campaign
    assert long.state["date_id"] == "26 AM" and not long.state["ended"]
    assert EventRecord.objects.filter(campaign=long).count() > 5 * EventRecord.objects.filter(campaign=short).count()

    client = client_for(users["gerd"])
    with CaptureQueriesContext(connection) as short_queries:
        assert client.get(reverse(url_name, args=[short.public_id])).status_code == 200
    assert len(short_queries) <= 6

    with django_assert_num_queries(len(short_queries)):
        assert client.get(reverse(url_name, args=[long.public_id])).status_code == 200


# ---------------------------------------------------------------------------------------------------- CG Roster


def test_own_cg_roster_shows_every_column_and_one_line_per_date_reached(midgame: Any, users: Any) -> None:
    html = _get(users["cana"], "records_roster", midgame.campaign)
    own = _section(html, "canadian", "roster")

    assert _headers(own) == RR_FULL_ROSTER
    rows = _body_rows(own)
    assert [re.search(r"<th[^>]*>(.*?)</th>", r).group(1) for r in rows] == ["19 AM", "19 PM", "19 Night", "20 AM"]
    bought = midgame.bought["canadian"][0]
    assert f"{bought} (" in rows[1]  # "RG Purchased" on 19 PM, with its cost
    assert "Your books" in html


def test_opponent_cg_roster_before_cg_end_has_only_the_public_columns_and_one_line_per_date(
    midgame: Any, users: Any
) -> None:
    html = _get(users["cana"], "records_roster", midgame.campaign)
    theirs = _section(html, "german", "roster")

    assert _headers(theirs) == RR_PUBLIC_ROSTER
    assert len(_body_rows(theirs)) == 4  # 19 AM, 19 PM, 19 Night, 20 AM: the dates, not the purchases
    for hidden in ("Start", "Replenished", "RG Purchased", "Spent", "Left", "Recon", "Fortifications"):
        assert f">{hidden}<" not in theirs
    assert "Hidden until CG end: Start, Replenished, RG Purchased, Spent, Left, Recon, Fortifications." in theirs
    assert midgame.bought["german"][0] + " (" not in html
    assert "German books" not in html


def test_opponent_cg_roster_csv_lacks_the_hidden_columns(midgame: Any, users: Any) -> None:
    text = _get(users["cana"], "records_roster_csv", midgame.campaign)
    own, german = _csv_blocks(text)

    assert own[0] == ["Side", *RR_FULL_ROSTER]  # own block first, every column
    assert [row[0] for row in own[1:]] == ["Canadian"] * 4
    assert german[0] == ["Side", *RR_PUBLIC_ROSTER]
    lines = [row for row in german[1:] if row[0] == "German"]
    assert len(lines) == 4
    assert all(len(row) == 1 + len(RR_PUBLIC_ROSTER) for row in lines)
    assert midgame.bought["german"][0] + " (" not in text


# -------------------------------------------------------------------------------------------- RG Purchase Record


def test_own_purchase_record_shows_the_secret_rolls_results(midgame: Any, users: Any) -> None:
    html = _get(users["gerd"], "records_purchases", midgame.campaign)
    own = _section(html, "german", "purchases")

    assert _headers(own)[:10] == ["CG Date", "RG ID", "Group Type", "Leaders Received", "#P", "#R", "Str", "# Units",
                                  "SW Received", "Setup Area/Entry ID"]
    rows = _body_rows(own)
    assert len(rows) == 2  # the RG bought on 19 PM and the Recon (RR: RG M3, 2.521) on 19 Night
    bought = [row for row in rows if f'<td class="col-rg_id">{midgame.bought["german"][0]}</td>' in row]
    assert len(bought) == 1 and '<th scope="row">19 PM</th>' in bought[0]
    assert re.search(r'<td class="col-strength">[FD]</td>', bought[0])  # 2.5191 Strength rolled
    assert '<td class="col-rg_id">M3</td>' in "".join(rows)


def test_opponent_purchase_record_is_absent_before_cg_end_lines_and_count_alike(midgame: Any, users: Any) -> None:
    german_line = _section(_get(users["gerd"], "records_purchases", midgame.campaign), "german", "purchases")
    german_group = re.search(r'<td class="col-group_type">(.*?)</td>', _body_rows(german_line)[0]).group(1)  # Group Type, as the owner sees it

    html = _get(users["cana"], "records_purchases", midgame.campaign)
    theirs = _section(html, "german", "purchases")
    assert "<table" not in theirs and "<tr" not in theirs
    assert "The German RG Purchase Record stays secret until CG end." in theirs
    assert german_group not in html
    text = _get(users["cana"], "records_purchases_csv", midgame.campaign)
    assert german_group not in text and midgame.bought["german"][0] not in text.replace("RG ID", "")


# ----------------------------------------------------------------------------------------------------- dice log


def test_dice_log_shows_public_rolls_and_only_the_viewers_own_secret_rolls(midgame: Any, users: Any) -> None:
    html = _get(users["cana"], "records_dice", midgame.campaign)

    assert "Canadian #1" in html  # its own secret stream, numbered from 1
    assert "Public #1" in html and "Public #2" in html  # 19 PM Dual Attack: set-up dr and move-order dr
    assert "German #" not in html
    assert "RG " + midgame.bought["german"][0] not in html
    assert 'class="badge badge-due">Revealed' not in html

    text = _get(users["cana"], "records_dice_csv", midgame.campaign)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Date", "Stream", "No.", "Purpose", "Roller", "Kind", "Dice", "Original", "DRM", "Final",
                       "Table", "Result", "Seen by"]
    assert {row[1] for row in rows[1:]} == {"Canadian", "Public"}
    canadian = [int(row[2]) for row in rows[1:] if row[1] == "Canadian"]
    assert canadian == list(range(1, len(canadian) + 1))  # gap-free


def test_dice_log_shows_the_drm_breakdown_of_a_recon_roll(midgame: Any, users: Any) -> None:
    text = _get(users["cana"], "records_dice_csv", midgame.campaign)
    recon = [row for row in csv.reader(io.StringIO(text)) if "2.521" in row[3]]

    assert len(recon) == 1  # 19 Night: Recon with 1 extra CPP (the driver's choice)
    date, stream, number, purpose, roller, kind, dice, original, drm, final, table, result, seen = recon[0]
    assert (date, stream, roller, kind, seen) == ("19 Night", "Canadian", "Canadian", "dr", "you only (secret)")
    assert drm.endswith("+1")  # 2.521: +1 drm per extra CPP spent
    assert int(final) == int(original) + 1


# ------------------------------------------------------------------------------------------------ after CG end


def test_after_cg_end_both_sides_see_everything(rr: Any, users: Any) -> None:
    played = play(create_rr(users["gerd"], users["cana"]), until_date=12, buy_on={1}, to_end=True)
    campaign = played.campaign
    assert campaign.state["ended"]

    roster = _get(users["cana"], "records_roster", campaign)
    assert _headers(_section(roster, "german", "roster")) == RR_FULL_ROSTER
    assert played.bought["german"][0] + " (" in roster
    assert "German books (revealed)" in roster

    purchases = _get(users["cana"], "records_purchases", campaign)
    assert played.bought["german"][0] in _section(purchases, "german", "purchases")
    assert "<table" in _section(purchases, "german", "purchases")

    dice = _get(users["cana"], "records_dice", campaign)
    assert "German #1" in dice and 'class="badge badge-due">Revealed' in dice

    text = _get(users["cana"], "records_roster_csv", campaign)
    assert [block[0] for block in _csv_blocks(text)] == [["Side", *RR_FULL_ROSTER]] * 2


def test_record_pages_link_a_print_stylesheet_and_print_the_sides_on_separate_pages(midgame: Any, users: Any) -> None:
    html = _get(users["cana"], "records_roster", midgame.campaign)
    assert "/static/print.css" in html
    css = (__import__("pathlib").Path(__file__).resolve().parents[3] / "static" / "print.css").read_text()
    assert "@media print" in css and ".record-side + .record-side" in css and "break-before: page" in css
