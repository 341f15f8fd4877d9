"""`manage.py load_systems`: validates every fixture with rules_engine and upserts it; fails with the loader's messages."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from campaigns_app.models import CgSystem

RR = Path(settings.REFIT_FIXTURES_DIR) / "rr.yaml"


def test_load_systems_stores_each_valid_system_with_its_text_and_sha256(db: Any, tmp_path: Path) -> None:
    shutil.copy(RR, tmp_path / "rr.yaml")
    call_command("load_systems", dir=str(tmp_path))
    system = CgSystem.objects.get(id="rr")
    assert system.definition == RR.read_text(encoding="utf-8")
    assert system.sha256 == hashlib.sha256(RR.read_bytes()).hexdigest()

    call_command("load_systems", dir=str(tmp_path))  # loading again updates in place
    assert CgSystem.objects.count() == 1


def test_load_systems_fails_naming_the_file_and_the_problem_and_still_loads_the_valid_ones(db: Any, tmp_path: Path) -> None:
    shutil.copy(RR, tmp_path / "rr.yaml")
    broken = RR.read_text(encoding="utf-8").replace("format: refit-cg/1", "format: refit-cg/9", 1)
    (tmp_path / "broken.yaml").write_text(broken, encoding="utf-8")

    with pytest.raises(CommandError) as failure:
        call_command("load_systems", dir=str(tmp_path))

    assert "broken.yaml: format" in str(failure.value)
    assert list(CgSystem.objects.values_list("id", flat=True)) == ["rr"]


def test_load_systems_fails_when_there_is_nothing_to_load(db: Any, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No CG system files"):
        call_command("load_systems", dir=str(tmp_path))
