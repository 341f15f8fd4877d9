"""A `kind: system` definition: every part read in order into an immutable `System`."""
from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace

from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.loader.calendar import read_calendar, read_currencies, read_map_group_refs, read_map_groups
from rules_engine.loader.checker import Checker, Context, kind_of
from rules_engine.loader.fortifications import read_fortifications, read_limits, read_setup_costs
from rules_engine.loader.initiative import read_initiative
from rules_engine.loader.records import read_forms, read_missing_parts, read_special_rules
from rules_engine.loader.rg_charts import read_rg_charts
from rules_engine.loader.scenario import read_initial_ob, read_scenario_rolls, read_victory_conditions
from rules_engine.loader.settings import read_settings, read_sides
from rules_engine.loader.steps import read_idle, read_steps
from rules_engine.loader.tables import read_tables
from rules_engine.loader.words import FORMAT, SYSTEM_KEYS
from rules_engine.loader.yaml_text import load_yaml
from rules_engine.model import BetweenPhase, CardInfo, SpecialRule, Step, System, TimeUnit


def _chits_chosen_at(special: Sequence[SpecialRule], steps: Sequence[Step]) -> str | None:
    """The step at which a system's special rule seals the Initiative chits (ER CG15/CG18: Bombardment and the FPF
    Barrage are bought "when selecting" the Attack/Idle chit: ``params.chits_chosen_at_action: purchase-rg``)."""
    for rule in special:
        action = rule.params.get("chits_chosen_at_action")
        if isinstance(action, str):
            return next((s.ref for s in steps if s.action == action), None)
    return None


def build_system(c: Checker, doc: object, card: CardInfo | None = None) -> System | None:
    """Every part of a system document read in order (later parts refer to earlier ones), else None."""
    m = c.mapping(doc, "", ("format", "id", "kind", "name", "source", "sides"), SYSTEM_KEYS)
    if m is None:
        return None
    if "format" in m and m["format"] != FORMAT:
        c.error("format", f"unknown format {m['format']!r}", FORMAT)
    ident = c.ident(m["id"], "id", "system id") if "id" in m else None
    if "kind" in m and m["kind"] != "system":
        c.error("kind", f"expected kind 'system', got {kind_of(m['kind'])}", "system (use parse_card for a cg-card)")
    name = c.text(m["name"], "name") if "name" in m else None
    source = c.text(m["source"], "source") if "source" in m else None
    ctx = Context()
    sides = read_sides(c, m["sides"], "sides") if "sides" in m else ()
    ctx.side_ids = tuple(side.id for side in sides)
    ctx.nationalities = tuple(side.nationality for side in sides)
    time_unit = None
    if "time_unit" in m:
        tm = c.mapping(m["time_unit"], "time_unit", ("id", "name"))
        if tm is not None and len(tm) == 2:
            tid = c.choice(tm["id"], "time_unit.id", ("firefight", "cg-date", "tm-scenario"))
            tname = c.text(tm["name"], "time_unit.name")
            time_unit = TimeUnit(tid, tname) if tid and tname else None
    between = None
    if "between_phase" in m:
        bm = c.mapping(m["between_phase"], "between_phase", ("name", "abbrev"))
        if bm is not None and len(bm) == 2:
            bname = c.text(bm["name"], "between_phase.name")
            babbrev = c.text(bm["abbrev"], "between_phase.abbrev")
            between = BetweenPhase(bname, babbrev) if bname and babbrev else None
    settings = read_settings(c, m["settings"], "settings", ctx) if "settings" in m else ()
    tables = read_tables(c, m["tables"], "tables", ctx, ident or "") if "tables" in m else {}
    steps = read_steps(c, m["steps"], "steps", ctx) if "steps" in m else ()
    currencies = read_currencies(c, m["currencies"], "currencies", ctx) if "currencies" in m else ()
    special = read_special_rules(c, m["special_rules"], "special_rules") if "special_rules" in m else ()
    ctx.map_groups = read_map_groups(c, special)
    calendar = read_calendar(c, m["calendar"], "calendar", ctx) if "calendar" in m else ()
    in_play = (read_map_group_refs(c, m["map_groups_in_play"], "map_groups_in_play", ctx)
               if "map_groups_in_play" in m else ())
    idle = read_idle(c, m["idle"], "idle", ctx) if "idle" in m else None
    rg_charts = read_rg_charts(c, m["rg_charts"], "rg_charts", ctx) if "rg_charts" in m else ()
    setup_costs = read_setup_costs(c, m["setup_costs"], "setup_costs") if "setup_costs" in m else None
    forts = read_fortifications(c, m["fortifications"], "fortifications", ctx) if "fortifications" in m else None
    initiative = read_initiative(c, m["initiative"], "initiative", ctx) if "initiative" in m else None
    limits = read_limits(c, m["limits"], "limits", ctx) if "limits" in m else ()
    forms = read_forms(c, m["forms"], "forms") if "forms" in m else ()
    scenario_rolls = (read_scenario_rolls(c, m["scenario_rolls"], "scenario_rolls", ctx, steps, special)
                      if "scenario_rolls" in m else ())
    initial_ob = read_initial_ob(c, m["initial_ob"], "initial_ob", ctx) if "initial_ob" in m else None
    victory = (read_victory_conditions(c, m["victory_conditions"], "victory_conditions", ctx)
               if "victory_conditions" in m else None)
    missing = read_missing_parts(c, m["missing_parts"], "missing_parts") if "missing_parts" in m else ()
    if c.errors or not (ident and name and source) or len(sides) != 2:
        return None
    if initiative is not None and initiative.chosen_at is None and initiative.mode == "chit":
        early = _chits_chosen_at(special, steps)
        if early is not None and early != initiative.ref:
            initiative = replace(initiative, chosen_at=early)
    return System(
        ident, "system", name, source, (sides[0], sides[1]), time_unit, between, currencies, calendar, steps, idle,
        tables, rg_charts, setup_costs, forts, initiative, limits, forms, settings, special, missing, card,
        document=copy.deepcopy(m), initial_ob=initial_ob, map_groups=ctx.map_groups, map_groups_in_play=in_play,
        scenario_rolls=scenario_rolls, victory_conditions=victory,
    )


def parse_system(text: str, filename: str) -> System:
    """Parse and validate a `kind: system` definition (docs/cg-format.md); DefinitionErrors lists every problem."""
    doc = load_yaml(text, filename)
    c = Checker(filename)
    system = build_system(c, doc)
    if c.errors or system is None:
        raise DefinitionErrors(c.errors or [DefinitionError(filename, "", "not a valid system definition")])
    return system


def definition_kind(text: str, filename: str) -> tuple[str, str | None]:
    """The `kind` of a definition and, for a cg-card, the system it `extends` (for callers that pick the parser)."""
    doc = load_yaml(text, filename)
    if not isinstance(doc, dict):
        raise DefinitionErrors([DefinitionError(filename, "", f"expected a mapping at the top level, got {kind_of(doc)}")])
    kind = doc.get("kind")
    extends = doc.get("extends")
    if kind not in ("system", "cg-card"):
        raise DefinitionErrors([DefinitionError(filename, "kind", f"unknown kind {kind!r}", "system, cg-card")])
    return str(kind), extends if isinstance(extends, str) else None
