"""What a viewer sees of the event log, as data a database query can apply before paging (the same decision as
``event_text.visible_events``: ``Event.visible_to``, then each kind's ``hidden_by``), so that a page of the history or
the dice log never counts, shows or is shifted by an event the viewer may not see."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_engine.event_text import EVENT_SPECS, HIDING_KEY
from rules_engine.events import EventKind
from rules_engine.history import frozen_map
from rules_engine.vocabulary import SideId, Visibility

__all__ = ["HIDING_KEY", "Sight", "sight"]


@dataclass(frozen=True)
class Sight:
    """A viewer's sight of the log: ``anyones`` visibilities seen whoever owns the event, ``owns`` only on the viewer's
    own events; a ``hidden_by`` kind's event is dropped when one of the other kind is seen, same side and
    ``HIDING_KEY`` value (a side that sees its own sealed chit needs no "you have chosen a chit")."""

    viewer: SideId
    anyones: frozenset[Visibility]
    owns: frozenset[Visibility]
    hidden_by: Mapping[EventKind, EventKind]

    def __post_init__(self) -> None:
        object.__setattr__(self, "hidden_by", frozen_map(self.hidden_by))

    def sees(self, visibility: Visibility, side: SideId | None) -> bool:
        """Whether the viewer sees an event of ``visibility`` owned by ``side`` (Event.visible_to, as sets)."""
        return visibility in self.anyones or (visibility in self.owns and side == self.viewer)


def sight(viewer: SideId, ended: bool) -> Sight:
    """``viewer``'s sight: PUBLIC events to both; SIDE and CG_END ones to their side, to both once the CG ends."""
    anyones = frozenset(Visibility) if ended else frozenset({Visibility.PUBLIC})
    hidden_by = {kind: spec.hidden_by for kind, spec in EVENT_SPECS.items() if spec.hidden_by is not None}
    return Sight(viewer, anyones, frozenset(Visibility) - anyones, hidden_by)
