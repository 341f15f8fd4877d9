"""The CG special rules a campaign plays by, each with a one-line summary from the rule text and where the app applies
it ("enforced at 1.518", "roll form in the scenario", "on the board") — read from the data, never from a system name."""
from __future__ import annotations

import re
from dataclasses import dataclass

from rules_engine.model import SpecialRule, System

SUMMARY_MAX = 200  # characters of the one-line summary


@dataclass(frozen=True)
class RuleInUse:
    """One special rule as the "Rules in use" page lists it."""

    ref: str
    name: str
    summary: str
    where: str
    enforced: bool


def summary(text: str) -> str:
    """The rule's first sentence (bracketed exceptions kept), cut at SUMMARY_MAX characters."""
    flat = " ".join(text.split())
    depth, end = 0, len(flat)
    for i, char in enumerate(flat):
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(char, 0)
        if char == "." and depth <= 0 and (i + 1 == len(flat) or flat[i + 1] == " ") and not re.search(
                r"(\bEX|\be\.g|\bi\.e|\bvs|\b[A-Z]|\d)$", flat[:i]):
            end = i + 1
            break
    first = flat[:end]
    return first if len(first) <= SUMMARY_MAX else first[:SUMMARY_MAX - 1].rstrip() + "…"


def _step_with(system: System, *actions: str) -> str | None:
    return next((s.ref for s in system.steps if s.action in actions), None)


def where_applied(system: System, rule: SpecialRule) -> str:
    """Where the app applies a special rule, from its params and the steps/rolls that name it."""
    p = rule.params
    purchase = _step_with(system, "purchase-rg", "purchase")
    places: list[str] = []
    initiative = system.initiative
    if "chits_chosen_at_action" in p and initiative is not None and initiative.chosen_at:
        places.append(f"chits sealed at {initiative.chosen_at}, revealed together at {initiative.ref}")
    elif p.get("mode") == "chit" and initiative is not None and initiative.mode == "chit":
        places.append(f"chits sealed and revealed together at {initiative.ref}")
    reserve = "reserve_allowed" in p or ("rg_id_prefixes" in p and "reserve" in rule.id)
    if purchase and (reserve or any(k in p for k in ("requires_chit", "on_map", "reserve", "max_modules",
                                                     "setup_modes"))):
        places.append(f"enforced at {purchase} (RG purchase)")
    strength = _step_with(system, "roll-per-purchase")
    if "depletion_sides" in p and strength:
        places.append(f"enforced at {strength} (only the sides named are rolled for Depletion)")
    if isinstance(p.get("designated_at_step"), str):
        step = p["designated_at_step"]
        prefixes = p.get("rg_id_prefixes")
        which = (f"an RG whose ID begins with {' or '.join(str(x) for x in prefixes)}"
                 if isinstance(prefixes, list) and prefixes else "an RG")
        if purchase:
            places.append(f"designated at {step} (secret): typed with the purchase of {which} at {purchase} and kept "
                          "on the owner's RG Purchase Record (for an RG the Initial Scenario OB gives: on paper)")
        else:
            places.append(f"designated at {step} on paper (secret)")
    if p.get("results_field") == "objective_hexes":
        places.append("the Objective Hexes each side Controls are entered with the scenario results")
    fort = _step_with(system, "purchase-fortifications")
    if "fortification_type" in p and fort:
        places.append(f"enforced at {fort} (Fortification purchase)")
    if "night_scenario_defender_elr_drm" in p:
        places.append("applied at the start of each night scenario")
    if "halve_secret_dr" in p and isinstance(p.get("step"), str):
        places.append(f"applied at {p['step']}")
    if "cg_lvp" in p:
        lvp = _step_with(system, "record-lvp")
        places.append(f"enforced at {lvp}" if lvp else "from the LVP typed in the scenario results")
    if "map_groups" in p and system.map_groups:
        places.append("the scenario and its results are entered per Map Group")
    if isinstance(p.get("declared"), str):
        places.append("declared in the scenario (a form on the scenario panel)")
    rolls = [r for r in system.scenario_rolls if r.rule == rule.id]
    if rolls:
        places.append("roll form in the scenario: " + "; ".join(f"{r.name} ({r.roller})" for r in rolls))
    if places:
        return "; ".join(dict.fromkeys(places))
    return "on the board (the players apply it)"


def rules_in_use(system: System) -> tuple[RuleInUse, ...]:
    """Every special rule of the system (and card), in the order of the rule text."""
    out = []
    for rule in system.special_rules:
        where = where_applied(system, rule)
        out.append(RuleInUse(rule.ref, rule.name, summary(rule.text), where,
                             not where.startswith("on the board")))
    return tuple(out)
