"""What a seat does to the campaign: each action is the rules_engine call that makes it, returning the new state and
its events in order (``Outcome``); every one raises a RulesError (SubmissionError citing the rule) when refused."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum

from campaigns_app.engine.states import Outcome
from rules_engine import board, declarations, losses, recon_turns, results, sequence
from rules_engine.dice import Dice
from rules_engine.errors import RulesError
from rules_engine.events import JSON
from rules_engine.model import System
from rules_engine.purchases import Order
from rules_engine.state import CampaignState
from rules_engine.vocabulary import Chit, SideId


class NothingToDeclare(RulesError):
    """A Recon Location declared when no step takes declarations (RR 2.524)."""


class EndAction(StrEnum):
    """What a side may do about ending the CG (PL 1.3)."""

    PROPOSE = "propose"
    WITHDRAW = "withdraw"
    DECLINE = "decline"
    CONCEDE = "concede"


def violations_of(error: RulesError) -> tuple[str, ...]:
    """The broken purchase rules an order refusal carries, one message each (empty for any other refusal)."""
    return tuple(str(v) for v in getattr(error, "violations", None) or ())


def advance(system: System, state: CampaignState, dice: Dice) -> Outcome:
    """sequence.advance: the automatic steps run until a side must act."""
    return sequence.advance(system, state, dice)


def phase_submit_chit(system: System, state: CampaignState, side: SideId, chit: Chit, dice: Dice) -> Outcome:
    """RR 2.522 in the phase: seal ``side``'s chit; the second one resolves both."""
    return sequence.submit_chit(system, state, side, chit, dice)


def phase_mark_done(system: System, state: CampaignState, side: SideId, map_group: str | None = None,
                    run: bool = False) -> Outcome:
    """The current step (or, ``run``, the whole run of on-the-board steps from it) finished by ``side``."""
    if run:
        return sequence.mark_run_done(system, state, side)
    return sequence.mark_done(system, state, side, map_group)


def phase_submit_order(system: System, state: CampaignState, side: SideId, orders: Sequence[Order]) -> Outcome:
    """The side's secret order at the current input step (RR 2.518/2.520, PL 2.3)."""
    return sequence.submit_order(system, state, side, orders)


def phase_repair_roll(system: System, state: CampaignState, side: SideId, threshold: str, drm: int, purpose: str,
                      dice: Dice) -> Outcome:
    """PL 3.46 / 3.461: a public repair dr against one of the current step's thresholds."""
    return board.repair_roll(system, state, side, sequence.current_step(system, state), threshold, drm, purpose, dice)


def phase_choose_order(system: System, state: CampaignState, side: SideId, first: str) -> Outcome:
    """PL 2.74: which side resolves its Patrols first."""
    return sequence.choose_resolution_order(system, state, side, first)


def phase_submit_recon(system: System, state: CampaignState, side: SideId, extra: int | None, dice: Dice) -> Outcome:
    """RR 2.521 Purchasing Reconnaissance (None: no Recon)."""
    return sequence.submit_recon(system, state, side, extra, dice)


def phase_assisted_roll(
    system: System, state: CampaignState, side: SideId, step_ref: str, table_id: str, column: str | None,
    answers: Mapping[int, int | bool], dice: Dice, purpose: str = "",
) -> Outcome:
    """A roll on one of the current assisted step's tables, with the DRM the player ticked."""
    return sequence.assisted_roll(system, state, side, step_ref, table_id, column, answers, dice, purpose)


def board_roll(
    system: System, state: CampaignState, side: SideId, at: str, kind: str, count: int, purpose: str, dice: Dice,
    map_group: str | None = None,
) -> Outcome:
    """Public rolls at the board on request (rules_engine.board: RR 2.504, the scenario — with Map Groups in play,
    KGP 8.2, the scenario on ``map_group``)."""
    return board.board_roll(system, state, side, at, kind, count, purpose, dice, map_group)


def declare(system: System, state: CampaignState, side: SideId, rule_id: str, map_group: str | None = None
            ) -> Outcome:
    """A declaration made at the board during the scenario (KGP CG14 German Fanaticism), counted and public."""
    return declarations.declare(system, state, side, rule_id, map_group)


def scenario_roll(
    system: System, state: CampaignState, side: SideId, roll_id: str, threshold: object, turn: object,
    answers: Mapping[int, int | bool], dice: Dice, map_group: str | None = None,
) -> Outcome:
    """One of the scenario's own public rolls (PL CG2 / KGP CG23 Game End dr … — KGP: per Map Group's scenario)."""
    return board.scenario_roll(system, state, side, roll_id, threshold=threshold, turn=turn, answers=answers,
                               dice=dice, map_group=map_group)


def phase_submit_results(system: System, state: CampaignState, side: SideId, entry: Mapping[str, JSON],
                         map_group: str | None = None) -> Outcome:
    """The side's entry of the scenario's results (KGP 8.2: of the scenario on ``map_group``)."""
    return results.submit_results(system, state, side, results.result_from_json(entry), map_group)


def recon_declare(system: System, state: CampaignState, side: SideId, location: object) -> Outcome:
    """RR 2.524, PHD C5.40: one Location to reconnoitre, in turn (NothingToDeclare when no step takes them)."""
    step = losses.current_step(system, state)
    if step is None:
        raise NothingToDeclare("No Recon Locations are declared now.")
    return recon_turns.declare(system, state, step, side, location)


def record_losses(system: System, state: CampaignState, side: SideId, cvp: object, leaders: object = 0) -> Outcome:
    """PL 3.11 / PHD C5.1: the CVP (PL 3.45: and leaders) ``side`` lost, recorded at this step."""
    return losses.record(system, state, side, cvp, leaders)


def supply(system: System, state: CampaignState, side: SideId, need_id: str, value: object,
           dice: Dice | None = None) -> Outcome:
    """``sequence.supply``: one need id and its value (a table value as printed; SAN/ELR/LVP a whole number)."""
    return sequence.supply(system, state, side, need_id, value, dice=dice)


def _propose(reason: str | None) -> Callable[[System, CampaignState, SideId], Outcome]:
    return lambda system, state, side: sequence.propose_end(system, state, side, reason or "mutual-agreement")


def cg_end_action(action: str, system: System, state: CampaignState, side: SideId, reason: str | None = None
                  ) -> Outcome:
    """propose | withdraw | decline | concede (PL 1.3 mutual agreement or CG objectives met, concession)."""
    handlers: dict[EndAction, Callable[[System, CampaignState, SideId], Outcome]] = {
        EndAction.PROPOSE: _propose(reason), EndAction.WITHDRAW: sequence.withdraw_end,
        EndAction.DECLINE: sequence.decline_end, EndAction.CONCEDE: sequence.concede,
    }
    return handlers[EndAction(action)](system, state, side)
