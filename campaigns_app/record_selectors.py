"""Reads for the records: CG Roster, RG Purchase Record, dice log, CG end, dice verification. Nothing here writes.

Every value comes through rules_engine ``view_for`` (the viewer's own ledger in full; the opponent's only as the record
forms' column visibility allows; everything after CG end) and ``Event.visible_to``; the CG Roster and RG Purchase Record
lines come from their tables (``campaigns_app.records``) with the same visibility. A hidden cell is never put into a
context, so no template, print view or CSV export built from these contexts can leak it. The opponent's CG Roster has
one line per CG Date reached (the dates are public), whatever their books hold, so the number of lines tells nothing.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from campaigns_app import engine, records
from campaigns_app.models import Campaign, EventRecord, Seat
from rules_engine import dice as engine_dice
from rules_engine.view import public_roster_fields

# ------------------------------------------------------------------------------------------------------------- system


def system_for(campaign: Campaign) -> Any:
    """The campaign's System (base system + its CG Card): engine.system_for, or the base system if that is missing."""
    finder = getattr(engine, "system_for", None)
    if finder is not None:
        return finder(campaign)
    return engine.system_of(campaign.system)


def _load(seat: Seat) -> tuple[Campaign, Any, Any, dict[str, Any]]:
    """The seat's campaign (already loaded with the seat), its system, state and the side's view."""
    campaign = seat.campaign
    system = system_for(campaign)
    state = engine.load_state(campaign.state)
    view = engine.view_for(system, state, seat.side)
    return campaign, system, state, view


def _ended(state: Any) -> bool:
    return engine.cg_ended(state)


# ------------------------------------------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Column:
    id: str
    label: str


