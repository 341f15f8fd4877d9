"""A side's secret books: points, the RG Purchase Record (RR 2.5188), fortifications and the CG Roster (RR 2.518)."""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from types import MappingProxyType
from typing import TypeAlias

from rules_engine.events import JSON
from rules_engine.jsonread import JsonReader
from rules_engine.vocabulary import SideId

Amount: TypeAlias = Decimal | int | str
"""Anything a point amount is written as; stored as a Decimal (A-P mine factors cost 1.5 FPP)."""

SETUP_MODES = ("entry", "on-map", "reserve")
STRENGTHS = ("F", "D")


def to_decimal(value: Amount | float) -> Decimal:
    """A point amount as a Decimal (floats through their shortest text: 1.5 → Decimal('1.5'))."""
    if isinstance(value, bool):
        raise ValueError(f"not a point amount: {value!r}")
    if isinstance(value, Decimal):
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise ValueError(f"not a point amount: {value!r}") from None


def amount_text(value: Decimal) -> str:
    """A point amount as printed: ``28``, ``1.5`` (no trailing zeros)."""
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _frozen[K, V](mapping: Mapping[K, V]) -> Mapping[K, V]:
    return MappingProxyType(dict(mapping))


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
        object.__setattr__(self, "sw", _frozen(self.sw))
        object.__setattr__(self, "units", tuple((int(c), str(u)) for c, u in self.units))
        object.__setattr__(self, "leaders", tuple(self.leaders))
        if self.setup_mode not in SETUP_MODES:
            raise ValueError(f"unknown set-up mode {self.setup_mode!r} (allowed: {', '.join(SETUP_MODES)})")
        if self.strength is not None and self.strength not in STRENGTHS:
            raise ValueError(f"strength is F or D, got {self.strength!r}")

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
            line=_int(data, "line"),
            date_id=_str(data, "date_id"),
            rg_id=_str(data, "rg_id"),
            group_type=_str(data, "group_type"),
            cost=to_decimal(_str(data, "cost")),
            setup_mode=_str(data, "setup_mode"),
            pre_registered=_int(data, "pre_registered"),
            extra=_int(data, "extra"),
            initial_ob=bool(data.get("initial_ob", False)),
            number_purchased=_int(data, "number_purchased"),
            remaining=_opt_int(data, "remaining"),
            strength=_opt_str(data, "strength"),
            units=tuple(_pair(u) for u in units),
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
            line=_int(data, "line"),
            date_id=_str(data, "date_id"),
            type=_str(data, "type"),
            quantity=_int(data, "quantity"),
            cost=to_decimal(_str(data, "cost")),
            currency=_str(data, "currency"),
            detail=str(data.get("detail") or ""),
            notes=str(data.get("notes") or ""),
        )


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
        object.__setattr__(self, "gives", _frozen({k: to_decimal(v) for k, v in self.gives.items()}))

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
            line=_int(data, "line"),
            date_id=_str(data, "date_id"),
            kind=_str(data, "kind"),
            quantity=_int(data, "quantity"),
            cost=to_decimal(_str(data, "cost")),
            currency=_str(data, "currency"),
            gives={str(k): to_decimal(str(v)) for k, v in _map(data, "gives").items()},
            notes=str(data.get("notes") or ""),
        )


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
            san_pending=_int(data, "san_pending"),
        )


