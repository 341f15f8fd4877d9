"""Load and validate CG definitions (docs/cg-format.md): YAML text in, an immutable `System` out, every problem reported.

The package reads a definition part by part, one module per part (``steps``, ``tables``, ``initiative`` …); ``system``
and ``card`` put the parts together, ``players`` applies setting values; ``checker`` holds the generic checks.
"""
from __future__ import annotations

from rules_engine.loader.card import parse_card
from rules_engine.loader.players import (
    PLAYER_CHOICES,
    player_setting_start,
    player_settings,
    setting_allowed,
    with_player_settings,
)
from rules_engine.loader.system import definition_kind, parse_system
from rules_engine.loader.words import (
    CARD_KEYS,
    CARD_PARTS,
    FACT_PREFIXES,
    FORM_PER,
    FORM_VISIBILITY,
    FORMAT,
    FORMULA_NAMES,
    FORMULA_PATTERN,
    FORT_COST_KINDS,
    ID_PATTERN,
    INTEGER_MAX,
    KNOWN_FACTS,
    MATRIX_RESULTS,
    MATRIX_ROLES,
    RG_EFFECTS,
    RG_TYPES,
    ROUNDING,
    SETTING_SOURCES,
    SETTING_TYPES,
    STEP_ACTIONS,
    STEP_ORDER_WORDS,
    STEP_REVEALED,
    STEP_SECRET,
    STEP_SIDES,
    SYSTEM_KEYS,
    SYSTEM_PARTS,
    TABLE_PER,
    THRESHOLD_OPS,
    VICTORY_VALUE_LIMIT,
    WORD_PATTERN,
)

__all__ = [
    "CARD_KEYS", "CARD_PARTS", "FACT_PREFIXES", "FORMAT", "FORMULA_NAMES", "FORMULA_PATTERN", "FORM_PER",
    "FORM_VISIBILITY", "FORT_COST_KINDS", "ID_PATTERN", "INTEGER_MAX", "KNOWN_FACTS", "MATRIX_RESULTS", "MATRIX_ROLES",
    "PLAYER_CHOICES", "RG_EFFECTS", "RG_TYPES", "ROUNDING", "SETTING_SOURCES", "SETTING_TYPES", "STEP_ACTIONS",
    "STEP_ORDER_WORDS", "STEP_REVEALED", "STEP_SECRET", "STEP_SIDES", "SYSTEM_KEYS", "SYSTEM_PARTS", "TABLE_PER",
    "THRESHOLD_OPS", "VICTORY_VALUE_LIMIT", "WORD_PATTERN", "definition_kind", "parse_card", "parse_system",
    "player_setting_start", "player_settings", "setting_allowed", "with_player_settings",
]
