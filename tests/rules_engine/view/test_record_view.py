"""rules_engine.record_view: the one place deciding what a side sees of the records — its own in full, the opponent's
CG Roster through the form's public columns only (RR 2.518 ``visibility: both``) and no RG Purchase Record until CG
end, everything after; the dice log and the supplied values filtered by Event.visible_to."""
from __future__ import annotations

from dataclasses import replace

from rules_engine.dice import FixedDice
from rules_engine.events import JSON, Event
from rules_engine.record_view import (
    SUPPLIED_KINDS,
    RecordPart,
    RecordSources,
    RecordView,
    opponent_roster_fields,
    purchase_sides,
    record_view_for,
)
from rules_engine.state import CampaignState
from rules_engine.view import public_roster_fields
from rules_engine.vocabulary import Visibility
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, rr, through_initial

SECRET = "ZZ-SECRET-5531"
RR_PUBLIC = ["CG Date", "LVP", "ELR", "SAN", "Initiative"]  # RR 2.518: the columns marked "both"


def _state(ended: bool = False) -> CampaignState:
    return replace(through_initial(FixedDice()), ended=ended)


def _lines(state: CampaignState) -> dict[str, dict[str, dict[str, JSON]]]:
    """Both sides' roster lines in full, a secret planted in every hidden cell (as if a store gave them all)."""
    out: dict[str, dict[str, dict[str, JSON]]] = {}
    for side, ledger in state.ledgers.items():
        out[side] = {line.date_id: {**line.to_json(), "notes": SECRET, "start": SECRET, "left": SECRET}
                     for line in ledger.roster}
    return out


def _view(state: CampaignState, side: str, *parts: RecordPart, events: tuple[Event, ...] = ()) -> RecordView:
    purchases = {s: [{"date_id": "19 AM", "rg_id": SECRET, "group_type": SECRET}] for s in state.ledgers}
    sources = RecordSources(frozenset(parts), _lines(state), purchases, events)
    return record_view_for(rr(), state, side, sources)


def _all_text(view: RecordView) -> str:
    return repr(view)


def test_the_opponents_roster_shows_the_public_columns_only_whatever_the_source_holds() -> None:
    view = _view(_state(), CDN, RecordPart.ROSTER)
    assert view.roster is not None
    own, theirs = view.roster.tables
    assert (own.side, theirs.side) == (CDN, GER)
    assert [c.label for c in theirs.columns] == RR_PUBLIC
    assert theirs.note.startswith("Hidden until CG end: ")
    assert all(SECRET not in cell for row in theirs.rows for cell in row)
    assert any(SECRET in cell for row in own.rows for cell in row)  # the own side's cells in full
    assert [book.you for book in view.roster.books] == [True]  # the opponent's books stay private


def test_after_cg_end_the_opponents_roster_and_books_are_shown_in_full() -> None:
    view = _view(_state(ended=True), CDN, RecordPart.ROSTER)
    assert view.roster is not None
    own, theirs = view.roster.tables
    assert theirs.columns == own.columns and theirs.note == ""
    assert any(SECRET in cell for row in theirs.rows for cell in row)
    assert [book.you for book in view.roster.books] == [True, False]


def test_the_opponents_rg_purchase_record_is_neither_read_nor_shown_before_cg_end() -> None:
    state = _state()
    assert purchase_sides(rr(), state, CDN) == (CDN,)
    assert purchase_sides(rr(), replace(state, ended=True), CDN) == (CDN, GER)
    view = _view(state, GER, RecordPart.PURCHASES)
    assert view.purchases is not None
    own, theirs = view.purchases.tables
    assert own.rows and SECRET in own.rows[0]
    assert (theirs.columns, theirs.rows) == ((), ())
    assert theirs.note == "The Canadian RG Purchase Record stays secret until CG end."


def test_the_roster_fields_read_for_the_opponent_are_the_public_ones_until_cg_end() -> None:
    state = _state()
    assert opponent_roster_fields(rr(), state) == public_roster_fields(rr())
    assert opponent_roster_fields(rr(), replace(state, ended=True)) is None


def _roll(visibility: Visibility, side: str | None, number: int, stream: str) -> Event:
    payload: dict[str, JSON] = {"stream": stream, "number": number, "kind": "dr", "dice": [4], "total": 4,
                                "purpose": f"{SECRET}-{stream}-{number}", "roller": side or CDN}
    return Event("roll", visibility, side, payload)


ROLLS = (
    Event("date-advanced", Visibility.PUBLIC, None, {"date": "19 PM"}),
    _roll(Visibility.PUBLIC, None, 1, "public"),
    _roll(Visibility.SIDE, CDN, 1, CDN),
    _roll(Visibility.CG_END, GER, 1, GER),
)


def test_the_dice_log_holds_public_and_own_rolls_and_the_opponents_only_after_cg_end() -> None:
    before = _view(_state(), CDN, RecordPart.DICE, events=ROLLS)
    assert before.dice is not None
    assert [(r.stream, r.visibility, r.date) for r in before.dice.rows] == [
        ("Public", "public", "19 PM"), ("Canadian", "own", "19 PM")]
    assert f"{SECRET}-{GER}" not in _all_text(before)
    after = _view(_state(ended=True), CDN, RecordPart.DICE, events=ROLLS)
    assert after.dice is not None
    assert [r.visibility for r in after.dice.rows] == ["public", "own", "revealed"]


def test_supplied_values_are_the_supplied_kinds_named_explicitly() -> None:
    assert SUPPLIED_KINDS == {"supplied", "value-supplied"}
    events = (
        Event("supplied", Visibility.SIDE, CDN, {"step": "2.512", "values": {"san": 4}}),
        Event("value-supplied", Visibility.PUBLIC, None, {"side": GER, "text": "11"}),
        Event("table-result", Visibility.PUBLIC, None, {"side": GER, "text": "not a supplied value"}),
        Event("supplied", Visibility.SIDE, GER, {"step": "2.512", "values": {"elr": 3}}),
    )
    view = _view(_state(ended=True), CDN, RecordPart.END, events=events)
    assert view.end is not None
    assert [(s.side_name, s.text, s.you) for s in view.end.supplied] == [
        ("Canadian", "SAN = 4", True), ("German", "11", False), ("German", "ELR = 3", False)]


def test_only_the_parts_asked_for_are_built() -> None:
    view = _view(_state(), CDN)
    assert (view.roster, view.purchases, view.dice, view.end) == (None, None, None, None)
    assert (view.side_name, view.opponent_name, view.date.id) == ("Canadian", "German", "19 AM")
