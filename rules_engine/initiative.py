"""2.522 Initiative Determination: sealed Attack/Idle chits, revealed together and cross-indexed on the matrix."""
from __future__ import annotations

from rules_engine.dice import PUBLIC_STREAM, Dice
from rules_engine.errors import RulesError, SubmissionError
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.model import Initiative, MatrixCell
from rules_engine.phase.dates import enter_idle
from rules_engine.progress import Progress
from rules_engine.state import (
    DUAL_ATTACK,
    ENDED,
    IDLE,
    INITIATIVE,
    PHASE,
    SCENARIO,
    CampaignState,
    RevealedRound,
    SystemLike,
    check_side,
    side_name,
)
from rules_engine.vocabulary import Chit, SideId, Visibility

FINAL_REF = "2.5222"


def _chit_initiative(system: SystemLike) -> Initiative:
    initiative = system.initiative
    if initiative is None or initiative.mode != "chit":
        mode = initiative.mode if initiative else "none"
        raise SubmissionError(
            f"{system.id} does not decide initiative with Attack/Idle chits (initiative mode: {mode}).",
            initiative.ref if initiative else None,
        )
    return initiative


def _as_chit(chit: Chit | str) -> Chit:
    try:
        return Chit(chit)
    except ValueError:
        raise SubmissionError(
            f"Unknown Initiative chit {chit!r} (allowed: {', '.join(c.value for c in Chit)})"
        ) from None


def attack_chits_left(system: SystemLike, state: CampaignState, side: SideId) -> int | None:
    """2.5221 how many Attack chits ``side`` may still play this CG (None: no limit)."""
    initiative = system.initiative
    if initiative is None or side not in initiative.chit_limits:
        return None
    return max(0, initiative.chit_limits[side] - state.attack_chits_used.get(side, 0))


def validate_chit(system: SystemLike, state: CampaignState, side: SideId, chit: Chit | str) -> None:
    """SubmissionError (with the rule) unless ``side`` may place ``chit`` now; changes nothing."""
    initiative = _chit_initiative(system)
    check_side(system, side)
    choice = _as_chit(chit)
    if state.step == ENDED:
        raise SubmissionError("The CG has ended; no more Initiative chits are placed.", initiative.ref)
    last = state.last_round
    if state.step != INITIATIVE and not choosing_early(system, state):
        if initiative.chosen_at and (last is None or last.date_index != state.date_index):
            raise SubmissionError(
                f"Initiative chits are chosen at {initiative.chosen_at} and revealed at {initiative.ref}; "
                f"{state.date_id} is at {state.phase_ref or state.step}.", initiative.chosen_at)
        if last is not None and last.date_index == state.date_index:
            raise SubmissionError(
                f"The Initiative chits for {state.date_id} have already been revealed ({last.label}).", FINAL_REF
            )
        raise SubmissionError(
            f"Initiative chits are placed only at Initiative Determination; {state.date_id} is at step {state.step!r}.",
            initiative.ref,
        )
    if side in state.sealed:
        raise SubmissionError("A submitted chit is final.", FINAL_REF)
    left = attack_chits_left(system, state, side)
    if choice is Chit.ATTACK and left == 0:
        limit, ref = initiative.chit_limits[side], initiative.chit_limits_ref or initiative.ref
        error = SubmissionError(
            f"The {side_name(system, side)} side has used its {limit} Attack chits for this CG ({ref}); "
            "only Idle is allowed."
        )
        error.ref = ref  # the rule is already in the message
        raise error


def choosing_early(system: SystemLike, state: CampaignState) -> bool:
    """True at the step where the system seals the chits before the reveal (PHD C5.31: "Attack Option requisitioned
    during ConPh C5.31", already counted at C5.34 "-1 Attack Chit was selected"; revealed at C5.37)."""
    initiative = system.initiative
    return (
        initiative is not None and initiative.chosen_at is not None and state.step == PHASE
        and state.phase_ref == initiative.chosen_at and state.pass_kind in ("cycle", "idle")
    )


