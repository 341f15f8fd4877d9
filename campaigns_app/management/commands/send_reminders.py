"""`manage.py send_reminders [--now ISO]`: the pace reminders due now (run it every 15 minutes from a scheduler:
`*/15 * * * * cd /srv/refit && .venv/bin/python manage.py send_reminders`). Each reminder goes out once."""
from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from campaigns_app.services.pace import send_reminders


class Command(BaseCommand):
    help = "Send the pace reminders due now: once before a deadline, once when it has passed (never while paused)."

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
        sent = send_reminders(moment)
        self.stdout.write(f"{sent} reminder{'s' if sent != 1 else ''} sent.")
