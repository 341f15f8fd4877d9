"""Who has a live page open: each open socket's last heartbeat, kept out of the database.

Every live page beats every HEARTBEAT_SECONDS; a socket whose last beat is older than ONLINE_WITHIN is expired (its
page went away without closing: a lost network, a sleeping laptop) and its side is offline unless another of its pages
is fresh. Both live pages count, the campaign page and the notes page, so a player on either is online. A campaign's
entries are one set, keyed by its public id; an entry is ``<side> <socket>`` (``socket_key``: the channel name, after
``notes@`` for a notes page; a channel
name holds no space) with its last beat. With REDIS_URL set it is a Redis sorted set scored by the time of the beat
(shared by every worker process; one pipeline of four commands per beat, run as one MULTI, and the key expires when
every page of the campaign has stopped beating); else, when PRESENCE_FILE is set (the embedded run: SQLite, no Redis),
a small JSON file beside the database, locked while read and written, so ``manage.py send_reminders`` run from cron
in another process sees who has a page open; else a dictionary in this process.

A beat, an open or a close says whether what the pages show changed: the set of online sides, or an expired page was
forgotten (its side may have been shown online since). Only then does the caller write anything (services.presence).
Who is online is public to both seats; an entry holds nothing else.
"""
from __future__ import annotations

import fcntl
import json
import math
import os
import threading
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Protocol

import redis
from django.conf import settings

HEARTBEAT_SECONDS = 25  # static/refit.js sends {"heartbeat": 1} this often
ONLINE_WITHIN_SECONDS = HEARTBEAT_SECONDS * 3  # two lost beats are forgiven
CAMPAIGN_PAGE, NOTES_PAGE = "campaign", "notes"  # the live pages: each counts its side online


def clock() -> float:
    """Seconds since the epoch (a module function so tests can move time on)."""
    return time.time()


def member(side: str, channel_name: str) -> str:
    """A socket's entry: its side and its channel name."""
    return f"{side} {channel_name}"


def side_of(entry: str) -> str:
    return entry.rpartition(" ")[0]


def fresh_sides(entries: Mapping[str, float], at: float, page: str | None = None) -> frozenset[str]:
    """The sides with a page (``page``: of that page only) that beat within ONLINE_WITHIN_SECONDS of ``at``."""
    return frozenset(side_of(entry) for entry, beat in entries.items()
                     if beat >= at - ONLINE_WITHIN_SECONDS and (page is None or page_of(entry) == page))


def socket_key(channel_name: str, page: str = CAMPAIGN_PAGE) -> str:
    """What stands for a socket in its entry: its channel name, after ``<page>@`` for a page other than the campaign
    page ("@" is never in a channel name)."""
    return channel_name if page == CAMPAIGN_PAGE else f"{page}@{channel_name}"


def page_of(entry: str) -> str:
    """The page of an entry's socket (socket_key)."""
    socket = entry.rpartition(" ")[2]
    return socket.partition("@")[0] if "@" in socket else CAMPAIGN_PAGE


def shown_changed(before: Mapping[str, float], entry: str, at: float, *, opened: bool) -> bool:
    """Whether the pages show something else after ``entry`` beat (``opened``) or closed at ``at``, the entries being
    ``before``: an expired page was forgotten (its side may have been shown online since), or the online sides moved."""
    cutoff = at - ONLINE_WITHIN_SECONDS
    if any(beat < cutoff for beat in before.values()):
        return True
    after = {e: beat for e, beat in before.items() if e != entry}
    if opened:
        after[entry] = at
    return fresh_sides(before, at) != fresh_sides(after, at)


