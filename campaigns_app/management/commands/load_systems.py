"""`manage.py load_systems`: validate every CG system in settings.REFIT_FIXTURES_DIR and upsert it."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaigns_app import engine
from campaigns_app.cards.services import bundled_cards_load
from campaigns_app.models import CgSystem, now
from rules_engine.errors import RulesError


class Command(BaseCommand):
    help = "Validate the CG system definitions (fixtures/*.yaml) with rules_engine and load them into the database."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--dir", default=None, help="Directory of the YAML files (default: settings.REFIT_FIXTURES_DIR).")

    def handle(self, *args: Any, **options: Any) -> None:
        directory = Path(options["dir"] or settings.REFIT_FIXTURES_DIR)
        if not directory.is_dir():
            raise CommandError(f"No fixtures directory at {directory} (set REFIT_FIXTURES_DIR).")
        files = sorted(directory.glob("*.yaml"))
        if not files:
            raise CommandError(f"No CG system files (*.yaml) in {directory}.")
        failures: list[str] = []
        loaded = 0
        for path in files:
            text = path.read_text(encoding="utf-8")
            try:
                head = yaml.safe_load(text)
            except yaml.YAMLError as error:
                failures.append(f"{path.name}: not valid YAML: {error}")
                continue
            if isinstance(head, dict) and head.get("kind") == "cg-card":
                self.stdout.write(f"{path.name}: a CG Card (applied per campaign), skipped")
                continue
            try:
                system = engine.parse_system(text, path.name)
            except RulesError as error:
                failures.append(str(error))
                continue
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            with transaction.atomic():
                _, created = CgSystem.objects.update_or_create(
                    id=system.id,
                    defaults={"name": system.name, "definition": text, "sha256": digest, "loaded_at": now()},
                )
            loaded += 1
            self.stdout.write(f"{path.name}: {'loaded' if created else 'updated'} {system.id} — {system.name}")
        if not failures:  # the CG Cards bundled in fixtures/cards/ (K5), offered to every player
            for filename, outcome in bundled_cards_load(directory / "cards"):
                if outcome.startswith("invalid"):
                    failures.append(f"cards/{filename}: {outcome}")
                else:
                    self.stdout.write(f"cards/{filename}: CG Card {outcome}")
        if failures:
            raise CommandError(
                f"{len(failures)} CG system file(s) failed validation ({loaded} loaded):\n" + "\n".join(failures)
            )
        self.stdout.write(self.style.SUCCESS(f"{loaded} CG system(s) loaded from {directory}."))
