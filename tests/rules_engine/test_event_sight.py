"""The sight a query applies (rules_engine.event_sight) is the same decision as Event.visible_to and visible_events."""
from __future__ import annotations

import itertools

from rules_engine.event_sight import sight
from rules_engine.event_text import visible_events
from rules_engine.events import Event, EventKind
from rules_engine.record_view import records_sight
from rules_engine.vocabulary import Visibility


def test_a_sight_sees_exactly_the_events_visible_to_the_viewer_for_every_visibility_owner_and_cg_end() -> None:
    for visibility, owner, viewer, ended in itertools.product(
            Visibility, ("german", "canadian"), ("german", "canadian"), (False, True)):
        event = Event(EventKind.ROLL, visibility, owner, {})
        assert sight(viewer, ended).sees(visibility, owner) is event.visible_to(viewer, ended)
        assert records_sight(viewer, ended).sees(visibility, owner) is event.visible_to(viewer, ended)


def test_before_cg_end_a_side_sees_public_events_and_its_own_secret_ones_after_it_every_event() -> None:
    assert sight("german", False).anyones == {Visibility.PUBLIC}
    assert sight("german", False).owns == {Visibility.SIDE, Visibility.CG_END}
    assert sight("german", True).anyones == set(Visibility) and not sight("german", True).owns


def test_a_sealed_chit_is_hidden_by_its_own_chosen_chit_in_the_history_and_in_the_dice_log_only_a_revealed_roll_by_the_roll() -> None:
    assert dict(sight("german", False).hidden_by) == {EventKind.CHIT_SEALED: EventKind.CHIT_CHOSEN,
                                                      EventKind.NOTE_SEALED: EventKind.NOTE_WRITTEN,
                                                      EventKind.BOARD_ROLL_SEALED: EventKind.ROLL}
    assert dict(records_sight("german", False).hidden_by) == {EventKind.BOARD_ROLL_REVEALED: EventKind.ROLL}
    chosen = Event(EventKind.CHIT_CHOSEN, Visibility.SIDE, "german", {"date": "19 PM", "side": "german"})
    sealed = Event(EventKind.CHIT_SEALED, Visibility.PUBLIC, "german", {"date": "19 PM", "side": "german"})
    assert visible_events([chosen, sealed], "german", False) == [chosen]
    assert visible_events([chosen, sealed], "canadian", False) == [sealed]


def test_a_pace_change_is_public_and_nothing_hides_it() -> None:
    kinds = (EventKind.PACE_PROPOSED, EventKind.PACE_AGREED, EventKind.PACE_DECLINED, EventKind.PACE_WITHDRAWN)
    for kind in kinds:
        event = Event(kind, Visibility.PUBLIC, None, {"side": "german", "hours": 24, "was": 48})
        assert visible_events([event], "canadian", False) == [event]
        assert kind not in sight("canadian", False).hidden_by
