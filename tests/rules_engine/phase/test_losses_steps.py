"""Issue 14 item 6: the between-scenario steps where the rule text lets units be eliminated or removed from play record
the CVP lost there (PL 3.11 "All RePh losses count for the previous firefight for all purposes"; PHD C5.1 "All ConPh
losses count for the previous scenario for all purposes"), and no other step does."""
from __future__ import annotations

from pathlib import Path

from rules_engine.loader import parse_system
from rules_engine.losses import records_losses

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def losses_steps(system_id: str) -> list[str]:
    system = parse_system((FIXTURES / f"{system_id}.yaml").read_text(encoding="utf-8"), f"fixtures/{system_id}.yaml")
    return [step.ref for step in system.steps if records_losses(step)]


def test_pl_records_losses_at_every_reph_step_whose_rule_eliminates_or_removes_units() -> None:
    # 3.12 mine hex effects "take effect immediately"; 3.13 CC "until one side has been completely eliminated";
    # 3.17 failed 1TC "results in the elimination of the unit"; 3.18 "the minefield's attack"; 3.19 "the AFV is
    # eliminated"; 3.214/3.215 failed redeployment: "they are eliminated"; 3.216/3.217 the Redeployment Table's
    # "Eliminated"; 3.22 prisoners "removed from play" (guarded: double CVP); 3.23 "flipped over to its Wreck side"
    assert losses_steps("pl25") == ["3.12", "3.13", "3.17", "3.18", "3.19", "3.214", "3.215", "3.216", "3.217",
                                    "3.22", "3.23"]


def test_phd_records_losses_at_every_conph_step_whose_rule_eliminates_or_removes_units() -> None:
    # C5.2 "Losses are handled as per (C5.1)"; C5.3 CC "until one or both sides have been completely eliminated";
    # C5.8 failed 1TC "elimination of the unit"; C5.9 "suffering an immediate attack"; C5.10 "the AFV is eliminated";
    # C5.13 the Redeployment Table's "Eliminated"; C5.14 i)/ii) "they are eliminated"; C5.15 prisoners "removed from
    # play"; C5.16 "turned over to its wreck side"
    assert losses_steps("phd") == ["C5.2", "C5.3", "C5.8", "C5.9", "C5.10", "C5.13", "C5.14", "C5.15", "C5.16"]

