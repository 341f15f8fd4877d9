"""PHD C5 Consolidation Phase: the Initial TM Scenario without a TP roll (I5), C4.2 "US Attack: German sets up first",
C5.29 TP Replenishment by side, and a Lull (C5.37) looping the ConPh into the next TM Scenario.
Values typed by hand from seed 003 (C4.2, C5.23, C5.29 table legible cells).
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from rules_engine import sequence
from rules_engine.dice import FixedDice
from rules_engine.errors import SubmissionError
from rules_engine.loader import parse_system
from rules_engine.lost_values import UnsuppliedValueError, with_cells
from rules_engine.model import System
from rules_engine.results import submit_results
from rules_engine.sequence import mark_done
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.vocabulary import Chit
from tests.rules_engine.phase.test_sequence_rr import drive, refs

GE, US = "german", "us"
FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


@cache
def phd() -> System:
    return parse_system((FIXTURES / "phd.yaml").read_text(), "phd.yaml")


def initial(dice: FixedDice) -> CampaignState:
    state, _ = sequence.start(phd(), dice)
    state, _ = drive(phd(), state, dice, lambda s: s.step == "results", (GE, US))
    result = ScenarioResult(cvp={GE: 6, US: 9}, attacked={GE: False, US: True})
    state, _ = submit_results(phd(), state, GE, result)
    state, _ = submit_results(phd(), state, US, result)
    return state


def test_the_initial_tm_scenario_requisitions_without_a_tp_roll() -> None:
    state, events = sequence.start(phd(), FixedDice())
    assert refs(phd(), state) == [
        "C5.12", "C5.30", "C5.31", "C5.32", "C5.33", "C5.34", "C5.35", "C5.39", "C5.41", "@initial-scenario",
    ]
    state, more = drive(phd(), state, FixedDice(), lambda s: s.step == "initial-scenario", (GE, US))
    kinds = [e.kind for e in [*events, *more, *state.records]]
    assert "roll" not in kinds and "replenished" not in kinds  # I5: neither side rolls for TP
    assert (dict(state.tracks[GE]), dict(state.tracks[US])) == ({"elr": 3, "san": 3}, {"elr": 4, "san": 2})  # C4.2 OB


def test_c4_2_the_german_sets_up_first_in_the_initial_scenario() -> None:
    state, _ = sequence.start(phd(), FixedDice())
    state, _ = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.39", (GE, US))
    with pytest.raises(SubmissionError, match="German goes first"):
        mark_done(phd(), state, US)
    state, _ = mark_done(phd(), state, GE)
    state, _ = mark_done(phd(), state, US)
    assert state.phase_ref == "C5.41"


def test_c5_14_redeployment_goes_attacker_first_the_us_attacked() -> None:
    state = initial(FixedDice())
    state, _ = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.14", (GE, US))
    with pytest.raises(SubmissionError, match="US goes first"):
        mark_done(phd(), state, GE)


def test_a_lull_runs_the_conph_again_into_the_next_tm_scenario() -> None:
    # C5.23 DR 1+2 = 3 → "3-4": 2 MMC each. C5.29 (II): German DR 3+4 = 7 → 20 TP; US 3+3 = 6, +1 (Attack in the
    # Initial Scenario) = 7 → 30 TP. After the Lull: C5.23 again; C5.29 (III) no Attack: German 7 → 20, US 7 → 30.
    # C4.2 Initial OB TP carry over (C5.29 "added to any TP remaining"): German 20 + 20 = 40, US 30 + 30 = 60 at II;
    # 40 + 20 = 60, 60 + 30 = 90 at III. (The OB's 60 German DSP are lost unspent at C5.35 of TM I.)
    dice = FixedDice(1, 2, 1, 2, 3, 4, 3, 3, 1, 2, 1, 2, 3, 4, 3, 4)
    state = initial(dice)
    state, events = drive(phd(), state, dice, lambda s: s.phase_ref == "C5.31", (GE, US))
    assert [(e.side, e.payload["result"]) for e in events if e.kind == "table-result" and e.payload["step"] == "C5.23"] \
        == [(GE, "2"), (US, "2")]
    assert (state.date_id, str(state.ledgers[GE].balance("TP")), str(state.ledgers[US].balance("TP"))) == ("II", "40", "60")
    # the chits are sealed at C5.31 (the Attack Option is "Requisitioned during ConPh C5.31") and revealed at C5.37
    state, _ = sequence.submit_chit(phd(), state, GE, Chit.IDLE, dice)
    state, sealed = sequence.submit_chit(phd(), state, US, Chit.IDLE, dice)
    assert "chits-revealed" not in [e.kind for e in sealed] and state.phase_ref == "C5.31"
    state, events = drive(phd(), state, dice, lambda s: s.pass_kind == "idle", (GE, US))
    assert [e.payload["label"] for e in events if e.kind == "chits-revealed"] == ["Lull Date"]
    assert state.pass_kind == "idle" and refs(phd(), state)[0] == "C5.1" and "C5.12" not in refs(phd(), state)
    state, _ = drive(phd(), state, dice, lambda s: s.phase_ref == "C5.31", (GE, US))
    assert (state.date_id, str(state.ledgers[GE].balance("TP")), str(state.ledgers[US].balance("TP"))) == ("III", "60", "90")
    assert [r.kind for r in state.history] == ["initial", "idle"]


def test_c5_31_a_side_finishes_the_requisitions_only_with_its_chit_sealed_and_nothing_shows_before_c5_37() -> None:
    state = initial(FixedDice())
    state, _ = drive(phd(), state, FixedDice(1, 2, 1, 2, 3, 4, 3, 3), lambda s: s.phase_ref == "C5.31", (GE, US))
    with pytest.raises(SubmissionError, match="choose your Initiative chit .* first — it is chosen now and revealed at C5.37"):
        sequence.mark_done(phd(), state, GE)
    state, events = sequence.submit_chit(phd(), state, GE, Chit.ATTACK, FixedDice())
    assert [(e.kind, e.visibility.value) for e in events] == [("chit-chosen", "side"), ("chit-sealed", "public")]
    state, _ = sequence.mark_done(phd(), state, GE)
    with pytest.raises(SubmissionError, match="A submitted chit is final"):
        sequence.submit_chit(phd(), state, GE, Chit.IDLE, FixedDice())
    # C5.34 "-1 Attack Chit was selected": the side's own sealed chit is a known fact before the reveal
    assert sequence.facts_for(phd(), state, GE)["attack_option_purchased_now"] is True
    assert "attack_option_purchased_now" not in sequence.facts_for(phd(), state, US)


# --- C4.2 Initial OB: points, OB-given RG (not counted toward maxima), ELR/SAN --------------------------------------

OB_CARD = """
format: refit-cg/1
kind: cg-card
id: test-phd-ob
extends: phd
name: "TEST DATA — an RG chart line per Initial-OB group type"
source: "tests/rules_engine/phase/test_sequence_phd.py (TEST DATA)"
rg_charts:
  - side: german
    ref: "C5.31"
    name: "German chart (TEST DATA)"
    columns: {cost: TP Cost, date_max: Scen Max, cg_max: TM Max}
    rows:
      - {id: I1, type: I, group_type: Gren Pl, full: [{count: 3, unit: 4-6-7}], cost: 8, date_max: 1, cg_max: 3}
  - side: us
    ref: "C5.31"
    name: "US chart (TEST DATA)"
    columns: {cost: TP Cost, date_max: Scen Max, cg_max: TM Max}
    rows:
      - {id: I1, type: I, group_type: Rifle Pl, full: [{count: 3, unit: 6-6-7}], cost: 9, date_max: 1, cg_max: 3}
