"""The live page's published views: each seat's fragments rendered once per change, with a version.

A page gets its live fragments two ways — the htmx response to its player's own action and websocket frames after
anyone's — and they can arrive out of order: a response rendered before the opponent's change commits can land after
the frame that carried that change. So every fragment carries ``data-live-version``, the version of its seat's view it
was rendered from, and static/refit.js never lets an older fragment replace a newer one; a frame's fragment whose
content is unchanged (only the seat's version moved, with another fragment) is not swapped either, so what a player is
typing there, its focus and its scroll stay.

A version belongs to one seat and moves only when that seat's rendering changes (a new digest of its fragments). The
campaign's ``revision`` moves with every write, the opponent's secret purchases and rolls included; it is never shown.
When it moves, the seat's view is rendered again, byte-identical after a secret action of the opponent, so its version
stays: a version tells a player nothing its page does not.

A write publishes in its own transaction, under the campaign's row lock (``publish``): it moves the revision, renders
both seats' fragments once from the rows the service holds, stores each seat's rendering (LiveView) and returns, for
each seat whose version moved, a ``Frame``: its new version, the version before and only the fragments that changed.
After commit the frame goes to that seat's own channel group (campaigns_app.live.notifications), and a socket that last
sent exactly the version before sends it on without reading the database (campaigns_app.live.consumers). A socket that
missed a frame, a new socket and a reconnecting page read ``published``: the stored rendering at the current revision
(rendered then, under the lock, only when a write moved the revision without publishing). A write that can change one
input alone (who is online, a message: ``publish(changed=…)``) renders only the fragments that read it when the seat's
stored view is the one made just before, and keeps the others as stored: the same bytes a whole rendering gives.
Each worker also keeps the renderings it last read or made, so the htmx response to a player's own action reuses the
one its write published.
Versions are given under the campaign's row lock, so they follow the order of the writes. Renders that add something
for one response (an error, a notice, a confirmation) or need the request (the whole page, with CSRF fields for forms
posted without JavaScript) are made under the same lock, so their version is exact too.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction

from campaigns_app.engine import System
from campaigns_app.live import fragments, presence_store
from campaigns_app.models import Campaign, LiveView, Seat
from campaigns_app.notes.live import NOTES_FRAGMENTS, notes_fragments
from campaigns_app.phase import live_page
from campaigns_app.prepared import Prepared, PreparedUpdate

# Rendered into data-live-version in the stored fragments; stamp() puts the number in when a fragment is sent.
VERSION_MARK = "%live-version%"

T = TypeVar("T")
REMEMBERED = 4096  # seats whose latest rendering this worker keeps


@dataclass(frozen=True)
class Published:
    """A seat's live fragments at ``version`` (HTML with the version mark; ``stamped`` fills it in)."""

    version: int
    fragments: dict[str, str]

    def stamped(self, fragment_id: str) -> str:
        return stamp(self.fragments[fragment_id], self.version)


@dataclass(frozen=True)
class Frame:
    """What one seat's sockets are sent after a write: its view went from version ``previous`` (0: none stored yet) to
    ``version``; ``fragments``: only those that changed (HTML with the version mark), in FRAGMENTS order."""

    side: str
    version: int
    previous: int
    fragments: dict[str, str]


def stamp(html: str, version: int) -> str:
    """The fragment with its version in ``data-live-version``."""
    return html.replace(VERSION_MARK, str(version))


def touch(campaign_id: int) -> None:
    """Something a live page shows has changed (call inside the writing transaction; the pages re-render)."""
    TOUCH.run(campaign_id)


TOUCH = PreparedUpdate(Campaign, add_one=("revision",))  # revision = revision + 1 (written once, not per write)


@cache
def code_epoch() -> str:
    """A digest of everything a rendering depends on besides the data: templates and the Python that builds them.
    After a deploy that changes them, the stored renderings are made again (and versions move if the HTML did)."""
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for folder, pattern in (("templates", "*.html"), ("campaigns_app", "*.py"), ("rules_engine", "*.py")):
        for path in sorted((base / folder).rglob(pattern)):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _epoch_of(system_sha256: str, card_sha256: str) -> str:
    return hashlib.sha256("|".join((code_epoch(), system_sha256, card_sha256)).encode()).hexdigest()[:16]


