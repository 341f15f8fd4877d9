"""Several workers for real (issue 10.8): two uvicorn processes on different ports share the test PostgreSQL (through
Django's psycopg pool) and Redis; the two players are on different processes. The opponent's chit, the reveal and
presence reach both; and SIGKILL of one process right after it acknowledged a submission loses nothing — the other
process resolves the Initiative with it and the killed player's page resyncs from the survivor.
"""
from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.e2e.conftest import (
    REPO,
    database_name,
    e2e_redis_db,
    free_port,
    manage,
    recreate_database,
    wait_until_answering,
    with_database,
    with_redis_db,
)

pytestmark = pytest.mark.slow
PASSWORD = "correct-horse-battery-staple-42"
REVEAL = '<p class="reveal-label">German Assault</p>'  # RR 2.522: German Attack + Canadian Idle
SETUP = """
import json
from tests.campaigns_app.conftest import make_user, new_campaign
german, canadian = make_user("gerd"), make_user("cana")
print("IDS", json.dumps([new_campaign(german, canadian, name=n).public_id for n in ("One", "Two")]))
"""


@dataclass
class Worker:
    url: str
    process: subprocess.Popen[bytes]


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Worker], list[str]]]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not re.match(r"^postgres(ql)?(\+\w+)?://", database_url) or not os.environ.get("REDIS_URL"):
        pytest.skip("two workers need PostgreSQL and Redis: `make test` sets DATABASE_URL and REDIS_URL")
    name = f"{database_name(database_url)}_workers"
    recreate_database(database_url, name)
    log = tmp_path_factory.mktemp("workers") / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DJANGO_SETTINGS"))}
    env.update(DJANGO_SETTINGS_MODULE="campaigns_app.settings", DATABASE_URL=with_database(database_url, name),
               REDIS_URL=with_redis_db(os.environ["REDIS_URL"], e2e_redis_db(os.environ["REDIS_URL"])),
               CHANNEL_PREFIX=f"refit-workers-{database_name(database_url)}", DEBUG="1", PYTHONUNBUFFERED="1",
               ALLOWED_HOSTS="127.0.0.1,localhost", DB_POOL_MAX_SIZE="4", DB_POOL_MIN_SIZE="1",
               EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    manage(env, "migrate", "--noinput", log=log)
    manage(env, "load_systems", log=log)
    made = subprocess.run([sys.executable, "manage.py", "shell", "-c", SETUP], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)
    ids = json.loads(next(line[4:] for line in made.stdout.splitlines() if line.startswith("IDS ")))
    started: list[Worker] = []
    try:
        for _ in range(2):
            port = free_port()
            with log.open("ab") as out:
                process = subprocess.Popen(
                    [sys.executable, "-m", "uvicorn", "campaigns_app.asgi:application", "--host", "127.0.0.1",
                     "--port", str(port), "--no-access-log"], cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
            started.append(Worker(f"http://127.0.0.1:{port}", process))
            wait_until_answering(process, started[-1].url + "/", log, 60)
        yield started, ids
    finally:
        for worker in started:
            if worker.process.poll() is None:
                worker.process.terminate()
                try:
                    worker.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    worker.process.kill()


async def log_in(base: str, username: str) -> httpx.AsyncClient:
    client = httpx.AsyncClient(base_url=base, trust_env=False, timeout=15)
    page = (await client.get("/accounts/login/")).text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token
    response = await client.post("/accounts/login/", data={"username": username, "password": PASSWORD,
                                                           "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302, response.text[:500]
    return client


async def open_socket(base: str, client: httpx.AsyncClient, public_id: str) -> ClientConnection:
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    return await connect(f"{base.replace('http', 'ws')}/ws/campaigns/{public_id}/", origin=base,  # type: ignore[arg-type]
                         additional_headers={"Cookie": cookie}, open_timeout=10)


async def frames_until(socket: ClientConnection, wanted: str, timeout: float = 15) -> str:
    """Every frame until one contains ``wanted`` (AssertionError after ``timeout`` seconds)."""
    seen = ""
    try:
        async with asyncio.timeout(timeout):
            while wanted not in seen:
                seen += str(await socket.recv())
    except TimeoutError:
        raise AssertionError(f"{wanted!r} did not arrive within {timeout} s") from None
    return seen


async def latest_players(socket: ClientConnection, online: int, timeout: float = 15) -> None:
    """Wait for a players fragment with ``online`` sides shown online."""
    async with asyncio.timeout(timeout):
        while True:
            frame = str(await socket.recv())
            if 'id="players"' in frame:
                players = frame[frame.index('id="players"'):]
                players = players[:players.index("</section>")] if "</section>" in players else players
                if players.count("presence-online") == online:
                    return


async def submit_chit(client: httpx.AsyncClient, public_id: str, side: str, chit: str) -> httpx.Response:
    return await client.post(f"/campaigns/{public_id}/chit/submit/", data={"side": side, "chit": chit, "confirmed": "yes"},
                             headers={"X-CSRFToken": client.cookies["csrftoken"], "HX-Request": "true",
                                      "Referer": str(client.base_url) + "/"})


async def test_two_processes_carry_presence_the_opponents_chit_and_the_reveal_to_both_players(
    workers: tuple[list[Worker], list[str]],
) -> None:
    (a, b), (public_id, _) = workers
    german, canadian = await log_in(a.url, "gerd"), await log_in(b.url, "cana")
    german_socket = await open_socket(a.url, german, public_id)
    await frames_until(german_socket, 'id="chit-panel"')
    canadian_socket = await open_socket(b.url, canadian, public_id)
    await frames_until(canadian_socket, 'id="chit-panel"')
    await latest_players(german_socket, 2)  # the Canadian connected to the other process: online on the German's page

    sealed = await submit_chit(canadian, public_id, "canadian", "idle")
    assert sealed.status_code == 200 and "chit is sealed" in sealed.text
    await frames_until(german_socket, "Has chosen")  # from process B to the page on process A

    assert (await submit_chit(german, public_id, "german", "attack")).status_code == 200
    await frames_until(german_socket, REVEAL)
    await frames_until(canadian_socket, REVEAL)  # the reveal made on process A reaches the page on process B

    await canadian_socket.close()
    await latest_players(german_socket, 1)  # closing on B clears presence on A's page
    await german_socket.close()
    await german.aclose()
    await canadian.aclose()


async def test_sigkill_of_one_process_right_after_it_acknowledged_a_chit_loses_nothing(
    workers: tuple[list[Worker], list[str]],
) -> None:
    (a, b), (_, public_id) = workers
    german, canadian = await log_in(a.url, "gerd"), await log_in(b.url, "cana")
    german_socket = await open_socket(a.url, german, public_id)
    await frames_until(german_socket, 'id="chit-panel"')

    sealed = await submit_chit(canadian, public_id, "canadian", "idle")
    assert sealed.status_code == 200 and "chit is sealed" in sealed.text  # acknowledged by process B …
    b.process.send_signal(signal.SIGKILL)  # … which dies at once
    assert b.process.wait(timeout=10) == -signal.SIGKILL
    await frames_until(german_socket, "Has chosen")

    assert (await submit_chit(german, public_id, "german", "attack")).status_code == 200
    await frames_until(german_socket, REVEAL)  # resolved on A with the chit B acknowledged

    canadian.base_url = httpx.URL(a.url)  # the Canadian's page reconnects to the surviving process
    canadian_socket = await open_socket(a.url, canadian, public_id)
    resync = await frames_until(canadian_socket, REVEAL)
    assert "Canadian sets up first." in resync
    await canadian_socket.close()
    await german_socket.close()
    await german.aclose()
    await canadian.aclose()


def test_the_deploy_recipe_and_its_proxy_config_are_in_the_repository() -> None:
    recipe = (REPO / "docs" / "deploy.md").read_text(encoding="utf-8")
    for topic in ("DB_POOL_MAX_SIZE", "REDIS_URL", "collectstatic", "pg_dump", "migrate", "EMAIL_HOST",
                  "PROXY_SSL_HEADER", "uvicorn"):
        assert topic in recipe, topic
    caddy = (REPO / "docs" / "Caddyfile").read_text(encoding="utf-8")
    assert "reverse_proxy" in caddy and "lb_policy" in caddy
    env_block = recipe.split("## 2. Settings", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    env = env_file_as_systemd_reads_it(env_block)
    assert {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "STATIC_ROOT", "STATIC_MANIFEST"} <= set(env), env
    if "immutable" in caddy:  # files cached for a year must change name when they change: hashed (manifest) names
        assert env["STATIC_MANIFEST"] == "1"


def env_file_as_systemd_reads_it(text: str) -> dict[str, str]:
    """systemd's EnvironmentFile= reading of ``text`` (a ``# …`` after a value is part of the value; surrounding double
    quotes are removed), checked equal to what the shell's ``set -a && . refit.env`` (docs/deploy.md) gives."""
    text = re.sub(r"=<[^>\n]*>$", "=placeholder", text, flags=re.M)  # SECRET_KEY=<your random key>
    systemd = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith(("#", ";")):
            key, value = line.split("=", 1)
            systemd[key.strip()] = value.strip().removeprefix('"').removesuffix('"')
    script = "set -a && . /dev/stdin && set +a && env -0"
    shell = subprocess.run(["sh", "-c", script], input=text, capture_output=True, text=True, env={}, timeout=30)
    assert shell.returncode == 0, shell.stderr
    sourced = dict(item.split("=", 1) for item in shell.stdout.split("\0") if "=" in item)
    assert {key: sourced.get(key) for key in systemd} == systemd, "systemd and the shell read refit.env alike"
    return systemd
    assert "docs/deploy.md" in (REPO / "README.md").read_text(encoding="utf-8")
    assert Path(REPO / "docs" / "Caddyfile").is_file()
