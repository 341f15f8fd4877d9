"""Issue 9 item 5: the embedded default (`make run`: SQLite, in-memory channel layer, DEBUG off) is tested too, whatever
database `make test` points the rest of the suite at — in a process of its own (tests/embedded/walk.py)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

WALK = Path(__file__).resolve().parent / "walk.py"
SYSTEMS = {"er", "kgp", "phd", "pl25", "rr"}


def test_new_users_create_join_and_open_every_page_of_a_campaign_of_every_system_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_"))}
    done = subprocess.run([sys.executable, str(WALK), str(tmp_path)], cwd=WALK.parents[2], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-8000:]
    walked = next(line for line in done.stdout.splitlines() if line.startswith("walked: "))
    assert set(walked.removeprefix("walked: ").split(", ")) == SYSTEMS, output[-4000:]
    assert (tmp_path / "db.sqlite3").exists() and (tmp_path / ".secret_key").exists()


def test_the_embedded_default_keeps_its_generated_secret_key_out_of_git() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", ".secret_key"], cwd=WALK.parents[2], check=False)
    assert ignored.returncode == 0
