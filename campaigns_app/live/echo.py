"""A bare websocket echo: the floor the reveal-latency benchmark (bench/reveal_latency.py) compares against.

Routed only when settings.REFIT_BENCH_ECHO is on (environment REFIT_BENCH_ECHO=1); production never exposes it.
No channel layer, no database: each text frame is sent straight back.
"""
from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import path

MAX_FRAME = 1024


class EchoConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """Send every text frame (at most MAX_FRAME characters) back unchanged."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None or len(text_data) > MAX_FRAME:
            await self.close(code=1009)
            return
        await self.send(text_data=text_data)


# Empty unless REFIT_BENCH_ECHO=1: routing.py appends these to its websocket routes.
websocket_urlpatterns = [path("ws/bench/echo/", EchoConsumer.as_asgi())] if settings.REFIT_BENCH_ECHO else []
