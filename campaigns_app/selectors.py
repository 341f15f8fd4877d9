"""Reads: seats, the campaign list, what one seat's live page shows, its history. Nothing here writes.

Everything a player sees of a campaign's state goes through rules_engine view_for (their side only) and
Event.visible_to; event sequence numbers and primary keys never reach a template.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from campaigns_app import engine
from campaigns_app.models import Campaign, CgSystem, EventRecord, LiveConnection, Seat
from rules_engine.errors import RulesError
from rules_engine.vocabulary import Chit

HEARTBEAT_SECONDS = 25
ONLINE_WITHIN = timedelta(seconds=HEARTBEAT_SECONDS * 3)
HISTORY_LATEST = 5

STEP_LABELS = {
    "initial-scenario": "Initial Scenario",
    "initiative": "Initiative Determination",
    "scenario": "Scenario",
    "ended": "Campaign Game over",
}


def seat_for(public_id: str, user: AbstractBaseUser | Any) -> Seat | None:
    """The user's seat in the campaign, or None (anonymous, not seated, or no such campaign: callers answer 404)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Seat.objects.filter(campaign__public_id=public_id, user_id=user.pk)
        .select_related("campaign", "campaign__system", "user")
        .first()
    )


def seat_online(seat: Seat, at: datetime | None = None) -> bool:
    """Whether the seat has a live page open right now (a connection with a recent heartbeat)."""
    moment = at or timezone.now()
    return LiveConnection.objects.filter(seat=seat, last_beat__gte=moment - ONLINE_WITHIN).exists()


def systems_for_create() -> list[dict[str, Any]]:
    """CG systems a campaign can be created from, with their sides (systems that fail to parse are left out)."""
    rows = []
    for cg_system in CgSystem.objects.all():
        try:
            system = engine.system_of(cg_system)
        except Exception:  # a stored definition the current engine rejects: not offered
            continue
        if not getattr(system, "calendar", None):
            continue  # its calendar is on a CG Card not in the seed: a campaign cannot start yet
        rows.append(
            {
                "id": cg_system.id,
                "name": cg_system.name,
                "sides": [(side.id, side.name) for side in system.sides],
            }
        )
    return rows


def step_label(system: Any, view: dict[str, Any]) -> str:
    """The current step as a player reads it ("Initiative Determination (2.522)", "Scenario: Dual Attack")."""
    step = view.get("step", "")
    label = STEP_LABELS.get(step, step.replace("-", " ").capitalize())
    if step == "initiative" and view.get("initiative"):
        label = f"{label} ({view['initiative']['ref']})"
    if step == "scenario" and view.get("last_round") and view["last_round"]["date_index"] == view["date"]["index"]:
        label = f"{label}: {view['last_round']['label']}"
    return label


def chit_problem(system: Any, state: Any, seat: Seat, seats_count: int, side: str, chit: str) -> str | None:
    """Why this chit cannot be submitted now (a message naming what is allowed), or None when it can."""
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
    try:
        engine.validate_chit(system, state, seat.side, Chit(chit))
    except RulesError as error:
        return str(error)
    return None


def seat_chit_problem(seat: Seat, side: str, chit: str) -> str | None:
    """chit_problem for a seat, read fresh (the confirm step; the service re-checks under the row lock)."""
    campaign = Campaign.objects.select_related("system").get(pk=seat.campaign_id)
    system = engine.system_of(campaign.system)
    state = engine.load_state(campaign.state)
    return chit_problem(system, state, seat, Seat.objects.filter(campaign=campaign).count(), side, chit)


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


def campaign_rows(user: AbstractBaseUser) -> list[CampaignRow]:
    """The user's campaigns, most recently active first."""
    seats = (
        Seat.objects.filter(user_id=user.pk)
        .select_related("campaign", "campaign__system")
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
        system = engine.system_of(campaign.system)
        state = engine.load_state(campaign.state)
        view = engine.view_for(system, state, seat.side)
        opponent_side = engine.other_side(system, seat.side)
        opponent = opponents.get((campaign.id, opponent_side))
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
            )
        )
    return rows


