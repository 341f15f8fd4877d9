"""The benchmark's server side (bench/reveal_latency.py): its floors' websockets and its SQL statement counter exist
only when REFIT_BENCH_ECHO=1; the group-broadcast floor reaches both sockets of a group; the counter counts."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.db.backends.signals import connection_created
from django.urls import path

from campaigns_app.asgi import application
from campaigns_app.live import bench_sql, echo

ORIGIN = [(b"origin", b"http://testserver")]
floor_app = URLRouter([path("ws/bench/broadcast/<str:key>/", echo.BroadcastConsumer.as_asgi())])


@pytest.fixture(autouse=True)
def in_memory_layer(settings: Any) -> Iterator[None]:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.parametrize("url", ["/ws/bench/echo/", "/ws/bench/broadcast/00ff/"])
async def test_the_bench_sockets_are_refused_when_the_bench_setting_is_off(url: str) -> None:
    socket = WebsocketCommunicator(application, url, headers=ORIGIN)
    connected, _ = await socket.connect(timeout=5)
    assert connected is False
    assert echo.websocket_urlpatterns == []


def test_no_sql_counter_is_installed_when_the_bench_setting_is_off() -> None:
    assert connection_created.disconnect(dispatch_uid="refit-bench-sql") is False
    assert bench_sql.count_statement not in connection.execute_wrappers


async def test_a_fire_reaches_both_sockets_of_the_group_and_the_sender_gets_its_answer_first() -> None:
    a = WebsocketCommunicator(floor_app, "/ws/bench/broadcast/ab12/")
    b = WebsocketCommunicator(floor_app, "/ws/bench/broadcast/ab12/")
    other = WebsocketCommunicator(floor_app, "/ws/bench/broadcast/cd34/")
    for socket in (a, b, other):
        assert (await socket.connect(timeout=5))[0]
    await a.send_to(text_data="fire 7f3a")
    assert await a.receive_from(timeout=5) == "fired 7f3a"
    assert await a.receive_from(timeout=5) == "7f3a"
    assert await b.receive_from(timeout=5) == "7f3a"
    assert await other.receive_nothing(timeout=0.3), "another group hears nothing"
    for socket in (a, b, other):
        await socket.disconnect()


@pytest.mark.parametrize("key", ["AB12", "x" * 10, "0" * 33])
async def test_a_broadcast_key_that_is_not_short_lowercase_hex_is_refused(key: str) -> None:
    socket = WebsocketCommunicator(floor_app, f"/ws/bench/broadcast/{key}/")
    connected, _ = await socket.connect(timeout=5)
    assert connected is False


async def test_a_frame_that_is_not_a_fire_closes_the_broadcast_socket() -> None:
    socket = WebsocketCommunicator(floor_app, "/ws/bench/broadcast/ab12/")
    assert (await socket.connect(timeout=5))[0]
    await socket.send_to(text_data="hello")
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 1009}


@pytest.mark.django_db
def test_the_counter_counts_each_statement_once_however_often_a_connection_is_wrapped() -> None:
    connection.ensure_connection()
    bench_sql.wrap(connection)
    bench_sql.wrap(connection)  # the same wrapper object, connected again
    try:
        before = bench_sql.COUNTS.read()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.execute("SELECT 2")
        after = bench_sql.COUNTS.read()
    finally:
        while bench_sql.count_statement in connection.execute_wrappers:
            connection.execute_wrappers.remove(bench_sql.count_statement)
    assert after[0] - before[0] == 2


@pytest.mark.django_db(transaction=True)
def test_connections_opened_are_what_the_pool_opened_not_each_checkout() -> None:
    connection.ensure_connection()
    opened = bench_sql.pool_opened()
    for _ in range(3):  # a request's connection closed and a later one's connect: back to the pool, out again
        connection.close()
        connection.ensure_connection()

    if getattr(connection, "pool", None) is None:  # DB_POOL_MAX_SIZE=0: each connect opens one, counted as such
        assert opened is None and bench_sql.pool_opened() is None
    else:  # as make test runs: PostgreSQL through the pool
        assert opened is not None and opened >= 1
        assert bench_sql.pool_opened() == opened
