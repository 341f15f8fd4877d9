"""`manage.py export_campaign PUBLIC_ID [--output FILE]`: a campaign's whole archive (refit-archive/1), secrets
included, to move it to another server (`import_campaign`). Keep the file as safe as the database: while the CG runs it
holds the dice seed and every secret purchase."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaigns_app.archive.build import build_archive
from campaigns_app.models import Campaign


class Command(BaseCommand):
    help = "Write a campaign's archive (everything, secrets included) as JSON, to move it to another server."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("public_id", help="The campaign's public id (as in its address; one that starts with '-' goes "
                                              "after '--': export_campaign -- -Ab3…).")
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.select_related("system", "created_by").filter(public_id=options["public_id"]).first()
        if campaign is None:
            raise CommandError(f"No campaign with public id {options['public_id']}.")
        text = json.dumps(build_archive(campaign, operator=True), ensure_ascii=False, indent=1)
        if options["output"]:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(f"Campaign {campaign.public_id} ({campaign.name}) written to {options['output']}.")
        else:
            self.stdout.write(text)
