"""The server CPU of one reveal, measured in process: the second chit POST (htmx and plain form) through Django's test
client against the configured database, with both players' pages open (presence store), timed with
``time.process_time``; the median of many. Run by hand (not collected by the suite), from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python -m pytest -q -s -p no:cacheprovider bench/reveal_cpu.py

Each reveal runs in a savepoint rolled back afterwards, so every round reveals the same sealed chits from the same
rows; the first rounds warm the caches and are not counted. The after-commit work (frames, e-mail) runs too
(``django_capture_on_commit_callbacks``). As in production, templates render without the test environment's signal
and the suite's template-context guard is not installed. It prints the figures and asserts nothing about them (timings
depend on the machine and its load: compare two commits in the same sitting, alternating).

A second test times, the same way, the other writes a live page shows with both pages open: a message (htmx) and a
side's last page closing (who is online), each publishing only the fragments it can change.

The 5 ms a reveal may cost (the issue's target) is set against two floors measured in the same rounds, alternating with
the reveals: the **request floor** — the same POST, by the same signed-in client, to a view that only reads the user
(bench/floor_urls.py: Django's middleware, the session, the user row, the test client's own work) — and the **render
floor** — rendering only the fragments the reveal changed, for both seats, from contexts built beforehand (Django's
template engine alone). What a reveal costs above their sum is Refit's own work; their sum is what no change of Refit's
code short of another framework or template engine can go below.

REVEAL_CPU_ROUNDS: the rounds counted (default 60); REVEAL_CPU_PARTS=1: the CPU per round of the main parts and of each fragment (wrapped:
a part's time includes the parts it calls); REVEAL_CPU_PROFILE=1: a cProfile (CPU time) of the htmx reveals (=plain: of the
plain-form ones) by cumulative time (REVEAL_CPU_PROFILE_SORT=tottime: by own time; REVEAL_CPU_PROFILE_MATCH=a regular
expression: only the functions whose file and name match it); REVEAL_CPU_SQL=1: the statements of one more round
(not timed: a debug cursor lists them).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import time
from collections import defaultdict
from contextlib import nullcontext
from typing import Any

import pytest
from django.db import connection, transaction
from django.template.base import PartialTemplate, Template
from django.test import utils as test_utils
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app import door, engine, services, web
from campaigns_app.campaigns import selectors
from campaigns_app.live import fragments, pages, presence_store
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import LiveView, Seat
from campaigns_app.phase import live_page
from campaigns_app.services import core
from tests.campaigns_app.conftest import _test_settings, campaign_factory, client_for, rr, users  # noqa: F401

ROUNDS = int(os.environ.get("REVEAL_CPU_ROUNDS", "60"))
WARM = 5
RENDER_FRAGMENT = fragments.render_fragment
PARTS: list[tuple[object, str, str]] = [
    (pages, "publish", "publish (every seat's fragments)"),
    (live_page, "live_context", "  live_context"),
    (live_page, "history", "    history"),
    (door, "side_view", "    door.side_view"),
    (fragments, "render_fragment", "  render_fragment"),
    (live_page, "shared", "  live_page.shared (rows both seats read)"),
    (pages, "_store", "  digest and store a seat's view"),
    (pages, "_update_all", "  the stored views written"),
    (presence_store, "opened", "  presence_store.opened"),
    (selectors, "seat_for", "seat_for (the view's seat)"),
    (core, "save_state", "save_state"),
    (core, "locked", "locked (the campaign row)"),
    (core, "seats_of", "seats_of"),
    (core, "owes_all", "owes_all (twice)"),
    (engine, "advance", "engine.advance (the automatic steps)"),
    (engine, "load_state", "engine.load_state"),
    (engine, "stored_json", "  engine.stored_json"),
    (web, "fragments_response", "htmx response"),
]


def time_parts(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """Wrap each of PARTS to add its CPU seconds to the returned totals."""
    spent: dict[str, float] = defaultdict(float)
    for owner, name, label in PARTS:
        original = getattr(owner, name)

        def timed(*args: Any, _original: Any = original, _label: str = label, **kwargs: Any) -> Any:
            start = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                spent[_label] += time.process_time() - start
                if _original is RENDER_FRAGMENT:  # and each fragment's own line, by element id
                    spent[f"    {args[0]}"] += time.process_time() - start

        monkeypatch.setattr(owner, name, timed)
    return spent


def production_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Templates render as in production: without the test environment's signal."""
    monkeypatch.setattr(Template, "_render", test_utils._TestState.saved_data.template_render)
    monkeypatch.setattr(PartialTemplate, "_render", test_utils._TestState.saved_data.partial_template_render)


