"""The CG Card form's part sections filled from a card's document (`refit-cg/1` → form data; the way back:
card_parts_build)."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.card_fields import ROW_MARK
from rules_engine.card_parts import ACTIONS_BY_ID, CHITS, STEP_FORM_KEYS
from rules_engine.card_values import flow, value_text
from rules_engine.model import System


def _put(out: dict[str, str], name: str, value: object) -> None:
    """A field with a value as printed (left out when empty)."""
    text = value_text(value)
    if text:
        out[name] = text


def _text(out: dict[str, str], name: str, value: object) -> None:
    """A text field shown as typed (a rule number ``1.520`` stays text, never a number)."""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool) and str(value):
        out[name] = str(value)
    else:
        _put(out, name, value)


def _system_step(system: System, ref: object) -> Mapping[str, object]:
    """What the system file says of the step with this ref (empty when it has none)."""
    steps = system.document.get("steps")
    for step in steps if isinstance(steps, list) else []:
        if isinstance(step, dict) and str(step.get("ref")) == str(ref):
            return step
    return {}


def steps_form(system: System, steps: object, out: dict[str, str]) -> None:
    """Fill ``steps.<n>.*``; what the system file says of a step of the same ref is not repeated."""
    for n, step in enumerate(steps if isinstance(steps, list) else []):
        p = f"steps.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        if not isinstance(step, dict):
            out[f"{p}.extra"] = flow(step)
            continue
        base = _system_step(system, step.get("ref"))
        rest = {k: v for k, v in step.items() if k not in STEP_FORM_KEYS and base.get(k) != v}
        _text(out, f"{p}.ref", step.get("ref"))
        _text(out, f"{p}.name", step.get("name"))
        sides, order = step.get("sides"), step.get("order")
        if sides == "ordered" and isinstance(order, list):
            out[f"{p}.sides"] = "order:" + ",".join(str(o) for o in order)
        elif isinstance(sides, str) and sides != "ordered":
            out[f"{p}.sides"] = sides
        elif "sides" in step or "order" in step:
            rest.update({k: step[k] for k in ("sides", "order") if k in step})
        for key in ("initial", "loop_on_idle"):
            if step.get(key) is True:
                out[f"{p}.{key}"] = "true"
            elif key in step and step[key] is not False:
                rest[key] = step[key]
        for key in ("secret", "revealed"):
            if key in step:
                _put(out, f"{p}.{key}", step[key])
        action, automation = step.get("action"), step.get("automation")
        known = ACTIONS_BY_ID.get(str(action)) if action else None
        if known is not None:  # a declared kind is the action's (the loader refused any other)
            out[f"{p}.action"] = known.id
        elif action is None and automation == "on-board":
            out[f"{p}.action"] = "on-board"
        else:
            rest.update({k: step[k] for k in ("action", "automation") if k in step})
        params = step.get("params")
        if isinstance(params, dict):
            takes = known.params if known is not None and "action" not in rest else ()
            base_params = base.get("params") if isinstance(base.get("params"), dict) else {}
            other = {}
            for key, value in params.items():
                if key in takes and isinstance(value, str):
                    out[f"{p}.params.{key}"] = value
                elif isinstance(base_params, dict) and base_params.get(key) == value:
                    continue
                else:
                    other[key] = value
            if other:
                rest["params"] = other
        elif params is not None:
            rest["params"] = params
        if rest:
            out[f"{p}.extra"] = flow(rest)


def currencies_form(currencies: object, out: dict[str, str]) -> None:
    """Fill ``currencies.<n>.*``."""
    for n, cur in enumerate(currencies if isinstance(currencies, list) else []):
        p = f"currencies.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        if isinstance(cur, dict):
            for key in ("code", "name", "ref", "note"):
                _text(out, f"{p}.{key}", cur.get(key))
            if isinstance(cur.get("carry_over"), bool):
                out[f"{p}.carry_over"] = "true" if cur["carry_over"] else "false"


def initiative_form(ini: object, out: dict[str, str]) -> None:
    """Fill ``initiative.*`` (keys the form has no field for go to ``initiative.extra``)."""
    if not isinstance(ini, dict):
        return
    _text(out, "initiative.ref", ini.get("ref"))
    _text(out, "initiative.mode", ini.get("mode"))
    matrix = ini.get("matrix")
    for key, cell in (matrix.items() if isinstance(matrix, dict) else []):
        for field in ("result", "label", "setup_first", "moves_first"):
            _text(out, f"initiative.matrix.{key}.{field}", cell.get(field) if isinstance(cell, dict) else None)
    rest = {k: v for k, v in ini.items() if k not in ("ref", "mode", "matrix")
            and not (k == "choices" and isinstance(v, list) and sorted(map(str, v)) == sorted(CHITS))}
    if rest:
        out["initiative.extra"] = flow(rest)


def fortifications_form(forts: object, out: dict[str, str]) -> None:
    """Fill ``fortifications.*`` (keys the form has no field for go to the ``extra`` boxes)."""
    if not isinstance(forts, dict):
        return
    _text(out, "fortifications.ref", forts.get("ref"))
    _text(out, "fortifications.currency", forts.get("currency"))
    rest = {k: v for k, v in forts.items() if k not in ("ref", "currency", "rows")}
    if rest:
        out["fortifications.extra"] = flow(rest)
    rows = forts.get("rows")
    for n, row in enumerate(rows if isinstance(rows, list) else []):
        p = f"fortifications.rows.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        if not isinstance(row, dict):
            out[f"{p}.extra"] = flow(row)
            continue
        _text(out, f"{p}.type", row.get("type"))
        _put(out, f"{p}.cost", row.get("cost"))
        if isinstance(row.get("note"), str):
            out[f"{p}.note"] = row["note"]
        more = {k: v for k, v in row.items() if k not in ("type", "cost") and not (k == "note" and isinstance(v, str))}
        if more:
            out[f"{p}.extra"] = flow(more)


def setup_costs_form(costs: object, out: dict[str, str]) -> None:
    """Fill ``setup_costs.*`` (keys the form has no field for go to ``setup_costs.extra``)."""
    if not isinstance(costs, dict):
        return
    _text(out, "setup_costs.ref", costs.get("ref"))
    shown = {"ref", "modes"}
    if isinstance(costs.get("minimum"), int) and not isinstance(costs.get("minimum"), bool):
        _put(out, "setup_costs.minimum", costs["minimum"])
        shown.add("minimum")
    if isinstance(costs.get("note"), str):
        out["setup_costs.note"] = costs["note"]
        shown.add("note")
    rest = {k: v for k, v in costs.items() if k not in shown}
    modes = costs.get("modes")
    if not isinstance(modes, list) or not all(isinstance(m, dict) and set(m) <= {"mode", "ref", "by_type"}
                                              and isinstance(m.get("by_type", {}), dict) for m in modes):
        rest["modes"] = modes
        modes = []
    if rest:
        out["setup_costs.extra"] = flow(rest)
    for n, mode in enumerate(modes):
        p = f"setup_costs.modes.{n}"
        out[f"{p}.{ROW_MARK}"] = "1"
        _text(out, f"{p}.mode", mode.get("mode"))
        _text(out, f"{p}.ref", mode.get("ref"))
        for rg_type, amount in mode.get("by_type", {}).items():
            _put(out, f"{p}.by_type.{rg_type}", amount)


def idle_form(idle: object, out: dict[str, str]) -> None:
    """Fill ``idle.*``."""
    if not isinstance(idle, dict):
        return
    for key in ("name", "loop", "then", "note"):
        _text(out, f"idle.{key}", idle.get(key))
    if isinstance(idle.get("steps"), list):
        out["idle.steps"] = ", ".join(str(s) for s in idle["steps"])


__all__ = ["currencies_form", "fortifications_form", "idle_form", "initiative_form", "setup_costs_form", "steps_form"]
