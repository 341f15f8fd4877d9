"""Secret points replenishment: RR 2.516 (Base Number − DR), PL 2.1 (2.12 table by Intensity), PHD C5.29 (by side);
the KGP 8.31 Balance that halves one side's 8.616 Secret DR (``Balance``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_engine.dice import Dice
from rules_engine.errors import MissingValueError, RulesError
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.ledger import RosterLine, SideLedger, amount_text, to_decimal
from rules_engine.model import CalendarEntry, Step, System
from rules_engine.purchases import int_settings, side_setting
from rules_engine.system_memo import SystemMemo
from rules_engine.tables import Fact, MissingFactError, needed_facts, resolve, side_facts
from rules_engine.vocabulary import DiceKind, SideId, Visibility

__all__ = ["Balance", "ReplenishmentMissingValueError", "balance_for", "derived_facts", "reads_facts", "replenish", "replenishment_currency", "replenishment_step"]

ACTIONS = ("replenish-base-minus-dr", "replenish-from-table")


class ReplenishmentMissingValueError(MissingValueError):
    """The replenishment roll fell on a lost cell; ``events`` hold the roll already made (it must be kept)."""

    def __init__(self, message: str, events: tuple[Event, ...]) -> None:
        super().__init__(message)
        self.events = events


@dataclass(frozen=True)
class Balance:
    """KGP 8.31 CG Balance on a secret DR: the DR of the side the setting names is halved, fractions rounded as the
    step's ``rounding`` says (``down`` = FRD, as 8.31 prints; ``up`` = FRU)."""

    setting: str
    ref: str
    rounding: str

    def apply(self, dr: int) -> int:
        """The halved DR (8.31: "halved (FRD)")."""
        return dr // 2 if self.rounding == "down" else -(-dr // 2)

    @property
    def words(self) -> str:
        """The halving in words: "halved (FRD)"."""
        return f"halved ({'FRD' if self.rounding == 'down' else 'FRU'})"

    def modifier(self, side_name: str) -> dict[str, JSON]:
        """The halving as a dice-log modifier line (not an added DRM)."""
        return {"reason": f"{self.ref} CG Balance: {side_name} DR {self.words}", "value": "÷2", "source": "balance"}

    def recorded(self, original: int) -> dict[str, JSON]:
        """What a roll's records keep of the halving: the rule, the setting, the rounding, original and final DR."""
        return {"rule": self.ref, "setting": self.setting, "rounding": self.rounding, "original": original,
                "final": self.apply(original)}


def balance_for(system: System, step: Step, side: SideId) -> Balance | None:
    """The Balance on ``side``'s roll at ``step``, from the step's params (``balance_setting``, ``balance_halves``,
    ``rounding``): when the setting's value is this side's id; None otherwise (``none``, the other side, no params)."""
    params = step.params
    setting = params.get("balance_setting")
    if not isinstance(setting, str) or params.get("balance_halves") is not True:
        return None
    if side_setting(system, setting, side) != side:
        return None
    ref = next((s.ref for s in system.settings if s.id == setting and s.ref), None) or step.ref
    return Balance(setting, ref, str(params.get("rounding") or "down"))


def replenishment_step(system: System) -> Step:
    """The system's replenishment step (RR 2.516, PL 2.1, PHD C5.29)."""
    for step in system.steps:
        if step.action in ACTIONS:
            return step
    raise MissingValueError(f"{system.id}: the points replenishment rule is not in the rule text; supply it in a CG Card")


def reads_facts(system: System) -> bool:
    """Whether ``replenish`` reads the caller's DRM facts: a replenishment table does (PL 2.1, PHD C5.29), RR 2.516's
    Base Number − DR does not (so the caller need not gather them)."""
    return _READS_FACTS(system, None)


def _reads_facts(system: System, _: None) -> bool:
    for step in system.steps:  # the step ``replenishment_step`` finds
        if step.action in ACTIONS:
            return step.action != "replenish-base-minus-dr"
    return False  # no replenishment step: ``replenish`` refuses before it reads anything


_READS_FACTS = SystemMemo(_reads_facts).lookup  # per System: its steps never change


