"""End-to-end harness: a fresh PostgreSQL database, the real ASGI server in a subprocess, Debian's chromium via Playwright.

Nothing here touches Django's database in-process: the server under test is a separate process with its own
database, named after DATABASE_URL's: ``<name>_e2e`` on the same server (``refit`` → ``refit_e2e``, ``refit_p`` →
``refit_p_e2e``), so two test runs with different DATABASE_URLs never drop each other's database. Redis: the db number
REDIS_URL names (``redis://host:6379/2`` → 2), else db 6; the channel prefix is ``refit-e2e-<name>`` either way.
Outputs (server.log, mail/, screenshots) go to test-results/e2e/ for ``refit`` and test-results/e2e-<name>/ otherwise.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_REDIS_DB = 6
SERVER_START_TIMEOUT = 60.0


def database_name(url: str) -> str:
    """The database name in a DATABASE_URL (``postgres://u@h:5432/refit_p`` → ``refit_p``); ``refit`` when absent."""
    return urlsplit(url).path.lstrip("/") or "refit"


def e2e_database_name(url: str) -> str:
    """``<name>_e2e``: each DATABASE_URL gets its own end-to-end database."""
    return f"{database_name(url)}_e2e"


def e2e_redis_db(url: str) -> int:
    """The db number REDIS_URL names, else 6."""
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else DEFAULT_REDIS_DB


def results_dir(url: str) -> Path:
    """test-results/e2e/ for the default ``refit`` database, test-results/e2e-<name>/ for any other."""
    name = database_name(url)
    return REPO / "test-results" / ("e2e" if name == "refit" else f"e2e-{name}")


RESULTS = results_dir(os.environ.get("DATABASE_URL", ""))


def with_database(url: str, name: str) -> str:
    """The same server URL pointing at another database."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


def recreate_database(server_url: str, name: str) -> None:
    """DROP and CREATE ``name`` on the server of ``server_url`` (connecting to its maintenance database)."""
    import psycopg

    maintenance = re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql://", with_database(server_url, "postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_answering(process: subprocess.Popen[bytes], url: str, log: Path, timeout: float) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    last_error = ""
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the ASGI server exited with {process.returncode}; see {log}:\n{log.read_text()[-3000:]}")
        try:
            httpx.get(url, timeout=2.0, trust_env=False)
            return
        except httpx.HTTPError as exc:
            last_error = repr(exc)
            time.sleep(0.2)
    raise RuntimeError(f"the ASGI server did not answer at {url} within {timeout:.0f}s ({last_error}); see {log}")


def manage(env: dict[str, str], *args: str, log: Path) -> None:
    with log.open("ab") as out:
        out.write(f"\n$ manage.py {' '.join(args)}\n".encode())
        out.flush()
        done = subprocess.run(
            [sys.executable, str(REPO / "manage.py"), *args],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=300, check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed ({done.returncode}); see {log}:\n{log.read_text()[-3000:]}")


@dataclass(frozen=True)
class LiveServer:
    url: str
    database_url: str
    mail_dir: Path
    log: Path


@pytest.fixture(scope="session")
def live_server_process() -> Iterator[LiveServer]:
    """A fresh `<name>_e2e` database, migrated and loaded, served by uvicorn on a free 127.0.0.1 port."""
    database_url = os.environ.get("DATABASE_URL", "")
    if not re.match(r"^postgres(ql)?(\+\w+)?://", database_url):
        pytest.skip(
            "end-to-end tests need PostgreSQL: set DATABASE_URL=postgres://USER@HOST:PORT/NAME "
            f"(got {database_url or 'nothing'}; `make test` sets it)"
        )
    if not Path(CHROMIUM).exists():
        pytest.skip(f"end-to-end tests need Debian's chromium at {CHROMIUM} (apt-get install chromium; .ci/run does it)")

    RESULTS.mkdir(parents=True, exist_ok=True)
    log = RESULTS / "server.log"
    log.write_text("")
    mail_dir = RESULTS / "mail"
    shutil.rmtree(mail_dir, ignore_errors=True)
    mail_dir.mkdir(parents=True)

    e2e_database = e2e_database_name(database_url)
    e2e_database_url = with_database(database_url, e2e_database)
    recreate_database(database_url, e2e_database)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS"))}
    env.update(
        DJANGO_SETTINGS_MODULE="campaigns_app.settings",
        DATABASE_URL=e2e_database_url,
        DEBUG="1",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL=url,
        CHANNEL_PREFIX=f"refit-e2e-{database_name(database_url)}",
        PYTHONUNBUFFERED="1",
    )
    if "EMAIL_FILE_PATH" in (REPO / "campaigns_app" / "settings.py").read_text():
        env.update(EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=str(mail_dir))
    else:  # settings cannot point the file backend anywhere: mail goes to the console, i.e. server.log
        env["EMAIL_BACKEND"] = "django.core.mail.backends.console.EmailBackend"
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = with_redis_db(os.environ["REDIS_URL"], e2e_redis_db(os.environ["REDIS_URL"]))
    else:
        env.pop("REDIS_URL", None)

    manage(env, "migrate", "--noinput", log=log)
    manage(env, "load_systems", log=log)

    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "campaigns_app.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--no-access-log", "--timeout-graceful-shutdown", "3"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_answering(process, url + "/", log, SERVER_START_TIMEOUT)
        yield LiveServer(url=url, database_url=e2e_database_url, mail_dir=mail_dir, log=log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@pytest.fixture(scope="session")
def live_url(live_server_process: LiveServer) -> str:
    return live_server_process.url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium through Playwright's sync API (never a downloaded browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def output_dir(request: pytest.FixtureRequest) -> Path:
    """test-results/e2e/<test name>/, emptied at the start of the test."""
    folder = RESULTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def screenshot(output_dir: Path) -> Callable[..., Path]:
    """`screenshot(page, "03-player1-created")` → test-results/e2e/<test>/03-player1-created.png (full page)."""

    def take(page: object, name: str) -> Path:
        path = output_dir / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
        return path

    return take


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
