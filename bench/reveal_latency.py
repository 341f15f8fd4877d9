#!/usr/bin/env python
"""Reveal latency: how long after the second sealed chit is accepted do BOTH players' live pages hold the reveal?

Run by hand (not a test), from the repository root, with PostgreSQL and Redis running:

    .venv/bin/python bench/reveal_latency.py                 # 200 campaigns
    .venv/bin/python bench/reveal_latency.py --campaigns 20  # a quick look

    .venv/bin/python bench/reveal_latency.py --compare-workers  # 1 then 2 uvicorn workers: throughput ratio

What it does, all on 127.0.0.1:
 1. drops and creates the PostgreSQL database `<name>_bench` on the DATABASE_URL server (`refit_bench` for the
    default postgres://postgres@127.0.0.1:5432/refit), migrates it, loads the CG systems, collects static files;
 2. creates N RR campaigns per run (Canadian vs German, Initial Scenario done: both owe a chit) directly through
    campaigns_app.services on the same database, and a logged-in session per player through Django's session machinery;
 3. starts the production ASGI server: uvicorn (--workers processes), DEBUG=0, a random SECRET_KEY,
    ALLOWED_HOSTS=127.0.0.1, Redis db 7 as the channel layer under a prefix of this run's own (its keys are deleted at
    the end; nothing else in db 7 is touched), REFIT_BENCH_ECHO=1: routes the floors' bench-only websockets
    (campaigns_app/live/echo.py) and counts the server's SQL statements (campaigns_app/live/bench_sql.py, totals in
    Redis under the run's prefix) — the only server-side hook; everything else is measured from outside;
 4. opens two live-page websocket clients per campaign (Origin + session cookie), all kept open and sending the page's
    heartbeat every --heartbeat seconds (25, as static/refit.js), waits until the initial syncs are over, and submits
    the Canadian Attack chit of every campaign over HTTP (httpx, CSRF cookie + header, as the htmx form posts it);
 5. SQL: heartbeats paused, 1..10 campaigns get their German Idle chit one at a time, then each of their sockets one
    heartbeat; the server's statements, connections opened and Django's connects per reveal and per heartbeat;
 6. at concurrency 1, then at --concurrency (20), with every live page open and beating: the echo floor (a bare
    websocket echo round trip), the group-broadcast floor (a socket fires, the server group_sends to a group of two
    sockets through the same channel layer and answers; from that answer to both sockets holding the message), then
    the reveal: half of the remaining campaigns get their German Idle chit at each level; from the second submit's
    HTTP response to both sockets having received the frame with the reveal (id="chit-reveal");
 7. prints, per level, p50/p99 of each, reveal p99 / broadcast p99 (and p50), the server's CPU per reveal and per
    broadcast (Linux /proc), reveals per second, and the SQL counts; stops the server. --compare-workers does all of
    it with 1 and then 2 uvicorn workers (each with its own campaigns and server) and prints the ratio of reveals per
    second at --concurrency.

Limits: --campaigns 3..2000, every wait bounded by --timeout, only 127.0.0.1. Server log: test-results/bench-server.log.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from reveal_live import (
    Beats,
    BenchCampaign,
    BroadcastPair,
    Chits,
    EchoClient,
    LiveSocket,
    Player,
    Reveals,
    failures_of,
    floor_phase,
    gather_bounded,
    live_ws_path,
    reveal_phase,
    settle,
)

REPO = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"  # the benchmark never talks to anything else
BENCH_REDIS_DB = 7
MAX_CAMPAIGNS = 2000


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
    if not values_s:
        return f"{name:<34} n=    0"
    ms = [v * 1000 for v in values_s]
    return (f"{name:<34} n={len(ms):>5}  p50={percentile(ms, 50):8.2f} ms  p99={percentile(ms, 99):8.2f} ms  "
            f"mean={statistics.fmean(ms):8.2f} ms  max={max(ms):8.2f} ms")


# ---------------------------------------------------------------------------------------------- the app under test
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
    from tests.campaigns_app.lost_test_values import RR as RR_LOST

    users = get_user_model()
    made = []
    template_state = None
    for i in range(count):
        first = users.objects.create_user(f"bench-{run}-{i}-a", f"bench-{run}-{i}-a@example.test", password=None)
        second = users.objects.create_user(f"bench-{run}-{i}-b", f"bench-{run}-{i}-b@example.test", password=None)
        campaign = services.campaign_create(user=first, system_id="rr", side="canadian", name=f"Bench {run} {i}",
                                           lost_values=RR_LOST)
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


# ---------------------------------------------------------------------------------------------- one run
@dataclass
class Options:
    concurrency: int
    connect_concurrency: int
    floor_samples: int
    timeout: float
    heartbeat: float


@dataclass
class Phase:
    """One concurrency level: both floors, then the reveal, one after the other with every live page open."""

    concurrency: int
    live_open: int  # live sockets still open when the level began
    echo: list[float]
    broadcast: list[float]  # from the server's answer to the trigger
    broadcast_from_fire: list[float]  # from the trigger's send
    reveals: Reveals
    broadcast_cpu: float  # server CPU seconds during the broadcast floor
    reveal_cpu: float  # server CPU seconds during the reveals
    bench_cpu: float  # this client's CPU seconds during the reveals
    failures: int


@dataclass
class Sql:
    """Server-side statements, Django's connects (with the pool: checkouts) and connections opened to PostgreSQL,
    counted while the heartbeats are paused."""

    reveals: int
    statements: int
    connections: int
    opened: int
    heartbeats: int
    heartbeat_statements: int
    heartbeat_connections: int
    heartbeat_opened: int


@dataclass
class Run:
    workers: int
    campaigns: int
    phases: list[Phase]
    sql: Sql | str  # or why it was not counted
    failures: int


def split(campaigns: Sequence[BenchCampaign]) -> tuple[list[BenchCampaign], list[BenchCampaign], list[BenchCampaign]]:
    """Campaigns whose reveal is counted in SQL (1..10), revealed one at a time, and revealed many at once."""
    counted = max(1, min(10, len(campaigns) // 20))
    rest = list(campaigns[counted:])
    return list(campaigns[:counted]), rest[: len(rest) // 2], rest[len(rest) // 2:]


async def stable_counts(counts: Callable[[], tuple[int, int, int]], timeout: float,
                        quiet: float = 0.5) -> tuple[int, int, int]:
    """The server's (statements, connects, opened) totals once they stop moving (the flush runs every 0.1 s)."""
    deadline = time.monotonic() + timeout
    last = counts()
    while time.monotonic() < deadline:
        await asyncio.sleep(quiet)
        now = counts()
        if now == last:
            return now
        last = now
    raise RuntimeError(f"with the heartbeats paused, the server still ran SQL statements {timeout:.0f}s on (a backlog)")


