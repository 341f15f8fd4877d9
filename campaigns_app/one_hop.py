"""Django's ASGI handler with the whole middleware chain and the view run in one thread hop per request.

Django's own handler loads the middleware in async mode. Every `MiddlewareMixin` middleware (security, sessions,
common, CSRF, messages, clickjacking) then sends each of its `process_*` methods to a thread and back to the event
loop on its own: 16 thread hops for one request, each an executor hand-over and a wake-up of the loop (measured: an
ASGI request to a view that only reads the signed-in user cost 1.5 ms of CPU against 0.4 ms under WSGI). Here the
chain is loaded in sync mode and entered once, on the request's thread-sensitive thread; nothing in it runs async, so
nothing in it waits on an AsyncToSync bridge back to the loop (the wedge campaigns_app.static_files once removed: a
client that hung up left such a bridge waiting with its pooled connection). A client that hangs up cancels only the
await: the thread finishes the request, and Django's request_finished then runs on that same thread after it.
"""
from __future__ import annotations

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    """An ASGI handler whose middleware chain and view run synchronously, in one thread hop per request."""

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
