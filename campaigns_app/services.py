"""Every write Refit makes. Each service runs in one transaction and locks the Campaign row before reading its state,
so two players acting at the same instant are serialised and a resolution happens exactly once.

Every write a live page shows moves the campaign's internal revision (campaigns_app.live) in the same transaction;
after commit, each seat's own channel group gets a bare "refresh" (never content): its consumers read the seat's view
again, rendered from the database through view_for. E-mail goes to the player for whom an action became due, unless
they are on the live page.
"""
from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max

from campaigns_app import card_selectors, card_services, door, engine, form_tokens, live, notifications, records, selectors
from campaigns_app.models import Campaign, CgSystem, EventRecord, Invitation, LiveConnection, Seat, new_player_seed, now
from rules_engine.errors import DefinitionErrors, RulesError
from rules_engine.events import Event
from rules_engine.view import form_facts
from rules_engine.vocabulary import Chit

ONLINE_WITHIN = selectors.ONLINE_WITHIN


class ServiceError(ValueError):
    """A request Refit refuses, with a message for the player; nothing was changed."""


class NotSeated(ServiceError):
    """The user holds no seat in the campaign (views answer 404: existence is not confirmed)."""


class InvitationNotFound(ServiceError):
    """No invitation has this token."""


class CampaignFull(ServiceError):
    """Both seats are taken."""


class FormNotValid(ServiceError):
    """A form token this server never issued (forged or altered): refused, nothing changed."""


class RefusedOrder(ServiceError):
    """An order the rules refuse: ``messages`` has one message per broken rule, each citing it."""

    def __init__(self, messages: list[str]) -> None:
        self.messages = messages
        super().__init__(" ".join(messages))


class PlayerSettingsInvalid(ServiceError):
    """The players' choices (``source: players`` settings) break the system's rules for them: ``problems`` maps a
    setting id to what is wrong and what is allowed; nothing was created."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__("The players' choices are not valid: " + " ".join(problems.values()))


class LostValuesInvalid(ServiceError):
    """Values lost in the rule text that the campaign needs are not supplied (or not as a chart prints them):
    ``problems`` maps a value's key (``lost_values.cell_key``) to what is wrong and allowed; nothing was created."""

    def __init__(self, problems: dict[str, str]) -> None:
        self.problems = problems
        super().__init__("Values lost in the rule text must be typed before the campaign starts: "
                         + " ".join(p.rstrip(".") + "." for p in problems.values()))


# ----------------------------------------------------------------------------------------------------------- helpers


def _locked(public_id: str) -> Campaign:
    try:
        # of=self: lock the campaign row only, not the CG system row every campaign of that system shares
        return (Campaign.objects.select_for_update(of=("self",)).select_related("system").defer("system__definition")
                .get(public_id=public_id))
    except Campaign.DoesNotExist:
        raise NotSeated("No such campaign.") from None


def _seats(campaign: Campaign) -> list[Seat]:
    return list(Seat.objects.filter(campaign=campaign).select_related("user"))


def _seat_of(seats: list[Seat], user: AbstractBaseUser) -> Seat:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise NotSeated("No such campaign.")


def _player_seeds(system: Any, seats: list[Seat]) -> tuple[str, str]:
    by_side = {seat.side: seat.player_seed for seat in seats}
    first, second = engine.side_ids(system)
    return (by_side[first], by_side[second])


def _append_events(campaign: Campaign, events: Iterable[Event]) -> list[EventRecord]:
    """Append events after the last one (the caller holds the campaign row lock, so seq cannot collide)."""
    last = EventRecord.objects.filter(campaign=campaign).aggregate(last=Max("seq"))["last"] or 0
    records = [
        EventRecord(
            campaign=campaign,
            seq=last + index,
            kind=event.kind,
            visibility=str(event.visibility),
            side=event.side or "",
            payload=dict(event.payload),
        )
        for index, event in enumerate(events, start=1)
    ]
    return EventRecord.objects.bulk_create(records)


PLAYER_SEED_MAX = 64


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


