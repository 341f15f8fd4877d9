"""The client side of bench/reveal_latency.py: live-page sockets, the two floors, the reveal, timed from outside.

Everything here talks to the server only over HTTP and websockets on 127.0.0.1; every wait is bounded.
"""
from __future__ import annotations

import asyncio
import http.cookiejar
import random
import secrets
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field

ECHO_PATH = "/ws/bench/echo/"
BROADCAST_PATH = "/ws/bench/broadcast/{key}/"
# RR 2.522: Canadian Attack × German Idle = Canadian Assault (no dice involved).
CHITS = {"canadian": "attack", "german": "idle"}


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


def live_ws_path(campaign: BenchCampaign) -> str:
    return f"/ws/campaigns/{campaign.public_id}/"


def chit_post(campaign: BenchCampaign, player: Player) -> tuple[str, dict[str, str]]:
    """The confirm step's final POST, as the live page's htmx form sends it."""
    return (f"/campaigns/{campaign.public_id}/chit/submit/",
            {"side": player.side, "chit": CHITS[player.side], "confirmed": "yes"})


def is_reveal_frame(text: str) -> bool:
    return 'id="chit-reveal"' in text


async def connect_ws(url: str, origin: str, timeout: float, cookie: str | None = None) -> object:
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie} if cookie else None
    return await connect(url, origin=origin, additional_headers=headers, proxy=None,  # type: ignore[arg-type]
                         open_timeout=timeout, close_timeout=timeout, compression=None, max_size=2**22,
                         max_queue=None)


class Beats:
    """The live pages' heartbeats: on unless paused (while SQL statements are counted), and how many were sent."""

    def __init__(self) -> None:
        self.allowed = asyncio.Event()
        self.allowed.set()
        self.sent = 0


class LiveSocket:
    """One live-page websocket; timestamps every frame, flags the first reveal frame, and sends the page's heartbeat
    every ``heartbeat`` seconds (static/refit.js: 25), from a random moment on, as pages opened at different times."""

    def __init__(self, url: str, origin: str, player: Player, heartbeat: float, beats: Beats) -> None:
        self.url, self.origin, self.player, self.heartbeat, self.beats = url, origin, player, heartbeat, beats
        self.revealed = asyncio.Event()
        self.revealed_at = 0.0
        self.closed = asyncio.Event()
        self.why_closed = ""
        self.frames = 0
        self.last = ""
        self.connection: object = None
        self.reader: asyncio.Task[None] | None = None
        self.beater: asyncio.Task[None] | None = None

    async def open(self, timeout: float) -> None:
        self.connection = await connect_ws(self.url, self.origin, timeout, self.player.cookie_header())
        self.reader = asyncio.create_task(self._read())
        if self.heartbeat > 0:
            self.beater = asyncio.create_task(self._beat())

    async def beat(self) -> None:
        await self.connection.send('{"heartbeat": 1}')  # type: ignore[attr-defined]
        self.beats.sent += 1

    async def _beat(self) -> None:
        from websockets.exceptions import ConnectionClosed

        await asyncio.sleep(random.uniform(0, self.heartbeat))
        try:
            while True:
                await self.beats.allowed.wait()
                await self.beat()
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
                self.last = text
                if not self.revealed.is_set() and is_reveal_frame(text):
                    self.revealed_at = now
                    self.revealed.set()
        except ConnectionClosed as closed:
            self.why_closed = str(closed)
        finally:
            self.closed.set()

    async def reveal_or_close(self) -> None:
        """Wait until this socket holds the reveal; RuntimeError at once if it is closed before."""
        revealed, closed = asyncio.ensure_future(self.revealed.wait()), asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait([revealed, closed], return_when=asyncio.FIRST_COMPLETED)
        finally:
            revealed.cancel()
            closed.cancel()
        if not self.revealed.is_set():
            raise RuntimeError(f"the {self.player.side} socket closed before the reveal: {self.why_closed or 'closed'}")

    def state(self) -> str:
        return (f"{'revealed' if self.revealed.is_set() else 'not revealed'} after {self.frames} frames, "
                f"{'closed (' + self.why_closed + ')' if self.closed.is_set() else 'open'}, last {self.last[:200]!r}")

    async def close(self) -> None:
        if self.beater is not None:
            self.beater.cancel()
        if self.connection is not None:
            await self.connection.close()  # type: ignore[attr-defined]
        if self.reader is not None:
            self.reader.cancel()


async def settle(sockets: Iterable[LiveSocket], timeout: float, quiet: float = 1.0) -> None:
    """Wait until no socket has received a frame for ``quiet`` seconds (at most ``timeout``)."""
    everyone = list(sockets)
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


def failures_of(results: Sequence[object], what: str) -> int:
    """How many results are exceptions; the first is printed."""
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        print(f"  {what} failure ({len(failed)}): {failed[0]!r}", file=sys.stderr)
    return len(failed)


# ---------------------------------------------------------------------------------------------- the floors
class EchoClient:
    """A bare websocket echo round trip (no channel layer, no database)."""

    def __init__(self, base_ws: str, origin: str) -> None:
        self.url, self.origin = base_ws + ECHO_PATH, origin
        self.ws: object = None

    async def open(self, timeout: float) -> None:
        self.ws = await connect_ws(self.url, self.origin, timeout)

    async def sample(self, timeout: float) -> tuple[float, float]:
        """The round trip (twice: there is no answer apart from the echo itself)."""
        payload = f"echo {secrets.token_hex(8)}"
        start = time.perf_counter()
        await self.ws.send(payload)  # type: ignore[attr-defined]
        reply = await asyncio.wait_for(self.ws.recv(), timeout)  # type: ignore[attr-defined]
        elapsed = time.perf_counter() - start
        if reply != payload:
            raise RuntimeError(f"echo returned {reply!r} for {payload!r}")
        return elapsed, elapsed

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()  # type: ignore[attr-defined]


