"""Two schedulers running `send_digests` at once send each digest once: a row another run holds is skipped
(select_for_update skip_locked), and the run that holds it empties the queue before letting go."""
from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction

from campaigns_app.models import NotificationSetting, Seat
from campaigns_app.notify import deliver, digest
from tests.campaigns_app.conftest import load_rr
from tests.campaigns_app.notify.helpers import DAY_ONE, created, queued

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")]


@pytest.fixture
def queued_player(users: Any) -> Any:
    load_rr()
    campaign = created(users)
    deliver.enqueue(Seat.objects.select_related("campaign").get(campaign=campaign, user=users["gerd"]), "Your move.")
    mail.outbox.clear()
    return users["gerd"]


def test_two_runs_at_the_same_moment_send_one_digest(queued_player: Any, monkeypatch: Any) -> None:
    real_send = digest.send_mail

    def slow_send(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)  # the first run still holds the row when the second one reaches it
        return real_send(*args, **kwargs)

    monkeypatch.setattr(digest, "send_mail", slow_send)
    start = threading.Barrier(2)
    counts: list[int] = []

    def run() -> None:
        try:
            start.wait()
            counts.append(digest.send_digests(DAY_ONE))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    assert sorted(counts) == [0, 1]
    assert len(mail.outbox) == 1
    assert queued(queued_player) == []


def test_a_row_held_by_another_run_is_skipped_not_waited_for(queued_player: Any) -> None:
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                NotificationSetting.objects.select_for_update().get(user=queued_player)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    other = threading.Thread(target=hold)
    other.start()
    assert holding.wait(10)
    try:
        assert digest.send_digests(DAY_ONE) == 0  # skipped at once, not blocked
        assert mail.outbox == []
    finally:
        release.set()
        other.join(10)
    assert digest.send_digests(DAY_ONE) == 1
    assert len(mail.outbox) == 1
