"""Presence without a database write per heartbeat (issue 12): the presence store (Redis when REDIS_URL is set, this
process's memory otherwise — both behave alike), and the services that write only when what the pages show changes."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail

from campaigns_app import services
from campaigns_app.live import presence_store
from campaigns_app.models import Campaign
from tests.campaigns_app.live.conftest import PresenceClock

EXPIRY = presence_store.ONLINE_WITHIN_SECONDS


@pytest.fixture(params=["in-process", "file", "redis"])
def store_kind(request: pytest.FixtureRequest, settings: Any, tmp_path: Path) -> str:
    """Which store the services use: the embedded run's (no REDIS_URL: a file beside the SQLite database, or this
    process's memory) or Redis (make test sets REDIS_URL)."""
    kind = str(request.param)
    settings.PRESENCE_FILE = str(tmp_path / "db.sqlite3.presence.json") if kind == "file" else ""
    if kind == "redis":
        if not os.environ.get("REDIS_URL"):
            pytest.skip("the Redis presence store needs REDIS_URL (make test sets it)")
        settings.REDIS_URL = os.environ["REDIS_URL"]
    else:
        settings.REDIS_URL = ""
    return kind


@pytest.fixture
def store(store_kind: str) -> presence_store.PresenceStore:
    return presence_store.store()


@pytest.fixture
def public_id(store: presence_store.PresenceStore) -> Iterator[str]:
    """A campaign id no other test uses; its Redis key is removed afterwards."""
    name = uuid.uuid4().hex[:22]
    yield name
    if isinstance(store, presence_store.RedisStore):
        store.client.delete(store.key(name))


def test_the_store_in_use_is_the_one_the_settings_name(store_kind: str, store: presence_store.PresenceStore) -> None:
    kinds = {"redis": presence_store.RedisStore, "file": presence_store.FileStore,
             "in-process": presence_store.InProcessStore}
    assert isinstance(store, kinds[store_kind])


def test_the_embedded_runs_cron_process_sees_the_pages_the_server_process_holds(tmp_path: Path) -> None:
    """make run (SQLite, no Redis): a page open in the server is seen by send_reminders, a process of its own."""
    path = tmp_path / "db.sqlite3.presence.json"
    t = 1_000_000.0
    server = subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path; from campaigns_app.live.presence_store import "
         "FileStore; FileStore(Path(sys.argv[1])).beat('abc', 'german', 'a!1', float(sys.argv[2]))", str(path), str(t)],
        cwd=Path(__file__).resolve().parents[3], capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"})
    assert server.returncode == 0, server.stderr
    cron = presence_store.FileStore(path)
    assert presence_store.fresh_sides(cron.entries("abc"), t + 30) == {"german"}
    assert presence_store.fresh_sides(cron.entries("abc"), t + EXPIRY + 1) == frozenset()
    assert cron.entries("other") == {}


def test_a_missing_or_broken_presence_file_shows_nobody_online(tmp_path: Path) -> None:
    path = tmp_path / "presence.json"
    assert presence_store.FileStore(path).entries("abc") == {}
    path.write_text("{not json", encoding="utf-8")
    assert presence_store.FileStore(path).entries("abc") == {}
    assert presence_store.FileStore(path).beat("abc", "german", "a!1", 1_000_000.0) is True  # and it is replaced
    assert presence_store.FileStore(path).entries("abc") == {"german a!1": 1_000_000.0}


