"""Public rolls made at the board on request: free rolls at an on-board step (RR 2.504 1TC, NTC, Shock, Bog) and the
scenario's own rolls (PL CG2 / KGP CG23 / ER CG21 Game End dr, KGP CG16 / ER CG13 Sniper choice dr).

* **Where.** A step offers the dice kinds of its ``board_rolls`` (data); without it, an on-board step (or a
  ``free-rolls`` step) whose rolls are not secret offers DR and dr, any other step none. A step whose rolls are secret
  never does: the opponent is at the board and sees these rolls. The scenario being played (the Initial Scenario or a
  scenario) always offers DR and dr, and the system's ``scenario_rolls``.
* **Rolls.** Every roll is made on the PUBLIC stream (numbered gap-free with the other public rolls), is one ``roll``
  event seen by both sides, and binds the player's purpose text into the committed message (rules_engine.dice).
* **Map Groups (KGP 8.2).** With one CG scenario per Map Group in play, a roll made in the scenario is for one Map
  Group's scenario (named, or the only one in play; not one both sides marked finished): its purpose and its event
  record the Map Group (KGP CG23: "A Turn Record Chart is printed on one map of each Map Group" — each scenario makes
  its own Game End dr).
* **Log.** The latest rolls made there are kept with the state (``board_log``, both sides; reset with the step; the
  latest of each Map Group's scenario), and how many each side made (``board_counts``: a form posted twice is
  recognised by it).
"""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.board_base import (
    COUNT_MAX,
    LOG_SIZE,
    OPS,
    PURPOSE_MAX,
    THRESHOLD_RANGE,
    TURN_MAX,
    board_kinds,
    board_label,
    check_where,
    clean_purpose,
    log_json,
    logged,
    on_group,
    open_map_groups,
    scenario_group,
    scenario_rolls,
    step_board_kinds,
    where,
)
from rules_engine.dice import PUBLIC_STREAM, Dice, Roll
from rules_engine.errors import MissingValueError, SubmissionError
from rules_engine.events import JSON, Event, roll_event
from rules_engine.model import Cell, Column, DiceTable, MapGroup, Row, ScenarioRoll, Step
from rules_engine.phase.facts import facts_for, side_settings
from rules_engine.phase.order import initial_roles
from rules_engine.phase.program import settle
from rules_engine.phase.rolling import roll_on
from rules_engine.progress import Progress
from rules_engine.purchases import rule_rg_ids
from rules_engine.state import INITIAL_SCENARIO, CampaignState, SystemLike, check_side, side_name
from rules_engine.tables import AppliedModifier, modifiers_for
from rules_engine.vocabulary import DiceKind, Visibility


def validate_board_roll(
    system: SystemLike, state: CampaignState, side: str, at: str, kind: object, count: object, purpose: object,
    map_group: object = None,
) -> tuple[DiceKind, int, str, MapGroup | None]:
    """The roll asked for, checked (SubmissionError naming what is allowed; nothing is rolled); with Map Groups in
    play, the Map Group whose scenario it is for (KGP 8.2)."""
    state = settle(system, state)
    check_where(system, state, side, at)
    offered = board_kinds(system, state)
    if not offered:
        raise SubmissionError(f"No dice are rolled at the board at {at} (its rolls are made by the app, or secret).")
    names = [str(k) for k in offered]
    if not isinstance(kind, str) or kind not in names:
        raise SubmissionError(f"Choose the dice: {' or '.join(names)} (got {kind!r}).")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= COUNT_MAX:
        raise SubmissionError(f"How many rolls: a whole number from 1 to {COUNT_MAX} (got {count!r}).")
    text = clean_purpose(purpose)
    return DiceKind(kind), count, text, scenario_group(system, state, map_group)



def board_roll(
    system: SystemLike, state: CampaignState, side: str, at: str, kind: object, count: object, purpose: object,
    dice: Dice, map_group: object = None,
) -> Progress:
    """``count`` public DR/dr for ``purpose`` at the current step or scenario (RR 2.504 "1TC per Encircled unit");
    with Map Groups in play, for the scenario on ``map_group`` (KGP 8.2), recorded with each roll."""
    dice_kind, times, text, group = validate_board_roll(system, state, side, at, kind, count, purpose, map_group)
    state = settle(system, state)
    label = board_label(system, state, group)
    extra: dict[str, JSON] = {"map_group": group.id} if group is not None else {}
    events: list[Event] = []
    for index in range(1, times + 1):
        of = f" ({index} of {times})" if times > 1 else ""
        roll = dice.roll(dice_kind, f"{label}: {text}{of}", side, PUBLIC_STREAM)
        events.append(roll_event(roll, Visibility.PUBLIC, None, date=state.date_id, step=at, board=True, text=text,
                                 index=index, of=times, **extra))
    return Progress(logged(state, side, tuple(events)), tuple(events))


