"""What a system leaves to a CG Card, as form sections (docs/cg-format.md Part 1): the same parts the loader checks.

Every field has a form name that mirrors its place in the `refit-cg/1` document (``calendar.2.weather``,
``settings_values.hist_cp_drm.axis``, ``rg_charts.0.rows.3.cost``, ``supply.leader.1.result``); rows of a grid are
numbered in the name and kept in that order. ``rules_engine.card_form`` turns the submitted names into the document.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from rules_engine.card_fields import (
    BOOL,
    CARD_CHART,
    CELL,
    CHOICE,
    DICE,
    INT,
    LIST,
    LONGTEXT,
    ROW_MARK,
    TEXT,
    UNITS,
    YAML,
    Block,
    Field,
    Grid,
    Section,
    rows_of,
)
from rules_engine.card_parts import currency_codes, owned_parts, part_sections
from rules_engine.card_refs import part_ref
from rules_engine.loader.words import RG_TYPES, TABLE_PER
from rules_engine.model import DiceTable, Setting, System
from rules_engine.victory import MEASURE_NAMES
from rules_engine.vocabulary import VICTORY_MEASURES, VICTORY_OPS


def _missing(system: System, part: str) -> list[str | None]:
    return [m.id for m in system.missing_parts if m.part == part]


def _note(system: System, part: str) -> str:
    return " ".join(m.note for m in system.missing_parts if m.part == part and m.id is None)


def offers_rg_charts(system: System) -> bool:
    """The system's RG charts are lost or on the CG Card (a `missing_parts` entry for the whole part)."""
    return None in _missing(system, "rg_charts")


def offers_new_tables(system: System) -> bool:
    """The system's Refit tables are not in the rule text (ER, KGP): the card adds them."""
    return None in _missing(system, "tables")


def replaced_tables(system: System) -> list[DiceTable]:
    """Tables the system names as lost (`missing_parts: {part: tables, id: …}`) that a card may give whole."""
    return [system.tables[i] for i in _missing(system, "tables") if i is not None and i in system.tables]


def base_number_columns(system: System) -> bool:
    """Whether calendar rows carry each side's CPP base number (a step reads ``calendar.base_numbers`` or the steps
    are the card's)."""
    if any(step.params.get("base") == "calendar.base_numbers" for step in system.steps):
        return True
    return "steps" in {m.part for m in system.missing_parts if m.id is None}


def lost_cells(system: System) -> list[tuple[DiceTable, int, str, str]]:
    """Every lost cell or row label of the system's tables: (table, row index, column id or ``_label``, note)."""
    out: list[tuple[DiceTable, int, str, str]] = []
    for table in system.tables.values():
        for n, row in enumerate(table.rows):
            if row.label_missing is not None:
                out.append((table, n, "_label", row.label_missing))
            for k, column in enumerate(table.columns):
                if row.missing is not None:
                    out.append((table, n, column.id, row.missing))
                elif k < len(row.cells) and row.cells[k].missing:
                    out.append((table, n, column.id, row.cells[k].note or "lost"))
    return out


def _setting_field(system: System, setting: Setting, name: str, label: str, data: Mapping[str, str]) -> Field:
    if setting.type == "choice":
        kind, choices = CHOICE, (("", "—"), *((c, c) for c in setting.choices))
    elif setting.type == "bool":
        kind, choices = CHOICE, (("", "—"), ("true", "yes"), ("false", "no"))
    else:
        kind, choices = (INT if setting.type == "int" else TEXT), ()
    allowed = f"{setting.range[0]} to {setting.range[1]}" if setting.range else ""
    help_text = "; ".join(t for t in (setting.note or "", f"allowed: {allowed}" if allowed else "") if t)
    chart = CARD_CHART if setting.source == "cg-card" else ("the players' choice" if setting.source == "players" else
                                                            "the rules")
    return Field(name, label, kind, setting.ref or "", chart, help_text, choices, data.get(name, ""))


