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


def _make_run(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SITE_URL", "HOST", "PORT")}
    done = subprocess.run(["make", "-n", "run", *args], cwd=WALK.parents[2], env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return next(line for line in done.stdout.splitlines() if "uvicorn" in line)


def test_make_run_serves_players_with_debug_off_unless_a_developer_asks() -> None:
    assert "DEBUG=0 " in _make_run()
    assert "DEBUG=1 " in _make_run("DEBUG=1")


def test_make_run_mails_links_to_the_address_it_serves_at() -> None:
    line = _make_run("HOST=10.0.0.5", "PORT=9000")
    assert "SITE_URL=http://10.0.0.5:9000 " in line and "--host 10.0.0.5 --port 9000" in line
    assert "SITE_URL=http://127.0.0.1:8000 " in _make_run()
    assert "SITE_URL=https://refit.example.org " in _make_run("HOST=0.0.0.0", "SITE_URL=https://refit.example.org")


def _settings(tmp_path: Path, **env: str) -> dict[str, object]:
    code = ("import json; from campaigns_app import settings as s; print(json.dumps({'debug': s.DEBUG, "
            "'hosts': s.ALLOWED_HOSTS, 'key': s.SECRET_KEY, 'secure': getattr(s, 'SESSION_COOKIE_SECURE', False)}))")
    base = {k: v for k, v in os.environ.items()
            if k not in ("DEBUG", "SITE_URL", "SECRET_KEY", "ALLOWED_HOSTS", "SECRET_KEY_FILE")}
    done = subprocess.run([sys.executable, "-c", code], cwd=WALK.parents[2], capture_output=True, text=True, timeout=60,
                          check=True, env={**base, "SECRET_KEY_FILE": str(tmp_path / "key"), **env})
    import json

    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_embedded_default_keeps_one_generated_key_allows_its_own_host_and_logs_in_over_http(tmp_path: Path) -> None:
    first = _settings(tmp_path, SITE_URL="http://192.168.1.20:8080")
    second = _settings(tmp_path)
    assert first["debug"] is False and first["key"] == second["key"] and len(str(first["key"])) >= 50
    assert (tmp_path / "key").stat().st_mode & 0o077 == 0  # readable by its owner only
    assert "192.168.1.20" in first["hosts"]  # type: ignore[operator]
    assert first["secure"] is False  # plain http: secure cookies would never come back
    assert _settings(tmp_path, SITE_URL="https://refit.example.org")["secure"] is True
    assert _settings(tmp_path, SECRET_KEY="from-the-environment")["key"] == "from-the-environment"
