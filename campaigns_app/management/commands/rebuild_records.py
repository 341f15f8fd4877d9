"""`manage.py rebuild_records`: re-project every campaign's ledgers into the CG Roster / RG Purchase Record tables."""
from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaigns_app.models import Campaign
from campaigns_app.records import projection as records
from rules_engine.errors import RulesError


class Command(BaseCommand):
    help = ("Rebuild the CG Roster and RG Purchase Record tables from each campaign's state (for campaigns saved "
            "before the tables existed, or after a repair). Idempotent: a second run writes nothing.")

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("public_ids", nargs="*", help="Only these campaigns (their public ids; after '--' when one "
                                                          "starts with '-'); default: all.")

    def handle(self, *args: Any, **options: Any) -> None:
        campaigns = Campaign.objects.order_by("pk")
        if options["public_ids"]:
            campaigns = campaigns.filter(public_id__in=options["public_ids"])
            missing = set(options["public_ids"]) - set(campaigns.values_list("public_id", flat=True))
            if missing:
                raise CommandError(f"No campaign with public id {', '.join(sorted(missing))}.")
        done = changed = 0
        failures: list[str] = []
        for pk in campaigns.values_list("pk", flat=True):
            with transaction.atomic():
                # the campaign row only (not the system row all its campaigns share); the YAML on a cache miss only
                campaign = (Campaign.objects.select_for_update(of=("self",)).select_related("system")
                            .defer("system__definition").get(pk=pk))
                try:
                    result = records.project(campaign, campaign.state)
                except (RulesError, ValueError) as error:  # a state the engine cannot read: report it, go on
                    failures.append(f"{campaign.public_id}: {error}")
                    continue
            done += 1
            changed += result.changed
            if result.changed and options["verbosity"] > 1:
                self.stdout.write(f"{campaign.public_id}: roster {result.roster_written} written, "
                                  f"{result.roster_deleted} deleted; purchases {result.purchases_written} written, "
                                  f"{result.purchases_deleted} deleted")
        self.stdout.write(f"Projected {done} campaign(s); {changed} changed.")
        if failures:
            raise CommandError("Could not project:\n" + "\n".join(failures))
