"""Record forms, settings, special rules, scenario rolls, the initial OB, the CG Victory Conditions, the card."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.model.tables import Modifier
from rules_engine.model.values import SettingValue
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import DiceKind, SideId, Visibility


@dataclass(frozen=True)
class FormColumn:
    """A record-form column and who may see it."""

    id: str
    label: str
    visibility: Visibility


@dataclass(frozen=True)
class Form:
    """A record form (CG Roster, RG Purchase Record)."""

    id: str
    name: str
    per: str
    columns: tuple[FormColumn, ...]
    ref: str | None = None
    header_fields: tuple[str, ...] = ()
    note: str | None = None


@unshadowed
@dataclass(frozen=True)
class Setting:
    """A value a CG Card or the players supply (Intensity column, HIST/CP DRM …)."""

    id: str
    label: str
    type: str  # choice | int | bool | text
    choices: tuple[str, ...] = ()
    per_side: bool = False
    source: str = "cg-card"
    ref: str | None = None
    default: SettingValue | None = None
    range: tuple[int, int] | None = None
    note: str | None = None


@dataclass(frozen=True)
class SpecialRule:
    """A CG special rule the app enforces or shows (ER CG7, KGP CG14 …)."""

    id: str
    ref: str
    name: str
    text: str
    enforced: bool = False
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Threshold:
    """A scenario roll's comparison with a number the players type (KGP CG23 "≤ the circled number")."""

    op: str  # "<=" | "<" | ">=" | ">"
    label: str  # what the players type, as the rule names it ("the circled number in the current turn's box")
    as_written: str | None = None
    interpreted: str | None = None
    verify: bool = False


@dataclass(frozen=True)
class ScenarioRoll:
    """A public roll made during the scenario (PL CG2 / KGP CG23 Game End dr, KGP CG16 Sniper choice dr)."""

    id: str
    ref: str
    name: str
    dice: DiceKind
    roller: str  # who makes it, as the rule says ("the moving player", "the ATTACKER")
    when: str  # when it is made, as the rule says
    outcomes: tuple[str, str] = ("", "")  # (met, not met) with a threshold
    threshold: Threshold | None = None
    table: str | None = None  # or a table of this system to roll on
    modifiers: tuple[Modifier, ...] = ()
    sides: tuple[SideId, ...] = ()  # who may make it (empty: either side)
    from_turn: int | None = None  # the first Game Turn it is made
    night_only: bool = False  # only in a night scenario (the calendar's ``night``)
    step: str | None = None  # the in-scenario step it belongs to (PL 2.9)
    rule: str | None = None  # the special rule it applies
    note: str | None = None
    roller_role: str | None = None  # "attacker" | "defender": only the scenario's Attacker/Defender makes it (ER CG21, CG5)
    requires_rg: bool = False  # only a side that bought an RG its ``rule`` governs (ER CG18 FPF Barrage)
    not_in_initial_scenario: str | None = None  # why it is not made in the Initial Scenario (ER CG13: one Sniper each)


@dataclass(frozen=True)
class ObGroup:
    """RG given in the Initial Scenario OB (PHD C4.2 "RG: Gren Pl x 2"): by chart id and/or group type, with a count."""

    count: int
    rg_id: str | None = None
    group_type: str | None = None

    @property
    def text(self) -> str:
        """As printed: ``Gren Pl x 2``."""
        name = self.group_type or self.rg_id or "?"
        return f"{name} x {self.count}" if self.count != 1 else name


@dataclass(frozen=True)
class SideOb:
    """One side's Initial Scenario OB (PHD C4.2): points by currency, OB-given RG, starting ELR and SAN."""

    side: SideId
    points: Mapping[str, int] = field(default_factory=dict)
    rg: tuple[ObGroup, ...] = ()
    elr: int | None = None
    san: int | None = None
    text: str | None = None


@dataclass(frozen=True)
class InitialOb:
    """The Initial Scenario OB of both sides (PHD C4.2); applied by ``sequence.start``; its RG are not counted for maxima."""

    ref: str
    sides: Mapping[SideId, SideOb] = field(default_factory=dict)
    note: str | None = None

    def side(self, side_id: SideId) -> SideOb | None:
        """A side's OB, or None when the data give none for it."""
        return self.sides.get(side_id)


@dataclass(frozen=True)
class VictoryCondition:
    """One checkable CG Victory Condition: ``side`` wins when its ``measure`` ``op`` ``value`` (docs/cg-format.md)."""

    side: SideId
    measure: str  # "cg_lvp" | "cvp" | "tvp" (vocabulary.VICTORY_MEASURES)
    op: str  # ">=" | ">" | "<=" | "<" | "=="
    value: int


@dataclass(frozen=True)
class VictoryConditions:
    """The CG Victory Conditions as printed (``text``), with the conditions Refit checks at CG end, in order."""

    text: str
    ref: str = "CG Card"
    conditions: tuple[VictoryCondition, ...] = ()
    otherwise: SideId | None = None


@dataclass(frozen=True)
class MissingPart:
    """A whole part the seed does not contain; a user supplies it (e.g. in a CG Card)."""

    part: str
    note: str
    id: str | None = None


@dataclass(frozen=True)
class CardInfo:
    """The CG Card that filled in a system."""

    id: str
    name: str
    extends: str
    example: bool = False
    source: str | None = None