def _settings_section(system: System, data: Mapping[str, str], players: bool) -> Section | None:
    chosen = [s for s in system.settings if (s.source == "players") == players]
    if not chosen:
        return None
    fields: list[Field] = []
    for s in chosen:
        if s.per_side:
            per = [_setting_field(system, s, f"settings_values.{s.id}.{side.id}", f"{s.label} — {side.name}", data)
                   for side in system.sides]
            fields += [per[0], *(replace(f, help="") for f in per[1:])]  # the note once
        else:
            fields.append(_setting_field(system, s, f"settings_values.{s.id}", s.label, data))
    blocks = [Block("", tuple(fields), prefix="settings_values")]
    if players:
        return Section("choices", "The players' choices (preselected)", "", "the players' choice",
                       "The players choose these when they start a campaign; a value here is the preselection they "
                       "start from. Leave “—” to let them choose.", tuple(blocks))
    return Section("settings", "Settings printed on the CG Card", "", CARD_CHART,
                   "The values your printed CG Card gives (python -m rules_engine settings "
                   f"{system.id} lists them).", tuple(blocks))


def _grid(prefix: str, title: str, columns: tuple[Field, ...], data: Mapping[str, str], dice: int = 0,
          ref: str = "", chart: str = "") -> Grid:
    rows = []
    for n in rows_of(data, prefix):
        rows.append((n, tuple(Field(f"{prefix}.{n}.{c.name}", c.label, c.kind, c.ref or ref, c.chart or chart, c.help,
                                    c.choices, data.get(f"{prefix}.{n}.{c.name}", ""),
                                    unit_items(data, f"{prefix}.{n}.{c.name}") if c.kind == UNITS else ())
                              for c in columns)))
    return Grid(prefix, title, tuple(c.label for c in columns), tuple(rows), dice, ref, chart)


def unit_items(data: Mapping[str, str], prefix: str) -> tuple[tuple[int, str, str], ...]:
    """The (row, count, unit) rows typed under ``prefix`` (``rg_charts.0.rows.2.full``)."""
    return tuple((k, data.get(f"{prefix}.{k}.count", ""), data.get(f"{prefix}.{k}.unit", ""))
                 for k in rows_of(data, prefix))


def _calendar_section(system: System, data: Mapping[str, str]) -> Section:
    note = next((m.note for m in system.missing_parts if m.part == "calendar"), "")
    rule = part_ref(system, "calendar")
    unit = system.time_unit.name if system.time_unit else "CG Date"
    columns = [Field("id", "Id", TEXT), Field("name", "Name", TEXT), Field("date", "Date", TEXT),
               Field("night", "Night", BOOL), Field("initial", "Initial", BOOL), Field("weather", "Weather", CELL),
               Field("ec", "EC", CELL)]
    if system.map_groups:
        columns.append(Field("map_groups", "Map Groups", LIST, system.map_groups[0].ref or "",
                             help="Map Group ids in play, e.g. " + ", ".join(g.id for g in system.map_groups)))
    if base_number_columns(system):
        columns += [Field(f"base_numbers.{side.id}", f"Base {side.name}", CELL) for side in system.sides]
    columns.append(Field("extra", "More (YAML)", YAML, help="other keys of the row, e.g. {replenishment_roll: false}"))
    grid = _grid("calendar", f"{unit}s", tuple(columns), data, ref=rule, chart=f"{CARD_CHART} ({unit} list)")
    return Section("calendar", f"Calendar: each {unit}", rule, f"{CARD_CHART} ({unit} list)",
                   note or f"The {unit}s in order; the first one marked Initial is the Initial Scenario.",
                   (Block("", grids=(grid,), prefix="calendar"),))


