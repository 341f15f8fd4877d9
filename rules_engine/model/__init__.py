"""A CG system as validated, immutable data (the loader builds these from `fixtures/*.yaml`), one module per part."""
from __future__ import annotations

from rules_engine.model.calendar import BetweenPhase, BoughtWith, CalendarEntry, Currency, MapGroup, TimeUnit
from rules_engine.model.initiative import Initiative, MatrixCell, OrderRoll, OrderRollRow, Side
from rules_engine.model.purchases import (
    FortCost,
    FortificationRow,
    Fortifications,
    FortLimit,
    Limit,
    SetupCosts,
    SetupMode,
)
from rules_engine.model.records import (
    CardInfo,
    Form,
    FormColumn,
    InitialOb,
    MissingPart,
    ObGroup,
    ScenarioRoll,
    Setting,
    SideOb,
    SpecialRule,
    Threshold,
    VictoryCondition,
    VictoryConditions,
)
from rules_engine.model.rg_charts import RG_QUALITIES, CombinedMax, PreRegistered, RgChart, RgNote, RgRow, UnitCount
from rules_engine.model.steps import IdleRule, Step
from rules_engine.model.system import System
from rules_engine.model.tables import Column, DiceTable, Modifier, OriginalEffect, PerFact, Row, SettingRef
from rules_engine.model.values import (
    VERIFY_NOTE,
    Cell,
    CellValue,
    JSONScalar,
    Scalar,
    SettingValue,
    legible,
    value_text,
)

__all__ = [
    "BetweenPhase", "BoughtWith", "CalendarEntry", "CardInfo", "Cell", "CellValue", "Column", "CombinedMax",
    "Currency", "DiceTable", "Form", "FormColumn", "FortCost", "FortLimit", "FortificationRow", "Fortifications",
    "IdleRule", "InitialOb", "Initiative", "JSONScalar", "Limit", "MapGroup", "MatrixCell", "MissingPart", "Modifier",
    "ObGroup", "OrderRoll", "OrderRollRow", "OriginalEffect", "PerFact", "PreRegistered", "RG_QUALITIES", "RgChart",
    "RgNote", "RgRow", "Row", "Scalar", "ScenarioRoll", "Setting", "SettingRef", "SettingValue", "SetupCosts",
    "SetupMode", "Side", "SideOb", "SpecialRule", "Step", "System", "Threshold", "TimeUnit", "UnitCount",
    "VERIFY_NOTE", "VictoryCondition", "VictoryConditions", "legible", "value_text",
]
