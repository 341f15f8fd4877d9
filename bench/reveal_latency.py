#!/usr/bin/env python
"""Reveal latency: how long after the second sealed chit is accepted do BOTH players' live pages hold the reveal?

Run by hand (not a test), from the repository root, with PostgreSQL and Redis running:

    .venv/bin/python bench/reveal_latency.py                 # 200 campaigns
    .venv/bin/python bench/reveal_latency.py --campaigns 20  # a quick look

What it does, all on 127.0.0.1:
 1. drops and creates the PostgreSQL database `<name>_bench` on the DATABASE_URL server (`refit_bench` for the
    default postgres://postgres@127.0.0.1:5432/refit), migrates it, loads the CG systems, collects static files;
 2. starts the production ASGI server: uvicorn (--workers processes), DEBUG=0, a random SECRET_KEY,
    ALLOWED_HOSTS=127.0.0.1, Redis db 7 as the channel layer under a prefix of this run's own (its keys are deleted at
    the end; nothing else in db 7 is touched), REFIT_BENCH_ECHO=1 (routes the bare echo consumer campaigns_app/echo.py);
 3. creates N RR campaigns (Canadian vs German, Initial Scenario done: both owe a chit) directly through
    campaigns_app.services on the same database, and a logged-in session per player through Django's session machinery;
 4. opens two live-page websocket clients per campaign (Origin + session cookie), all kept open and sending the page's
    heartbeat every --heartbeat seconds (25, as static/refit.js), and waits until the initial syncs are over;
 5. floor: N websocket clients each make --echo-rounds bare echo round trips (campaigns_app/echo.py) on the same
    server, --concurrency clients at a time, with every live page still open;
 6. submits the Canadian Attack chit of every campaign over HTTP (httpx, CSRF cookie + header, as the htmx form
    posts it), waits for the "has chosen" updates to settle, then the German Idle chit, --concurrency campaigns at a
    time; for each campaign it measures from the second submit's HTTP response to both sockets having received the
    frame with the reveal (id="chit-reveal");
 7. prints p50/p99 of both and their ratio (and the reveal measured from the second request's start), the CPU time the
    server's processes and this client spent per reveal meanwhile (Linux /proc), and stops the server.

Limits: --campaigns 1..2000, every wait bounded by --timeout, only 127.0.0.1. Server log: test-results/bench-server.log.
"""
from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # the benchmark never talks to anything else
BENCH_REDIS_DB = 7
MAX_CAMPAIGNS = 2000
ECHO_PATH = "/ws/bench/echo/"


# ---------------------------------------------------------------------------------------------- set-up helpers
def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def with_redis_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


def local_only(url: str, what: str) -> None:
    host = urlsplit(url).hostname
    if host not in {"127.0.0.1", "localhost", "::1"}:
        sys.exit(f"bench: {what} must be on this machine (127.0.0.1), not {host!r}")


