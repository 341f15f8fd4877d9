"""The CG Card form's RePh sequence, currencies, initiative matrix and Idle rule (``card_parts``) to `refit-cg/1` parts.

Values are not validated here (the loader does); the form only says what it cannot read (an action's param the action
does not take, a "Who acts" it does not know).
"""
from __future__ import annotations

from rules_engine.card_form import Path
from rules_engine.card_parts import ACTIONS_BY_ID, CHITS, PARAM_KEYS, STEP_ACTIONS, offers, offers_idle
from rules_engine.card_reader import Reader, blank
from rules_engine.loader.words import RG_TYPES
from rules_engine.model import System


def _sides(r: Reader, name: str, step: dict[str, object], path: Path) -> None:
    raw = r.raw(name).strip()
    r.built.origin[(*path, "sides")] = name
    r.built.origin[(*path, "order")] = name
    if not raw:
        return
    if raw.startswith("order:"):
        step["sides"] = "ordered"
        step["order"] = [w.strip() for w in raw.removeprefix("order:").split(",") if w.strip()]
    else:
        step["sides"] = raw


def _step(r: Reader, p: str, path: Path) -> dict[str, object]:
    step: dict[str, object] = {}
    r.put(step, "ref", f"{p}.ref", path, text=True)
    r.put(step, "name", f"{p}.name", path, text=True)
    _sides(r, f"{p}.sides", step, path)
    for key in ("initial", "loop_on_idle"):
        r.built.origin[(*path, key)] = f"{p}.{key}"
        if r.flag(f"{p}.{key}"):
            step[key] = True
    for key in ("secret", "revealed"):
        r.put(step, key, f"{p}.{key}", path, text=True)
    chosen = r.raw(f"{p}.action").strip()
    action = ACTIONS_BY_ID.get(chosen)
    r.built.origin[(*path, "action")] = f"{p}.action"
    r.built.origin[(*path, "automation")] = f"{p}.action"
    if action is None:
        r.built.problems.append((f"{p}.action", f"unknown choice {chosen!r} (allowed: "
                                 + ", ".join(a.label for a in STEP_ACTIONS) + ")"))
    elif action.id == "on-board":
        step["automation"] = "on-board"
    elif action.id:
        step["action"] = action.id  # its kind follows from the action (rules_engine.step_kinds)
    params: dict[str, object] = {}
    for key in PARAM_KEYS:
        name = f"{p}.params.{key}"
        value = r.raw(name).strip()
        r.built.origin[(*path, "params", key)] = name
        if not value:
            continue
        if action is None or key not in action.params:
            takes = ", ".join(action.params) if action is not None and action.params else "no params"
            r.built.problems.append((name, f"“{action.label if action else chosen}” takes {takes}; leave this blank"))
            continue
        params[key] = value
    if params:
        step["params"] = params
    r.built.origin[(*path, "params")] = f"{p}.action"
    extra = r.mapping(f"{p}.extra", path)
    more = extra.pop("params", None)
    if isinstance(more, dict):
        step["params"] = {**{str(k): v for k, v in more.items()}, **params}
    elif more is not None:
        r.built.problems.append((f"{p}.extra", "params is a mapping such as {params: {rounding: down}}"))
    step.update(extra)
    return step


def steps_part(r: Reader) -> list[object]:
    """``steps.<n>.*`` as the card's step list, in the form's order."""
    out: list[object] = []
    for n in r.rows("steps"):
        p = f"steps.{n}"
        if blank(r.data, p):
            continue
        path: Path = ("steps", len(out))
        r.built.origin[path] = f"{p}.ref"
        out.append(_step(r, p, path))
    return out


def currencies_part(r: Reader) -> list[object]:
    """``currencies.<n>.*`` as the card's currency list."""
    out: list[object] = []
    for n in r.rows("currencies"):
        p = f"currencies.{n}"
        if blank(r.data, p):
            continue
        path: Path = ("currencies", len(out))
        r.built.origin[path] = f"{p}.code"
        cur: dict[str, object] = {}
        r.put(cur, "code", f"{p}.code", path, text=True)
        r.put(cur, "name", f"{p}.name", path, text=True)
        carry = r.raw(f"{p}.carry_over").strip().lower()
        r.built.origin[(*path, "carry_over")] = f"{p}.carry_over"
        if carry in ("true", "false"):
            cur["carry_over"] = carry == "true"
        elif carry:
            r.built.problems.append((f"{p}.carry_over", "choose yes or no"))
        r.put(cur, "ref", f"{p}.ref", path, text=True)
        r.put(cur, "note", f"{p}.note", path, text=True)
        out.append(cur)
    return out