@dataclass
class RecordTable:
    """One side's section of a record form: the columns that side's viewer may see and one row of cells per line."""

    side: str
    side_name: str
    you: bool
    columns: list[Column]
    rows: list[list[str]]
    note: str = ""  # why columns/lines are missing (never what they hold)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def lines(self) -> list[list[tuple[str, str]]]:
        """Each row's cells with their column ids (for per-column styling)."""
        return [[(column.id, cell) for column, cell in zip(self.columns, row)] for row in self.rows]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _amount(value: Any) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def _amount_text(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _form(system: Any, pers: Sequence[str]) -> Any | None:
    for form in getattr(system, "forms", ()):
        if form.per in pers:
            return form
    return None


def _visibility(column: Any) -> str:
    return str(getattr(column, "visibility", "side"))


def _visible_columns(form_columns: Iterable[Any], own: bool, ended: bool) -> tuple[list[Column], list[str]]:
    """The columns a viewer sees of a side's form: all of their own, all after CG end, else the ``both`` ones only."""
    shown: list[Column] = []
    hidden: list[str] = []
    for column in form_columns:
        if own or ended or _visibility(column) == "public":
            shown.append(Column(column.id, column.label))
        else:
            hidden.append(column.label)
    return shown, hidden


# ------------------------------------------------------------------------------------------------------------ dates


def reached_dates(system: Any, state: Any) -> list[dict[str, Any]]:
    """The CG Dates / Firefights / TM Scenarios reached so far, in play order (public: both sides see the calendar)."""
    calendar = list(getattr(system, "calendar", ()) or ())
    if calendar:
        last = min(state.date_index, len(calendar) - 1)
        return [{"id": entry.id, "entry": entry} for entry in calendar[: last + 1]]
    seen: list[str] = []
    for record in state.history:
        if record.date_id not in seen:
            seen.append(record.date_id)
    if state.date_id not in seen:
        seen.append(state.date_id)
    return [{"id": date_id, "entry": None} for date_id in seen]


def _date_label(date: Mapping[str, Any]) -> str:
    entry = date.get("entry")
    label = str(date["id"])
    if entry is not None:
        if getattr(entry, "name", None) and entry.name != entry.id:
            label = f"{label} ({entry.name})"
        if getattr(entry, "night", False) and "night" not in label.casefold():
            label = f"{label} · Night"
    return label


def _cell_text(cell: Any) -> str:
    if cell is None:
        return ""
    text = getattr(cell, "text", None)
    return str(text if text is not None else cell)


# -------------------------------------------------------------------------------------------------------- CG Roster

DEFAULT_ROSTER = (
    ("cg_date", "CG Date", "public"), ("start", "Start", "side"), ("replenished", "Replenished", "side"),
    ("rg_purchased", "RG Purchased", "side"), ("spent", "Spent", "side"), ("left", "Left", "side"),
    ("recon", "Recon", "side"), ("elr", "ELR", "side"), ("san", "SAN", "side"), ("initiative", "Initiative", "side"),
    ("lvp", "LVP (Current / CG)", "side"), ("fortifications", "Fortifications", "side"),
)


@dataclass(frozen=True)
class _DefaultColumn:
    id: str
    label: str
    visibility: str


def roster_columns(system: Any) -> tuple[Any, tuple[Any, ...], bool]:
    """(form, its columns, whether the layout is the system's own) — a default layout where the seed has none."""
    form = _form(system, ("date", "scenario"))
    if form is not None and form.columns:
        return form, tuple(form.columns), True
    return None, tuple(_DefaultColumn(*c) for c in DEFAULT_ROSTER), False


def _roster_cell(column_id: str, line: Mapping[str, Any], date: Mapping[str, Any], choice: str | None) -> str:
    """One CG Roster cell from a RosterLine's JSON (keys absent from an opponent's public line stay empty)."""
    if column_id in ("cg_date", "scenario", "cg_scen"):
        return _date_label(date)
    if column_id == "ec_weather":
        entry = date.get("entry")
        parts = [_cell_text(getattr(entry, "ec", None)), _cell_text(getattr(entry, "weather", None))] if entry else []
        return " / ".join(p for p in parts if p)
    if column_id in ("start", "replenished", "repl", "spent", "used", "left"):
        key = {"repl": "replenished", "used": "spent"}.get(column_id, column_id)
        return _text(line.get(key))
    if column_id == "total":
        start, repl = _amount(line.get("start")), _amount(line.get("replenished"))
        if start is None:
            return ""
        return _amount_text(start + (repl or Decimal(0)))
    if column_id in ("rg_purchased", "rg_requisitioned"):
        bought = line.get("purchased") or []
        return ", ".join(f"{rg} ({cost})" for rg, cost in bought)
    if column_id in ("recon", "recce"):
        return _text(line.get("recon"))
    if column_id == "lvp":
        current, cg = line.get("lvp_current"), line.get("lvp_cg")
        if current is None and cg is None:
            return ""
        return f"{_text(current) or '–'} / {_text(cg) or '–'}"
    if column_id == "initiative":
        value = line.get("initiative")
        if value:
            return str(value).capitalize()
        return choice.capitalize() if choice else ""
    if column_id == "fortifications":
        return ", ".join(str(f) for f in line.get("fortifications") or [])
    if column_id == "vp_tally":
        return _text(line.get("cvp_amassed"))
    if column_id == "san" and line.get("san_pending"):  # the owner's own line only (the opponent never gets the key)
        pending = int(line["san_pending"])
        san = line.get("san")
        shown = "" if san is None else f"{int(san) + pending} "
        return f"{shown}(incl. {pending:+d} bought: secret until each side announces its SAN)"
    if column_id in ("elr", "san"):
        return _text(line.get(column_id))
    return _text(line.get(column_id))


MAP_RESULTS_COLUMN = Column("map_results", "Scenarios per Map Group (CVP amassed / suffered, LVP)")


def _map_results_by_date(state: Any) -> dict[str, Any]:
    """KGP 8.2: each CG Date's agreed results per Map Group (public: both sides entered and agreed them)."""
    return {record.date_id: record.map_results for record in state.history if getattr(record, "map_results", None)}


def map_results_cell(map_results: Mapping[str, Any], side: str) -> str:
    """One side's CG Roster cell for a CG Date played on Map Groups: "St: CVP 6 / 11, LVP 2; Lg: CVP 3 / 4, LVP 5"."""
    parts = []
    for group, result in map_results.items():
        other = next((s for s in result.cvp if s != side), None)
        text = f"{group}: CVP {_text(result.cvp.get(side))} / {_text(result.cvp.get(other)) if other else '–'}"
        if side in result.lvp:
            text += f", LVP {result.lvp[side]}"
        parts.append(text)
    return "; ".join(parts)


def _choices_by_date(state: Any) -> dict[str, dict[str, str]]:
    """Each date's revealed Attack/Idle choices (public once revealed), from the campaign history."""
    out: dict[str, dict[str, str]] = {}
    for record in state.history:
        if record.kind == "initial" and record.label == "initial":
            continue  # the Initial Scenario: no Initiative chit was chosen (its roles come from the scenario card)
        if record.choices:
            out[record.date_id] = {side: str(choice) for side, choice in record.choices.items()}
    return out


def _ledgers(view: Mapping[str, Any], side: str) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    """(own ledger JSON, opponent's ledger JSON as view_for gives it: public roster columns, or all after CG end)."""
    return view.get("ledger"), view.get("opponent_ledger")


def _sides(system: Any, seat: Seat) -> list[tuple[str, bool]]:
    """Both sides, the viewer's own first."""
    other = engine.other_side(system, seat.side)
    return [(seat.side, True), (other, False)]


def roster_tables(system: Any, state: Any, view: Mapping[str, Any], seat: Seat) -> list[RecordTable]:
    """The CG Roster of both sides as the seat's side may see it."""
    ended = _ended(state)
    _, columns, _ = roster_columns(system)
    dates = reached_dates(system, state)
    choices = _choices_by_date(state)
    played = _map_results_by_date(state)
    groups = bool(getattr(system, "map_groups", ()))
    # the RosterLine table (records.project keeps it in step with the ledgers): the opponent's lines with the form's
    # public columns only before CG end, the same fields view_for gives (the hidden cells never leave the database)
    by_side = records.roster_lines(seat.campaign, seat.side, None if ended else public_roster_fields(system))
    tables = []
    for side, own in _sides(system, seat):
        lines = by_side.get(side, {})
        shown, hidden = _visible_columns(columns, own, ended)
        rows = []
        side_dates = list(dates)
        if own or ended:  # a side's own lines for dates not in the calendar list (never for the opponent before end)
            known = {d["id"] for d in dates}
            side_dates += [{"id": date_id, "entry": None} for date_id in lines if date_id not in known]
        if groups:  # KGP 8.2: each Map Group's agreed results on the CG Date's line (public, as the results are)
            shown = [*shown, MAP_RESULTS_COLUMN]
        for date in side_dates:
            line = lines.get(str(date["id"]), {})
            choice = choices.get(str(date["id"]), {}).get(side)
            cells = [_roster_cell(c.id, line, date, choice) for c in shown if c.id != MAP_RESULTS_COLUMN.id]
            if groups:
                cells.append(map_results_cell(played.get(str(date["id"]), {}), side))
            rows.append(cells)
        note = ""
        if hidden:
            note = f"Hidden until CG end: {', '.join(hidden)}."
        tables.append(RecordTable(side, engine.side_name(system, side), own, shown, rows, note))
    return tables


def _money_lines(ledger: Mapping[str, Any] | None) -> dict[str, Any]:
    """A side's points, fortifications and other purchases (Attack Options, Patrols …) — private books."""
    if not ledger:
        return {"points": [], "fortifications": [], "items": []}
    points = [{"currency": k, "amount": v} for k, v in sorted((ledger.get("points") or {}).items())]
    forts = [
        {"date": f.get("date_id"), "type": f.get("type"), "quantity": f.get("quantity"),
         "cost": f"{f.get('cost')} {f.get('currency')}", "detail": f.get("detail") or "", "notes": f.get("notes") or ""}
        for f in ledger.get("fortifications") or []
    ]
    items = [
        {"date": i.get("date_id"), "kind": str(i.get("kind", "")).replace("-", " ").capitalize(),
         "quantity": i.get("quantity"), "cost": f"{i.get('cost')} {i.get('currency')}", "notes": i.get("notes") or ""}
        for i in ledger.get("items") or []
    ]
    return {"points": points, "fortifications": forts, "items": items}


def _base_context(seat: Seat, campaign: Campaign, system: Any, state: Any, view: Mapping[str, Any]) -> dict[str, Any]:
    ended = _ended(state)
    return {
        "campaign": campaign,
        "seat": seat,
        "system": system,
        "ended": ended,
        "side_name": engine.side_name(system, seat.side),
        "opponent_name": engine.side_name(system, engine.other_side(system, seat.side)),
        "date": view.get("date"),
    }


def roster_context(seat: Seat) -> dict[str, Any]:
    """The CG Roster page: both sides' tables (own in full), own points and fortifications (the opponent's at CG end)."""
    campaign, system, state, view = _load(seat)
    form, _, own_layout = roster_columns(system)
    tables = roster_tables(system, state, view, seat)
    own_ledger, their_ledger = _ledgers(view, seat.side)
    books = [{"side_name": tables[0].side_name, "you": True, **_money_lines(own_ledger)}]
    if _ended(state):
        books.append({"side_name": tables[1].side_name, "you": False, **_money_lines(their_ledger)})
    context = _base_context(seat, campaign, system, state, view)
    context.update({
        "nav": "roster",
        "form_name": form.name if form is not None else "CG Roster",
        "form_ref": getattr(form, "ref", None) if form is not None else None,
        "form_note": getattr(form, "note", None) if form is not None else None,
        "own_layout": own_layout,
        "tables": tables,
        "books": books,
        "map_groups": bool(getattr(system, "map_groups", ())),
    })
    return context


# ---------------------------------------------------------------------------------------------- RG Purchase Record

DEFAULT_PURCHASE = (
    ("cg_date", "CG Date"), ("rg_id", "RG ID"), ("group_type", "Group Type"), ("leaders_received", "Leaders Received"),
    ("purchased", "#P"), ("remaining", "#R"), ("strength", "Str"), ("units", "# Units"),
    ("sw_received", "SW Received"), ("setup_area", "Set-up/Entry Area"),
)
ALWAYS_PURCHASE = (("oba_ammo", "OBA ammunition"), ("notes", "Notes"))
SETUP_LABELS = {"entry": "Entry", "on-map": "On map", "reserve": "In Reserve"}
_NOTES_IDS = ("notes", "other")


def purchase_columns(system: Any) -> tuple[Any, list[Column], bool]:
    """(form, columns, whether the layout is the system's own): the form's columns, plus OBA ammunition and notes."""
    form = _form(system, ("rg",))
    if form is not None and form.columns:
        columns = [Column(c.id, c.label) for c in form.columns]
        own = True
    else:
        columns = [Column(i, label) for i, label in DEFAULT_PURCHASE]
        own = False
    ids = {c.id for c in columns}
    for column_id, label in ALWAYS_PURCHASE:
        if column_id == "notes" and ids & set(_NOTES_IDS):
            continue
        if column_id not in ids:
            columns.append(Column(column_id, label))
    return form, columns, own


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.casefold())


