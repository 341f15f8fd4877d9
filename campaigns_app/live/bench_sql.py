"""Bench only: count the SQL statements and database connections of this server process (bench/reveal_latency.py).

Installed by campaigns_app.live.echo only when settings.REFIT_BENCH_ECHO is on (environment REFIT_BENCH_ECHO=1);
otherwise nothing is connected and no thread started, so it costs nothing in production. Each new database connection gets an execute wrapper that
adds one to an in-process counter; a daemon thread adds what changed to two Redis keys under the channel prefix
(``<prefix>:bench:sql:statements`` and ``<prefix>:bench:sql:connections``) every FLUSH_EVERY seconds, so the
benchmark reads the totals of every worker process from outside, and its prefix clean-up deletes them.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created

FLUSH_EVERY = 0.1  # seconds
STATEMENTS, CONNECTIONS = "bench:sql:statements", "bench:sql:connections"  # connections: Django's connects
OPENED = "bench:sql:opened"  # connections opened to PostgreSQL: with the pool, only what the pool itself opened


class Counts:
    """Statements and connections of this process, and what of them Redis already holds."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statements = 0
        self.connections = 0
        self.flusher: threading.Thread | None = None

    def statement(self) -> None:
        with self.lock:
            self.statements += 1

    def connection(self) -> None:
        with self.lock:
            self.connections += 1
            if self.flusher is None:
                self.flusher = threading.Thread(target=flush_forever, name="bench-sql-flush", daemon=True)
                self.flusher.start()

    def read(self) -> tuple[int, int]:
        with self.lock:
            return self.statements, self.connections


COUNTS = Counts()


def key_prefix() -> str:
    layers: dict[str, Any] = settings.CHANNEL_LAYERS
    return str(layers["default"].get("CONFIG", {}).get("prefix", "refit"))


def pool_opened() -> int | None:
    """How many connections this process's pool has opened to PostgreSQL (psycopg_pool's ``connections_num``); None
    without a pool, where each of Django's connects opens one."""
    pool = getattr(connections["default"], "pool", None)
    return None if pool is None else int(pool.get_stats().get("connections_num", 0))


def flush_forever() -> None:
    """Add this process's new statements, connects and opened connections to the Redis totals, every FLUSH_EVERY
    seconds."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = key_prefix()
    flushed = {STATEMENTS: 0, CONNECTIONS: 0, OPENED: 0}
    while True:
        time.sleep(FLUSH_EVERY)
        statements, connects = COUNTS.read()
        opened = pool_opened()
        for key, now in ((STATEMENTS, statements), (CONNECTIONS, connects),
                         (OPENED, connects if opened is None else opened)):
            if now == flushed[key]:
                continue
            try:
                client.incrby(f"{prefix}:{key}", now - flushed[key])
            except redis.RedisError:
                continue  # tried again at the next tick
            flushed[key] = now


def count_statement(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """An execute wrapper (django.db connection.execute_wrappers): one statement (or executemany batch)."""
    COUNTS.statement()
    return execute(sql, params, many, context)


def wrap(connection: BaseDatabaseWrapper) -> None:
    """Count ``connection``'s statements (once: the same wrapper object reconnects, CONN_MAX_AGE=0)."""
    if count_statement not in connection.execute_wrappers:
        connection.execute_wrappers.append(count_statement)


def on_connection(sender: object, connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    COUNTS.connection()
    wrap(connection)


def install() -> None:
    """Count from now on (only with a Redis channel layer: the totals travel through it)."""
    if settings.REDIS_URL:
        connection_created.connect(on_connection, dispatch_uid="refit-bench-sql")
