"""CG end names the victor by the CG Victory Conditions (issue 9 item 3, docs/cg-format.md). The conditions and the
records are TEST DATA standing for a printed CG Card and a played campaign; the figures are worked by hand below."""
from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

from rules_engine.loader import parse_card, parse_system
from rules_engine.model import System
from rules_engine.state import CampaignState, DateRecord, ScenarioResult, new_campaign
from rules_engine.victory import judge, measure

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GER, CDN = "german", "canadian"


@cache
def base(name: str) -> System:
    return parse_system((FIXTURES / f"{name}.yaml").read_text(), f"{name}.yaml")


def rr_with(conditions: str, otherwise: str = "") -> System:
    card = f"""\
format: refit-cg/1
kind: cg-card
id: vc-test
extends: rr
name: "TEST DATA — victory card"
victory_conditions:
  text: "TEST DATA: as printed on the card"
  conditions:
{conditions}
{otherwise}
"""
    return parse_card(card, "card.yaml", base("rr"))


def played(system: System, cg_lvp: dict[str, int] | None = None) -> CampaignState:
    """Two scenarios: CVP German 12 then 9 (21 in all), Canadian 5 then 14 (19 in all)."""
    state = new_campaign(system)
    history = (
        DateRecord(0, "19 AM", "initial", result=ScenarioResult(cvp={GER: 12, CDN: 5}, attacked={GER: True, CDN: False})),
        DateRecord(1, "19 PM", "scenario", result=ScenarioResult(cvp={GER: 9, CDN: 14}, attacked={GER: False, CDN: True})),
    )
    tracks = {side: ({"cg_lvp": cg_lvp[side]} if cg_lvp and side in cg_lvp else {}) for side in (GER, CDN)}
    return replace(state, history=history, tracks=tracks)


def test_the_first_condition_met_names_the_victor_and_shows_each_measure_against_its_condition() -> None:
    system = rr_with('    - {side: canadian, measure: cg_lvp, op: ">=", value: 40}\n'
                     '    - {side: german, measure: cvp, op: ">", value: 20}', "  otherwise: canadian")
    verdict = judge(system, played(system, {CDN: 31, GER: 0}))
    assert verdict is not None
    # Canadian CG-LVP 31 ≥ 40: not met; German CVP 12 + 9 = 21 > 20: met → German
    assert (verdict.victor, verdict.how) == (GER, "condition")
    assert [c.text(system) for c in verdict.checks] == [
        "Canadian CG-LVP total 31 ≥ 40: not met",
        "German CVP earned over the CG 21 > 20: met",
    ]


def test_no_condition_met_gives_the_otherwise_victor() -> None:
    system = rr_with('    - {side: german, measure: cvp, op: ">=", value: 30}', "  otherwise: canadian")
    verdict = judge(system, played(system))
    assert verdict is not None and (verdict.victor, verdict.how) == (CDN, "otherwise")  # 21 ≥ 30: not met


def test_a_measure_the_records_lack_names_the_values_it_would_need_and_no_victor() -> None:
    system = rr_with('    - {side: canadian, measure: cg_lvp, op: ">=", value: 40}\n'
                     '    - {side: german, measure: cvp, op: ">", value: 20}', "  otherwise: canadian")
    verdict = judge(system, played(system))  # nobody recorded a CG-LVP total
    assert verdict is not None
    assert (verdict.victor, verdict.how, verdict.needed) == (None, "needs-values", ("Canadian CG-LVP total",))
    assert verdict.checks[0].text(system) == "Canadian CG-LVP total ≥ 40: not in the records (needs the Canadian CG-LVP total)"


def test_text_only_conditions_name_no_victor() -> None:
    verdict = judge(base("phd"), new_campaign(base("phd")))
    assert verdict is not None
    assert (verdict.victor, verdict.how, verdict.checks) == (None, "text-only", ())
    assert "St.Lô-Bayeux Highway" in verdict.conditions.text


def test_a_system_without_victory_conditions_is_not_judged() -> None:
    assert judge(base("rr"), new_campaign(base("rr"))) is None


def test_tvp_is_the_sum_of_the_results_tvp_and_cvp_of_the_cvp() -> None:
    system = base("rr")
    state = replace(played(system), history=(
        DateRecord(0, "19 AM", "initial", result=ScenarioResult(cvp={GER: 3}, attacked={}, lvp={GER: 4, CDN: 6})),
        DateRecord(1, "19 PM", "scenario", result=ScenarioResult(cvp={GER: 2}, attacked={}, lvp={GER: 5})),
    ))
    assert (measure(state, GER, "tvp"), measure(state, CDN, "tvp")) == (9, 6)
    assert (measure(state, GER, "cvp"), measure(state, CDN, "cvp")) == (5, None)