def watched(campaign: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The campaign with both players' pages open (presence store), its templates rendered as in production."""
    production_templates(monkeypatch)
    for side in ("german", "canadian"):
        presence_store.store().beat(campaign.public_id, side, f"bench.live!{side}", presence_store.clock())
    return campaign


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain form"])
def test_print_the_cpu_of_one_reveal(campaign_factory: Any, users: Any, htmx: bool,  # noqa: F811
                                     django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch,
                                     settings: Any) -> None:
    # The floor's URLs (the site's own plus one) for the whole test: set around each floor request instead, the
    # setting's change cleared Django's URL caches, and every plain-form reveal's redirect rebuilt them (4–5 ms).
    settings.ROOT_URLCONF = "bench.floor_urls"
    campaign = watched(campaign_factory(users["gerd"], users["cana"]), monkeypatch)
    url = reverse("chit_submit", args=[campaign.public_id])
    headers = {"HX-Request": "true"} if htmx else {}
    client_for(users["gerd"]).post(url, {"side": "german", "chit": "attack", "confirmed": "yes"}, headers=headers)
    second = client_for(users["cana"])
    spent = time_parts(monkeypatch) if os.environ.get("REVEAL_CPU_PARTS") else {}
    profiled = os.environ.get("REVEAL_CPU_PROFILE")
    profile = cProfile.Profile(time.process_time) if profiled and htmx == (profiled != "plain") else None
    times: list[float] = []
    statements: list[str] = []
    floor_url = f"/bench-floor/{campaign.public_id}/"
    before = stored_fragments(campaign.pk)
    request_floor: list[float] = []
    render_floor: list[float] = []
    rendered_bytes = 0
    for index in range(WARM + ROUNDS + 1):
        savepoint = transaction.savepoint_create()
        last = index == WARM + ROUNDS  # one more round, not timed: its statements are listed (debug cursor)
        with (CaptureQueriesContext(connection) if last else nullcontext()) as captured, \
                django_capture_on_commit_callbacks(execute=True):
            if profile is not None and index >= WARM:
                profile.enable()
            start = time.process_time()
            response = second.post(url, {"side": "canadian", "chit": "idle", "confirmed": "yes"}, headers=headers)
            cpu = time.process_time() - start
            if profile is not None:
                profile.disable()
        assert response.status_code == (200 if htmx else 302)
        assert b'id="chit-reveal"' in response.content or not htmx
        if last:  # read before the floor's request empties the connection's query log
            statements = [q["sql"] for q in captured.captured_queries
                          if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
        parts = dict(spent)
        floor_cpu, floor_bytes = the_render_floor(campaign.pk, before)
        spent.clear()
        spent.update(parts)  # the parts are the reveal's own (the floor renders through some of them)
        transaction.savepoint_rollback(savepoint)
        start = time.process_time()
        floor = second.post(floor_url, {"side": "canadian", "chit": "idle", "confirmed": "yes"}, headers=headers)
        floor_request_cpu = time.process_time() - start
        assert floor.content == b"signed in"
        if WARM <= index < WARM + ROUNDS:
            request_floor.append(floor_request_cpu * 1000)
            render_floor.append(floor_cpu * 1000)
            rendered_bytes = floor_bytes
        if index == WARM - 1:
            spent.clear()
        if not last and index >= WARM:
            times.append(cpu * 1000)
    times.sort()
    print(f"\nreveal ({'htmx' if htmx else 'plain form'}), {ROUNDS} rounds: CPU median {statistics.median(times):.2f} ms, "
          f"p10 {times[len(times) // 10]:.2f} ms, p90 {times[len(times) * 9 // 10]:.2f} ms; "
          f"{len(statements)} statements (request and after commit)")
    floors = statistics.median(request_floor) + statistics.median(render_floor)
    print(f"  request floor (the same POST to a view that only reads the user): median "
          f"{statistics.median(request_floor):.2f} ms\n"
          f"  render floor (only the fragments the reveal changed, {rendered_bytes} bytes for both seats, from contexts "
          f"built beforehand): median {statistics.median(render_floor):.2f} ms\n"
          f"  reveal / (request floor + render floor): {statistics.median(times):.2f} / {floors:.2f} ms = "
          f"{statistics.median(times) / floors:.2f}x; Refit's own work above the floors: "
          f"{statistics.median(times) - floors:.2f} ms")
    for label, seconds in spent.items():
        print(f"  {label:40} {seconds * 1000 / (ROUNDS + 1):6.2f} ms")
    if os.environ.get("REVEAL_CPU_SQL"):
        print("\n".join(statement[:160] for statement in statements))
    if profile is not None:
        pstats.Stats(profile).sort_stats(os.environ.get("REVEAL_CPU_PROFILE_SORT", "cumulative")).print_stats(
            *filter(None, [os.environ.get("REVEAL_CPU_PROFILE_MATCH")]), int(os.environ.get("REVEAL_CPU_PROFILE_LINES", "50")))


def stored_fragments(campaign_id: int) -> dict[int, dict[str, str]]:
    """Each seat's stored live fragments, by seat id."""
    return {view.seat_id: dict(view.fragments) for view in LiveView.objects.filter(seat__campaign_id=campaign_id)}


def the_render_floor(campaign_id: int, before: dict[int, dict[str, str]]) -> tuple[float, int]:
    """The CPU seconds of rendering, for each seat, only the fragments that differ from ``before`` in its stored view
    now, from a context built first (not timed); and their bytes. Each rendering must equal the stored one."""
    after = stored_fragments(campaign_id)
    seats = list(Seat.objects.filter(campaign_id=campaign_id).select_related("user", "campaign"))
    common = live_page.shared(seats[0].campaign, seats=seats)
    cpu, size = 0.0, 0
    for seat in seats:
        changed = [key for key in fragments.FRAGMENTS if after[seat.pk].get(key) != before.get(seat.pk, {}).get(key)]
        context = live_page.live_context(seat, common)
        context["live_version"] = pages.VERSION_MARK
        start = time.process_time()
        made = [fragments.render_fragment(key, context) for key in changed]
        cpu += time.process_time() - start
        assert made == [after[seat.pk][key] for key in changed]
        size += sum(len(html.encode()) for html in made)
    return cpu, size


def test_print_the_cpu_of_a_message_and_of_a_side_going_offline(campaign_factory: Any, users: Any,  # noqa: F811
                                                                django_capture_on_commit_callbacks: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The other writes a live page shows, with both pages open and their views stored: a message POST (htmx), and a
    side's last page closing (the presence service); each in a savepoint rolled back, like the reveals."""
    campaign = watched(campaign_factory(users["gerd"], users["cana"]), monkeypatch)
    url = reverse("campaign_message", args=[campaign.public_id])
    writer = client_for(users["cana"])

    def message() -> None:
        response = writer.post(url, {"text": "Hold the crossroads", "form_id": message_form_id(campaign, "canadian")},
                               headers={"HX-Request": "true"})
        assert response.status_code == 200

    german = Seat.objects.get(campaign=campaign, side="german").pk

    def offline() -> None:
        services.presence_close(public_id=campaign.public_id, seat_id=german, side="german",
                                channel_name="bench.live!german")
        presence_store.store().beat(campaign.public_id, "german", "bench.live!german", presence_store.clock())

    with django_capture_on_commit_callbacks(execute=True):
        message()  # both seats' views stored: each write below publishes from them
    for label, write in (("message (htmx)", message), ("a side's last page closing", offline)):
        spent = time_parts(monkeypatch) if os.environ.get("REVEAL_CPU_PARTS") else {}
        times = []
        for index in range(WARM + ROUNDS):
            savepoint = transaction.savepoint_create()
            with django_capture_on_commit_callbacks(execute=True):
                start = time.process_time()
                write()
                cpu = time.process_time() - start
            transaction.savepoint_rollback(savepoint)
            if index == WARM - 1:
                spent.clear()
            if index >= WARM:
                times.append(cpu * 1000)
        times.sort()
        print(f"\n{label}, {ROUNDS} rounds: CPU median {statistics.median(times):.2f} ms, "
              f"p10 {times[len(times) // 10]:.2f} ms, p90 {times[len(times) * 9 // 10]:.2f} ms")
        for part, seconds in spent.items():
            print(f"  {part:40} {seconds * 1000 / ROUNDS:6.2f} ms")
        monkeypatch.undo()  # the next write's parts from zero (and the production templates set again)
        production_templates(monkeypatch)