def _sw_count(sw: Mapping[str, Any], label: str) -> str:
    """A per-weapon column (PHD: LMG, MMG, HMG/.50-cal, Lt MTR, Baz/ Psk …): the count of the SW so named."""
    names = {_norm(part) for part in label.split("/") if _norm(part)}
    total = sum(int(count) for weapon, count in sw.items() if _norm(str(weapon)) in names)
    return str(total) if total else ""


def _purchase_cell(column: Column, line: Mapping[str, Any]) -> str:
    cid = column.id
    if cid in ("cg_date", "cg_scen"):
        return _text(line.get("date_id"))
    if cid == "rg_id":
        return _text(line.get("rg_id"))
    if cid == "group_type":
        return _text(line.get("group_type"))
    if cid in ("leaders_received", "leader"):
        return ", ".join(str(x) for x in line.get("leaders") or [])
    if cid in ("purchased", "p"):
        return "OB" if line.get("initial_ob") else _text(line.get("number_purchased"))
    if cid in ("remaining", "r"):
        return _text(line.get("remaining"))
    if cid == "strength":
        return {"F": "F", "D": "D"}.get(str(line.get("strength") or ""), "")
    if cid == "units":
        return "; ".join(f"{count} × {unit}" for count, unit in line.get("units") or [])
    if cid == "unit_description":
        units = "; ".join(f"{count} × {unit}" for count, unit in line.get("units") or [])
        return f"{line.get('group_type', '')}{': ' + units if units else ''}"
    if cid == "sw_received":
        return ", ".join(f"{weapon} ×{count}" for weapon, count in (line.get("sw") or {}).items())
    if cid in ("setup_area", "setup_entry"):
        area = _text(line.get("setup_area"))
        mode = SETUP_LABELS.get(str(line.get("setup_mode") or ""), "")
        pre = line.get("pre_registered") or 0
        parts = [p for p in (area, mode) if p]
        if pre:
            parts.append(f"{pre} Pre-Registered hex{'es' if pre != 1 else ''}")
        return " · ".join(parts)
    if cid == "oba_ammo":
        return _text(line.get("oba_ammo"))
    if cid in _NOTES_IDS:
        notes = [str(line.get("notes") or "")]
        if line.get("initial_ob"):  # said once, whatever the line's own note begins with
            notes = ["Initial Scenario OB (not counted toward the maxima)",
                     notes[0].removeprefix("Initial Scenario OB").lstrip(";, ")]
        if line.get("extra"):
            notes.append(f"+{line['extra']} extra")
        if line.get("cost") not in (None, ""):
            notes.append(f"cost {line['cost']}")
        return "; ".join(n for n in notes if n)
    if cid in ("fortifications", "hip"):
        return ""
    sw = line.get("sw") or {}
    return _sw_count(sw, column.label)


