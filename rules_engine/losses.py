"""Losses between scenarios (issue 14 item 6): PL 3.11 "RePh losses count for the previous firefight", PL 2.1 "include
units lost during previous RePh", PHD C5.1 "All ConPh losses count for the previous scenario for all purposes".

At a step whose ``params.losses`` is true (where the rule eliminates units: PL 3.17 Encircled, PHD C5.8 …) each side
records the CVP it lost there. They are added to the scenario just played — as CVP suffered by that side, i.e. amassed
by its opponent (``ScenarioResult.cvp[side]`` is what ``side`` amassed) — so the CVP DRM of the secret rolls that follow
(PL 2.1, 3.44; PHD C5.23, C5.29) count them, and the CG Roster line of that scenario shows them. Losses on the board are
seen by both players: the record is public.

Leaders lost there (PL 3.45 "one fewer leaders than they lost in the current CG/RePh") are added to the leaders the
side entered as lost with the results; a side that entered none there has no known total, and the count stays unknown.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_engine.errors import SubmissionError
from rules_engine.events import Event, EventKind
from rules_engine.model import Step
from rules_engine.phase.tracks import main_currency, roster_update
from rules_engine.progress import Progress
from rules_engine.state import PHASE, CampaignState, SystemLike, check_side, side_name
from rules_engine.vocabulary import Visibility

MAX_CVP = 999
MAX_LEADERS = 99


def records_losses(step: Step | None) -> bool:
    """True at a step where units may be lost on the board and each side records their CVP."""
    return step is not None and step.params.get("losses") is True


def counts_leaders(system: SystemLike) -> bool:
    """True when a later step limits leaders by those lost (PL 3.45 ``params.generate``): the form asks for them."""
    return any(isinstance(s.params.get("generate"), Mapping) for s in system.steps)


def current_step(system: SystemLike, state: CampaignState) -> Step | None:
    """The between-scenario step now current (None at a mark, the results, a scenario)."""
    if state.step != PHASE or state.phase_ref is None:
        return None
    return next((s for s in system.steps if s.ref == state.phase_ref), None)


def record(system: SystemLike, state: CampaignState, side: str, cvp: object,
           leaders: object = 0) -> Progress:
    """``side`` lost ``cvp`` CVP (``leaders`` of them leaders) at the current step: added to the last scenario played
    (suffered by ``side``; PL 3.11, PHD C5.1), the leaders to those it entered as lost (PL 3.45)."""
    check_side(system, side)
    step = current_step(system, state)
    if step is None or not records_losses(step):
        raise SubmissionError("Losses are recorded at the steps where units are lost (none now).")
    if isinstance(cvp, bool) or not isinstance(cvp, int) or not 1 <= cvp <= MAX_CVP:
        raise SubmissionError(f"CVP lost must be a whole number from 1 to {MAX_CVP} (got {_shown(cvp)})", step.ref)
    if isinstance(leaders, bool) or not isinstance(leaders, int) or not 0 <= leaders <= MAX_LEADERS:
        raise SubmissionError(f"Leaders lost must be a whole number from 0 to {MAX_LEADERS} (got {_shown(leaders)})",
                              step.ref)
    if leaders and not counts_leaders(system):
        raise SubmissionError("No step of this system counts leaders lost: record their CVP only.", step.ref)
    index = next((i for i in range(len(state.history) - 1, -1, -1)
                  if state.history[i].kind != "idle" and state.history[i].result is not None), None)
    if index is None:
        raise SubmissionError("No scenario has been played yet: there is nothing to count these losses for.", step.ref)
    record_ = state.history[index]
    result = record_.result
    assert result is not None
    other = state.other(side)
    cvp_map = {**result.cvp, other: result.cvp.get(other, 0) + cvp}
    leaders_map = dict(result.leaders_lost)
    if leaders and side in leaders_map:
        leaders_map[side] += leaders
    new_result = replace(result, cvp=cvp_map, leaders_lost=leaders_map)
    history = (*state.history[:index], replace(record_, result=new_result), *state.history[index + 1:])
    new = state.evolve(history=history)
    for s in state.sides:
        new = roster_update(new, s, record_.date_id, main_currency(system), cvp_amassed=new_result.cvp.get(s),
                            cvp_suffered=new_result.cvp.get(state.other(s)))
    among = f", {leaders} leader{'s' if leaders != 1 else ''} among them" if leaders else ""
    text = (f"{step.ref}: the {side_name(system, side)} lost {cvp} CVP{among}; they count for {record_.date_id} "
            f"(CVP suffered {new_result.cvp.get(other, 0)})")
    event = Event(EventKind.LOSSES_RECORDED, Visibility.PUBLIC, None, {
        "date": state.date_id, "step": step.ref, "side": side, "cvp": cvp, "leaders": leaders, "counted_for": record_.date_id,
        "text": text})
    return Progress(new.evolve(records=new.records + (event,)), (event,))


def _shown(value: object) -> str:
    """A short excerpt of a refused value (an integer of thousands of digits cannot even be turned into text)."""
    return "a number of more than 12 digits" if isinstance(value, int) and abs(value) >= 10**12 else repr(value)[:20]