def _clean_player_seed(seed: str | None) -> str:
    """The player seed to store: a fresh random one when none is given, else the given one, checked."""
    if seed is None:
        return new_player_seed()
    seed = str(seed).strip()
    problem = player_seed_problem(seed)
    if problem:
        raise ServiceError(problem)
    return seed


seeds_fixed = selectors.seeds_fixed


def _require_both_seated(system: Any, seats: list[Seat]) -> None:
    if len(seats) < 2:
        raise ServiceError("Your opponent has not joined yet. Send them the invitation link; play starts when both seats are taken.")


def _after_commit(campaign: Campaign, system: Any, due: dict[str, str]) -> None:
    """Move the live revision; schedule the refresh of both seats' pages and the 'your move' e-mails (side → reason)."""
    public_id = campaign.public_id
    sides = engine.side_ids(system)
    live.touch(campaign.pk)
    transaction.on_commit(lambda: notifications.refresh(public_id, sides))
    for side, reason in due.items():
        transaction.on_commit(lambda side=side, reason=reason: notifications.email_action_due(public_id, side, reason))


def _owes_all(system: Any, state: Any) -> dict[str, tuple[str, ...]]:
    return {side: engine.owes(system, state, side) for side in engine.side_ids(system)}


def _newly_due(system: Any, before: dict[str, tuple[str, ...]], after: dict[str, tuple[str, ...]], actor: str) -> dict[str, str]:
    """Sides other than the actor that owe something new after the action."""
    due = {}
    for side, owed in after.items():
        if side != actor and owed and owed != before.get(side):
            due[side] = "action"
    return due


def _save_state(campaign: Campaign, state: Any, counters: dict[str, int] | None = None) -> None:
    campaign.state = state.to_json()
    fields = ["state", "updated"]
    if counters is not None:
        campaign.dice_counters = counters
        fields.append("dice_counters")
    campaign.updated = now()
    campaign.save(update_fields=fields)
    records.project(campaign, state)  # the CG Roster / RG Purchase Record tables, in the same transaction


# ----------------------------------------------------------------------------------------------------------- services


def _apply_player_settings(system: Any, values: Mapping[str, Any]) -> Any:
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


@transaction.atomic
def campaign_create(
    *, user: AbstractBaseUser, system_id: str, side: str, name: str, card_id: str | None = None,
    player_seed: str | None = None, player_settings: Mapping[str, Any] | None = None,
    lost_values: Mapping[str, Any] | None = None,
) -> Campaign:
    """Create a campaign with the creator in ``side``, a committed dice seed and an invitation for the opponent.
    ``player_seed``: the creator's own seed string bound into every roll (None: a random one). ``player_settings``:
    the players' choices of the ``source: players`` settings (KGP 8.31 CG Balance …), stored with the campaign for good.
    ``lost_values``: every value lost in the rule text the card leaves open (``engine.needed_values``), as typed
    {key: text}; refused (LostValuesInvalid, nothing saved) unless each is given as its chart prints it."""
    seed_text = _clean_player_seed(player_seed)
    name = (name or "").strip()
    if not name:
        raise ServiceError("Give the campaign a name (up to 120 characters).")
    if len(name) > 120:
        raise ServiceError("The campaign name is too long: at most 120 characters.")
    try:
        cg_system = CgSystem.objects.get(id=system_id)
    except CgSystem.DoesNotExist:
        allowed = ", ".join(CgSystem.objects.values_list("id", flat=True)) or "none loaded — run manage.py load_systems"
        raise ServiceError(f"Unknown CG system “{system_id}” (allowed: {allowed}).") from None
    # The CG Card (K5): the user's own or a bundled one, for this system; its text is copied into the campaign.
    system, card_fields = card_services.campaign_card(user=user, cg_system=cg_system, card_id=card_id)
    system = _apply_player_settings(system, player_settings or {})
    chosen = {key: system.settings_values[key] for key in (player_settings or {})}  # as checked
    try:
        supplied = engine.settle_values(system, lost_values or {})
    except RulesError as error:
        raise LostValuesInvalid(dict(getattr(error, "problems", {"": str(error)}))) from None
    system = engine.with_values(system, supplied)
    sides = engine.side_ids(system)
    if side not in sides:
        raise ServiceError(f"Unknown side “{side}” for {cg_system.name} (allowed: {', '.join(sides)}).")
    try:
        started = engine.start_state(system)  # the full between-scenario phase (sequence.start)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    seed = engine.new_seed()
    campaign = Campaign.objects.create(
        system=cg_system,
        name=name,
        created_by=user,
        state=started[0] if started else engine.new_state(system),  # no start yet: it rolls, at the join
        dice_seed=seed.hex(),
        seed_commitment=engine.seed_commitment(seed),
        dice_counters={},
        player_settings=chosen,
        supplied_values=supplied,
        **card_fields,
    )
    Seat.objects.create(campaign=campaign, user=user, side=side, player_seed=seed_text)
    Invitation.objects.create(campaign=campaign)
    records.project(campaign, campaign.state, system)  # the record tables (Initial OB lines, if any)
    _append_events(
        campaign,
        [engine.app_event("campaign-created", side=side, player=user.get_username(), system=cg_system.name,
                          commitment=campaign.seed_commitment, settings=chosen, lost_values=supplied),
         *(started[1] if started else ())],
    )
    return campaign


