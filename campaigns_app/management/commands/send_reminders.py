"""`manage.py send_reminders [--now ISO]`: the pace reminders due now (run it every 15 minutes from a scheduler:
`*/15 * * * * cd /srv/refit && .venv/bin/python manage.py send_reminders`). Each reminder goes out once."""
from __future__ import annotations

from datetime import datetime

from campaigns_app.management.clock_command import ClockCommand
from campaigns_app.services.pace import send_reminders


class Command(ClockCommand):
    help = "Send the pace reminders due now: once before a deadline, once when it has passed (never while paused)."
    noun = "reminder"

    def send(self, moment: datetime) -> int:
        return send_reminders(moment)
