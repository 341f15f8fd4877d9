"""CG End (PL 1.3: "the CG Objectives are fulfilled by one side, or one side concedes, or the last CG Firefight …
is completed"; it may also end by mutual agreement): a side says its objectives are met and the other confirms."""
from __future__ import annotations

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.state import CampaignState
from rules_engine.view import view_json as view_for
from tests.rules_engine.phase.test_sequence_phd import GE, US, phd


def started() -> CampaignState:
    state, _ = sequence.start(phd(), FixedDice())
    return state


def test_cg_objectives_met_ends_the_cg_once_the_other_side_confirms_and_the_claimant_wins() -> None:
    state, events = sequence.propose_end(phd(), started(), US, reason="objectives")
    assert not state.ended
    assert [(e.kind, e.visibility.value, e.payload["reason"], e.payload["claimant"]) for e in events] == [
        ("end-proposed", "public", "objectives", US)]
    assert "US says US's CG objectives are met" == events[0].payload["text"]
    assert view_for(phd(), state, GE)["end_reason"] == "objectives"
    assert view_for(phd(), state, GE)["end_claimant"] == US
    state, events = sequence.propose_end(phd(), state, GE, reason="objectives")
    assert [e.kind for e in events] == ["end-proposed", "cg-ended"]
    assert events[0].payload["text"] == "German confirms US's CG objectives are met"
    assert state.ended and state.cg_end is not None
    assert (state.cg_end.reason, state.cg_end.side, state.cg_end.victor) == ("objectives", US, US)
    assert (events[1].payload["reason"], events[1].payload["victor"]) == ("objectives", US)
    assert state.end_proposals == frozenset() and state.end_reason is None


def test_an_objectives_claim_is_not_confirmed_by_proposing_a_mutual_agreement() -> None:
    state, _ = sequence.propose_end(phd(), started(), US, reason="objectives")
    with pytest.raises(SubmissionError, match="US's CG objectives met is proposed: confirm it, or withdraw it first"):
        sequence.propose_end(phd(), state, GE)
    with pytest.raises(SubmissionError, match="allowed: mutual-agreement, objectives"):
        sequence.propose_end(phd(), state, GE, reason="victory")


def test_the_claimant_withdrawing_its_objectives_claim_clears_it_and_the_cg_goes_on() -> None:
    state, _ = sequence.propose_end(phd(), started(), US, reason="objectives")
    state, events = sequence.withdraw_end(phd(), state, US)
    assert [e.kind for e in events] == ["end-withdrawn"]
    assert (state.end_proposals, state.end_reason, state.end_claimant) == (frozenset(), None, None)
    state, _ = sequence.propose_end(phd(), state, GE)  # now a mutual agreement may be proposed
    state, events = sequence.propose_end(phd(), state, US)
    assert state.cg_end is not None and (state.cg_end.reason, state.cg_end.victor) == ("mutual-agreement", None)


def test_an_open_objectives_claim_survives_the_json_round_trip() -> None:
    state, _ = sequence.propose_end(phd(), started(), GE, reason="objectives")
    again = CampaignState.from_json(state.to_json())
    assert (again.end_proposals, again.end_reason, again.end_claimant) == (frozenset({GE}), "objectives", GE)