def test_a_sides_first_page_changes_presence_and_its_next_beats_do_not(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    assert store.beat(public_id, "german", "a!1", t) is True
    assert store.beat(public_id, "german", "a!1", t + 25) is False
    assert store.beat(public_id, "german", "a!1", t + 50) is False
    assert store.beat(public_id, "canadian", "b!1", t + 60) is True
    assert presence_store.fresh_sides(store.entries(public_id), t + 60) == {"german", "canadian"}


def test_a_second_page_of_a_side_already_online_changes_nothing_opened_or_closed(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    store.beat(public_id, "german", "a!1", t)
    assert store.beat(public_id, "german", "a!2", t + 1) is False
    assert store.close(public_id, "german", "a!2", t + 2) is False
    assert store.close(public_id, "german", "a!1", t + 3) is True  # the side's last page
    assert store.entries(public_id) == {}


def test_a_page_that_stops_beating_goes_offline_after_the_expiry_and_is_forgotten_once(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    store.beat(public_id, "german", "a!1", t)
    store.beat(public_id, "canadian", "b!1", t)
    store.beat(public_id, "canadian", "b!1", t + EXPIRY - 1)  # the German's page beats no more

    assert presence_store.fresh_sides(store.entries(public_id), t + EXPIRY) == {"german", "canadian"}
    assert presence_store.fresh_sides(store.entries(public_id), t + EXPIRY + 1) == {"canadian"}
    assert store.beat(public_id, "canadian", "b!1", t + EXPIRY + 1) is True  # it forgets the German's page
    assert store.beat(public_id, "canadian", "b!1", t + EXPIRY + 2) is False
    assert set(store.entries(public_id)) == {"canadian b!1"}


def test_a_forgotten_page_that_wakes_up_is_online_again_at_its_next_beat(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    store.beat(public_id, "german", "a!1", t)
    store.beat(public_id, "canadian", "b!1", t + EXPIRY + 1)  # forgets the German's page
    assert store.beat(public_id, "german", "a!1", t + EXPIRY + 2) is True
    assert presence_store.fresh_sides(store.entries(public_id), t + EXPIRY + 2) == {"german", "canadian"}


def test_a_page_past_the_expiry_closing_refreshes_the_pages_that_may_still_show_it_online(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    store.beat(public_id, "german", "a!1", t)
    store.beat(public_id, "german", "a!2", t)
    store.beat(public_id, "german", "a!2", t + EXPIRY)
    assert store.close(public_id, "german", "a!1", t + EXPIRY + 1) is True  # a!1 was shown online when it expired


def test_the_redis_key_expires_once_every_page_of_the_campaign_stopped_beating() -> None:
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the Redis presence store needs REDIS_URL (make test sets it)")
    store, public_id = presence_store.RedisStore(os.environ["REDIS_URL"], "refit-test"), uuid.uuid4().hex[:22]
    store.beat(public_id, "german", "a!1", presence_store.clock())
    try:
        assert 0 < int(store.client.ttl(store.key(public_id))) <= 2 * EXPIRY
    finally:
        store.client.delete(store.key(public_id))


def test_a_heartbeat_writes_nothing_to_the_database_and_reports_no_change(
    store_kind: str, campaign_factory: Any, users: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="x.y!1")
    services.presence_open(public_id=campaign.public_id, user=users["cana"], channel_name="x.y!2")
    revision = Campaign.objects.get(pk=campaign.pk).revision

    with django_assert_num_queries(0), django_capture_on_commit_callbacks() as pushes:
        changed = services.presence_beat(public_id=campaign.public_id, side="german", channel_name="x.y!1")

    assert changed is False and pushes == []
    assert Campaign.objects.get(pk=campaign.pk).revision == revision


def test_a_beat_that_forgets_a_silent_page_moves_the_revision_and_refreshes_both_seats(
    store_kind: str, campaign_factory: Any, users: Any, presence_clock: PresenceClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="x.y!1")
    services.presence_open(public_id=campaign.public_id, user=users["cana"], channel_name="x.y!2")
    revision = Campaign.objects.get(pk=campaign.pk).revision
    presence_clock.advance(EXPIRY + 1)  # the Canadian's page went away without closing

    with django_capture_on_commit_callbacks() as pushes:
        changed = services.presence_beat(public_id=campaign.public_id, side="german", channel_name="x.y!1")

    assert changed is True and pushes  # both seats' views published again, their frames sent after commit
    assert Campaign.objects.get(pk=campaign.pk).revision == revision + 1
    assert services.presence_beat(public_id=campaign.public_id, side="german", channel_name="x.y!1") is False


def test_a_second_tab_opened_and_closed_moves_no_revision(
    store_kind: str, campaign_factory: Any, users: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="x.y!1")
    revision = Campaign.objects.get(pk=campaign.pk).revision

    with django_capture_on_commit_callbacks() as pushes:
        services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="x.y!3")
        services.presence_close(public_id=campaign.public_id, seat_id=campaign.seats.get(side="german").pk,
                                side="german", channel_name="x.y!3")

    assert pushes == [] and Campaign.objects.get(pk=campaign.pk).revision == revision
    assert campaign.seats.get(side="german").last_seen is not None


def test_a_player_whose_page_stopped_beating_is_emailed_again(
    store_kind: str, campaign_factory: Any, users: Any, presence_clock: PresenceClock,
    django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    services.presence_open(public_id=campaign.public_id, user=users["cana"], channel_name="x.y!2")
    presence_clock.advance(EXPIRY + 1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="idle")
    assert [message.to for message in mail.outbox] == [["cana@example.org"]]


def test_a_notes_page_counts_its_side_online_and_is_told_apart_from_the_campaign_page(
    store: presence_store.PresenceStore, public_id: str,
) -> None:
    t = 1_000_000.0
    notes = presence_store.socket_key("a!1", presence_store.NOTES_PAGE)
    assert notes == "notes@a!1" and presence_store.socket_key("b!1") == "b!1"
    assert store.beat(public_id, "german", notes, t) is True
    assert store.beat(public_id, "german", "a!2", t + 1) is False  # the German is already online
    entries = store.entries(public_id)
    assert presence_store.fresh_sides(entries, t + 1) == {"german"}
    assert presence_store.fresh_sides(entries, t + 1, presence_store.NOTES_PAGE) == {"german"}
    assert store.close(public_id, "german", notes, t + 2) is False  # still online on the campaign page
    assert presence_store.fresh_sides(store.entries(public_id), t + 2, presence_store.NOTES_PAGE) == frozenset()