def recreate_database(server_url: str, name: str) -> None:
    import psycopg

    maintenance = re.sub(r"^postgres(ql)?(\+\w+)?://", "postgresql://", with_database(server_url, "postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def bench_database(url: str) -> str:
    """``<name>_bench`` for DATABASE_URL's database (``refit`` → ``refit_bench``): two runs on differently named
    databases never drop each other's."""
    return (urlsplit(url).path.lstrip("/") or "refit") + "_bench"


def forget_channel_keys(redis_url: str, prefix: str) -> None:
    """Delete this run's channel-layer keys (and only those)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def manage(env: dict[str, str], *args: str) -> None:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    if done.returncode != 0:
        sys.exit(f"bench: manage.py {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")


def wait_until_answering(process: subprocess.Popen[bytes], url: str, timeout: float = 60.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"bench: the ASGI server exited with {process.returncode} (see bench server log)")
        try:
            httpx.get(url, timeout=2.0, trust_env=False)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    sys.exit(f"bench: the ASGI server did not answer at {url} within {timeout:.0f}s")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its children (uvicorn's workers); Linux /proc."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p: int) -> list[str]:
        text = Path(f"/proc/{p}/stat").read_text()
        return text[text.rindex(")") + 2:].split()  # fields after the command name; [1] is the parent pid

    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = stat(int(entry.name))
        except (OSError, ValueError):
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


# ---------------------------------------------------------------------------------------------- statistics
def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def describe(name: str, values_s: Sequence[float]) -> str:
    ms = [v * 1000 for v in values_s]
    return (f"{name:<34} n={len(ms):>5}  p50={percentile(ms, 50):8.2f} ms  p99={percentile(ms, 99):8.2f} ms  "
            f"mean={statistics.fmean(ms):8.2f} ms  max={max(ms):8.2f} ms")


# ---------------------------------------------------------------------------------------------- the app under test
@dataclass
class Player:
    session_key: str
    side: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))  # 32 characters, a valid CSRF secret

    def cookie_header(self) -> str:
        return f"sessionid={self.session_key}; csrftoken={self.csrf}"


@dataclass
class BenchCampaign:
    public_id: str
    first: Player
    second: Player


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "campaigns_app.settings"
    sys.path.insert(0, str(REPO))
    import django

    django.setup()


def session_for(user: object) -> str:
    """A logged-in session row for ``user``, exactly as django.contrib.auth.login() would store it."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(settings.SESSION_ENGINE + ".SessionStore")()
    store[SESSION_KEY] = str(user.pk)  # type: ignore[attr-defined]
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()  # type: ignore[attr-defined]
    store.create()
    assert store.session_key is not None
    return store.session_key


def create_campaigns(count: int, run: str) -> list[BenchCampaign]:
    """``count`` RR campaigns (Canadian vs German), both seated, at the 19 PM Initiative step: both owe a chit.

    The first campaign is played through the Initial pass, the Initial Scenario and the 19 PM Refit Phase with the
    browser-facing services (the test suite's driver: nothing bought, every step marked done, SAN supplied); the others
    start from a copy of its state, so setting up 200 campaigns does not replay 200 phases. The copies do not share
    dice: each campaign keeps its own seed, and the chit round rolls nothing (Canadian Assault).
    """
    from django.contrib.auth import get_user_model
    from django.db.models import F

    from campaigns_app import services
    from campaigns_app.models import Campaign
    from tests.campaigns_app.conftest import drive

    users = get_user_model()
    made = []
    template_state = None
    for i in range(count):
        first = users.objects.create_user(f"bench-{run}-{i}-a", f"bench-{run}-{i}-a@example.test", password=None)
        second = users.objects.create_user(f"bench-{run}-{i}-b", f"bench-{run}-{i}-b@example.test", password=None)
        campaign = services.campaign_create(user=first, system_id="rr", side="canadian", name=f"Bench {run} {i}")
        token = campaign.invitations.get().token
        services.campaign_join(user=second, token=token)
        if template_state is None:
            drive(campaign, {"canadian": first, "german": second}, lambda state: state.step == "initiative")
            campaign.refresh_from_db()
            template_state = campaign.state
        else:
            # a write like any other: the live pages' revision moves with it (campaigns_app.live.pages)
            Campaign.objects.filter(pk=campaign.pk).update(state=template_state, revision=F("revision") + 1)
        made.append(BenchCampaign(campaign.public_id, Player(session_for(first), "canadian"),
                                  Player(session_for(second), "german")))
    return made


def live_ws_path(campaign: BenchCampaign) -> str:
    return f"/ws/campaigns/{campaign.public_id}/"


# RR 2.522: Canadian Attack × German Idle = Canadian Assault (no dice involved).
CHITS = {"canadian": "attack", "german": "idle"}


def chit_post(campaign: BenchCampaign, player: Player) -> tuple[str, dict[str, str]]:
    """The confirm step's final POST, as the live page's htmx form sends it."""
    return (f"/campaigns/{campaign.public_id}/chit/submit/",
            {"side": player.side, "chit": CHITS[player.side], "confirmed": "yes"})


def is_reveal_frame(text: str) -> bool:
    return 'id="chit-reveal"' in text


# ---------------------------------------------------------------------------------------------- measuring
class LiveSocket:
    """One live-page websocket; timestamps every frame, flags the first reveal frame, and sends the page's heartbeat
    every ``heartbeat`` seconds (static/refit.js: 25), from a random moment on, as pages opened at different times."""

    def __init__(self, url: str, origin: str, player: Player, heartbeat: float = 0.0) -> None:
        self.url, self.origin, self.player, self.heartbeat = url, origin, player, heartbeat
        self.revealed = asyncio.Event()
        self.revealed_at = 0.0
        self.frames = 0
        self.connection: object = None
        self.reader: asyncio.Task[None] | None = None
        self.beater: asyncio.Task[None] | None = None

    async def open(self, timeout: float) -> None:
        from websockets.asyncio.client import connect

        self.connection = await connect(
            self.url, origin=self.origin, additional_headers={"Cookie": self.player.cookie_header()},  # type: ignore[arg-type]
            proxy=None, open_timeout=timeout, compression=None, max_size=2**22, max_queue=None,
        )
        self.reader = asyncio.create_task(self._read())
        if self.heartbeat > 0:
            self.beater = asyncio.create_task(self._beat())

    async def _beat(self) -> None:
        from websockets.exceptions import ConnectionClosed

        await asyncio.sleep(random.uniform(0, self.heartbeat))
        try:
            while True:
                await self.connection.send('{"heartbeat": 1}')  # type: ignore[attr-defined]
                await asyncio.sleep(self.heartbeat)
        except ConnectionClosed:
            pass

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for message in self.connection:  # type: ignore[attr-defined]
                now = time.perf_counter()
                self.frames += 1
                text = message if isinstance(message, str) else message.decode("utf-8", "replace")
                if not self.revealed.is_set() and is_reveal_frame(text):
                    self.revealed_at = now
                    self.revealed.set()
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        if self.beater is not None:
            self.beater.cancel()
        if self.connection is not None:
            await self.connection.close()  # type: ignore[attr-defined]
        if self.reader is not None:
            self.reader.cancel()


async def settle(pairs: Iterable[tuple[LiveSocket, LiveSocket]], timeout: float, quiet: float = 1.0) -> None:
    """Wait until no socket has received a frame for ``quiet`` seconds (at most ``timeout``)."""
    everyone = [s for pair in pairs for s in pair]
    deadline = time.monotonic() + timeout
    last = -1
    while time.monotonic() < deadline:
        total = sum(s.frames for s in everyone)
        if total == last:
            return
        last = total
        await asyncio.sleep(quiet)


async def gather_bounded(jobs: Sequence[Callable[[], Awaitable[object]]], concurrency: int) -> list[object]:
    gate = asyncio.Semaphore(concurrency)

    async def one(job: Callable[[], Awaitable[object]]) -> object:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in jobs), return_exceptions=True))


