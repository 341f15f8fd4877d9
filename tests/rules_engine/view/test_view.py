"""view_for: a side sees its own sealed chit and only "has chosen" of the other's, until the simultaneous reveal."""
from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from rules_engine.dice import FixedDice
from rules_engine.errors import UnknownNameError
from rules_engine.initiative import submit_chit
from rules_engine.state import CampaignState
from rules_engine.view import SideView, view_json
from rules_engine.view import view_for as side_view_for
from rules_engine.view import view_json as view_for
from rules_engine.vocabulary import Chit
from tests.rules_engine.phase.test_initiative import CDN, GER, RR, after_initial_scenario, play_round

A, I = Chit.ATTACK, Chit.IDLE
OTHER = {CDN: GER, GER: CDN}


def _histories() -> list[CampaignState]:
    """Initiative steps reached along different histories (first round, after assaults, after an Idle Date, limits hit)."""
    first = after_initial_scenario()
    after_idle = play_round(RR, first, I, I)
    after_cdn_assaults = play_round(RR, play_round(RR, first, A, I), A, I)  # Canadian chits used up
    after_dual = play_round(RR, first, A, A, 2, 5)
    return [first, after_idle, after_cdn_assaults, after_dual]


def _allowed(state: CampaignState, side: str) -> list[Chit]:
    return [A, I] if state.attack_chits_used[side] < {CDN: 2, GER: 6}[side] else [I]


def _dump(view: object) -> str:
    return json.dumps(view, sort_keys=True)


def _this_date(node: Any, date_id: str) -> Any:
    """``node`` without the records of earlier dates (roster lines: their initiative was revealed then)."""
    if isinstance(node, dict):
        if node.get("date_id") not in (None, date_id):
            return None
        return {k: _this_date(v, date_id) for k, v in node.items()}
    if isinstance(node, list):
        return [_this_date(v, date_id) for v in node]
    return node


def seen_by(state: CampaignState, side: str) -> Any:
    """view_for as the browser receives it: through JSON (which also proves it is JSON-safe)."""
    return json.loads(json.dumps(view_for(RR, state, side)))


@pytest.mark.parametrize("history", range(4))
@pytest.mark.parametrize("viewer", [CDN, GER])
def test_the_other_sides_sealed_chit_never_shows_in_the_view_before_the_reveal(history: int, viewer: str) -> None:
    start = _histories()[history]
    opponent = OTHER[viewer]
    before = _dump(view_for(RR, start, viewer))
    # The opponent seals first: whatever it chose, the viewer's view is the same, byte for byte.
    opponent_first = {c: submit_chit(RR, start, opponent, c, FixedDice())[0] for c in _allowed(start, opponent)}
    views = {c: _dump(view_for(RR, s, viewer)) for c, s in opponent_first.items()}
    assert len(set(views.values())) == 1
    assert views[I] != before  # it does show that the opponent has chosen
    seen = json.loads(views[I])
    assert seen["initiative"]["opponent_has_chosen"] is True and seen["initiative"]["own_chit"] is None
    # Searched as text: no chit value anywhere but in the (public) last revealed round and the viewer's own options.
    del seen["last_round"], seen["initiative"]["allowed"], seen["history"]  # earlier dates' chits are public
    seen["phase"].pop("pass", None)  # the pass kind ("idle" loop), not a chit
    seen = _this_date(seen, start.date_id)
    assert '"attack"' not in _dump(seen) and '"idle"' not in _dump(seen)
    # The viewer seals first, then the opponent's chit is still hidden until it is the second one.
    for own in _allowed(start, viewer):
        mine, _ = submit_chit(RR, start, viewer, own, FixedDice())
        view = seen_by(mine, viewer)
        assert view["initiative"]["own_chit"] == str(own)
        assert view["initiative"]["opponent_has_chosen"] is False
        # and the opponent's own view does not contain the viewer's choice either
        theirs = {c: _dump(view_for(RR, submit_chit(RR, start, viewer, c, FixedDice())[0], opponent))
                  for c in _allowed(start, viewer)}
        assert len(set(theirs.values())) == 1


@pytest.mark.parametrize("history", range(4))
@pytest.mark.parametrize("canadian_first", [True, False])
def test_both_chits_are_in_both_views_once_the_second_is_submitted(history: int, canadian_first: bool) -> None:
    start = _histories()[history]
    for cdn, ger in itertools.product(_allowed(start, CDN), _allowed(start, GER)):
        _check_reveal(start, cdn, ger, canadian_first)


def _check_reveal(start: CampaignState, cdn: Chit, ger: Chit, canadian_first: bool) -> None:
    dice = FixedDice(3)
    order = [(CDN, cdn), (GER, ger)] if canadian_first else [(GER, ger), (CDN, cdn)]
    state = start
    for side, chit in order:
        state, _ = submit_chit(RR, state, side, chit, dice)
    for viewer in (CDN, GER):
        view = seen_by(state, viewer)
        assert view["last_round"]["chits"] == {CDN: str(cdn), GER: str(ger)}
        assert view["initiative"]["own_chit"] is None
        used = view["initiative"]["attack_chits"]
        assert {s: used[s]["used"] for s in (CDN, GER)} == dict(state.attack_chits_used)
    assert _dump(view_for(RR, state, CDN)["last_round"]) == _dump(view_for(RR, state, GER)["last_round"])


def test_the_view_shows_what_each_side_owes_but_never_the_choice() -> None:
    state, _ = submit_chit(RR, after_initial_scenario(), GER, A, FixedDice())
    view = seen_by(state, CDN)
    assert view["owes"] == {CDN: ["choose your Initiative chit (2.522)"], GER: []}
    assert view["date"] == {"index": 1, "id": "19 PM", "count": 13}
    assert view["step"] == "initiative"
    assert view["initiative"]["allowed"] == ["attack", "idle"]


def test_a_side_out_of_attack_chits_is_offered_only_idle() -> None:
    state = play_round(RR, play_round(RR, after_initial_scenario(), A, I), A, I)
    view = seen_by(state, CDN)
    assert view["initiative"]["allowed"] == ["idle"]
    assert view["initiative"]["attack_chits"] == {
        CDN: {"used": 2, "limit": 2, "left": 0},
        GER: {"used": 0, "limit": 6, "left": 6},
    }
    # the German sees the same public count
    assert seen_by(state, GER)["initiative"]["attack_chits"] == view["initiative"]["attack_chits"]


def test_a_view_for_an_unknown_side_is_refused() -> None:
    with pytest.raises(UnknownNameError, match=r"Unknown side 'american' \(allowed: canadian, german\)"):
        view_for(RR, after_initial_scenario(), "american")


def test_the_side_view_keeps_the_own_chit_and_only_that_the_opponent_has_chosen() -> None:
    """view_for (the one door): a typed SideView whose json is view_json, its own sealed chit, the opponent's "has
    chosen" only, and the chits it may not seal now with the engine's reason."""
    start = after_initial_scenario()
    state = submit_chit(RR, start, CDN, Chit.ATTACK, FixedDice())[0]
    mine, theirs = side_view_for(RR, state, CDN), side_view_for(RR, state, GER)
    assert isinstance(mine, SideView) and mine.json == view_json(RR, state, CDN)
    assert (mine.chits.own, mine.chits.opponent_has_chosen) == (Chit.ATTACK, False)
    assert (theirs.chits.own, theirs.chits.opponent_has_chosen) == (None, True)
    assert theirs.ledger is state.ledgers.get(GER) and mine.ledger is state.ledgers.get(CDN)
