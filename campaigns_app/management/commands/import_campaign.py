"""`manage.py import_campaign FILE`: recreate a campaign from its archive (`export_campaign` on another server).
Refused — nothing written — if the archive was altered (digest, dice, notes), if the campaign exists here, or if this
server has different rules under the same system id. Players new to this server get an account without a password
(they set one with "Forgot your password?", at the e-mail address the archive carries)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns_app.services.archive import ArchiveRefused, campaign_import

MAX_ARCHIVE = 256 * 1024 * 1024  # bytes


class Command(BaseCommand):
    help = "Recreate a campaign from its archive (refit-archive/1), checking its integrity first."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="The archive written by export_campaign.")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            if path.stat().st_size > MAX_ARCHIVE:
                raise CommandError(f"{path} is larger than {MAX_ARCHIVE // (1024 * 1024)} MB: not an archive.")
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from None
        except (ValueError, RecursionError) as error:
            raise CommandError(f"{path} is not JSON: {str(error)[:200]}") from None
        if not isinstance(data, dict):
            raise CommandError(f"{path}: expected a JSON object (refit-archive/1).")
        try:
            campaign = campaign_import(data)
        except ArchiveRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Campaign {campaign.public_id} ({campaign.name}) imported with "
                          f"{campaign.events.count()} events.")
