"""The ASGI application uvicorn serves runs a request's middleware chain and view in one thread hop, with no
AsyncToSync bridge back to the event loop (campaigns_app/one_hop.py; a bridge once held a hung-up client's pooled
connection for ever: tests/e2e/test_dropped_requests.py)."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref import sync as asgiref_sync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler

from campaigns_app.asgi import application
from campaigns_app.one_hop import RequestThreads

pytestmark = pytest.mark.django_db(transaction=True)


def scope_for(path: str) -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}


async def get(app: Any, path: str) -> tuple[int, bytes]:
    """The status and body of a GET of ``path`` sent straight to the ASGI ``app``."""
    communicator = ApplicationCommunicator(app, scope_for(path))
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    body = b""
    while True:
        part = await communicator.receive_output(10)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    await communicator.wait(10)
    return start["status"], body


@pytest.fixture
def hops(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How many times a request goes from the loop to a thread (SyncToAsync) and from a thread back (AsyncToSync)."""
    counts = {"to a thread": 0, "back to the loop": 0}
    to_thread, back = asgiref_sync.SyncToAsync.__call__, asgiref_sync.AsyncToSync.__call__

    async def counted_to_thread(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["to a thread"] += 1
        return await to_thread(self, *args, **kwargs)

    def counted_back(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["back to the loop"] += 1
        return back(self, *args, **kwargs)

    monkeypatch.setattr(asgiref_sync.SyncToAsync, "__call__", counted_to_thread)
    monkeypatch.setattr(asgiref_sync.AsyncToSync, "__call__", counted_back)
    yield counts


@pytest.mark.parametrize("path, status", [("/accounts/login/", 200), ("/static/no-such-file.css", 404)])
async def test_a_request_takes_one_thread_hop_for_its_whole_middleware_chain_and_view(
        path: str, status: int, hops: dict[str, int]) -> None:
    answer, body = await get(application, path)

    assert answer == status
    assert b"csrfmiddlewaretoken" in body or status != 200
    # request_started's receivers; the chain with the view (and the log line of a 404); the response's close: three.
    assert hops == {"to a thread": 3, "back to the loop": 0}


async def test_django_s_own_handler_would_take_a_hop_for_each_part_of_each_middleware(hops: dict[str, int]) -> None:
    answer, _ = await get(ASGIHandler(), "/accounts/login/")

    assert answer == 200
    assert hops["to a thread"] > 10  # what the one-hop handler saves (16 with today's middleware)



async def test_requests_one_after_another_start_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    await get(application, "/accounts/login/")  # a first request may start the kept thread
    started: list[str] = []
    start = threading.Thread.start

    def counted(self: threading.Thread) -> None:
        started.append(self.name)
        start(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    answers = [await get(application, "/accounts/login/") for _ in range(5)]

    assert [status for status, _ in answers] == [200] * 5
    assert started == []  # Django's own handler starts two a request: the request's thread and its joiner


def test_a_burst_keeps_a_bounded_number_of_idle_threads() -> None:
    threads = RequestThreads(keep=2)
    burst = [threads.take() for _ in range(5)]
    for executor in burst:
        threads.give_back(executor)

    assert threads.idle == burst[:2]
    for executor in burst[2:]:  # let go: its thread ends
        with pytest.raises(RuntimeError):
            executor.submit(print)