async def count_sql(chits: Chits, sockets: dict[str, tuple[LiveSocket, LiveSocket]], campaigns: list[BenchCampaign],
                    beats: Beats, counts: Callable[[], tuple[int, int, int]], timeout: float) -> Sql | str:
    """Heartbeats paused: the statements of ``campaigns``' reveals (one at a time), then of one heartbeat from each
    of their sockets; nothing else talks to the server meanwhile. A string says why nothing could be counted (the
    server never went quiet: it was still working through a backlog)."""
    beats.allowed.clear()
    try:
        await asyncio.sleep(1.0)  # heartbeats already sent are answered
        before = await stable_counts(counts, timeout)
        revealed = await reveal_phase(chits, sockets, campaigns, 1, timeout)
        if revealed.failures:
            return "a reveal failed while the statements were counted"
        after_reveals = await stable_counts(counts, timeout)
        beating = [s for c in campaigns for s in sockets[c.public_id] if not s.closed.is_set()]
        for socket in beating:
            await socket.beat()
        after_beats = await stable_counts(counts, timeout)
    except RuntimeError as error:
        return str(error)
    finally:
        beats.allowed.set()
    return Sql(len(campaigns), *(a - b for a, b in zip(after_reveals, before)), len(beating),
               *(a - b for a, b in zip(after_beats, after_reveals)))


def open_count(live: Sequence[LiveSocket]) -> int:
    return sum(1 for s in live if not s.closed.is_set())


