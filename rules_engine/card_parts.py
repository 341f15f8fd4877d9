"""The CG Card form's sections for a RePh sequence, currencies, the initiative matrix and the Idle rule — shown when a
system leaves that part to the card (`missing_parts`) — and their form data ↔ `refit-cg/1` (docs/cg-format.md).

Field names: ``steps.<n>.<ref|name|sides|initial|loop_on_idle|secret|revealed|action|params.<currency|dice|base|table>|
extra>``, ``currencies.<n>.<code|name|carry_over|ref|note>``, ``initiative.<ref|mode|extra>``,
``initiative.matrix.<axis choice>/<allied choice>.<result|label|setup_first|moves_first>``,
``idle.<name|loop|steps|then|note>``, ``fortifications.<ref|currency|extra>``,
``fortifications.rows.<n>.<type|cost|note|extra>``, ``setup_costs.<ref|minimum|note|extra>``,
``setup_costs.modes.<n>.<mode|ref|by_type.<RG type>>``. A card step keeps what the system file says of the same ref (the loader's
``rules_engine.loader.card``), so the form shows and asks only for what the card changes.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rules_engine import step_kinds
from rules_engine.card_fields import (
    BOOL,
    CELL,
    CHOICE,
    INT,
    LIST,
    TEXT,
    YAML,
    Block,
    Field,
    Grid,
    Section,
    rows_of,
)
from rules_engine.loader.words import MATRIX_RESULTS, RG_TYPES, STEP_SECRET
from rules_engine.model import System

CARD_PARTS_OFFERED = ("steps", "currencies", "initiative", "fortifications", "setup_costs")
SETUP_MODES = (("on-map", "set up on map"), ("reserve", "in Reserve"), ("entry", "entering"))
PARAM_KEYS = ("currency", "dice", "base", "table")
STEP_FORM_KEYS = ("ref", "name", "sides", "order", "initial", "loop_on_idle", "secret", "revealed", "action",
                  "automation", "params")
CHITS = ("attack", "idle")
BASE_SOURCES = (("calendar.base_numbers", "each CG Date's base number (calendar)"),)
SECRET_WORDS = {"none": "nothing secret", "roll": "a secret roll", "choice": "a sealed choice",
                "purchase": "a secret purchase", "record": "a secret record"}
REVEALED = (("", "as the rules file says"), ("never", "never (until CG end)"), ("immediately", "at once"),
            ("cg-end", "at CG end"))
RESULT_WORDS = {"dual-attack": "Dual Attack", "axis-assault": "the Axis side attacks",
                "allied-assault": "the Allied side attacks", "idle": "Idle (no scenario)"}


@dataclass(frozen=True)
class ActionChoice:
    """Something Refit does at a step: its action id, the words a player reads, its automation and the params it takes."""

    id: str
    label: str
    automation: str
    params: tuple[str, ...] = ()


def _kind(action: str) -> str:
    """The step kind the loader derives from ``action`` (rules_engine.step_kinds: the one source, issue 14 item 10)."""
    return step_kinds.derive(action, (), {}).value


STEP_ACTIONS: tuple[ActionChoice, ...] = (
    ActionChoice("", "as the rules file says for this step (else: played on the board)", ""),
    ActionChoice("on-board", "played on the board; Refit lists the step", "on-board"),
    ActionChoice("replenish-base-minus-dr", "points: the CG Date's base number minus a secret roll",
               _kind("replenish-base-minus-dr"), ("currency", "dice", "base")),
    ActionChoice("replenish-from-table", "points from a dice table, rolled in secret", _kind("replenish-from-table"),
               ("currency", "table")),
    ActionChoice("purchase-rg", "secret RG purchase", _kind("purchase-rg"), ("currency",)),
    ActionChoice("purchase-fortifications", "secret Fortification purchase", _kind("purchase-fortifications"),
               ("currency",)),
    ActionChoice("initiative", "sealed Attack/Idle chits, revealed to both at once", _kind("initiative")),
    ActionChoice("secret-roll", "a secret roll per side", _kind("secret-roll"), ("dice",)),
    ActionChoice("roll-per-side", "a roll per side on a dice table", _kind("roll-per-side"), ("table",)),
    ActionChoice("record-lvp", "each side records its LVP", _kind("record-lvp")),
    ActionChoice("weather-from-calendar", "weather from the calendar", _kind("weather-from-calendar")),
)
ACTIONS_BY_ID = {a.id: a for a in STEP_ACTIONS}


def offers(system: System, part: str) -> bool:
    """The system leaves ``part`` whole to the card (a `missing_parts` entry without an id)."""
    return any(m.part == part and m.id is None for m in system.missing_parts)


def offers_idle(system: System) -> bool:
    """The Idle rule is asked when the system has none and leaves its RePh sequence or initiative to the card."""
    return system.idle is None and (offers(system, "steps") or offers(system, "initiative"))


def _note(system: System, part: str) -> str:
    return " ".join(m.note for m in system.missing_parts if m.part == part and m.id is None)


def _sides_choices(system: System) -> tuple[tuple[str, str], ...]:
    a, b = system.sides
    return (("simultaneous", "both at once"), ("none", "no one (a step on the board)"),
            (f"order:{a.id}", f"{a.name} only"), (f"order:{b.id}", f"{b.name} only"),
            (f"order:{a.id},{b.id}", f"{a.name}, then {b.name}"), (f"order:{b.id},{a.id}", f"{b.name}, then {a.name}"),
            ("order:attacker,defender", "Attacker, then Defender"), ("order:defender,attacker", "Defender, then Attacker"),
            ("order:setup-first,setup-second", "side setting up first, then the other"),
            ("order:moves-first,moves-second", "side moving first, then the other"))


def currency_codes(system: System, data: Mapping[str, str]) -> list[str]:
    """The currency codes typed in the form's currencies section, else the system's."""
    typed = [data.get(f"currencies.{n}.code", "").strip() for n in rows_of(data, "currencies")]
    return [c for c in typed if c] or [c.code for c in system.currencies]


def _table_ids(system: System, data: Mapping[str, str]) -> list[str]:
    typed = [data.get(f"tables.{n}.id", "").strip() for n in rows_of(data, "tables")]
    return list(dict.fromkeys([*system.tables, *(t for t in typed if t)]))


def _kept(choices: tuple[tuple[str, str], ...], value: str) -> tuple[tuple[str, str], ...]:
    """A select's choices with a value a card already holds (``at-step "8.623"``), so that posting keeps it."""
    return choices if not value or value in {v for v, _ in choices} else (*choices, (value, value))


