"""The seats' moves in the campaign: each service is one ``Move`` through the one path (services.core.act).

Row lock → the rules_engine validates (SubmissionError → ServiceError citing the rule, nothing saved) → the action →
sequence.advance (automatic steps) → state saved WITH the dice counters → events → both seats' live views published
under the lock, and after commit each changed seat's frame to its own group. ``token`` (form_token(..., purpose))
makes a resent form a no-op; None skips that check.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import door, engine
from campaigns_app.campaigns import selectors as campaign_selectors
from campaigns_app.engine import JSON, CampaignState, Chit, Dice, Event, Outcome, SideId, System
from campaigns_app.models import Campaign, Seat
from campaigns_app.services.core import Due, Move, act
from campaigns_app.services.errors import ServiceError


def _purpose(token: str | None, purpose: str) -> str | None:
    """The token's purpose when a token is given (None: scripts skip the check)."""
    return purpose if token is not None else None


@transaction.atomic
def step_mark_done(*, user: User, public_id: str) -> Campaign:
    """Mark the current on-board step (Initial Scenario, scenario) done for the user's side (phase_mark_done without
    the form's token)."""
    return act(public_id, user, Move(lambda system, state, side, dice: engine.phase_mark_done(system, state, side)))


@transaction.atomic
def chit_submit(*, user: User, public_id: str, side: str, chit: str) -> Campaign:
    """Seal the user's Initiative chit (RR 2.522); the second chit resolves both, once, under the row lock."""
    def check(system: System, state: CampaignState, seat: Seat, seats: list[Seat]) -> None:
        problem = campaign_selectors.chit_problem(system, door.chit_facts_of(system, state, seat.side), seat, len(seats), side,
                                         chit)
        if problem:
            raise ServiceError(problem)

    def action(system: System, state: CampaignState, own: SideId, dice: Dice) -> Outcome:
        return engine.phase_submit_chit(system, state, own, Chit(chit), dice)

    def more_due(system: System, state: CampaignState, actor: SideId, events: tuple[Event, ...], due: Due) -> Due:
        opponent = engine.other_side(system, actor)
        if any(event.kind == "chits-revealed" for event in events):
            due[opponent] = "revealed"
        elif engine.owes(system, state, opponent):
            due[opponent] = "chose"  # the opponent still has to choose: tell them this side has (never what)
        return due

    return act(public_id, user, Move(action, seated=False, check=check, advance=False,
                                     more_due=more_due))


@transaction.atomic
def phase_mark_done(
    *, user: User, public_id: str, token: str | None = None, step_ref: str | None = None,
    map_group: str | None = None, run: bool = False,
) -> Campaign:
    """Finish the current step for the user's side (on-board, assisted, an input step with nothing bought, the
    Initial Scenario or a scenario — with Map Groups in play (KGP 8.2), the scenario on ``map_group``); ordered steps
    wait for the side before.

    The form is bound to one step occurrence: ``token`` (form_token(..., "done", map_group)) and ``step_ref``
    (current_step_ref) as rendered. A stale page or a resent request (the step already finished, or another step
    current) finishes nothing: ``campaign.replayed`` is True. None for both skips the check (scripts).
    ``run``: finish the whole run of on-the-board steps from this one (sequence.board_run) in one click."""
    purpose = "done" if token is not None or step_ref is not None else None
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_mark_done(system, state, side, map_group, run),
        purpose=purpose, token=token, map_group=map_group, step_ref=step_ref))


@transaction.atomic
def order_submit(
    *, user: User, public_id: str, orders: Sequence[Mapping[str, object]], token: str | None = None,
) -> Campaign:
    """The side's secret order at the current input step (RR 2.518/2.520, PL 2.3, PHD C5.31/C5.35). Every broken
    rule is reported (RefusedOrder.messages) and nothing is saved; an empty order finishes the step with none.
    ``token`` (from form_token(..., "order")) makes a resent form a no-op; None skips that check (scripts)."""
    def action(system: System, state: CampaignState, side: SideId, dice: Dice) -> Outcome:
        built = engine.build_orders(orders)
        if not built:
            return engine.phase_mark_done(system, state, side)
        return engine.phase_submit_order(system, state, side, built)

    return act(public_id, user, Move(action, purpose=_purpose(token, "order"), token=token))


@transaction.atomic
def repair_roll_submit(*, user: User, public_id: str, threshold: str, drm: int, purpose: str,
                       token: str | None = None) -> Campaign:
    """PL 3.46 / 3.461: a public repair dr against one of the ``repair`` rule's thresholds, with the DRM typed."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_repair_roll(system, state, side, threshold, drm, purpose, dice),
        purpose=_purpose(token, "board"), token=token))


@transaction.atomic
def resolution_order_submit(*, user: User, public_id: str, first: str, token: str | None = None
                            ) -> Campaign:
    """PL 2.74: the side the rule names chooses which side resolves its Patrols first (both bought some)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_choose_order(system, state, side, first),
        purpose=_purpose(token, "first"), token=token))


