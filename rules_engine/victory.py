"""CG Victory Conditions judged at CG end (docs/cg-format.md ``victory_conditions``): the card's (or the system's)
conditions tried in order against the measures the records hold; the first met names the victor, else ``otherwise``.
A condition whose measure the records lack names the values it would need; text-only conditions name no victor."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_engine.events import JSON
from rules_engine.model import System, VictoryCondition, VictoryConditions
from rules_engine.state import CampaignState
from rules_engine.vocabulary import SideId

__all__ = ["ConditionCheck", "MEASURE_NAMES", "Verdict", "judge", "measure", "objective_hex_ref"]

MEASURE_NAMES: Mapping[str, str] = {
    "cg_lvp": "CG-LVP total",
    "cvp": "CVP earned over the CG",
    "tvp": "CG TVP total",
    "objective_hexes": "Objective Hexes Controlled",
}
OP_WORDS: Mapping[str, str] = {">=": "≥", ">": ">", "<=": "≤", "<": "<", "==": "="}


def objective_hex_ref(system: System) -> str | None:
    """KGP 8.2 Objective Hex: the rule whose ``params.results_field: objective_hexes`` asks the results for the Objective
    Hexes each side Controls (None: the system has none)."""
    for rule in system.special_rules:
        if rule.params.get("results_field") == "objective_hexes":
            return str(rule.ref)
    return None


def measure(state: CampaignState, side: SideId, name: str) -> int | None:
    """A side's measure from the records, None when they do not hold it: ``cg_lvp`` its CG-LVP track (RR/ER/KGP
    bookkeeping), ``cvp`` the CVP it earned in the agreed scenario results, ``tvp`` the sum of its TVP (PL 3.33: CG TVP
    Total = Current TVP + previous CG TVP, from the results' LVP/TVP column), ``objective_hexes`` the number of its own
    Objective Hexes (KGP 8.2) it Controls per the latest scenario results that record it."""
    if name == "cg_lvp":
        value = state.tracks.get(side, {}).get("cg_lvp")
        return value if isinstance(value, int) else None
    results = [record.result for record in state.history if record.result is not None]
    if name == "cvp":
        given = [r.cvp[side] for r in results if side in r.cvp]
        return sum(given) if given else None
    if name == "tvp":
        given = [r.lvp[side] for r in results if side in r.lvp]
        return sum(given) if given else None
    if name == "objective_hexes":  # KGP 8.2: the count the latest results that give it record (control at the end)
        counts = [r.objective_hexes[side] for r in results if side in r.objective_hexes]
        return counts[-1] if counts else None
    raise ValueError(f"unknown victory measure {name!r} (allowed: {', '.join(MEASURE_NAMES)})")


def _met(value: int, op: str, target: int) -> bool:
    return {">=": value >= target, ">": value > target, "<=": value <= target, "<": value < target,
            "==": value == target}[op]


@dataclass(frozen=True)
class ConditionCheck:
    """One condition against the records: the side's measure (None: not held) and whether it is met (None: unknown)."""

    condition: VictoryCondition
    value: int | None
    met: bool | None

    def text(self, system: System) -> str:
        """``German CG-LVP total 42 ≥ 40: met``."""
        c = self.condition
        name = f"{system.side(c.side).short_name} {MEASURE_NAMES.get(c.measure, c.measure)}"
        if self.value is None:
            return f"{name} {OP_WORDS.get(c.op, c.op)} {c.value}: not in the records (needs the {name})"
        return f"{name} {self.value} {OP_WORDS.get(c.op, c.op)} {c.value}: {'met' if self.met else 'not met'}"


@dataclass(frozen=True)
class Verdict:
    """The CG Victory Conditions judged: ``victor`` (None when none is named), ``how`` — "condition" (the first met),
    "otherwise", "needs-values" (a condition before any met lacks its measure), "text-only" or "none-met" — the checks
    made, and the values that would be needed."""

    conditions: VictoryConditions
    victor: SideId | None
    how: str
    checks: tuple[ConditionCheck, ...]
    needed: tuple[str, ...] = ()

    def to_json(self, system: System) -> dict[str, JSON]:
        """JSON-safe data, texts for the page."""
        return {
            "text": self.conditions.text, "ref": self.conditions.ref, "victor": self.victor,
            "victor_name": system.side(self.victor).short_name if self.victor else None, "how": self.how,
            "checks": [{"text": c.text(system), "met": c.met, "value": c.value, "side": c.condition.side,
                        "measure": c.condition.measure, "op": c.condition.op, "target": c.condition.value}
                       for c in self.checks],
            "needed": list(self.needed),
        }


def judge(system: System, state: CampaignState) -> Verdict | None:
    """The CG Victory Conditions of the system (its card's, else its own) judged on the records; None when it has none."""
    vc = system.victory_conditions
    if vc is None:
        return None
    if not vc.conditions:
        return Verdict(vc, None, "text-only", ())
    checks: list[ConditionCheck] = []
    needed: list[str] = []
    for condition in vc.conditions:
        value = measure(state, condition.side, condition.measure)
        met = None if value is None else _met(value, condition.op, condition.value)
        check = ConditionCheck(condition, value, met)
        checks.append(check)
        if value is None:
            needed.append(f"{system.side(condition.side).short_name} {MEASURE_NAMES.get(condition.measure, condition.measure)}")
            continue
        if met and not needed:
            return Verdict(vc, condition.side, "condition", tuple(checks))
    if needed:
        return Verdict(vc, None, "needs-values", tuple(checks), tuple(dict.fromkeys(needed)))
    if vc.otherwise is not None:
        return Verdict(vc, vc.otherwise, "otherwise", tuple(checks))
    return Verdict(vc, None, "none-met", tuple(checks))
