"""No leak through the digest: the Canadian's daily digest is byte-identical whatever the German secretly bought and
rolled (the lines hold only the words the e-mails to the Canadian hold)."""
from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from django.core import mail, signing
from django.db import transaction

from campaigns_app import services
from campaigns_app.notify import digest
from tests.campaigns_app.notify.helpers import DAY_ONE, choose_default, queued
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm, state_of
from tests.campaigns_app.phase.test_phase_leaks import ORDERS


def _canadian_digest(campaign: Any, users: Any, orders: list[dict[str, Any]], capture: Any) -> tuple[str, list[str]]:
    """The Canadian's digest after the German's secret order and its 2.519 rolls, then everything rolled back."""
    with transaction.atomic():
        with capture(execute=True):
            services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=orders)
        assert state_of(campaign).phase_ref == "2.520"
        lines = queued(users["cana"])
        mail.outbox.clear()
        digest.send_digests(DAY_ONE)
        [body] = [message.body for message in mail.outbox if message.to == ["cana@example.org"]]
        transaction.set_rollback(True)
    return body, lines


def test_the_opponents_digest_is_byte_identical_whatever_the_german_bought_in_secret(
    rr: Any, users: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pin_clock(monkeypatch)
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: 1_800_000_000))  # the links' timestamps
    campaign = german_to_buy_at_19pm(users)
    choose_default(users["cana"], "digest")

    seen = {name: _canadian_digest(campaign, users, orders, django_capture_on_commit_callbacks)
            for name, orders in ORDERS.items()}

    bodies = {body for body, _ in seen.values()}
    assert len(bodies) == 1
    body, lines = seen["nothing"]
    assert lines == ["Your move."]  # the comparison is not of two empty digests
    words = re.sub(r"https?://\S+", "", body)  # its links' random ids and signed tokens may hold "M1" by chance
    for secret in ("I4", "Eng Pltn", "AT Sect", "PzGr", "on-map", "2.519", "G2", "M1"):
        assert secret not in words