def replenishment_currency(system: System, step: Step) -> str | None:
    """The currency a replenishment step credits: its ``currency``, else the system's first currency (None without)."""
    currency = step.params.get("currency")
    if isinstance(currency, str) and currency:
        return currency
    return system.currencies[0].code if system.currencies else None


def _previous(system: System, entry: CalendarEntry) -> CalendarEntry | None:
    """The CG Date before this one in the calendar (None for the first)."""
    earlier = [e for e in system.calendar if e.index < entry.index]
    return max(earlier, key=lambda e: e.index) if earlier else None


def derived_facts(system: System, ledger: SideLedger, date_id: str) -> dict[str, Fact]:
    """Facts for replenishment DRM taken from the records: Attack previous (+1), CVP suffered previous (−1 per 10)."""
    entry = system.calendar_entry(date_id)
    previous = _previous(system, entry)
    facts: dict[str, Fact] = {}
    if previous is None:
        return facts
    line = ledger.roster_line(previous.id)
    bought = ledger.items_on(previous.id, "attack-option") > 0
    chose = line is not None and (line.initiative or "").casefold() == "attack"
    facts["own_attack_previous"] = bought or chose
    if line is not None and line.cvp_suffered is not None:
        facts["cvp_suffered_previous"] = line.cvp_suffered
    return facts


def _record(
    ledger: SideLedger, date_id: str, currency: str, amount: int | float, payload: dict[str, JSON]
) -> tuple[SideLedger, Event]:
    """Points added to the side's books and to the date's CG Roster line, as a secret event."""
    before = ledger.balance(currency)
    left = before + to_decimal(amount)  # ``adjust`` and ``with_roster_line`` in one new ledger
    line = ledger.roster_line(date_id) or RosterLine(date_id, start=before, elr=ledger.elr, san=ledger.san)
    ledger = ledger.evolve(points={**ledger.points, currency: left}).with_roster_line(
        line.evolve(replenished=to_decimal(amount), left=left))
    event = Event(EventKind.REPLENISHED, Visibility.CG_END, ledger.side, {
        "currency": currency, "amount": amount_text(to_decimal(amount)), "date_id": date_id, **payload,
    })
    return ledger, event


def replenish(
    system: System,
    ledger: SideLedger,
    side: SideId,
    date_id: str,
    dice: Dice,
    *,
    facts: Mapping[str, Fact] | None = None,
) -> tuple[SideLedger, tuple[Event, ...]]:
    """Replenish a side's points for a date (the amount and its roll stay secret until CG end)."""
    if ledger.side != side:
        raise RulesError(f"this ledger belongs to {ledger.side!r}, not {side!r}")
    step = replenishment_step(system)
    entry = system.calendar_entry(date_id)
    currency = replenishment_currency(system, step) or ""
    if step.action == "replenish-base-minus-dr":
        return _base_minus_dr(system, ledger, side, step, entry, currency, dice)
    return _from_table(system, ledger, side, step, entry, currency, dice, facts)


def _base_minus_dr(
    system: System, ledger: SideLedger, side: SideId, step: Step, entry: CalendarEntry, currency: str, dice: Dice
) -> tuple[SideLedger, tuple[Event, ...]]:
    """RR 2.516: the side's Base Number minus a DR (the DR halved by the KGP 8.31 Balance where it applies)."""
    cell = entry.base_numbers.get(side)
    if cell is None or cell.missing:
        note = cell.note if cell is not None else "not given"
        raise MissingValueError(
            f"{system.id}: the {currency} Base Number of {system.side(side).name} for {entry.id} is lost or not given "
            f"({note}); supply it in a CG Card ({step.ref})"
        )
    base = int(cell.number)
    if not entry.replenishment_roll:
        ledger, event = _record(ledger, entry.id, currency, base, {
            "rule": step.ref, "base": base, "dr": None,
            "text": f"{step.ref}: no DR on {entry.id}; {currency} Base Number {base}",
        })
        return ledger, (event,)
    kind = DiceKind(str(step.params.get("dice", "DR")))
    roll = dice.roll(kind, f"{step.ref} {currency} Replenishment {kind} — {entry.id}", side, stream=side)
    balance = balance_for(system, step, side)
    final = balance.apply(roll.total) if balance is not None else roll.total
    amount = base - final
    halving: dict[str, JSON] = {}
    modifiers: list[JSON] = []
    text = f"{step.ref}: Base Number {base} − DR {roll.total} = {amount} {currency}"
    if balance is not None:  # KGP 8.31: the original DR, the halving and the final DR are all recorded
        modifiers = [balance.modifier(system.side(side).name)]
        halving = {"balance": balance.recorded(roll.total)}
        text = (f"{step.ref}: DR {roll.total} {balance.words} by the {balance.ref} CG Balance = {final}; "
                f"Base Number {base} − {final} = {amount} {currency}")
    rolled = roll_event(roll, Visibility.CG_END, side, rule=step.ref, original=roll.total, modifiers=modifiers,
                        final=final, result=str(amount), base=base, **halving)
    ledger, event = _record(ledger, entry.id, currency, amount, {
        "rule": step.ref, "base": base, "dr": final, **halving, "text": text,
    })
    return ledger, (rolled, event)


