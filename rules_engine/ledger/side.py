"""A side's secret books: points, the RG Purchase Record (RR 2.5188), fortifications and the CG Roster (RR 2.518)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import TypedDict, Unpack

from rules_engine.events import JSON
from rules_engine.ledger.amounts import Amount, amount_text, frozen_mapping, to_decimal
from rules_engine.ledger.json_fields import READ
from rules_engine.ledger.lines import FortificationLine, ItemLine, PurchaseLine, RosterLine
from rules_engine.unshadowed import unshadowed
from rules_engine.vocabulary import SideId

_as_map = READ.as_mapping
_map = READ.mapping
_list = READ.list
_opt_int = READ.opt_whole
_str = READ.text


class LedgerChanges(TypedDict, total=False):
    """The fields ``SideLedger.evolve`` may change (every field, with its type)."""

    side: SideId
    points: Mapping[str, Decimal]
    purchases: tuple[PurchaseLine, ...]
    fortifications: tuple[FortificationLine, ...]
    roster: tuple[RosterLine, ...]
    elr: int | None
    san: int | None
    items: tuple[ItemLine, ...]


_TUPLES = frozenset({"purchases", "fortifications", "roster", "items"})


def _frozen_points(points: Mapping[str, Amount]) -> Mapping[str, Decimal]:
    return frozen_mapping({str(k): to_decimal(v) for k, v in points.items()})


def _replaced[L](lines: tuple[L, ...], first: int, new: L, same: Callable[[L], bool]) -> tuple[L, ...]:
    """``lines`` with ``new`` in place of the line at ``first`` and of every later line ``same`` picks."""
    rest = lines[first + 1:]
    for other in rest:
        if same(other):  # a second line with the same key (not written by the engine): replace it too, as before
            rest = tuple(new if same(r) else r for r in rest)
            break
    return (*lines[:first], new, *rest)


@unshadowed
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
        object.__setattr__(self, "points", _frozen_points(self.points))
        for name in ("purchases", "fortifications", "roster", "items"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def evolve(self, **changes: Unpack[LedgerChanges]) -> SideLedger:
        """``dataclasses.replace``, freezing only the changed fields: the others are frozen already (same result)."""
        values: dict[str, object] = self.__dict__.copy()
        for name, value in changes.items():
            if name not in values:
                raise TypeError(f"SideLedger has no field {name!r}")
            if name == "points":
                value = _frozen_points(value)  # type: ignore[arg-type]
            elif name in _TUPLES:
                value = tuple(value)  # type: ignore[arg-type]
            values[name] = value
        new = object.__new__(type(self))
        object.__setattr__(new, "__dict__", values)
        return new

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
        count = 0
        for p in self.purchases:  # a plain loop: asked for each RG of every order checked
            if p.rg_id in wanted and not p.initial_ob and (date_id is None or p.date_id == date_id):
                count += 1
        return count

    def bought_counts(self, rg_id: str, date_id: str) -> tuple[int, int]:
        """``purchased_count`` of one RG on a date and in the CG, in one pass: (on the date, in the CG) (2.5185, 2.5186)."""
        on_date = in_cg = 0
        for p in self.purchases:
            if p.rg_id == rg_id and not p.initial_ob:
                in_cg += 1
                if p.date_id == date_id:
                    on_date += 1
        return on_date, in_cg

    def items_on(self, date_id: str, kind: str) -> int:
        """How many items of a kind (patrol, attack-option …) were bought on a date."""
        total = 0
        for i in self.items:
            if i.date_id == date_id and i.kind == kind:
                total += i.quantity
        return total

    @property
    def next_line(self) -> int:
        """The next RG Purchase Record line number."""
        purchases = self.purchases
        if not purchases:
            return 1
        most = purchases[0].line
        for p in purchases:  # ``max(…)`` as a plain loop
            if p.line > most:
                most = p.line
        return most + 1

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
        return self.evolve(points=points)

    def adjust(self, currency: str, delta: Amount) -> SideLedger:
        """The ledger with a currency changed by delta."""
        return self.with_points(currency, self.balance(currency) + to_decimal(delta))

    def with_roster_line(self, line: RosterLine, **changes: Unpack[LedgerChanges]) -> SideLedger:
        """The ledger with a date's roster line replaced (or appended), and ``changes`` made in the same copy."""
        if "roster" in changes:
            raise TypeError("with_roster_line writes the roster itself; change other fields only")
        date_id, roster = line.date_id, self.roster
        for index, row in enumerate(roster):
            if row.date_id == date_id:
                changes["roster"] = _replaced(roster, index, line, lambda r: r.date_id == date_id)
                return self.evolve(**changes)
        changes["roster"] = (*roster, line)
        return self.evolve(**changes)

    def with_purchase(self, line: PurchaseLine) -> SideLedger:
        """The ledger with one RG Purchase Record line replaced (same number) or appended."""
        number, purchases = line.line, self.purchases
        for index, p in enumerate(purchases):
            if p.line == number:
                return self.evolve(purchases=_replaced(purchases, index, line, lambda q: q.line == number))
        return self.evolve(purchases=(*purchases, line))

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


if set(LedgerChanges.__annotations__) != {f.name for f in fields(SideLedger)}:
    raise TypeError("LedgerChanges must list every field of SideLedger")  # the two lists drift apart otherwise
