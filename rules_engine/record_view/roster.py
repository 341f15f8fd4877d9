"""The CG Roster (RR 2.518 and its kin): one line per CG Date reached for each side, the columns the viewer may see
(``visibility``), and each side's books. The opponent's table has one line per CG Date reached (the dates are
public), whatever their books hold, so the number of lines tells nothing."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from rules_engine.event_words import side_name
from rules_engine.events import JSON
from rules_engine.model import CalendarEntry, FormColumn, System
from rules_engine.record_view.model import (
    Book,
    Column,
    FormHeading,
    FortificationEntry,
    ItemEntry,
    PointsLine,
    RecordTable,
    RosterLines,
    RosterRecord,
)
from rules_engine.record_view.pictures import pictures
from rules_engine.record_view.text import (
    amount,
    amount_text,
    cell_text,
    date_label,
    form_for,
    text,
)
from rules_engine.record_view.visibility import (
    opponent_roster_fields,
    sees_books,
    sides_of,
    visible_columns,
    visible_roster_line,
)
from rules_engine.state import CampaignState, ScenarioResult
from rules_engine.vocabulary import SideId, Visibility

DEFAULT_ROSTER = (
    ("cg_date", "CG Date", Visibility.PUBLIC), ("start", "Start", Visibility.SIDE),
    ("replenished", "Replenished", Visibility.SIDE), ("rg_purchased", "RG Purchased", Visibility.SIDE),
    ("spent", "Spent", Visibility.SIDE), ("left", "Left", Visibility.SIDE), ("recon", "Recon", Visibility.SIDE),
    ("elr", "ELR", Visibility.SIDE), ("san", "SAN", Visibility.SIDE), ("initiative", "Initiative", Visibility.SIDE),
    ("lvp", "LVP (Current / CG)", Visibility.SIDE), ("fortifications", "Fortifications", Visibility.SIDE),
)
MAP_RESULTS_COLUMN = Column("map_results", "Scenarios per Map Group (CVP amassed / suffered, LVP)")


@dataclass(frozen=True)
class ReachedDate:
    """A CG Date / Firefight / TM Scenario reached, with its calendar entry (None: met only in the history)."""

    id: str
    entry: CalendarEntry | None = None


def roster_columns(system: System) -> tuple[FormHeading, tuple[FormColumn, ...]]:
    """The CG Roster form's heading and columns — a default layout where the seed has none."""
    form = form_for(system, ("date", "scenario"))
    if form is not None and form.columns:
        return FormHeading(form.name, form.ref, form.note, True), tuple(form.columns)
    return FormHeading("CG Roster", None, None, False), tuple(FormColumn(*c) for c in DEFAULT_ROSTER)


def reached_dates(system: System, state: CampaignState) -> list[ReachedDate]:
    """The CG Dates / Firefights / TM Scenarios reached so far, in play order (public: both sides see the calendar)."""
    if system.calendar:
        last = min(state.date_index, len(system.calendar) - 1)
        return [ReachedDate(entry.id, entry) for entry in system.calendar[: last + 1]]
    seen: list[str] = []
    for record in state.history:
        if record.date_id not in seen:
            seen.append(record.date_id)
    if state.date_id not in seen:
        seen.append(state.date_id)
    return [ReachedDate(date_id) for date_id in seen]


def _money_cell(column_id: str, line: Mapping[str, JSON]) -> str | None:
    """The points cells (RR 2.518: Left = Start + Replenished − Spent), or None for another column."""
    if column_id in ("start", "replenished", "repl", "spent", "used", "left"):
        key = {"repl": "replenished", "used": "spent"}.get(column_id, column_id)
        return text(line.get(key))
    if column_id == "total":
        start, repl = amount(line.get("start")), amount(line.get("replenished"))
        if start is None:
            return ""
        return amount_text(start + (repl or Decimal(0)))
    if column_id in ("rg_purchased", "rg_requisitioned"):
        bought = line.get("purchased") or []
        pairs = [pair for pair in bought if isinstance(pair, (list, tuple))] if isinstance(bought, (list, tuple)) else []
        return ", ".join(f"{pair[0]} ({pair[1]})" for pair in pairs)
    return None


def _track_cell(column_id: str, line: Mapping[str, JSON], choice: str | None) -> str:
    """The other cells: Recon, LVP, Initiative, fortifications, ELR and SAN (a SAN increase bought but secret)."""
    if column_id in ("recon", "recce"):
        return text(line.get("recon"))
    if column_id == "lvp":
        current, cg = line.get("lvp_current"), line.get("lvp_cg")
        if current is None and cg is None:
            return ""
        return f"{text(current) or '–'} / {text(cg) or '–'}"
    if column_id == "initiative":
        value = line.get("initiative")
        if value:
            return str(value).capitalize()
        return choice.capitalize() if choice else ""
    if column_id == "fortifications":
        forts = line.get("fortifications") or []
        return ", ".join(str(f) for f in forts) if isinstance(forts, (list, tuple)) else ""
    if column_id == "vp_tally":
        return text(line.get("cvp_amassed"))
    pending = line.get("san_pending")
    if column_id == "san" and pending:  # the owner's own line only (the opponent never gets the key)
        san = line.get("san")
        shown = "" if san is None else f"{int(str(san)) + int(str(pending))} "
        return f"{shown}(incl. {int(str(pending)):+d} bought: secret until each side announces its SAN)"
    return text(line.get(column_id))