@dataclass(frozen=True)
class SideLedger:
    """Everything one side keeps secret on paper: points by currency, RG Purchase Record, fortifications, CG Roster."""

    side: SideId
    points: Mapping[str, Decimal] = field(default_factory=dict)
    purchases: tuple[PurchaseLine, ...] = ()
    fortifications: tuple[FortificationLine, ...] = ()
    roster: tuple[RosterLine, ...] = ()
    elr: int | None = None
    san: int | None = None
    items: tuple[ItemLine, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _frozen({str(k): to_decimal(v) for k, v in self.points.items()}))
        for name in ("purchases", "fortifications", "roster", "items"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    # -- reading -----------------------------------------------------------------------------------------------------
    def balance(self, currency: str) -> Decimal:
        """The side's current total of a currency (0 when it has none)."""
        return self.points.get(currency, Decimal(0))

    def roster_line(self, date_id: str) -> RosterLine | None:
        """The CG Roster line of a date, if written yet."""
        for line in self.roster:
            if line.date_id == date_id:
                return line
        return None

    @property
    def san_pending(self) -> int:
        """The SAN increase bought in secret and not yet announced (the sum over the roster lines)."""
        return sum(line.san_pending for line in self.roster)

    def purchase(self, line: int) -> PurchaseLine:
        """The RG Purchase Record line with this number (KeyError naming the numbers there are)."""
        for item in self.purchases:
            if item.line == line:
                return item
        raise KeyError(f"no RG Purchase Record line {line} (lines: {', '.join(str(p.line) for p in self.purchases) or 'none'})")

    def purchased_count(self, rg_ids: Iterable[str], date_id: str | None = None) -> int:
        """How many of these RG were bought (in the CG, or on one date); Initial-OB RG do not count (2.5186)."""
        wanted = set(rg_ids)
        return sum(
            1 for p in self.purchases
            if p.rg_id in wanted and not p.initial_ob and (date_id is None or p.date_id == date_id)
        )

    def items_on(self, date_id: str, kind: str) -> int:
        """How many items of a kind (patrol, attack-option …) were bought on a date."""
        return sum(i.quantity for i in self.items if i.date_id == date_id and i.kind == kind)

    @property
    def next_line(self) -> int:
        """The next RG Purchase Record line number."""
        return max((p.line for p in self.purchases), default=0) + 1

    @property
    def next_fortification_line(self) -> int:
        """The next fortification line number."""
        return max((f.line for f in self.fortifications), default=0) + 1

    @property
    def next_item_line(self) -> int:
        """The next item line number."""
        return max((i.line for i in self.items), default=0) + 1

    # -- new ledgers --------------------------------------------------------------------------------------------------
    def with_points(self, currency: str, amount: Amount) -> SideLedger:
        """The ledger with a currency set to an amount."""
        points = dict(self.points)
        points[currency] = to_decimal(amount)
        return replace(self, points=points)

    def adjust(self, currency: str, delta: Amount) -> SideLedger:
        """The ledger with a currency changed by delta."""
        return self.with_points(currency, self.balance(currency) + to_decimal(delta))

    def with_roster_line(self, line: RosterLine) -> SideLedger:
        """The ledger with a date's roster line replaced (or appended)."""
        rows = [r for r in self.roster if r.date_id != line.date_id]
        if len(rows) == len(self.roster):
            return replace(self, roster=(*self.roster, line))
        return replace(self, roster=tuple(line if r.date_id == line.date_id else r for r in self.roster))

    def with_purchase(self, line: PurchaseLine) -> SideLedger:
        """The ledger with one RG Purchase Record line replaced (same number) or appended."""
        if any(p.line == line.line for p in self.purchases):
            return replace(self, purchases=tuple(line if p.line == line.line else p for p in self.purchases))
        return replace(self, purchases=(*self.purchases, line))

    # -- JSON --------------------------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, JSON]:
        """JSON-safe data for storage (secret: the owner's only until the rules reveal it)."""
        return {
            "side": self.side,
            "points": {k: amount_text(v) for k, v in self.points.items()},
            "purchases": [p.to_json() for p in self.purchases],
            "fortifications": [f.to_json() for f in self.fortifications],
            "roster": [r.to_json() for r in self.roster],
            "elr": self.elr,
            "san": self.san,
            "items": [i.to_json() for i in self.items],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> SideLedger:
        """Inverse of ``to_json`` (ValueError naming the bad field)."""
        return cls(
            side=_str(data, "side"),
            points={str(k): to_decimal(str(v)) for k, v in _map(data, "points").items()},
            purchases=tuple(PurchaseLine.from_json(_as_map(x, "purchases")) for x in _list(data, "purchases")),
            fortifications=tuple(FortificationLine.from_json(_as_map(x, "fortifications"))
                                 for x in _list(data, "fortifications")),
            roster=tuple(RosterLine.from_json(_as_map(x, "roster")) for x in _list(data, "roster")),
            elr=_opt_int(data, "elr"),
            san=_opt_int(data, "san"),
            items=tuple(ItemLine.from_json(_as_map(x, "items")) for x in _list(data, "items")),
        )


def new_ledger(
    side: SideId, points: Mapping[str, Amount] | None = None, *, elr: int | None = None, san: int | None = None
) -> SideLedger:
    """A side's empty books with its starting points (e.g. the Initial Scenario's CPP)."""
    return SideLedger(side=side, points={k: to_decimal(v) for k, v in (points or {}).items()}, elr=elr, san=san)


# ---------------------------------------------------------------------------------------------------------------------
# JSON helpers
# ---------------------------------------------------------------------------------------------------------------------


_READ = JsonReader("ledger")
_as_map = _READ.as_mapping
_map = _READ.mapping
_seq = _READ.as_list
_list = _READ.list
_as_int = _READ.as_whole
_opt_int = _READ.opt_whole
_str = _READ.text
_opt_str = _READ.opt_text


def _pair(value: object) -> tuple[int, str]:
    pair = _seq(value, "units")
    if len(pair) != 2:
        raise ValueError("ledger: each unit entry is [count, unit]")
    return _as_int(pair[0], "units"), str(pair[1])


def _int(data: Mapping[str, JSON], key: str) -> int:
    """A ledger's whole number (0 when absent)."""
    return _READ.whole(data, key, 0)
