"""PL 3.45 Leader Generation/Improvement: the second Battlefield Promotion dr gives the number of leaders a side may
Battle Harden and/or Generate; the side says how many it Generates, and each is rolled (secretly, like the dr) on the
2.361 Leader Table "and the current CG Firefight DRM, if any" (the step's ``params.generate``: the table, its column
by nationality). "A side may only Generate a total of one fewer leaders than they lost in the current CG/RePh and never
more than there are MMC remaining on board for that side."

Bookkeeping only (which sides still choose, the most each may Generate, the question); rules_engine.sequence rolls.
The step's facts hold it while the step is current: ``MOST`` (the most the side may Generate) and ``NEED`` (how many
it Generated, once chosen).
"""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.errors import SubmissionError
from rules_engine.lost_values import Need
from rules_engine.model import Step
from rules_engine.state import CampaignState

NEED = "leaders_generated"
MOST = "leaders_may_generate"
RESULT = "leaders_result"


def params(step: Step) -> Mapping[str, object] | None:
    """The step's ``params.generate`` (None: the step generates no leaders)."""
    found = step.params.get("generate")
    return found if isinstance(found, Mapping) else None


def started(state: CampaignState) -> bool:
    """True once the step's dr are made and the sides' limits are set."""
    return any(MOST in state.facts_supplied.get(side, {}) for side in state.sides)


def pending(state: CampaignState, side: str) -> bool:
    """True while ``side`` has not said how many leaders it Generates."""
    facts = state.facts_supplied.get(side, {})
    return MOST in facts and NEED not in facts


def _result(state: CampaignState, step: Step, side: str) -> int:
    for event in reversed(state.records):
        if event.kind == "table-result" and event.payload.get("step") == step.ref and event.payload.get("side") == side:
            try:
                return max(0, int(str(event.payload.get("result"))))
            except ValueError:
                return 0
    return 0


def leaders_lost(state: CampaignState, side: str) -> int | None:
    """The leaders the side lost in the firefight just played, as entered with its results (None: not entered)."""
    last = state.history[-1] if state.history else None
    if last is None or last.result is None:
        return None
    lost = last.result.leaders_lost.get(side)
    return int(lost) if lost is not None else None


def start(state: CampaignState, step: Step) -> CampaignState:
    """After the dr: each side's most (the dr's result, and one fewer than the leaders it lost when entered). Only a
    side whose entered losses (public) allow none is not asked: asking every other side, whatever its secret dr gave,
    keeps the opponent from learning the dr from who is asked."""
    facts = {s: dict(v) for s, v in state.facts_supplied.items()}
    for side in state.sides:
        result = _result(state, step, side)
        lost = leaders_lost(state, side)
        most = result if lost is None else max(0, min(result, lost - 1))
        mine = facts.setdefault(side, {})
        mine[RESULT] = result
        mine[MOST] = most
        if lost is not None and lost <= 1:
            mine[NEED] = 0
    return state.evolve(facts_supplied=facts)


def need(state: CampaignState, step: Step, side: str) -> Need | None:
    """The question to ``side`` while it has not chosen."""
    if not pending(state, side):
        return None
    facts = state.facts_supplied.get(side, {})
    result, most = int(facts.get(RESULT, 0)), int(facts.get(MOST, 0))
    lost = leaders_lost(state, side)
    table = params(step) or {}
    ref = str(table.get("ref", "2.361"))
    limit = (f"one fewer than the {lost} leaders you entered as lost" if lost is not None
             else "one fewer than the leaders you lost in this firefight and its RePh")
    text = (f"How many leaders do you Generate on the {ref} table (0 to {most})? Your {step.ref} dr allows {result} "
            f"to Battle Harden and/or Generate; you may Generate at most {limit}, and never more than your MMC "
            "remaining on board. The others you may Battle Harden on the board. Each is rolled in secret")
    return Need(NEED, "fact", side, text, "number", step.ref, low=0, high=most)


def chosen(state: CampaignState, step: Step, side: str, value: object) -> int:
    """The number ``side`` Generates, checked against its most (SubmissionError naming the allowed range)."""
    if not pending(state, side):
        raise SubmissionError(f"{step.ref} {step.name}: you have already said how many leaders you Generate", step.ref)
    most = int(state.facts_supplied.get(side, {}).get(MOST, 0))
    count = value
    if isinstance(count, str) and count.strip().lstrip("+-").isdigit():
        count = int(count.strip())
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= most:
        raise SubmissionError(f"{step.ref} {step.name}: the leaders you Generate must be a whole number from 0 to "
                              f"{most}, got {value!r}", step.ref)
    return count


def recorded(state: CampaignState, side: str, count: int) -> CampaignState:
    """The side has Generated ``count`` leaders."""
    facts = {s: dict(v) for s, v in state.facts_supplied.items()}
    facts.setdefault(side, {})[NEED] = count
    return state.evolve(facts_supplied=facts)