def roster_cell(column_id: str, line: Mapping[str, JSON], date: ReachedDate, choice: str | None) -> str:
    """One CG Roster cell from a RosterLine's JSON (keys absent from an opponent's public line stay empty)."""
    if column_id in ("cg_date", "scenario", "cg_scen"):
        return date_label(date.id, date.entry)
    if column_id == "ec_weather":
        entry = date.entry
        parts = [cell_text(entry.ec), cell_text(entry.weather)] if entry else []
        return " / ".join(p for p in parts if p)
    money = _money_cell(column_id, line)
    return money if money is not None else _track_cell(column_id, line, choice)


def map_results_cell(map_results: Mapping[str, ScenarioResult], side: SideId) -> str:
    """One side's CG Roster cell for a CG Date played on Map Groups (KGP 8.2): "St: CVP 6 / 11, LVP 2; Lg: …"."""
    parts = []
    for group, result in map_results.items():
        other = next((s for s in result.cvp if s != side), None)
        cell = f"{group}: CVP {text(result.cvp.get(side))} / {text(result.cvp.get(other)) if other else '–'}"
        if side in result.lvp:
            cell += f", LVP {result.lvp[side]}"
        parts.append(cell)
    return "; ".join(parts)


def _choices_by_date(state: CampaignState) -> dict[str, dict[str, str]]:
    """Each date's revealed Attack/Idle choices (public once revealed), from the campaign history."""
    out: dict[str, dict[str, str]] = {}
    for record in state.history:
        if record.kind == "initial" and record.label == "initial":
            continue  # the Initial Scenario: no Initiative chit was chosen (its roles come from the scenario card)
        if record.choices:
            out[record.date_id] = {side: str(choice) for side, choice in record.choices.items()}
    return out


def _side_table(system: System, state: CampaignState, side: SideId, own: bool,
                lines: Mapping[str, Mapping[str, JSON]]) -> RecordTable:
    """One side's CG Roster as the viewer may see it."""
    ended = state.ended
    _, columns = roster_columns(system)
    dates = reached_dates(system, state)
    choices = _choices_by_date(state)
    played = {r.date_id: r.map_results for r in state.history if r.map_results}  # KGP 8.2: agreed, public
    groups = bool(system.map_groups)
    fields = opponent_roster_fields(system, state)
    shown_form, hidden = visible_columns(columns, own, ended)
    shown = [Column(c.id, c.label) for c in shown_form]
    if own or ended:  # a side's own lines for dates not in the calendar list (never for the opponent before end)
        known = {d.id for d in dates}
        dates += [ReachedDate(date_id) for date_id in lines if date_id not in known]
    if groups:  # KGP 8.2: each Map Group's agreed results on the CG Date's line (public, as the results are)
        shown = [*shown, MAP_RESULTS_COLUMN]
    rows = []
    for date in dates:
        line = visible_roster_line(lines.get(date.id, {}), own, fields)
        choice = choices.get(date.id, {}).get(side)
        cells = [roster_cell(c.id, line, date, choice) for c in shown if c.id != MAP_RESULTS_COLUMN.id]
        if groups:
            cells.append(map_results_cell(played.get(date.id, {}), side))
        rows.append(tuple(cells))
    note = f"Hidden until CG end: {', '.join(hidden)}." if hidden else ""
    return RecordTable(side, side_name(system, side), own, tuple(shown), tuple(rows), note)


def _mappings(value: JSON) -> list[Mapping[str, JSON]]:
    """The objects of a JSON list (none for anything else)."""
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, (list, tuple)) else []


def _book(system: System, state: CampaignState, side: SideId, you: bool) -> Book:
    """A side's points, fortifications and other purchases (Attack Options, Patrols …) — private books."""
    ledger = state.ledgers.get(side)
    name = side_name(system, side)
    if ledger is None:
        return Book(name, you)
    data = ledger.to_json()
    points = data.get("points") or {}
    assert isinstance(points, Mapping)
    forts, items = _mappings(data.get("fortifications")), _mappings(data.get("items"))
    return Book(
        name, you,
        tuple(PointsLine(str(k), v) for k, v in sorted(points.items())),
        tuple(FortificationEntry(f.get("date_id"), f.get("type"), f.get("quantity"),
                                 f"{f.get('cost')} {f.get('currency')}", f.get("detail") or "", f.get("notes") or "")
              for f in forts),
        tuple(ItemEntry(i.get("date_id"), str(i.get("kind", "")).replace("-", " ").capitalize(), i.get("quantity"),
                        f"{i.get('cost')} {i.get('currency')}", i.get("notes") or "")
              for i in items),
    )


def roster_record(system: System, state: CampaignState, side: SideId, lines: RosterLines) -> RosterRecord:
    """The CG Roster of both sides as ``side`` may see it, with the books it may see (own; both after CG end)."""
    form, _ = roster_columns(system)
    tables = tuple(_side_table(system, state, s, s == side, lines.get(s, {})) for s in sides_of(system, side))
    books = tuple(_book(system, state, s, s == side) for s in sides_of(system, side) if sees_books(state, side, s))
    dates = [d.id for d in reached_dates(system, state)]
    figures = pictures(system, state.history, dates, side, lines, opponent_roster_fields(system, state))
    return RosterRecord(form, tables, books, bool(system.map_groups), figures)