async def echo_floor(base_ws: str, origin: str, clients: int, rounds: int, concurrency: int,
                     timeout: float) -> tuple[list[float], int]:
    """Bare echo round trips: ``clients`` sockets at once, ``rounds`` sequential round trips each."""
    from websockets.asyncio.client import connect

    samples: list[float] = []

    async def client(i: int) -> None:
        async with connect(base_ws + ECHO_PATH, origin=origin, proxy=None, open_timeout=timeout,  # type: ignore[arg-type]
                           compression=None) as ws:
            for r in range(rounds):
                payload = f"echo {i} {r} {secrets.token_hex(8)}"
                start = time.perf_counter()
                await ws.send(payload)
                reply = await asyncio.wait_for(ws.recv(), timeout)
                elapsed = time.perf_counter() - start
                if reply != payload:
                    raise RuntimeError(f"echo returned {reply!r} for {payload!r}")
                samples.append(elapsed)

    results = await gather_bounded([lambda i=i: client(i) for i in range(clients)], concurrency)
    failures = sum(1 for r in results if isinstance(r, BaseException))
    for r in results:
        if isinstance(r, BaseException):
            print(f"  echo failure: {r!r}", file=sys.stderr)
            break
    return samples, failures


@dataclass
class Cpu:
    """CPU seconds spent while the second chits were submitted and revealed."""

    server: float = 0.0
    bench: float = 0.0