def _grid(prefix: str, title: str, columns: tuple[Field, ...], data: Mapping[str, str], ref: str, chart: str) -> Grid:
    rows = tuple((n, tuple(Field(name, c.label, c.kind, c.ref or ref, chart, c.help,
                                 _kept(c.choices, data.get(name, "")) if c.kind == CHOICE else c.choices,
                                 data.get(name, ""))
                           for c in columns for name in (f"{prefix}.{n}.{c.name}",)))
                 for n in rows_of(data, prefix))
    return Grid(prefix, title, tuple(c.label for c in columns), rows, 0, ref, chart)


def steps_section(system: System, data: Mapping[str, str]) -> Section:
    """The RePh sequence as printed: each step's number, name, who acts, flags, secrecy and what Refit does."""
    chart = f"the printed {system.between_phase.abbrev if system.between_phase else 'RePh'} sequence"
    params = {"currency": Field("params.currency", "Currency", CHOICE, help="for points and purchases",
                                choices=tuple((c, c) for c in currency_codes(system, data))),
              "dice": Field("params.dice", "Dice", CHOICE, help="DR: two dice; dr: one", choices=(("DR", "DR"), ("dr", "dr"))),
              "base": Field("params.base", "Base number from", CHOICE, choices=BASE_SOURCES),
              "table": Field("params.table", "Dice table", CHOICE, choices=tuple((t, t) for t in _table_ids(system, data)))}
    columns = (Field("ref", "Step (rule number)", TEXT), Field("name", "Name as printed", TEXT),
               Field("sides", "Who acts", CHOICE, choices=_sides_choices(system)),
               Field("initial", "Initial (†)", BOOL, help="done before the Initial Scenario"),
               Field("loop_on_idle", "Loop on Idle", BOOL, help="done again after an Idle Date"),
               Field("secret", "Secret", CHOICE, choices=tuple((s, SECRET_WORDS.get(s, s)) for s in STEP_SECRET)),
               Field("revealed", "Revealed", CHOICE, choices=REVEALED[1:]),
               Field("action", "What Refit does", CHOICE, choices=tuple((a.id, a.label) for a in STEP_ACTIONS[1:])),
               *params.values(),
               Field("extra", "More (YAML)", YAML, help="other keys, e.g. {note: …}"))
    grid = _grid("steps", "Steps in order", columns, data, "", chart)
    return Section("steps", f"{system.between_phase.name if system.between_phase else 'Refit Phase'} sequence", "",
                   chart, _note(system, "steps") + " A step the rules file already describes (same number) keeps what "
                   "it says; choose only what your printed sequence adds. Params: "
                   + "; ".join(f"{a.label} — {', '.join(a.params)}" for a in STEP_ACTIONS if a.params) + ".",
                   (Block("", grids=(grid,), prefix="steps"),))


