"""Tick-box DRM of automatic secret rolls (issue 14 item 7): PHD C5.33 "-1 Pionerie/Engineer Pl", C5.34 "+1 If module
placed a FFE counter in prior TM Scenario". Only the board knows them, so the owner answers them before the app rolls.

Secret rolls stay secret: at a step whose tables ask anything, *every* side answers (possibly nothing) before the step
runs, so the pause, the owed action and its words are the same whether a side has questions or not; the questions name
the side's own RG lines and are shown to that side only (``view_for``), and the answers are a side-only event.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.ledger import PurchaseLine, SideLedger
from rules_engine.lost_values import Need
from rules_engine.model import Step, System
from rules_engine.progress import Progress
from rules_engine.rg_rolls import line_questions
from rules_engine.state import CampaignState
from rules_engine.system_memo import SystemMemo
from rules_engine.tables import questions as table_questions
from rules_engine.vocabulary import SideId, Visibility

NEED_ID = "roll-answers"
ACTIONS = ("roll-per-purchase", "rg-strength-weapons-leaders")


@dataclass(frozen=True)
class Question:
    """One ``ask:`` DRM of one RG line's secret roll: its answer key, the line, the table and the reason as printed."""

    id: str
    line: int
    rg_id: str
    table: str
    table_name: str
    table_ref: str
    index: int
    ask: str  # tick | count | value
    reason: str

    def to_json(self) -> dict[str, JSON]:
        """JSON for the owner's page."""
        return {"id": self.id, "line": self.line, "rg_id": self.rg_id, "table": self.table,
                "table_name": self.table_name, "table_ref": self.table_ref, "index": self.index, "ask": self.ask,
                "reason": self.reason}


def _step_tables(system: System, step: Step) -> tuple[str, ...]:
    names = list(step.tables)
    if isinstance(step.params.get("table"), str):
        names.append(str(step.params["table"]))
    by_side = step.params.get("table_by_side")
    if isinstance(by_side, Mapping):
        names.extend(str(v) for v in by_side.values())
    return tuple(n for n in dict.fromkeys(names) if n in system.tables)


def asks(system: System, step: Step) -> bool:
    """True at the first per-purchase roll step (it rolls every line bought: C5.33 also rolls C5.34's OBA DR) when a
    table any such step or RG note rolls on has an ``ask:`` modifier. Static: never depends on what was bought."""
    return _ASKS(system, step.ref)


def _asks(system: System, ref: str) -> bool:
    rolling = [s for s in system.steps if s.action in ACTIONS]
    if not rolling or ref != rolling[0].ref:
        return False
    names = {t for s in rolling for t in _step_tables(system, s)}
    names |= {n.leader_table for c in system.rg_charts for n in c.notes.values() if n.leader_table}
    return any(table_questions(system.table(t)) for t in names if t in system.tables)


_ASKS = SystemMemo(_asks).lookup


def _lines(state: CampaignState, side: SideId) -> tuple[PurchaseLine, ...]:
    ledger: SideLedger | None = state.ledgers.get(side)
    if ledger is None:
        return ()
    return tuple(p for p in ledger.purchases if p.date_id == state.date_id and not p.rolled)


def open_questions(system: System, state: CampaignState, step: Step, side: SideId) -> tuple[Question, ...]:
    """The questions of ``side``'s lines this step will roll for (its own secret purchases: shown to it only)."""
    if not asks(system, step):
        return ()
    out: list[Question] = []
    for line in _lines(state, side):
        for table, _column, index in line_questions(system, line, side):
            modifier = table.modifiers[index]
            out.append(Question(f"l{line.line}-{table.id}-{index}", line.line, line.rg_id, table.id, table.name,
                                table.ref, index, str(modifier.ask), modifier.reason))
    return tuple(out)


def answered(state: CampaignState, side: SideId) -> bool:
    """True once ``side`` has answered (or confirmed it has nothing to answer) at the current step."""
    return state.facts_supplied.get(side, {}).get(NEED_ID) is True


def need(system: System, state: CampaignState, step: Step, side: SideId) -> Need | None:
    """The one Need every side has at such a step until it answers: the same words whatever it has bought."""
    if not asks(system, step) or answered(state, side):
        return None
    return Need(NEED_ID, "questions", side,
                f"answer the DRM questions of your secret rolls at {step.ref}, if any (only you see them)",
                "questions", step.ref)


def answer(system: System, state: CampaignState, step: Step, side: SideId, given: object
           ) -> Progress:
    """``side`` answers every open question at once (a tick: yes/no; a count or value: a whole number)."""
    if not asks(system, step):
        raise SubmissionError(f"{step.ref} {step.name} asks nothing.", step.ref)
    if answered(state, side):
        raise SubmissionError(f"You have already answered the questions of {step.ref}.", step.ref)
    if not isinstance(given, Mapping):
        raise SubmissionError("Send the answers as a mapping {question id: answer}.", step.ref)
    asked = {q.id: q for q in open_questions(system, state, step, side)}
    unknown = [str(k) for k in given if str(k) not in asked]
    if unknown:
        raise SubmissionError(f"Unknown question(s) {', '.join(unknown)} (allowed: {', '.join(asked) or 'none'})",
                              step.ref)
    values: dict[str, int | bool] = {NEED_ID: True}
    for qid, question in asked.items():
        value = given.get(qid, False if question.ask == "tick" else None)
        if question.ask == "tick":
            if not isinstance(value, bool):
                raise SubmissionError(f"{qid} ({question.reason}): answer yes or no, got {value!r}", step.ref)
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SubmissionError(f"{qid} ({question.reason}): a whole number from 0, got {value!r}", step.ref)
        values[qid] = value
    facts = {s: dict(v) for s, v in state.facts_supplied.items()}
    facts.setdefault(side, {}).update(values)
    event = Event(EventKind.SUPPLIED, Visibility.SIDE, side, {"step": step.ref, "values": dict(values)})
    return Progress(state.evolve(facts_supplied=facts), (event,))


def answers_for(system: System, state: CampaignState, step: Step, side: SideId, line: PurchaseLine
                ) -> dict[str, dict[int, int | bool]]:
    """The answers ``side`` gave for ``line`` (table id → modifier index → answer), for ``rg_rolls``."""
    supplied = state.facts_supplied.get(side, {})
    out: dict[str, dict[int, int | bool]] = {}
    for question in open_questions(system, state, step, side):
        if question.line == line.line and question.id in supplied:
            out.setdefault(question.table, {})[question.index] = supplied[question.id]
    return out
