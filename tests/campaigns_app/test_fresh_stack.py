"""campaigns_app.fresh_stack: calls on a chunk of CPython's frame stack of their own (CPython gh-142183 on 3.12).

A loop whose callee's frame lands just past the end of a chunk maps and unmaps a chunk on every call; each mapping
touches fresh pages, so the churn shows as minor page faults (counted by the kernel, not timed): hundreds per page
request before the views ran on a fresh stack, a handful after, under WSGI (the test client) and ASGI alike."""
from __future__ import annotations

import resource
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import URLResolver, get_resolver, reverse

from campaigns_app import fresh_stack
from campaigns_app.fresh_stack import fresh, on_fresh_stack
from tests.campaigns_app.conftest import client_for


def faults(who: int = resource.RUSAGE_THREAD) -> int:
    """Minor page faults of this thread (or of the whole process) so far."""
    return resource.getrusage(who).ru_minflt


def padded(depth: int, fn: Callable[[], int]) -> int:
    """``fn()`` called ``depth`` frames further down."""
    return fn() if depth == 0 else padded(depth - 1, fn)


def leaf(n: int) -> int:
    return n + 1


def loop() -> int:
    """Many calls from one depth: the pattern of a template's {% for %} rendering its body."""
    total = 0
    for n in range(3_000):
        total = leaf(total) + n - n
    return total


def test_a_call_on_a_fresh_stack_gets_its_arguments_and_returns_the_result() -> None:
    assert on_fresh_stack(lambda a, b=0: a + b, 2, b=3) == 5
    assert fresh(lambda a, b=0: a * b)(2, b=3) == 6


def test_an_error_inside_reaches_the_caller_and_the_next_call_still_works() -> None:
    def fail() -> None:
        raise ValueError("inside")

    with pytest.raises(ValueError, match="inside"):
        on_fresh_stack(fail)
    assert on_fresh_stack(padded, 500, loop) == 3_000


def test_nested_calls_and_deep_recursion_inside_work() -> None:
    assert on_fresh_stack(lambda: on_fresh_stack(padded, 800, lambda: on_fresh_stack(loop))) == 3_000


def test_a_loop_at_any_depth_on_a_fresh_stack_maps_no_frame_chunk_per_call() -> None:
    worst: list[tuple[int, int]] = []
    for depth in range(0, 160):
        on_fresh_stack(padded, depth, loop)  # warm: whatever this depth allocates once
        before = faults()
        on_fresh_stack(padded, depth, loop)
        worst.append((faults() - before, depth))
    # a chunk mapped per call would fault at least once per call: thousands over 3,000 calls
    assert max(count for count, _ in worst) < 100, f"page faults of 3,000 calls, worst (faults, depth): {max(worst)}"


@pytest.mark.django_db
def test_a_page_request_maps_no_frame_chunk_per_call(campaign_factory: Callable[..., Any], users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    client = client_for(users["cana"])
    counts = []
    for name in ("campaign_detail", "records_roster", "campaign_history"):
        url = reverse(name, args=[campaign.public_id])
        for _ in range(2):  # warm: templates compiled, caches filled
            assert client.get(url).status_code == 200
        before = faults()
        assert client.get(url).status_code == 200
        counts.append((faults() - before, name))
    # measured: about 5 each with the views on a fresh stack, 206 to 1,169 without it
    assert max(count for count, _ in counts) < 100, f"page faults of one warmed request: {counts}"


def test_every_view_in_the_url_configuration_runs_on_a_fresh_stack() -> None:
    def views(patterns: list[Any]) -> list[tuple[str, Any]]:
        found = []
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                found += views(pattern.url_patterns)
            else:
                found.append((str(pattern.pattern), pattern.callback))
        return found

    every = views(get_resolver().url_patterns)
    assert len(every) > 50
    assert [route for route, view in every if not getattr(view, "on_fresh_stack", False)] == []


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_the_view_runs_on_a_chunk_of_its_own_in_its_thread(
        campaign_factory: Callable[..., Any], users: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = await sync_to_async(campaign_factory)(users["gerd"], users["cana"])
    client = AsyncClient()
    await client.aforce_login(users["cana"])
    threads: list[str] = []

    def spy(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return on_fresh_stack(fn, *args, **kwargs)
    monkeypatch.setattr(fresh_stack, "on_fresh_stack", spy)  # what a wrapped view calls

    try:
        response = await client.get(reverse("records_roster", args=[campaign.public_id]))
    finally:  # the test client keeps the view's thread's connection open: closed, or the next async test finds it
        await sync_to_async(connections.close_all)()

    assert response.status_code == 200
    # once, in the thread asgiref runs the synchronous view in (not the event loop's), every middleware async
    assert len(threads) == 1 and threads[0] != threading.current_thread().name