def currencies_section(system: System, data: Mapping[str, str]) -> Section:
    """Each currency: code, name, whether unspent points carry over, and its rule number."""
    yes_no = (("true", "yes"), ("false", "no"))
    columns = (Field("code", "Code", TEXT), Field("name", "Name as printed", TEXT),
               Field("carry_over", "Unspent points carry over", CHOICE, choices=yes_no),
               Field("ref", "Rule number", TEXT), Field("note", "Note", TEXT))
    grid = _grid("currencies", "Currencies", columns, data, "", "the printed RePh")
    return Section("currencies", "Points (currencies)", "", "the printed RePh", _note(system, "currencies"),
                   (Block("", grids=(grid,), prefix="currencies"),))


def initiative_section(system: System, data: Mapping[str, str]) -> Section:
    """The initiative matrix: for each pair of chits, the result, its label and who sets up and moves first."""
    p = "initiative"
    ref = data.get(f"{p}.ref", "")
    chart = "the printed initiative matrix"
    sides = tuple((s.id, s.name) for s in system.sides)
    axis = next(s for s in system.sides if s.matrix_role == "axis")
    allied = next(s for s in system.sides if s.matrix_role != "axis")
    head = (Field(f"{p}.ref", "Rule number", TEXT, chart=chart, value=ref),
            Field(f"{p}.mode", "Chosen by", CHOICE, ref, chart, choices=(("", "—"), ("chit", "Attack/Idle chits"),
                                                                       ("purchase", "purchased Attack Options")),
                  value=data.get(f"{p}.mode", "")),
            Field(f"{p}.extra", "More (YAML)", YAML, ref, chart, "e.g. {chit_limits: {us: 2}}",
                  value=data.get(f"{p}.extra", "")))
    blocks = [Block("", head, prefix=p)]
    for a in CHITS:
        for b in CHITS:
            cp = f"{p}.matrix.{a}/{b}"
            fields = (Field(f"{cp}.result", "Result", CHOICE, ref, chart,
                            choices=(("", "—"), *((r, RESULT_WORDS[r]) for r in MATRIX_RESULTS)), value=data.get(f"{cp}.result", "")),
                      Field(f"{cp}.label", "Label as printed", TEXT, ref, chart, value=data.get(f"{cp}.label", "")),
                      Field(f"{cp}.setup_first", "Sets up first", CHOICE, ref, chart, choices=(("", "—"), *sides),
                            value=data.get(f"{cp}.setup_first", "")),
                      Field(f"{cp}.moves_first", "Moves first", CHOICE, ref, chart, choices=(("", "—"), *sides),
                            value=data.get(f"{cp}.moves_first", "")))
            blocks.append(Block(f"{axis.name} {a.title()}, {allied.name} {b.title()}", fields, prefix=cp))
    return Section("initiative", "Initiative", ref, chart, _note(system, "initiative"), tuple(blocks))


def idle_section(system: System, data: Mapping[str, str]) -> Section:
    """What an Idle Date (both chose Idle) does: its name, which steps are done again, then the next date."""
    p = "idle"
    fields = (Field(f"{p}.name", "Name as printed", TEXT, value=data.get(f"{p}.name", ""), help="e.g. Idle Date"),
              Field(f"{p}.loop", "Steps done again", CHOICE, choices=(("", "—"), ("steps-marked-loop", "steps marked "
                                                                                  "“Loop on Idle”"), ("listed-steps", "the steps listed")),
                    value=data.get(f"{p}.loop", "")),
              Field(f"{p}.steps", "Steps listed", LIST, help="step numbers, e.g. 1.516, 1.518",
                    value=data.get(f"{p}.steps", "")),
              Field(f"{p}.then", "Then", CHOICE, choices=(("", "—"), ("next-date", "the next CG Date")),
                    value=data.get(f"{p}.then", "")),
              Field(f"{p}.note", "Note", TEXT, value=data.get(f"{p}.note", "")))
    return Section("idle", "Idle Date", "", "the printed initiative rules",
                   "What happens when both sides choose Idle.", (Block("", fields, prefix=p),))