async def measure(base_http: str, base_ws: str, campaigns: list[BenchCampaign], opts: Options, server_pid: int,
                  counts: Callable[[], tuple[int, int, int]], workers: int) -> Run:
    """Every live page open (heartbeats on); the first chits; SQL counted; then at concurrency 1 and at
    --concurrency: the echo floor, the group-broadcast floor and the reveals, in that order."""
    origin, timeout = base_http, opts.timeout
    beats = Beats()
    sockets: dict[str, tuple[LiveSocket, LiveSocket]] = {}

    async def open_pair(c: BenchCampaign) -> None:
        pair = (LiveSocket(base_ws + live_ws_path(c), origin, c.first, opts.heartbeat, beats),
                LiveSocket(base_ws + live_ws_path(c), origin, c.second, opts.heartbeat, beats))
        sockets[c.public_id] = pair
        for s in pair:
            await s.open(timeout)

    opening = time.monotonic()
    results = await gather_bounded([lambda c=c: open_pair(c) for c in campaigns], opts.connect_concurrency)
    failures = failures_of(results, "live websocket open")
    print(f"bench: {2 * (len(campaigns) - failures)} live sockets opened in {time.monotonic() - opening:.1f}s "
          f"({failures} campaigns failed to open)", flush=True)
    opened = [c for c, r in zip(campaigns, results) if not isinstance(r, BaseException)]
    live = [s for c in opened for s in sockets[c.public_id]]
    echoes = [EchoClient(base_ws, origin) for _ in range(opts.concurrency)]
    pairs = [BroadcastPair(base_ws, origin) for _ in range(opts.concurrency)]
    chits = Chits(base_http, opts.concurrency, timeout)
    try:
        await settle(live, timeout)  # every page's initial sync and presence updates
        results = await gather_bounded([lambda f=f: f.open(timeout) for f in [*echoes, *pairs]],
                                       opts.connect_concurrency)
        if failures_of(results, "floor websocket open"):
            raise RuntimeError("the floor sockets could not be opened")
        first = await gather_bounded([lambda c=c: chits.submit(c, c.first) for c in opened], opts.concurrency)
        failures += failures_of(first, "first chit")
        ready = [c for c, r in zip(opened, first) if not isinstance(r, BaseException)]
        if len(ready) < 3:
            raise RuntimeError(f"only {len(ready)} campaigns are ready to reveal (see the failures above)")
        await settle(live, timeout)  # the "has chosen" updates are not what we measure
        counted, serial, many = split(ready)
        print(f"bench: {open_count(live)} of {2 * len(campaigns)} live sockets open, first chits in; counting SQL over "
              f"{len(counted)} reveals", flush=True)
        sql = await count_sql(chits, sockets, counted, beats, counts, timeout)
        if isinstance(sql, str):
            print(f"bench: SQL not counted: {sql}", flush=True)
        phases = []
        for level, group in ((1, serial), (opts.concurrency, many)):
            samples = max(opts.floor_samples, len(group))
            live_at_start = open_count(live)
            print(f"bench: at {level}: {samples} echoes, {samples} broadcasts, {len(group)} reveals "
                  f"({open_count(live)} live sockets open)", flush=True)
            echo, _, echo_failures = await floor_phase(echoes, samples, level, timeout, f"echo (at {level})")
            cpu = process_tree_cpu(server_pid)
            broadcast, fired, broadcast_failures = await floor_phase(pairs, samples, level, timeout,
                                                                     f"group broadcast (at {level})")
            cpu_between, bench_before = process_tree_cpu(server_pid), time.process_time()
            reveals = await reveal_phase(chits, sockets, group, level, timeout)
            phases.append(Phase(level, live_at_start, echo, broadcast, fired, reveals, cpu_between - cpu,
                                process_tree_cpu(server_pid) - cpu_between, time.process_time() - bench_before,
                                echo_failures + broadcast_failures + reveals.failures))
    finally:
        await chits.close()
        everything = [*live, *echoes, *pairs]
        await gather_bounded([lambda s=s: s.close() for s in everything], opts.connect_concurrency)
    return Run(workers, len(campaigns), phases, sql, failures)


# ---------------------------------------------------------------------------------------------- report
def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def ratio(a: Sequence[float], b: Sequence[float], p: float) -> str:
    if not a or not b:
        return "n/a"
    value = percentile(a, p) / percentile(b, p)
    return f"{value:.0f}x" if value >= 100 else f"{value:.3g}x"