def initiative_part(r: Reader) -> dict[str, object] | None:
    """``initiative.*`` as the card's initiative part (None when nothing is typed)."""
    p = "initiative"
    path: Path = (p,)
    if blank(r.data, p):
        return None
    r.built.origin[path] = f"{p}.ref"
    ini: dict[str, object] = {}
    r.put(ini, "ref", f"{p}.ref", path, text=True)
    r.put(ini, "mode", f"{p}.mode", path, text=True)
    matrix: dict[str, object] = {}
    r.built.origin[(p, "matrix")] = f"{p}.matrix.attack/attack.result"
    for a in CHITS:
        for b in CHITS:
            key = f"{a}/{b}"
            cp = f"{p}.matrix.{key}"
            cell: dict[str, object] = {}
            r.built.origin[(p, "matrix", key)] = f"{cp}.result"
            for field in ("result", "label", "setup_first", "moves_first"):
                r.put(cell, field, f"{cp}.{field}", (p, "matrix", key), text=True)
            if cell:
                matrix[key] = cell
    ini["matrix"] = matrix
    ini.update(r.mapping(f"{p}.extra", path))
    return ini


def idle_part(r: Reader) -> dict[str, object] | None:
    """``idle.*`` as the card's Idle rule (None when nothing is typed)."""
    p = "idle"
    path: Path = (p,)
    if blank(r.data, p):
        return None
    r.built.origin[path] = f"{p}.name"
    idle: dict[str, object] = {}
    r.put(idle, "name", f"{p}.name", path, text=True)
    r.put(idle, "loop", f"{p}.loop", path, text=True)
    if r.raw(f"{p}.steps").strip():
        r.built.origin[(p, "steps")] = f"{p}.steps"
        idle["steps"] = [w.strip() for w in r.raw(f"{p}.steps").replace(";", ",").split(",") if w.strip()]
    r.put(idle, "then", f"{p}.then", path, text=True)
    r.put(idle, "note", f"{p}.note", path, text=True)
    return idle


def fortifications_part(r: Reader) -> dict[str, object] | None:
    """``fortifications.*`` as the card's Fortification purchase table (None when nothing is typed)."""
    p = "fortifications"
    path: Path = (p,)
    if blank(r.data, p):
        return None
    r.built.origin[path] = f"{p}.ref"
    forts: dict[str, object] = {}
    r.put(forts, "ref", f"{p}.ref", path, text=True)
    r.put(forts, "currency", f"{p}.currency", path, text=True)
    rows: list[object] = []
    r.built.origin[(p, "rows")] = f"{p}.ref"
    for n in r.rows(f"{p}.rows"):
        rp = f"{p}.rows.{n}"
        if blank(r.data, rp):
            continue
        rpath: Path = (p, "rows", len(rows))
        r.built.origin[rpath] = f"{rp}.type"
        row: dict[str, object] = {}
        r.put(row, "type", f"{rp}.type", rpath, text=True)
        r.put(row, "cost", f"{rp}.cost", rpath)
        r.put(row, "note", f"{rp}.note", rpath, text=True)
        row.update(r.mapping(f"{rp}.extra", rpath))
        rows.append(row)
    forts["rows"] = rows
    forts.update(r.mapping(f"{p}.extra", path))
    return forts


def setup_costs_part(r: Reader) -> dict[str, object] | None:
    """``setup_costs.*`` as the card's RG set-up costs (None when nothing is typed)."""
    p = "setup_costs"
    path: Path = (p,)
    if blank(r.data, p):
        return None
    r.built.origin[path] = f"{p}.ref"
    costs: dict[str, object] = {}
    r.put(costs, "ref", f"{p}.ref", path, text=True)
    r.put(costs, "minimum", f"{p}.minimum", path)
    r.put(costs, "note", f"{p}.note", path, text=True)
    modes: list[object] = []
    r.built.origin[(p, "modes")] = f"{p}.ref"
    for n in r.rows(f"{p}.modes"):
        mp = f"{p}.modes.{n}"
        if blank(r.data, mp):
            continue
        mpath: Path = (p, "modes", len(modes))
        r.built.origin[mpath] = f"{mp}.mode"
        mode: dict[str, object] = {}
        r.put(mode, "mode", f"{mp}.mode", mpath, text=True)
        r.put(mode, "ref", f"{mp}.ref", mpath, text=True)
        by_type: dict[str, object] = {}
        for rg_type in RG_TYPES:
            r.put(by_type, rg_type, f"{mp}.by_type.{rg_type}", (*mpath, "by_type"))
        r.built.origin[(*mpath, "by_type")] = f"{mp}.mode"
        mode["by_type"] = by_type
        modes.append(mode)
    costs["modes"] = modes
    costs.update(r.mapping(f"{p}.extra", path))
    return costs


def parts(system: System, r: Reader) -> dict[str, object]:
    """The parts the system leaves to the card that these sections fill."""
    out: dict[str, object] = {}
    if offers(system, "currencies"):
        out["currencies"] = currencies_part(r)
    if offers(system, "steps"):
        out["steps"] = steps_part(r)
    if offers(system, "initiative"):
        out["initiative"] = initiative_part(r)
    if offers_idle(system):
        out["idle"] = idle_part(r)
    if offers(system, "fortifications"):
        out["fortifications"] = fortifications_part(r)
    if offers(system, "setup_costs"):
        out["setup_costs"] = setup_costs_part(r)
    return out


__all__ = ["currencies_part", "fortifications_part", "idle_part", "setup_costs_part", "initiative_part", "parts", "steps_part"]
