"""A step's outcome in the spirit of lila's ``Progress``: the new state and the events it made, in order."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from rules_engine.events import Event
from rules_engine.state import CampaignState


class Progress(NamedTuple):
    """The new state and its events (a tuple: ``new, events = f(...)`` unpacks it)."""

    state: CampaignState
    events: tuple[Event, ...] = ()

    def then(self, step: Callable[[CampaignState], tuple[CampaignState, tuple[Event, ...]]]) -> Progress:
        """Run ``step`` on the new state; its events follow these."""
        new, more = step(self.state)
        return Progress(new, self.events + tuple(more))

    def add(self, *events: Event) -> Progress:
        """The same state with ``events`` appended."""
        return Progress(self.state, self.events + events)

    def with_state(self, state: CampaignState) -> Progress:
        """The same events with another state."""
        return Progress(state, self.events)


def chain(state: CampaignState, *steps: Callable[[CampaignState], tuple[CampaignState, tuple[Event, ...]]]) -> Progress:
    """Run ``steps`` one after another from ``state``, their events in order."""
    progress = Progress(state)
    for step in steps:
        progress = progress.then(step)
    return progress


def collect(state: CampaignState, events: Iterable[Event]) -> Progress:
    """A Progress from a state and events gathered in a list."""
    return Progress(state, tuple(events))