async def reveal_round(base_http: str, base_ws: str, campaigns: list[BenchCampaign], concurrency: int,
                       connect_concurrency: int, timeout: float,
                       floor: Callable[[], Awaitable[tuple[list[float], int]]], server_pid: int,
                       cpu: Cpu, heartbeat: float) -> tuple[list[float], list[float], int, tuple[list[float], int]]:
    """All live sockets open; the echo floor measured then; per campaign first chit, second chit;
    latency = both sockets' reveal frames − the second submit's HTTP response."""
    import httpx

    origin = base_http
    sockets: dict[str, tuple[LiveSocket, LiveSocket]] = {}

    async def open_pair(c: BenchCampaign) -> None:
        pair = (LiveSocket(base_ws + live_ws_path(c), origin, c.first, heartbeat),
                LiveSocket(base_ws + live_ws_path(c), origin, c.second, heartbeat))
        sockets[c.public_id] = pair
        for s in pair:
            await s.open(timeout)

    results = await gather_bounded([lambda c=c: open_pair(c) for c in campaigns], connect_concurrency)
    opened = [c for c, r in zip(campaigns, results) if not isinstance(r, BaseException)]
    failures = len(campaigns) - len(opened)
    for r in results:
        if isinstance(r, BaseException):
            print(f"  websocket open failure: {r!r}", file=sys.stderr)
            break
    await settle(sockets.values(), timeout)  # every page's initial sync and presence updates
    echo = await floor()  # on the same server, with every live page open

    limits = httpx.Limits(max_connections=concurrency * 2, max_keepalive_connections=concurrency * 2)
    # Each request carries its player's cookies explicitly; the shared client must never store any.
    no_cookies = http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    async with httpx.AsyncClient(base_url=base_http, timeout=timeout, trust_env=False, limits=limits,
                                 cookies=no_cookies) as client:

        async def submit(c: BenchCampaign, player: Player) -> float:
            path, data = chit_post(c, player)
            headers = {"Cookie": player.cookie_header(), "X-CSRFToken": player.csrf, "Origin": origin,
                       "Referer": f"{base_http}/campaigns/{c.public_id}/", "HX-Request": "true"}
            response = await client.post(path, data={**data, "csrfmiddlewaretoken": player.csrf}, headers=headers)
            if response.status_code >= 400:
                raise RuntimeError(f"chit POST {path} → {response.status_code}: {response.text[:300]!r}")
            return time.perf_counter()

        first = await gather_bounded([lambda c=c: submit(c, c.first) for c in opened], concurrency)
        ready = []
        for c, r in zip(opened, first):
            if isinstance(r, BaseException):
                failures += 1
                print(f"  first chit failure: {r!r}", file=sys.stderr)
            else:
                ready.append(c)
        await settle(sockets.values(), timeout)  # the "has chosen" updates are not what we measure

        from_response: list[float] = []
        from_request: list[float] = []

        async def second(c: BenchCampaign) -> None:
            a, b = sockets[c.public_id]
            sent = time.perf_counter()
            answered = await submit(c, c.second)
            await asyncio.wait_for(asyncio.gather(a.revealed.wait(), b.revealed.wait()), timeout)
            both = max(a.revealed_at, b.revealed_at)
            from_response.append(both - answered)
            from_request.append(both - sent)

        server_before, bench_before = process_tree_cpu(server_pid), time.process_time()
        results = await gather_bounded([lambda c=c: second(c) for c in ready], concurrency)
        cpu.server = process_tree_cpu(server_pid) - server_before
        cpu.bench = time.process_time() - bench_before
        for r in results:
            if isinstance(r, BaseException):
                failures += 1
                print(f"  reveal failure: {r!r}", file=sys.stderr)

    await gather_bounded([lambda s=s: s.close() for pair in sockets.values() for s in pair], connect_concurrency)
    return from_response, from_request, failures, echo