@transaction.atomic
def campaign_join(*, user: AbstractBaseUser, token: str, player_seed: str | None = None) -> Seat:
    """Take the free seat of the invitation's campaign (idempotent for a player already seated there).
    ``player_seed``: the joiner's own seed string bound into every roll (None: a random one)."""
    seed_text = _clean_player_seed(player_seed)
    invitation = Invitation.objects.filter(token=token).select_related("campaign").first()
    if invitation is None:
        raise InvitationNotFound("This invitation link is not valid. Ask your opponent to send it again.")
    campaign = _locked(invitation.campaign.public_id)
    seats = _seats(campaign)
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    if len(seats) >= 2:
        raise CampaignFull("This campaign is full: both sides are already taken.")
    system = engine.system_for(campaign)
    side = engine.other_side(system, seats[0].side)
    try:
        with transaction.atomic():
            seat = Seat.objects.create(campaign=campaign, user=user, side=side, player_seed=seed_text)
    except IntegrityError:
        raise CampaignFull("This campaign is full: both sides are already taken.") from None
    invitation.accepted_by = user
    invitation.accepted_at = now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    _append_events(campaign, [engine.app_event("player-joined", side=side, player=user.get_username())])
    if not engine.is_phased(campaign.state):
        # the phase's first steps roll dice: they start now that both player seeds exist
        seats = _seats(campaign)
        dice = engine.committed_dice(campaign, _player_seeds(system, seats))
        try:
            started = engine.start_state(system, dice)
        except RulesError as error:
            raise ServiceError(str(error)) from None
        assert started is not None
        campaign.state = started[0]
        campaign.dice_counters = dice.counters
        campaign.save(update_fields=["state", "dice_counters"])
        records.project(campaign, campaign.state, system)  # the record tables (Initial OB lines, if any)
        _append_events(campaign, started[1])
    campaign.updated = now()
    campaign.save(update_fields=["updated"])
    _after_commit(campaign, system, {seats[0].side: "joined"})
    return seat


@transaction.atomic
def seat_seed_set(*, user: AbstractBaseUser, public_id: str, seed: str) -> Seat:
    """Change the user's own player seed; allowed until the opponent joins (rolls can be made from then on, some of
    them secret, and every roll binds both seeds — selectors.seeds_fixed)."""
    campaign = _locked(public_id)
    seats = _seats(campaign)
    seat = _seat_of(seats, user)
    if seeds_fixed(campaign, len(seats)):
        raise ServiceError("Your player seed is fixed: both players have joined, so dice can be rolled with it now.")
    seat.player_seed = _clean_player_seed(seed)
    seat.save(update_fields=["player_seed"])
    live.touch(campaign.pk)  # the seat's dice card shows its seed (the opponent's page does not change)
    return seat


