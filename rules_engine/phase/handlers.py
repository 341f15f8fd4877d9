"""The automatic step handlers: weather, SAN adjustment, ELR change, LVP, announcements, secret rolls."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Protocol

from rules_engine import replenishment, roll_questions
from rules_engine.dice import Dice
from rules_engine.events import JSON, Event, EventKind, roll_event
from rules_engine.model import Cell, Step
from rules_engine.phase.facts import applies, facts_for, side_settings
from rules_engine.phase.needs import lvp_recorders
from rules_engine.phase.program import Events
from rules_engine.phase.rolling import (
    Resolution,
    result_events,
    roll_dice,
    roll_on,
    roll_visibility,
    step_table,
    table_column,
)
from rules_engine.phase.tracks import (
    fold_all,
    fold_san,
    ledger_of,
    main_currency,
    set_track,
    set_tracks,
    with_books,
    with_records,
)
from rules_engine.progress import Progress
from rules_engine.replenishment import balance_for
from rules_engine.rg_rolls import RollMissingValueError, roll_for_purchase
from rules_engine.state import (
    CampaignState,
    SystemLike,
    side_ids,
    side_name,
)
from rules_engine.tables import AppliedModifier, Fact
from rules_engine.vocabulary import DiceKind, StepAction, Visibility


class Handler(Protocol):
    """An automatic step resolved for both sides at once."""

    def __call__(self, system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress: ...


def _weather(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """Weather from the calendar (RR 2.517, PL 2.2, PHD C5.30)."""
    entry = system.calendar[state.date_index]
    payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref}
    for name, cell in (("ec", entry.ec), ("weather", entry.weather), ("moon", entry.moon), ("wind", entry.wind)):
        payload[name] = cell.text if isinstance(cell, Cell) else None
    payload["night"] = entry.night
    if payload["weather"] is None and step.params.get("weather_unset") == "table-or-board":
        return _weather_unset(system, state, step, dice, payload)
    event = Event(EventKind.WEATHER, Visibility.PUBLIC, None, payload)
    return Progress(with_records(state, event), (event,))


def _weather_unset(
    system: SystemLike, state: CampaignState, step: Step, dice: Dice, payload: dict[str, JSON]
) -> Progress:
    """ER 1.517 / KGP 8.617 (CG3): the card's calendar gives no weather for this CG Date — a public roll on the
    card's random weather table when the card supplies one (the step's ``tables:``), else the board decides."""
    if not step.tables:
        payload["board"] = True
        payload["text"] = (f"The card gives no weather for {state.date_id}: determine it at the board from the "
                           f"printed {step.ref} chart (or the optional random weather the players agreed to use).")
        event = Event(EventKind.WEATHER, Visibility.PUBLIC, None, payload)
        return Progress(with_records(state, event), (event,))
    table = system.table(step.tables[0])
    roller = system.sides[0].id
    roll = roll_dice(dice, table, f"{step.ref} {step.name} ({table.name})", roller, Visibility.PUBLIC)
    resolution = roll_on(table, roll, table_column(system, step, table, roller), {}, {}, {})
    state, rolled = result_events(state, step, roller, resolution, Visibility.PUBLIC)
    payload["weather"] = resolution.cell.text
    payload["rolled"] = table.name
    event = Event(EventKind.WEATHER, Visibility.PUBLIC, None, payload)
    return Progress(with_records(state, event), (*rolled, event))


def _number(params: Mapping[str, object], key: str, field_: str) -> int | None:
    part = params.get(key)
    value = part.get(field_) if isinstance(part, Mapping) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


SanAdjust = Callable[[str, int], tuple[int, dict[str, JSON], Events]]
"""One side's SAN adjustment: the new SAN, what the event adds (dr, drm, final …) and the rolls made."""