# ---------------------------------------------------------------------------------------------------------------------
# The scenario's own rolls (system.scenario_rolls)
# ---------------------------------------------------------------------------------------------------------------------


def _drm_table(roll: ScenarioRoll) -> DiceTable:
    """The roll's modifiers as a one-cell table, so tables.modifiers_for applies them as for any table."""
    return DiceTable(roll.id, roll.ref, roll.name, roll.dice, (Column("result", "Result"),),
                     (Row(None, None, None, (Cell(""),)),), modifiers=roll.modifiers)


def questions(system: SystemLike, roll: ScenarioRoll) -> tuple[tuple[int, object], ...]:
    """The modifiers a player answers (``ask:``), by index: the roll's own, or its table's."""
    table = system.table(roll.table) if roll.table else _drm_table(roll)
    return tuple((i, m) for i, m in enumerate(table.modifiers) if m.ask is not None)


def compare(final: int, op: str, threshold: int) -> bool:
    """Whether a final roll meets a threshold (``<=`` … as the data write it)."""
    return {"<=": final <= threshold, "<": final < threshold, ">=": final >= threshold, ">": final > threshold}[op]


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SubmissionError(f"{what}: a whole number from {low} to {high} (got {value!r}).")
    return value


def validate_scenario_roll(
    system: SystemLike, state: CampaignState, side: str, roll_id: str, threshold: object = None, turn: object = None,
    map_group: object = None,
) -> tuple[ScenarioRoll, int | None, int | None, MapGroup | None]:
    """The scenario roll asked for, checked before anything is rolled (SubmissionError citing the rule); with Map
    Groups in play, the Map Group whose scenario makes it (KGP 8.2, CG23: a Turn Record Chart on each Map Group)."""
    state = settle(system, state)
    check_where(system, state, side, where(state))
    offered = scenario_rolls(system, state)
    found = next((r for r in offered if r.id == roll_id), None)
    if found is None:
        allowed = ", ".join(r.id for r in offered) or "none now"
        raise SubmissionError(f"Unknown scenario roll {roll_id!r} (allowed: {allowed}).")
    if found.sides and side not in found.sides:
        names = " or ".join(side_name(system, s) for s in found.sides)
        raise SubmissionError(f"{found.ref} {found.name}: made by the {names} side only.", found.ref)
    _check_roller(system, state, side, found)
    number = None
    if found.threshold is not None:
        if threshold is None or threshold == "":
            raise SubmissionError(f"{found.ref} {found.name}: type {found.threshold.label} (a whole number from "
                                  f"{THRESHOLD_RANGE[0]} to {THRESHOLD_RANGE[1]}).", found.ref)
        number = _whole(threshold, f"{found.ref} {found.name}: {found.threshold.label}", *THRESHOLD_RANGE)
    game_turn = None
    if turn is not None and turn != "":
        game_turn = _whole(turn, f"{found.ref} {found.name}: the Game Turn", 1, TURN_MAX)
    if found.from_turn is not None:
        if game_turn is None:
            raise SubmissionError(f"{found.ref} {found.name}: type the Game Turn (it is made from Turn "
                                  f"{found.from_turn} on).", found.ref)
        if game_turn < found.from_turn:
            raise SubmissionError(f"{found.ref} {found.name} is made from Turn {found.from_turn} on ({found.when}); "
                                  f"this is Turn {game_turn}.", found.ref)
    return found, number, game_turn, scenario_group(system, state, map_group)


def scenario_attackers(system: SystemLike, state: CampaignState) -> tuple[str, ...] | None:
    """The sides attacking in the scenario being played: those whose Attack chit was revealed for this date (ER CG5
    "The side selecting an Attack chit is considered the Scenario Attacker"), or the Initial Scenario's attacker from
    the data; None when the data do not say."""
    if state.step == INITIAL_SCENARIO:
        roles = initial_roles(system)
        return roles.attackers if roles is not None and roles.attackers else None
    last = state.last_round
    if last is None or last.date_index != state.date_index:
        return None
    return tuple(s for s, chit in last.chits.items() if str(chit) == "attack")