def report(run: Run) -> None:
    still = " / ".join(str(ph.live_open) for ph in run.phases)
    print(f"\n{run.workers} uvicorn worker(s), {run.campaigns} campaigns, live sockets open at each level: {still} "
          f"(of {2 * run.campaigns}):")
    for ph in run.phases:
        at = f"at {ph.concurrency}"
        print(describe(f"echo round trip {at}", ph.echo))
        print(describe(f"broadcast floor after answer {at}", ph.broadcast))
        print(describe(f"reveal after 2nd response {at}", ph.reveals.from_response))
        print(describe(f"broadcast floor after fire {at}", ph.broadcast_from_fire))
        print(describe(f"reveal after 2nd request {at}", ph.reveals.from_request))
    for ph in run.phases:
        r, b = ph.reveals.from_response, ph.broadcast
        q, f = ph.reveals.from_request, ph.broadcast_from_fire
        print(f"at {ph.concurrency:>2}: reveal/broadcast p99 {ratio(r, b, 99)} (p50 {ratio(r, b, 50)}) from the "
              f"response; p99 {ratio(q, f, 99)} (p50 {ratio(q, f, 50)}) from the request")
    for ph in run.phases:
        r, b = ph.reveals.from_response, ph.broadcast
        print(f"at {ph.concurrency:>2}: "
              f"server CPU per reveal {ms(ph.reveal_cpu / max(1, len(r)))} (per broadcast "
              f"{ms(ph.broadcast_cpu / max(1, len(b)))}), client CPU per reveal {ms(ph.bench_cpu / max(1, len(r)))};  "
              f"{len(r) / ph.reveals.wall if ph.reveals.wall else 0:.1f} reveals/s")
    if isinstance(run.sql, str):
        print(f"SQL per reveal: not counted: {run.sql}")
    else:
        s = run.sql
        beats = max(1, s.heartbeats)
        print(f"SQL per reveal (server, heartbeats paused, {s.reveals} reveals): {s.statements / s.reveals:.1f} "
              f"statements, {s.opened / s.reveals:.1f} connections opened ({s.connections / s.reveals:.1f} of Django's "
              f"connects, from the pool when it is on);  per heartbeat ({s.heartbeats}): "
              f"{s.heartbeat_statements / beats:.1f} statements, {s.heartbeat_opened / beats:.1f} connections opened "
              f"({s.heartbeat_connections / beats:.1f} connects)")
    failed = ", ".join(f"at {ph.concurrency}: {ph.failures}" for ph in run.phases)
    print(f"failures: set-up {run.failures}, {failed or 'no phase ran'}")


def throughput(run: Run) -> float:
    last = run.phases[-1].reveals if run.phases else None
    return len(last.from_response) / last.wall if last and last.wall else 0.0



