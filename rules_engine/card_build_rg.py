"""The CG Card form's RG charts to the card document: rows, units, notes (docs/cg-format.md "rg_charts")."""
from __future__ import annotations

from rules_engine.card_form import RG_ROW_KEYS, UNIT_KEYS, Path
from rules_engine.card_reader import Reader, blank
from rules_engine.card_values import word_list


def rg_charts_part(r: Reader) -> list[object]:
    """The card's RG charts as the form gives them: each side's chart, its rows (units, SW, gives) and notes."""
    charts: list[object] = []
    for n in r.rows("rg_charts"):
        p = f"rg_charts.{n}"
        path: Path = ("rg_charts", len(charts))
        r.built.origin[path] = f"{p}.name"
        chart: dict[str, object] = {}
        for key in ("side", "ref", "name"):
            r.put(chart, key, f"{p}.{key}", path, text=key != "ref")
        columns: dict[str, object] = {}
        for key in ("cost", "date_max", "cg_max"):
            r.put(columns, key, f"{p}.columns.{key}", (*path, "columns"), text=True)
        if columns:
            chart["columns"] = columns
        rows: list[object] = []
        for m in r.rows(f"{p}.rows"):
            rp = f"{p}.rows.{m}"
            if blank(r.data, rp):
                continue
            rpath: Path = (*path, "rows", len(rows))
            r.built.origin[rpath] = f"{rp}.id"
            row: dict[str, object] = {}
            for key in RG_ROW_KEYS:
                if key == "notes":
                    if r.raw(f"{rp}.notes").strip():
                        r.built.origin[(*rpath, "notes")] = f"{rp}.notes"
                        row["notes"] = word_list(r.raw(f"{rp}.notes"))
                else:
                    r.put(row, key, f"{rp}.{key}", rpath, text=key in ("type", "group_type", "description"))
            for key in UNIT_KEYS:
                units = _units(r, f"{rp}.{key}", (*rpath, key))
                if units:
                    row[key] = units
            gives: dict[str, object] = {}
            for code in sorted({k.split(".")[-1] for k in r.data if k.startswith(f"{rp}.gives.")}):
                r.put(gives, code, f"{rp}.gives.{code}", (*rpath, "gives"))
            if gives:
                row["gives"] = gives
                r.built.origin[(*rpath, "gives")] = f"{rp}.gives.{next(iter(gives))}"
            row.update(r.mapping(f"{rp}.extra", rpath))
            rows.append(row)
        chart["rows"] = rows
        r.built.origin[(*path, "rows")] = f"{p}.name"
        notes = _rg_notes(r, f"{p}.notes", (*path, "notes"))
        if notes:
            chart["notes"] = notes
        chart.update(r.mapping(f"{p}.extra", path))
        if blank(r.data, p) or (list(chart) == ["side", "rows"] and not rows):
            continue
        charts.append(chart)
    return charts


def _rg_notes(r: Reader, prefix: str, path: Path) -> dict[str, object]:
    """``<prefix>.<k>.<letter|text|leader_table|columns_by_type|extra>`` rows as a chart's ``notes`` (by letter)."""
    notes: dict[str, object] = {}
    r.built.origin[path] = prefix
    for k in r.rows(prefix):
        np = f"{prefix}.{k}"
        if blank(r.data, np):
            continue
        letter = r.raw(f"{np}.letter").strip()
        if not letter:
            r.built.problems.append((f"{np}.letter", "a note needs the letter its rows name"))
            continue
        if letter in notes:
            r.built.problems.append((f"{np}.letter", f"note {letter!r} is already given above"))
            continue
        npath: Path = (*path, letter)
        r.built.origin[npath] = f"{np}.letter"
        note: dict[str, object] = {}
        r.put(note, "text", f"{np}.text", npath, text=True)
        r.put(note, "leader_table", f"{np}.leader_table", npath, text=True)
        by_type: dict[str, object] = {}
        for part in (w.strip() for w in r.raw(f"{np}.columns_by_type").split(",")):
            if not part:
                continue
            rg_type, sep, column = (x.strip() for x in part.partition(":"))
            if not sep or not rg_type or not column:
                r.built.problems.append((f"{np}.columns_by_type", f"{part!r}: write RG type: column id, e.g. I: us"))
                continue
            by_type[rg_type] = column
        if by_type:
            note["params"] = {"columns_by_type": by_type}
            r.built.origin[(*npath, "params")] = f"{np}.columns_by_type"
        note.update(r.mapping(f"{np}.extra", npath))
        notes[letter] = note
    return notes


def _units(r: Reader, prefix: str, path: Path) -> list[object]:
    """``<prefix>.<k>.count`` / ``.unit`` rows as [{count, unit}] (a problem shows beside the list)."""
    out: list[object] = []
    for k in r.rows(prefix):
        if blank(r.data, f"{prefix}.{k}"):
            continue
        r.built.origin[(*path, len(out))] = prefix
        unit: dict[str, object] = {"count": r.value(f"{prefix}.{k}.count", (*path, len(out), "count")),
                                   "unit": r.value(f"{prefix}.{k}.unit", (*path, len(out), "unit"), text=True)}
        r.built.origin[(*path, len(out), "count")] = prefix  # the list's slot: its inputs have none of their own
        r.built.origin[(*path, len(out), "unit")] = prefix
        out.append({key: value for key, value in unit.items() if value is not None})
    r.built.origin[path] = prefix
    return out


__all__ = ["rg_charts_part"]