class _Remembered:
    """The renderings this worker last read or made, by seat: (revision, epoch, version) → Published."""

    def __init__(self) -> None:
        self._items: OrderedDict[int, tuple[tuple[int, str, int], Published]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, seat_id: int, key: tuple[int, str, int]) -> Published | None:
        with self._lock:
            found = self._items.get(seat_id)
            if found is None or found[0] != key:
                return None
            self._items.move_to_end(seat_id)
            return found[1]

    def put(self, seat_id: int, key: tuple[int, str, int], view: Published) -> None:
        with self._lock:
            self._items[seat_id] = (key, view)
            self._items.move_to_end(seat_id)
            while len(self._items) > REMEMBERED:
                self._items.popitem(last=False)

    def at(self, seat_id: int, revision: int, epoch: str) -> Published | None:
        """The seat's rendering at ``revision`` and ``epoch``, whatever its version."""
        with self._lock:
            found = self._items.get(seat_id)
            if found is None or found[0][:2] != (revision, epoch):
                return None
            return found[1]


_remembered = _Remembered()

# the reads of the live pages' sockets, pages and publishing (campaigns_app.prepared: compiled once)
CURRENT = Prepared(lambda seat_id: LiveView.objects.filter(seat_id=seat_id).values_list(
    "revision", "epoch", "version", "seat__campaign__revision", "seat__campaign__system__sha256",
    "seat__campaign__card_sha256").order_by("pk")[:1], int)
STORED_AT = Prepared(lambda seat_id, revision, epoch, version: LiveView.objects.filter(
    seat_id=seat_id, revision=revision, epoch=epoch, version=version).values_list("fragments", flat=True)
    .order_by("pk")[:1], int, int, str, int)
STORED_STAMP = Prepared(lambda seat_id: LiveView.objects.filter(seat_id=seat_id).only(
    "revision", "epoch", "version", "digest").order_by("pk")[:1], int)
SEAT = Prepared(lambda seat_id: Seat.objects.filter(pk=seat_id).select_related("user")[:1], int)
LOCKED = Prepared(lambda campaign_id: Campaign.objects.select_for_update(of=("self",)).filter(pk=campaign_id)
                  .values_list("revision", "system__sha256", "card_sha256", "public_id"), int)
STORED_VIEWS = Prepared(lambda campaign_id: LiveView.objects.filter(seat__campaign_id=campaign_id), int)


def published_at(seat_id: int, campaign: Campaign) -> Published | None:
    """The seat's rendering at the revision a write left ``campaign`` at (read under its row lock, with its system
    row), when this worker holds it — the write published it and committed: the htmx answer to the write reuses it
    without a query. None otherwise (``published`` reads it). A newer write's frame outranks it on the page (its
    version)."""
    return _remembered.at(seat_id, campaign.revision, _epoch_of(campaign.system.sha256, campaign.card_sha256))


def published(seat_id: int, notes: bool = False) -> Published | None:
    """The seat's live fragments at the campaign's current revision (rendered now if nobody has yet; ``notes``: with
    the notes page's, for a notes page's socket); None when the seat no longer exists."""
    current = CURRENT.first(seat_id)
    if current is not None:
        revision, epoch, version, campaign_revision, system_sha256, card_sha256 = current
        if revision == campaign_revision and epoch == _epoch_of(system_sha256, card_sha256):
            view = _read(seat_id, revision, epoch, version)
            if view is not None and (not notes or _has_notes(view)):
                return view
    with transaction.atomic():
        locked = _lock(seat_id)
        return None if locked is None else _publish(*locked, notes=notes)


def _has_notes(view: Published) -> bool:
    return all(fragment_id in view.fragments for fragment_id in NOTES_FRAGMENTS)


