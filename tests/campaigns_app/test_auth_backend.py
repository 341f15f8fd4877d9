"""The signed-in user is read by a prepared query (campaigns_app.auth_backend): the same user, the same refusals as
Django's ModelBackend, and players signed in before it stay signed in."""
from __future__ import annotations

from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from campaigns_app.auth_backend import PATH, PreparedModelBackend
from tests.campaigns_app.conftest import PASSWORD, client_for

OLD_PATH = "django.contrib.auth.backends.ModelBackend"


def signed_in_as(client: Client) -> str | None:
    """Whose campaign list the client gets (None: sent to log in)."""
    response = client.get(reverse("campaign_list"))
    return response.wsgi_request.user.get_username() if response.status_code == 200 else None


def test_a_player_signing_in_now_is_read_back_by_the_prepared_backend(users: Any) -> None:
    client = Client()
    assert client.post(reverse("login"), {"username": "gerd", "password": PASSWORD}).status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == PATH
    assert signed_in_as(client) == "gerd"


def test_a_player_signed_in_before_the_prepared_backend_stays_signed_in(users: Any) -> None:
    client = Client()
    client.force_login(users["cana"], backend=OLD_PATH)
    assert client.session[BACKEND_SESSION_KEY] == OLD_PATH
    assert signed_in_as(client) == "cana"


def test_a_new_player_is_signed_in_by_the_prepared_backend(db: Any) -> None:
    client = Client()
    response = client.post(reverse("signup"), {"username": "newcomer", "email": "newcomer@example.org",
                                               "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == PATH and signed_in_as(client) == "newcomer"


def test_a_deactivated_or_deleted_player_is_signed_out_as_with_djangos_backend(users: Any) -> None:
    active, removed = client_for(users["gerd"]), client_for(users["cana"])
    User.objects.filter(username="gerd").update(is_active=False)
    users["cana"].delete()
    assert signed_in_as(active) is None and signed_in_as(removed) is None
    backend = PreparedModelBackend()
    assert backend.get_user(users["gerd"].pk) is None and backend.get_user(10**9) is None
    User.objects.filter(username="gerd").update(is_active=True)
    assert backend.get_user(users["gerd"].pk) == users["gerd"] and signed_in_as(active) == "gerd"
