"""Helper for the scripted campaigns (test_campaign_*.py): two players drive a campaign through campaigns_app.services
on the test database, with scripted dice.

Dice: the services take their dice from ``engine.committed_dice(campaign, player_seeds)``; there is no injection point
for fixed dice, so the scripts replace that factory (monkeypatch) with a FixedDice-backed stand-in that keeps the same
``counters`` contract. Every die the script expects is listed in the test, in the order the rules roll them; a test
ends by asserting that no scripted die is left over (and FixedDice raises if one more is rolled than scripted).
"""
from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User

from campaigns_app import engine, services
from campaigns_app.models import Campaign, CgSystem, EventRecord
from rules_engine.dice import FixedDice
from rules_engine.sequence import resolve_order
from rules_engine.state import CampaignState
from tests.campaigns_app.lost_test_values import BY_SYSTEM

CARDS = Path(__file__).resolve().parent / "cards"
PASSWORD = "correct-horse-battery-staple-42"


class ScriptedDice:
    """FixedDice with CommittedDice's ``counters`` (next number per stream), shared by every service call."""

    def __init__(self, *values: int) -> None:
        self.fixed = FixedDice(*values)

    def roll(self, *args: Any, **kwargs: Any) -> Any:
        return self.fixed.roll(*args, **kwargs)

    @property
    def counters(self) -> dict[str, int]:
        return dict(self.fixed._next)

    @property
    def remaining(self) -> int:
        return self.fixed.remaining

    @property
    def made(self) -> list[Any]:
        return self.fixed.made


