"""The one path every state-changing service takes: lock → validate → act → save → notify.

Each service runs in one transaction and locks the Campaign row before reading its state, so two players acting at
the same instant are serialised and a resolution happens exactly once. Every write a live page shows moves the
campaign's internal revision and publishes both seats' live views in the same transaction, under the lock
(campaigns_app.live.pages.publish); after commit, each seat whose page changed gets its own fragments on its own channel
group only. E-mail goes to the player for whom an action became due.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import DatabaseError, transaction

from campaigns_app import engine
from campaigns_app.engine import JSON, CampaignState, CommittedDice, Dice, Event, Outcome, RulesError, SideId, System
from campaigns_app.live import notifications
from campaigns_app.models import Campaign, EventRecord, Seat, now
from campaigns_app.prepared import Prepared, PreparedUpdate
from campaigns_app.records import projection as records
from campaigns_app.services.errors import NotSeated, RefusedOrder, ServiceError
from campaigns_app.services.tokens import current_step_ref, form_token, require_genuine
from rules_engine import pace

Owed = dict[SideId, tuple[str, ...]]
Due = dict[SideId, str]
Action = Callable[[System, CampaignState, SideId, Dice], Outcome]
Check = Callable[[System, CampaignState, Seat, list[Seat]], None]
MoreDue = Callable[[System, CampaignState, SideId, tuple[Event, ...], Due], Due]
NOT_STARTED = "This campaign has not started its between-scenario phase yet."
OPPONENT_MISSING = ("Your opponent has not joined yet. Send them the invitation link; play starts when both seats "
                    "are taken.")


def locked(public_id: str) -> Campaign:
    """The campaign row, locked for this transaction (NotSeated when there is none)."""
    found = LOCKED.first(public_id)
    if found is None:
        raise NotSeated("No such campaign.")
    return found


# of=self: lock the campaign row only, not the CG system row every campaign of that system shares
LOCKED = Prepared(lambda public_id: Campaign.objects.select_for_update(of=("self",)).select_related("system")
                  .defer("system__definition").filter(public_id=public_id), str)


def seats_of(campaign: Campaign) -> list[Seat]:
    """The campaign's seats (one or two), with their users."""
    return SEATS.rows(campaign.pk)


SEATS = Prepared(lambda campaign_id: Seat.objects.filter(campaign_id=campaign_id).select_related("user"), int)


def seat_of(seats: list[Seat], user: User) -> Seat:
    """The user's seat (NotSeated: views answer 404, existence is not confirmed)."""
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise NotSeated("No such campaign.")


def player_seeds(system: System, seats: list[Seat]) -> tuple[str, str]:
    """Both seats' player seeds in the system's side order."""
    by_side = {seat.side: seat.player_seed for seat in seats}
    first, second = engine.side_ids(system)
    return (by_side[first], by_side[second])


def require_both_seated(seats: list[Seat]) -> None:
    """ServiceError until the opponent has joined."""
    if len(seats) < 2:
        raise ServiceError(OPPONENT_MISSING)


def numbered_events(campaign: Campaign, events: Iterable[Event], at: datetime | None = None) -> list[EventRecord]:
    """The events as rows after the campaign's last one, moving ``campaign.event_seq`` past them (the caller holds the
    campaign row lock and saves the counter with the row, so seq cannot collide); ``at``: their moment (now)."""
    first = campaign.event_seq
    at = at or now()
    rows = [
        EventRecord(campaign=campaign, seq=first + index, kind=event.kind, visibility=str(event.visibility),
                    side=event.side or "", payload=dict(event.payload), created=at)
        for index, event in enumerate(events, start=1)
    ]
    campaign.event_seq = first + len(rows)
    return rows


def append_events(campaign: Campaign, events: Iterable[Event], at: datetime | None = None) -> list[EventRecord]:
    """Append events after the last one (at ``at``, else now) and save the campaign's event counter (the caller holds
    the row lock)."""
    rows = numbered_events(campaign, events, at)
    EVENT_SEQ.run(campaign.event_seq, campaign.pk)
    return EventRecord.objects.bulk_create(rows)


EVENT_SEQ = PreparedUpdate(Campaign, assign=("event_seq",))  # the counter append_events moves (written once)


def after_commit(campaign: Campaign, system: System, due: Due, seats: list[Seat] | None = None,
                 moved: bool = False, changed: Collection[str] | None = None) -> None:
    """Publish both seats' live pages now, under the lock (``seats``: as the service holds them; read when None;
    ``moved``: save_state moved the revision; ``changed``: the only fragments the write can change), their frames and
    the 'your move' e-mails (side → reason) after commit."""
    public_id = campaign.public_id
    notifications.publish(campaign, system, seats, moved, changed)
    for side, reason in due.items():
        transaction.on_commit(partial(notifications.email_action_due, public_id, side, reason))


def owes_all(system: System, state: CampaignState) -> Owed:
    """What each side owes now."""
    return {side: engine.owes(system, state, side) for side in engine.side_ids(system)}


def newly_due(before: Owed, after: Owed, actor: SideId) -> Due:
    """Sides other than the actor that owe something new after the action."""
    return {side: "action" for side, owed in after.items() if side != actor and owed and owed != before.get(side)}