# ---------------------------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaigns", type=int, default=200,
                        help="concurrent campaigns per run (two players, two live sockets each; default 200)")
    parser.add_argument("--floor-samples", type=int, default=100,
                        help="round trips of each floor at each level (at least as many as that level's reveals; "
                             "default 100)")
    parser.add_argument("--concurrency", type=int, default=20,
                        help="the 'many at once' level: campaigns submitting, floor clients sending (default 20)")
    parser.add_argument("--connect-concurrency", type=int, default=25,
                        help="websockets being opened or closed at the same moment (default 25)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes (default 1)")
    parser.add_argument("--compare-workers", action="store_true",
                        help="run with 1 and then 2 workers and print the ratio of their reveals per second")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for any one step to answer (default 60)")
    parser.add_argument("--heartbeat", type=float, default=25.0,
                        help="seconds between each live socket's heartbeats, as the page sends them (default 25; 0: none)")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/refit"),
                        help="a PostgreSQL URL on this machine; the benchmark uses database <name>_bench on that server")
    parser.add_argument("--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                        help="a Redis URL on this machine; the benchmark uses db 7")
    args = parser.parse_args(argv)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # progress shows in a log file too
    if not 3 <= args.campaigns <= MAX_CAMPAIGNS:
        parser.error(f"--campaigns must be between 3 and {MAX_CAMPAIGNS}")
    if not 1 <= args.floor_samples <= 10000:
        parser.error("--floor-samples must be between 1 and 10000")
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
    if not 1 <= args.concurrency <= min(200, args.campaigns) or not 1 <= args.connect_concurrency <= 2 * args.campaigns:
        parser.error("--concurrency must be 1..min(200, campaigns) and --connect-concurrency 1..2×campaigns")
    opts = Options(args.concurrency, args.connect_concurrency, args.floor_samples, args.timeout, args.heartbeat)
    worker_runs = [1, 2] if args.compare_workers else [args.workers]

    database = bench_database(args.database_url)
    database_url = with_database(args.database_url, database)
    redis_url = with_redis_db(args.redis_url, BENCH_REDIS_DB)
    run = secrets.token_hex(3)
    channel_prefix = f"refit-bench-{run}"  # every key of this run (each server's prefix starts with it)
    port = free_port()
    base_http = f"http://{HOST}:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE"}}
    env.update(
        DATABASE_URL=database_url, REDIS_URL=redis_url, CHANNEL_PREFIX=channel_prefix,
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS=HOST, SITE_URL=base_http,
        CSRF_TRUSTED_ORIGINS=base_http, SESSION_COOKIE_SECURE="0", CSRF_COOKIE_SECURE="0",
        REFIT_PLAIN_HTTP="1",  # plain HTTP on 127.0.0.1: no redirect to https (DEBUG off would otherwise make one)
        REFIT_BENCH_ECHO="1", LOG_LEVEL="WARNING", PYTHONUNBUFFERED="1",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        # collectstatic writes here, not into the work tree a test run may be serving from
        STATIC_ROOT=str(Path(tempfile.gettempdir()) / "refit-bench-static"),
    )

    started = time.monotonic()
    print(f"bench: database {database}, Redis db {BENCH_REDIS_DB} ({channel_prefix}), {args.campaigns} campaigns, "
          f"uvicorn worker(s) {' then '.join(map(str, worker_runs))}, 1 then {opts.concurrency} at once, "
          f"{args.connect_concurrency} connecting at once")
    recreate_database(args.database_url, database)
    manage(env, "migrate", "--noinput")
    manage(env, "load_systems")
    manage(env, "collectstatic", "--noinput")

    django_setup(env)
    t = time.monotonic()
    campaigns = create_campaigns(args.campaigns * len(worker_runs), run)
    print(f"bench: {len(campaigns)} campaigns and {2 * len(campaigns)} sessions created in {time.monotonic() - t:.1f}s")
    from django.db import connections

    connections.close_all()
    log_path = REPO / "test-results" / "bench-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_path.write_bytes(b"")
    runs: list[Run] = []
    try:
        for i, workers in enumerate(worker_runs):
            mine = campaigns[i * args.campaigns:(i + 1) * args.campaigns]
            server_env = {**env, "CHANNEL_PREFIX": f"{channel_prefix}-w{workers}"}
            runs.append(serve_and_measure(server_env, redis_url, workers, port, mine, opts, log_path))
            report(runs[-1])  # each run's figures as soon as they are in
    finally:
        forget_channel_keys(redis_url, channel_prefix)

    print(f"\nbench: finished in {time.monotonic() - started:.1f}s (server log: {log_path.relative_to(REPO)})")
    if len(runs) == 2:
        one, two = throughput(runs[0]), throughput(runs[1])
        print(f"\nreveals per second at {opts.concurrency} at once: 1 worker {one:.1f}/s, 2 workers {two:.1f}/s: "
              f"ratio {two / one if one else 0:.2f}x (this machine: {os.cpu_count()} CPUs, the client shares them)")
    failed = any(r.failures or any(ph.failures for ph in r.phases) or len(r.phases) < 2 for r in runs)
    return 1 if failed else 0


def serve_and_measure(env: dict[str, str], redis_url: str, workers: int, port: int, campaigns: list[BenchCampaign],
                      opts: Options, log_path: Path) -> Run:
    """Start uvicorn with ``workers`` processes, measure, stop it (its channel keys are deleted by the caller)."""
    import redis

    from campaigns_app.live.bench_sql import CONNECTIONS, OPENED, STATEMENTS

    base_http, base_ws = f"http://{HOST}:{port}", f"ws://{HOST}:{port}"
    client = redis.Redis.from_url(redis_url)
    prefix = env["CHANNEL_PREFIX"]

    def counts() -> tuple[int, int, int]:
        values = client.mget([f"{prefix}:{STATEMENTS}", f"{prefix}:{CONNECTIONS}", f"{prefix}:{OPENED}"])
        return int(values[0] or 0), int(values[1] or 0), int(values[2] or 0)

    with log_path.open("ab") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "campaigns_app.asgi:application", "--host", HOST, "--port", str(port),
             "--workers", str(workers), "--no-access-log", "--log-level", "warning",
             "--timeout-graceful-shutdown", "5"],
            cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    try:
        wait_until_answering(server, base_http + "/")
        print(f"bench: {workers} worker(s) answering; opening {2 * len(campaigns)} live sockets")
        return asyncio.run(measure(base_http, base_ws, campaigns, opts, server.pid, counts, workers))
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)
        client.close()


if __name__ == "__main__":
    sys.exit(main())