def load_system(system_id: str) -> CgSystem:
    text = (Path(settings.REFIT_FIXTURES_DIR) / f"{system_id}.yaml").read_text(encoding="utf-8")
    system = engine.parse_system(text, f"{system_id}.yaml")
    cg, _ = CgSystem.objects.update_or_create(
        id=system.id,
        defaults={"name": system.name, "definition": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
    )
    return cg


# The players' choices a script makes when it names none: the settings without a default that the players must choose
# (KGP 8.51–.53 which CG; PL 3.2 Redeployment Option). No script depends on them.
CHOICES: dict[str, dict[str, Any]] = {"kgp": {"kgp_cg": "I"}, "pl25": {"redeployment_option": "A"}}


class Play:
    """One campaign, two seated players; each method is one player's action through a service."""

    def __init__(self, monkeypatch: Any, system_id: str, creator_side: str, dice: ScriptedDice,
                 card: Path | None = None, card_text: str | None = None,
                 player_settings: Mapping[str, Any] | None = None,
                 lost_values: Mapping[str, Any] | None = None) -> None:
        load_system(system_id)
        self.dice = dice
        monkeypatch.setattr(engine, "committed_dice", lambda campaign, seeds: dice)
        self.users: dict[str, User] = {}
        creator = User.objects.create_user(f"{system_id}-a", f"{system_id}-a@example.org", PASSWORD)
        joiner = User.objects.create_user(f"{system_id}-b", f"{system_id}-b@example.org", PASSWORD)
        extra: dict[str, Any] = {}
        if card is not None or card_text is not None:
            from campaigns_app.cards import services as card_services

            text = card_text if card_text is not None else card.read_text(encoding="utf-8")  # type: ignore[union-attr]
            made = card_services.card_create(creator, text, filename=card.name if card is not None else "card.yaml")
            extra["card_id"] = made.id
        choices = dict(CHOICES.get(system_id, {}) if player_settings is None else player_settings)
        campaign = services.campaign_create(user=creator, system_id=system_id, side=creator_side,
                                            name=f"Scripted {system_id}", player_settings=choices,
                                            lost_values=BY_SYSTEM.get(system_id, {}) if lost_values is None else lost_values,
                                            **extra)
        services.campaign_join(user=joiner, token=campaign.invitations.get().token)
        self.public_id = campaign.public_id
        for seat in campaign.seats.all():
            self.users[seat.side] = seat.user
        self.system = engine.system_for(self.campaign)

    # --- reading ---------------------------------------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        return Campaign.objects.get(public_id=self.public_id)

    @property
    def state(self) -> CampaignState:
        return engine.load_state(self.campaign.state)

    def ledger(self, side: str) -> Any:
        return self.state.ledgers[side]

    def roster(self, side: str, date_id: str) -> Any:
        line = self.ledger(side).roster_line(date_id)
        assert line is not None, f"{side} has no CG Roster line for {date_id}"
        return line

    def records(self, kind: str, **payload: Any) -> list[EventRecord]:
        """EventRecords of ``kind`` whose payload contains ``payload``."""
        found = EventRecord.objects.filter(campaign__public_id=self.public_id, kind=kind).order_by("seq")
        return [r for r in found if all(r.payload.get(k) == v for k, v in payload.items())]

    def at(self) -> tuple[str, str | None, str | None]:
        state = self.state
        return state.date_id, state.step, state.phase_ref

    # --- acting ----------------------------------------------------------------------------------------------------

    def done(self, side: str, map_group: str | None = None) -> None:
        services.phase_mark_done(user=self.users[side], public_id=self.public_id, map_group=map_group)

    def map_groups(self) -> list[str]:
        """KGP 8.2: the Map Groups with a CG scenario on the current date (empty without Map Groups)."""
        return [g.id for g in engine.map_groups_in_play(self.system, self.state)]

    def both_done(self) -> None:
        """Both sides finish the current step, in the step's order when it is ordered (a scenario played per Map
        Group: each Map Group's, in play order)."""
        state = self.state
        if state.step in ("scenario", "initial-scenario") and self.map_groups():
            for group in self.map_groups():
                for side in state.sides:
                    if side not in self.state.map_done.get(group, ()):
                        self.done(side, group)
            return
        order: Sequence[str] | None = None
        if state.step == "phase" and state.phase_ref and not state.phase_ref.startswith("@"):
            step = next(s for s in self.system.steps if s.ref == state.phase_ref)
            if step.sides == "ordered":
                order = resolve_order(self.system, state, step)
        asked = [s for s in state.sides if any(n["id"] == "roll-answers" for n in engine.needs(self.system, state, s))]
        if asked:  # an automatic secret roll asking its DRM ticks first (issue 14 item 7): nothing ticked
            for side in asked:
                self.supply(side, "roll-answers", {})
            return
        for side in order or state.sides:
            if side not in self.state.done:
                self.done(side)

    def until(self, ref: str) -> list[str]:
        """Both sides finish every step (nothing bought, nothing rolled) until the cursor is at ``ref``; returns the
        steps passed (automatic ones included, as the checklist shows them)."""
        passed: list[str] = []
        for _ in range(100):
            state = self.state
            here = state.phase_ref or state.step
            if here == ref or state.step == ref:
                return passed
            passed.append(here)
            self.both_done()
        raise AssertionError(f"never reached {ref}; stuck at {self.at()}")

    def order(self, side: str, *orders: Mapping[str, Any]) -> None:
        services.order_submit(user=self.users[side], public_id=self.public_id, orders=[dict(o) for o in orders])

    def recon(self, side: str, extra: int | None) -> None:
        services.recon_submit(user=self.users[side], public_id=self.public_id, extra=extra)

    def supply(self, side: str, need_id: str, value: Any) -> None:
        services.value_supply(user=self.users[side], public_id=self.public_id, need_id=need_id, value=value)

    def roll(self, side: str, table_id: str, column: str | None = None, answers: Mapping[int, int | bool] | None = None) -> None:
        services.assisted_roll_submit(user=self.users[side], public_id=self.public_id, step_ref=self.state.phase_ref or "",
                                      table_id=table_id, column=column, answers=dict(answers or {}))

    def results(self, map_group: str | None = None, **entry: Any) -> None:
        """Both players enter the same results (confirmed by the second entry); with Map Groups, for ``map_group``."""
        for side in self.state.sides:
            self.enter(side, map_group, **entry)

    def enter(self, side: str, map_group: str | None = None, **entry: Any) -> None:
        """One player's results entry (for ``map_group``'s scenario when Map Groups are in play)."""
        data = {"cvp": {}, "attacked": {}, "winner": None, "lvp": {}, "leaders_lost": {}, "units_lost": {}, **entry}
        services.results_submit(user=self.users[side], public_id=self.public_id, entry=data, map_group=map_group)

    def chit(self, side: str, chit: str) -> None:
        services.chit_submit(user=self.users[side], public_id=self.public_id, side=side, chit=chit)