def save_state(campaign: Campaign, state: CampaignState, counters: dict[str, int] | None = None,
               before: CampaignState | None = None) -> None:
    """Store the state (with the event counter, the pace's clocks, the live revision moved, and the dice counters) in
    one UPDATE and, when the ledgers changed from ``before`` (or it is not given), project the record tables, in the
    same transaction."""
    campaign.state = engine.stored_json(state)  # publishing reads it back without parsing it again
    campaign.revision += 1  # the row is locked: the live views are published at this revision (after_commit moved=True)
    campaign.updated = now()
    values = [campaign.state, campaign.event_seq, campaign.updated, campaign.due, campaign.revision]
    if counters is not None:
        campaign.dice_counters = counters
        values.append(counters)
    if (SAVE_STATE if counters is None else SAVE_STATE_AND_DICE).run(*values, campaign.pk) != 1:
        raise DatabaseError(f"campaign {campaign.pk}: the state's UPDATE changed no row")  # as save(update_fields=…)
    if before is None or records.inputs_changed(before, state):
        records.project(campaign, state)  # the CG Roster / RG Purchase Record tables, in the same transaction


# what save_state writes (the campaign row is locked): the UPDATE written once, as Model.save(update_fields=…) writes it
SAVE_STATE = PreparedUpdate(Campaign, assign=("state", "event_seq", "updated", "due", "revision"))
SAVE_STATE_AND_DICE = PreparedUpdate(Campaign, assign=("state", "event_seq", "updated", "due", "revision",
                                                       "dice_counters"))


def ended_due(system: System, state: CampaignState, actor: SideId, events: tuple[Event, ...], due: Due) -> Due:
    """Once the CG ends, the other side is told so (instead of what it owes)."""
    if any(event.kind == "cg-ended" for event in events):
        return {side: "ended" for side in engine.side_ids(system) if side != actor}
    return due


@dataclass(frozen=True)
class Move:
    """One state-changing request: the engine action and how the one path treats it.

    ``purpose``/``token``/``map_group``: the one-time form token (None: no replay check, scripts); ``step_ref``: the
    step a "Mark finished" form finishes; ``seated``: both seats required before anything else is checked;
    ``check``: the service's own validation (raises ServiceError), before the waiting step is refused; ``advance``: the automatic steps run after the action; ``more_due``: who else is told what."""

    action: Action
    purpose: str | None = None
    token: str | None = None
    map_group: str | None = None
    step_ref: str | None = None
    seated: bool = True
    check: Check | None = None
    advance: bool = True
    more_due: MoreDue = ended_due


def _stale_step(campaign: Campaign, seat: Seat, state: CampaignState, move: Move) -> bool:
    """Whether a "Mark finished" form names a step that is no longer current (FormNotValid: never issued)."""
    if move.step_ref is None:
        return False
    require_genuine(campaign, seat, "done", move.map_group, move.token)
    return current_step_ref(state) != move.step_ref


def _spent(campaign: Campaign, seat: Seat, state: CampaignState, move: Move) -> bool:
    """Whether the move's form was already recorded, or is stale (FormNotValid when it was never issued)."""
    if move.purpose is None:
        return False
    require_genuine(campaign, seat, move.purpose, move.map_group, move.token)
    return move.token != form_token(campaign, seat, state, move.purpose, move.map_group)


def _run(move: Move, system: System, state: CampaignState, side: SideId, dice: CommittedDice) -> Outcome:
    """The action (then the automatic steps); a refusal as a ServiceError (RefusedOrder with every broken rule)."""
    try:
        new_state, events = move.action(system, state, side, dice)
        more: tuple[Event, ...] = ()
        if move.advance:
            new_state, more = engine.advance(system, new_state, dice)
    except RulesError as error:
        violations = engine.violations_of(error)
        if violations:
            raise RefusedOrder(list(violations)) from None
        raise ServiceError(str(error)) from None
    return new_state, (*events, *more)


def act(public_id: str, user: User, move: Move) -> Campaign:
    """The one path: lock → seat → validate (token, phase, the move's check) → act → advance → save state and dice
    counters (and the event counter) → events → record tables (when the ledgers changed) → publish the live views →
    after commit, frames and e-mail. ``campaign.replayed``: a spent form did nothing."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    state = engine.load_state(campaign.state)  # parsed once
    campaign.replayed = _stale_step(campaign, seat, state, move)
    if campaign.replayed:
        return campaign
    system = engine.system_for(campaign)
    if move.seated:
        require_both_seated(seats)
    campaign.replayed = _spent(campaign, seat, state, move)
    if campaign.replayed:  # already recorded (or a stale form): nothing to do
        return campaign
    if move.check is not None:
        move.check(system, state, seat, seats)
    if engine.waiting(state):
        raise ServiceError(NOT_STARTED)
    before = owes_all(system, state)
    dice = engine.committed_dice(campaign, player_seeds(system, seats))
    new_state, events = _run(move, system, state, seat.side, dice)
    after = owes_all(system, new_state)
    campaign.due = pace.next_due(campaign.due or {}, before, after, now().isoformat())  # the clock of each due action
    rows = numbered_events(campaign, events)
    save_state(campaign, new_state, dice.counters, before=state)
    EventRecord.objects.bulk_create(rows)
    due = newly_due(before, after, seat.side)
    after_commit(campaign, system, move.more_due(system, new_state, seat.side, events, due), seats, moved=True)
    return campaign


def reveal_once(campaign: Campaign, side: SideId, made: list[EventRecord], key: str, number: int,
                revealed: str, reveal: Callable[[Mapping[str, JSON], SideId], Event], missing: str) -> bool:
    """Reveal ``side``'s sealed thing ``number`` (a note, a secret roll: the ``made`` events, numbered by their
    payload's ``key``) to both sides by the ``revealed`` kind of event; False when it already was (nothing written)."""
    found = [record for record in made if (record.payload or {}).get(key) == number]
    if not found:
        raise ServiceError(missing)
    if EventRecord.objects.filter(campaign=campaign, kind=revealed, side=side, **{f"payload__{key}": number}).exists():
        return False
    append_events(campaign, (reveal(found[0].payload, side),))
    after_commit(campaign, engine.system_for(campaign), {})
    return True
