"""Vocabulary shared by the definition model, the dice and the phases."""
from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

SideId: TypeAlias = str
"""A side's id as written in its system file, e.g. ``"canadian"``."""


class DiceKind(StrEnum):
    """DR = two dice (coloured and white) summed; dr = one die."""

    DR = "DR"
    dr = "dr"


class Visibility(StrEnum):
    """Who may see an event or a record column."""

    PUBLIC = "public"  # both sides, at once
    SIDE = "side"  # the owning side only (until the CG ends)
    CG_END = "cg-end"  # the owning side now, both sides once the CG ends


class Automation(StrEnum):
    """How much of a step the app does (catalog flags AUTO / ASSIST / MAP), derived from its action (step_kinds)."""

    AUTOMATIC = "automatic"
    INPUT = "input"
    ASSISTED = "assisted"
    ON_BOARD = "on-board"
    INITIATIVE = "initiative"


class StepAction(StrEnum):
    """What the engine does at a step (a step's ``action:``, docs/cg-format.md "steps"); its kind follows from it
    (rules_engine.step_kinds). The loader refuses any other word."""

    BEGIN_PLAY = "begin-play"
    CLAMP_SAN = "clamp-san"
    ELR_CHANGE = "elr-change"
    FREE_ROLLS = "free-rolls"
    INITIATIVE = "initiative"
    NEW_DATE_AND_SAN = "new-date-and-san"
    PURCHASE = "purchase"
    PURCHASE_FORTIFICATIONS = "purchase-fortifications"
    PURCHASE_PATROLS = "purchase-patrols"
    PURCHASE_RECON = "purchase-recon"
    PURCHASE_RG = "purchase-rg"
    RECORD_LVP = "record-lvp"
    REPLENISH_BASE_MINUS_DR = "replenish-base-minus-dr"
    REPLENISH_FROM_TABLE = "replenish-from-table"
    RESOLVE_INITIATIVE = "resolve-initiative"
    REVEAL_ATTACK_OPTIONS = "reveal-attack-options"
    RG_STRENGTH_WEAPONS_LEADERS = "rg-strength-weapons-leaders"
    ROLL_PER_ITEM = "roll-per-item"
    ROLL_PER_PURCHASE = "roll-per-purchase"
    ROLL_PER_SIDE = "roll-per-side"
    ROLL_TABLE = "roll-table"
    SECRET_ROLL = "secret-roll"
    WEATHER_FROM_CALENDAR = "weather-from-calendar"


class Provenance(StrEnum):
    """Where a value comes from: printed plainly, read by interpretation, or lost."""

    LEGIBLE = "legible"
    INTERPRETED = "interpreted"
    MISSING = "missing"


class Chit(StrEnum):
    """An Initiative choice (RR 2.522, KGP 8.6232, ER CG15/CG18) or a purchased Attack Option (PL 2.4)."""

    ATTACK = "attack"
    IDLE = "idle"


VICTORY_MEASURES: tuple[str, ...] = ("cg_lvp", "cvp", "tvp", "objective_hexes")
"""What a CG Victory Condition compares (docs/cg-format.md): a side's CG-LVP total (RR/ER/KGP), the CVP it earned over
the CG (agreed scenario results), its CG TVP total (PL)."""

VICTORY_OPS: tuple[str, ...] = (">=", ">", "<=", "<", "==")
"""How a CG Victory Condition compares a measure with its value."""
