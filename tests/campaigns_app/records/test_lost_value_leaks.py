"""Issue 9 item 5: the opponent's pages, fragments, websocket renders, history and e-mails are byte-identical whether
or not the German's secret 2.519 Company Leader DR landed on the row whose value was settled before play (RR 2.5193
final DR 12: lost in the seed, typed at creation as TEST DATA "9-1, 8-0"). Nothing pauses, nothing differs."""
from __future__ import annotations

from typing import Any

from django.core import mail
from django.db import transaction
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, Seat
from rules_engine.dice import FixedDice, Roll
from tests.campaigns_app.conftest import client_for, deterministic_csrf, scrub_random, ws_fragments
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm, page, state_of

LEADER_TABLE = "2.5193"


class LeaderDice:
    """Dice showing 3 on every die except the 2.5193 Company Leader DR, which shows ``leader`` on both dice; with the
    counters CommittedDice keeps (the same numbering per stream in every variant)."""

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.fixed = FixedDice()
        self.purposes: list[str] = []

    def roll(self, kind: Any, purpose: str, roller: str, stream: str = "public") -> Roll:
        value = self.leader if LEADER_TABLE in purpose else 3
        self.fixed._values = [value, value]  # one roll at a time, numbered per stream like the committed dice
        self.purposes.append(purpose)
        return self.fixed.roll(kind, purpose, roller, stream)

    @property
    def counters(self) -> dict[str, int]:
        return dict(self.fixed._next)


def canadian_outputs(campaign: Campaign, users: Any, monkeypatch: Any, capture: Any, leader: int) -> tuple[Any, str, list[str]]:
    """The German buys I2 (PzGr Coy (Lehr), note L: company leaders by 2.5193) with the leader DR showing ``leader``
    twice; the Canadian's outputs, then everything rolled back."""
    dice = LeaderDice(leader)
    monkeypatch.setattr(engine, "committed_dice", lambda campaign, seeds: dice)
    with transaction.atomic():
        mail.outbox = []
        with capture(execute=True):
            services.order_submit(user=users["gerd"], public_id=campaign.public_id, orders=[{"type": "rg", "rg_id": "I2"}])
        state = state_of(campaign)
        assert state.phase_ref == "2.520" and not state.pending  # 2.519 ran to its end: no pause
        assert any(LEADER_TABLE in p for p in dice.purposes)
        client = client_for(users["cana"])
        url = reverse("campaign_fragments", args=[campaign.public_id])
        renders = (
            client.get(reverse("campaign_detail", args=[campaign.public_id])).content,
            client.get(url).content,
            ws_fragments(Seat.objects.get(campaign=campaign, side="canadian")),
            client.get(reverse("campaign_history", args=[campaign.public_id])).content,
            client.get(url + "?part=step-panel").content,
            client.get(reverse("campaign_rules", args=[campaign.public_id])).content,
            [(m.to, m.subject, m.body) for m in mail.outbox if "cana@example.org" in m.to],
        )
        german = page(users["gerd"], campaign)
        transaction.set_rollback(True)
    return renders, german, dice.purposes


def test_the_opponent_sees_the_same_bytes_whether_the_secret_leader_dr_hit_the_settled_row(
    rr: Any, users: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)
    hit, german_hit, purposes_hit = canadian_outputs(campaign, users, monkeypatch, django_capture_on_commit_callbacks, 6)  # DR 12: the settled row
    miss, german_miss, purposes_miss = canadian_outputs(campaign, users, monkeypatch, django_capture_on_commit_callbacks, 5)  # DR 10: a printed row
    assert purposes_hit == purposes_miss  # the same rolls were made
    assert hit == miss
    canadian_page = scrub_random(hit[0].decode(), campaign)
    for secret in ("I2", "PzGr", "9-1, 8-0", "2.5193"):
        assert secret not in canadian_page
    # the German's own page does differ: DR 12 gave the typed leaders, DR 10 the printed ones (10-2, 9-1, 8-0)
    assert "9-1, 8-0" in german_hit
    assert german_hit != german_miss


def test_the_settled_values_are_public_on_both_players_rules_page(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    for user in (users["gerd"], users["cana"]):
        html = client_for(user).get(reverse("campaign_rules", args=[campaign.public_id])).content.decode()
        assert 'id="rules-lost-values"' in html
        assert "2.5193 Company Leader Allotment Table (RG Note L)" in html and "9-1, 8-0" in html
        assert "2.5061 Escape Results" in html and "Captured (TEST DATA)" in html