def _describe_event(system: Any, record: EventRecord, viewer: str) -> dict[str, Any]:
    """A history line: what happened, in words, and its dice (if a roll)."""
    payload = record.payload or {}
    name = lambda side: engine.side_name(system, side) if side else ""  # noqa: E731
    kind = record.kind
    dice = None
    detail = ""
    if kind == "campaign-created":
        text = f"{payload.get('player')} created the campaign ({payload.get('system')}) and took the {name(payload.get('side'))} side."
        detail = f"Dice seed commitment (SHA-256): {payload.get('commitment', '')}"
    elif kind == "player-joined":
        text = f"{payload.get('player')} joined and took the {name(payload.get('side'))} side."
    elif kind == "chit-chosen":
        text = f"You chose {str(payload.get('chit', '')).capitalize()} for {payload.get('date')} (sealed)."
    elif kind == "chit-sealed":
        who = "You have" if payload.get("side") == viewer else f"The {name(payload.get('side'))} side has"
        text = f"{who} chosen an Initiative chit for {payload.get('date')}."
    elif kind == "chits-revealed":
        chits = payload.get("chits") or {}
        parts = ", ".join(
            f"{name(side)} {str(chits[side]).capitalize()}" for side in engine.side_ids(system) if side in chits
        )
        text = f"Initiative chits revealed for {payload.get('date')}: {parts} → {payload.get('label')}."
        order = []
        if payload.get("setup_first"):
            order.append(f"{name(payload['setup_first'])} sets up first")
        if payload.get("moves_first"):
            order.append(f"{name(payload['moves_first'])} moves first")
        detail = "; ".join(order)
    elif kind == "roll":
        dice = payload.get("dice") or []
        roller = name(payload.get("roller"))
        text = f"{payload.get('purpose')}: {payload.get('kind')} {payload.get('total')} rolled for the {roller} side"
        if payload.get("result"):
            label = f" ({payload['label']})" if payload.get("label") else ""
            text += f" → {name(str(payload['result']))}{label}"
        text += "."
        if payload.get("verify"):
            detail = "Verify this result against your printed chart."
    elif kind == "step-done":
        step = STEP_LABELS.get(str(payload.get("step")), str(payload.get("step")))
        text = f"The {name(payload.get('side'))} side marked the {step} of {payload.get('date')} finished."
    elif kind == "date-advanced":
        text = f"CG Date {payload.get('date')}: {STEP_LABELS.get(str(payload.get('step')), payload.get('step'))}."
    elif kind == "move-order":
        text = f"{name(payload.get('moves_first'))} moves first on {payload.get('date')}."
    elif kind == "cg-ended":
        text = f"The Campaign Game ended after {payload.get('date')}."
    else:
        text = kind.replace("-", " ").capitalize() + "."
    return {
        "kind": kind,
        "text": text,
        "detail": detail,
        "dice": dice,
        "secret": record.visibility != EventRecord.Visibility.PUBLIC,
        "created": record.created,
    }


def history(campaign: Campaign, seat: Seat, latest: int | None = None) -> list[dict[str, Any]]:
    """The events the seat's side may see, in order (``latest``: only the last few)."""
    system = engine.system_of(campaign.system)
    state = engine.load_state(campaign.state)
    records = list(EventRecord.objects.filter(campaign=campaign).order_by("seq"))
    visible = engine.visible_records(records, seat.side, engine.cg_ended(state))
    if latest is not None:
        visible = visible[-latest:]
    return [_describe_event(system, record, seat.side) for record in visible]


def live_context(seat: Seat) -> dict[str, Any]:
    """Everything the seat's live page renders (its own side's view only), fresh from the database."""
    campaign = Campaign.objects.select_related("system").get(pk=seat.campaign_id)
    system = engine.system_of(campaign.system)
    state = engine.load_state(campaign.state)
    view = engine.view_for(system, state, seat.side)
    seats = {s.side: s for s in Seat.objects.filter(campaign=campaign).select_related("user")}
    moment = timezone.now()
    online = set(
        LiveConnection.objects.filter(seat__campaign=campaign, last_beat__gte=moment - ONLINE_WITHIN).values_list(
            "seat__side", flat=True
        )
    )
    sides = engine.side_ids(system)
    players = []
    for side in sides:
        other_seat = seats.get(side)
        players.append(
            {
                "side": side,
                "side_name": engine.side_name(system, side),
                "player": other_seat.user.get_username() if other_seat else None,
                "you": side == seat.side,
                "online": side in online,
                "owes": view["owes"].get(side, []) if len(seats) == 2 else [],
                "done": view["done"].get(side, False),
            }
        )
    entry = None
    try:
        entry = system.calendar_entry(view["date"]["id"])
    except Exception:
        entry = None
    initiative = view.get("initiative")
    last_round = view.get("last_round")
    current_round = last_round if last_round and last_round["date_index"] == view["date"]["index"] else None
    revealed = None
    if current_round:
        revealed = {
            "label": current_round["label"],
            "result": current_round["result"],
            "chits": [
                {"side_name": engine.side_name(system, side), "chit": str(current_round["chits"].get(side, "")).capitalize(),
                 "you": side == seat.side}
                for side in sides
            ],
            "setup_first": engine.side_name(system, current_round["setup_first"]) if current_round["setup_first"] else None,
            "moves_first": engine.side_name(system, current_round["moves_first"]) if current_round["moves_first"] else None,
            "rolls": current_round.get("rolls", []),
        }
    opponent_side = engine.other_side(system, seat.side)
    return {
        "campaign": campaign,
        "seat": seat,
        "system": system,
        "view": view,
        "side_name": engine.side_name(system, seat.side),
        "opponent_name": engine.side_name(system, opponent_side),
        "opponent_joined": opponent_side in seats,
        "players": players,
        "my_owes": view["owes"].get(seat.side, []) if len(seats) == 2 else [],
        "opponent_owes": view["owes"].get(opponent_side, []) if len(seats) == 2 else [],
        "step_label": step_label(system, view),
        "step_name": STEP_LABELS.get(view.get("step", ""), view.get("step", "")),
        "date": view["date"],
        "calendar_entry": entry,
        "initiative": initiative,
        "my_attack_chits": (initiative.get("attack_chits") or {}).get(seat.side) if initiative else None,
        "chit_open": bool(initiative and initiative.get("open")) and len(seats) == 2,
        "revealed": revealed,
        "can_mark_done": len(seats) == 2 and engine.can_mark_done(system, state, seat.side),
        "move_order_due": len(seats) == 2 and engine.move_order_due(system, state, seat.side),
        "history_latest": history(campaign, seat, latest=HISTORY_LATEST),
        "ended": view.get("ended", False),
    }