def fortifications_section(system: System, data: Mapping[str, str]) -> Section:
    """The Fortification purchase table: its rule, the currency it is bought with, and each type's cost."""
    p = "fortifications"
    ref = data.get(f"{p}.ref", "")
    chart = "the printed Fortification purchase table"
    fields = (Field(f"{p}.ref", "Rule number", TEXT, chart=chart, value=ref),
              Field(f"{p}.currency", "Bought with", CHOICE, ref, chart, choices=_kept(
                  (("", "—"), *((c, c) for c in currency_codes(system, data))), data.get(f"{p}.currency", "")),
                  value=data.get(f"{p}.currency", "")),
              Field(f"{p}.extra", "More (YAML)", YAML, ref, chart, "e.g. {forfeit_unspent: true}",
                    value=data.get(f"{p}.extra", "")))
    columns = (Field("type", "Fortification type", TEXT), Field("cost", "Cost", CELL, help="points per purchase"),
               Field("note", "Note", TEXT), Field("extra", "More (YAML)", YAML, help="e.g. {initial_only: true}"))
    grid = _grid(f"{p}.rows", "Fortification types", columns, data, ref, chart)
    return Section("fortifications", "Fortification purchases", ref, chart, _note(system, "fortifications"),
                   (Block("", fields, (grid,), prefix=p),))


def setup_costs_section(system: System, data: Mapping[str, str]) -> Section:
    """The extra cost of an RG by how it sets up or enters: one row per mode, a cost per RG type."""
    p = "setup_costs"
    ref = data.get(f"{p}.ref", "")
    chart = "the printed RG set-up costs"
    fields = (Field(f"{p}.ref", "Rule number", TEXT, chart=chart, value=ref),
              Field(f"{p}.minimum", "Lowest cost of an RG", INT, ref, chart,
                    "an RG never costs less than this once its set-up cost is added", value=data.get(f"{p}.minimum", "")),
              Field(f"{p}.note", "Note", TEXT, ref, chart, value=data.get(f"{p}.note", "")),
              Field(f"{p}.extra", "More (YAML)", YAML, ref, chart, "e.g. {never_on_map: [OBA]}",
                    value=data.get(f"{p}.extra", "")))
    columns = (Field("mode", "Set-up or entry", CHOICE, choices=SETUP_MODES), Field("ref", "Rule number", TEXT),
               *(Field(f"by_type.{t}", f"Extra cost {t}", CELL, help=f"added to an {t} RG's cost") for t in RG_TYPES))
    grid = _grid(f"{p}.modes", "Extra cost by RG type", columns, data, ref, chart)
    return Section("setup_costs", "RG set-up and entry costs", ref, chart, _note(system, "setup_costs"),
                   (Block("", fields, (grid,), prefix=p),))


def part_sections(system: System, data: Mapping[str, str]) -> list[Section]:
    """The sections for the parts (steps, currencies, initiative, Idle) the system leaves to the card."""
    makers: list[tuple[bool, Callable[[System, Mapping[str, str]], Section]]] = [
        (offers(system, "currencies"), currencies_section), (offers(system, "steps"), steps_section),
        (offers(system, "initiative"), initiative_section), (offers_idle(system), idle_section),
        (offers(system, "fortifications"), fortifications_section), (offers(system, "setup_costs"), setup_costs_section)]
    return [make(system, data) for shown, make in makers if shown]


def owned_parts(system: System) -> list[str]:
    """The card parts these sections fill (the rest of the card is not asked for here)."""
    owned = [p for p in CARD_PARTS_OFFERED if offers(system, p)]
    return owned + (["idle"] if offers_idle(system) else [])


__all__ = ["ACTIONS_BY_ID", "CHITS", "PARAM_KEYS", "STEP_ACTIONS", "STEP_FORM_KEYS", "ActionChoice", "currency_codes",
           "offers", "offers_idle", "owned_parts", "part_sections"]
