"""Scenario results entry: equal entries are confirmed, different ones block the campaign until they agree; RR has no
scenario winner (2.5231); an entry is hidden from the opponent until both are in; ledgers open only at CG end."""
from __future__ import annotations

import json
from typing import Any

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done, owes
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.view import view_json as view_for
from tests.rules_engine.phase.test_sequence_rr import CDN, GER, drive, rr

AGREED = ScenarioResult(cvp={CDN: 5, GER: 12}, attacked={CDN: False, GER: True}, lvp={CDN: 7})
OTHER = ScenarioResult(cvp={CDN: 5, GER: 14}, attacked={CDN: True, GER: True}, lvp={CDN: 7})


def at_results() -> CampaignState:
    state, _ = sequence.start(rr(), FixedDice(), tracks={CDN: {"san": 3}, GER: {"san": 2}})
    state, _ = drive(rr(), state, FixedDice(), lambda s: s.step == "results", (CDN, GER))
    return state


def test_different_entries_are_reported_field_by_field_and_nothing_proceeds() -> None:
    state = at_results()
    state, _ = submit_results(rr(), state, CDN, AGREED)
    state, events = submit_results(rr(), state, GER, OTHER)
    differ = [e for e in events if e.kind == "results-differ"]
    assert len(differ) == 1 and differ[0].visibility == "public"
    assert differ[0].payload["fields"] == ["cvp", "attacked"]
    assert (state.step, state.phase_ref) == ("results", "@results")
    assert owes(rr(), state, CDN) == ("agree the scenario results (the entries differ)",)
    with pytest.raises(SubmissionError, match="Enter the scenario results first"):
        mark_done(rr(), state, CDN)
    state, events = submit_results(rr(), state, GER, AGREED)  # either side may resubmit
    assert "results-confirmed" in [e.kind for e in events]
    assert state.phase_ref == "2.501" and state.history[-1].result == AGREED


def test_rr_scenarios_have_no_winner() -> None:
    with pytest.raises(SubmissionError, match=r"no Victory Conditions \(2.5231\)"):
        submit_results(rr(), at_results(), CDN, ScenarioResult(cvp={CDN: 1, GER: 1}, attacked={CDN: True, GER: False},
                                                               winner=CDN))


@pytest.mark.parametrize("entry,message", [
    (ScenarioResult(cvp={CDN: 1}, attacked={CDN: True, GER: False}), r"CVP: enter a value for each side \(missing: german\)"),
    (ScenarioResult(cvp={CDN: -1, GER: 0}, attacked={CDN: True, GER: False}), "CVP for canadian must be a whole number of 0 or more"),
    (ScenarioResult(cvp={CDN: 1, GER: 0}, attacked={CDN: True}), "say for each side whether it attacked"),
    (ScenarioResult(cvp={CDN: 1, GER: 0}, attacked={CDN: True, GER: False}, lvp={"us": 3}), r"LVP: unknown side 'us'"),
])
def test_a_bad_entry_is_refused_with_what_is_wrong(entry: ScenarioResult, message: str) -> None:
    with pytest.raises(SubmissionError, match=message):
        submit_results(rr(), at_results(), CDN, entry)


def test_results_are_entered_only_after_a_scenario() -> None:
    state, _ = sequence.start(rr(), FixedDice())
    with pytest.raises(SubmissionError, match="entered after a scenario"):
        submit_results(rr(), state, CDN, AGREED)


def test_the_first_entry_is_hidden_from_the_opponent_until_both_are_in() -> None:
    state = at_results()
    before = json.dumps(view_for(rr(), state, GER), sort_keys=True)
    views = {json.dumps(view_for(rr(), submit_results(rr(), state, CDN, e)[0], GER), sort_keys=True) for e in (AGREED, OTHER)}
    assert len(views) == 1 and views != {before}
    seen = json.loads(views.pop())
    assert seen["results"]["opponent_submitted"] is True and seen["results"]["entries"] is None


def test_the_opponents_ledger_is_hidden_before_cg_end_and_shown_after() -> None:
    dice = FixedDice(4, 5, 6, 6)
    state = at_results()
    state, _ = submit_results(rr(), state, CDN, AGREED)
    state, _ = submit_results(rr(), state, GER, AGREED)
    state, _ = drive(rr(), state, dice, lambda s: s.phase_ref == "2.518", (GER, CDN))
    seen: Any = json.loads(json.dumps(view_for(rr(), state, GER)))
    assert seen["ledger"]["points"] == {"CPP": "68"}  # own, in full
    text = json.dumps(seen["opponent_ledger"])
    assert seen["opponent_ledger"]["roster"] and '"points"' not in text and '"replenished"' not in text
    assert all(e["visibility"] == "public" or e["side"] == GER for e in seen["records"])
    state, events = sequence.concede(rr(), state, CDN)
    assert (state.ended, state.cg_end.reason, state.cg_end.victor) == (True, "concession", GER)  # type: ignore[union-attr]
    after: Any = json.loads(json.dumps(view_for(rr(), state, GER)))
    assert after["opponent_ledger"]["points"] == {"CPP": "31"}
    assert any(e["kind"] == "replenished" and e["side"] == CDN for e in after["records"])


def test_the_cg_ends_by_mutual_agreement_only_when_both_propose_it() -> None:
    state = at_results()
    state, _ = sequence.propose_end(rr(), state, CDN)
    assert not state.ended and json.loads(json.dumps(view_for(rr(), state, GER)))["end_proposals"] == {CDN: True, GER: False}
    state, events = sequence.propose_end(rr(), state, GER)
    assert state.ended and state.cg_end is not None and state.cg_end.reason == "mutual-agreement"
    assert owes(rr(), state, CDN) == ()
