"""Roles and the order of resolution: who attacked, who sets up or moves first, ordered steps (RR 2.5, PL 2.74)."""
from __future__ import annotations

from dataclasses import dataclass, replace

from rules_engine import patrols
from rules_engine.errors import SubmissionError
from rules_engine.model import Step
from rules_engine.phase.program import settle, step_at
from rules_engine.phase.tracks import with_records
from rules_engine.progress import Progress
from rules_engine.state import (
    INITIAL_SCENARIO,
    CampaignState,
    DateRecord,
    RevealedRound,
    SystemLike,
    check_side,
    side_ids,
    side_name,
)
from rules_engine.vocabulary import Chit


@dataclass(frozen=True)
class InitialRoles:
    """Who attacks in the Initial Scenario (the scenario card / CG Card says; PHD C4.2 "US Attack")."""

    label: str
    setup_first: str | None = None
    moves_first: str | None = None
    attackers: tuple[str, ...] = ()


def initial_roles(system: SystemLike) -> InitialRoles | None:
    """The Initial Scenario's roles from the data: a special rule's ``params.initiative`` (PHD C4.2) or the
    ``initial_attacker`` setting (PL 1.4); None when the data do not say (RR: the Initial Scenario is not in the seed)."""
    initiative = system.initiative
    for rule in system.special_rules:
        result = rule.params.get("initiative")
        if isinstance(result, str) and initiative is not None:
            for cell in initiative.matrix.values():
                if cell.result == result:
                    first = rule.params.get("setup_first")
                    moves = rule.params.get("moves_first")
                    setup = str(first) if isinstance(first, str) else cell.setup_first
                    mover = str(moves) if isinstance(moves, str) else cell.moves_first
                    return InitialRoles(cell.label, setup, mover, (mover,) if mover else ())
    attacker = system.settings_values.get("initial_attacker")
    if isinstance(attacker, str) and attacker in side_ids(system):
        other = side_ids(system)[1] if attacker == side_ids(system)[0] else side_ids(system)[0]
        return InitialRoles(f"{side_name(system, attacker)} attack (assigned)", other, attacker, (attacker,))
    return None


def _attacker(record: DateRecord | RevealedRound | None) -> str | None:
    if record is None:
        return None
    if record.moves_first:
        return record.moves_first
    if isinstance(record, DateRecord):
        attackers = [s for s, c in record.choices.items() if c == str(Chit.ATTACK)]
        if len(attackers) == 1:
            return attackers[0]
        if record.result is not None:
            attacked = [s for s, a in record.result.attacked.items() if a]
            if len(attacked) == 1:
                return attacked[0]
    else:
        attackers = [s for s, c in record.chits.items() if c is Chit.ATTACK]
        if len(attackers) == 1:
            return attackers[0]
    return None


def played_dates(state: CampaignState) -> list[DateRecord]:
    """The dates a scenario was played on (Idle Dates left out)."""
    return [r for r in state.history if r.kind != "idle"]


def resolve_order(system: SystemLike, state: CampaignState, step: Step) -> tuple[str, ...] | None:
    """The sides of an ordered step in turn (sides not named act last); None when a role is not known."""
    if patrols.resolved_item(step) is not None and step.params.get("order_chooser"):
        return patrols.order(state, step, order_chooser(system, state, step))  # PL 2.74: the buyers, as chosen
    sides = side_ids(system)
    other = {sides[0]: sides[1], sides[1]: sides[0]}
    in_scenario_pass = state.pass_kind == "scenario" or (state.pass_kind == "initial" and state.step != INITIAL_SCENARIO)
    round_now = state.last_round if state.last_round and state.last_round.date_index == state.date_index else None
    played = played_dates(state)
    just_played = played[-1] if played else None
    previous = (played[-1] if in_scenario_pass else (played[-2] if len(played) > 1 else None)) if played else None
    if in_scenario_pass:
        attacker = _attacker(round_now) or _attacker(previous)
    else:
        attacker = _attacker(just_played)
    words: dict[str, str | None] = {
        "attacker": attacker,
        "defender": other[attacker] if attacker else None,
        "setup-first": round_now.setup_first if round_now else None,
        "moves-first": round_now.moves_first if round_now else None,
        "previous-attacker": _attacker(previous),
    }
    for first, second in (("setup-first", "setup-second"), ("moves-first", "moves-second"),
                          ("previous-attacker", "previous-defender")):
        known = words[first]
        words[second] = other[known] if known else None
    order: list[str] = []
    for word in step.order:
        side = word if word in sides else words.get(word)
        if side is None:
            return None
        if side not in order:
            order.append(side)
    return tuple(order) + tuple(s for s in sides if s not in order)


def order_chooser(system: SystemLike, state: CampaignState, step: Step) -> str | None:
    """The side that chooses the order of a ``resolves`` step (``params.order_chooser``: role words, the first one
    known wins: PL 2.74 the Defender in the most recent firefight), or None."""
    words = step.params.get("order_chooser")
    for word in ([words] if isinstance(words, str) else words if isinstance(words, list) else []):
        found = resolve_order(system, state, replace(step, order=(str(word),), params={}))
        if found:
            return found[0]
    return None


def choose_resolution_order(system: SystemLike, state: CampaignState, side: str, first: str
                            ) -> Progress:
    """PL 2.74: the side the rule names chooses which side resolves its Patrols first."""
    check_side(system, side)
    state = settle(system, state)
    step = step_at(system, state)
    if step is None or patrols.resolved_item(step) is None:
        raise SubmissionError(f"There is no order of resolution to choose now (step: {state.phase_ref or state.step}).")
    new, events = patrols.choose_first(system, state, step, side, order_chooser(system, state, step), first)
    return Progress(with_records(new, *events), events)


def waiting_for(system: SystemLike, state: CampaignState, step: Step, side: str) -> str | None:
    """The side that must finish this ordered step before ``side`` may act, or None."""
    if step.sides != "ordered":
        return None
    order = resolve_order(system, state, step)
    if order is None:
        return None
    for earlier in order[: order.index(side)]:
        if earlier not in state.done:
            return earlier
    return None
