"""Rolls at the board: the "Roll dice" form, the scenario's own rolls, the assisted step's printed tables."""
from __future__ import annotations

from typing import Any, cast

from campaigns_app import engine
from rules_engine import board, tables
from rules_engine.board import COUNT_MAX, PURPOSE_MAX
from rules_engine.model import Modifier, System
from rules_engine.sequence import table_column

OP_SIGNS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">"}


def board_context(system: System, board: dict[str, Any], side: str) -> dict[str, Any]:
    """The "Roll dice" form of the current step / scenario and its latest rolls (public: both sides see them)."""
    rolls = []
    for event in reversed(board.get("log") or []):
        payload = event.get("payload") or {}
        roller = str(payload.get("roller", ""))
        scenario_roll = payload.get("scenario_roll")
        rolls.append({
            "you": roller == side,
            "side_name": engine.side_name(system, roller),
            "text": payload.get("text") or payload.get("purpose"),
            "kind": payload.get("kind"),
            "dice": payload.get("dice") or [],
            "total": payload.get("total"),
            "index": payload.get("index"), "of": payload.get("of"),
            "scenario": bool(scenario_roll),
            "result": payload.get("result"),
            "met": payload.get("met"),
            "modifiers": payload.get("modifiers") or [],
            "final": payload.get("final"),
            "caution": payload.get("caution"),
            "lost": payload.get("lost"),
            "number": payload.get("number"),
            "map_group": payload.get("map_group"),
        })
    return {"at": board.get("at"), "kinds": list(board.get("kinds") or []), "rolls": rolls,
            "purpose_max": PURPOSE_MAX, "count_max": COUNT_MAX,
            "map_group": None, "suffix": ""}  # as group_board sets them for one Map Group's (board.html reads both)


def group_board(board: dict[str, Any], group_id: str, is_open: bool) -> dict[str, Any]:
    """KGP 8.2: one Map Group's "Roll dice" form and latest rolls — the rolls made for its scenario only; no form once
    both sides marked its scenario finished (rules_engine.board.open_map_groups)."""
    return {**board, "map_group": group_id, "suffix": f"-{group_id}", "open": is_open,
            "kinds": board["kinds"] if is_open else [],
            "rolls": [r for r in board["rolls"] if r.get("map_group") == group_id]}


def scenario_roll_forms(system: System, offered: list[str], side: str) -> list[dict[str, Any]]:
    """The scenario's own rolls offered now (PL CG2 Game End dr …): the rule's words, the typed threshold, the DRM."""
    rules = {r.id: r for r in system.special_rules}
    out = []
    for roll in system.scenario_rolls:
        if roll.id not in offered:
            continue
        questions = [{"index": index, "reason": m.reason, "ask": m.ask,
                      "range": list(m.range) if m.range else None}
                     for index, m in ((i, cast(Modifier, q)) for i, q in board.questions(system, roll))]
        automatic = [m.reason for m in (roll.modifiers if not roll.table else ()) if m.ask is None]
        threshold = roll.threshold
        table = system.table(roll.table) if roll.table else None
        rule = rules.get(roll.rule) if roll.rule else None
        out.append({
            "id": roll.id, "ref": roll.ref, "name": roll.name, "dice": str(roll.dice), "roller": roll.roller,
            "when": roll.when, "note": roll.note, "from_turn": roll.from_turn,
            "threshold": None if threshold is None else {
                "label": threshold.label, "sign": OP_SIGNS[threshold.op], "as_written": threshold.as_written,
                "caution": threshold.interpreted if threshold.verify else None},
            "outcomes": roll.outcomes, "questions": questions, "automatic": automatic,
            "allowed": not roll.sides or side in roll.sides,
            "sides_text": " or ".join(engine.side_name(system, s) for s in roll.sides),
            "rule_text": rule.text if rule is not None else None,
            "rows": [{"label": r.display_label, "cells": [c.text for c in r.cells]} for r in table.rows] if table else [],
        })
    return out


def assisted_tables(system: System, step: Any, side: str) -> list[dict[str, Any]]:
    names = list(step.tables) + [str(t) for t in (step.params.get("table"),) if isinstance(t, str) and t not in step.tables]
    out = []
    for name in names:
        try:
            table = system.table(name)
        except Exception:
            continue
        try:
            fixed_column = table_column(system, step, table, side)
        except Exception:
            fixed_column = None
        columns = [{"id": c.id, "label": c.label} for c in table.columns]
        questions = []
        for index, modifier in tables.questions(table, None) if len(table.columns) == 1 else \
                [(i, m) for i, m in enumerate(table.modifiers) if m.ask is not None]:
            questions.append({"index": index, "reason": modifier.reason, "ask": modifier.ask,
                              "value": modifier.value if isinstance(modifier.value, int) else None,
                              "range": list(modifier.range) if modifier.range else None,
                              "na_for": [c for c in modifier.na_for], "columns": list(modifier.columns)})
        out.append({"id": table.id, "ref": table.ref, "name": table.name, "dice": str(table.dice.value),
                    "columns": columns, "column": fixed_column, "questions": questions, "secret": table.secret,
                    "rows": [{"label": r.display_label, "cells": [c.text for c in r.cells] if not r.missing else ["(lost)"]}
                             for r in table.rows],
                    "note": table.note})
    return out
