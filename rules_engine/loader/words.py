"""The words and patterns a definition may use (docs/cg-format.md): parts, keys, enumerations."""
from __future__ import annotations

import re

from rules_engine.vocabulary import StepAction, Visibility

FORMAT = "refit-cg/1"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")
WORD_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

KNOWN_FACTS: tuple[str, ...] = (
    "own_attack_previous",
    "own_attacked_previous_scenario",
    "won_previous",
    "won_this",
    "cvp_suffered_previous",
    "cvp_amassed_this",
    "depleted",
    "headquarters",
    "isolated",
    "night",
    "attack_option_purchased_now",
    "elite_platoons_purchased_previous",
    "first_line_platoons_purchased_previous",
    "firefights_without_idle",
    "extra_cpp_spent",
)
FACT_PREFIXES: tuple[str, ...] = ("side_is:", "nationality_is:")

SYSTEM_PARTS: tuple[str, ...] = (
    "time_unit",
    "between_phase",
    "sides",
    "currencies",
    "calendar",
    "steps",
    "idle",
    "tables",
    "rg_charts",
    "setup_costs",
    "fortifications",
    "initiative",
    "limits",
    "forms",
    "settings",
    "special_rules",
    "scenario_rolls",
    "initial_ob",
    "map_groups_in_play",
    "victory_conditions",
    "missing_parts",
)
SYSTEM_KEYS: tuple[str, ...] = ("format", "id", "kind", "name", "source", *SYSTEM_PARTS)
CARD_PARTS: tuple[str, ...] = tuple(part for part in SYSTEM_PARTS if part not in ("sides", "missing_parts"))
CARD_KEYS: tuple[str, ...] = (
    "format",
    "kind",
    "id",
    "extends",
    "example",
    "name",
    "source",
    "settings_values",
    "supply",
    *CARD_PARTS,
)

TABLE_PER = ("side", "unit", "stack", "rg", "module", "leader", "weapon", "item", "vehicle", "location", "patrol",
             "company", "platoon", "sw")
STEP_SIDES = ("simultaneous", "ordered", "none")
STEP_ORDER_WORDS = ("attacker", "defender", "setup-first", "setup-second", "moves-first", "moves-second",
                    "previous-attacker", "previous-defender")
STEP_SECRET = ("none", "roll", "choice", "purchase", "record")
STEP_REVEALED = ("never", "immediately", "cg-end", "at-step <ref>")
THRESHOLD_OPS = ("<=", "<", ">=", ">")
RG_EFFECTS = ("san",)
MATRIX_RESULTS = ("dual-attack", "axis-assault", "allied-assault", "idle")
MATRIX_ROLES = ("allied", "axis")
FORM_VISIBILITY = {"owner": Visibility.SIDE, "both": Visibility.PUBLIC, "cg-end": Visibility.CG_END}
FORM_PER = ("date", "rg", "scenario", "item", "side")
RG_TYPES = ("I", "V", "G", "HW", "O", "M", "F", "A")
SETTING_TYPES = ("choice", "int", "bool", "text")
INTEGER_MAX = 99_999  # the largest whole number a definition gives where nothing smaller is said (forms: the same)
SETTING_SOURCES = ("cg-card", "players", "rules")
ROUNDING = ("down", "up")
FORT_COST_KINDS = ("by_capacity", "by_unit", "per_factor", "per_hexside", "formula", "multiplier", "as_per")
FORMULA_NAMES = ("ca_drm", "nca_drm", "capacity")
FORMULA_PATTERN = re.compile(r"^[a-z_0-9+*() .-]+$")


STEP_ACTIONS: tuple[str, ...] = tuple(sorted(a.value for a in StepAction))
"""The words a step's ``action:`` may say, sorted (the allowed list of the loader's refusal)."""
VICTORY_VALUE_LIMIT = 100_000  # the largest CG Victory Condition value, either sign