def _each_san(
    system: SystemLike, state: CampaignState, step: Step, acts: Callable[[int], bool], adjust: SanAdjust,
    note: Mapping[str, JSON] | None = None,
) -> Progress:
    """The SAN Adjustment loop shared by RR 2.5122 and PL 3.51 / PHD C5.25: each side with a known SAN, once.

    A SAN increase bought in secret (RR M2, not announced yet) counts for the check; it is folded in (made public) only
    when this public check ``acts`` on the SAN with it, else the side's SAN is left alone and its secret kept."""
    events: list[Event] = []
    for side in side_ids(system):
        san = state.tracks.get(side, {}).get("san")
        if san is None:
            continue
        true = san + ledger_of(system, state, side).san_pending
        if true != san and acts(true):
            state = fold_san(system, state, side)
            san = true
        new, extra, rolls = (san, {}, ()) if true != san else adjust(side, san)
        events.extend(rolls)
        payload: dict[str, JSON] = {"date": state.date_id, "step": step.ref, "side": side, "before": san, **extra,
                                    "after": new, **(note or {})}
        event = Event(EventKind.SAN_ADJUSTED, Visibility.PUBLIC, None, payload)
        state = set_track(state, side, "san", new, None, main_currency(system), event)  # one copy of the state
        events.append(event)
    return Progress(state, tuple(events))