def _role_side(system: SystemLike, role: str) -> SideId:
    for side in system.sides:
        if side.matrix_role == role:
            return side.id
    raise RulesError(f"{system.id}: no side has matrix_role {role!r} (needed by the initiative matrix)")


def matrix_cell(system: SystemLike, chits: dict[SideId, Chit]) -> MatrixCell:
    """The matrix cell for both chits: key (axis choice, allied choice)."""
    initiative = _chit_initiative(system)
    key = (chits[_role_side(system, "axis")], chits[_role_side(system, "allied")])
    try:
        return initiative.matrix[key]
    except KeyError:
        raise RulesError(f"{system.id}: the initiative matrix has no cell for axis {key[0]} / allied {key[1]}") from None


def submit_chit(
    system: SystemLike, state: CampaignState, side: SideId, chit: Chit | str, dice: Dice
) -> Progress:
    """2.5222 place a sealed chit; the second one reveals both at once and resolves the matrix (exactly once)."""
    validate_chit(system, state, side, chit)
    choice = _as_chit(chit)
    sealed = {**state.sealed, side: choice}
    events: list[Event] = [
        Event(EventKind.CHIT_CHOSEN, Visibility.SIDE, side, {"date": state.date_id, "side": side, "chit": str(choice)}),
        Event(EventKind.CHIT_SEALED, Visibility.PUBLIC, side, {"date": state.date_id, "side": side}),
    ]
    if set(sealed) < set(state.sides) or state.step != INITIATIVE:
        return Progress(state.evolve(sealed=sealed), tuple(events))  # chosen early (PHD C5.31): revealed at the initiative step
    return Progress(state.evolve(sealed=sealed), tuple(events)).then(lambda new: reveal(system, new, dice))


def reveal(system: SystemLike, state: CampaignState, dice: Dice) -> Progress:
    """2.5222 / PHD C5.37: both sealed chits revealed at once and cross-indexed on the matrix (exactly once)."""
    initiative = _chit_initiative(system)
    sealed = state.sealed
    if set(sealed) < set(state.sides):
        raise RulesError("the chits are revealed only when both sides have sealed theirs")
    events: list[Event] = []

    chits = {s: sealed[s] for s in state.sides}
    cell = matrix_cell(system, chits)
    used = dict(state.attack_chits_used)
    for s, c in chits.items():
        if c is Chit.ATTACK:
            used[s] = used.get(s, 0) + 1
    setup_first, moves_first = cell.setup_first, cell.moves_first
    rolls = []
    roll_events: list[Event] = []
    setup = initiative.dual_attack_setup
    if cell.result == DUAL_ATTACK and setup is not None:
        roll = dice.roll(setup.dice, f"{setup.ref} Dual Attack set-up {setup.dice}", setup.roller, PUBLIC_STREAM)
        row = setup.winner(roll.total)
        setup_first = row.result
        rolls.append(roll)
        roll_events.append(roll_event(roll, Visibility.PUBLIC, None, result=row.result, label=row.label,
                                      verify=row.verify))
    revealed = RevealedRound(
        date_index=state.date_index,
        date_id=state.date_id,
        chits=chits,
        result=cell.result,
        label=cell.label,
        setup_first=setup_first,
        moves_first=moves_first,
        rolls=tuple(rolls),
    )
    payload: dict[str, JSON] = {
        "date": state.date_id,
        "chits": {s: str(c) for s, c in chits.items()},
        "result": cell.result,
        "label": cell.label,
        "setup_first": setup_first,
        "moves_first": moves_first,
        "attack_chits_used": dict(used),
    }
    events.append(Event(EventKind.CHITS_REVEALED, Visibility.PUBLIC, None, payload))
    events.extend(roll_events)
    new = state.evolve(sealed={}, attack_chits_used=used, last_round=revealed, done=frozenset())
    if cell.result == IDLE:
        return Progress(new, tuple(events)).then(lambda idle: enter_idle(system, idle))
    return Progress(new.evolve(step=SCENARIO), tuple(events))