def _read(seat_id: int, revision: int, epoch: str, version: int) -> Published | None:
    """The stored rendering (from this worker's memory when it has it)."""
    key = (revision, epoch, version)
    view = _remembered.get(seat_id, key)
    if view is None:
        rendered = STORED_AT.first(seat_id, revision, epoch, version)
        if rendered is not None:
            view = made = Published(version, rendered)
            # remembered once committed (at once outside a transaction): a view read inside a transaction that
            # published it and then rolls back must not be served to the next reader of the same revision
            transaction.on_commit(lambda: _remembered.put(seat_id, key, made))
    return view


@contextmanager
def snapshot(seat: Seat, notes: bool = False) -> Iterator[int]:
    """Hold the campaign still (row lock) while the caller renders the seat's page or fragments (``notes``: its notes
    page); yields the version to put in them (publishing first if the revision moved)."""
    with transaction.atomic():
        locked = _lock(seat.pk)
        if locked is None:
            raise Seat.DoesNotExist(f"seat {seat.pk}")
        yield _publish(*locked, notes=notes).version


def render(seat: Seat, draw: Callable[[dict[str, Any]], T], **extra: Any) -> T:
    """``draw(context)`` with the seat's live context (plus ``extra``) and its exact version, under the row lock."""
    with snapshot(seat) as version:
        context = live_page.live_context(seat)
        context.update(extra)
        context["live_version"] = version
        return draw(context)


def _lock(seat_id: int) -> tuple[Seat, int, str, str] | None:
    """The seat, and its campaign's revision, epoch and public id, with the campaign row locked (None: no such
    seat)."""
    seat = SEAT.first(seat_id)
    if seat is None:
        return None
    revision, system_sha256, card_sha256, public_id = LOCKED.rows(seat.campaign_id)[0]
    return seat, revision, _epoch_of(system_sha256, card_sha256), public_id


def publish(campaign: Campaign, system: System, seats: list[Seat], moved: bool = False,
            changed: Collection[str] | None = None) -> list[Frame]:
    """Inside the writing transaction, ``campaign`` read under its row lock (with its system row), ``seats`` its seats
    (with their users): move the revision (``moved``: the caller's own UPDATE already did, ``campaign.revision``
    is the new one), render the fragments of every seat with a page open (presence_store; the others are rendered when
    read) once from these rows, store them (one write for the stored views); the frames of the seats whose page
    changed (a secret action of the opponent leaves the other seat's version and bytes alone: no frame).
    ``changed``: the only fragments this write can change (fragments.PRESENCE, fragments.MESSAGE; None: any)."""
    if not moved:
        touch(campaign.pk)
        campaign.revision += 1  # as the UPDATE left it: the row is locked, nobody else moved it
    online, noting = presence_store.opened(campaign.public_id)
    watched = [seat for seat in seats if seat.side in online]
    if not watched:  # nobody has a page open: each seat's view is rendered when a page or response reads it
        return []
    epoch = _epoch_of(campaign.system.sha256, campaign.card_sha256)
    stored = {view.seat_id: view for view in STORED_VIEWS.rows(campaign.pk)}
    kept = {seat.pk: _kept(stored.get(seat.pk), campaign.revision, epoch) for seat in watched}
    # the rows only some fragments read are read when a seat renders every fragment or a scoped one reads them
    whole = all(_whole(fragments_kept) for fragments_kept in kept.values())
    common = live_page.shared(campaign, system, seats, online, only=changed if whole else None)
    frames = []
    updated: list[LiveView] = []
    for seat in watched:
        view = stored.get(seat.pk)
        before, previous = (view.fragments, view.version) if view is not None else ({}, 0)
        rendered = _rendering(seat, kept[seat.pk], common, changed)
        if seat.side in noting:  # a notes page of the seat is open: its fragments too (else no work for them)
            rendered.update(notes_fragments(seat, live_version=VERSION_MARK))
        made = _store(seat, view, campaign.revision, epoch, rendered, save=view is None)
        if view is not None:
            updated.append(view)
        if made.version != previous:
            frames.append(Frame(seat.side, made.version, previous,
                                {key: html for key, html in rendered.items() if before.get(key) != html}))
    if updated:
        _update_all(updated)
    return frames