def _from_table(
    system: System, ledger: SideLedger, side: SideId, step: Step, entry: CalendarEntry, currency: str, dice: Dice,
    facts: Mapping[str, Fact] | None,
) -> tuple[SideLedger, tuple[Event, ...]]:
    """PL 2.1 (2.12 table by Intensity), PHD C5.29: the points a replenishment table gives the side."""
    params = step.params
    if entry.initial or not entry.replenishment_roll:
        return ledger, (Event(EventKind.REPLENISHMENT_SKIPPED, Visibility.CG_END, side, {
            "rule": step.ref, "date_id": entry.id, "currency": currency,
            "text": f"{step.ref}: no {currency} replenishment roll for {entry.id} (Initial)",
        }),)
    skip = params.get("skip_if_setting")
    if isinstance(skip, str) and side_setting(system, skip, side) is True:
        return ledger, (Event(EventKind.REPLENISHMENT_SKIPPED, Visibility.CG_END, side, {
            "rule": step.ref, "date_id": entry.id, "currency": currency,
            "text": f"{step.ref}: {currency} are provided on the CG Card; no DR",
        }),)
    table = system.table(str(params.get("table")))
    column: str | None = None
    column_setting = params.get("column_setting")
    if isinstance(column_setting, str):
        value = side_setting(system, column_setting, side)
        if value is None:
            raise MissingValueError(
                f"{system.id}: the {column_setting} setting (the {table.name} column) is on the CG Card; "
                f"supply it in a CG Card ({step.ref})"
            )
        column = str(value)
    elif params.get("column") == "own-side":
        column = side
    given: dict[str, Fact] = dict(side_facts(system, side))
    given.update(derived_facts(system, ledger, entry.id))
    given.update(facts or {})
    lacking = [f for f in needed_facts(table, column) if f not in given and not f.startswith(("side_is:", "nationality_is:"))]
    if lacking:
        raise MissingFactError(
            f"{table.id} ({step.ref}): the DRM need {', '.join(lacking)} for {system.side(side).name} on {entry.id}; "
            "record the previous scenario's result first (nothing was rolled)"
        )
    roll = dice.roll(table.dice, f"{step.ref} {table.name} {table.dice} — {entry.id}", side, stream=side)
    try:
        result = resolve(table, roll, column=column, facts=given, settings=int_settings(system, side))
    except MissingValueError as error:
        made = roll_event(roll, Visibility.CG_END, side, rule=step.ref, table=table.id, column=column,
                          original=roll.total, result=None, error=str(error))
        raise ReplenishmentMissingValueError(str(error), (made,)) from error
    amount = result.cell.number
    modifiers: list[JSON] = [{"reason": m.reason, "value": m.value} for m in result.modifiers]
    rolled = roll_event(roll, Visibility.CG_END, side, rule=step.ref, table=table.id, column=result.column,
                        original=result.original, modifiers=modifiers, final=result.final, result=result.cell.text)
    ledger, event = _record(ledger, entry.id, currency, amount, {
        "rule": step.ref, "dr": result.final,
        "text": f"{step.ref}: final DR {result.final} on {table.column(column).label if column else table.name} "
                f"= {result.cell.text} {currency}",
    })
    return ledger, (rolled, event)
