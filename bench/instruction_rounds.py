"""The rounds bench/reveal_instructions.py counts under callgrind (one kind of request per run: REVEAL_INSTRUCTIONS);
skipped otherwise. Run by that script, not by hand and not by the suite."""
from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from bench.reveal_cpu import watched
from campaigns_app import services
from campaigns_app.live import presence_store
from campaigns_app.messages.selectors import message_form_id
from campaigns_app.models import Seat
from tests.campaigns_app.conftest import _test_settings, campaign_factory, client_for, rr, users  # noqa: F401

WARM = 3


def counted(request: Callable[[], Any]) -> Any:
    """``request()``, inside the only C function callgrind collects in (--toggle-collect=functools_reduce)."""
    return functools.reduce(lambda _done, _item: request(), [None], None)


def instrument() -> None:
    """Turn callgrind's instrumentation on for this process (it starts off: the setup is not simulated)."""
    subprocess.run(["callgrind_control", "-i", "on", str(os.getpid())], check=True, capture_output=True)


@pytest.mark.skipif("REVEAL_INSTRUCTIONS" not in os.environ, reason="run by bench/reveal_instructions.py")
def test_count_one_kind_of_request(campaign_factory: Any, users: Any,  # noqa: F811
                                   django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch,
                                   settings: Any) -> None:
    settings.ROOT_URLCONF = "bench.floor_urls"
    what = os.environ["REVEAL_INSTRUCTIONS"]
    rounds = int(os.environ.get("REVEAL_INSTRUCTIONS_ROUNDS", "20"))
    campaign = watched(campaign_factory(users["gerd"], users["cana"]), monkeypatch)
    chit_url = reverse("chit_submit", args=[campaign.public_id])
    htmx = {"HX-Request": "true"}
    client_for(users["gerd"]).post(chit_url, {"side": "german", "chit": "attack", "confirmed": "yes"}, headers=htmx)
    second = client_for(users["cana"])
    chit = {"side": "canadian", "chit": "idle", "confirmed": "yes"}
    german = Seat.objects.get(campaign=campaign, side="german").pk
    if what.endswith(", 30 messages"):  # the conversation the pages show full (its latest 30), as in a campaign under way
        earlier = timezone.now() - timedelta(hours=2)
        for index in range(30):
            user, side = (users["gerd"], "german") if index % 2 else (users["cana"], "canadian")
            services.message_send(public_id=campaign.public_id, user=user, text=f"Message {index}: see https://vasl.info",
                                  form_id=message_form_id(campaign, side), moment=earlier + timedelta(minutes=index))
    requests: dict[str, tuple[Callable[[], Any], int | None]] = {
        "reveal (htmx)": (lambda: second.post(chit_url, chit, headers=htmx), 200),
        "reveal (plain form)": (lambda: second.post(chit_url, chit), 302),
        "message (htmx)": (lambda: second.post(
            reverse("campaign_message", args=[campaign.public_id]),
            {"text": "Hold the crossroads", "form_id": message_form_id(campaign, "canadian")}, headers=htmx), 200),
        "last page closing": (lambda: services.presence_close(
            public_id=campaign.public_id, seat_id=german, side="german", channel_name="bench.live!german"), None),
        "request floor": (lambda: second.post(f"/bench-floor/{campaign.public_id}/", chit, headers=htmx), 200),
    }
    requests["reveal, 30 messages"] = requests["reveal (htmx)"]
    requests["message, 30 messages"] = requests["message (htmx)"]
    request, status = requests[what]
    for index in range(WARM + rounds):
        if index == WARM:
            instrument()
        savepoint = transaction.savepoint_create()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            response = counted(request) if index >= WARM else request()
        assert status is None or response.status_code == status
        assert what == "request floor" or callbacks  # the write published (frames after commit)
        transaction.savepoint_rollback(savepoint)
        presence_store.store().beat(campaign.public_id, "german", "bench.live!german", presence_store.clock())
