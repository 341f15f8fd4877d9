"""Reads for the campaign list, a seat and its presence, and whether a chit may be sealed now. Nothing here writes."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from campaigns_app import door, engine
from campaigns_app.engine import System
from campaigns_app.live import presence_store
from campaigns_app.models import Campaign, CgSystem, Seat
from campaigns_app.pace.selectors import deadline_of
from campaigns_app.phase.steps import step_label
from campaigns_app.prepared import Prepared
from rules_engine.view import ChitFacts
from rules_engine.vocabulary import Chit


def seat_for(public_id: str, user: AbstractBaseUser | Any) -> Seat | None:
    """The user's seat in the campaign, or None (anonymous, not seated, or no such campaign: callers answer 404)."""
    if not getattr(user, "is_authenticated", False) or not isinstance(user.pk, int):
        return None
    return SEAT_FOR.first(public_id, user.pk)


SEAT_FOR = Prepared(lambda public_id, user_id: (
    Seat.objects.filter(campaign__public_id=public_id, user_id=user_id)
    .select_related("campaign", "campaign__system", "user")
    # the system's YAML text is parsed once per process (engine.system_of); the state is read where it is needed
    .defer("campaign__system__definition", "campaign__state")
    [:1]), str, int)


def seeds_fixed(campaign: Campaign, seats_count: int) -> bool:
    """Whether the player seeds are fixed: once both players have joined (or a roll was made).

    Every roll binds both seeds, so a seed must not change after the first roll. But the first roll may be one side's
    secret roll (an RG bought before the Initial Scenario, an optional secret roll): fixing the seeds at that moment
    would tell the other player that it happened. So they are fixed at the earliest public moment after which a roll
    can be made — the join (no roll is made before both seats are taken)."""
    return seats_count >= 2 or any(int(n or 0) > 0 for n in (campaign.dice_counters or {}).values())


def seat_online(public_id: str, side: str) -> bool:
    """Whether the seat has a live page open right now (a socket with a recent heartbeat, in the presence store)."""
    return side in presence_store.online(public_id)


def systems_for_create() -> list[dict[str, Any]]:
    """CG systems a campaign can be created from, with their sides (systems that fail to parse are left out)."""
    rows = []
    for cg_system in CgSystem.objects.all():
        try:
            system = engine.system_of(cg_system)
        except Exception:  # a stored definition the current engine rejects: not offered
            continue
        if not system.calendar:
            continue  # its calendar is on a CG Card not in the seed: a campaign cannot start yet
        rows.append(
            {
                "id": cg_system.id,
                "name": cg_system.name,
                "sides": [(side.id, side.name) for side in system.sides],
            }
        )
    return rows


def chit_problem(system: System, chits: ChitFacts, seat: Seat, seats_count: int, side: str, chit: str) -> str | None:
    """Why this chit cannot be submitted now (a message naming what is allowed), or None when it can (``chits``: the
    seat's side's ChitFacts, which say why a chit is refused)."""
    sides = engine.side_ids(system)
    if side != seat.side:
        if side in sides:
            return (
                f"You play the {engine.side_name(system, seat.side)} side; you cannot submit a chit for the "
                f"{engine.side_name(system, side)} side."
            )
        return f"Unknown side “{side}” (allowed: {seat.side})."
    allowed = [c.value for c in Chit]
    if chit not in allowed:
        return f"“{chit}” is not an Initiative chit (allowed: {', '.join(allowed)})."
    if seats_count < 2:
        return "Your opponent has not joined yet; chits are chosen once both seats are taken."
    return chits.refusal(Chit(chit))


def seat_chit_problem(seat: Seat, side: str, chit: str) -> str | None:
    """chit_problem for a seat, read fresh (the confirm step; the service re-checks under the row lock)."""
    campaign = Campaign.objects.select_related("system").defer("system__definition").get(pk=seat.campaign_id)
    return chit_problem(door.system_of(campaign), door.campaign_chit_facts(campaign, seat.side), seat,
                        Seat.objects.filter(campaign=campaign).count(), side, chit)


@dataclass(frozen=True)
class CampaignRow:
    """One line of "My campaigns"."""

    public_id: str
    name: str
    system: str
    side: str
    opponent: str | None
    date: str
    step: str
    owes: tuple[str, ...]
    waiting_for_opponent: bool
    updated: datetime
    deadline: datetime | None = None  # the pace's deadline of the user's due action (None: none running)
    overdue: bool = False


def campaign_rows(user: AbstractBaseUser) -> list[CampaignRow]:
    """The user's campaigns: what is due first (soonest deadline first, overdue at the top), then the most recently
    active."""
    seats = (
        Seat.objects.filter(user_id=user.pk)
        .select_related("campaign", "campaign__system")
        .defer("campaign__system__definition")
        .order_by("-campaign__updated")
    )
    campaign_ids = [seat.campaign_id for seat in seats]
    opponents = {
        (seat.campaign_id, seat.side): seat.user.get_username()
        for seat in Seat.objects.filter(campaign_id__in=campaign_ids).exclude(user_id=user.pk).select_related("user")
    }
    rows = []
    for seat in seats:
        campaign = seat.campaign
        system = door.system_of(campaign)
        view: Any = door.side_view(campaign, seat.side).json
        opponent_side = engine.other_side(system, seat.side)
        opponent = opponents.get((campaign.id, opponent_side))
        deadline, overdue = deadline_of(campaign, seat.side)
        rows.append(
            CampaignRow(
                public_id=campaign.public_id,
                name=campaign.name,
                system=campaign.system.name,
                side=engine.side_name(system, seat.side),
                opponent=opponent,
                date=str(view["date"]["id"]),
                step=step_label(system, view),
                owes=tuple(view["owes"][seat.side]) if opponent else (),
                waiting_for_opponent=opponent is None,
                updated=campaign.updated,
                deadline=deadline,
                overdue=overdue,
            )
        )
    return sorted(rows, key=_due_first)


def _due_first(row: CampaignRow) -> tuple[int, float]:
    if row.owes and row.deadline is not None:
        return (0, row.deadline.timestamp())
    return (1 if row.owes else 2, -row.updated.timestamp())