def _ob_section(system: System, data: Mapping[str, str]) -> Section:
    typed = data.get("initial_ob.ref", "")
    rule = part_ref(system, "initial_ob")
    ref = typed or rule
    chart = "the Initial Scenario card"
    blocks: list[Block] = [Block("", (Field("initial_ob.ref", "Rule or card it is printed on", TEXT, rule, chart=chart,
                                            value=typed),), prefix="initial_ob.ref")]
    for side in system.sides:
        p = f"initial_ob.sides.{side.id}"
        fields = [Field(f"{p}.points.{cur.code}", f"Starting {cur.code}", INT, ref, chart,
                        cur.name, value=data.get(f"{p}.points.{cur.code}", "")) for cur in system.currencies]
        fields += [Field(f"{p}.elr", "ELR", INT, ref, chart, value=data.get(f"{p}.elr", "")),
                   Field(f"{p}.san", "SAN", INT, ref, chart, value=data.get(f"{p}.san", "")),
                   Field(f"{p}.text", "OB as printed", LONGTEXT, ref, chart, value=data.get(f"{p}.text", ""))]
        rg = _grid(f"{p}.rg", f"{side.name}: RG given by the OB",
                   (Field("id", "RG id on the chart", TEXT), Field("group_type", "or group type", TEXT),
                    Field("count", "Count", INT)), data, ref=ref, chart=chart)
        blocks.append(Block(f"{side.name}", tuple(fields), (rg,), prefix=p))
    note = _note(system, "initial_ob") or "Each side's Initial Scenario OB: RG given, starting points, ELR and SAN."
    return Section("initial_ob", "Initial Scenario OB", rule or typed, chart, note, tuple(blocks))


# A chart's notes (the letters its rows name): ``rg_charts.<n>.notes.<k>.<letter|text|leader_table|columns_by_type|extra>``
RG_NOTE_COLUMNS = (
    Field("letter", "Note letter", TEXT, help="as the rows name it, e.g. l"),
    Field("text", "Note as printed", TEXT),
    Field("leader_table", "Leader table rolled on", TEXT, help="the id of the table the RG's leader is rolled on, e.g. leader"),
    Field("columns_by_type", "Leader table column by RG type", TEXT, help="RG type: column id, e.g. I: us, A: armour"),
    Field("extra", "More (YAML)", YAML, help="other keys of the note, e.g. {depletable: true}"),
)


def _rg_section(system: System, data: Mapping[str, str]) -> Section:
    blocks = []
    for n in rows_of(data, "rg_charts"):
        p = f"rg_charts.{n}"
        side = data.get(f"{p}.side", "")
        names = {s.id: s.name for s in system.sides}
        ref = data.get(f"{p}.ref", "") or part_ref(system, "rg_charts")
        chart = data.get(f"{p}.name", "") or "RG chart"
        fields = (Field(f"{p}.side", "Side", CHOICE, choices=tuple((s.id, s.name) for s in system.sides), value=side),
                  Field(f"{p}.ref", "Rule number", TEXT, value=data.get(f"{p}.ref", "")),
                  Field(f"{p}.name", "Chart name as printed", TEXT,
                                                                            value=data.get(f"{p}.name", "")),
                  Field(f"{p}.columns.cost", "Cost column heading", TEXT, value=data.get(f"{p}.columns.cost", "")),
                  Field(f"{p}.columns.date_max", "Date max heading", TEXT, value=data.get(f"{p}.columns.date_max", "")),
                  Field(f"{p}.columns.cg_max", "CG max heading", TEXT, value=data.get(f"{p}.columns.cg_max", "")),
                  Field(f"{p}.extra", "More (YAML)", YAML, help="other keys of the chart, e.g. {combined_max: …}",
                        value=data.get(f"{p}.extra", "")))
        columns = (Field("id", "Id", TEXT), Field("type", "Type", CHOICE, choices=tuple((t, t) for t in RG_TYPES)),
                   Field("group_type", "Group type", TEXT), Field("cost", "Cost", CELL), Field("date_max", "Date max", CELL),
                   Field("cg_max", "CG max", CELL),
                   Field("full", "Full strength units", UNITS, help="count and unit, e.g. 3 × 6-6-8"),
                   Field("depleted", "Reduced (Depleted) strength units", UNITS, help="count and unit"),
                   *(Field(f"gives.{code}", f"Gives {code}", CELL, help=f"{code} the RG gives when bought")
                     for code in currency_codes(system, data)),
                   Field("notes", "Notes", LIST, help="the chart's note letters, e.g. a, l"),
                   Field("description", "Description", TEXT),
                   Field("extra", "More (YAML)", YAML, help="e.g. {sw: {LMG: 1}}"))
        grid = _grid(f"{p}.rows", f"{chart} rows", columns, data, ref=ref, chart=chart)
        notes = _grid(f"{p}.notes", f"{chart} notes", RG_NOTE_COLUMNS, data, ref=ref, chart=chart)
        blocks.append(Block(f"{names.get(side, side)}: {chart}", fields, (grid, notes), prefix=p))
    return Section("rg_charts", "RG charts", part_ref(system, "rg_charts"), "each side's RG chart",
                   _note(system, "rg_charts") or "Each side's RG chart as printed.", tuple(blocks))


