"""`manage.py send_digests [--now ISO]`: the daily digests (run it once a day from a scheduler:
`0 7 * * * cd /srv/refit && .venv/bin/python manage.py send_digests`). Each player gets at most one a UTC day."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaigns_app.notify.digest import send_digests


class Command(BaseCommand):
    help = "Send each player who chose a daily digest their queued lines, at most once a UTC day."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--now", help="The moment to act as of (ISO 8601 with a time zone; default: the clock).")

    def handle(self, *args: Any, **options: Any) -> None:
        moment = timezone.now()
        if options["now"]:
            try:
                moment = datetime.fromisoformat(options["now"])
            except ValueError:
                raise CommandError(f"--now {options['now'][:40]!r} is not an ISO 8601 moment "
                                   "(e.g. 2026-11-27T18:00:00+00:00).") from None
            if moment.tzinfo is None:
                raise CommandError("--now needs a time zone (e.g. +00:00).")
        sent = send_digests(moment)
        self.stdout.write(f"{sent} digest{'s' if sent != 1 else ''} sent.")
