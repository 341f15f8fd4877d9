"""Fixtures for the web app: the RR system loaded, players, and campaigns built through the services."""
from __future__ import annotations

import hashlib
import importlib.util
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from campaigns_app import engine, services
from campaigns_app.models import Campaign, CgSystem

# channels.testing imports daphne (for ChannelsLiveServerTestCase) at package import; Refit serves with uvicorn
# and only needs WebsocketCommunicator, so without daphne installed a stand-in keeps that import working.
if importlib.util.find_spec("daphne") is None:
    _daphne = types.ModuleType("daphne")
    _daphne_testing = types.ModuleType("daphne.testing")
    _daphne_testing.DaphneProcess = None  # type: ignore[attr-defined]
    _daphne.testing = _daphne_testing  # type: ignore[attr-defined]
    sys.modules.setdefault("daphne", _daphne)
    sys.modules.setdefault("daphne.testing", _daphne_testing)

PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    settings.SITE_URL = "http://refit.test"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def load_rr() -> CgSystem:
    text = (Path(settings.REFIT_FIXTURES_DIR) / "rr.yaml").read_text(encoding="utf-8")
    system = engine.parse_system(text, "rr.yaml")
    cg, _ = CgSystem.objects.update_or_create(
        id=system.id,
        defaults={"name": system.name, "definition": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
    )
    return cg


@pytest.fixture
def rr(db: Any) -> CgSystem:
    return load_rr()


def make_user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.org", PASSWORD)


@pytest.fixture
def users(db: Any) -> dict[str, User]:
    """german (creates), canadian (joins) and a third player, carol."""
    return {name: make_user(name) for name in ("gerd", "cana", "carol")}


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def new_campaign(german: User, canadian: User | None, *, to_initiative: bool = True, name: str = "Hill 112") -> Campaign:
    """A fresh RR campaign: German creates, Canadian joins, both finish the Initial Scenario (→ 19 PM initiative)."""
    load_rr() if not CgSystem.objects.filter(id="rr").exists() else None
    campaign = services.campaign_create(user=german, system_id="rr", side="german", name=name)
    if canadian is not None:
        services.campaign_join(user=canadian, token=campaign.invitations.get().token)
        if to_initiative:
            services.step_mark_done(user=german, public_id=campaign.public_id)
            services.step_mark_done(user=canadian, public_id=campaign.public_id)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def campaign_factory(rr: CgSystem) -> Callable[..., Campaign]:
    return new_campaign


def deterministic_csrf(monkeypatch: Any) -> None:
    """Make the per-response CSRF mask constant, so two renders of the same page can be compared byte for byte."""
    from django.middleware import csrf

    monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda: "m" * csrf.CSRF_SECRET_LENGTH)


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    """Everything a refused submission must leave unchanged."""
    fresh = Campaign.objects.get(pk=campaign.pk)
    events = list(fresh.events.order_by("seq").values_list("seq", "kind", "visibility", "side", "payload"))
    seats = list(fresh.seats.order_by("side").values_list("side", "user_id", "player_seed"))
    return (fresh.state, fresh.dice_counters, fresh.updated, events, seats)
