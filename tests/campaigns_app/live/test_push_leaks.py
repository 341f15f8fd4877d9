"""The frame a write sends to the opponent's group tells it nothing of a secret action: after the German seals a
chit or secretly buys, the Canadian's group gets a frame byte-identical whatever the secret was (or none at all)."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from campaigns_app import services
from campaigns_app.live import notifications, presence_store
from campaigns_app.live import pages as live
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import new_campaign
from tests.campaigns_app.live.test_push import pages_open
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm
from tests.campaigns_app.phase.test_phase_leaks import ORDERS

Sent = list[tuple[str, dict[str, Any]]]


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch) -> list[live.Frame]:
    """Every frame the writes publish (also inside a transaction rolled back, where nothing is sent)."""
    frames: list[live.Frame] = []
    publish = live.publish

    def recorded(*args: Any) -> list[live.Frame]:
        made = publish(*args)
        frames.extend(made)
        return made

    monkeypatch.setattr(live, "publish", recorded)
    return frames


def canadian_messages(campaign: Any, frames: list[live.Frame], write: Callable[[], object]) -> Sent:
    """What the Canadian's group would be sent after ``write`` (then rolled back: the next variant starts alike)."""
    with transaction.atomic():
        frames.clear()
        write()
        sent = [(notifications.group_name("PUBLIC-ID", frame.side), notifications.frame_message(frame))
                for frame in frames if frame.side == "canadian"]
        transaction.set_rollback(True)
    return sent


def test_the_opponents_group_is_sent_the_same_frame_whichever_chit_the_german_sealed(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, published: list[live.Frame],
) -> None:
    pin_clock(monkeypatch)
    campaign = new_campaign(users["gerd"], users["cana"])
    pages_open(campaign)

    sent = {chit: canadian_messages(campaign, published, lambda chit=chit: services.chit_submit(
        user=users["gerd"], public_id=campaign.public_id, side="german", chit=chit)) for chit in ("attack", "idle")}

    assert len(sent["attack"]) == 1 and sent["attack"] == sent["idle"]
    group, message = sent["attack"][0]
    assert group == "campaign-PUBLIC-ID-canadian"
    seen = "".join(message["fragments"].values())
    assert "Has chosen" in seen
    for secret in ("chit is sealed", "chit-reveal", "German Assault", "chose Attack", "chose Idle", "chit chit-attack",
                   "chit chit-idle"):
        assert secret not in seen


def test_the_opponents_group_is_sent_the_same_frame_or_none_whatever_the_german_bought(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, published: list[live.Frame],
) -> None:
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)
    pages_open(campaign)

    sent = [canadian_messages(campaign, published, lambda orders=orders: services.order_submit(
        user=users["gerd"], public_id=campaign.public_id, orders=orders)) for orders in ORDERS.values()]

    assert all(variant == sent[0] for variant in sent[1:])
    seen = "".join(html for _, message in sent[0] for html in message["fragments"].values())
    for secret in ("I4", "Eng Pltn", "AT Sect", "PzGr", "on-map", "2.519 RG"):
        assert secret not in seen


def notes_pages_open(campaign: Any) -> None:
    """Both players have their notes page open (its fragments are published only then)."""
    for side in ("german", "canadian"):
        socket = presence_store.socket_key(f"test.notes!{side}", presence_store.NOTES_PAGE)
        presence_store.store().beat(campaign.public_id, side, socket, presence_store.clock())


def scrubbed(sent: Sent) -> Sent:
    """The frames without the salted commitments (random-looking: another note gives another one anyway)."""
    return [(group, {**message, "fragments": {key: re.sub(r"[0-9a-f]{64}", "<commitment>", html)
                                              for key, html in message["fragments"].items()}})
            for group, message in sent]


def test_the_opponents_notes_page_frame_is_the_same_whatever_text_the_german_sealed(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, published: list[live.Frame],
) -> None:
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)
    notes_pages_open(campaign)

    sent = [scrubbed(canadian_messages(campaign, published, lambda text=text: services.note_seal(
        public_id=campaign.public_id, user=users["gerd"], text=text, form_id="a" * 32)))
        for text in ("HIP 9-1 in K5", "Secret Bog target: the stone building in O7 and the orchard. " * 40)]

    assert len(sent[0]) == 1 and sent[0] == sent[1]
    notes = sent[0][0][1]["fragments"]["notes-list"]
    assert "Note #1" in notes and "Sealed: its text stays hidden" in notes and "<commitment>" in notes
    seen = "".join(sent[0][0][1]["fragments"].values())
    for secret in ("HIP 9-1", "in K5", "Secret Bog target", "orchard"):
        assert secret not in seen


def test_the_opponents_notes_page_frame_is_the_same_whatever_the_german_rolled_in_secret_and_for_what(
    rr: Any, users: Any, monkeypatch: pytest.MonkeyPatch, published: list[live.Frame],
) -> None:
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)
    notes_pages_open(campaign)

    def roll(purpose: str, seed: str) -> None:
        Campaign.objects.filter(pk=campaign.pk).update(dice_seed=seed)
        services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=purpose,
                             form_id="a" * 32)
        dice.append(EventRecord.objects.get(campaign=campaign, kind="roll", payload__stream="board-german")
                    .payload["dice"])

    dice: list[list[int]] = []
    sent = [canadian_messages(campaign, published, lambda: roll("Quagmire check O7", "11" * 32))]
    for seed in (str(n) * 64 for n in range(2, 8)):  # the dice hang on the random campaign id too: look for others
        other = canadian_messages(campaign, published, lambda seed=seed: roll("Marksman: the stone building", seed))
        if dice[-1] != dice[0]:
            sent.append(other)
            break

    assert dice[-1] != dice[0] and len(sent) == 2, "another seed gives another DR"
    assert len(sent[0]) == 1 and sent[0] == sent[1]
    rolls = sent[0][0][1]["fragments"]["secret-rolls-list"]
    assert "Secret DR #1" in rolls and "Hidden: its purpose and dice stay secret" in rolls
    assert "Quagmire" not in rolls and "Marksman" not in rolls