def _kept(view: LiveView | None, revision: int, epoch: str) -> dict[str, str]:
    """The stored fragments a write at ``revision`` may keep: the stored ``view``'s when it is the one made just before
    this write (the revision before, the same code, system and card); else none."""
    return view.fragments if view is not None and (view.revision, view.epoch) == (revision - 1, epoch) else {}


def _whole(kept: dict[str, str]) -> bool:
    """Whether ``kept`` holds every live fragment (a scoped write can keep the ones it does not change)."""
    return all(fragment_id in kept for fragment_id in fragments.FRAGMENTS)


def _rendering(seat: Seat, kept: dict[str, str], common: live_page.Shared,
               changed: Collection[str] | None) -> dict[str, str]:
    """The seat's live fragments: when the write can change only ``changed`` and the seat's stored view (``kept``) is
    whole, those are rendered and the others kept as stored; otherwise every one is rendered. Either way the same
    bytes: the kept fragments read nothing the write changed (fragments.PRESENCE, fragments.MESSAGE)."""
    if changed is None or not _whole(kept):
        return fragments.live_fragments(seat, common, live_version=VERSION_MARK)
    fresh = fragments.live_fragments(seat, common, only=changed, live_version=VERSION_MARK)
    return {fragment_id: fresh[fragment_id] if fragment_id in fresh else kept[fragment_id]
            for fragment_id in fragments.FRAGMENTS}


STORED = ("revision", "epoch", "version", "digest", "fragments")  # LiveView's columns a publish writes


def _update_all(views: list[LiveView]) -> None:
    """Write the stored views of one publish in one UPDATE (a CASE on the id per column): what ``bulk_update`` would
    write, without building its expressions — which cost more CPU than rendering a seat's fragments."""
    ops = connection.ops
    columns: list[str] = []
    params: list[Any] = []
    for name in STORED:
        columns.append(f"{ops.quote_name(name)} = CASE {ops.quote_name('id')} "
                       f"{' '.join('WHEN %s THEN %s' for _ in views)} END")
        for view in views:
            value = getattr(view, name)
            params += [view.pk, ops.adapt_json_value(value, None) if name == "fragments" else value]
    params += [view.pk for view in views]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {ops.quote_name(LiveView._meta.db_table)} SET {', '.join(columns)} "
                       f"WHERE {ops.quote_name('id')} IN ({', '.join('%s' for _ in views)})", params)


def _publish(seat: Seat, revision: int, epoch: str, public_id: str, notes: bool = False) -> Published:
    """Under the campaign row lock: render the seat's fragments if the revision (or the code) moved, or the notes
    page's are asked for (``notes``) and missing; with the notes page's when asked for or a notes page of the seat is
    open (as ``publish`` does); a new version only if the rendering differs from the last one."""
    view = STORED_STAMP.first(seat.pk)
    if view is not None and view.revision == revision and view.epoch == epoch:
        found = _read(seat.pk, revision, epoch, view.version)
        if found is not None and (not notes or _has_notes(found)):
            return found
    rendered = fragments.live_fragments(seat, live_version=VERSION_MARK)
    if notes or seat.side in presence_store.opened(public_id)[1]:
        rendered.update(notes_fragments(seat, live_version=VERSION_MARK))
    return _store(seat, view, revision, epoch, rendered)


def _store(seat: Seat, view: LiveView | None, revision: int, epoch: str, rendered: dict[str, str],
           save: bool = True) -> Published:
    """Under the campaign row lock: store the seat's rendering at ``revision`` (``view``: the stored one; ``save``
    False: the caller writes it); its version moves only when the digest does. This worker remembers it once
    committed."""
    digest = hashlib.sha256(json.dumps(rendered, sort_keys=True).encode()).hexdigest()
    if view is None:
        view = LiveView(seat=seat, version=1)
    elif view.digest != digest:
        view.version += 1
    view.revision, view.epoch, view.digest, view.fragments = revision, epoch, digest, rendered
    if save:
        view.save()
    made = Published(view.version, rendered)
    key = (revision, epoch, view.version)
    seat_id = seat.pk
    transaction.on_commit(lambda: _remembered.put(seat_id, key, made))
    return made
