"""Django's ASGI handler with the whole middleware chain and the view run in one thread hop per request.

Django's own handler loads the middleware in async mode. Every `MiddlewareMixin` middleware (security, sessions,
common, CSRF, messages, clickjacking) then sends each of its `process_*` methods to a thread and back to the event
loop on its own: 16 thread hops for one request, each an executor hand-over and a wake-up of the loop (measured: an
ASGI request to a view that only reads the signed-in user cost 1.5 ms of CPU against 0.4 ms under WSGI). Here the
chain is loaded in sync mode and entered once, on the request's thread-sensitive thread; nothing in it runs async, so
nothing in it waits on an AsyncToSync bridge back to the loop (the wedge campaigns_app.static_files once removed: a
client that hung up left such a bridge waiting with its pooled connection). A client that hangs up cancels only the
await: the thread finishes the request, and Django's request_finished then runs on that same thread after it.

Each request also gets its thread from `RequestThreads` instead of a new one: Django's handler enters a fresh
`ThreadSensitiveContext` per request, and asgiref starts a worker thread for it and another to join that worker at
the end. Here the request's context is given a single-thread executor of its own (asgiref's `executor=`: the caller
owns it), kept for a later request once the request is over.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

Receive = Callable[[], Awaitable[Mapping[str, object]]]
Send = Callable[[Mapping[str, object]], Awaitable[None]]
KEEP_IDLE = 32  # threads kept waiting for a request; a burst beyond that gets new ones, which end after it


class RequestThreads:
    """Single-thread executors, each serving one request at a time, kept for the next request (used on the loop)."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []

    def take(self) -> ThreadPoolExecutor:
        """An idle request thread, or a new one."""
        return self.idle.pop() if self.idle else ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        """Keep ``executor`` for a later request, or let its thread end when enough are idle."""
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)


class OneHopASGIHandler(ASGIHandler):
    """An ASGI handler whose middleware chain and view run synchronously, in one thread hop per request."""

    threads = RequestThreads(KEEP_IDLE)

    async def __call__(self, scope: dict[str, object], receive: Receive, send: Send) -> None:
        """Django's `__call__` with the request's thread-sensitive work on a kept thread. A request that ends in an
        exception (the server cancelling it) does not give its thread back: it may still be busy."""
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        self.threads.give_back(executor)

    def load_middleware(self, is_async: bool = False) -> None:
        """The chain in sync mode: no middleware sends its parts to a thread of their own."""
        super().load_middleware(is_async=False)
        self.one_hop = sync_to_async(self.get_response, thread_sensitive=True)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """Django's sync `get_response` (URL configuration, chain, view, logging of a 4xx/5xx) on the request's
        thread-sensitive thread, as Django's own handler runs each sync part."""
        response: HttpResponseBase = await self.one_hop(request)
        return response


def one_hop_asgi_application() -> OneHopASGIHandler:
    """`django.core.asgi.get_asgi_application`, with the one-hop handler."""
    django.setup(set_prefix=False)
    return OneHopASGIHandler()
