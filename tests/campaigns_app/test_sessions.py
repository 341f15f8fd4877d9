"""Sessions read by a prepared query: a live session is read, an expired or unknown one is not."""
from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from campaigns_app.sessions import SessionStore


def test_the_site_reads_its_sessions_through_the_prepared_store() -> None:
    assert settings.SESSION_ENGINE == "campaigns_app.sessions"


def test_a_stored_session_is_read_back(db: Any) -> None:
    store = SessionStore()
    store["side"] = "german"
    store.save()
    assert SessionStore(store.session_key).load() == {"side": "german"}


def test_an_expired_session_is_not_read_and_its_key_is_dropped(db: Any) -> None:
    store = SessionStore()
    store["side"] = "german"
    store.save()
    Session.objects.filter(session_key=store.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    again = SessionStore(store.session_key)
    assert again.load() == {}
    assert again.session_key is None


def test_an_unknown_session_key_reads_nothing(db: Any) -> None:
    assert SessionStore("x" * 32).load() == {}


def test_a_signed_in_player_stays_signed_in_across_requests(client: Any, users: Any) -> None:
    client.force_login(users["gerd"])
    assert client.get("/").wsgi_request.user.username == "gerd"
    assert client.get("/").wsgi_request.user.username == "gerd"