@transaction.atomic
def recon_submit(*, user: User, public_id: str, extra: int | None, token: str | None = None) -> Campaign:
    """RR 2.521 Purchasing Reconnaissance: None = no Recon; else 3 CPP + ``extra`` CPP and the secret Recon dr."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_submit_recon(system, state, side, extra, dice),
        purpose=_purpose(token, "recon"), token=token))


@transaction.atomic
def assisted_roll_submit(
    *, user: User, public_id: str, step_ref: str, table_id: str, column: str | None = None,
    answers: dict[int, int | bool] | None = None, token: str | None = None, what_for: str = "",
) -> Campaign:
    """A roll on one of the current assisted step's tables, with the DRM conditions the player ticked/counted and what
    it is for (a unit or leader, optional)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_assisted_roll(
            system, state, side, step_ref, table_id, column, answers or {}, dice, what_for),
        purpose=_purpose(token, "roll"), token=token))


@transaction.atomic
def board_roll_submit(
    *, user: User, public_id: str, at: str, kind: str, count: int, purpose: str, token: str | None = None,
    map_group: str | None = None,
) -> Campaign:
    """``count`` public DR/dr at the board for ``purpose`` (RR 2.504 "1TC Encircled 4-6-7 in 23Q5", the scenario —
    with Map Groups in play, KGP 8.2, the scenario on ``map_group``): rolled on the public stream, logged with the
    purpose, the Map Group and the roller, seen by both pages. ``token`` (form_token(..., "board"), one for every
    Map Group's form: it counts the side's rolls here) makes a resent form roll nothing; None skips that check."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.board_roll(system, state, side, at, kind, count, purpose, dice,
                                                            map_group),
        purpose=_purpose(token, "board"), token=token))


@transaction.atomic
def declaration_submit(
    *, user: User, public_id: str, rule_id: str, token: str | None = None, map_group: str | None = None,
) -> Campaign:
    """A side declares a special rule for the scenario being played (KGP CG14 German Fanaticism)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.declare(system, state, side, rule_id, map_group),
        purpose=_purpose(token, "board"), token=token))


def scenario_roll_submit(
    *, user: User, public_id: str, roll_id: str, threshold: object = None, turn: object = None,
    answers: dict[int, int | bool] | None = None, token: str | None = None, map_group: str | None = None,
) -> Campaign:
    """One of the scenario's own public rolls (PL CG2 Game End dr with the typed circled number …; KGP CG23 per Map
    Group's scenario: ``map_group``)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.scenario_roll(
            system, state, side, roll_id, threshold, turn, answers or {}, dice, map_group),
        purpose=_purpose(token, "board"), token=token))


@transaction.atomic
def recon_declare(*, user: User, public_id: str, location: object) -> Campaign:
    """Declare one Location to reconnoitre, in turn (RR 2.524, PHD C5.40: one at a time, German first)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.recon_declare(system, state, side, location)))


@transaction.atomic
def losses_submit(*, user: User, public_id: str, cvp: object, leaders: object = 0) -> Campaign:
    """The side records the CVP (and the leaders) it lost at this step (PL 3.11 / PHD C5.1: they count for the
    scenario just played; PL 3.45: leaders lost in the current CG/RePh)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.record_losses(system, state, side, cvp, leaders)))


@transaction.atomic
def results_submit(*, user: User, public_id: str, entry: Mapping[str, JSON],
                   map_group: str | None = None) -> Campaign:
    """The side's entry of the scenario's results (with Map Groups in play, KGP 8.2: of the scenario on
    ``map_group``); equal entries confirm them, different ones block until agreed."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.phase_submit_results(system, state, side, entry, map_group)))


@transaction.atomic
def value_supply(*, user: User, public_id: str, need_id: str, value: object) -> Campaign:
    """Supply what the current step needs from the user's side (a DRM fact, SAN/ELR/LVP, a value lost in the text)."""
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.supply(system, state, side, need_id, value, dice)))


END_REASONS = ("mutual-agreement", "objectives")


def _end(user: User, public_id: str, action: engine.EndAction, reason: str | None = None) -> Campaign:
    return act(public_id, user, Move(
        lambda system, state, side, dice: engine.cg_end_action(action, system, state, side, reason)))


@transaction.atomic
def cg_end_propose(*, user: User, public_id: str, reason: str = "mutual-agreement") -> Campaign:
    """Propose to end the CG (PL 1.3): by mutual agreement, or ``reason="objectives"``: the proposer's CG objectives
    are met (it wins). The other side confirms by proposing the same; the CG ends once both sides have proposed it."""
    if reason not in END_REASONS:
        raise ServiceError(f"Unknown reason to end the CG “{reason}” (allowed: {', '.join(END_REASONS)}).")
    return _end(user, public_id, engine.EndAction.PROPOSE, reason)


@transaction.atomic
def cg_end_withdraw(*, user: User, public_id: str) -> Campaign:
    """Withdraw the side's proposal to end the CG."""
    return _end(user, public_id, engine.EndAction.WITHDRAW)


@transaction.atomic
def cg_end_decline(*, user: User, public_id: str) -> Campaign:
    """Decline the other side's proposal to end the CG: the proposal is gone and the CG goes on."""
    return _end(user, public_id, engine.EndAction.DECLINE)


@transaction.atomic
def cg_end_concede(*, user: User, public_id: str) -> Campaign:
    """Concede the CG (PL 1.3): the other side wins; everything is revealed."""
    return _end(user, public_id, engine.EndAction.CONCEDE)
