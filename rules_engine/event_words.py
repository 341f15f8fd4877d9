"""The words the event texts use: a side, a date, a step, a scenario's results, the CG's end — from the system only."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_engine.errors import UnknownNameError
from rules_engine.events import JSON
from rules_engine.model import System

STEP_LABELS: Mapping[str, str] = {
    "initial-scenario": "Initial Scenario",
    "initiative": "Initiative Determination",
    "scenario": "Scenario",
    "ended": "Campaign Game over",
}

RESULT_LABELS: Mapping[str, str] = {
    "cvp": "CVP amassed", "winner": "Winner", "lvp": "LVP controlled", "leaders_lost": "Leaders lost",
    "units_lost": "Units lost", "attacked": "Attacked", "objective_hexes": "Own Objective Hexes Controlled"}

END_HOW: Mapping[str, str] = {
    "last-date": "the last CG Date was played",
    "mutual-agreement": "both sides agreed to end it",
}

Payload = Mapping[str, JSON]


def side_name(system: System, side: JSON) -> str:
    """A side as the pages name it ("German"; PL 2.5 "Axis Side" → "Axis"); "" for no side, an unknown id as is."""
    if not side:
        return ""
    for candidate in system.sides:
        if candidate.id == side:
            return candidate.short_name
    return str(side)


def date_name(system: System, date_id: str) -> str:
    """A CG Date as players name it: the calendar's name ("Firefight 2: Hill 97"), else its id."""
    try:
        entry = system.calendar_entry(date_id)
    except UnknownNameError:  # a date met only in the history (no calendar): its id is all there is
        return str(date_id)
    name = entry.name
    if not name or name == date_id:
        return str(date_id)
    return str(name) if str(date_id) in str(name) else f"{date_id} ({name})"


def mapping(value: JSON) -> Payload:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, Mapping) else {}


def result_summary(system: System, result: JSON) -> str:
    """A scenario's agreed results in words, both sides: "CVP U.S. 6, German 11; LVP U.S. 2, German 1; German attacked"."""
    if not isinstance(result, Mapping):
        return ""
    sides = [s.id for s in system.sides]

    def per_side(values: JSON) -> str:
        found = mapping(values)
        return ", ".join(f"{side_name(system, s)} {found[s]}" for s in sides if s in found)

    parts = [f"CVP {per_side(result.get('cvp'))}"]
    for key, label in (("lvp", "LVP"), ("leaders_lost", "leaders lost"), ("units_lost", "units lost"),
                       ("objective_hexes", "own Objective Hexes Controlled")):
        if result.get(key):
            parts.append(f"{label} {per_side(result.get(key))}")
    attackers = [side_name(system, s) for s in sides if mapping(result.get("attacked")).get(s)]
    parts.append(f"{' and '.join(attackers)} attacked" if attackers else "nobody attacked")
    if result.get("winner"):
        parts.append(f"winner {side_name(system, result['winner'])}")
    return "; ".join(parts)


def cg_ended_text(system: System, payload: Payload) -> str:
    """What happened, in words: "The Campaign Game ended on 19 PM: the German side conceded; the Canadian side wins."
    ``payload``: a cg-ended event's, or the view's ``cg_end``."""
    reason = str(payload.get("reason") or "")
    side, victor = payload.get("side"), payload.get("victor")
    if reason == "concession" and side:
        how = f"the {side_name(system, side)} side conceded"
    elif reason == "objectives" and side:
        how = f"the {side_name(system, side)} side met its CG objectives"
    else:
        how = END_HOW.get(reason, "it ended")
    if victor:
        how += f"; the {side_name(system, victor)} side wins"
    date = date_name(system, str(payload.get("date_id") or payload.get("date")))
    if reason == "last-date":  # "Ended on D2 AM (the last CG Date)"
        return f"The Campaign Game ended on {date} (the last CG Date){how.removeprefix(END_HOW['last-date'])}."
    return f"The Campaign Game ended on {date}: {how}."


@dataclass(frozen=True)
class Words:
    """The words one system gives the event texts (its sides, dates, steps)."""

    system: System

    def side(self, side: JSON) -> str:
        """A side's name ("" for none)."""
        return side_name(self.system, side)

    def date(self, date_id: JSON) -> str:
        """A date's name."""
        return date_name(self.system, str(date_id))

    def unit(self) -> str:
        """What the calendar counts ("CG Date", "Firefight")."""
        unit = self.system.time_unit
        return unit.name if unit is not None and unit.name else "CG Date"

    def step(self, ref: JSON) -> str:
        """A step by its ref and name ("2.512 SAN Adjustment"), else a spine step's label."""
        found = next((f"{s.ref} {s.name}" for s in self.system.steps if s.ref == str(ref)), None)
        return found or STEP_LABELS.get(str(ref), str(ref))

    def result(self, result: JSON) -> str:
        """A scenario's agreed results in words."""
        return result_summary(self.system, result)

    def who(self, side: JSON, viewer: str, you: str = "You", them: str = "") -> str:
        """"You" for the viewer's own side, else "The German side" (plus ``them``)."""
        return you if side == viewer else f"The {self.side(side)} side{them}"


def board_roll_words(words: Words, p: Payload, viewer: str, verb: str, shown: bool) -> str:
    """A secret roll at the board in words: who, what it did ("made", "revealed"), which roll and where; its purpose
    and dice only when ``shown`` (the shadow's words never depend on them)."""
    who = words.who(p.get("side") or p.get("roller"), viewer)
    where = f"{p.get('date')}, {words.step(p.get('step'))}" if p.get("date") and p.get("step") else "before the CG began"
    text = f"{who} {verb} secret {p.get('kind')} #{p.get('number')} at the board ({where})"
    if not shown:
        return text + "."
    found = p.get("dice")
    faces = [str(d) for d in found] if isinstance(found, Sequence) and not isinstance(found, str) else []
    rolled = f"{'+'.join(faces)} = {p.get('total')}" if len(faces) > 1 else "".join(faces)
    return f"{text}: “{p.get('purpose')}” — {rolled}."
