"""Declarations a side makes at the board during a CG scenario and the app counts (KGP CG14 German Fanaticism: "For two
CG scenario of each CG [EXC: once during CG II], the German may declare that all of his Personnel are Fanatic … This
must be declared immediately upon the conclusion of all on-map setup").

A special rule with ``params.declared`` is declared by the side ``params.side`` while a scenario is played (one
declaration per scenario: per Map Group's scenario where Map Groups are in play), at most the number its ``limit``
gives for the chosen CG (``by_setting``) or ``params.per_cg``. The count is kept in the side's tracks and every
declaration is a public event.
"""
from __future__ import annotations

from rules_engine.board_base import scenario_group
from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.model import SpecialRule, System
from rules_engine.phase.program import settled
from rules_engine.progress import Progress
from rules_engine.state import INITIAL_SCENARIO, SCENARIO, CampaignState, SystemLike, check_side, side_name
from rules_engine.vocabulary import Visibility

Events = tuple[Event, ...]
COUNT = "declared:"  # tracks key: how many times a side declared a rule in the CG


def declarable(system: SystemLike) -> tuple[SpecialRule, ...]:
    """The special rules a side declares during a scenario (``params.declared``)."""
    return tuple(r for r in system.special_rules if isinstance(r.params.get("declared"), str))


def allowed(system: SystemLike, rule: SpecialRule) -> int | None:
    """How many scenarios of the CG the rule may be declared for: its limit for the chosen CG, else ``per_cg``."""
    limit_id = rule.params.get("limit")
    limit = next((lim for lim in system.limits if lim.id == limit_id), None)
    if limit is not None and limit.by_setting is not None:
        choice = system.settings_values.get(limit.by_setting)
        cell = limit.by_choice.get(str(choice)) if choice is not None else None
        if cell is not None and not cell.missing and cell.value is not None:
            return int(cell.number)
    per_cg = rule.params.get("per_cg")
    return per_cg if isinstance(per_cg, int) and not isinstance(per_cg, bool) else None


def _counted(state: CampaignState, side: str, rule: SpecialRule) -> tuple[str, ...]:
    """Whose declarations count: the side's own for a one-side rule (CG14), both sides' for a rule either side records
    (ER CG4 Massacre: once recorded, it lasts for the CG)."""
    return (side,) if isinstance(rule.params.get("side"), str) else tuple(state.sides)


def used(state: CampaignState, side: str, rule: SpecialRule) -> int:
    """How many times the rule was declared in this CG (by ``side``, or by either side for a rule without one)."""
    return sum(state.tracks.get(s, {}).get(COUNT + rule.id, 0) for s in _counted(state, side, rule))


def _scenario_key(rule: SpecialRule, state: CampaignState, group: str | None) -> str:
    return f"{COUNT}{rule.id}@{state.date_id}" + (f"/{group}" if group else "")


def declared_now(state: CampaignState, side: str, rule: SpecialRule, group: str | None = None) -> bool:
    """Whether the rule was declared for the scenario being played (on ``group``)."""
    key = _scenario_key(rule, state, group)
    return any(state.tracks.get(s, {}).get(key) for s in _counted(state, side, rule))


def validate_declaration(system: SystemLike, state: CampaignState, side: str, rule_id: object,
                         map_group: object = None) -> tuple[SpecialRule, str | None]:
    """The rule declared and the Map Group's scenario it is for; SubmissionError citing the rule otherwise."""
    check_side(system, side)
    state = settled(system, state)
    rules = declarable(system)
    rule = next((r for r in rules if r.id == rule_id), None)
    if rule is None:
        names = ", ".join(r.id for r in rules) or "none in this system"
        raise SubmissionError(f"Unknown declaration {rule_id!r} (allowed: {names}).")
    if state.ended or state.step not in (INITIAL_SCENARIO, SCENARIO):
        raise SubmissionError(f"{rule.ref} {rule.name} is declared during a CG scenario, upon the conclusion of all "
                              f"on-map setup; {state.date_id} is not at a scenario ({rule.ref}).", rule.ref)
    owner = rule.params.get("side")
    if isinstance(owner, str) and owner != side:
        raise SubmissionError(f"{rule.ref} {rule.name} is declared by the {side_name(system, owner)} side only "
                              f"({rule.ref}).", rule.ref)
    group = scenario_group(system, state, map_group)
    group_id = group.id if group is not None else None
    where = f" on {group_id}" if group_id else ""
    if declared_now(state, side, rule, group_id):
        raise SubmissionError(f"{rule.name} is already declared for the scenario{where} of {state.date_id} "
                              f"({rule.ref}).", rule.ref)
    most = allowed(system, rule)
    have = used(state, side, rule)
    if most is not None and have >= most:
        raise SubmissionError(f"{rule.ref} {rule.name}: declared at most {most} time{'s' if most != 1 else ''} in "
                              f"this CG; it was declared {have} time{'s' if have != 1 else ''} already ({rule.ref}).",
                              rule.ref)
    return rule, group_id


def declare(system: SystemLike, state: CampaignState, side: str, rule_id: object, map_group: object = None
            ) -> Progress:
    """``side`` declares the rule for the scenario being played: counted, and announced to both sides."""
    rule, group = validate_declaration(system, state, side, rule_id, map_group)
    state = settled(system, state)
    tracks = {s: dict(v) for s, v in state.tracks.items()}
    mine = tracks.setdefault(side, {})
    mine[COUNT + rule.id] = mine.get(COUNT + rule.id, 0) + 1
    mine[_scenario_key(rule, state, group)] = 1
    most = allowed(system, rule)
    payload: dict[str, JSON] = {"date": state.date_id, "side": side, "rule": rule.id, "ref": rule.ref,
                                "name": rule.name, "count": used(state.evolve(tracks=tracks), side, rule), "of": most}
    if group is not None:
        payload["map_group"] = group
    event = Event(EventKind.DECLARED, Visibility.PUBLIC, None, payload)
    return Progress(state.evolve(tracks=tracks, records=state.records + (event,)), (event,))


def for_view(system: System, state: CampaignState, side: str) -> list[dict[str, JSON]]:
    """The declarations the side may make now (scenario panel): rule, how many used / allowed, whether made."""
    state = settled(system, state)
    if state.ended or state.step not in (INITIAL_SCENARIO, SCENARIO):
        return []
    out: list[dict[str, JSON]] = []
    for rule in declarable(system):
        owner = rule.params.get("side")
        if isinstance(owner, str) and owner != side:
            continue
        out.append({"id": rule.id, "ref": rule.ref, "name": rule.name, "used": used(state, side, rule),
                    "of": allowed(system, rule), "text": rule.text})
    return out