def purchase_tables(system: Any, state: Any, view: Mapping[str, Any], seat: Seat) -> list[RecordTable]:
    """The RG Purchase Record: the viewer's own side; the opponent's only after CG end (no lines, no count before)."""
    ended = _ended(state)
    _, columns, _ = purchase_columns(system)
    sides = _sides(system, seat)
    # the PurchaseRecordLine table: the viewer's own lines; the opponent's only after CG end (not even queried before)
    by_side = records.purchase_lines(seat.campaign, [side for side, own in sides if own or ended])
    tables = []
    for side, own in sides:
        name = engine.side_name(system, side)
        if not own and not ended:
            tables.append(RecordTable(side, name, False, [], [],
                                      f"The {name} RG Purchase Record stays secret until CG end."))
            continue
        lines = by_side.get(side, [])
        rows = [[_purchase_cell(c, line) for c in columns] for line in lines]
        tables.append(RecordTable(side, name, own, list(columns), rows))
    return tables


def purchases_context(seat: Seat) -> dict[str, Any]:
    campaign, system, state, view = _load(seat)
    form, _, own_layout = purchase_columns(system)
    context = _base_context(seat, campaign, system, state, view)
    context.update({
        "nav": "purchases",
        "form_name": form.name if form is not None else "RG Purchase Record",
        "form_ref": getattr(form, "ref", None) if form is not None else None,
        "form_note": getattr(form, "note", None) if form is not None else None,
        "own_layout": own_layout,
        "tables": purchase_tables(system, state, view, seat),
    })
    return context


