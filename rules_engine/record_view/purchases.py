"""The RG Purchase Record (RR 2.5181 and its kin): the viewer's own side; the opponent's only after CG end (no lines,
no count before)."""
from __future__ import annotations

import re
from collections.abc import Mapping

from rules_engine.event_words import side_name
from rules_engine.events import JSON
from rules_engine.model import System
from rules_engine.record_view.model import (
    Column,
    FormHeading,
    PurchaseLines,
    PurchaseRecord,
    RecordTable,
)
from rules_engine.record_view.text import form_for, text
from rules_engine.record_view.visibility import purchase_sides, sides_of
from rules_engine.state import CampaignState
from rules_engine.vocabulary import SideId

DEFAULT_PURCHASE = (
    ("cg_date", "CG Date"), ("rg_id", "RG ID"), ("group_type", "Group Type"), ("leaders_received", "Leaders Received"),
    ("purchased", "#P"), ("remaining", "#R"), ("strength", "Str"), ("units", "# Units"),
    ("sw_received", "SW Received"), ("setup_area", "Set-up/Entry Area"),
)
ALWAYS_PURCHASE = (("oba_ammo", "OBA ammunition"), ("notes", "Notes"))
SETUP_LABELS = {"entry": "Entry", "on-map": "On map", "reserve": "In Reserve"}
NOTES_IDS = ("notes", "other")


def purchase_columns(system: System) -> tuple[FormHeading, tuple[Column, ...]]:
    """The form's heading and columns, plus OBA ammunition and notes (a default layout where the seed has none)."""
    form = form_for(system, ("rg",))
    if form is not None and form.columns:
        columns = [Column(c.id, c.label) for c in form.columns]
        heading = FormHeading(form.name, form.ref, form.note, True)
    else:
        columns = [Column(i, label) for i, label in DEFAULT_PURCHASE]
        heading = FormHeading("RG Purchase Record", None, None, False)
    ids = {c.id for c in columns}
    for column_id, label in ALWAYS_PURCHASE:
        if column_id == "notes" and ids & set(NOTES_IDS):
            continue
        if column_id not in ids:
            columns.append(Column(column_id, label))
    return heading, tuple(columns)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.casefold())


def _pairs(value: JSON) -> list[tuple[JSON, JSON]]:
    """A JSON list of [count, unit] pairs."""
    if not isinstance(value, (list, tuple)):
        return []
    return [(pair[0], pair[1]) for pair in value if isinstance(pair, (list, tuple)) and len(pair) == 2]


def _sw(line: Mapping[str, JSON]) -> Mapping[str, JSON]:
    sw = line.get("sw") or {}
    return sw if isinstance(sw, Mapping) else {}


def _sw_count(sw: Mapping[str, JSON], label: str) -> str:
    """A per-weapon column (PHD: LMG, MMG, HMG/.50-cal, Lt MTR, Baz/ Psk …): the count of the SW so named."""
    names = {_norm(part) for part in label.split("/") if _norm(part)}
    total = sum(int(str(count)) for weapon, count in sw.items() if _norm(str(weapon)) in names)
    return str(total) if total else ""


def _setup_cell(line: Mapping[str, JSON]) -> str:
    area = text(line.get("setup_area"))
    mode = SETUP_LABELS.get(str(line.get("setup_mode") or ""), "")
    pre = line.get("pre_registered") or 0
    parts = [p for p in (area, mode) if p]
    if pre:
        parts.append(f"{pre} Pre-Registered hex{'es' if pre != 1 else ''}")
    return " · ".join(parts)


def _notes_cell(line: Mapping[str, JSON]) -> str:
    notes = [str(line.get("notes") or "")]
    if line.get("initial_ob"):  # said once, whatever the line's own note begins with
        notes = ["Initial Scenario OB (not counted toward the maxima)",
                 notes[0].removeprefix("Initial Scenario OB").lstrip(";, ")]
    if line.get("extra"):
        notes.append(f"+{line['extra']} extra")
    if line.get("cost") not in (None, ""):
        notes.append(f"cost {line['cost']}")
    return "; ".join(n for n in notes if n)


def _listed_cell(cid: str, line: Mapping[str, JSON]) -> str | None:
    """Cells listing things (leaders, units, SW), or None for another column."""
    if cid in ("leaders_received", "leader"):
        leaders = line.get("leaders") or []
        return ", ".join(str(x) for x in leaders) if isinstance(leaders, (list, tuple)) else ""
    if cid == "units":
        return "; ".join(f"{count} × {unit}" for count, unit in _pairs(line.get("units")))
    if cid == "unit_description":
        units = "; ".join(f"{count} × {unit}" for count, unit in _pairs(line.get("units")))
        return f"{line.get('group_type', '')}{': ' + units if units else ''}"
    if cid == "sw_received":
        return ", ".join(f"{weapon} ×{count}" for weapon, count in _sw(line).items())
    return None


def purchase_cell(column: Column, line: Mapping[str, JSON]) -> str:
    """One RG Purchase Record cell from a PurchaseLine's JSON."""
    cid = column.id
    if cid in ("cg_date", "cg_scen"):
        return text(line.get("date_id"))
    if cid in ("rg_id", "group_type", "oba_ammo"):
        return text(line.get(cid))
    if cid in ("purchased", "p"):
        return "OB" if line.get("initial_ob") else text(line.get("number_purchased"))
    if cid in ("remaining", "r"):
        return text(line.get("remaining"))
    if cid == "strength":
        return {"F": "F", "D": "D"}.get(str(line.get("strength") or ""), "")
    listed = _listed_cell(cid, line)
    if listed is not None:
        return listed
    if cid in ("setup_area", "setup_entry"):
        return _setup_cell(line)
    if cid in NOTES_IDS:
        return _notes_cell(line)
    if cid in ("fortifications", "hip"):
        return ""
    return _sw_count(_sw(line), column.label)


def purchase_record(system: System, state: CampaignState, side: SideId, lines: PurchaseLines) -> PurchaseRecord:
    """The RG Purchase Record as ``side`` may see it: its own table; the opponent's only after CG end."""
    heading, columns = purchase_columns(system)
    visible = purchase_sides(system, state, side)
    tables = []
    for of_side in sides_of(system, side):
        name = side_name(system, of_side)
        if of_side not in visible:
            tables.append(RecordTable(of_side, name, False, (), (),
                                      f"The {name} RG Purchase Record stays secret until CG end."))
            continue
        rows = tuple(tuple(purchase_cell(c, line) for c in columns) for line in lines.get(of_side, ()))
        tables.append(RecordTable(of_side, name, of_side == side, columns, rows))
    return PurchaseRecord(heading, tuple(tables))