@transaction.atomic
def step_mark_done(*, user: AbstractBaseUser, public_id: str) -> Campaign:
    """Mark the current on-board step (Initial Scenario, scenario) done for the user's side."""
    campaign = _locked(public_id)
    seats = _seats(campaign)
    seat = _seat_of(seats, user)
    system = engine.system_for(campaign)
    _require_both_seated(system, seats)
    state = engine.load_state(campaign.state)
    if state.phased:
        return phase_mark_done(user=user, public_id=public_id)
    before = _owes_all(system, state)
    try:
        new_state, events = engine.mark_step_done(system, state, seat.side)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    _save_state(campaign, new_state)
    _append_events(campaign, events)
    _after_commit(campaign, system, _newly_due(system, before, _owes_all(system, new_state), seat.side))
    return campaign


@transaction.atomic
def chit_submit(*, user: AbstractBaseUser, public_id: str, side: str, chit: str) -> Campaign:
    """Seal the user's Initiative chit (RR 2.522); the second chit resolves both, once, under the row lock."""
    campaign = _locked(public_id)
    seats = _seats(campaign)
    seat = _seat_of(seats, user)
    system = engine.system_for(campaign)
    state = engine.load_state(campaign.state)
    problem = selectors.chit_problem(system, door.view_of(system, state, seat.side), seat, len(seats), side, chit)
    if problem:
        raise ServiceError(problem)
    chit_value = Chit(chit)
    before = _owes_all(system, state)
    dice = engine.committed_dice(campaign, _player_seeds(system, seats))
    submit = engine.phase_submit_chit if state.phased else engine.submit_chit
    try:
        new_state, events = submit(system, state, seat.side, chit_value, dice)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    _save_state(campaign, new_state, dice.counters)
    _append_events(campaign, events)
    due = _newly_due(system, before, _owes_all(system, new_state), seat.side)
    opponent = engine.other_side(system, seat.side)
    if any(event.kind == "chits-revealed" for event in events):
        due[opponent] = "revealed"
    elif engine.owes(system, new_state, opponent):
        due[opponent] = "chose"  # the opponent still has to choose: tell them this side has (never what)
    _after_commit(campaign, system, due)
    return campaign


@transaction.atomic
def move_order_roll(*, user: AbstractBaseUser, public_id: str) -> Campaign:
    """Make the Dual Attack move-order roll (RR 2.525) on the server, for the side the rules name as roller."""
    campaign = _locked(public_id)
    seats = _seats(campaign)
    seat = _seat_of(seats, user)
    system = engine.system_for(campaign)
    _require_both_seated(system, seats)
    state = engine.load_state(campaign.state)
    try:
        engine.validate_move_order(system, state)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    roller = engine.move_order_roller(system)
    if roller != seat.side:
        raise ServiceError(f"The {engine.side_name(system, roller or '')} side makes the move-order roll, not yours.")
    before = _owes_all(system, state)
    dice = engine.committed_dice(campaign, _player_seeds(system, seats))
    try:
        new_state, events = engine.roll_move_order(system, state, dice)
    except RulesError as error:
        raise ServiceError(str(error)) from None
    _save_state(campaign, new_state, dice.counters)
    _append_events(campaign, events)
    _after_commit(campaign, system, _newly_due(system, before, _owes_all(system, new_state), seat.side))
    return campaign


# ----------------------------------------------------------------------------------------------- between-scenario phase
#
# Every phase service: row lock → the rules_engine validates (SubmissionError → ServiceError citing the rule, nothing
# saved) → sequence.* → sequence.advance (automatic steps) → state saved WITH the dice counters → events → after commit,
# a bare "refresh" to each seat's own group.

Action = Callable[[Any, Any, str, Any], tuple[Any, tuple[Event, ...]]]


def form_token(campaign: Campaign, seat: Seat, state: Any, purpose: str, map_group: str | None = None) -> str:
    """The seat's one-time form token at the state's step occurrence (campaigns_app.form_tokens)."""
    return form_tokens.form_token(campaign, seat, form_facts(state, seat.side), purpose, map_group)


FORM_NOT_VALID = ("That form is not valid: this page did not issue it, or it was changed. Nothing was changed; "
                  "reload the page and try again.")


def _require_genuine(campaign: Campaign, seat: Seat, purpose: str, map_group: str | None, token: str | None) -> None:
    """FormNotValid unless ``token`` was issued by this server for this seat's form (spent or not)."""
    expected = form_tokens.form_tag(campaign, seat, purpose, map_group)
    if token is None or len(token) != 48 or not hmac.compare_digest(token[:16], expected):
        raise FormNotValid(FORM_NOT_VALID)


