"""The floors the reveal-latency benchmark (bench/reveal_latency.py) compares the reveal against.

Routed only when settings.REFIT_BENCH_ECHO is on (environment REFIT_BENCH_ECHO=1); production never exposes them, and
only then is the benchmark's SQL statement counter (campaigns_app.live.bench_sql) installed. No database:
 - /ws/bench/echo/: each text frame is sent straight back (no channel layer);
 - /ws/bench/broadcast/<key>/: the socket joins the channel-layer group of ``key`` (the benchmark opens two per key);
   a frame "fire <token>" makes the server group_send the token to that group, then answer "fired <token>" to the
   sender, so both sockets receive the token through the same channel layer as a live page's refresh.
"""
from __future__ import annotations

import re
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import path

from campaigns_app.live import bench_sql

MAX_FRAME = 1024
KEY = re.compile(r"[0-9a-f]{1,32}\Z")
FIRE = "fire "


class EchoConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Send every text frame (at most MAX_FRAME characters) back unchanged."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME:
            await self.close(code=1009)
            return
        await self.send(text_data=text_data)


class BroadcastConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A member of the group ``bench-<key>``: "fire <token>" group_sends the token to every member, then answers."""

    group = ""

    async def connect(self) -> None:
        key = str(self.scope["url_route"]["kwargs"]["key"])
        if not KEY.match(key):
            await self.close()
            return
        self.group = f"bench-{key}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME or not text_data.startswith(FIRE):
            await self.close(code=1009)
            return
        token = text_data.removeprefix(FIRE)
        await self.channel_layer.group_send(self.group, {"type": "bench.broadcast", "token": token})
        await self.send(text_data=f"fired {token}")

    async def bench_broadcast(self, event: dict[str, Any]) -> None:
        """Group message: send the token to this socket."""
        await self.send(text_data=str(event["token"]))


# Empty unless REFIT_BENCH_ECHO=1: routing.py appends these to its websocket routes.
websocket_urlpatterns = [
    path("ws/bench/echo/", EchoConsumer.as_asgi()),
    path("ws/bench/broadcast/<str:key>/", BroadcastConsumer.as_asgi()),
] if settings.REFIT_BENCH_ECHO else []
if settings.REFIT_BENCH_ECHO:
    bench_sql.install()