class BroadcastPair:
    """Two sockets in one channel-layer group; a sample: socket a fires, the server group_sends to both and answers a;
    the time from that answer (the trigger's response) to both sockets holding the token, and from the fire."""

    def __init__(self, base_ws: str, origin: str) -> None:
        self.url = base_ws + BROADCAST_PATH.format(key=secrets.token_hex(8))
        self.origin = origin
        self.a: object = None
        self.b: object = None

    async def open(self, timeout: float) -> None:
        self.a = await connect_ws(self.url, self.origin, timeout)
        self.b = await connect_ws(self.url, self.origin, timeout)

    async def sample(self, timeout: float) -> tuple[float, float]:
        token = secrets.token_hex(8)

        async def read_a() -> tuple[float, float]:
            answered = arrived = 0.0
            while not (answered and arrived):
                frame = await self.a.recv()  # type: ignore[attr-defined]
                now = time.perf_counter()
                if frame == f"fired {token}":
                    answered = now
                elif frame == token:
                    arrived = now
            return answered, arrived

        async def read_b() -> float:
            while await self.b.recv() != token:  # type: ignore[attr-defined]
                pass
            return time.perf_counter()

        fired = time.perf_counter()
        await self.a.send(f"fire {token}")  # type: ignore[attr-defined]
        (answered, at_a), at_b = await asyncio.wait_for(asyncio.gather(read_a(), read_b()), timeout)
        return max(at_a, at_b) - answered, max(at_a, at_b) - fired

    async def close(self) -> None:
        for ws in (self.a, self.b):
            if ws is not None:
                await ws.close()  # type: ignore[attr-defined]


async def floor_phase(clients: Sequence[EchoClient | BroadcastPair], samples: int, concurrency: int,
                      timeout: float, what: str) -> tuple[list[float], list[float], int]:
    """``samples`` round trips, ``concurrency`` clients at once, each making its share one after the other: the times
    from the server's answer and from the client's send."""
    values: list[tuple[float, float]] = []
    users = clients[:concurrency]

    async def run(client: EchoClient | BroadcastPair, rounds: int) -> None:
        for _ in range(rounds):
            values.append(await client.sample(timeout))

    shares = [samples // len(users) + (1 if i < samples % len(users) else 0) for i in range(len(users))]
    results = await asyncio.gather(*(run(c, n) for c, n in zip(users, shares)), return_exceptions=True)
    return [v[0] for v in values], [v[1] for v in values], failures_of(results, what)


# ---------------------------------------------------------------------------------------------- the reveal
class Chits:
    """Chit submissions over HTTP, as the htmx form posts them (CSRF cookie + header); the client stores no cookie."""

    def __init__(self, base_http: str, concurrency: int, timeout: float) -> None:
        import httpx

        self.origin = base_http
        limits = httpx.Limits(max_connections=concurrency * 2, max_keepalive_connections=concurrency * 2)
        no_cookies = http.cookiejar.CookieJar(policy=http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        self.client = httpx.AsyncClient(base_url=base_http, timeout=timeout, trust_env=False, limits=limits,
                                        cookies=no_cookies)

    async def submit(self, c: BenchCampaign, player: Player) -> float:
        path, data = chit_post(c, player)
        headers = {"Cookie": player.cookie_header(), "X-CSRFToken": player.csrf, "Origin": self.origin,
                   "Referer": f"{self.origin}/campaigns/{c.public_id}/", "HX-Request": "true"}
        response = await self.client.post(path, data={**data, "csrfmiddlewaretoken": player.csrf}, headers=headers)
        if response.status_code != 200:  # the htmx form gets the panel back; a redirect is a refusal (log-in, …)
            raise RuntimeError(f"chit POST {path} → {response.status_code} {response.headers.get('location', '')}: "
                               f"{response.text[:300]!r}")
        return time.perf_counter()

    async def close(self) -> None:
        await self.client.aclose()


@dataclass
class Reveals:
    from_response: list[float] = field(default_factory=list)
    from_request: list[float] = field(default_factory=list)
    failures: int = 0
    wall: float = 0.0  # seconds from the first second submit to the last reveal


async def reveal_phase(chits: Chits, sockets: dict[str, tuple[LiveSocket, LiveSocket]],
                       campaigns: Sequence[BenchCampaign], concurrency: int, timeout: float) -> Reveals:
    """The second chit of each campaign, ``concurrency`` at a time; latency: both sockets' reveal frames − the second
    submit's HTTP response (and − its request)."""
    out = Reveals()

    async def second(c: BenchCampaign) -> None:
        a, b = sockets[c.public_id]
        sent = time.perf_counter()
        answered = await chits.submit(c, c.second)
        try:
            await asyncio.wait_for(asyncio.gather(a.reveal_or_close(), b.reveal_or_close()), timeout)
        except TimeoutError:
            raise RuntimeError(f"no reveal within {timeout:.0f}s: {c.first.side} socket {a.state()}, "
                               f"{c.second.side} socket {b.state()}") from None
        both = max(a.revealed_at, b.revealed_at)
        out.from_response.append(both - answered)
        out.from_request.append(both - sent)

    start = time.perf_counter()
    results = await gather_bounded([lambda c=c: second(c) for c in campaigns], concurrency)
    out.wall = time.perf_counter() - start
    out.failures = failures_of(results, f"reveal (at {concurrency})")
    return out