def _phase_action(
    *, user: AbstractBaseUser, public_id: str, action: Action, token: str | None = None, purpose: str | None = None,
    map_group: str | None = None,
) -> Campaign:
    campaign = _locked(public_id)
    seats = _seats(campaign)
    seat = _seat_of(seats, user)
    system = engine.system_for(campaign)
    _require_both_seated(system, seats)
    state = engine.load_state(campaign.state)
    campaign.replayed = False  # type: ignore[attr-defined]
    if purpose is not None:
        _require_genuine(campaign, seat, purpose, map_group, token)
    if purpose is not None and token != form_token(campaign, seat, state, purpose, map_group):
        campaign.replayed = True  # type: ignore[attr-defined]  # already recorded (or a stale form): nothing to do
        return campaign
    if not state.phased:
        raise ServiceError("This campaign has not started its between-scenario phase yet.")
    before = _owes_all(system, state)
    dice = engine.committed_dice(campaign, _player_seeds(system, seats))
    try:
        new_state, events = action(system, state, seat.side, dice)
        new_state, more = engine.advance(system, new_state, dice)
    except RulesError as error:
        violations = getattr(error, "violations", None)
        if violations:
            raise RefusedOrder([str(v) for v in violations]) from None
        raise ServiceError(str(error)) from None
    _save_state(campaign, new_state, dice.counters)
    _append_events(campaign, (*events, *more))
    due = _newly_due(system, before, _owes_all(system, new_state), seat.side)
    if any(event.kind == "cg-ended" for event in (*events, *more)):
        due = {side: "ended" for side in engine.side_ids(system) if side != seat.side}
    _after_commit(campaign, system, due)
    return campaign


def current_step_ref(state: Any) -> str:
    """The step a "Mark finished" form finishes: the phase step ref ("2.512"), else the spine step ("scenario")."""
    return str(state.phase_ref if state.step == "phase" else state.step)


@transaction.atomic
def phase_mark_done(
    *, user: AbstractBaseUser, public_id: str, token: str | None = None, step_ref: str | None = None,
    map_group: str | None = None, run: bool = False,
) -> Campaign:
    """Finish the current step for the user's side (on-board, assisted, an input step with nothing bought, the
    Initial Scenario or a scenario — with Map Groups in play (KGP 8.2), the scenario on ``map_group``); ordered steps
    wait for the side before.

    The form is bound to one step occurrence: ``token`` (form_token(..., "done", map_group)) and ``step_ref``
    (current_step_ref) as rendered. A stale page or a resent request (the step already finished, or another step
    current) finishes nothing: ``campaign.replayed`` is True. None for both skips the check (scripts).
    ``run``: finish the whole run of on-the-board steps from this one (sequence.board_run) in one click."""
    if step_ref is not None:
        campaign = _locked(public_id)
        seat = _seat_of(_seats(campaign), user)  # NotSeated for anyone without a seat, as for every other action
        _require_genuine(campaign, seat, "done", map_group, token)
        if current_step_ref(engine.load_state(campaign.state)) != step_ref:
            campaign.replayed = True  # type: ignore[attr-defined]
            return campaign
    return _phase_action(user=user, public_id=public_id, token=token, map_group=map_group,
                         purpose="done" if token is not None or step_ref is not None else None,
                         action=lambda system, state, side, dice: engine.phase_mark_done(system, state, side,
                                                                                         map_group, run))


@transaction.atomic
def order_submit(
    *, user: AbstractBaseUser, public_id: str, orders: list[dict[str, Any]], token: str | None = None,
) -> Campaign:
    """The side's secret order at the current input step (RR 2.518/2.520, PL 2.3, PHD C5.31/C5.35). Every broken
    rule is reported (RefusedOrder.messages) and nothing is saved; an empty order finishes the step with none.
    ``token`` (from form_token(..., "order")) makes a resent form a no-op; None skips that check (scripts)."""
    def action(system: Any, state: Any, side: str, dice: Any) -> tuple[Any, tuple[Event, ...]]:
        built = engine.build_orders(orders)
        if not built:
            return engine.phase_mark_done(system, state, side)
        return engine.phase_submit_order(system, state, side, built)

    return _phase_action(user=user, public_id=public_id, action=action, token=token,
                         purpose="order" if token is not None else None)


