"""A live page opening or closing and a message are the commonest writes (every page load, every tab closed, every line
written): once a worker has run them, they compile no SQL but what cannot be prepared — their reads and UPDATEs are
prepared (campaigns_app.prepared), as the reveal's are."""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import pytest
from django.db.models.sql import compiler
from django.urls import reverse

from campaigns_app import services
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import client_for, new_campaign
from tests.campaigns_app.live.test_push import pages_open

COMPILERS = (compiler.SQLCompiler, compiler.SQLInsertCompiler, compiler.SQLUpdateCompiler,
             compiler.SQLDeleteCompiler, compiler.SQLAggregateCompiler)


@contextmanager
def compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """Counts the statements Django's compilers build (SELECT, INSERT, UPDATE, DELETE), by model."""
    counted: Counter[str] = Counter()
    with monkeypatch.context() as patch:
        for kind in COMPILERS:
            original = kind.__dict__["as_sql"]

            def as_sql(self: Any, *args: Any, _original: Callable[..., Any] = original, **kwargs: Any) -> Any:
                counted[self.query.model.__name__ if self.query.model else "-"] += 1
                return _original(self, *args, **kwargs)

            patch.setattr(kind, "as_sql", as_sql)
        yield counted


def test_a_live_page_opening_and_closing_compiles_no_sql_once_the_worker_has_run_them(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.presence_open(public_id=campaign.public_id, user=users["cana"], channel_name="test.live!canadian")

    def open_and_close() -> None:
        seat = services.presence_open(public_id=campaign.public_id, user=users["gerd"], channel_name="test.live!german")
        assert seat is not None and seat.side == "german"
        services.presence_close(public_id=campaign.public_id, seat_id=seat.pk, side="german",
                                channel_name="test.live!german")

    with django_capture_on_commit_callbacks(execute=True):
        open_and_close()  # the first run of this worker prepares the statements
    revision = Campaign.objects.get(pk=campaign.pk).revision

    with django_capture_on_commit_callbacks(execute=True), compiled(monkeypatch) as counted:
        open_and_close()

    assert counted == Counter()
    assert Campaign.objects.get(pk=campaign.pk).revision == revision + 2  # online, then offline: both published
    assert campaign.seats.get(side="german").last_seen is not None


def test_a_message_compiles_only_its_insert_once_warm(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)
    writer = client_for(users["cana"])

    def send(text: str) -> None:
        response = writer.post(reverse("campaign_message", args=[campaign.public_id]),
                               {"text": text, "form_id": message_form_id(campaign, "canadian")},
                               headers={"HX-Request": "true"})
        assert response.status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        send("Hold the crossroads")  # the first run of this worker prepares the statements

    with django_capture_on_commit_callbacks(execute=True), compiled(monkeypatch) as counted:
        send("Dig in at the church")

    # the INSERT of the message's row is adapted per database and value: the rest (the signed-in user, lock, seats, the
    # form check, counts, rate, counter, revision, the views read and written) is prepared
    assert counted == Counter({"EventRecord": 1})
    assert list(EventRecord.objects.filter(campaign=campaign, kind="message").values_list("payload__text", flat=True)
                .order_by("seq")) == ["Hold the crossroads", "Dig in at the church"]


def test_a_reveal_compiles_only_the_insert_of_its_events_once_warm(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
) -> None:
    def reveal(name: str, counted: Callable[[], Any]) -> Campaign:
        campaign = new_campaign(users["gerd"], users["cana"], name=name)
        pages_open(campaign)
        url = reverse("chit_submit", args=[campaign.public_id])
        assert client_for(users["gerd"]).post(url, {"side": "german", "chit": "attack", "confirmed": "yes"},
                                              headers={"HX-Request": "true"}).status_code == 200
        second = client_for(users["cana"])
        with django_capture_on_commit_callbacks(execute=True), counted():
            response = second.post(url, {"side": "canadian", "chit": "idle", "confirmed": "yes"},
                                   headers={"HX-Request": "true"})
        assert response.status_code == 200 and b'id="chit-reveal"' in response.content
        return campaign

    reveal("Hill 112", nullcontext)  # the first reveal of this worker prepares the statements
    statements: Counter[str] = Counter()

    @contextmanager
    def counting() -> Iterator[None]:
        with compiled(monkeypatch) as counted:
            yield
        statements.update(counted)

    campaign = reveal("Hill 113", counting)
    # the events' INSERT is adapted per value; the rest (user, seat, lock, seats, state UPDATE, stored views) prepared
    assert statements == Counter({"EventRecord": 1})
    assert Campaign.objects.get(pk=campaign.pk).state["last_round"]["label"] == "German Assault"
