"""The lines of a side's books: RG Purchase Record (RR 2.5188), fortifications (RR 2.520), other items (PL 2.31,
2.38, 2.4) and the CG Roster (RR 2.518); each to and from JSON."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, TypedDict, Unpack

from rules_engine.events import JSON
from rules_engine.ledger.amounts import SETUP_MODES, STRENGTHS, amount_text, frozen_mapping, to_decimal
from rules_engine.ledger.json_fields import READ, unit_pair, whole_or_zero
from rules_engine.unshadowed import unshadowed

_map = READ.mapping
_seq = READ.as_list
_list = READ.list
_as_int = READ.as_whole
_opt_int = READ.opt_whole
_str = READ.text
_opt_str = READ.opt_text


class PurchaseChanges(TypedDict, total=False):
    """The fields ``PurchaseLine.evolve`` may change (every field, with its type)."""

    line: int
    date_id: str
    rg_id: str
    group_type: str
    cost: Decimal | int | str
    setup_mode: str
    pre_registered: int
    extra: int
    initial_ob: bool
    number_purchased: int
    remaining: int | None
    strength: str | None
    units: tuple[tuple[int, str], ...]
    sw: Mapping[str, int]
    leaders: tuple[str, ...]
    oba_ammo: str | None
    setup_area: str | None
    notes: str
    leader_column: str | None
    rolled: bool


class RosterChanges(TypedDict, total=False):
    """The fields ``RosterLine.evolve`` may change (every field, with its type)."""

    date_id: str
    start: Decimal | None
    replenished: Decimal | None
    purchased: tuple[tuple[str, Decimal], ...]
    spent: Decimal | int
    left: Decimal | None
    recon: int | None
    elr: int | None
    san: int | None
    initiative: str | None
    lvp_current: int | None
    lvp_cg: int | None
    fortifications: tuple[str, ...]
    cvp_suffered: int | None
    cvp_amassed: int | None
    notes: str
    san_pending: int


def _evolved[L](line: L, changes: Mapping[str, object], normal: Mapping[str, Callable[[Any], object]]) -> L:
    """A copy of a frozen line with ``changes``, each changed field normalized as ``__post_init__`` would."""
    values: dict[str, object] = line.__dict__.copy()
    for name, value in changes.items():
        if name not in values:
            raise TypeError(f"{type(line).__name__} has no field {name!r}")
        fix = normal.get(name)
        values[name] = value if fix is None else fix(value)
    new: L = object.__new__(type(line))
    object.__setattr__(new, "__dict__", values)
    return new


def _opt_decimal(value: Decimal | None) -> Decimal | None:
    return None if value is None else to_decimal(value)


@unshadowed
@dataclass(frozen=True)
class PurchaseLine:
    """One line of the RG Purchase Record (2.5188): an RG bought (or given in the Initial Scenario OB) and its rolls."""

    line: int  # per-side running number (owner-only: it counts the side's purchases)
    date_id: str
    rg_id: str
    group_type: str
    cost: Decimal
    setup_mode: str = "entry"
    pre_registered: int = 0
    extra: int = 0
    initial_ob: bool = False
    number_purchased: int = 0  # #P: this RG bought so far in the CG (Initial-OB RG not counted)
    remaining: int | None = None  # #R: CG Max − #P (None when the chart gives no CG Max)
    strength: str | None = None  # "F" | "D" once 2.5191 is rolled
    units: tuple[tuple[int, str], ...] = ()
    sw: Mapping[str, int] = field(default_factory=dict)
    leaders: tuple[str, ...] = ()
    oba_ammo: str | None = None
    setup_area: str | None = None
    notes: str = ""
    leader_column: str | None = None  # the leader-table column the leaders came from (2.362 counts columns apart)
    rolled: bool = False  # the 2.519-style rolls are done

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost", to_decimal(self.cost))
        object.__setattr__(self, "sw", frozen_mapping(self.sw))
        object.__setattr__(self, "units", tuple((int(c), str(u)) for c, u in self.units))
        object.__setattr__(self, "leaders", tuple(self.leaders))
        if self.setup_mode not in SETUP_MODES:
            raise ValueError(f"unknown set-up mode {self.setup_mode!r} (allowed: {', '.join(SETUP_MODES)})")
        if self.strength is not None and self.strength not in STRENGTHS:
            raise ValueError(f"strength is F or D, got {self.strength!r}")

    def evolve(self, **changes: Unpack[PurchaseChanges]) -> PurchaseLine:
        """``dataclasses.replace``, normalizing and checking only the changed fields (the others are already)."""
        new = _evolved(self, changes, _PURCHASE_NORMAL)
        if "setup_mode" in changes and new.setup_mode not in SETUP_MODES:
            raise ValueError(f"unknown set-up mode {new.setup_mode!r} (allowed: {', '.join(SETUP_MODES)})")
        if "strength" in changes and new.strength is not None and new.strength not in STRENGTHS:
            raise ValueError(f"strength is F or D, got {new.strength!r}")
        return new

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data (Decimals as strings)."""
        return {
            "line": self.line,
            "date_id": self.date_id,
            "rg_id": self.rg_id,
            "group_type": self.group_type,
            "cost": amount_text(self.cost),
            "setup_mode": self.setup_mode,
            "pre_registered": self.pre_registered,
            "extra": self.extra,
            "initial_ob": self.initial_ob,
            "number_purchased": self.number_purchased,
            "remaining": self.remaining,
            "strength": self.strength,
            "units": [[count, unit] for count, unit in self.units],
            "sw": dict(self.sw),
            "leaders": list(self.leaders),
            "oba_ammo": self.oba_ammo,
            "setup_area": self.setup_area,
            "notes": self.notes,
            "leader_column": self.leader_column,
            "rolled": self.rolled,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> PurchaseLine:
        """Inverse of ``to_json``."""
        units = _list(data, "units")
        return cls(
            line=whole_or_zero(data, "line"),
            date_id=_str(data, "date_id"),
            rg_id=_str(data, "rg_id"),
            group_type=_str(data, "group_type"),
            cost=to_decimal(_str(data, "cost")),
            setup_mode=_str(data, "setup_mode"),
            pre_registered=whole_or_zero(data, "pre_registered"),
            extra=whole_or_zero(data, "extra"),
            initial_ob=bool(data.get("initial_ob", False)),
            number_purchased=whole_or_zero(data, "number_purchased"),
            remaining=_opt_int(data, "remaining"),
            strength=_opt_str(data, "strength"),
            units=tuple(unit_pair(u) for u in units),
            sw={str(k): _as_int(v, "sw") for k, v in _map(data, "sw").items()},
            leaders=tuple(str(x) for x in _list(data, "leaders")),
            oba_ammo=_opt_str(data, "oba_ammo"),
            setup_area=_opt_str(data, "setup_area"),
            notes=str(data.get("notes") or ""),
            leader_column=_opt_str(data, "leader_column"),
            rolled=bool(data.get("rolled", False)),
        )


@dataclass(frozen=True)
class FortificationLine:
    """A fortification bought with FPP/FP/DSP (RR 2.520: recorded in the Fortifications section of the CG Roster)."""

    line: int
    date_id: str
    type: str
    quantity: int
    cost: Decimal
    currency: str
    detail: str = ""  # capacity, unit kind, factors … as ordered
    notes: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost", to_decimal(self.cost))

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data."""
        return {
            "line": self.line,
            "date_id": self.date_id,
            "type": self.type,
            "quantity": self.quantity,
            "cost": amount_text(self.cost),
            "currency": self.currency,
            "detail": self.detail,
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> FortificationLine:
        """Inverse of ``to_json``."""
        return cls(
            line=whole_or_zero(data, "line"),
            date_id=_str(data, "date_id"),
            type=_str(data, "type"),
            quantity=whole_or_zero(data, "quantity"),
            cost=to_decimal(_str(data, "cost")),
            currency=_str(data, "currency"),
            detail=str(data.get("detail") or ""),
            notes=str(data.get("notes") or ""),
        )


@unshadowed
@dataclass(frozen=True)
class ItemLine:
    """A purchase that is not an RG: an Attack Option (PL 2.4), Patrols (PL 2.31), points (FP with CP, PL 2.38)."""

    line: int
    date_id: str
    kind: str  # attack-option | patrol | points
    quantity: int
    cost: Decimal
    currency: str
    gives: Mapping[str, Decimal] = field(default_factory=dict)
    notes: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cost", to_decimal(self.cost))
        object.__setattr__(self, "gives", frozen_mapping({k: to_decimal(v) for k, v in self.gives.items()}))

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data."""
        return {
            "line": self.line,
            "date_id": self.date_id,
            "kind": self.kind,
            "quantity": self.quantity,
            "cost": amount_text(self.cost),
            "currency": self.currency,
            "gives": {k: amount_text(v) for k, v in self.gives.items()},
            "notes": self.notes,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> ItemLine:
        """Inverse of ``to_json``."""
        return cls(
            line=whole_or_zero(data, "line"),
            date_id=_str(data, "date_id"),
            kind=_str(data, "kind"),
            quantity=whole_or_zero(data, "quantity"),
            cost=to_decimal(_str(data, "cost")),
            currency=_str(data, "currency"),
            gives={str(k): to_decimal(str(v)) for k, v in _map(data, "gives").items()},
            notes=str(data.get("notes") or ""),
        )


@unshadowed
@dataclass(frozen=True)
class RosterLine:
    """One CG Roster line (per CG Date / Firefight / TM Scenario): Start, Replenished, RG Purchased, Spent, Left …"""

    date_id: str
    start: Decimal | None = None
    replenished: Decimal | None = None
    purchased: tuple[tuple[str, Decimal], ...] = ()  # (RG id, cost) as recorded in "RG Purchased"
    spent: Decimal = Decimal(0)
    left: Decimal | None = None
    recon: int | None = None
    elr: int | None = None
    san: int | None = None
    initiative: str | None = None
    lvp_current: int | None = None
    lvp_cg: int | None = None
    fortifications: tuple[str, ...] = ()
    cvp_suffered: int | None = None
    cvp_amassed: int | None = None
    notes: str = ""
    san_pending: int = 0  # a SAN increase bought in secret (RR M2), not yet announced: the owner's only (2.525)

    def __post_init__(self) -> None:
        for name in ("start", "replenished", "left"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, to_decimal(value))
        object.__setattr__(self, "spent", to_decimal(self.spent))
        object.__setattr__(self, "purchased", tuple((str(r), to_decimal(c)) for r, c in self.purchased))
        object.__setattr__(self, "fortifications", tuple(self.fortifications))

    def evolve(self, **changes: Unpack[RosterChanges]) -> RosterLine:
        """``dataclasses.replace``, normalizing only the changed fields (the others are already)."""
        return _evolved(self, changes, _ROSTER_NORMAL)

    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data."""
        def dec(value: Decimal | None) -> str | None:
            return None if value is None else amount_text(value)

        return {
            "date_id": self.date_id,
            "start": dec(self.start),
            "replenished": dec(self.replenished),
            "purchased": [[rg, amount_text(cost)] for rg, cost in self.purchased],
            "spent": amount_text(self.spent),
            "left": dec(self.left),
            "recon": self.recon,
            "elr": self.elr,
            "san": self.san,
            "initiative": self.initiative,
            "lvp_current": self.lvp_current,
            "lvp_cg": self.lvp_cg,
            "fortifications": list(self.fortifications),
            "cvp_suffered": self.cvp_suffered,
            "cvp_amassed": self.cvp_amassed,
            "notes": self.notes,
            "san_pending": self.san_pending,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> RosterLine:
        """Inverse of ``to_json``."""
        def dec(key: str) -> Decimal | None:
            value = data.get(key)
            return None if value is None else to_decimal(str(value))

        return cls(
            date_id=_str(data, "date_id"),
            start=dec("start"),
            replenished=dec("replenished"),
            purchased=tuple((str(p[0]), to_decimal(str(p[1]))) for p in (_seq(x, "purchased") for x in _list(data, "purchased"))),
            spent=to_decimal(str(data.get("spent") or "0")),
            left=dec("left"),
            recon=_opt_int(data, "recon"),
            elr=_opt_int(data, "elr"),
            san=_opt_int(data, "san"),
            initiative=_opt_str(data, "initiative"),
            lvp_current=_opt_int(data, "lvp_current"),
            lvp_cg=_opt_int(data, "lvp_cg"),
            fortifications=tuple(str(x) for x in _list(data, "fortifications")),
            cvp_suffered=_opt_int(data, "cvp_suffered"),
            cvp_amassed=_opt_int(data, "cvp_amassed"),
            notes=str(data.get("notes") or ""),
            san_pending=whole_or_zero(data, "san_pending"),
        )


_PURCHASE_NORMAL: Mapping[str, Callable[[Any], object]] = {  # as ``PurchaseLine.__post_init__`` normalizes them
    "cost": to_decimal, "sw": frozen_mapping, "units": lambda units: tuple((int(c), str(u)) for c, u in units),
    "leaders": tuple,
}
_ROSTER_NORMAL: Mapping[str, Callable[[Any], object]] = {  # as ``RosterLine.__post_init__`` normalizes them
    "start": _opt_decimal, "replenished": _opt_decimal, "left": _opt_decimal, "spent": to_decimal,
    "purchased": lambda rows: tuple((str(r), to_decimal(c)) for r, c in rows), "fortifications": tuple,
}
for _cls, _changes in ((PurchaseLine, PurchaseChanges), (RosterLine, RosterChanges)):
    if set(_changes.__annotations__) != {f.name for f in fields(_cls)}:
        raise TypeError(f"{_changes.__name__} must list every field of {_cls.__name__}")  # they drift apart otherwise