def _check_roller(system: SystemLike, state: CampaignState, side: str, found: ScenarioRoll) -> None:
    """Who makes the roll, as the rule says: the scenario's Attacker/Defender (ER CG21, CG5), a side that bought the RG
    (ER CG18 FPF Barrage), not in the Initial Scenario (ER CG13)."""
    if found.not_in_initial_scenario and state.step == INITIAL_SCENARIO:
        raise SubmissionError(f"{found.ref} {found.name} is not made in the Initial Scenario: "
                              f"{found.not_in_initial_scenario} ({found.ref}).", found.ref)
    if found.roller_role is not None:
        attackers = scenario_attackers(system, state)
        if attackers is not None:
            names = ", ".join(side_name(system, s) for s in attackers)
            if found.roller_role == "attacker" and side not in attackers:
                raise SubmissionError(f"{found.ref} {found.name} is made by {found.roller}; the "
                                      f"{side_name(system, side)} side is not the Attacker in this scenario "
                                      f"(Attacker: {names or 'none'}) ({found.ref}).", found.ref)
            if found.roller_role == "defender" and side in attackers:
                raise SubmissionError(f"{found.ref} {found.name} is made by {found.roller}; the "
                                      f"{side_name(system, side)} side attacks in this scenario ({found.ref}).",
                                      found.ref)
    if found.requires_rg and found.rule is not None:
        ids = rule_rg_ids(system, side, found.rule)
        ledger = state.ledgers.get(side)
        bought = ledger is not None and any(p.rg_id in ids for p in ledger.purchases)
        if not bought:
            rule = next((r for r in system.special_rules if r.id == found.rule), None)
            what = rule.name if rule is not None else found.rule
            raise SubmissionError(f"{found.ref} {found.name}: the {side_name(system, side)} side has bought no "
                                  f"{what} RG, so it makes no such dr ({found.ref}).", found.ref)


def _purpose(found: ScenarioRoll, threshold: int | None, turn: int | None, group: MapGroup | None = None) -> str:
    parts = [f"{found.ref} {found.name}{on_group(group)}"]
    if turn is not None:
        parts.append(f"Turn {turn}")
    if found.threshold is not None and threshold is not None:
        parts.append(f"{found.threshold.label} {threshold}")
    return ", ".join(parts)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}"


def outcome_words(found: ScenarioRoll, roll: Roll, modifiers: tuple[AppliedModifier, ...], threshold: int
                  ) -> tuple[int, bool, str]:
    """(final, met, words): "dr 2 ≤ 3: the CG Firefight ends"; "Final dr 4 (dr 5 −1) > 3: … continues"."""
    final = roll.total + sum(m.value for m in modifiers)
    met = compare(final, found.threshold.op if found.threshold else "<=", threshold)
    sign = OPS[found.threshold.op if found.threshold else "<="][0 if met else 1]
    kind = str(found.dice)
    if modifiers:
        shown = f"Final {kind} {final} ({kind} {roll.total} {' '.join(_signed(m.value) for m in modifiers)})"
    else:
        shown = f"{kind} {final}"
    return final, met, f"{shown} {sign} {threshold}: {found.outcomes[0] if met else found.outcomes[1]}"


def scenario_roll(
    system: SystemLike, state: CampaignState, side: str, roll_id: str, *, threshold: object = None,
    turn: object = None, answers: Mapping[int, int | bool] | None = None, dice: Dice, map_group: object = None,
) -> Progress:
    """One of the scenario's own rolls (PL CG2 Game End dr …), public: its DRM (facts from the records, the ticks the
    player gives), its result in words; a threshold the players type (a circled number on the turn track). With Map
    Groups in play (KGP 8.2) it is made for the scenario on ``map_group``, which its purpose and event record."""
    found, number, game_turn, group = validate_scenario_roll(system, state, side, roll_id, threshold, turn, map_group)
    state = settle(system, state)
    answers = dict(answers or {})
    facts = facts_for(system, state, side)
    settings = side_settings(system, side)
    table = system.table(found.table) if found.table else _drm_table(found)
    modifiers = modifiers_for(table, None, facts, answers, settings)  # refuses unknown answers before the roll
    roll = dice.roll(found.dice, _purpose(found, number, game_turn, group), side, PUBLIC_STREAM)
    extra: dict[str, JSON] = {
        "date": state.date_id, "step": where(state), "board": True, "scenario_roll": found.id, "rule": found.ref,
        "modifiers": [{"reason": m.reason, "value": m.value} for m in modifiers],
    }
    if group is not None:
        extra["map_group"] = group.id
    if game_turn is not None:
        extra["turn"] = game_turn
    if found.table:
        try:
            resolution = roll_on(table, roll, None, facts, answers, settings)
            extra.update(final=resolution.final, result=resolution.cell.text, table=table.id,
                         row=resolution.row.display_label)
            caution = resolution.cell.caution or (resolution.row.note if resolution.row.edge_interpreted else None)
            if caution:
                extra["caution"] = caution
        except MissingValueError as error:  # the roll is made: it stays, with the reason it has no result
            extra.update(final=roll.total + sum(m.value for m in modifiers), result=None, lost=str(error))
    else:
        assert number is not None and found.threshold is not None
        final, met, words = outcome_words(found, roll, modifiers, number)
        extra.update(final=final, threshold=number, met=met, result=words)
        if found.threshold.verify:
            extra["caution"] = found.threshold.interpreted or f"as written: {found.threshold.as_written}"
    event = roll_event(roll, Visibility.PUBLIC, None, **extra)
    return Progress(logged(state, side, (event,)), (event,))


