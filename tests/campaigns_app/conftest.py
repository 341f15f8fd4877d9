"""Fixtures for the web app: the RR system loaded, players, and campaigns built through the services."""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.test.signals import template_rendered

from campaigns_app import engine, services
from campaigns_app.live import pages as live
from campaigns_app.models import Campaign, CgSystem, Seat
from campaigns_app.templatetags.rendered_once import REMEMBERED
from tests.campaigns_app.lost_test_values import RR as RR_LOST
from tests.campaigns_app.state_guard import forbidden_values

PASSWORD = "correct-horse-battery-staple-42"


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    settings.SITE_URL = "http://refit.test"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _no_state_in_template_contexts() -> Any:
    """Every template rendered during a web-app test (page, fragment, websocket frame, e-mail) gets no CampaignState
    or SideLedger: the door (campaigns_app.door) gives pages a SideView's JSON and words only."""
    found: list[str] = []

    def check(sender: Any, template: Any, context: Any, **kwargs: Any) -> None:
        values = context.flatten() if hasattr(context, "flatten") else context
        found.extend(f"{getattr(template, 'name', template)}: {where}" for where in forbidden_values(values))

    template_rendered.connect(check, dispatch_uid="no-state-in-template-contexts")
    yield
    template_rendered.disconnect(dispatch_uid="no-state-in-template-contexts")
    assert not found, "a template context holds the engine's state:\n" + "\n".join(found[:20])


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


@pytest.fixture
def alice(db: Any) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: Any) -> User:
    return make_user("bob")


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def new_campaign(german: User, canadian: User | None, *, to_initiative: bool = True, name: str = "Hill 112") -> Campaign:
    """A fresh RR campaign: German creates, Canadian joins; with ``to_initiative`` both play through the phase with
    nothing bought (Initial Scenario, results, the RePh) to the 19 PM Initiative Determination (2.522)."""
    load_rr() if not CgSystem.objects.filter(id="rr").exists() else None
    campaign = services.campaign_create(user=german, system_id="rr", side="german", name=name, lost_values=RR_LOST)
    if canadian is not None:
        services.campaign_join(user=canadian, token=campaign.invitations.get().token)
        if to_initiative:
            drive(campaign, {"german": german, "canadian": canadian}, lambda state: state.step == "initiative")
    campaign.refresh_from_db()
    return campaign


DEFAULT_RESULTS = {"cvp": {"german": 4, "canadian": 6}, "attacked": {"german": True, "canadian": False},
                   "lvp": {"canadian": 3}, "winner": None}
DEFAULT_CHITS = {"german": "attack", "canadian": "idle"}


def drive(campaign: Campaign, players: dict[str, User], until: Callable[[Any], bool], *,
          results: dict[str, Any] | None = None, chits: dict[str, str] | None = None, supplied: int = 3,
          limit: int = 300) -> Any:
    """Play both sides through the browser-facing services until ``until(state)``: nothing bought, no Recon, every
    step marked done in its order, the same results entered by both, SAN/LVP supplied as ``supplied``."""
    from rules_engine import sequence

    for _ in range(limit):
        campaign.refresh_from_db()
        state = engine.load_state(campaign.state)
        if until(state):
            return state
        if state.ended:
            raise AssertionError(f"the CG ended before the condition was met (at {state.date_id})")
        system = engine.system_for(campaign)
        moved = False
        for side, user in players.items():
            state = engine.load_state(Campaign.objects.get(pk=campaign.pk).state)
            if until(state):
                return state
            wanted = engine.needs(system, state, side)
            step = next((s for s in system.steps if s.ref == state.phase_ref), None)
            try:
                if state.step == "results":
                    if side in state.results:
                        continue
                    services.results_submit(user=user, public_id=campaign.public_id, entry=results or DEFAULT_RESULTS)
                elif state.step == "initiative":
                    if side in state.sealed:
                        continue
                    services.chit_submit(user=user, public_id=campaign.public_id, side=side,
                                         chit=(chits or DEFAULT_CHITS)[side])
                elif wanted:
                    services.value_supply(user=user, public_id=campaign.public_id, need_id=wanted[0]["id"],
                                          value=supplied)
                elif side in state.done:
                    continue
                elif step is not None and step.action == "purchase-recon":
                    services.recon_submit(user=user, public_id=campaign.public_id, extra=None)
                elif step is not None and sequence.step_kind(system, step) == "input":
                    services.order_submit(user=user, public_id=campaign.public_id, orders=[])
                else:
                    services.phase_mark_done(user=user, public_id=campaign.public_id)
            except services.ServiceError as error:
                if "goes first" in str(error) or "resolved by the app" in str(error):
                    continue
                raise
            moved = True
        if not moved:
            raise AssertionError(f"stuck at {state.date_id} {state.step} {state.phase_ref}")
    raise AssertionError("drive: too many steps")


@pytest.fixture
def campaign_factory(rr: CgSystem) -> Callable[..., Campaign]:
    return new_campaign


def ws_fragments(seat: Seat, notes: bool = False) -> dict[str, str]:
    """What the seat's websocket sends on connect: every fragment of its published view, stamped with its version
    (``notes``: with the notes page's, as its notes page's socket reads it)."""
    view = live.published(seat.pk, notes)
    assert view is not None
    return {fragment_id: view.stamped(fragment_id) for fragment_id in view.fragments}


def deterministic_csrf(monkeypatch: Any) -> None:
    """Make the per-response CSRF mask constant, so two renders of the same page can be compared byte for byte."""
    from django.middleware import csrf

    monkeypatch.setattr(csrf, "_get_new_csrf_string", lambda: "m" * csrf.CSRF_SECRET_LENGTH)


def scrub_random(text: str, campaign: Campaign) -> str:
    """The page without its random strings (CSRF tokens, one-time form tokens, the public id, the seed commitment), so
    a short secret such as "I4" or "913" is never found in them by chance."""
    text = re.sub(r'(csrfmiddlewaretoken" value=|"X-CSRFToken": )"[^"]*"', "", text)
    text = re.sub(r'name="token" value="[0-9a-f]+"', "", text)
    return text.replace(campaign.public_id, "").replace(campaign.seed_commitment, "")


def snapshot(campaign: Campaign) -> tuple[Any, ...]:
    """Everything a refused submission must leave unchanged."""
    fresh = Campaign.objects.get(pk=campaign.pk)
    events = list(fresh.events.order_by("seq").values_list("seq", "kind", "visibility", "side", "payload"))
    seats = list(fresh.seats.order_by("side").values_list("side", "user_id", "player_seed"))
    return (fresh.state, fresh.dice_counters, fresh.updated, events, seats)


@pytest.fixture
def nothing_remembered() -> Iterator[None]:
    """{% rendered_once %}'s store empty around the test: its hits and misses are the test's own."""
    REMEMBERED.clear()
    yield
    REMEMBERED.clear()
