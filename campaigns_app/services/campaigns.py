"""Campaigns and seats: create a campaign, join it by invitation, set a player seed before the dice can roll."""
from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from campaigns_app import engine
from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.cards import selectors as card_selectors
from campaigns_app.engine import JSON, DefinitionErrors, EventKind, RulesError, System
from campaigns_app.live import pages as live
from campaigns_app.models import Campaign, CgSystem, Invitation, Seat, new_player_seed, now
from campaigns_app.records import projection as records
from campaigns_app.services.core import (
    after_commit,
    append_events,
    locked,
    player_seeds,
    seat_of,
    seats_of,
)
from campaigns_app.services.errors import (
    CampaignFull,
    InvitationNotFound,
    LostValuesInvalid,
    PlayerSettingsInvalid,
    ServiceError,
)
from rules_engine import pace

PLAYER_SEED_MAX = 64
FULL = "This campaign is full: both sides are already taken."
seeds_fixed = campaign_selectors.seeds_fixed


def player_seed_problem(seed: str) -> str | None:
    """Why ``seed`` cannot be a player seed (a message saying what is allowed), or None when it can."""
    if not seed:
        return "Give a player seed: 1 to 64 printable characters (letters, digits, punctuation, spaces)."
    if len(seed) > PLAYER_SEED_MAX:
        return f"Your player seed is {len(seed)} characters long; at most {PLAYER_SEED_MAX} are allowed."
    if not seed.isprintable():
        return ("Your player seed contains a character that cannot be printed (a tab, a line break or a control "
                "character); use letters, digits, punctuation and spaces only.")
    return None


def clean_player_seed(seed: str | None) -> str:
    """The player seed to store: a fresh random one when none is given, else the given one, checked."""
    if seed is None:
        return new_player_seed()
    seed = str(seed).strip()
    problem = player_seed_problem(seed)
    if problem:
        raise ServiceError(problem)
    return seed


def _apply_player_settings(system: System, values: Mapping[str, object]) -> System:
    """The system with the players' choices over its card; every choice without a card value or default is required."""
    try:
        return engine.with_player_settings(system, values, complete=True)
    except DefinitionErrors as error:
        problems: dict[str, str] = {}
        names = {side.id: side.name for side in system.sides}
        for problem in error.errors:
            sid, _, rest = problem.path.partition(".")
            setting = next((s for s in system.settings if s.id == sid), None)
            title = card_selectors.setting_title(setting) if setting else f"“{sid}”"
            where = f"{title}, {names.get(rest, rest)}" if rest else title
            text = f"{where}: {problem.problem}" + (f" (allowed: {problem.allowed})" if problem.allowed else "") + "."
            problems[sid] = f"{problems[sid]} {text}" if sid in problems else text
        raise PlayerSettingsInvalid(problems) from None


def _campaign_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise ServiceError("Give the campaign a name (up to 120 characters).")
    if len(name) > 120:
        raise ServiceError("The campaign name is too long: at most 120 characters.")
    return name


def _cg_system(system_id: str) -> CgSystem:
    try:
        return CgSystem.objects.get(id=system_id)
    except CgSystem.DoesNotExist:
        allowed = ", ".join(CgSystem.objects.values_list("id", flat=True)) or "none loaded — run manage.py load_systems"
        raise ServiceError(f"Unknown CG system “{system_id}” (allowed: {allowed}).") from None


def _with_lost_values(system: System, lost_values: Mapping[str, object] | None) -> tuple[System, dict[str, JSON]]:
    try:
        supplied = engine.settle_values(system, lost_values or {})
    except RulesError as error:
        raise LostValuesInvalid(engine.value_problems(error)) from None
    return engine.with_values(system, supplied), supplied


def campaign_card(*, user: User, cg_system: CgSystem, card_id: str | None
                  ) -> tuple[System, dict[str, object]]:
    """For campaign_create: the System a new campaign plays by and the card fields to copy into it.

    Raises services.ServiceError (with the loader's message) when the card is not the user's, is for another system,
    does not apply, or the combination cannot start (e.g. a system whose calendar is on a CG Card, chosen without one).
    """
    if not card_id:
        system = engine.system_of(cg_system)
        blockers = card_selectors.start_blockers(system)
        if blockers:
            raise ServiceError(
                f"{cg_system.name} cannot start without a CG Card: {'; '.join(blockers)}. "
                "Choose a CG Card for it, or write one under My CG Cards."
            )
        return system, {}
    card = card_selectors.card_usable(user, card_id)
    if card is None:
        raise ServiceError("No such CG Card (choose one of your cards or a card that comes with Refit).")
    if card.system_id != cg_system.id:
        raise ServiceError(
            f"The CG Card “{card.name}” is for {card.system.name}, not {cg_system.name} (allowed: a card for {cg_system.id})."
        )
    try:
        system = engine.system_with_card(cg_system, card.text, card.sha256, f"{card.card_id}.yaml")
    except RulesError as error:
        raise ServiceError(f"The CG Card “{card.name}” does not apply to {cg_system.name} as loaded now:\n{error}") from None
    blockers = card_selectors.start_blockers(system)
    if blockers:
        raise ServiceError(f"{cg_system.name} with the CG Card “{card.name}” cannot start: {'; '.join(blockers)}.")
    return system, {"card": card, "card_name": card.name, "card_text": card.text, "card_sha256": card.sha256}


