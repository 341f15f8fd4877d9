"""Render on a fresh stretch of CPython's frame stack (a work-around for CPython gh-142183 on Python 3.12).

CPython keeps Python frames in 16 KiB chunks. A loop whose callee's frame just does not fit in the current chunk
allocates a new chunk (an ``mmap``) on every call and frees it (a ``munmap``) on every return: the same template loop
rendered up to 7× slower inside a write (about 90 frames deep) than outside it (about 50); moving the depth by 20 frames
took a reveal from 22 to 15 ms of server CPU (bench/reveal_cpu.py). CPython's fix (one spare chunk per thread,
gh-145789) went into 3.13 and 3.14, not 3.12. ``on_fresh_stack`` calls through a frame too large for any ordinary
chunk, so CPython starts a 64 KiB chunk for it (one allocation per call) and the frames it calls run inside that
chunk, far from its end, at whatever depth the caller is. Nested calls run directly (they are already inside such a chunk).
"""
from __future__ import annotations

import functools
import threading
import types
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from asgiref.sync import iscoroutinefunction
from django.urls import URLPattern, URLResolver

P = ParamSpec("P")
T = TypeVar("T")
# Slots (8 bytes each) the calling frame claims: more than a 16 KiB chunk holds, so CPython 3.12 gives it a chunk of
# its own of 64 KiB (the smallest power of two ≥ 8 × (slots + 1,000): CPython's push_chunk), leaving ~4,000 slots
# (32 KiB) for the frames it calls.
SLOTS = 4_000

_inside = threading.local()


def _call(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    _inside.active = True
    try:
        return fn(*args, **kwargs)
    finally:
        _inside.active = False


# the same function with a frame of SLOTS slots (an evaluation stack declared larger than it uses: never read)
_on_own_chunk: Callable[..., object] = types.FunctionType(
    _call.__code__.replace(co_stacksize=SLOTS), _call.__globals__, "_on_own_chunk")


def on_fresh_stack(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)``, its frames on a chunk of their own (see the module's docstring)."""
    if getattr(_inside, "active", False):
        return fn(*args, **kwargs)
    return _on_own_chunk(fn, *args, **kwargs)  # type: ignore[return-value]


def fresh(fn: Callable[P, T]) -> Callable[P, T]:
    """``fn``, called ``on_fresh_stack`` (the views, the websocket consumer's database calls)."""
    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> T:
        return on_fresh_stack(fn, *args, **kwargs)
    call.on_fresh_stack = True  # type: ignore[attr-defined]
    return call


def views_on_fresh_stack(patterns: Sequence[URLPattern | URLResolver]) -> None:
    """Every synchronous view under ``patterns`` (included URL modules too) runs ``on_fresh_stack``.

    Wrapping the views, not a middleware, puts the view on its own chunk in the thread that runs it, under WSGI, under
    Refit's one-hop ASGI handler and under Django's own (the test client's AsyncClient) alike."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            views_on_fresh_stack(pattern.url_patterns)
        elif not iscoroutinefunction(pattern.callback) and not getattr(pattern.callback, "on_fresh_stack", False):
            pattern.callback = fresh(pattern.callback)
