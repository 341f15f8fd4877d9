"""Initiative inside the phase and the start of a scenario (RR 2.522/2.525, PL 2.41, ER/KGP CG4 night ELR)."""
from __future__ import annotations

from dataclasses import replace

from rules_engine.dice import PUBLIC_STREAM, Dice, Roll
from rules_engine.errors import RulesError
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.initiative import matrix_cell
from rules_engine.model import Step
from rules_engine.phase.dates import enter_idle
from rules_engine.phase.order import initial_roles
from rules_engine.phase.program import INITIAL_MARK, goto, move_on, program
from rules_engine.phase.tracks import fold_all, with_records
from rules_engine.progress import Progress
from rules_engine.state import (
    DUAL_ATTACK,
    IDLE,
    INITIAL_SCENARIO,
    CampaignState,
    RevealedRound,
    SystemLike,
)
from rules_engine.vocabulary import Chit, Visibility


def _attack_choice(system: SystemLike, state: CampaignState, side: str) -> Chit:
    """A purchase-mode side's choice for this date: Attack when its ledger holds an Attack Option for it (PL 2.4)."""
    ledger = state.ledgers.get(side)
    return Chit.ATTACK if ledger is not None and ledger.items_on(state.date_id, "attack-option") > 0 else Chit.IDLE


def resolve_initiative(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """The initiative step without chits: the Initial Scenario's assigned roles, or purchased Attack Options (PL 2.41)."""
    if state.pass_kind == "initial":
        last = state.last_round
        payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "label": last.label if last else None,
                                    "setup_first": last.setup_first if last else None,
                                    "moves_first": last.moves_first if last else None, "assigned": True}
        event = Event(EventKind.INITIATIVE_ASSIGNED, Visibility.PUBLIC, None, payload)
        return Progress(move_on(system, with_records(state, event)), (event,))
    initiative = system.initiative
    if initiative is None:
        raise RulesError(f"{system.id}: step {step.ref} resolves the initiative but the system defines none")
    chits = {side: _attack_choice(system, state, side) for side in state.sides}
    roles = {s.matrix_role: s.id for s in system.sides}
    key = (chits[roles["axis"]], chits[roles["allied"]])
    cell = initiative.matrix[key] if initiative.mode != "chit" else matrix_cell(system, chits)
    events: list[Event] = []
    setup_first = cell.setup_first
    rolls: list[Roll] = []
    if cell.result == DUAL_ATTACK and initiative.dual_attack_setup is not None:
        order = initiative.dual_attack_setup
        roll = dice.roll(order.dice, f"{order.ref} Dual Attack set-up {order.dice}", order.roller, PUBLIC_STREAM)
        row = order.winner(roll.total)
        setup_first = row.result
        rolls.append(roll)
        events.append(roll_event(roll, Visibility.PUBLIC, None, result=row.result, label=row.label, verify=row.verify))
    revealed = RevealedRound(state.date_index, state.date_id, chits, cell.result, cell.label, setup_first,
                             cell.moves_first, tuple(rolls))
    events.insert(0, Event(EventKind.CHITS_REVEALED, Visibility.PUBLIC, None, {
        "date": state.date_id, "chits": {s: str(c) for s, c in chits.items()}, "result": cell.result,
        "label": cell.label, "setup_first": setup_first, "moves_first": cell.moves_first}))
    state = state.evolve(last_round=revealed)
    if cell.result == IDLE:
        return Progress(state, tuple(events)).then(lambda new: enter_idle(system, new))
    return Progress(goto(system, state, "scenario", program(system, "scenario")[0]), tuple(events))


def scenario_start(system: SystemLike, state: CampaignState) -> Progress:
    """At the start of a scenario every SAN is known at the board (the opponent's rolls activate a side's Sniper):
    a SAN increase bought in secret and not yet announced (no announcing step, e.g. before the Initial Scenario) is
    announced now."""
    state, night = _night_elr(system, state)
    state, changed = fold_all(system, state)
    if not changed:
        return Progress(state, night)
    payload: dict[str, JSON] = {
        "date": state.date_id, "step": state.phase_ref,
        "tracks": {s: {k: v for k, v in state.tracks.get(s, {}).items() if k == "san"} for s in state.sides},
    }
    event = Event(EventKind.ANNOUNCED, Visibility.PUBLIC, None, payload)
    return Progress(with_records(state, event), night + (event,))


def _night_elr(system: SystemLike, state: CampaignState) -> Progress:
    """ER/KGP CG4 "the Scenario Defender's ELR at night is one less than it would be in a daytime scenario": at the
    start of a night scenario, the side(s) not attacking (CG5: the Idle chit) play it at the printed ELR − 1."""
    calendar = system.calendar
    if not 0 <= state.date_index < len(calendar) or not calendar[state.date_index].night:
        return Progress(state, ())
    found = next(((r, drm) for r in system.special_rules
                  if isinstance(drm := r.params.get("night_scenario_defender_elr_drm"), int)), None)
    if found is None:
        return Progress(state, ())
    rule, drm = found
    if state.step == INITIAL_SCENARIO or state.phase_ref == INITIAL_MARK:
        roles = initial_roles(system)
        attackers = roles.attackers if roles is not None else ()
    else:
        last = state.last_round
        attackers = tuple(s for s, c in last.chits.items() if c is Chit.ATTACK) \
            if last is not None and last.date_index == state.date_index else ()
    events: list[Event] = []
    for side in state.sides:
        if not attackers or side in attackers:
            continue
        printed = state.tracks.get(side, {}).get("elr")
        event = Event(EventKind.NIGHT_ELR, Visibility.PUBLIC, None, {
            "date": state.date_id, "side": side, "rule": rule.ref, "drm": drm, "printed": printed,
            "elr": printed + drm if printed is not None else None})
        state = with_records(state, event)
        events.append(event)
    return Progress(state, tuple(events))


def move_order(system: SystemLike, state: CampaignState, dice: Dice) -> Progress:
    """Dual Attack: after all setup, the move-order roll (RR 2.525 dr > 4 Canadian, PL 2.41 "in the same manner")."""
    initiative = system.initiative
    last = state.last_round
    move = initiative.dual_attack_move if initiative else None
    if move is None or last is None or last.date_index != state.date_index or last.result != DUAL_ATTACK \
            or last.moves_first is not None:
        return Progress(state, ())
    roll = dice.roll(move.dice, f"{move.ref} Dual Attack move-order {move.dice}", move.roller, PUBLIC_STREAM)
    row = move.winner(roll.total)
    revealed = replace(last, moves_first=row.result, rolls=last.rolls + (roll,))
    return Progress(state.evolve(last_round=revealed), (
        roll_event(roll, Visibility.PUBLIC, None, result=row.result, label=row.label, verify=row.verify),
        Event(EventKind.MOVE_ORDER, Visibility.PUBLIC, None, {"date": state.date_id, "moves_first": row.result, "verify": row.verify}),
    ))