@transaction.atomic
def repair_roll_submit(*, user: AbstractBaseUser, public_id: str, threshold: str, drm: int, purpose: str,
                       token: str | None = None) -> Campaign:
    """PL 3.46 / 3.461: a public repair dr against one of the ``repair`` rule's thresholds, with the DRM typed."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="board" if token is not None else None,
        action=lambda system, state, side, dice: engine.phase_repair_roll(system, state, side, threshold, drm,
                                                                          purpose, dice),
    )


@transaction.atomic
def resolution_order_submit(*, user: AbstractBaseUser, public_id: str, first: str, token: str | None = None
                            ) -> Campaign:
    """PL 2.74: the side the rule names chooses which side resolves its Patrols first (both bought some)."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="first" if token is not None else None,
        action=lambda system, state, side, dice: engine.phase_choose_order(system, state, side, first),
    )


@transaction.atomic
def recon_submit(*, user: AbstractBaseUser, public_id: str, extra: int | None, token: str | None = None) -> Campaign:
    """RR 2.521 Purchasing Reconnaissance: None = no Recon; else 3 CPP + ``extra`` CPP and the secret Recon dr."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="recon" if token is not None else None,
        action=lambda system, state, side, dice: engine.phase_submit_recon(system, state, side, extra, dice),
    )


@transaction.atomic
def assisted_roll_submit(
    *, user: AbstractBaseUser, public_id: str, step_ref: str, table_id: str, column: str | None = None,
    answers: dict[int, int | bool] | None = None, token: str | None = None, what_for: str = "",
) -> Campaign:
    """A roll on one of the current assisted step's tables, with the DRM conditions the player ticked/counted and what
    it is for (a unit or leader, optional)."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="roll" if token is not None else None,
        action=lambda system, state, side, dice: engine.phase_assisted_roll(
            system, state, side, step_ref, table_id, column, answers or {}, dice, what_for),
    )


@transaction.atomic
def board_roll_submit(
    *, user: AbstractBaseUser, public_id: str, at: str, kind: str, count: int, purpose: str, token: str | None = None,
    map_group: str | None = None,
) -> Campaign:
    """``count`` public DR/dr at the board for ``purpose`` (RR 2.504 "1TC Encircled 4-6-7 in 23Q5", the scenario —
    with Map Groups in play, KGP 8.2, the scenario on ``map_group``): rolled on the public stream, logged with the
    purpose, the Map Group and the roller, seen by both pages. ``token`` (form_token(..., "board"), one for every
    Map Group's form: it counts the side's rolls here) makes a resent form roll nothing; None skips that check."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="board" if token is not None else None,
        action=lambda system, state, side, dice: engine.board_roll(system, state, side, at, kind, count, purpose, dice,
                                                                   map_group),
    )


@transaction.atomic
def declaration_submit(
    *, user: AbstractBaseUser, public_id: str, rule_id: str, token: str | None = None, map_group: str | None = None,
) -> Campaign:
    """A side declares a special rule for the scenario being played (KGP CG14 German Fanaticism)."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="board" if token is not None else None,
        action=lambda system, state, side, dice: engine.declare(system, state, side, rule_id, map_group),
    )


def scenario_roll_submit(
    *, user: AbstractBaseUser, public_id: str, roll_id: str, threshold: Any = None, turn: Any = None,
    answers: dict[int, int | bool] | None = None, token: str | None = None, map_group: str | None = None,
) -> Campaign:
    """One of the scenario's own public rolls (PL CG2 Game End dr with the typed circled number …; KGP CG23 per Map
    Group's scenario: ``map_group``)."""
    return _phase_action(
        user=user, public_id=public_id, token=token, purpose="board" if token is not None else None,
        action=lambda system, state, side, dice: engine.scenario_roll(
            system, state, side, roll_id, threshold, turn, answers or {}, dice, map_group),
    )


