"""Accounts (issue 10.6): log-in is throttled per account and per address (django-axes) with a page saying when to try
again; sign-up and password reset never reveal whether an e-mail address has an account."""
from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.campaigns_app.conftest import PASSWORD


def login(username: str, password: str, address: str = "203.0.113.7") -> Any:
    return Client(REMOTE_ADDR=address).post(reverse("login"), {"username": username, "password": password})


def test_an_account_is_locked_after_repeated_failures_and_the_page_says_when_to_try_again(users: Any) -> None:
    limit = settings.AXES_FAILURE_LIMIT
    assert limit == 5
    for attempt in range(limit - 1):
        assert login("gerd", f"wrong-{attempt}", address=f"198.51.100.{attempt}").status_code == 200
    locked = login("gerd", "wrong-last", address="198.51.100.99")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many failed log-ins" in page and "locked for 15 minutes" in page and "Try again after that" in page
    # locked even with the right password, from yet another address: the account is locked
    again = login("gerd", PASSWORD, address="198.51.100.200")
    assert again.status_code == 429 and "_auth_user_id" not in again.client.session
    # another account is not locked
    assert login("cana", PASSWORD, address="198.51.100.201").status_code == 302


def test_an_address_is_locked_after_repeated_failures_whatever_the_accounts_tried(users: Any) -> None:
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        login(f"nobody{attempt}", "wrong", address="192.0.2.50")
    response = login("carol", PASSWORD, address="192.0.2.50")
    assert response.status_code == 429 and "Too many failed log-ins" in response.content.decode()
    assert login("carol", PASSWORD, address="192.0.2.51").status_code == 302


def test_a_success_before_the_limit_starts_the_count_again(users: Any) -> None:
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        login("gerd", "wrong", address="192.0.2.60")
    assert login("gerd", PASSWORD, address="192.0.2.60").status_code == 302
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login("gerd", "wrong", address="192.0.2.60").status_code == 200


def test_password_reset_answers_the_same_whether_or_not_the_address_has_an_account(users: Any) -> None:
    known = Client().post(reverse("password_reset"), {"email": "gerd@example.org"})
    unknown = Client().post(reverse("password_reset"), {"email": "no-such-player@example.org"})
    assert known.status_code == unknown.status_code == 302 and known["Location"] == unknown["Location"]
    assert [message.to for message in mail.outbox] == [["gerd@example.org"]]


def test_sign_up_pages_are_the_same_for_a_taken_and_a_free_address(db: Any) -> None:
    User.objects.create_user("first", "same@example.org", PASSWORD)
    form = {"password1": PASSWORD, "password2": PASSWORD}
    taken = Client().post(reverse("signup"), {**form, "username": "newcomer2", "email": "same@example.org"}, follow=True)
    free = Client().post(reverse("signup"), {**form, "username": "third", "email": "free@example.org"}, follow=True)
    assert taken.status_code == free.status_code == 200
    def scrubbed(response: Any, name: str) -> str:
        return re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', "", response.content.decode()).replace(
            name, "X")

    assert scrubbed(taken, "newcomer2") == scrubbed(free, "third")  # a name no page holds ("second": button-secondary)
    assert User.objects.filter(email__iexact="same@example.org").count() == 2
