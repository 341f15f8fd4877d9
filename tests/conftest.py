"""Suite-wide set-up: `make test` runs against real PostgreSQL and Redis and stops at once if either is missing."""
from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest

SERVICE_HINTS = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": 'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
}


def _reachable(url: str, default_port: int) -> tuple[str, int, bool]:
    parsed = urlparse(url)
    host = parsed.hostname or "127.0.0.1"
    port = parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return host, port, True
    except OSError:
        return host, port, False


def pytest_sessionstart(session: pytest.Session) -> None:
    checks = []
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url.startswith("postgres"):
        checks.append(("PostgreSQL", database_url, 5432))
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        checks.append(("Redis", redis_url, 6379))
    for name, url, port in checks:
        host, port, ok = _reachable(url, port)
        if not ok:
            pytest.exit(
                f"{name} is not reachable at {host}:{port}. Start it with:\n    {SERVICE_HINTS[name]}\n"
                f"(or point {'DATABASE_URL' if name == 'PostgreSQL' else 'REDIS_URL'} at a running server).",
                returncode=3,
            )
