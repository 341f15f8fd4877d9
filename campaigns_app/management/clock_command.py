"""A scheduler's command that acts as of a moment (``--now ISO``, default the clock) and says how many it sent."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone


def moment_of(text: str | None) -> datetime:
    """The moment ``--now`` names (ISO 8601 with a time zone), or the clock; CommandError saying what is allowed."""
    if not text:
        return timezone.now()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--now {text[:40]!r} is not an ISO 8601 moment (e.g. 2026-11-27T18:00:00+00:00).") from None
    if moment.tzinfo is None:
        raise CommandError("--now needs a time zone (e.g. +00:00).")
    return moment


class ClockCommand(BaseCommand):
    """Sends what is due at a moment: ``send(moment)`` returns how many ``noun``s went out."""

    noun = "e-mail"

    def send(self, moment: datetime) -> int:
        raise NotImplementedError

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--now", help="The moment to act as of (ISO 8601 with a time zone; default: the clock).")

    def handle(self, *args: Any, **options: Any) -> None:
        sent = self.send(moment_of(options["now"]))
        self.stdout.write(f"{sent} {self.noun}{'s' if sent != 1 else ''} sent.")
