"""`manage.py send_digests [--now ISO]`: the daily digests (run it once a day from a scheduler:
`0 7 * * * cd /srv/refit && .venv/bin/python manage.py send_digests`). Each player gets at most one a UTC day."""
from __future__ import annotations

from datetime import datetime

from campaigns_app.management.clock_command import ClockCommand
from campaigns_app.notify.digest import send_digests


class Command(ClockCommand):
    help = "Send each player who chose a daily digest their queued lines, at most once a UTC day."
    noun = "digest"

    def send(self, moment: datetime) -> int:
        return send_digests(moment)