def table_columns(text: str) -> list[tuple[str, str]]:
    """``leader: Leader; us: U.S.`` as (id, label) pairs (a bare label gets an id made from it)."""
    out = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        ident, sep, label = part.partition(":")
        if not sep:
            label = ident
            ident = re.sub(r"[^a-z0-9]+", "-", ident.lower()).strip("-") or "result"
        out.append((ident.strip(), label.strip()))
    return out


def _table_block(data: Mapping[str, str], p: str, removable: bool, title: str = "") -> Block:
    ref = data.get(f"{p}.ref", "")
    name = data.get(f"{p}.name", "") or "Dice table"
    fields = (Field(f"{p}.id", "Table id", TEXT, value=data.get(f"{p}.id", "")),
              Field(f"{p}.ref", "Rule number", TEXT, value=ref), Field(f"{p}.name", "Name as printed", TEXT,
                                                                        value=data.get(f"{p}.name", "")),
              Field(f"{p}.dice", "Dice", CHOICE, choices=tuple((d, d) for d in DICE), value=data.get(f"{p}.dice", "")),
              Field(f"{p}.per", "Rolled per", CHOICE, choices=tuple((t, t) for t in TABLE_PER),
                    value=data.get(f"{p}.per", "")),
              Field(f"{p}.secret", "Secret roll", BOOL, value=data.get(f"{p}.secret", "")),
              Field(f"{p}.columns", "Columns (id: Label; …)", TEXT, help="e.g. leader: Leader; us: U.S.",
                    value=data.get(f"{p}.columns", "")),
              Field(f"{p}.extra", "Modifiers and more (YAML)", YAML, value=data.get(f"{p}.extra", "")))
    cols = (Field("label", "Row (dice) as printed", TEXT), Field("min", "Lowest final", INT),
            Field("max", "Highest final", INT),
            *(Field(f"cells.{k}", label, CELL) for k, (_, label) in enumerate(table_columns(data.get(f"{p}.columns", "")))),
            Field("extra", "More (YAML)", YAML))
    grid = _grid(f"{p}.rows", f"{name} rows", cols, data, dice=3, ref=ref, chart=name)
    return Block(title or f"{ref} {name}".strip(), fields, (grid,), prefix=p, removable=removable)


def _tables_section(system: System, data: Mapping[str, str]) -> Section:
    fixed = {t.id for t in replaced_tables(system)}
    blocks = [_table_block(data, f"tables.{n}", data.get(f"tables.{n}.id", "") not in fixed)
              for n in rows_of(data, "tables")]
    return Section("tables", "Refit tables and charts", "", "the printed tables",
                   " ".join(m.note for m in system.missing_parts if m.part == "tables"),
                   tuple(blocks), add="tables" if offers_new_tables(system) else "")