"""


def test_c4_2_the_initial_ob_gives_its_points_and_its_rg_and_says_so_publicly() -> None:
    state, events = sequence.start(phd(), FixedDice())
    german, us = state.ledgers[GE], state.ledgers[US]
    # C4.2: German "20 TP; 60 DSP", US "30 TP"
    assert (str(german.balance("TP")), str(german.balance("DSP"))) == ("20", "60")
    assert (str(us.balance("TP")), str(us.balance("DSP"))) == ("30", "0")
    # "RG: Gren Pl x 2" / "RG: Rifle Pl x 2": Initial-OB lines at no cost; the (lost) chart gives no line to roll for
    assert [(p.group_type, p.initial_ob, str(p.cost), p.date_id) for p in german.purchases] == [
        ("Gren Pl", True, "0", "I"), ("Gren Pl", True, "0", "I")]
    assert [(p.group_type, p.initial_ob) for p in us.purchases] == [("Rifle Pl", True), ("Rifle Pl", True)]
    assert all(p.rolled and "Initial Scenario OB" in p.notes and "lost" in p.notes for p in german.purchases)
    assert (german.elr, german.san, us.elr, us.san) == (3, 3, 4, 2)
    ob = [e for e in events if e.kind == "initial-ob"]
    assert [(e.payload["side"], e.payload["rg"], e.payload["points"]) for e in ob] == [
        (GE, ["Gren Pl x 2"], {"TP": 20, "DSP": 60}), (US, ["Rifle Pl x 2"], {"TP": 30})]
    assert {e.visibility.value for e in ob} == {"public"}


def test_c5_35_the_initial_ob_dsp_left_unspent_are_lost_and_its_tp_carry_on() -> None:
    state, _ = sequence.start(phd(), FixedDice())
    state, events = drive(phd(), state, FixedDice(), lambda s: s.phase_ref == "C5.39", (GE, US))
    # C5.35 "Any unspent DSP are lost": the German 60 DSP of C4.2; the 20 TP stay (C5.29 "TP remaining")
    assert [(e.side, e.payload.get("currency"), e.payload.get("amount")) for e in events if e.kind == "points-forfeited"] \
        == [(GE, "DSP", "60")]
    assert (str(state.ledgers[GE].balance("TP")), str(state.ledgers[GE].balance("DSP"))) == ("20", "0")
    assert str(state.ledgers[US].balance("TP")) == "30"


def test_initial_ob_rg_found_on_a_card_chart_are_not_counted_toward_scen_or_tm_max() -> None:
    from rules_engine.loader import parse_card
    from rules_engine.purchases import RgOrder, validate_order

    system = parse_card(OB_CARD, "ob-card.yaml", phd())
    state, _ = sequence.start(system, FixedDice())
    german = state.ledgers[GE]
    assert [(p.rg_id, p.group_type, p.initial_ob, p.number_purchased, p.remaining) for p in german.purchases] == [
        ("I1", "Gren Pl", True, 0, 3), ("I1", "Gren Pl", True, 0, 3)]
    assert german.purchased_count(("I1",)) == 0
    # Scen Max 1 (TEST DATA): the two OB-given I1 do not count, so one I1 may still be requisitioned in TM I
    assert validate_order(system, german, GE, "I", [RgOrder("I1")], initial=True) == ()


def test_a_system_without_an_initial_ob_declares_it_missing() -> None:
    for name in ("rr", "pl25", "er", "kgp"):
        system = parse_system((FIXTURES / f"{name}.yaml").read_text(), f"{name}.yaml")
        assert system.initial_ob is None
        assert "initial_ob" in [m.part for m in system.missing_parts], name


def test_c5_23_a_roll_on_the_row_whose_label_and_value_are_lost_uses_the_values_settled_before_play() -> None:
    # Battlefield Promotion Table, third row: label printed "kg i" (5-6 by contiguity), # of MMC not printed: settled
    # before the campaign as "5-6" and 1 (TEST DATA standing for the printed chart).
    # German DR 3+3 = 6, −1 per 10 CVP amassed (12) = 5; US DR 1+2 = 3, −0 (9 CVP) = 3 → "3-4" → 2.
    system = with_cells(phd(), {"battlefield-promotion|2|@label": "5-6", "battlefield-promotion|2|mmc": 1})
    dice = FixedDice(3, 3, 1, 2)
    state, _ = sequence.start(system, dice)
    state, _ = drive(system, state, dice, lambda s: s.step == "results", (GE, US))
    result = ScenarioResult(cvp={GE: 12, US: 9}, attacked={GE: False, US: True})
    state, _ = submit_results(system, state, GE, result)
    state, _ = submit_results(system, state, US, result)
    state, _ = drive(system, state, dice, lambda s: any(
        e.kind == "table-result" and e.payload["step"] == "C5.23" for e in s.records), (GE, US))
    assert sequence.needs(system, state, GE) == () and not state.pending
    results = [e for e in state.records if e.kind == "table-result" and e.payload["step"] == "C5.23"]
    assert [(e.side, e.payload["original"], e.payload["final"], e.payload["result"]) for e in results] == [
        (GE, 6, 5, "1"), (US, 3, 3, "2")]
    assert dice.remaining == 0  # one DR per side, nothing rolled again


def test_c5_23_without_the_settled_row_the_roll_is_refused_not_paused() -> None:
    dice = FixedDice(3, 3, 1, 2)
    state, _ = sequence.start(phd(), dice)
    state, _ = drive(phd(), state, dice, lambda s: s.step == "results", (GE, US))
    result = ScenarioResult(cvp={GE: 12, US: 9}, attacked={GE: False, US: True})
    state, _ = submit_results(phd(), state, GE, result)
    state, _ = submit_results(phd(), state, US, result)
    with pytest.raises(UnsuppliedValueError, match="C5.23|battlefield-promotion"):
        drive(phd(), state, dice, lambda s: False, (GE, US))


# --- C5.36 Requisitioning Reconnaissance: the cost is on the lost RG chart (note n) --------------------------------

RECON_CARD = OB_CARD.replace("id: test-phd-ob", "id: test-phd-recon").replace(
    "      - {id: I1, type: I, group_type: Gren Pl, full: [{count: 3, unit: 4-6-7}], cost: 8, date_max: 1, cg_max: 3}\n",
    "      - {id: I1, type: I, group_type: Gren Pl, full: [{count: 3, unit: 4-6-7}], cost: 8, date_max: 1, cg_max: 3}\n"
    "      - {id: M1, type: M, group_type: Reconnaissance, notes: [n], cost: 1, date_max: 1, cg_max: 5}\n"
    "    notes:\n"
    "      n: {text: \"If purchased for 2 TP, +5 drm to the Reconnaissance dr (C5.36)\", extra_max: 1}\n", 1)


def _at_c5_36(system: System, dice: FixedDice) -> CampaignState:
    state, _ = sequence.start(system, dice)
    state, _ = drive(system, state, dice, lambda s: s.step == "results", (GE, US))
    result = ScenarioResult(cvp={GE: 6, US: 9}, attacked={GE: False, US: True})
    state, _ = submit_results(system, state, GE, result)
    state, _ = submit_results(system, state, US, result)
    state, _ = drive(system, state, dice, lambda s: s.phase_ref == "C5.31", (GE, US))
    state, _ = sequence.submit_chit(system, state, GE, Chit.ATTACK, dice)
    state, _ = sequence.submit_chit(system, state, US, Chit.IDLE, dice)
    state, _ = drive(system, state, dice, lambda s: s.phase_ref == "C5.36", (GE, US))
    return state


def test_c5_36_without_the_chart_line_the_recon_cost_is_missing_and_the_engine_says_so() -> None:
    # C5.23 DR 1+2 = 3 → 2 each; C5.29 German 3+4 = 7 → 20 TP, US 3+3 = 6 +1 (Attack in TM I) = 7 → 30 TP
    state = _at_c5_36(phd(), FixedDice(1, 2, 1, 2, 3, 4, 3, 3))
    assert sequence.step_kind(phd(), phd().step("C5.36")) == "input"
    with pytest.raises(SubmissionError, match=r"the TP cost of a reconnaissance is not in the rule text \(C5.36 b\).*"
                                              r"RG note n.*supply it in a CG Card"):
        sequence.submit_recon(phd(), state, GE, 0, FixedDice(4))
    with pytest.raises(SubmissionError, match="extra TP must be 0 to 1"):
        sequence.submit_recon(phd(), state, GE, 2, FixedDice(4))
    state, _ = sequence.submit_recon(phd(), state, GE, None, FixedDice())  # no reconnaissance: nothing is missing
    assert GE in state.done


def test_c5_36_a_card_line_with_note_n_gives_the_cost_and_one_extra_tp_gives_plus_5() -> None:
    from rules_engine.loader import parse_card

    system = parse_card(RECON_CARD, "recon-card.yaml", phd())
    state = _at_c5_36(system, FixedDice(1, 2, 1, 2, 3, 4, 3, 3))
    assert str(state.ledgers[GE].balance("TP")) == "40"  # C4.2 20 + C5.29 20
    state, events = sequence.submit_recon(system, state, GE, 1, FixedDice(4))
    # the card's M1 costs 1 TP (TEST DATA) + 1 additional TP = 2 TP; dr 4 +5 = 9 locations ("Recce")
    german = state.ledgers[GE]
    assert str(german.balance("TP")) == "38"
    assert [(p.rg_id, str(p.cost), p.initial_ob) for p in german.purchases][-1] == ("M1", "2", False)
    result = next(e for e in events if e.kind == "table-result")
    assert (result.payload["original"], result.payload["final"], result.visibility.value) == (4, 9, "side")
    assert german.roster_line("II") is not None and german.roster_line("II").recon == 9  # type: ignore[union-attr]


def test_an_initial_ob_naming_an_unknown_currency_or_side_is_refused_with_what_is_allowed() -> None:
    from rules_engine.errors import DefinitionErrors
    from rules_engine.loader import parse_card

    card = OB_CARD.replace("rg_charts:", "initial_ob:\n  ref: C4.2\n  sides:\n    german: {points: {CPP: 5}}\n"
                           "    soviet: {elr: 3}\nrg_charts:", 1)
    with pytest.raises(DefinitionErrors) as caught:
        parse_card(card, "bad-ob.yaml", phd())
    text = str(caught.value)
    assert "initial_ob.sides.german.points.CPP" in text and "TP, DSP" in text
    assert "initial_ob.sides.soviet" in text and "german, us" in text
