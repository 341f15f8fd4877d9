"""The between-scenario steps and the Idle rule."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import Automation, DiceKind, StepAction


@unshadowed
@dataclass(frozen=True)
class Step:
    """One step of the between-scenario sequence ("2.516 CPP Replenishment")."""

    ref: str
    name: str
    markers: tuple[str, ...] = ()
    loop_on_idle: bool = False
    initial: bool = False
    initial_only: bool = False
    sides: str = "simultaneous"  # simultaneous | ordered | none
    order: tuple[str, ...] = ()
    secret: str = "none"  # none | roll | choice | purchase | record
    revealed: str = "never"  # never | immediately | cg-end | at-step
    revealed_at: str | None = None  # with revealed == "at-step": the step ref
    automation: Automation = Automation.ON_BOARD
    action: StepAction | None = None  # what the engine does (None: nothing, the players do it)
    params: Mapping[str, object] = field(default_factory=dict)
    tables: tuple[str, ...] = ()
    note: str | None = None
    board_rolls: tuple[DiceKind, ...] | None = None  # public rolls made at the board on request (None: the default)
    in_scenario: bool = False  # played during the scenario (PL 2.8/2.9): shown with it, not a checklist step


@dataclass(frozen=True)
class IdleRule:
    """What happens when no side attacks (Idle Date, Idle Firefight, Lull)."""

    name: str
    loop: str  # steps-marked-loop | listed-steps
    steps: tuple[str, ...] = ()
    then: str = "next-date"
    note: str | None = None
