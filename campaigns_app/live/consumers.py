"""The live pages' websockets: the campaign page's (/ws/campaigns/<public id>/) and the notes page's (…/notes/, the
same socket sending only the notes page's fragments: NotesConsumer); both keep the seat online.

Only a seated player is accepted; the socket joins its own side's group only. On connect and on "resync" it reads its
seat's view from the database (campaigns_app.live.pages.published) and sends the fragments that changed since its
last frame as htmx out-of-band swaps, each stamped with the view's version.

After a write, the seat's group gets a frame (campaigns_app.live.notifications): the seat's new version, the version
before and the fragments that changed, rendered once in the writing transaction from the seat's own side's view. A
socket that last sent exactly the version before sends those fragments on, stamped, without touching the database; one
that already sent that version (a resync read it) ignores it; any other (it missed a frame) resyncs from the
database. The channel layer is never the source of truth, so a reconnect after a dropped connection or a server
restart resyncs the page completely.

The page also swaps fragments from the htmx responses to its own actions, so what it holds is not always what this
socket last sent; after such a swap it sends "resync" and the socket sends every fragment again (the page keeps those
it already has at that version: static/refit.js).

A message that is not one of these is ignored; an error while handling one closes the socket with a close frame and
clears its presence (``dispatch``).
"""
from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from campaigns_app import services
from campaigns_app.fresh_stack import fresh
from campaigns_app.live import fragments, presence_store
from campaigns_app.live import pages as live
from campaigns_app.live.notifications import group_name

MAX_MESSAGE = 4096
CLOSE_ERROR = 1011  # RFC 6455: the server met a condition that kept it from going on (the page reconnects)
logger = logging.getLogger(__name__)


class CampaignConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    page = presence_store.CAMPAIGN_PAGE  # the live page this socket serves: the fragments it sends (fragments.SHOWN)
    group: str | None = None
    seat_id: int | None = None
    side = ""
    version: int | None = None  # the seat's version this socket last sent (None: nothing yet)

    async def connect(self) -> None:
        self.public_id = str(self.scope["url_route"]["kwargs"]["public_id"])
        self.user = self.scope.get("user")
        self.sent: dict[str, str] = {}
        self.version = None
        self.shown = fragments.SHOWN[self.page]
        self.socket = presence_store.socket_key(self.channel_name, self.page)  # its presence entry
        if self.user is None or not self.user.is_authenticated:
            await self.close()
            return
        seat = await database_sync_to_async(fresh(services.presence_open))(
            public_id=self.public_id, user=self.user, channel_name=self.socket
        )
        if seat is None:
            await self.close()
            return
        self.seat_id, self.side = seat.pk, seat.side
        self.group = group_name(self.public_id, seat.side)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.push()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Every message through its handler; whatever goes wrong there, the socket leaves its group, its presence is
        cleared and it is closed with a close frame (never dropped), so the opponent sees it offline at once."""
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception:
            logger.exception("campaign websocket: closing after an error in %s", message.get("type"))
            await self.leave()
            await self.close(code=CLOSE_ERROR)

    async def disconnect(self, code: int) -> None:
        await self.leave()

    async def leave(self) -> None:
        """Leave the side's group and clear this socket's presence (once, however the socket ends)."""
        group, self.group = self.group, None
        if group is None:
            return
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            assert self.seat_id is not None  # set with the group, in connect
            await database_sync_to_async(fresh(services.presence_close))(
                public_id=self.public_id, seat_id=self.seat_id, side=self.side, channel_name=self.socket)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page's messages: its heartbeat (every 25 s: keep the seat online; no database write, and nothing is pushed
        unless presence changed — then the group refresh pushes) and "resync"."""
        if self.group is None or text_data is None or len(text_data) > MAX_MESSAGE:
            return
        try:
            message: Any = json.loads(text_data)
        except (ValueError, RecursionError):  # not JSON, or nested too deep ("[" × 2000): ignored
            return
        if not isinstance(message, dict):
            return
        if "heartbeat" in message:
            await database_sync_to_async(fresh(services.presence_beat))(
                public_id=self.public_id, side=self.side, channel_name=self.socket)
        elif "resync" in message:
            self.sent = {}
            await self.push()

    async def campaign_refresh(self, event: dict[str, Any]) -> None:
        """Group message of an earlier release (a worker not yet restarted): read the view from the database."""
        await self.push()

    async def campaign_frame(self, event: dict[str, Any]) -> None:
        """Group message: the seat's view moved from ``previous`` to ``version``; ``fragments``: those that changed.
        Sent on as they are when this socket holds ``previous``; ignored when it already sent ``version``; otherwise
        (a missed frame, or nothing sent yet) the socket resyncs from the database."""
        version, previous, changed = event.get("version"), event.get("previous"), event.get("fragments")
        if not isinstance(version, int) or not isinstance(changed, dict):
            return
        if self.version is not None and self.version >= version:
            return
        if self.version is None or self.version != previous:
            await self.push()
            return
        ids = [fragment_id for fragment_id in self.shown if isinstance(changed.get(fragment_id), str)]
        self.sent.update((fragment_id, changed[fragment_id]) for fragment_id in ids)
        self.version = version
        if ids:
            await self.send(text_data="".join(live.stamp(changed[fragment_id], version) for fragment_id in ids))

    async def push(self) -> None:
        """Send the fragments that differ from what this socket last sent, stamped with the view's version (read from
        the database)."""
        view = await database_sync_to_async(fresh(live.published))(self.seat_id,
                                                                  self.page == presence_store.NOTES_PAGE)
        if view is None:
            await self.close()
            return
        changed = [fragment_id for fragment_id in self.shown
                   if fragment_id in view.fragments and self.sent.get(fragment_id) != view.fragments[fragment_id]]
        self.version = view.version
        if changed:
            self.sent = dict(view.fragments)
            await self.send(text_data="".join(view.stamped(fragment_id) for fragment_id in changed))


class NotesConsumer(CampaignConsumer):
    """The notes page's socket (/ws/campaigns/<public id>/notes/): the same seat, group, presence and versions as the
    campaign page's; it sends only the notes page's fragments (its seat's view holds them while it is open)."""

    page = presence_store.NOTES_PAGE


class RefusedSocket(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A websocket to a path Refit does not serve: the handshake is refused (HTTP 403), never answered with a 500."""

    async def connect(self) -> None:
        await self.close()