class PresenceStore(Protocol):
    def beat(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        """Record the socket's beat (its page opened or is still open); whether what the pages show changed."""

    def close(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        """Forget the socket (its page closed); whether what the pages show changed."""

    def entries(self, public_id: str) -> dict[str, float]:
        """Every socket entry of the campaign with its last beat, expired ones included until a beat forgets them."""


def changed_in(campaigns: dict[str, dict[str, float]], public_id: str, entry: str, at: float, *, opened: bool) -> bool:
    """Apply a beat (``opened``) or a close to ``campaigns`` in place, expired entries dropped; whether what the pages
    show changed."""
    before = campaigns.get(public_id, {})
    after = {e: b for e, b in before.items() if e != entry and b >= at - ONLINE_WITHIN_SECONDS}
    if opened:
        after[entry] = at
    if after:
        campaigns[public_id] = after
    else:
        campaigns.pop(public_id, None)
    return shown_changed(before, entry, at, opened=opened)


class InProcessStore:
    """The entries in this process's memory (the embedded run: one process, the in-memory channel layer)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.campaigns: dict[str, dict[str, float]] = {}

    def beat(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=True)

    def close(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=False)

    def change(self, public_id: str, entry: str, at: float, *, opened: bool) -> bool:
        with self.lock:
            return changed_in(self.campaigns, public_id, entry, at, opened=opened)

    def entries(self, public_id: str) -> dict[str, float]:
        with self.lock:
            return dict(self.campaigns.get(public_id, {}))


class FileStore:
    """The entries in a JSON file shared by the processes of one machine (the embedded run's server and its cron
    commands), read and replaced under an exclusive lock on a file beside it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock_path = path.with_name(path.name + ".lock")

    def beat(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=True)

    def close(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=False)

    def change(self, public_id: str, entry: str, at: float, *, opened: bool) -> bool:
        with self.lock_path.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            campaigns = self.read()
            shown = changed_in(campaigns, public_id, entry, at, opened=opened)
            cutoff = at - ONLINE_WITHIN_SECONDS  # a campaign whose pages all went away is dropped with its last beat
            campaigns = {c: entries for c, entries in campaigns.items() if max(entries.values()) >= cutoff}
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(campaigns), encoding="utf-8")
            os.replace(temporary, self.path)
            return shown

    def entries(self, public_id: str) -> dict[str, float]:
        with self.lock_path.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_SH)
            return dict(self.read().get(public_id, {}))

    def read(self) -> dict[str, dict[str, float]]:
        """Every campaign's entries (none when the file is missing or unreadable: nobody is shown online)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(c): {str(e): float(b) for e, b in entries.items() if isinstance(b, (int, float))}
                for c, entries in data.items() if isinstance(entries, dict)}


class RedisStore:
    """The entries in Redis, shared by every worker: a sorted set per campaign (member: entry, score: last beat)."""

    def __init__(self, url: str, prefix: str) -> None:
        self.client = redis.Redis.from_url(url, socket_timeout=15)
        self.prefix = prefix

    def key(self, public_id: str) -> str:
        return f"{self.prefix}:presence:{public_id}"

    def beat(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=True)

    def close(self, public_id: str, side: str, channel_name: str, at: float) -> bool:
        return self.change(public_id, member(side, channel_name), at, opened=False)

    def change(self, public_id: str, entry: str, at: float, *, opened: bool) -> bool:
        """One MULTI: read the entries, drop the expired ones, add or remove this one, keep the key while it beats."""
        key = self.key(public_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.zrange(key, 0, -1, withscores=True)
        pipe.zremrangebyscore(key, "-inf", f"({at - ONLINE_WITHIN_SECONDS!r}")
        if opened:
            pipe.zadd(key, {entry: at})
            pipe.expire(key, math.ceil(ONLINE_WITHIN_SECONDS * 2))
        else:
            pipe.zrem(key, entry)
        results = pipe.execute()
        return shown_changed(self.decoded(results[0]), entry, at, opened=opened)

    def entries(self, public_id: str) -> dict[str, float]:
        return self.decoded(self.client.zrange(self.key(public_id), 0, -1, withscores=True))

    @staticmethod
    def decoded(rows: object) -> dict[str, float]:
        """The entries of a ZRANGE … WITHSCORES reply (pairs of member bytes and score)."""
        if not isinstance(rows, list):
            raise TypeError(f"a ZRANGE reply is a list, not {type(rows).__name__}")
        return {bytes(entry).decode(): float(beat) for entry, beat in rows}


IN_PROCESS = InProcessStore()


@cache
def redis_store(url: str, prefix: str) -> RedisStore:
    """One client (and its connection pool) per process and URL."""
    return RedisStore(url, prefix)


@cache
def file_store(path: str) -> FileStore:
    return FileStore(Path(path))


def store() -> PresenceStore:
    """Redis when REDIS_URL is set (every worker shares it), else the PRESENCE_FILE shared by this machine's
    processes, else this process's memory."""
    url = str(settings.REDIS_URL)
    if url:
        return redis_store(url, str(settings.REDIS_PREFIX))
    path = str(getattr(settings, "PRESENCE_FILE", "") or "")
    return file_store(path) if path else IN_PROCESS


def online(public_id: str, at: float | None = None) -> frozenset[str]:
    """The sides of the campaign with a live page open (a fresh beat)."""
    return fresh_sides(store().entries(public_id), clock() if at is None else at)


def opened(public_id: str) -> tuple[frozenset[str], frozenset[str]]:
    """The sides with a live page open, and those of them with a notes page open (one read of the store)."""
    entries, at = store().entries(public_id), clock()
    return fresh_sides(entries, at), fresh_sides(entries, at, NOTES_PAGE)