@transaction.atomic
def campaign_create(
    *, user: User, system_id: str, side: str, name: str, card_id: str | None = None,
    player_seed: str | None = None, player_settings: Mapping[str, object] | None = None,
    lost_values: Mapping[str, object] | None = None, pace_hours: int | None = None,
) -> Campaign:
    """Create a campaign with the creator in ``side``, a committed dice seed and an invitation for the opponent.
    ``player_seed``: the creator's own seed string bound into every roll (None: a random one). ``player_settings``:
    the players' choices of the ``source: players`` settings (KGP 8.31 CG Balance …), stored with the campaign for good.
    ``lost_values``: every value lost in the rule text the card leaves open (``engine.needed_values``), as typed
    {key: text}; refused (LostValuesInvalid, nothing saved) unless each is given as its chart prints it.
    ``pace_hours``: hours per due action (None: no limit), shown on the invitation and accepted by joining."""
    if pace_hours is not None and pace_hours not in pace.PACES:
        allowed = ", ".join(str(hours) for hours in pace.PACES)
        raise ServiceError(f"A pace is no time limit or one of {allowed} hours per action.")
    seed_text = clean_player_seed(player_seed)
    name = _campaign_name(name)
    cg_system = _cg_system(system_id)
    # The CG Card (K5): the user's own or a bundled one, for this system; its text is copied into the campaign.
    system, card_fields = campaign_card(user=user, cg_system=cg_system, card_id=card_id)
    system = _apply_player_settings(system, player_settings or {})
    chosen = {key: system.settings_values[key] for key in (player_settings or {})}  # as checked
    system, supplied = _with_lost_values(system, lost_values)
    sides = engine.side_ids(system)
    if side not in sides:
        raise ServiceError(f"Unknown side “{side}” for {cg_system.name} (allowed: {', '.join(sides)}).")
    try:
        started = engine.start_state(system)  # the full between-scenario phase (sequence.start)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    seed = engine.new_seed()
    campaign = Campaign.objects.create(
        system=cg_system, name=name, created_by=user,
        state=started[0] if started else engine.new_state(system),  # no start yet: it rolls, at the join
        dice_seed=seed.hex(), seed_commitment=engine.seed_commitment(seed), dice_counters={},
        player_settings=chosen, supplied_values=supplied, pace_hours=pace_hours, **card_fields,
    )
    Seat.objects.create(campaign=campaign, user=user, side=side, player_seed=seed_text)
    Invitation.objects.create(campaign=campaign)
    records.project(campaign, campaign.state, system)  # the record tables (Initial OB lines, if any)
    created = engine.app_event(EventKind.CAMPAIGN_CREATED, side=side, player=user.get_username(), system=cg_system.name,
                               commitment=campaign.seed_commitment, settings=dict(chosen), lost_values=supplied)
    append_events(campaign, [created, *(started[1] if started else ())])
    return campaign


def _start_phase(campaign: Campaign, system: System) -> None:
    """The phase's first steps roll dice: they start once both player seeds exist (saved with the dice counters)."""
    dice = engine.committed_dice(campaign, player_seeds(system, seats_of(campaign)))
    try:
        started = engine.start_state(system, dice)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    assert started is not None
    campaign.state = started[0]
    campaign.dice_counters = dice.counters
    campaign.save(update_fields=["state", "dice_counters"])
    records.project(campaign, campaign.state, system)  # the record tables (Initial OB lines, if any)
    append_events(campaign, started[1])


@transaction.atomic
def campaign_join(*, user: User, token: str, player_seed: str | None = None) -> Seat:
    """Take the free seat of the invitation's campaign (idempotent for a player already seated there).
    ``player_seed``: the joiner's own seed string bound into every roll (None: a random one)."""
    seed_text = clean_player_seed(player_seed)
    invitation = Invitation.objects.filter(token=token).select_related("campaign").first()
    if invitation is None:
        raise InvitationNotFound("This invitation link is not valid. Ask your opponent to send it again.")
    campaign = locked(invitation.campaign.public_id)
    seats = seats_of(campaign)
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    if len(seats) >= 2:
        raise CampaignFull(FULL)
    system = engine.system_for(campaign)
    side = engine.other_side(system, seats[0].side)
    try:
        with transaction.atomic():
            seat = Seat.objects.create(campaign=campaign, user=user, side=side, player_seed=seed_text)
    except IntegrityError:
        raise CampaignFull(FULL) from None
    invitation.accepted_by = user
    invitation.accepted_at = now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    append_events(campaign, [engine.app_event(EventKind.PLAYER_JOINED, side=side, player=user.get_username())])
    if engine.waiting(engine.load_state(campaign.state)):
        _start_phase(campaign, system)
    state = engine.load_state(campaign.state)
    owed = {s: engine.owes(system, state, s) for s in engine.side_ids(system)}
    campaign.due = pace.next_due({}, {}, owed, now().isoformat())  # the clocks start when both are seated
    campaign.updated = now()
    campaign.save(update_fields=["updated", "due"])
    after_commit(campaign, system, {seats[0].side: "joined"})
    return seat


@transaction.atomic
def seat_seed_set(*, user: User, public_id: str, seed: str) -> Seat:
    """Change the user's own player seed; allowed until the opponent joins (rolls can be made from then on, some of
    them secret, and every roll binds both seeds — campaign_selectors.seeds_fixed)."""
    campaign = locked(public_id)
    seats = seats_of(campaign)
    seat = seat_of(seats, user)
    if seeds_fixed(campaign, len(seats)):
        raise ServiceError("Your player seed is fixed: both players have joined, so dice can be rolled with it now.")
    seat.player_seed = clean_player_seed(seed)
    seat.save(update_fields=["player_seed"])
    live.touch(campaign.pk)  # the seat's dice card shows its seed (the opponent's page does not change)
    return seat