def _victory_section(system: System, data: Mapping[str, str]) -> Section:
    p = "victory_conditions"
    rule = part_ref(system, "victory_conditions")
    sides = tuple((s.id, s.name) for s in system.sides)
    fields = (Field(f"{p}.ref", "Printed on", TEXT, value=data.get(f"{p}.ref", ""), help="default: CG Card"),
              Field(f"{p}.text", "CG Victory Conditions as printed", LONGTEXT, rule, value=data.get(f"{p}.text", "")),
              Field(f"{p}.otherwise", "Victor when no condition is met", CHOICE, choices=(("", "—"), *sides),
                    value=data.get(f"{p}.otherwise", "")))
    grid = _grid(f"{p}.conditions", "Conditions Refit checks at CG end (tried in order)",
                 (Field("side", "Side wins", CHOICE, choices=sides),
                  Field("measure", "Measure", CHOICE,
                        choices=tuple((m, f"the side's {MEASURE_NAMES.get(m, m)}") for m in VICTORY_MEASURES)),
                  Field("op", "Compare", CHOICE, choices=tuple((o, o) for o in VICTORY_OPS)), Field("value", "Value", INT)),
                 data, ref=rule, chart=CARD_CHART)
    note = _note(system, "victory_conditions")
    return Section("victory_conditions", "CG Victory Conditions", rule, CARD_CHART,
                   note or "The CG Victory Conditions as printed; conditions are optional.", (Block("", fields, (grid,),
                                                                                               prefix=p),))


def _supply_section(system: System, data: Mapping[str, str]) -> Section | None:
    cells = lost_cells(system)
    if not cells:
        return None
    blocks: dict[str, list[Field]] = {}
    for table, n, column, note in cells:
        row = table.rows[n]
        name = f"supply.{table.id}.{n}.{column}"
        label = f"Row {row.range_text}" + (" label" if column == "_label" else (
            f", {table.column(column).label}" if len(table.columns) > 1 else ""))
        blocks.setdefault(table.id, []).append(Field(name, label, CELL, table.ref, table.name, note, (), data.get(name, "")))
    return Section("supply", "Values the rule text lost", "", "the printed tables",
                   "Type each value as printed on your chart; leave it blank if your campaign never needs it.",
                   tuple(Block(f"{system.tables[t].ref} {system.tables[t].name}", tuple(f), prefix=f"supply.{t}")
                         for t, f in blocks.items()))


def _header_section(system: System, data: Mapping[str, str]) -> Section:
    fields = (Field("id", "Card id", TEXT, help="lower-case letters, digits and hyphens", value=data.get("id", "")),
              Field("name", "Card name", TEXT, value=data.get("name", "")),
              Field("source", "Where the values come from", TEXT, value=data.get("source", "")),
              Field("example", "An example, not a published campaign", BOOL, value=data.get("example", "")))
    return Section("card", "The card", "", CARD_CHART, f"A CG Card for {system.name} ({system.id}).",
                   (Block("", fields, prefix=""),))


def _other_section(system: System, data: Mapping[str, str]) -> Section:
    lacking = [m.part + (f" {m.id}" if m.id else "") for m in system.missing_parts
               if m.part not in ("calendar", "initial_ob", "rg_charts", "tables", "settings", *owned_parts(system))]
    help_text = ("Any other card part as YAML (limits, forms, map_groups_in_play …). "
                 + (f"{system.id} still lacks: {', '.join(lacking)}." if lacking else ""))
    return Section("other", "Other parts (YAML)", "", "", help_text,
                   (Block("", (Field("other", "Other parts", LONGTEXT, value=data.get("other", "")),), prefix="other"),))


def card_sections(system: System, data: Mapping[str, str]) -> tuple[Section, ...]:
    """The sections of the card form for a system, with the values of ``data`` (see ``card_form.initial_form``)."""
    sections: list[Section | None] = [
        _header_section(system, data),
        _settings_section(system, data, players=False),
        _settings_section(system, data, players=True),
        *part_sections(system, data),
        _calendar_section(system, data),
        _ob_section(system, data),
        _rg_section(system, data) if offers_rg_charts(system) else None,
        _tables_section(system, data) if offers_new_tables(system) or replaced_tables(system) else None,
        _supply_section(system, data),
        _victory_section(system, data),
        _other_section(system, data),
    ]
    return tuple(s for s in sections if s is not None)


__all__ = ["BOOL", "CELL", "CHOICE", "UNITS", "Block", "Field", "Grid", "INT", "LIST", "LONGTEXT", "ROW_MARK", "Section", "TEXT",
           "YAML", "base_number_columns", "card_sections", "lost_cells", "offers_new_tables", "offers_rg_charts",
           "replaced_tables", "rows_of", "table_columns", "unit_items"]
