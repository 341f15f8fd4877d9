"""The scenario results form: each side's fields, the side's own entry, the differences once both are in."""
from __future__ import annotations

from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from rules_engine.event_text import RESULT_LABELS, result_summary


def differ_rows(system: System, side: str, results: dict[str, Any]) -> list[dict[str, Any]]:
    """The fields in which the two entries differ, each with what each side entered (view_for gives both entries
    only once both are in)."""
    entries = results.get("entries") or {}
    return [
        {"field": name, "label": RESULT_LABELS.get(name, name),
         "values": [{"side_name": engine.side_name(system, s), "you": s == side,
                     "text": _result_text(system, name, (entries.get(s) or {}).get(name))}
                    for s in engine.side_ids(system)]}
        for name in results.get("differ") or []
    ]


def results_rows(system: System, side: str, own: Any, lvp_sides: Any) -> list[dict[str, Any]]:
    """The results form's fields per side, filled with the side's own entry (if any)."""
    return [
        {"id": s, "name": engine.side_name(system, s), "you": s == side,
         "lvp_recorded": None if lvp_sides is None else s in lvp_sides,
         "cvp": (own or {}).get("cvp", {}).get(s), "attacked": (own or {}).get("attacked", {}).get(s),
         "lvp": (own or {}).get("lvp", {}).get(s), "leaders_lost": (own or {}).get("leaders_lost", {}).get(s),
         "units_lost": (own or {}).get("units_lost", {}).get(s),
         "objective_hex_ref": engine.objective_hex_ref(system),
         "objective_hexes": (own or {}).get("objective_hexes", {}).get(s)}
        for s in engine.side_ids(system)
    ]


def group_results_form(system: System, side: str, group: dict[str, Any], lvp_sides: Any) -> dict[str, Any]:
    """KGP 8.2: one Map Group's results form — the side's own entry, the differences once both are in, or the
    agreed results (view_for gives the opponent's entry only once both are in)."""
    own = group.get("own")
    agreed = group.get("agreed")
    return {"map_group": group["id"], "label": group["label"], "prefix": f"{group['id']}-", "suffix": f"-{group['id']}",
            "own": own, "rows": results_rows(system, side, own, lvp_sides), "differ": differ_rows(system, side, group),
            "opponent_submitted": group.get("opponent_submitted"), "agreed": agreed,
            "agreed_text": result_summary(system, agreed) if agreed else ""}


def lvp_recorders(system: System) -> tuple[tuple[str, ...] | None, str | None]:
    """Which sides record LVP, from the data: the ``record-lvp`` step's ``recorder`` (a side id, or ``each-side``),
    and that step's ref (RR 2.503: the Canadian only, 2.5032). (None, None) when the data say nothing."""
    for step in system.steps:
        if step.action != "record-lvp":
            continue
        recorder = step.params.get("recorder")
        sides = tuple(engine.side_ids(system))
        if isinstance(recorder, str) and recorder in sides:
            return (recorder,), step.ref
        return sides, step.ref
    return None, None


def _result_text(system: System, name: str, value: Any) -> str:
    if name == "winner":
        return engine.side_name(system, value) if value else "none"
    if isinstance(value, dict):
        parts = []
        for s in engine.side_ids(system):
            if s in value:
                shown = ("yes" if value[s] else "no") if isinstance(value[s], bool) else str(value[s])
                parts.append(f"{engine.side_name(system, s)} {shown}")
        return ", ".join(parts) or "—"
    return "—" if value is None else str(value)
