"""CSV and JSON exports of the records, built from the same contexts as the pages (so the same visibility holds:
a column or line the viewer may not see is never in a context, hence never in an export)."""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from typing import Any

from campaigns_app.records.door import DiceRow, RecordTable


def _cell(value: Any) -> str:
    """A CSV cell; text a spreadsheet would run as a formula (=, @, or +/− before a non-number) is quoted with '."""
    text = "" if value is None else str(value)
    if text[:1] in ("=", "@", "\t", "\r") or (text[:1] in ("+", "-") and not text[1:2].isdigit()):
        return "'" + text
    return text


def _csv(rows: Iterable[Iterable[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(cell) for cell in row])
    return buffer.getvalue()


def tables_csv(tables: Iterable[RecordTable]) -> str:
    """A record form as CSV: one block per side (its own header line), a blank line between sides.

    A side whose form the viewer may not see yet gives a single line saying so (no header, no lines)."""
    out: list[list[Any]] = []
    for table in tables:
        if out:
            out.append([])
        if not table.columns:
            out.append(["Side", table.side_name])
            out.append([table.note])
            continue
        out.append(["Side", *[column.label for column in table.columns]])
        for row in table.rows:
            out.append([table.side_name, *row])
        if table.note:
            out.append([table.note])
    return _csv(out)


DICE_HEADER = ("Date", "Stream", "No.", "Purpose", "Roller", "Kind", "Dice", "Original", "DRM", "Final", "Table",
               "Result", "Seen by")
SEEN_BY = {"public": "both sides", "own": "you only (secret)", "revealed": "both (revealed at CG end)"}


def dice_csv(rows: Iterable[DiceRow]) -> str:
    """The dice log as CSV, one line per roll the viewer may see."""
    out: list[list[Any]] = [list(DICE_HEADER)]
    for row in rows:
        out.append([
            row.date, row.stream, row.number, row.purpose, row.roller, row.kind, "+".join(str(d) for d in row.dice),
            row.original, row.modifiers_text, row.final, row.table, row.result, SEEN_BY.get(row.visibility, ""),
        ])
    return _csv(out)


def dice_json(export: Mapping[str, Any]) -> str:
    """The refit-dice/1 export as pretty JSON (``python -m rules_engine verify-dice FILE`` checks it)."""
    return json.dumps(export, ensure_ascii=False, indent=2) + "\n"