# ---------------------------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=200, help="concurrent campaigns (two players each; default 200)")
    parser.add_argument("--echo-rounds", type=int, default=5, help="echo round trips per echo client (default 5)")
    parser.add_argument("--concurrency", type=int, default=20,
                        help="campaigns submitting chits at the same moment (default 20; all sockets stay open)")
    parser.add_argument("--connect-concurrency", type=int, default=25,
                        help="websockets being opened or closed at the same moment (default 25)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes (default 1)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for any one step to answer (default 60)")
    parser.add_argument("--heartbeat", type=float, default=25.0,
                        help="seconds between each live socket's heartbeats, as the page sends them (default 25; 0: none)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/refit"),
                        help="a PostgreSQL URL on this machine; the benchmark uses database <name>_bench on that server")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                        help="a Redis URL on this machine; the benchmark uses db 7")
    args = parser.parse_args(argv)
    if not 1 <= args.campaigns <= MAX_CAMPAIGNS:
        parser.error(f"--campaigns must be between 1 and {MAX_CAMPAIGNS}")
    if not 1 <= args.echo_rounds <= 100:
        parser.error("--echo-rounds must be between 1 and 100")
    if not 1 <= args.workers <= 16:
        parser.error("--workers must be between 1 and 16")
    if not 1 <= args.timeout <= 600:
        parser.error("--timeout must be between 1 and 600 seconds")
    if not (args.heartbeat == 0 or 1 <= args.heartbeat <= 600):
        parser.error("--heartbeat must be 0 (none) or between 1 and 600 seconds")
    if not re.match(r"^postgres(ql)?(\+\w+)?://", args.database_url):
        parser.error("--database-url must be a PostgreSQL URL (postgres://…)")
    local_only(args.database_url, "PostgreSQL")
    local_only(args.redis_url, "Redis")
    if not 1 <= args.concurrency <= args.campaigns or not 1 <= args.connect_concurrency <= 2 * args.campaigns:
        parser.error("--concurrency must be 1..campaigns and --connect-concurrency 1..2×campaigns")
    concurrency = args.concurrency

    database = bench_database(args.database_url)
    database_url = with_database(args.database_url, database)
    redis_url = with_redis_db(args.redis_url, BENCH_REDIS_DB)
    run = secrets.token_hex(3)
    channel_prefix = f"refit-bench-{run}"
    port = free_port()
    base_http, base_ws = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(
        DATABASE_URL=database_url, REDIS_URL=redis_url, CHANNEL_PREFIX=channel_prefix,
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS=HOST, SITE_URL=base_http,
        CSRF_TRUSTED_ORIGINS=base_http, SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0",
        REFIT_BENCH_ECHO="1", LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        # collectstatic writes here, not into the work tree a test run may be serving from
        STATIC_ROOT=str(Path(tempfile.gettempdir()) / "refit-bench-static"),
    )

    started = time.monotonic()
    print(f"bench: database {database}, Redis db {BENCH_REDIS_DB} ({channel_prefix}), {args.campaigns} campaigns, "
          f"{args.workers} uvicorn worker(s), {concurrency} submitting at once, {args.connect_concurrency} connecting at once")
    recreate_database(args.database_url, database)
    manage(env, "migrate", "--noinput")
    manage(env, "load_systems")
    manage(env, "collectstatic", "--noinput")

    django_setup(env)
    t = time.monotonic()
    campaigns = create_campaigns(args.campaigns, run)
    print(f"bench: {len(campaigns)} campaigns and {2 * len(campaigns)} sessions created in {time.monotonic() - t:.1f}s")
    from django.db import connections

    connections.close_all()

    log_path = REPO / "test-results" / "bench-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "campaigns_app.asgi:application", "--host", HOST, "--port", str(port),
             "--workers", str(args.workers), "--no-access-log", "--log-level", "warning",
             "--timeout-graceful-shutdown", "5"],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_answering(server, base_http + "/")
        floor = lambda: echo_floor(base_ws, base_http, args.campaigns, args.echo_rounds, concurrency, args.timeout)  # noqa: E731
        cpu = Cpu()
        reveal, reveal_from_request, reveal_failures, (echo, echo_failures) = asyncio.run(
            reveal_round(base_http, base_ws, campaigns, concurrency, args.connect_concurrency, args.timeout, floor,
                         server.pid, cpu, args.heartbeat))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
        forget_channel_keys(redis_url, channel_prefix)

    print()
    print(f"bench: finished in {time.monotonic() - started:.1f}s (server log: {log_path.relative_to(REPO)})")
    if not echo or not reveal:
        print(f"bench: no samples (echo failures {echo_failures}, reveal failures {reveal_failures})")
        return 1
    print(describe("echo round trip (floor)", echo))
    print(describe("reveal after 2nd submit response", reveal))
    print(describe("reveal after 2nd submit request", reveal_from_request))
    floor50, floor99 = percentile(echo, 50), percentile(echo, 99)
    print(f"ratio reveal/echo: p50 {percentile(reveal, 50) / floor50:.1f}x   p99 {percentile(reveal, 99) / floor99:.1f}x")
    print(f"CPU per reveal (second submit and both reveals): server {cpu.server / len(reveal) * 1000:.1f} ms, "
          f"this benchmark's client {cpu.bench / len(reveal) * 1000:.1f} ms")
    print(f"failures: echo {echo_failures}, campaigns {reveal_failures} (of {args.campaigns})")
    return 1 if echo_failures or reveal_failures else 0


if __name__ == "__main__":
    sys.exit(main())
