"""rules_engine.event_text: one registry entry per event kind, who sees an event, and how a few kinds read."""
from __future__ import annotations

from rules_engine.event_text import EVENT_SPECS, Words, describe, record_words, visible_events
from rules_engine.events import Event, EventKind
from rules_engine.vocabulary import Visibility
from tests.rules_engine.phase.test_initiative import CDN, GER, RR

WORDS = Words(RR)


def test_every_event_kind_has_exactly_one_registry_entry() -> None:
    assert set(EVENT_SPECS) == set(EventKind)


def test_an_event_kind_keeps_equality_with_its_stored_string() -> None:
    assert EventKind.CHIT_SEALED == "chit-sealed"
    assert Event("chit-sealed", Visibility.PUBLIC, CDN, {"side": CDN}).kind is EventKind.CHIT_SEALED


def test_a_chit_chosen_hides_the_viewers_own_chit_sealed_but_not_the_opponents() -> None:
    chosen = Event("chit-chosen", Visibility.SIDE, CDN, {"side": CDN, "chit": "attack", "date": "1"})
    own_sealed = Event("chit-sealed", Visibility.PUBLIC, CDN, {"side": CDN, "date": "1"})
    their_sealed = Event("chit-sealed", Visibility.PUBLIC, GER, {"side": GER, "date": "1"})
    events = [chosen, own_sealed, their_sealed]
    assert visible_events(events, CDN, False) == [chosen, their_sealed]
    assert visible_events(events, GER, False) == [own_sealed, their_sealed]


def test_texts_typed_by_hand() -> None:
    said = describe(WORDS, "chit-sealed", {"side": GER, "date": "19 PM"}, None, CDN)
    assert said.text == "The German side has chosen an Initiative chit for 19 PM."
    assert describe(WORDS, "chit-sealed", {"side": CDN, "date": "19 PM"}, None, CDN).text == \
        "You have chosen an Initiative chit for 19 PM."
    assert describe(WORDS, "chit-chosen", {"chit": "attack", "date": "19 PM"}, CDN, CDN).text == \
        "You chose Attack for 19 PM (sealed)."
    assert describe(WORDS, "player-joined", {"player": "gerd", "side": GER}, None, CDN).text == \
        "gerd joined and took the German side."
    assert describe(WORDS, "results-differ", {"date": "19 PM", "fields": ["cvp", "winner"]}, None, CDN).text == \
        "The results entries of 19 PM differ: CVP amassed, Winner."
    assert describe(WORDS, "san-adjusted", {"side": GER, "before": 2, "after": 3, "step": "2.512"}, None, CDN).text == \
        "German SAN 2 → 3 (2.512)."
    assert describe(WORDS, "replenishment-skipped", {}, GER, GER).text == "Replenishment skipped."
    assert describe(WORDS, "roll", {"purpose": "Weather", "kind": "DR", "total": 7, "roller": GER, "verify": True},
                    None, CDN) == describe(WORDS, EventKind.ROLL, {"purpose": "Weather", "kind": "DR", "total": 7,
                                                                   "roller": GER, "verify": True}, None, CDN)
    roll = describe(WORDS, "roll", {"purpose": "Weather", "kind": "DR", "total": 7, "roller": GER, "verify": True},
                    None, CDN)
    assert (roll.text, roll.detail) == ("Weather: DR 7 rolled for the German side.",
                                        "Verify this result against your printed chart.")


def test_a_step_record_reads_from_the_same_registry() -> None:
    assert record_words(WORDS, "elr-changed", {"side": CDN, "before": 4, "after": 3}, None, GER) == \
        ("ELR", "Canadian ELR 4 → 3")
    assert record_words(WORDS, "step-done", {"step": "2.512"}, None, GER) is None


def test_a_weather_record_leaves_out_the_charts_dash_as_the_history_line_does() -> None:
    payload = {"date": "19 PM", "ec": "Wet/Soft Ground", "weather": "Overcast", "moon": "-"}
    assert record_words(WORDS, "weather", payload, None, GER) == ("Weather", "EC: Wet/Soft Ground · Weather: Overcast")
    assert describe(WORDS, EventKind.WEATHER, payload, None, GER).text == "Weather for 19 PM: Wet/Soft Ground · Overcast."
