"""The reveal's POST does the least work: the second chit's request, end to end (session, user, seat, row lock, act,
response), stays within a fixed number of SQL statements, and none of them reads the system's YAML definition."""
from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app.live import presence_store
from campaigns_app.live.pages import VERSION_MARK
from campaigns_app.models import Campaign, LiveView, Seat
from tests.campaigns_app.conftest import client_for

# session, user, seat (with campaign and system), campaign row lock, seats, state UPDATE (with the event and dice
# counters, the pace's clocks and the live revision), events INSERT; then both seats' live views published in the
# same transaction (live.pages.publish): the stored views read, the latest messages and the newest events (read once
# for both seats: each side's history filters them), the stored views written in one UPDATE
WRITE_STATEMENTS = 11
# the htmx answer reuses the rendering the write stored: held by the worker once the write commits (no statement,
# test_the_htmx_answer_to_the_reveal_reuses_the_rendering_its_write_published); here the test's transaction never
# commits, so the stored view is read (campaigns_app.live.pages.published: its revision, then its fragments)
RESPONSE_STATEMENTS = 2
# after commit (services.core.after_commit: the "refresh" push, the opponent's "revealed" e-mail): not the request's own
AFTER_COMMIT_STATEMENTS = 4  # the "revealed" e-mail (live.notifications.email_action_due)


def reveal_statements(campaign_factory: Any, users: Any, htmx: bool, after_commit: Any = None
                      ) -> tuple[Any, list[str]]:
    campaign = campaign_factory(users["gerd"], users["cana"])
    for side in ("german", "canadian"):  # both players have their page open, as at a reveal
        presence_store.store().beat(campaign.public_id, side, f"test.live!{side}", presence_store.clock())
    url = reverse("chit_submit", args=[campaign.public_id])
    headers = {"HX-Request": "true"} if htmx else {}
    first = client_for(users["gerd"]).post(url, {"side": "german", "chit": "attack", "confirmed": "yes"},
                                           headers=headers)
    assert first.status_code == (200 if htmx else 302)
    second_player = client_for(users["cana"])
    with CaptureQueriesContext(connection) as captured, after_commit or nullcontext():
        response = second_player.post(url, {"side": "canadian", "chit": "idle", "confirmed": "yes"}, headers=headers)
    assert Campaign.objects.get(pk=campaign.pk).state["last_round"]["label"] == "German Assault"
    statements = [query["sql"] for query in captured.captured_queries
                  if query["sql"] != "COMMIT" and not query["sql"].startswith(("BEGIN", "SAVEPOINT", "RELEASE"))]
    return response, statements


@pytest.mark.parametrize("htmx", [False, True], ids=["plain form", "htmx"])
def test_the_revealing_chit_post_runs_a_fixed_number_of_statements(campaign_factory: Any, users: Any,
                                                                   htmx: bool) -> None:
    response, statements = reveal_statements(campaign_factory, users, htmx)

    assert response.status_code == (200 if htmx else 302)
    limit = WRITE_STATEMENTS + (RESPONSE_STATEMENTS if htmx else 0)
    assert len(statements) <= limit, "\n".join(statement[:200] for statement in statements)


def test_the_revealing_chit_post_reads_neither_the_system_definition_nor_the_last_event_nor_the_record_tables(
    campaign_factory: Any, users: Any
) -> None:
    _, statements = reveal_statements(campaign_factory, users, htmx=False)

    assert not [s for s in statements if '"definition"' in s]
    assert not [s for s in statements if "MAX(" in s.upper()]
    assert not [s for s in statements if "rosterline" in s or "purchaserecordline" in s]


def test_what_runs_after_the_reveal_commits_is_counted_apart(campaign_factory: Any, users: Any,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    _, statements = reveal_statements(campaign_factory, users, htmx=False,
                                      after_commit=django_capture_on_commit_callbacks(execute=True))

    assert len(statements) <= WRITE_STATEMENTS + AFTER_COMMIT_STATEMENTS, "\n".join(s[:200] for s in statements)


@pytest.mark.django_db(transaction=True)
def test_the_htmx_answer_to_the_reveal_reuses_the_rendering_its_write_published(campaign_factory: Any,
                                                                                 users: Any) -> None:
    response, statements = reveal_statements(campaign_factory, users, htmx=True)

    assert response.status_code == 200
    assert len(statements) <= WRITE_STATEMENTS, "\n".join(statement[:200] for statement in statements)
    canadian = Seat.objects.get(campaign__name="Hill 112", side="canadian")
    stored = LiveView.objects.get(seat=canadian)
    assert response.content.decode() == stored.fragments["chit-panel"].replace(VERSION_MARK, str(stored.version))
    assert 'id="chit-reveal"' in response.content.decode()