def _san_dr(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """2.5122 SAN Adjustment: < 2 raised to 2; > 5 a dr with +drm (SAN − 4), Final dr > 5 reduces it by two."""
    params = step.params
    below, to = _number(params, "raise", "below"), _number(params, "raise", "to")
    above, final_above, by = _number(params, "roll", "above"), _number(params, "reduce", "final_above"), _number(params, "reduce", "by")
    roll_part = params.get("roll")
    drm_text = str(roll_part.get("drm", "")) if isinstance(roll_part, Mapping) else ""
    match = re.fullmatch(r"\s*SAN\s*-\s*(\d+)\s*", drm_text)
    caution: dict[str, JSON] = (
        {"caution": str(params.get("note") or "verify against your printed rules")} if params.get("verify") else {}
    )

    def acts(san: int) -> bool:
        return (below is not None and san < below) or (above is not None and san > above and bool(match))

    def adjust(side: str, san: int) -> tuple[int, dict[str, JSON], Events]:
        if below is not None and to is not None and san < below:
            return to, {}, ()
        if above is not None and san > above and match and final_above is not None and by is not None:
            roll = dice.roll(_dice_kind(roll_part), f"{step.ref} SAN adjustment dr ({side_name(system, side)})", side)
            drm = san - int(match.group(1))
            final = roll.total + drm
            rolled = roll_event(roll, Visibility.PUBLIC, None, drm=drm, final=final)
            return (san - by if final > final_above else san), {"dr": roll.total, "drm": drm, "final": final}, (rolled,)
        return san, {}, ()

    return _each_san(system, state, step, acts, adjust, caution)


def _dice_kind(part: object, default: DiceKind = DiceKind.dr) -> DiceKind:
    """The dice kind named in a params mapping (``dice: dr`` / ``dice: DR``)."""
    text = part.get("dice") if isinstance(part, Mapping) else None
    return DiceKind.DR if text == "DR" else DiceKind.dr if text == "dr" else default


def _rule_params(system: SystemLike, step: Step) -> Mapping[str, object]:
    """The special rule a step applies: ``params.rule`` by id, else the rule with the step's ref."""
    wanted = step.params.get("rule")
    for rule in system.special_rules:
        if rule.id == wanted or (wanted is None and rule.ref == step.ref and rule.params):
            return rule.params
    return {}


def _clamp_san(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """PL 3.51 / PHD C5.25 SAN Adjustment: below the minimum raised to it, above the maximum reduced to it."""
    params = _rule_params(system, step)
    low, high = params.get("min"), params.get("max")

    def clamped(san: int) -> int:
        raised = max(san, low) if isinstance(low, int) else san
        return min(raised, high) if isinstance(high, int) else raised

    return _each_san(system, state, step, lambda san: clamped(san) != san,
                     lambda side, san: (clamped(san), {}, ()))


def _table_roll(
    system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice
) -> tuple[CampaignState, Events, Resolution | None]:
    """One side's roll on the step's table, DRM from the records (None when the step does not apply to it)."""
    if not applies(system, step, side):
        return state, (), None
    add = step.params.get("add")
    ignored = step.params.get("ignore_facts")
    table = step_table(system, step, side)
    column = table_column(system, step, table, side)
    visibility = roll_visibility(step, table)
    roll = roll_dice(dice, table, f"{step.ref} {step.name} ({table.name}, {side_name(system, side)})", side, visibility)
    extra = (AppliedModifier(f"+{add} ({step.ref})" if add > 0 else f"{add} ({step.ref})", add, -1, "step"),) \
        if isinstance(add, int) and add else ()
    resolution = roll_on(table, roll, column, facts_for(system, state, side), {}, side_settings(system, side),
                         extra, ignored if isinstance(ignored, list) else ())
    state, events = result_events(state, step, side, resolution, visibility)
    return state, events, resolution


def _roll_per_side(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> Progress:
    """A roll per side on the step's table, DRM from the records (PL 3.44/3.45, PHD C5.23)."""
    state, events, _ = _table_roll(system, state, step, side, dice)
    return Progress(state, events)


def _elr_change(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> Progress:
    """PL 3.47 ELR Loss/Gain: a DR per side; +1 to a maximum, −1 to a minimum; a reduced 5 never returns."""
    state, rolled, resolution = _table_roll(system, state, step, side, dice)
    events = list(rolled)
    elr = state.tracks.get(side, {}).get("elr")
    if resolution is None or elr is None:
        return Progress(state, tuple(events))
    limits = _rule_params(system, step)
    low, high = limits.get("min"), limits.get("max")
    change = resolution.cell.number
    new = elr + int(change)
    if change > 0 and isinstance(high, int):
        new = elr if elr >= high else min(new, high)
    if change < 0 and isinstance(low, int):
        new = max(new, low)
    state = set_track(state, side, "elr", new, None, main_currency(system))
    event = Event(EventKind.ELR_CHANGED, Visibility.PUBLIC, None,
                  {"date": state.date_id, "step": step.ref, "side": side, "before": elr, "after": new})
    state = with_records(state, event)
    events.append(event)
    return Progress(state, tuple(events))


def _replenish(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> Progress:
    """RR 2.516 (Base Number − secret DR), PL 2.1 / PHD C5.29 (secret DR on the table): rules_engine.replenishment."""
    facts = facts_for(system, state, side) if replenishment.reads_facts(system) else None  # RR 2.516 reads none
    ledger, events = replenishment.replenish(system, ledger_of(system, state, side), side, state.date_id, dice,
                                             facts=facts)
    return Progress(with_books(state, side, ledger, *events), events)


def _record_lvp(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """RR 2.5032–.5033: Current-LVP Total (from the results, else as before: no scenario changed control [interp]);
    CG-LVP Total = Current-LVP Total + the preceding date's CG-LVP Total."""
    record = state.history[-1] if state.history else None
    events: list[Event] = []
    for side in lvp_recorders(system, step):
        tracks = state.tracks.get(side, {})
        current = record.result.lvp.get(side) if record and record.result and side in record.result.lvp else tracks.get("lvp")
        if current is None:
            continue
        cg = current + tracks.get("cg_lvp", 0) if step.params.get("cumulative", True) else current
        day = record.date_id if record else state.date_id
        event = Event(EventKind.LVP_RECORDED, Visibility.PUBLIC, None, {
            "date": day, "step": step.ref, "side": side,
            "current_lvp": current, "cg_lvp": cg, "carried": not (record and record.result is not None)})
        state = set_tracks(state, side, {"lvp": current, "cg_lvp": cg}, day, main_currency(system), event)  # one copy
        events.append(event)
    return Progress(state, tuple(events))


def _announce(system: SystemLike, state: CampaignState, step: Step, dice: Dice) -> Progress:
    """RR 2.525 / PL 2.4: each side announces its SAN (and ELR) — public; a SAN bought in secret is announced now."""
    state, _ = fold_all(system, state)
    payload: dict[str, JSON] = {
        "date": state.date_id, "step": step.ref,
        "tracks": {s: {k: v for k, v in state.tracks.get(s, {}).items() if k in ("san", "elr")} for s in state.sides},
    }
    event = Event(EventKind.ANNOUNCED, Visibility.PUBLIC, None, payload)
    return Progress(with_records(state, event), (event,))


def _purchase_rolls(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> Progress:
    """RR 2.519 / PL 2.35–2.36 / PHD C5.33–C5.34: the secret rolls of each RG line bought (or OB-given) this date."""
    ledger = ledger_of(system, state, side)
    mine: list[Event] = []
    facts: dict[str, Fact] | None = None  # the same for every line (read from ``state``, which the loop keeps)
    for line in ledger.purchases:
        if line.date_id != state.date_id or line.rolled:
            continue
        if facts is None:
            facts = facts_for(system, state, side)
        try:
            rolled, evs = roll_for_purchase(system, line, side, dice, ledger=ledger, facts=facts,
                                            answers=roll_questions.answers_for(system, state, step, side, line))
        except RollMissingValueError as error:
            error.events = (*mine, *error.events)  # the earlier lines' rolls are kept with the lost one
            raise
        ledger = ledger.with_purchase(rolled)
        mine.extend(evs)
    return Progress(with_books(state, side, ledger, *mine), tuple(mine))


def _secret_roll(system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice) -> Progress:
    """KGP 8.616: a side's Secret DR, halved (FRD) for the side the 8.31 Balance names; seen by its owner only. What
    the DR determines is not in the seed: the players apply it to their records."""
    visibility = roll_visibility(step, None)
    roll = dice.roll(_dice_kind(step.params, DiceKind.DR), f"{step.ref} {step.name} ({side_name(system, side)})",
                     side, side)
    balance = balance_for(system, step, side)
    final = balance.apply(roll.total) if balance is not None else roll.total
    extra: dict[str, JSON] = {}
    modifiers: list[JSON] = []
    text = f"{step.ref}: {side_name(system, side)} Secret {roll.kind} {roll.total}"
    if balance is not None:
        modifiers = [balance.modifier(side_name(system, side))]
        extra = {"balance": balance.recorded(roll.total)}
        text += f", {balance.words} by the {balance.ref} CG Balance = {final}"
    rolled = roll_event(roll, visibility, side, rule=step.ref, original=roll.total, modifiers=modifiers, final=final,
                        result=str(final), **extra)
    event = Event(EventKind.SECRET_DR, visibility, side, {"date": state.date_id, "step": step.ref, "side": side,
                                                  "original": roll.total, "final": final, **extra, "text": text})
    return Progress(with_records(state, rolled, event), (rolled, event))


class Part(Protocol):
    """One side's part of an automatic step that rolls (run per side, so one side's lost value pauses only it)."""

    def __call__(
        self, system: SystemLike, state: CampaignState, step: Step, side: str, dice: Dice
    ) -> Progress: ...


PARTS: Mapping[StepAction, Part] = {
    StepAction.ELR_CHANGE: _elr_change,
    StepAction.ROLL_PER_SIDE: _roll_per_side,
    StepAction.REPLENISH_BASE_MINUS_DR: _replenish,
    StepAction.REPLENISH_FROM_TABLE: _replenish,
    StepAction.RG_STRENGTH_WEAPONS_LEADERS: _purchase_rolls,
    StepAction.ROLL_PER_PURCHASE: _purchase_rolls,
    StepAction.SECRET_ROLL: _secret_roll,
}


AUTO_HANDLERS: Mapping[StepAction, Handler] = {
    StepAction.WEATHER_FROM_CALENDAR: _weather,
    StepAction.NEW_DATE_AND_SAN: _san_dr,
    StepAction.CLAMP_SAN: _clamp_san,
    StepAction.RECORD_LVP: _record_lvp,
    StepAction.BEGIN_PLAY: _announce,
    StepAction.REVEAL_ATTACK_OPTIONS: _announce,
}
