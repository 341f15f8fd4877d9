"""Command line: list systems, tables and settings, look up a printed cell, check a definition file, verify a dice export."""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from rules_engine.board_secret import reveal_problems
from rules_engine.dice import roll_from_json, verify_export
from rules_engine.dice.stats import Scope, figures_text, samples_of_rolls, statistics
from rules_engine.errors import DefinitionError, DefinitionErrors, MissingValueError, RulesError, UnknownNameError
from rules_engine.events import EventKind
from rules_engine.loader import definition_kind, parse_card, parse_system
from rules_engine.model import VERIFY_NOTE, Setting, System
from rules_engine.notes import verify_notes

EXIT_OK = 0
EXIT_REFUSED = 1  # a lookup into a lost value, an invalid definition, a failed dice verification
EXIT_USAGE = 2  # unknown system, table or column; bad arguments; unreadable file


def fixtures_dir() -> Path:
    """$REFIT_FIXTURES_DIR, else the repository's fixtures/ directory."""
    env = os.environ.get("REFIT_FIXTURES_DIR")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "fixtures"


def _system_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.glob("*.yaml") if p.is_file())


def load_system(system_id: str, directory: Path | None = None) -> System:
    """Read and validate fixtures/<id>.yaml (UnknownNameError listing the systems there)."""
    directory = directory or fixtures_dir()
    path = directory / f"{system_id}.yaml"
    if not path.is_file():
        known = ", ".join(p.stem for p in _system_files(directory)) or f"none in {directory}"
        raise UnknownNameError(f"unknown system {system_id!r} (allowed: {known})")
    return parse_system(path.read_text(encoding="utf-8"), str(path))


def load_definition(path: Path, directory: Path | None = None) -> System:
    """Read a system or a CG Card (its base is read from the fixtures directory)."""
    text = path.read_text(encoding="utf-8")
    kind, extends = definition_kind(text, str(path))
    if kind == "system":
        return parse_system(text, str(path))
    if extends is None:
        raise DefinitionErrors([DefinitionError(str(path), "extends", "a cg-card needs `extends: <system id>`")])
    return parse_card(text, str(path), load_system(extends, directory))