# ---------------------------------------------------------------------------------------------------------- dice log


@dataclass
class DiceRow:
    date: str
    purpose: str
    roller: str
    stream: str
    number: int
    kind: str
    dice: list[int]
    original: int
    modifiers: list[dict[str, Any]]
    final: Any
    result: str
    table: str
    visibility: str  # public | own | revealed
    caution: str = ""

    @property
    def roller_words(self) -> str:
        """"Canadian side"; a side named "… Side" (PL "Allied Side") as it is."""
        return self.roller if self.roller.casefold().endswith(" side") else f"{self.roller} side"

    @property
    def stream_label(self) -> str:
        return f"{self.stream} #{self.number}"

    @property
    def modifiers_text(self) -> str:
        return "; ".join(f"{m['reason']} {int(m['value']):+d}" if _is_int(m.get("value")) else f"{m['reason']} {m.get('value')}"
                         for m in self.modifiers)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _modifier_text(value: Any) -> str:
    """"+2", "-1" for an added DRM; as recorded otherwise (KGP 8.31 halving: "÷2")."""
    return f"{value:+d}" if _is_int(value) else str(value)


def _modifiers(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    found = payload.get("modifiers")
    if isinstance(found, list):
        return [{"reason": str(m.get("reason", "")), "value": m.get("value"), "text": _modifier_text(m.get("value"))}
                for m in found if isinstance(m, Mapping)]
    drm = payload.get("drm")
    if _is_int(drm) and drm:
        return [{"reason": "DRM", "value": drm, "text": _modifier_text(drm)}]
    return []


def dice_rows(system: Any, records: Sequence[EventRecord], viewer: str, ended: bool) -> list[DiceRow]:
    """Every roll the viewer may see, in the order made, with its breakdown (a ``table-result`` right after a roll is
    that roll's resolution). The date comes from public events only."""
    rows: list[DiceRow] = []
    made: dict[tuple[str, Any], DiceRow] = {}
    date = ""
    visible = engine.visible_records(records, viewer, ended)
    stream_names = {side: engine.side_name(system, side) for side in engine.side_ids(system)}
    for index, record in enumerate(visible):
        payload = record.payload or {}
        if record.visibility == EventRecord.Visibility.PUBLIC and record.kind in ("campaign-started", "date-advanced"):
            date = str(payload.get("date") or date)
        if record.kind == "roll-resolved":  # a roll that fell on a lost value, resolved once a player typed it
            earlier = made.get((str(payload.get("stream", "")), payload.get("number")))
            if earlier is not None:
                earlier.final = payload.get("final", earlier.final)
                earlier.modifiers = _modifiers(payload) or earlier.modifiers
                earlier.result = f"{_text(payload.get('result'))} (value typed by a player: lost in the rule text)"
            continue
        if record.kind != "roll":
            continue
        dice = [int(d) for d in payload.get("dice") or [] if _is_int(d)]
        original = payload.get("original", payload.get("total", sum(dice)))
        modifiers = _modifiers(payload)
        final: Any = payload.get("final", original)
        result = payload.get("result")
        table = ""
        caution = ""
        label = payload.get("label")
        table_id = payload.get("table")
        if isinstance(table_id, str) and table_id:
            found = (getattr(system, "tables", None) or {}).get(table_id)
            table = " ".join(str(p) for p in (getattr(found, "ref", None) or payload.get("rule"),
                                               getattr(found, "name", None) or table_id) if p)
            columns = tuple(getattr(found, "columns", ()) or ())
            if payload.get("column") and len(columns) > 1:
                label = next((c.label for c in columns if c.id == payload["column"]), payload["column"])
                table = f"{table}, column {label}"
        follower = visible[index + 1] if index + 1 < len(visible) else None
        if follower is not None and follower.kind == "table-result":
            extra = follower.payload or {}
            if list(extra.get("dice") or []) == dice and extra.get("side") in (payload.get("roller"), None):
                modifiers = _modifiers(extra) or modifiers
                final = extra.get("final", final)
                result = extra.get("result", result)
                table = " ".join(str(p) for p in (extra.get("table_ref"), extra.get("table_name")) if p)
                if extra.get("row"):
                    table = f"{table}, row {extra['row']}" if table else f"row {extra['row']}"
                caution = str(extra.get("caution") or "")
        if result is not None and str(result) in stream_names:
            result = stream_names[str(result)]
        result_text = _text(result)
        if label and str(label) not in result_text:
            result_text = f"{result_text} ({label})" if result_text else str(label)
        for problem in ("error", "lost"):
            if payload.get(problem):
                result_text = f"{result_text} — {payload[problem]}" if result_text else str(payload[problem])
        stream = str(payload.get("stream", ""))
        if record.visibility == EventRecord.Visibility.PUBLIC:
            visibility = "public"
        elif record.side == viewer:
            visibility = "own"
        else:
            visibility = "revealed"
        row = DiceRow(
            date=str(payload.get("date") or date),
            purpose=str(payload.get("purpose", "")),
            roller=stream_names.get(str(payload.get("roller")), str(payload.get("roller", ""))),
            stream="Public" if stream == engine_dice.PUBLIC_STREAM else stream_names.get(stream, stream),
            number=int(payload.get("number") or 0),
            kind=str(payload.get("kind", "")),
            dice=dice,
            original=original,
            modifiers=modifiers,
            final=final,
            result=result_text,
            table=table,
            visibility=visibility,
            caution=caution,
        )
        made[(str(payload.get("stream", "")), payload.get("number"))] = row
        rows.append(row)
    return rows


def _records(campaign: Campaign) -> list[EventRecord]:
    return list(EventRecord.objects.filter(campaign=campaign).order_by("seq"))


def dice_context(seat: Seat) -> dict[str, Any]:
    """The dice log: public rolls and the viewer's own secret rolls (everything after CG end)."""
    campaign, system, state, view = _load(seat)
    ended = _ended(state)
    rows = dice_rows(system, _records(campaign), seat.side, ended)
    context = _base_context(seat, campaign, system, state, view)
    context.update({
        "nav": "dice",
        "rows": rows,
        "public_count": sum(1 for r in rows if r.visibility == "public"),
        "own_count": sum(1 for r in rows if r.visibility == "own"),
        "revealed_count": sum(1 for r in rows if r.visibility == "revealed"),
    })
    return context


# ------------------------------------------------------------------------------------------------------------ CG end

REASONS = {
    "last-date": "the last CG Date was played",
    "objectives": "the CG objectives were met",
    "concession": "a side conceded",
    "mutual-agreement": "both sides agreed to end it (mutual agreement)",
}
VICTORY_RULE_IDS = ("victory", "cg-victory", "cg-objectives", "tm-objective", "cg-end", "tm-end")


def victory_rules(system: Any) -> tuple[list[dict[str, str]], str | None]:
    """(the system's CG victory / CG end rules as printed, the note saying the victory conditions are lost or None)."""
    rules = [
        {"ref": str(rule.ref or ""), "name": str(rule.name or rule.id), "text": str(rule.text or "")}
        for rule in getattr(system, "special_rules", ())
        if rule.id in VICTORY_RULE_IDS and getattr(rule, "text", None)
    ]
    missing = None
    defines = any(rule.id in ("victory", "cg-victory", "cg-objectives", "tm-objective")
                  for rule in getattr(system, "special_rules", ()) if getattr(rule, "text", None))
    if not defines:
        for part in getattr(system, "missing_parts", ()):
            if getattr(part, "part", None) == "victory_conditions" or getattr(part, "id", None) == "victory":
                missing = str(getattr(part, "note", "") or "The CG Victory Conditions are not in the rule text.")
    return rules, missing


def victory_verdict(system: Any, state: Any) -> dict[str, Any] | None:
    """The CG Victory Conditions (the card's, else the system's) judged on the records (rules_engine.victory.judge):
    text, the victor or None, each condition's measure against it, the values it would need; None without any."""
    from rules_engine.victory import judge

    verdict = judge(system, state)
    return dict(verdict.to_json(system)) if verdict is not None else None


def _totals(system: Any, state: Any, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Final totals per side (shown at CG end): tracks, points left, RG bought, CVP amassed/suffered from the results."""
    sides = engine.side_ids(system)
    cvp = {side: 0 for side in sides}
    suffered = {side: 0 for side in sides}
    leaders = {side: 0 for side in sides}
    units = {side: 0 for side in sides}
    scenarios = 0
    for record in state.history:
        result = record.result
        if result is None:
            continue
        scenarios += 1
        for side in sides:
            cvp[side] += int(result.cvp.get(side, 0))
            suffered[side] += sum(int(v) for k, v in result.cvp.items() if k != side)
            leaders[side] += int(result.leaders_lost.get(side, 0))
            units[side] += int(result.units_lost.get(side, 0))
    own, theirs = view.get("ledger") or {}, view.get("opponent_ledger") or {}
    ledgers = {str(own.get("side")): own, str(theirs.get("side")): theirs}
    rows = []
    for side in sides:
        tracks = (view.get("tracks") or {}).get(side) or dict(state.tracks.get(side, {}))
        ledger = ledgers.get(side) or {}
        bought = [p for p in ledger.get("purchases") or [] if not p.get("initial_ob")]
        rows.append({
            "side": side,
            "side_name": engine.side_name(system, side),
            "cg_lvp": tracks.get("cg_lvp"),
            "lvp": tracks.get("lvp"),
            "san": tracks.get("san"),
            "elr": tracks.get("elr"),
            "cvp": cvp[side] if scenarios else None,
            "cvp_suffered": suffered[side] if scenarios else None,
            "leaders_lost": leaders[side] if scenarios else None,
            "units_lost": units[side] if scenarios else None,
            "rg_bought": len(bought),
            "points": ", ".join(f"{v} {k}" for k, v in sorted((ledger.get("points") or {}).items())),
        })
    return rows


def supplied_values(system: Any, records: Sequence[EventRecord], viewer: str, ended: bool) -> list[dict[str, Any]]:
    """Values the players typed in (SAN/ELR, DRM facts, cells lost in the rule text), as the viewer may see them."""
    rows = []
    for record in engine.visible_records(records, viewer, ended):
        if "suppl" not in record.kind:
            continue
        payload = record.payload or {}
        side = record.side or str(payload.get("side") or "")
        values = payload.get("values")
        if isinstance(values, Mapping):
            text = ", ".join(f"{k} = {_text(v)}" for k, v in values.items())
        elif payload.get("text"):
            text = str(payload["text"])
        else:
            parts = [f"{k}: {_text(payload[k])}" for k in ("table", "row", "column", "value", "text") if payload.get(k) is not None]
            text = "; ".join(parts)
        rows.append({"side_name": engine.side_name(system, side) if side else "", "step": _text(payload.get("step")),
                     "text": text, "you": side == viewer})
    return rows


def player_seeds(system: Any, seats: Iterable[Seat]) -> tuple[str, str] | None:
    by_side = {seat.side: seat.player_seed for seat in seats}
    first, second = engine.side_ids(system)
    if first not in by_side or second not in by_side:
        return None
    return (by_side[first], by_side[second])


def cg_end_context(seat: Seat) -> dict[str, Any]:
    """The CG end page: how to end (before), or the end, the victor per the system, totals and the full reveal."""
    campaign, system, state, view = _load(seat)
    ended = _ended(state)
    seats = list(Seat.objects.filter(campaign=campaign).select_related("user"))
    rules, missing = victory_rules(system)
    vc = getattr(system, "victory_conditions", None)
    if vc is not None:  # shown once, as the CG Victory Conditions (PHD's C4.2 TM Objective is also a special rule)
        rules = [rule for rule in rules if rule["text"] != vc.text]
    other = engine.other_side(system, seat.side)
    proposals = view.get("end_proposals") or {}
    context = _base_context(seat, campaign, system, state, view)
    context.update({
        "nav": "cg-end",
        "both_seated": len(seats) == 2,
        "phased": bool(view.get("phased")),
        "victory_rules": rules,
        "victory_missing": None if vc is not None else missing,
        "victory": {"text": vc.text, "ref": vc.ref} if vc is not None else None,  # judged once the CG has ended
        "i_proposed": bool(proposals.get(seat.side)),
        "they_proposed": bool(proposals.get(other)),
        "cg_end": None,
        "totals": [],
        "supplied": [],
        "seed": None,
    })
    end = state.cg_end
    if ended:
        records = _records(campaign)
        seeds = player_seeds(system, seats)
        context.update({
            "cg_end": {
                "reason": REASONS.get(end.reason, end.reason) if end else "the CG ended",
                "reason_id": end.reason if end else "",
                "date": engine.date_name(system, end.date_id if end else state.date_id),
                "side_name": engine.side_name(system, end.side) if end and end.side else None,
                "victor_name": engine.side_name(system, end.victor) if end and end.victor else None,
            },
            "totals": _totals(system, state, view),
            "victory": victory_verdict(system, state),
            "supplied": supplied_values(system, records, seat.side, True),
            "seed": campaign.dice_seed,  # revealed: the CG is over
            "player_seeds": [{"side_name": engine.side_name(system, s), "seed": v}
                             for s, v in zip(engine.side_ids(system), seeds or ("", ""))],
            "roll_count": sum(1 for r in records if r.kind == "roll"),
        })
    return context


# --------------------------------------------------------------------------------------------------- verification


def _raw_roll(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {key: payload.get(key) for key in ("stream", "number", "kind", "dice", "roller", "purpose")}


def dice_export(campaign: Campaign, seats: Iterable[Seat] | None = None) -> dict[str, Any] | None:
    """The refit-dice/1 export of every roll (seed revealed) — None while the CG runs: the seed never leaves before."""
    system = system_for(campaign)
    state = engine.load_state(campaign.state)
    if not _ended(state):
        return None
    seeds = player_seeds(system, seats if seats is not None else Seat.objects.filter(campaign=campaign))
    if seeds is None:
        return None
    rolls = [_raw_roll(r.payload or {}) for r in EventRecord.objects.filter(campaign=campaign, kind="roll").order_by("seq")]
    rolls.sort(key=lambda r: (r["stream"] != engine_dice.PUBLIC_STREAM, str(r["stream"]),
                              r["number"] if _is_int(r["number"]) else 0))
    return {
        "format": engine_dice.EXPORT_FORMAT,
        "campaign": campaign.public_id,
        "seed": campaign.dice_seed,
        "commitment": campaign.seed_commitment,  # as published at the start, not recomputed from the seed
        "player_seeds": list(seeds),
        "rolls": rolls,
    }


def _counter_failures(export: Mapping[str, Any], counters: Mapping[str, Any]) -> list[str]:
    """A roll dropped from the END of a stream: the server's persisted counter says how many were made."""
    seen: dict[str, int] = {}
    for roll in export.get("rolls") or []:
        number = roll.get("number")
        if _is_int(number):
            seen[str(roll.get("stream"))] = max(seen.get(str(roll.get("stream")), 0), number)
    failures = []
    for stream, following in sorted((counters or {}).items()):
        made = int(following) - 1 if _is_int(following) else 0
        if made != seen.get(stream, 0):
            failures.append(f"stream {stream}: {made} roll(s) were made, the log holds {seen.get(stream, 0)}")
    return failures


def verification_context(seat: Seat) -> dict[str, Any]:
    """Recompute every roll against the commitment published at the start (after CG end; before, explain)."""
    campaign, system, state, view = _load(seat)
    context = _base_context(seat, campaign, system, state, view)
    context.update({"nav": "verify", "verification": None})
    if not _ended(state):
        return context
    export = dice_export(campaign)
    if export is None:
        return context
    result = engine_dice.verify_export(export)
    failures = list(result.failures) + _counter_failures(export, campaign.dice_counters or {})
    context.update({
        "verification": {"ok": result.ok and not failures, "checked": result.checked, "total": len(export["rolls"]),
                         "failures": failures},
        "seed": export["seed"],
        "player_seeds": export["player_seeds"],
    })
    return context
