"""Issue 14 item 10: one source for a step's kind — the loader derives it from the action and refuses a contradiction."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules_engine import sequence
from rules_engine.errors import DefinitionErrors
from rules_engine.loader import parse_system
from rules_engine.step_kinds import AUTOMATIC_ACTIONS
from rules_engine.vocabulary import Automation

ROOT = Path(__file__).resolve().parents[3]


def system(name: str):  # type: ignore[no-untyped-def]
    path = ROOT / "fixtures" / f"{name}.yaml"
    return parse_system(path.read_text(encoding="utf-8"), path.name)


def test_every_action_the_engine_resolves_by_itself_is_an_automatic_action() -> None:
    assert set(sequence.AUTO_HANDLERS) | set(sequence.PARTS) == set(AUTOMATIC_ACTIONS)


def test_a_declared_kind_the_action_contradicts_is_refused_with_the_kind_allowed() -> None:
    rr = (ROOT / "fixtures" / "rr.yaml").read_text(encoding="utf-8")
    start = rr.index('ref: "2.518"')
    end = rr.index("automation: input", start)
    bad = rr[:end] + "automation: automatic" + rr[end + len("automation: input"):]
    with pytest.raises(DefinitionErrors) as caught:
        parse_system(bad, "rr.yaml")
    text = str(caught.value)
    assert "step 2.518: 'automatic' contradicts what the app does: the action 'purchase-rg' makes the step input" in text
    assert "allowed: input (or leave `automation:` out)" in text


def test_a_step_without_automation_gets_the_kind_of_its_action() -> None:
    rr = (ROOT / "fixtures" / "rr.yaml").read_text(encoding="utf-8")
    start = rr.index('ref: "2.518"')
    line = rr.index("    automation: input\n", start)
    stripped = rr[:line] + rr[line + len("    automation: input\n"):]
    assert parse_system(stripped, "rr.yaml").step("2.518").automation is Automation.INPUT


@pytest.mark.parametrize("name", ["rr", "pl25", "phd", "er", "kgp"])
def test_the_kind_shown_is_the_kind_the_fixture_states(name: str) -> None:
    s = system(name)
    for step in s.steps:
        shown = sequence.step_kind(s, step)
        expected = "on-board" if step.automation is Automation.INITIATIVE else step.automation.value
        assert shown == expected, step.ref


def test_the_steps_the_issue_names_say_what_the_app_does() -> None:
    rr, pl, phd, kgp = system("rr"), system("pl25"), system("phd"), system("kgp")
    # RR 2.503: the CG-LVP totals are done by the app (its board part is a separate concern, item 9)
    assert rr.step("2.503").automation is Automation.AUTOMATIC
    assert kgp.step("8.603").automation is Automation.AUTOMATIC
    # RR 2.518 RG purchase: each side fills in a secret order (not "automatic")
    assert rr.step("2.518").automation is Automation.INPUT
    assert rr.step("2.522").automation is Automation.INITIATIVE
    # PL 3.41 Disease & Starvation: the app rolls for each side
    assert pl.step("3.41").automation is Automation.AUTOMATIC
    # PL 3.214 redeployment has printed tables the app rolls on request
    assert pl.step("3.214").automation is Automation.ASSISTED
    # PHD C5.13/C5.14 likewise; C5.32 RG Set Up Cost is done on the board
    assert phd.step("C5.13").automation is Automation.ASSISTED
    assert phd.step("C5.32").automation is Automation.ON_BOARD


def test_a_declare_first_naming_no_side_is_refused_with_the_sides_allowed() -> None:
    rr = (ROOT / "fixtures" / "rr.yaml").read_text(encoding="utf-8")
    bad = rr.replace("params: {declare_first: german}", "params: {declare_first: germans}", 1)
    with pytest.raises(DefinitionErrors, match=r"declare_first: unknown side 'germans' \(allowed: canadian, german\)"):
        parse_system(bad, "rr.yaml")