def _cmd_systems(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    directory = fixtures_dir()
    files = _system_files(directory)
    if not files:
        print(f"no CG systems in {directory}", file=err)
        return EXIT_REFUSED
    status = EXIT_OK
    for path in files:
        try:
            system = parse_system(path.read_text(encoding="utf-8"), str(path))
        except DefinitionErrors as exc:
            print(f"{path.name}: invalid definition:\n{exc}", file=err)
            status = EXIT_REFUSED
            continue
        print(f"{system.id}\t{system.name}", file=out)
    return status


def _cmd_tables(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    system = load_system(args.system)
    for table in system.tables.values():
        columns = ", ".join(c.id if c.id.casefold() == c.label.casefold() else f"{c.id} ({c.label})" for c in table.columns)
        print(f"{table.id}\t{table.ref}\t{table.name}\t{table.dice.value}\tcolumns: {columns}", file=out)
    return EXIT_OK


def _setting_kind(setting: Setting) -> str:
    if setting.choices:
        return "one of " + ", ".join(setting.choices)
    if setting.range is not None:
        return f"{setting.type} {setting.range[0]}..{setting.range[1]}"
    return setting.type


def _cmd_settings(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    system = load_system(args.system)
    if not system.settings:
        print(f"{system.id} has no settings", file=err)
        return EXIT_OK
    for setting in system.settings:
        fields = [setting.id, setting.ref or "-", setting.label, _setting_kind(setting),
                  f"from {setting.source}" + (", per side" if setting.per_side else "")]
        if setting.default is not None:
            fields.append(f"default {json.dumps(setting.default)}")
        print("\t".join(fields), file=out)
    return EXIT_OK


def _cmd_lookup(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    system = load_system(args.system)
    table = system.table(args.table)
    cell = table.cell(args.final, args.column)
    row = table.row_for(args.final)
    if row.verify:
        reading = f"row printed {row.label!r}, read as {row.range_text}" if row.label else f"row {row.range_text}"
        why = f" ({row.note})" if row.note else ""
        print(f"note: {system.id} {table.id} final {args.final}: {reading}{why}; {VERIFY_NOTE}", file=err)
    caution = cell.caution
    if caution:
        print(f"note: {system.id} {table.id} final {args.final}: {caution}", file=err)
    print(cell.text, file=out)
    return EXIT_OK


def _cmd_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    status = EXIT_OK
    for name in args.files:
        path = Path(name)
        try:
            system = load_definition(path)
        except DefinitionErrors as exc:
            print(str(exc), file=err)
            status = EXIT_REFUSED
            continue
        what = f"CG Card {system.card.id} for {system.id}" if system.card else f"system {system.id}"
        print(f"{path}: ok ({what}, {len(system.tables)} tables)", file=out)
    return status


class _Unread(Exception):
    """A file a verify command could not read as JSON (the exit status it answers with)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _read_json(path: Path, err: TextIO) -> object:
    """The file's JSON (_Unread after saying on ``err`` why it could not be read)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"cannot read {path}: {exc.strerror}", file=err)
        raise _Unread(EXIT_USAGE) from None
    except json.JSONDecodeError as exc:
        print(f"{path} is not JSON: {exc}", file=err)
        raise _Unread(EXIT_REFUSED) from None


def _cmd_verify_dice(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    path = Path(args.file)
    try:
        data = _read_json(path, err)
    except _Unread as unread:
        return unread.status
    reveals: list[dict[str, object]] = []
    if isinstance(data, dict) and str(data.get("format", "")).startswith("refit-archive/"):
        reveals = _board_reveals(data.get("events"))
        data = data.get("dice")  # a campaign's archive holds its dice export
    if not isinstance(data, dict):
        print(f"{path}: expected a JSON object (a refit-dice/1 export or a refit-archive/1)", file=err)
        return EXIT_REFUSED
    result = verify_export(data)
    rolls = data.get("rolls")
    failures = [*result.failures, *reveal_problems(
        [r for r in rolls if isinstance(r, dict)] if isinstance(rolls, list) else [], reveals)]
    if not failures:
        print(f"all {result.checked} rolls verified", file=out)
        if args.stats:
            _print_stats(data, out)
        return EXIT_OK
    for failure in failures:
        print(failure, file=out)
    print(f"verification FAILED: {len(failures)} problem(s) in {result.checked} rolls checked", file=err)
    return EXIT_REFUSED


def _board_reveals(events: object) -> list[dict[str, object]]:
    """An archive's revealed secret rolls at the board (each must show the roll made: its kind, dice and purpose)."""
    found = events if isinstance(events, list) else []
    return [e["payload"] for e in found if isinstance(e, dict) and e.get("kind") == EventKind.BOARD_ROLL_REVEALED
            and isinstance(e.get("payload"), dict)]


def _cmd_verify_notes(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    path = Path(args.file)
    try:
        data = _read_json(path, err)
    except _Unread as unread:
        return unread.status
    found = data.get("notes") if isinstance(data, dict) else data
    if not isinstance(found, list) or not all(isinstance(note, dict) for note in found):
        print(f"{path}: expected a list of notes, or an object with \"notes\" (a campaign archive)", file=err)
        return EXIT_REFUSED
    lines = verify_notes(found)
    for line in lines:
        print(line, file=out)
    failed = sum(1 for line in lines if "FAILED" in line)
    if failed:
        print(f"verification FAILED: {failed} of {len(lines)} notes", file=err)
        return EXIT_REFUSED
    print(f"all {len(lines)} notes match their commitments", file=out)
    return EXIT_OK


def _print_stats(data: dict[str, object], out: TextIO) -> None:
    """The dice statistics of a verified export, per roller and both together (the same figures as the page)."""
    raw = data.get("rolls")
    rolls = [roll_from_json(item) for item in raw if isinstance(item, dict)] if isinstance(raw, list) else []
    rollers = sorted({str(roll.roller) for roll in rolls})
    for scope in Scope:
        print(f"\n{scope.value} rolls", file=out)
        for line in figures_text(statistics(samples_of_rolls(rolls), rollers, scope)):
            print(line, file=out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules_engine",
        description="Refit's rules engine: CG systems as data (fixtures: $REFIT_FIXTURES_DIR or <repo>/fixtures).",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("systems", help="list the CG systems (id and name)")
    p.set_defaults(run=_cmd_systems)
    p = sub.add_parser("tables", help="list a system's dice tables and their columns")
    p.add_argument("system")
    p.set_defaults(run=_cmd_tables)
    p = sub.add_parser("settings", help="list what a CG Card or the players supply for a system (id, rule, kind)")
    p.add_argument("system")
    p.set_defaults(run=_cmd_settings)
    p = sub.add_parser("lookup", help="print one cell of a dice table, as printed")
    p.add_argument("system")
    p.add_argument("table")
    p.add_argument("final", type=int, help="the final DR/dr (beyond the edges: the first/last row)")
    p.add_argument("--column", "-c", help="column id or label (case-insensitive); needed when the table has several")
    p.set_defaults(run=_cmd_lookup)
    p = sub.add_parser("check", help="validate system or CG Card files and list every problem")
    p.add_argument("files", nargs="+")
    p.set_defaults(run=_cmd_check)
    p = sub.add_parser("verify-dice", help="recompute every roll of a refit-dice/1 JSON export")
    p.add_argument("file")
    p.add_argument("--stats", action="store_true",
                   help="after a successful verification, print the dice statistics per side (DR, dice, dr; chi-square)")
    p.set_defaults(run=_cmd_verify_dice)
    p = sub.add_parser("verify-notes", help="check revealed sealed notes (text, salt) against their SHA-256 commitments")
    p.add_argument("file")
    p.set_defaults(run=_cmd_verify_notes)
    return parser


_FAILURES: tuple[tuple[type[Exception], str, int], ...] = (
    (UnknownNameError, "error: ", EXIT_USAGE),
    (MissingValueError, "refused: ", EXIT_REFUSED),
    (DefinitionErrors, "invalid definition:\n", EXIT_REFUSED),
    (RulesError, "error: ", EXIT_REFUSED),
    (OSError, "error: ", EXIT_USAGE),
)
"""How a failed command reports: the first matching kind gives the message prefix and the exit status."""


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one command; return the exit status (0 ok, 1 refused, 2 unknown name or bad usage)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    try:
        status: int = args.run(args, out, err)
    except (RulesError, OSError) as exc:
        prefix, code = next((p, c) for kind, p, c in _FAILURES if isinstance(exc, kind))
        print(f"{prefix}{exc}", file=err)
        return code
    return status
