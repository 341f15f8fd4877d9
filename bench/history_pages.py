#!/usr/bin/env python
"""History and dice log pages against campaign length (issue 12 item 6): time and bytes of a short and a long
campaign's pages, as ratios to the campaign's live page measured in the same run.

Run by hand (not a test), from the repository root whose code is to be measured, with PostgreSQL and Redis running:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/15 \\
        .venv/bin/python bench/history_pages.py [--repeat 30]

To compare with another revision, copy this file into a checkout of it (``git archive main | tar -x -C DIR``) and
run it there: the pages, their URLs and the campaign builder it uses (tests/campaigns_app/records/test_records_support)
are the same, a ``?page=`` a revision without pages ignores.

What it does: creates the scratch database ``test_<name>_bench`` on the DATABASE_URL server (dropped at the end),
migrates it, loads the RR system, builds two RR campaigns with the records tests' driver — short: 2 dates (19 AM to
19 PM), long: 13 dates (to 26 AM) —, ANALYZEs the tables and, signed in as the German, GETs each page ``--repeat`` times in-process
(Django's test client: middleware, view, queries, template), all pages in turn, printing the median ms, the KB and the
database queries of each, and each page's ms and KB as a ratio to the live page (``campaign_detail``) of the same
campaign in the same run.
"""
from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
_url = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/refit"))
if not _url.scheme.startswith("postgres") or _url.hostname != "127.0.0.1":
    sys.exit("bench/history_pages.py: DATABASE_URL must be a PostgreSQL server on 127.0.0.1")
os.environ["DATABASE_URL"] = urlunsplit((_url.scheme, _url.netloc, _url.path.rstrip("/") + "_bench", "", ""))

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from campaigns_app.models import EventRecord  # noqa: E402
from tests.campaigns_app.campaign_script import load_system  # noqa: E402
from tests.campaigns_app.records.test_records_support import create_rr, play  # noqa: E402

PAGES = [  # (label, url name, query)
    ("live page (baseline)", "campaign_detail", ""),
    ("history", "campaign_history", ""),
    ("history ?page=2", "campaign_history", "?page=2"),
    ("dice log", "records_dice", ""),
]


def queries_of(client: Client, url: str) -> tuple[int, int]:
    """(status, database queries) of one GET of ``url``."""
    count = 0

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        status = client.get(url).status_code
    return status, count


def measure(client: Client, urls: dict[tuple[str, str], str], repeat: int) -> dict[tuple[str, str], list[float]]:
    """Each URL's GET times in ms, the URLs taken in turn ``repeat`` times (a slower moment hits every page alike)."""
    times: dict[tuple[str, str], list[float]] = {key: [] for key in urls}
    for _ in range(repeat):
        for key, url in urls.items():
            start = time.perf_counter()
            client.get(url)
            times[key].append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, choices=range(1, 1001), metavar="1..1000")
    args = parser.parse_args()
    logging.disable(logging.INFO)  # axes logs every sign-in
    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        load_system("rr")
        german, canadian, other = (User.objects.create_user(n, f"{n}@example.org", "bench-password-4711")
                                   for n in ("gerd", "cana", "carol"))
        campaigns = {
            "short (2 dates)": play(create_rr(german, canadian, name="Short"), until_date=1, buy_on={1}).campaign,
            "long (13 dates)": play(create_rr(german, other, name="Long"), until_date=12, buy_on={1, 2, 5}).campaign,
        }
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # the planner's statistics, as autovacuum keeps them on a live server
        client = Client()
        client.force_login(german)
        urls = {(label, page): reverse(url_name, args=[campaign.public_id]) + query
                for label, campaign in campaigns.items() for page, url_name, query in PAGES}
        checked = {key: queries_of(client, url) for key, url in urls.items()}  # also the warm-up
        for key, (status, _) in checked.items():
            if status != 200:
                raise SystemExit(f"GET {urls[key]}: {status}")
        times = measure(client, urls, args.repeat)
        print(f"code: {REPO}   database: {name}   {args.repeat} GETs of each page, in turn; median ms\n")
        print(f"{'campaign':<17} {'page':<22} {'events':>6} {'ms':>7} {'KB':>7} {'queries':>7} {'ms ratio':>9} "
              f"{'KB ratio':>9}")
        for label, campaign in campaigns.items():
            events = EventRecord.objects.filter(campaign=campaign).count()
            base = (label, PAGES[0][0])
            base_ms, base_bytes = statistics.median(times[base]), len(client.get(urls[base]).content)
            for page, _, _ in PAGES:
                ms, size = statistics.median(times[label, page]), len(client.get(urls[label, page]).content)
                print(f"{label:<17} {page:<22} {events:>6} {ms:>7.1f} {size / 1024:>7.1f} {checked[label, page][1]:>7} "
                      f"{ms / base_ms:>9.2f} {size / base_bytes:>9.2f}")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    main()
