"""Secret rolls at the board (issue 13 item 4b): roll a DR or dr for a typed purpose on the side's board stream (the
roll for the roller, a shadow for both), reveal one. Each call locks the campaign row like every other write, draws the
roll from the campaign's committed dice under that lock, saves the dice counters, appends the events
(rules_engine.board_secret makes them) and refreshes both live pages after commit."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import engine
from campaigns_app.models import Campaign, EventRecord
from campaigns_app.services.core import (
    NOT_STARTED,
    after_commit,
    append_events,
    locked,
    player_seeds,
    require_both_seated,
    reveal_once,
    seat_of,
    seats_of,
)
from campaigns_app.services.errors import ServiceError
from campaigns_app.services.tokens import current_step_ref, require_form_id
from rules_engine import board_secret
from rules_engine.dice import board_stream
from rules_engine.errors import RulesError
from rules_engine.events import EventKind

MAX_ROLLS = 500  # secret rolls at the board per side and campaign


def _rolls(campaign: Campaign, side: str) -> list[EventRecord]:
    return list(EventRecord.objects.filter(campaign=campaign, kind=EventKind.ROLL, side=side,
                                           payload__stream=board_stream(side)).order_by("seq"))


@transaction.atomic
def secret_roll(*, public_id: str, user: User, kind: str, purpose: str, form_id: str) -> int:
    """Roll in secret at the board for the user's side; the roll's number on its board stream. A form sent twice (same
    ``form_id``) rolls once."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    require_form_id(form_id, "open the notes and secret rolls page again and roll there")
    state = engine.load_state(campaign.state)
    if state.ended:
        raise ServiceError("The CG has ended: every secret roll is revealed and no new one can be made.")
    made = _rolls(campaign, seat.side)
    for record in made:
        if (record.payload or {}).get("form") == form_id:
            return int(record.payload["number"])
    try:
        board_secret.checked_kind(kind)
        board_secret.checked_purpose(purpose)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    require_both_seated(seats)
    if engine.waiting(state):
        raise ServiceError(NOT_STARTED)
    if len(made) >= MAX_ROLLS:
        raise ServiceError(f"A side can make at most {MAX_ROLLS} secret rolls at the board in a campaign.")
    system = engine.system_for(campaign)
    dice = engine.committed_dice(campaign, player_seeds(system, seats))
    events = board_secret.roll_in_secret(dice, seat.side, kind, purpose, state.date_id, current_step_ref(state),
                                         form_id)
    campaign.dice_counters = dice.counters
    Campaign.objects.filter(pk=campaign.pk).update(dice_counters=campaign.dice_counters)
    append_events(campaign, events)
    after_commit(campaign, system, {}, seats)
    return int(str(events[0].payload["number"]))


@transaction.atomic
def secret_roll_reveal(*, public_id: str, user: User, number: int) -> bool:
    """Reveal the user's side's secret roll ``number`` to both sides; False when it was already revealed."""
    if not 1 <= number <= MAX_ROLLS:
        raise ServiceError(f"Your side has no secret roll #{number}.")
    campaign = locked(public_id)
    seat = seat_of(seats_of(campaign), user)
    return reveal_once(campaign, seat.side, _rolls(campaign, seat.side), "number", number,
                       EventKind.BOARD_ROLL_REVEALED, board_secret.reveal, f"Your side has no secret roll #{number}.")