__all__ = [
    "COUNT_MAX", "LOG_SIZE", "PURPOSE_MAX", "board_kinds", "board_roll", "clean_purpose", "compare", "log_json",
    "open_map_groups", "outcome_words", "questions", "scenario_group", "scenario_roll", "scenario_rolls",
    "step_board_kinds", "validate_board_roll", "validate_scenario_roll", "where", "THRESHOLD_RANGE", "TURN_MAX",
    "REPAIR_DRM", "repair_roll", "repair_thresholds", "scenario_attackers",
]


# ---------------------------------------------------------------------------------------------------------------------
# Repair rolls by the thresholds a special rule holds (PL 3.46 / 3.461: the ``repair`` rule)
# ---------------------------------------------------------------------------------------------------------------------

REPAIR_DRM = (-6, 6)  # what a repair form accepts as the total DRM typed (a bound on the input, not a rule value)


def repair_thresholds(system: SystemLike, step: Step | None) -> tuple[Mapping[str, object], ...]:
    """The thresholds a step rolls against (``params.thresholds_rule``: a special rule whose ``thresholds`` name their
    step by ``ref``), in the rule's order; empty for any other step."""
    rule_id = step.params.get("thresholds_rule") if step is not None else None
    if step is None or not isinstance(rule_id, str):
        return ()
    rule = next((r for r in system.special_rules if r.id == rule_id), None)
    found = rule.params.get("thresholds") if rule is not None else None
    if not isinstance(found, (list, tuple)):
        return ()
    return tuple(t for t in found if isinstance(t, Mapping) and str(t.get("ref")) == step.ref)


def repair_roll(
    system: SystemLike, state: CampaignState, side: str, step: Step | None, threshold_id: object, drm: object,
    purpose: object, dice: Dice,
) -> Progress:
    """One public repair dr for ``purpose`` against the threshold ``threshold_id`` of the current step (PL 3.46 "are
    repaired on a dr <= 5"), with the DRM the rule names (typed as their total; none where it names none)."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has ended; no more rolls are made.")
    rows = repair_thresholds(system, step)
    if step is None or not rows:
        raise SubmissionError("No repair roll is made at this step.")
    ids = [str(t.get("id")) for t in rows]
    row = next((t for t in rows if str(t.get("id")) == threshold_id), None)
    if row is None:
        raise SubmissionError(f"{step.ref}: choose what is repaired (allowed: {', '.join(ids)}; got {threshold_id!r}).",
                              step.ref)
    named = [str(d) for d in row.get("drm") or ()]  # type: ignore[attr-defined]
    low, high = REPAIR_DRM if named else (0, 0)
    if isinstance(drm, bool) or not isinstance(drm, int) or not low <= drm <= high:
        allowed = f"a whole number from {low:+d} to {high:+d}" if named else "0 (the rule names no DRM for it)"
        raise SubmissionError(f"{step.ref} {row.get('item')}: the DRM must be {allowed}; got {drm!r}.", step.ref)
    text = clean_purpose(purpose)
    most = int(str(row.get("success_max")))
    roll = dice.roll(DiceKind.dr, f"{step.ref} repair dr: {row.get('item')} ({text})", side, PUBLIC_STREAM)
    final = roll.total + drm
    success = final <= most
    word = "success" if success else "failure"
    item = str(row.get("item"))
    words = (f"{step.ref} {item[:1].upper()}{item[1:]} ({text}): dr {roll.total}" + (f" {drm:+d} = {final}" if drm else "")
             + f" → {word} (needs {row.get('as_written', f'dr <= {most}')})")
    if not success and row.get("failure"):
        words += f": {row.get('failure')}"
    event = roll_event(roll, Visibility.PUBLIC, None, date=state.date_id, step=step.ref, board=True, text=words,
                       index=1, of=1, threshold=str(row.get("id")), drm=drm, final=final, result=word)
    return Progress(logged(state, side, (event,)), (event,))