@transaction.atomic
def recon_declare(*, user: AbstractBaseUser, public_id: str, location: Any) -> Campaign:
    """Declare one Location to reconnoitre, in turn (RR 2.524, PHD C5.40: one at a time, German first)."""
    from rules_engine import losses, recon_turns

    def act(system: Any, state: Any, side: str, dice: Any) -> Any:
        step = losses.current_step(system, state)
        if step is None:
            raise ServiceError("No Recon Locations are declared now.")
        return recon_turns.declare(system, state, step, side, location)

    return _phase_action(user=user, public_id=public_id, action=act)


@transaction.atomic
def losses_submit(*, user: AbstractBaseUser, public_id: str, cvp: Any, leaders: Any = 0) -> Campaign:
    """The side records the CVP (and the leaders) it lost at this step (PL 3.11 / PHD C5.1: they count for the
    scenario just played; PL 3.45: leaders lost in the current CG/RePh)."""
    from rules_engine import losses

    return _phase_action(user=user, public_id=public_id,
                         action=lambda system, state, side, dice: losses.record(system, state, side, cvp, leaders))


@transaction.atomic
def results_submit(*, user: AbstractBaseUser, public_id: str, entry: dict[str, Any],
                   map_group: str | None = None) -> Campaign:
    """The side's entry of the scenario's results (with Map Groups in play, KGP 8.2: of the scenario on
    ``map_group``); equal entries confirm them, different ones block until agreed."""
    return _phase_action(
        user=user, public_id=public_id,
        action=lambda system, state, side, dice: engine.phase_submit_results(system, state, side, entry, map_group),
    )


@transaction.atomic
def value_supply(*, user: AbstractBaseUser, public_id: str, need_id: str, value: Any) -> Campaign:
    """Supply what the current step needs from the user's side (a DRM fact, SAN/ELR/LVP, a value lost in the text)."""
    return _phase_action(
        user=user, public_id=public_id,
        action=lambda system, state, side, dice: engine.supply(system, state, side, need_id, value, dice),
    )


END_REASONS = ("mutual-agreement", "objectives")


@transaction.atomic
def cg_end_propose(*, user: AbstractBaseUser, public_id: str, reason: str = "mutual-agreement") -> Campaign:
    """Propose to end the CG (PL 1.3): by mutual agreement, or ``reason="objectives"``: the proposer's CG objectives
    are met (it wins). The other side confirms by proposing the same; the CG ends once both sides have proposed it."""
    if reason not in END_REASONS:
        raise ServiceError(f"Unknown reason to end the CG “{reason}” (allowed: {', '.join(END_REASONS)}).")
    return _phase_action(user=user, public_id=public_id,
                         action=lambda system, state, side, dice: engine.cg_end_action("propose", system, state, side,
                                                                                       reason))


@transaction.atomic
def cg_end_withdraw(*, user: AbstractBaseUser, public_id: str) -> Campaign:
    """Withdraw the side's proposal to end the CG."""
    return _phase_action(user=user, public_id=public_id,
                         action=lambda system, state, side, dice: engine.cg_end_action("withdraw", system, state, side))


@transaction.atomic
def cg_end_decline(*, user: AbstractBaseUser, public_id: str) -> Campaign:
    """Decline the other side's proposal to end the CG: the proposal is gone and the CG goes on."""
    return _phase_action(user=user, public_id=public_id,
                         action=lambda system, state, side, dice: engine.cg_end_action("decline", system, state, side))


@transaction.atomic
def cg_end_concede(*, user: AbstractBaseUser, public_id: str) -> Campaign:
    """Concede the CG (PL 1.3): the other side wins; everything is revealed."""
    return _phase_action(user=user, public_id=public_id,
                         action=lambda system, state, side, dice: engine.cg_end_action("concede", system, state, side))


# ----------------------------------------------------------------------------------------------------------- presence


def _seat_for_connection(public_id: str, user: AbstractBaseUser) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Seat.objects.filter(campaign__public_id=public_id, user_id=user.pk).select_related("campaign").first()


