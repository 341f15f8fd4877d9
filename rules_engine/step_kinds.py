"""What a step is, from its action: the one source for a step's kind (issue 14 item 10).

A step's kind follows from what the app does with it, never from a separate flag:

* ``automatic``: the engine resolves it when the step is reached (an action in ``AUTOMATIC_ACTIONS``);
* ``input``: each side submits an order, possibly empty (``INPUT_ACTIONS``);
* ``assisted``: played on the board, the app rolls the step's tables on request (a step with ``tables:``, a rolling
  action, or an automatic action marked ``optional``);
* ``initiative``: the initiative flow (chits or a roll, RR 2.522, PL 2.41, PHD C5.37);
* ``on-board``: everything else; both players do it on the board and mark it finished.

A fixture may still write ``automation:``; the loader refuses a value other than the derived one.
"""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.vocabulary import Automation, StepAction

AUTOMATIC_ACTIONS = frozenset({
    StepAction.WEATHER_FROM_CALENDAR, StepAction.NEW_DATE_AND_SAN, StepAction.CLAMP_SAN, StepAction.RECORD_LVP,
    StepAction.BEGIN_PLAY, StepAction.REVEAL_ATTACK_OPTIONS, StepAction.ELR_CHANGE, StepAction.ROLL_PER_SIDE,
    StepAction.REPLENISH_BASE_MINUS_DR, StepAction.REPLENISH_FROM_TABLE, StepAction.RG_STRENGTH_WEAPONS_LEADERS,
    StepAction.ROLL_PER_PURCHASE, StepAction.SECRET_ROLL,
})
INPUT_ACTIONS = (
    StepAction.PURCHASE_RG, StepAction.PURCHASE, StepAction.PURCHASE_PATROLS, StepAction.PURCHASE_FORTIFICATIONS,
    StepAction.PURCHASE_RECON,
)
ROLL_ACTIONS = (StepAction.ROLL_TABLE, StepAction.ROLL_PER_ITEM, StepAction.FREE_ROLLS, StepAction.SECRET_ROLL)
INITIATIVE_ACTIONS = (StepAction.INITIATIVE, StepAction.RESOLVE_INITIATIVE)


def derive(action: str | None, tables: tuple[str, ...], params: Mapping[str, object]) -> Automation:
    """The kind a step's action, tables and ``optional`` flag make it (module docstring)."""
    if action in INITIATIVE_ACTIONS:
        return Automation.INITIATIVE
    automatic = action in AUTOMATIC_ACTIONS
    if automatic and not params.get("optional"):
        return Automation.AUTOMATIC
    if action in INPUT_ACTIONS:
        return Automation.INPUT
    if tables or action in ROLL_ACTIONS or automatic:
        return Automation.ASSISTED
    return Automation.ON_BOARD


def why(action: str | None, tables: tuple[str, ...], kind: Automation) -> str:
    """The reason, in words, a step has the kind ``derive`` gave it (for the loader's refusal)."""
    if action is None:
        return "a step with `tables:` and no `action:` is assisted" if tables else "a step with no `action:` is on-board"
    return f"the action {action!r}{' with `tables:`' if tables else ''} makes the step {kind.value}"
