"""Players who leave a page while it loads cost the server nothing lasting: the production server (uvicorn, PostgreSQL
through the connection pool) answers at once after 120 requests of a campaign page whose clients hung up mid-way.

Once, WhiteNoise's sync-only middleware in Django's async middleware chain ran each request through an AsyncToSync
bridge from a thread of its own; a client that hung up left that thread waiting for ever with its pooled connection,
and after one or two such bursts every request needing the database waited out the pool timeout (10 s) and answered
500. campaigns_app/one_hop.py now runs the whole chain and the view in one thread hop, with no bridge.
No browser is needed: raw sockets hang up, urllib reads the page.
"""
from __future__ import annotations

import http.cookiejar
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from typing import Any

import pytest

from tests.e2e.conftest import PASSWORD, LiveServer, manage

pytestmark = pytest.mark.e2e

CREATE = """
from django.contrib.auth.models import User
from campaigns_app import services
from tests.campaigns_app.conftest import RR_LOST
german = User.objects.create_user("{name}", "{name}@example.test", "{password}")
campaign = services.campaign_create(user=german, system_id="rr", side="german", name="Dropped", lost_values=RR_LOST)
print("public id:", campaign.public_id)
"""


def signed_in(url: str, name: str) -> tuple[Any, str]:
    """An opener holding a signed-in session of ``name``, and its Cookie header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{url}/accounts/login/", timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    form = {"username": name, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
    opener.open(f"{url}/accounts/login/", urllib.parse.urlencode(form).encode(), timeout=30)
    return opener, "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)


def hang_up(url: str, path: str, cookie: str, after: float) -> None:
    """Ask for ``path`` and close the connection ``after`` seconds later, whatever has come back."""
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
                     .encode())
        time.sleep(after)


def test_a_page_answers_at_once_after_many_players_hung_up_while_it_loaded(live_server_process: LiveServer) -> None:
    server = live_server_process
    name = f"dropper-{int(time.time() * 1000) % 10_000_000}"
    manage(server.env, "shell", "-c", CREATE.format(name=name, password=PASSWORD), log=server.log)
    public_id = re.findall(r"public id: (\S+)", server.log.read_text())[-1]
    opener, cookie = signed_in(server.url, name)
    path = f"/campaigns/{public_id}/"

    for burst in range(3):
        hang = [threading.Thread(target=hang_up, args=(server.url, path, cookie, (index % 20) * 0.003))
                for index in range(40)]
        for thread in hang:
            thread.start()
        for thread in hang:
            thread.join()
        time.sleep(0.5)
        start = time.monotonic()
        page = opener.open(f"{server.url}{path}", timeout=30)
        took = time.monotonic() - start
        assert page.status == 200 and b"Dropped" in page.read(), burst
        assert took < 5, f"after burst {burst} the page took {took:.1f} s (the pool waits 10 s for a connection)"
