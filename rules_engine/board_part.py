"""The board part of an automatic step (issue 14 item 9): RR 2.5031 Rally & Unloading, PHD C5.25 Booby Trap Adjustment.

A step whose ``params.board_part`` names what the players still do on the board is not finished when the app has done
its automatic part: the step stays current as a board step until both sides mark it finished.
"""
from __future__ import annotations

from rules_engine.events import Event, EventKind
from rules_engine.model import Step
from rules_engine.state import CampaignState
from rules_engine.vocabulary import Visibility

KIND = EventKind.BOARD_PART


def text(step: Step) -> str | None:
    """What the players do on the board after the app's part of ``step`` (None: nothing)."""
    value = step.params.get("board_part")
    return value if isinstance(value, str) and value.strip() else None


def is_open(state: CampaignState, step: Step) -> bool:
    """True once the automatic part of ``step`` is done on this date and its board part is waiting for the players."""
    if text(step) is None:
        return False
    ref, date = step.ref, state.date_id
    for e in reversed(state.records):  # the newest first: the board part began at this step (a plain loop: asked often)
        if e.kind == KIND and e.payload.get("step") == ref and e.payload.get("date") == date:
            return True
    return False


def begin(state: CampaignState, step: Step) -> tuple[CampaignState, Event]:
    """The app's part of ``step`` is done: record that its board part is now the players' ("2.5031 …")."""
    event = Event(KIND, Visibility.PUBLIC, None, {"date": state.date_id, "step": step.ref,
                                                  "text": f"{step.ref}: now on the board — {text(step)}"})
    return state.evolve(records=state.records + (event,)), event
