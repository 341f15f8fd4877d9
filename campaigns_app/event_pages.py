"""Pages of the event log a side may see (the history, the dice log): rules_engine.event_sight's ``Sight`` applied in
the query, before paging, so a page reads only its own events and neither the page count nor a page's bounds depend on
an event the side may not see. A page number is a whole number from 1 to the last page; anything else is refused."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet

from campaigns_app.models import Campaign, EventRecord
from rules_engine.event_sight import HIDING_KEY, Sight

PAGE_SIZE = 50  # events (history lines, rolls) on one page
PAGE_DIGITS = 9  # a longer page number is refused before it is read as a number


class PageError(ValueError):
    """A page number that is no page: the message says which numbers are allowed."""


@dataclass(frozen=True)
class Page:
    """One page of ``pages`` (1 = the oldest), ``size`` entries each; the entries are ``[start, stop)`` in order."""

    number: int
    pages: int
    size: int

    @property
    def start(self) -> int:
        return (self.number - 1) * self.size

    @property
    def stop(self) -> int:
        return self.number * self.size

    @property
    def older(self) -> int | None:
        """The page before this one (older entries), if any."""
        return self.number - 1 if self.number > 1 else None

    @property
    def newer(self) -> int | None:
        """The page after this one (newer entries), if any."""
        return self.number + 1 if self.number < self.pages else None


def page_of(asked: str | None, total: int, size: int) -> Page:
    """Page ``asked`` of ``total`` entries (no ``asked``: the last page, the newest entries, which a player opening the
    list looks for); PageError for anything but a whole number from 1 to the last page."""
    pages = max(1, -(-total // size))
    if asked is None:
        return Page(pages, pages, size)
    text = asked.strip()
    allowed = f"a page is a whole number from 1 to {pages}" if pages > 1 else "there is only page 1"
    if not (text.isascii() and text.isdigit()) or len(text) > PAGE_DIGITS or not 1 <= int(text) <= pages:
        raise PageError(f"No page {asked[:20]!r}: {allowed}.")
    return Page(int(text), pages, size)


def visible_records(campaign: Campaign, sight: Sight) -> QuerySet[EventRecord]:
    """The campaign's events ``sight`` sees (unordered): rules_engine decides, this only writes it as SQL."""
    shown = Q(visibility__in=sorted(str(v) for v in sight.anyones))
    if sight.owns:
        shown |= Q(visibility__in=sorted(str(v) for v in sight.owns), side=sight.viewer)
    records = EventRecord.objects.filter(shown, campaign=campaign)
    for kind, by in sorted(sight.hidden_by.items()):
        hiders = EventRecord.objects.filter(shown, campaign=OuterRef("campaign"), kind=str(by), side=OuterRef("side"),
                                            **{f"payload__{HIDING_KEY}": OuterRef(f"payload__{HIDING_KEY}")})
        records = records.exclude(Q(kind=str(kind)) & Exists(hiders))
    return records
