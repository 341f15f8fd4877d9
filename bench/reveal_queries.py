"""The database cost of one reveal: queries, renders and new connections over the second chit POST plus the pushes to
both players' sockets. Run by hand (not collected by the suite), from the repository root:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python -m pytest -q -s -p no:cacheprovider bench/reveal_queries.py

It prints the figures (counts, not timings: the same on any machine); it asserts nothing about them. Compare two
commits by running it on each.
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


@pytest.mark.parametrize("tabs", [1, 3])
async def test_print_what_one_reveal_costs(counts: Counts, tabs: int) -> None:
    """``tabs`` live pages open per player (every one must show the reveal)."""
    campaign, german, canadian, _ = await setup_campaign()
    sockets = {side: [(await open_socket(user, campaign.public_id))[0] for _ in range(tabs)]
               for side, user in (("german", german), ("canadian", canadian))}
    everyone = [*sockets["german"], *sockets["canadian"]]
    for socket in everyone:
        await drain(socket, until="data-live-version")
    german_client = await database_sync_to_async(client_for)(german)
    canadian_client = await database_sync_to_async(client_for)(canadian)
    await database_sync_to_async(chit_post)(canadian_client, campaign.public_id, "canadian", "attack")
    for socket in sockets["german"]:
        await drain(socket, until="data-live-version")
    for socket in everyone:
        await drain(socket)

    counts.on = True
    await database_sync_to_async(chit_post)(german_client, campaign.public_id, "german", "idle")
    for socket in everyone:
        await drain(socket, until='id="chit-reveal"')
    counts.on = False
    print(f"\none reveal, {tabs} page(s) per player (second chit POST + every socket's frame): {counts.queries} "
          f"queries, {counts.renders} live-context renders, {counts.connections} new connections")
    if os.environ.get("SHOW_SQL"):
        print("\n".join(counts.sql))
    for socket in everyone:
        await socket.disconnect()