# Who is online is on both live pages: when the set of online sides changes, or a page that stopped beating is
# forgotten (its side may have been shown online since), the revision moves and both pages are refreshed. A page
# opened or closed while its side stays online (a second tab) changes nothing anyone sees. Each function locks the
# campaign row first, in the same order as every other write.


def _online_sides(campaign_id: int, moment: Any) -> set[str]:
    return set(LiveConnection.objects.filter(seat__campaign_id=campaign_id, last_beat__gte=moment - ONLINE_WITHIN)
               .values_list("seat__side", flat=True))


def _lock_campaign(campaign_id: int) -> str:
    """Lock the campaign row; its public id."""
    return str(Campaign.objects.select_for_update(of=("self",)).filter(pk=campaign_id)
               .values_list("public_id", flat=True).get())


def _presence_changed(campaign_id: int, public_id: str, before: set[str], moment: Any, expired: int = 0) -> None:
    if expired or _online_sides(campaign_id, moment) != before:
        live.touch(campaign_id)
        transaction.on_commit(lambda: notifications.refresh(public_id, None))


def _expire_connections(campaign_id: int, moment: Any) -> int:
    """Forget pages that stopped beating without closing (a lost network): their side goes offline. How many."""
    deleted, _ = LiveConnection.objects.filter(seat__campaign_id=campaign_id,
                                               last_beat__lt=moment - ONLINE_WITHIN).delete()
    return int(deleted)


@transaction.atomic
def presence_open(*, public_id: str, user: AbstractBaseUser, channel_name: str) -> Seat | None:
    """Record an open live page of the user's seat; None when the user holds no seat (the socket is refused)."""
    seat = _seat_for_connection(public_id, user)
    if seat is None:
        return None
    _lock_campaign(seat.campaign_id)
    moment = now()
    before = _online_sides(seat.campaign_id, moment)
    expired = _expire_connections(seat.campaign_id, moment)
    LiveConnection.objects.update_or_create(channel_name=channel_name, defaults={"seat": seat, "last_beat": moment})
    Seat.objects.filter(pk=seat.pk).update(last_seen=moment)
    _presence_changed(seat.campaign_id, public_id, before, moment, expired)
    return seat


@transaction.atomic
def presence_beat(*, channel_name: str, seat_id: int | None = None) -> None:
    """A live page is still open (recorded again if it was forgotten meanwhile: ``seat_id`` says whose it is); any
    page of the campaign that stopped beating is forgotten."""
    moment = now()
    connection = LiveConnection.objects.filter(channel_name=channel_name).select_related("seat").first()
    if (connection is not None and connection.last_beat >= moment - ONLINE_WITHIN
            and not LiveConnection.objects.filter(seat__campaign_id=connection.seat.campaign_id,
                                                  last_beat__lt=moment - ONLINE_WITHIN).exists()):
        # the usual beat (every open page, every 25 s): online before and after, nobody to forget — no lock needed
        LiveConnection.objects.filter(pk=connection.pk).update(last_beat=moment)
        Seat.objects.filter(pk=connection.seat_id).update(last_seen=moment)
        return
    seat = connection.seat if connection is not None else Seat.objects.filter(pk=seat_id).first() if seat_id else None
    if seat is None:
        return
    public_id = _lock_campaign(seat.campaign_id)
    moment = now()
    before = _online_sides(seat.campaign_id, moment)
    LiveConnection.objects.update_or_create(channel_name=channel_name, defaults={"seat": seat, "last_beat": moment})
    Seat.objects.filter(pk=seat.pk).update(last_seen=moment)
    expired = _expire_connections(seat.campaign_id, moment)
    _presence_changed(seat.campaign_id, public_id, before, moment, expired)


@transaction.atomic
def presence_close(*, public_id: str, channel_name: str) -> None:
    """A live page closed."""
    connection = LiveConnection.objects.filter(channel_name=channel_name).select_related("seat").first()
    if connection is None:
        return
    _lock_campaign(connection.seat.campaign_id)
    moment = now()
    before = _online_sides(connection.seat.campaign_id, moment)
    LiveConnection.objects.filter(pk=connection.pk).delete()
    _presence_changed(connection.seat.campaign_id, public_id, before, moment)

