"""The database cost of one reveal: queries, renders and new connections over the second chit POST plus the pushes to
both players' sockets. Run by hand (not collected by the suite), from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python -m pytest -q -s -p no:cacheprovider bench/reveal_queries.py

It prints the figures; it asserts nothing about them (a benchmark, never a timed test).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from django.db.backends import utils as db_utils
from django.db.backends.signals import connection_created
from django.urls import reverse

from campaigns_app.phase import live_page
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.live.test_consumer import drain, open_socket, setup_campaign

pytestmark = pytest.mark.django_db(transaction=True)


class Counts:
    def __init__(self) -> None:
        self.queries = self.renders = self.connections = 0
        self.lock = threading.Lock()
        self.on = False
        self.sql: list[str] = []

    def add(self, name: str) -> None:
        if self.on:
            with self.lock:
                setattr(self, name, getattr(self, name) + 1)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counts]:
    """Every query (any thread), every live-context render and every new database connection while ``on``."""
    found = Counts()
    for name in ("execute", "executemany"):
        original = getattr(db_utils.CursorWrapper, name)

        def counted(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            found.add("queries")
            if found.on:
                found.sql.append(f"[{threading.current_thread().name}] {str(args[0])[:150]}")
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(db_utils.CursorWrapper, name, counted)
    context = live_page.live_context

    def rendered(*args: Any, **kwargs: Any) -> Any:
        found.add("renders")
        return context(*args, **kwargs)

    monkeypatch.setattr(live_page, "live_context", rendered)

    def created(**kwargs: Any) -> None:
        found.add("connections")

    connection_created.connect(created, weak=False)
    channel_layers.backends.clear()
    yield found
    connection_created.disconnect(created)
    channel_layers.backends.clear()


def chit_post(client: Any, public_id: str, side: str, chit: str) -> None:
    """The sealed chit as the page's htmx form posts it."""
    response = client.post(reverse("chit_submit", args=[public_id]), {"side": side, "chit": chit, "confirmed": "yes"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200


async def test_print_what_one_reveal_costs(counts: Counts) -> None:
    campaign, german, canadian, _ = await setup_campaign()
    german_socket, _ = await open_socket(german, campaign.public_id)
    canadian_socket, _ = await open_socket(canadian, campaign.public_id)
    await drain(german_socket, until="data-live-version")
    await drain(canadian_socket, until="data-live-version")
    german_client = await database_sync_to_async(client_for)(german)
    canadian_client = await database_sync_to_async(client_for)(canadian)
    await database_sync_to_async(chit_post)(canadian_client, campaign.public_id, "canadian", "attack")
    await drain(german_socket, until="data-live-version")
    await drain(canadian_socket)

    counts.on = True
    await database_sync_to_async(chit_post)(german_client, campaign.public_id, "german", "idle")
    await drain(german_socket, until='id="chit-reveal"')
    await drain(canadian_socket, until='id="chit-reveal"')
    counts.on = False
    print(f"\none reveal (second chit POST + both sockets' frames): {counts.queries} queries, "
          f"{counts.renders} live-context renders, {counts.connections} new connections")
    if os.environ.get("SHOW_SQL"):
        print("\n".join(counts.sql))
    await german_socket.disconnect()
    await canadian_socket.disconnect()
