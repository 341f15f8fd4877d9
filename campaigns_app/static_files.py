"""Static files as WhiteNoise serves them, from a middleware that is async under ASGI.

WhiteNoise's own middleware is sync only. Under uvicorn, Django then runs it on a thread of its own and runs the rest
of the request through an AsyncToSync bridge from that thread. A client that closes its connection mid-request (a
page left while it loads, a reload) cancels the request; the bridge's thread was left waiting for an answer that
never came, holding its pooled database connection. A few such requests took every connection of the worker, and
every later request that needed the database waited out the pool timeout and answered 500. Seen once in the
browser tests; reproduced with bursts of 40 requests dropped mid-way (tests/e2e/test_dropped_requests.py).
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]
    """WhiteNoiseMiddleware, sync and async: the request stays in the handler's own mode (no thread per request)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        if iscoroutinefunction(self.get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:  # DEBUG: the file is looked up on disk (off the event loop)
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)  # in memory: found at start-up
        if static_file is not None:
            response: HttpResponseBase = self.serve(static_file, request)
            return response
        following: Callable[[HttpRequest], Awaitable[HttpResponseBase]] = self.get_response
        return await following(request)
