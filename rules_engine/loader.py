"""Load and validate CG definitions (docs/cg-format.md): YAML text in, an immutable `System` out, every problem reported."""
from __future__ import annotations

import copy
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import yaml

from rules_engine import step_kinds, yaml_limits
from rules_engine.errors import DefinitionError, DefinitionErrors
from rules_engine.model import (
    RG_QUALITIES,
    BetweenPhase,
    BoughtWith,
    CalendarEntry,
    CardInfo,
    Cell,
    CellValue,
    Column,
    CombinedMax,
    Currency,
    DiceTable,
    Form,
    FormColumn,
    FortCost,
    Fortifications,
    FortificationRow,
    FortLimit,
    IdleRule,
    InitialOb,
    Initiative,
    Limit,
    MapGroup,
    MatrixCell,
    MissingPart,
    ObGroup,
    Modifier,
    OrderRoll,
    OrderRollRow,
    OriginalEffect,
    PerFact,
    PreRegistered,
    RgChart,
    RgNote,
    RgRow,
    Row,
    ScenarioRoll,
    Setting,
    SettingRef,
    SettingValue,
    SetupCosts,
    SetupMode,
    Side,
    SideOb,
    SpecialRule,
    Step,
    System,
    Threshold,
    TimeUnit,
    UnitCount,
    VictoryCondition,
    VictoryConditions,
)
from rules_engine.vocabulary import (
    VICTORY_MEASURES,
    VICTORY_OPS,
    Automation,
    Chit,
    DiceKind,
    Provenance,
    SideId,
    StepAction,
    Visibility,
)

FORMAT = "refit-cg/1"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")
WORD_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")

KNOWN_FACTS: tuple[str, ...] = (
    "own_attack_previous",
    "own_attacked_previous_scenario",
    "won_previous",
    "won_this",
    "cvp_suffered_previous",
    "cvp_amassed_this",
    "depleted",
    "headquarters",
    "isolated",
    "night",
    "attack_option_purchased_now",
    "elite_platoons_purchased_previous",
    "first_line_platoons_purchased_previous",
    "firefights_without_idle",
    "extra_cpp_spent",
)
FACT_PREFIXES: tuple[str, ...] = ("side_is:", "nationality_is:")

SYSTEM_PARTS: tuple[str, ...] = (
    "time_unit",
    "between_phase",
    "sides",
    "currencies",
    "calendar",
    "steps",
    "idle",
    "tables",
    "rg_charts",
    "setup_costs",
    "fortifications",
    "initiative",
    "limits",
    "forms",
    "settings",
    "special_rules",
    "scenario_rolls",
    "initial_ob",
    "map_groups_in_play",
    "victory_conditions",
    "missing_parts",
)
SYSTEM_KEYS: tuple[str, ...] = ("format", "id", "kind", "name", "source", *SYSTEM_PARTS)
CARD_PARTS: tuple[str, ...] = tuple(part for part in SYSTEM_PARTS if part not in ("sides", "missing_parts"))
CARD_KEYS: tuple[str, ...] = (
    "format",
    "kind",
    "id",
    "extends",
    "example",
    "name",
    "source",
    "settings_values",
    "supply",
    *CARD_PARTS,
)

TABLE_PER = ("side", "unit", "stack", "rg", "module", "leader", "weapon", "item", "vehicle", "location", "patrol",
             "company", "platoon", "sw")
STEP_SIDES = ("simultaneous", "ordered", "none")
STEP_ORDER_WORDS = ("attacker", "defender", "setup-first", "setup-second", "moves-first", "moves-second",
                    "previous-attacker", "previous-defender")
STEP_SECRET = ("none", "roll", "choice", "purchase", "record")
STEP_REVEALED = ("never", "immediately", "cg-end", "at-step <ref>")
THRESHOLD_OPS = ("<=", "<", ">=", ">")
RG_EFFECTS = ("san",)
MATRIX_RESULTS = ("dual-attack", "axis-assault", "allied-assault", "idle")
MATRIX_ROLES = ("allied", "axis")
FORM_VISIBILITY = {"owner": Visibility.SIDE, "both": Visibility.PUBLIC, "cg-end": Visibility.CG_END}
FORM_PER = ("date", "rg", "scenario", "item", "side")
RG_TYPES = ("I", "V", "G", "HW", "O", "M", "F", "A")
SETTING_TYPES = ("choice", "int", "bool", "text")
INTEGER_MAX = 99_999  # the largest whole number a definition gives where nothing smaller is said (forms: the same)
SETTING_SOURCES = ("cg-card", "players", "rules")
ROUNDING = ("down", "up")
FORT_COST_KINDS = ("by_capacity", "by_unit", "per_factor", "per_hexside", "formula", "multiplier", "as_per")
FORMULA_NAMES = ("ca_drm", "nca_drm", "capacity")
FORMULA_PATTERN = re.compile(r"^[a-z_0-9+*() .-]+$")

# ---------------------------------------------------------------------------------------------------------------------
# YAML
# ---------------------------------------------------------------------------------------------------------------------


class _StrictLoader(yaml_limits.LimitedLoader):
    """yaml_limits.LimitedLoader that also refuses duplicate keys in a mapping (PyYAML silently keeps the last one)."""

    duplicate_keys: list[tuple[int, str]]


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, Hashable) and key in seen:
            loader.duplicate_keys.append((key_node.start_mark.line + 1, str(key)))
        if isinstance(key, Hashable):
            seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _load_yaml(text: str, filename: str) -> object:
    """Parse YAML safely (no object construction) within fixed limits (``yaml_limits``: depth, expanded size, scalars),
    reporting syntax errors and duplicate keys."""
    too_big = yaml_limits.check(text)
    if too_big is not None:
        raise DefinitionErrors([DefinitionError(filename, "", f"refused: {too_big}")])
    loader = _StrictLoader(text)
    loader.duplicate_keys = []
    try:
        data = loader.get_single_data()
    except yaml.YAMLError as exc:
        raise DefinitionErrors([DefinitionError(filename, "", f"not valid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    if loader.duplicate_keys:
        raise DefinitionErrors(
            [
                DefinitionError(filename, f"line {line}", f"key {key!r} appears twice in the same mapping")
                for line, key in loader.duplicate_keys
            ]
        )
    return data


# ---------------------------------------------------------------------------------------------------------------------
# Generic checks (every problem is recorded; parsing goes on so that one pass reports them all)
# ---------------------------------------------------------------------------------------------------------------------


def _kind_of(value: object) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return (
            f"the YAML boolean {str(value).lower()} (YAML reads yes/no/on/off/true/false as booleans; "
            "quote the text, e.g. \"no\")"
        )
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


class _Checker:
    """Collects DefinitionErrors for one file."""

    def __init__(self, filename: str) -> None:
        self.file = filename
        self.errors: list[DefinitionError] = []

    def error(self, path: str, problem: str, allowed: str | None = None) -> None:
        self.errors.append(DefinitionError(self.file, path, problem, allowed))

    # -- shapes -------------------------------------------------------------------------------------------------------

    def mapping(
        self, value: object, path: str, required: Iterable[str] = (), optional: Iterable[str] = ()
    ) -> dict[str, object] | None:
        """A mapping with only the allowed keys (all required ones present), else None."""
        required = tuple(required)
        allowed = required + tuple(k for k in optional if k not in required)
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping with keys {', '.join(allowed)}, got {_kind_of(value)}")
            return None
        result: dict[str, object] = {}
        for key, item in value.items():
            name = str(key).lower() if isinstance(key, bool) else str(key)
            if name not in allowed:
                self.error(_join(path, name), f"unknown key {name!r}", ", ".join(allowed))
                continue
            result[name] = item
        for key in required:
            if key not in result:
                self.error(path, f"missing required key {key!r}")
        return result

    def entries(
        self, value: object, path: str, required: tuple[str, ...], optional: tuple[str, ...] = (), label: str | None = None
    ) -> Iterator[tuple[str, dict[str, object]]]:
        """Each mapping of a list that has all its required keys, with its path (``[<label key>]`` when usable, else ``[i]``)."""
        for i, item in enumerate(self.seq(value, path)):
            p = f"{path}{_label(item, i, label)}" if label else f"{path}[{i}]"
            m = self.mapping(item, p, required, optional)
            if m is not None and all(key in m for key in required):
                yield p, m

    def seq(self, value: object, path: str) -> list[object]:
        """A list (an empty list when the value is not one, after recording the problem)."""
        if isinstance(value, list):
            return value
        self.error(path, f"expected a list, got {_kind_of(value)}")
        return []

    def text(self, value: object, path: str, *, numbers: bool = False, empty: bool = False) -> str | None:
        """Text (numbers accepted and turned into text where a label is expected)."""
        if isinstance(value, str):
            if not value.strip() and not empty:
                self.error(path, "empty text")
                return None
            return value
        if numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        self.error(path, f"expected text, got {_kind_of(value)}")
        return None

    def ident(self, value: object, path: str, what: str = "id", pattern: re.Pattern[str] = ID_PATTERN) -> str | None:
        """A short id: lower-case letters, digits, hyphens."""
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if not pattern.match(text):
            self.error(path, f"bad {what} {text!r}", "lower-case letters, digits and hyphens, e.g. cp-replenishment")
            return None
        return text

    def integer(self, value: object, path: str, minimum: int | None = None,
                maximum: int = INTEGER_MAX) -> int | None:
        """A whole number (not a boolean), at most ``maximum`` (every count a card gives fits the records)."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"expected a whole number, got {_kind_of(value)}")
            return None
        if minimum is not None and value < minimum:
            self.error(path, f"{value} is below the minimum", f"{minimum} or more")
            return None
        if value > maximum:
            self.error(path, f"{value} is above the maximum", f"{maximum} or less")
            return None
        return value

    def number(self, value: object, path: str) -> int | float | None:
        """A number (whole or decimal)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(path, f"expected a number, got {_kind_of(value)}")
            return None
        return value

    def boolean(self, value: object, path: str) -> bool | None:
        """true or false."""
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, got {_kind_of(value)}")
            return None
        return value

    def choice(self, value: object, path: str, choices: Iterable[str]) -> str | None:
        """One of a fixed set of words."""
        choices = tuple(choices)
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if text not in choices:
            self.error(path, f"unknown value {text!r}", ", ".join(choices))
            return None
        return text

    def texts(self, value: object, path: str, *, numbers: bool = True) -> tuple[str, ...]:
        """A list of texts."""
        out = []
        for i, item in enumerate(self.seq(value, path)):
            text = self.text(item, f"{path}[{i}]", numbers=numbers)
            if text is not None:
                out.append(text)
        return tuple(out)

    def refs(self, value: object, path: str, known: Iterable[str], what: str) -> tuple[str, ...]:
        """A list of references that must all name known things."""
        known = tuple(known)
        out = []
        for i, text in enumerate(self.texts(value, path)):
            if text not in known:
                self.error(f"{path}[{i}]", f"unknown {what} {text!r}", ", ".join(known) or "none defined")
            else:
                out.append(text)
        return tuple(out)

    def ref(self, value: object, path: str, known: Iterable[str], what: str) -> str | None:
        """One reference to a known thing."""
        known = tuple(known)
        text = self.text(value, path, numbers=True)
        if text is None:
            return None
        if text not in known:
            self.error(path, f"unknown {what} {text!r}", ", ".join(known) or "none defined")
            return None
        return text

    def unique(self, ids: Iterable[tuple[str, str]], what: str) -> None:
        """Report ids used twice (pairs of (path, id))."""
        seen: dict[str, str] = {}
        for path, ident in ids:
            if ident in seen:
                self.error(path, f"duplicate {what} {ident!r} (first used at {seen[ident]})")
            else:
                seen[ident] = path

    # -- values with provenance ---------------------------------------------------------------------------------------

    def plain(self, value: object, path: str) -> CellValue | None:
        """A printed value: a number, a text, or a list of texts (a leader list)."""
        if isinstance(value, bool):
            self.error(path, f"expected a value as printed, got {_kind_of(value)}")
            return None
        if isinstance(value, (int, float, str)):
            if isinstance(value, str) and not value.strip():
                self.error(path, "empty text; write \"-\" for a printed dash or {missing: …} for a lost value")
                return None
            return value
        if isinstance(value, list):
            items = []
            for i, item in enumerate(value):
                text = self.text(item, f"{path}[{i}]", numbers=True)
                if text is not None:
                    items.append(text)
            return tuple(items)
        self.error(
            path,
            f"expected a value as printed (number, text or list), got {_kind_of(value)}",
            "25, 9-2, Plentiful, [10-3, 9-1, 8-1], {value: …, as_written: …, interpreted: …}, {missing: …}",
        )
        return None

    def cell(self, value: object, path: str) -> Cell | None:
        """A legible, interpreted or missing value (docs/cg-format.md "Values and provenance")."""
        if not isinstance(value, dict):
            plain = self.plain(value, path)
            return None if plain is None else Cell(plain)
        if "missing" in value:
            m = self.mapping(value, path, ("missing",), ("verify",))
            if m is None:
                return None
            note = self.text(m["missing"], _join(path, "missing"))
            return Cell(None, Provenance.MISSING, note=note or "lost", verify=bool(m.get("verify", False)))
        m = self.mapping(value, path, ("value",), ("as_written", "interpreted", "verify", "note"))
        if m is None:
            return None
        plain = self.plain(m["value"], _join(path, "value"))
        verify = self.boolean(m["verify"], _join(path, "verify")) if "verify" in m else False
        note = self.text(m["note"], _join(path, "note")) if "note" in m else None
        if "interpreted" in m or "as_written" in m:
            if "interpreted" not in m:
                self.error(path, "an interpreted value needs `interpreted:` (why it was read so)")
            if "as_written" not in m:
                self.error(path, "an interpreted value needs `as_written:` (the text exactly as printed)")
            as_written = (
                self.text(m["as_written"], _join(path, "as_written"), numbers=True) if "as_written" in m else None
            )
            why = self.text(m["interpreted"], _join(path, "interpreted")) if "interpreted" in m else None
            reason = "; ".join(part for part in (why, note) if part) or None
            if plain is None:
                return None
            return Cell(plain, Provenance.INTERPRETED, as_written=as_written, note=reason, verify=bool(verify))
        if plain is None:
            return None
        return Cell(plain, note=note, verify=bool(verify))

    def int_cell(self, value: object, path: str) -> Cell | None:
        """A value that must be a number when it is not missing."""
        cell = self.cell(value, path)
        if cell is not None and cell.value is not None and (
            isinstance(cell.value, bool) or not isinstance(cell.value, (int, float))
        ):
            self.error(path, f"expected a number, got {_kind_of(cell.value)}")
            return None
        return cell

    def keyed_cells(
        self, value: object, path: str, known: Iterable[str] | None, what: str, shape: str
    ) -> dict[str, Cell]:
        """A mapping of known keys (all keys when ``known`` is None) to numbers or missing values."""
        out: dict[str, Cell] = {}
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping of {shape}, got {_kind_of(value)}")
            return out
        allowed = None if known is None else tuple(known)
        for key, amount in value.items():
            name = str(key)
            if allowed is not None and name not in allowed:
                self.error(f"{path}.{name}", f"unknown {what} {name!r}", ", ".join(allowed))
                continue
            cell = self.int_cell(amount, f"{path}.{name}")
            if cell is not None:
                out[name] = cell
        return out

    def keyed_texts(self, value: object, path: str, shape: str) -> dict[str, str]:
        """A mapping of marks to texts (note marks and their notes)."""
        out: dict[str, str] = {}
        if not isinstance(value, dict):
            self.error(path, f"expected a mapping of {shape}, got {_kind_of(value)}")
            return out
        for key, text in value.items():
            t = self.text(text, f"{path}.{key}")
            if t:
                out[str(key)] = t
        return out


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _label(item: object, index: int, key: str = "id") -> str:
    """`[cp-replenishment]` when the item has a usable id, else `[2]`."""
    if isinstance(item, dict):
        ident = item.get(key)
        if isinstance(ident, str) and ident.strip() and not any(c in ident for c in "[]"):
            return f"[{ident}]"
    return f"[{index}]"


# ---------------------------------------------------------------------------------------------------------------------
# The system parts
# ---------------------------------------------------------------------------------------------------------------------


class _Context:
    """What later parts may refer to."""

    def __init__(self) -> None:
        self.side_ids: tuple[str, ...] = ()
        self.nationalities: tuple[str, ...] = ()
        self.tables: dict[str, DiceTable] = {}
        self.step_refs: tuple[str, ...] = ()
        self.settings: dict[str, Setting] = {}
        self.currency_codes: tuple[str, ...] = ()
        self.calendar_ids: tuple[str, ...] = ()
        self.map_groups: tuple[MapGroup, ...] = ()

    @property
    def map_group_ids(self) -> tuple[str, ...]:
        return tuple(group.id for group in self.map_groups)


def _sides(c: _Checker, value: object, path: str) -> tuple[Side, ...]:
    out = []
    items = c.seq(value, path)
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, ("id", "name", "nationality", "matrix_role"))
        if m is None or len(m) < 4:
            continue
        ident = c.ident(m["id"], f"{p}.id", "side id")
        name = c.text(m["name"], f"{p}.name")
        nationality = c.ident(m["nationality"], f"{p}.nationality", "nationality", WORD_PATTERN)
        role = c.choice(m["matrix_role"], f"{p}.matrix_role", MATRIX_ROLES)
        if ident and name and nationality and role:
            out.append(Side(ident, name, nationality, role))
    if len(items) != 2:
        c.error(path, f"a system has exactly two sides, found {len(items)}")
    elif len(out) == 2:
        if out[0].id == out[1].id:
            c.error(f"{path}[1].id", f"duplicate side id {out[1].id!r}")
        if out[0].matrix_role == out[1].matrix_role:
            c.error(f"{path}[1].matrix_role", "the two sides need different matrix roles", "allied, axis")
    return tuple(out)


def _settings(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[Setting, ...]:
    out = []
    ids = []
    for p, m in c.entries(
        value, path, ("id", "label"), ("type", "choices", "per_side", "source", "ref", "default", "range", "note"), label="id"
    ):
        ident = c.ident(m["id"], f"{p}.id", "setting id", WORD_PATTERN)
        label = c.text(m["label"], f"{p}.label")
        choices = c.texts(m["choices"], f"{p}.choices", numbers=True) if "choices" in m else ()
        kind = c.choice(m.get("type", "choice" if choices else "int"), f"{p}.type", SETTING_TYPES)
        if kind == "choice" and not choices:
            c.error(p, "a choice setting needs `choices:`")
        if kind != "choice" and choices:
            c.error(f"{p}.choices", f"`choices:` is only for a choice setting, this one is {kind}")
        per_side = c.boolean(m["per_side"], f"{p}.per_side") if "per_side" in m else False
        source = c.choice(m.get("source", "cg-card"), f"{p}.source", SETTING_SOURCES)
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        rng = _range(c, m["range"], f"{p}.range") if "range" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        default: SettingValue | None = None
        if "default" in m and kind is not None:
            default = _setting_value(c, m["default"], f"{p}.default", kind, choices, rng)
        if ident and label and kind and source:
            setting = Setting(ident, label, kind, choices, bool(per_side), source, ref, default, rng, note)
            out.append(setting)
            ids.append((f"{p}.id", ident))
            ctx.settings.setdefault(ident, setting)
    c.unique(ids, "setting id")
    return tuple(out)


def _range(c: _Checker, value: object, path: str) -> tuple[int, int] | None:
    items = c.seq(value, path)
    if len(items) != 2:
        c.error(path, "a range is two whole numbers [lowest, highest]")
        return None
    low = c.integer(items[0], f"{path}[0]")
    high = c.integer(items[1], f"{path}[1]")
    if low is None or high is None:
        return None
    if low > high:
        c.error(path, f"the range [{low}, {high}] is upside down")
        return None
    return (low, high)


def _setting_value(
    c: _Checker, value: object, path: str, kind: str, choices: tuple[str, ...], rng: tuple[int, int] | None
) -> SettingValue | None:
    if kind == "choice":
        return c.choice(value, path, choices)
    if kind == "int":
        number = c.integer(value, path)
        if number is not None and rng is not None and not rng[0] <= number <= rng[1]:
            c.error(path, f"{number} is out of range", f"{rng[0]} to {rng[1]}")
            return None
        return number
    if kind == "bool":
        return c.boolean(value, path)
    return c.text(value, path, numbers=True)


def _fact(c: _Checker, value: object, path: str, ctx: _Context) -> str | None:
    text = c.text(value, path)
    if text is None:
        return None
    if text in KNOWN_FACTS:
        return text
    if text.startswith("side_is:"):
        side = text.removeprefix("side_is:")
        if side not in ctx.side_ids:
            c.error(path, f"unknown side {side!r} in fact {text!r}", ", ".join(ctx.side_ids))
            return None
        return text
    if text.startswith("nationality_is:"):
        if not WORD_PATTERN.match(text.removeprefix("nationality_is:")):
            c.error(path, f"bad nationality in fact {text!r}", "nationality_is:<lower-case nationality>")
            return None
        return text
    c.error(path, f"unknown fact {text!r}", ", ".join((*KNOWN_FACTS, "side_is:<side id>", "nationality_is:<nationality>")))
    return None


def _modifiers(c: _Checker, value: object, path: str, ctx: _Context, columns: tuple[str, ...]) -> tuple[Modifier, ...]:
    out = []
    for p, m in c.entries(
        value, path, ("reason",), ("value", "when", "unless", "per", "ask", "range", "columns", "na_for", "ref", "note")
    ):
        ok = True
        reason = c.text(m["reason"], f"{p}.reason")
        val: int | SettingRef | None = None
        if "value" in m:
            raw = m["value"]
            if isinstance(raw, dict):
                sm = c.mapping(raw, f"{p}.value", ("setting",))
                if sm is not None and "setting" in sm:
                    sid = c.ref(sm["setting"], f"{p}.value.setting", ctx.settings, "setting")
                    if sid is not None and ctx.settings[sid].type != "int":
                        c.error(f"{p}.value.setting", f"setting {sid!r} is not a whole-number setting")
                        ok = False
                    elif sid is not None:
                        val = SettingRef(sid)
                    else:
                        ok = False
                else:
                    ok = False
            else:
                val = c.integer(raw, f"{p}.value")
                ok = ok and val is not None
        when = _fact(c, m["when"], f"{p}.when", ctx) if "when" in m else None
        unless = _fact(c, m["unless"], f"{p}.unless", ctx) if "unless" in m else None
        per = None
        if "per" in m:
            pm = c.mapping(m["per"], f"{p}.per", ("fact",), ("every", "rounding"))
            if pm is not None and "fact" in pm:
                fact = _fact(c, pm["fact"], f"{p}.per.fact", ctx)
                every = c.integer(pm.get("every", 1), f"{p}.per.every", minimum=1)
                rounding = c.choice(pm.get("rounding", "down"), f"{p}.per.rounding", ROUNDING)
                if fact and every and rounding:
                    per = PerFact(fact, every, rounding)
        ask = c.choice(m["ask"], f"{p}.ask", ("tick", "count", "value")) if "ask" in m else None
        rng = _range(c, m["range"], f"{p}.range") if "range" in m else None
        kinds = [k for k in ("when", "unless", "per", "ask") if k in m]
        if len(kinds) > 1:
            c.error(p, f"a modifier has at most one of when/unless/per/ask, this one has {', '.join(kinds)}")
        if ask == "value":
            if "value" in m:
                c.error(f"{p}.value", "`ask: value` lets the player enter the value; do not also give `value:`")
        elif "value" not in m:
            c.error(p, "missing required key 'value'", "a whole number, or {setting: <setting id>}; or `ask: value`")
        if rng is not None and ask != "value":
            c.error(f"{p}.range", "`range:` is only for `ask: value`")
        if "per" in m and isinstance(val, SettingRef):
            c.error(f"{p}.value", "a `per:` modifier needs a whole-number value")
        cols = c.refs(m["columns"], f"{p}.columns", columns, "column") if "columns" in m else ()
        na_for = c.refs(m["na_for"], f"{p}.na_for", columns, "column") if "na_for" in m else ()
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if reason and ok:
            out.append(Modifier(reason, val, when, unless, per, ask, rng, cols, na_for, ref, note))
    return tuple(out)


def _params(c: _Checker, m: dict[str, object], path: str) -> dict[str, object]:
    """The free-form ``params`` mapping of a step, RG note or special rule (empty when absent)."""
    raw = m.get("params", {})
    if isinstance(raw, dict):
        return {str(k): v for k, v in raw.items()}
    c.error(f"{path}.params", f"expected a mapping, got {_kind_of(raw)}")
    return {}


def _roll_range(c: _Checker, m: dict[str, object], path: str, index: int, count: int) -> tuple[int | None, int | None]:
    """A row's ``min``/``max`` rolls: only the first row may leave out min, only the last max (open-ended)."""
    lo = c.integer(m["min"], f"{path}.min") if "min" in m else None
    hi = c.integer(m["max"], f"{path}.max") if "max" in m else None
    if "min" not in m and index != 0:
        c.error(path, "only the first row may leave out `min:` (open-ended)")
    if "max" not in m and index != count - 1:
        c.error(path, "only the last row may leave out `max:` (open-ended)")
    return lo, hi


def _table_rows(c: _Checker, value: object, path: str, columns: int) -> tuple[Row, ...]:
    rows: list[Row] = []
    items = c.seq(value, path)
    if not items:
        c.error(path, "a table needs at least one row")
    for i, item in enumerate(items):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, (), ("label", "min", "max", "edge", "verify", "note", "cells", "missing"))
        if m is None:
            continue
        lo, hi = _roll_range(c, m, p, i, len(items))
        if lo is not None and hi is not None and lo > hi:
            c.error(p, f"min {lo} is above max {hi}")
        label: str | None = None
        label_missing: str | None = None
        if "label" in m:
            raw = m["label"]
            if isinstance(raw, dict):
                lm = c.mapping(raw, f"{p}.label", ("missing",))
                if lm is not None and "missing" in lm:
                    label_missing = c.text(lm["missing"], f"{p}.label.missing")
            else:
                label = c.text(raw, f"{p}.label", numbers=True)
        edge = c.choice(m.get("edge", "legible"), f"{p}.edge", ("legible", "interpreted"))
        verify = c.boolean(m["verify"], f"{p}.verify") if "verify" in m else False
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        missing = c.text(m["missing"], f"{p}.missing") if "missing" in m else None
        cells: list[Cell] = []
        if "missing" in m:
            if "cells" in m:
                c.error(f"{p}.cells", "a row declared `missing:` has no cells (write each lost cell as {missing: …})")
            if "min" not in m or "max" not in m:
                c.error(p, "a `missing:` row needs both `min:` and `max:`")
        elif "cells" not in m:
            c.error(p, "missing required key 'cells'")
        else:
            raw_cells = c.seq(m["cells"], f"{p}.cells")
            if len(raw_cells) != columns and isinstance(m["cells"], list):
                c.error(f"{p}.cells", f"{len(raw_cells)} cells for {columns} column(s)", f"exactly {columns}")
            for j, raw_cell in enumerate(raw_cells):
                cell = c.cell(raw_cell, f"{p}.cells[{j}]")
                if cell is not None:
                    cells.append(cell)
        rows.append(
            Row(lo, hi, label, tuple(cells), label_missing, edge == "interpreted", bool(verify), missing, note)
        )
    if len(rows) == len(items):
        for i in range(1, len(rows)):
            prev, row = rows[i - 1], rows[i]
            if prev.max is None or row.min is None:
                continue
            if row.min > prev.max + 1:
                gap = str(prev.max + 1) if row.min - 1 == prev.max + 1 else f"{prev.max + 1}-{row.min - 1}"
                c.error(
                    f"{path}[{i}]",
                    f"rows are not contiguous: finals {gap} fall between rows[{i - 1}] and rows[{i}]",
                    f"declare the gap as a row {{min: {prev.max + 1}, max: {row.min - 1}, missing: \"…\"}}",
                )
            elif row.min <= prev.max:
                c.error(f"{path}[{i}]", f"overlaps rows[{i - 1}] (finals {row.min}-{prev.max} are in both)")
    return tuple(rows)


def _table(c: _Checker, item: object, p: str, ctx: _Context, system_id: str) -> DiceTable | None:
    m = c.mapping(
        item,
        p,
        ("id", "ref", "name", "dice", "columns", "rows"),
        ("per", "secret", "modifiers", "original", "notes", "note"),
    )
    if m is None:
        return None
    ident = c.ident(m["id"], f"{p}.id", "table id") if "id" in m else None
    ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
    name = c.text(m["name"], f"{p}.name") if "name" in m else None
    dice = c.choice(m["dice"], f"{p}.dice", [k.value for k in DiceKind]) if "dice" in m else None
    per = c.choice(m.get("per", "side"), f"{p}.per", TABLE_PER)
    secret = c.boolean(m["secret"], f"{p}.secret") if "secret" in m else False
    columns: list[Column] = []
    col_ids = []
    if "columns" in m:
        raw_cols = c.seq(m["columns"], f"{p}.columns")
        if not raw_cols and isinstance(m["columns"], list):
            c.error(f"{p}.columns", "a table needs at least one column", "e.g. [{id: result, label: Result}]")
        for j, raw in enumerate(raw_cols):
            cp = f"{p}.columns[{j}]"
            cm = c.mapping(raw, cp, ("id", "label"))
            if cm is None or len(cm) < 2:
                continue
            cid = c.ident(cm["id"], f"{cp}.id", "column id")
            clabel = c.text(cm["label"], f"{cp}.label", numbers=True)
            if cid and clabel:
                columns.append(Column(cid, clabel))
                col_ids.append((f"{cp}.id", cid))
        c.unique(col_ids, "column id")
    n_columns = len(c.seq(m["columns"], f"{p}.columns")) if isinstance(m.get("columns"), list) else len(columns)
    rows = _table_rows(c, m["rows"], f"{p}.rows", n_columns) if "rows" in m else ()
    column_ids = tuple(col.id for col in columns)
    modifiers = _modifiers(c, m["modifiers"], f"{p}.modifiers", ctx, column_ids) if "modifiers" in m else ()
    original = []
    for op, om in c.entries(m.get("original", []), f"{p}.original", ("roll", "effect"), ("columns",)):
        roll = c.integer(om["roll"], f"{op}.roll")
        effect = c.text(om["effect"], f"{op}.effect")
        ocols = c.refs(om["columns"], f"{op}.columns", column_ids, "column") if "columns" in om else ()
        if roll is not None and effect:
            original.append(OriginalEffect(roll, effect, ocols))
    notes = c.keyed_texts(m["notes"], f"{p}.notes", "note marks to texts") if "notes" in m else {}
    note = c.text(m["note"], f"{p}.note") if "note" in m else None
    if ident and ref and name and dice and per and columns and rows and len(columns) == n_columns:
        return DiceTable(
            ident, ref, name, DiceKind(dice), tuple(columns), rows, per, bool(secret), modifiers,
            tuple(original), notes, note, system_id,
        )
    return None


def _tables(c: _Checker, value: object, path: str, ctx: _Context, system_id: str) -> dict[str, DiceTable]:
    out: dict[str, DiceTable] = {}
    ids = []
    for i, item in enumerate(c.seq(value, path)):
        p = f"{path}{_label(item, i)}"
        table = _table(c, item, p, ctx, system_id)
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            ids.append((f"{p}.id", str(item["id"])))
        if table is not None and table.id not in out:
            out[table.id] = table
    c.unique(ids, "table id")
    ctx.tables = out
    return out


def _order_roll(c: _Checker, value: object, path: str, ctx: _Context) -> OrderRoll | None:
    m = c.mapping(value, path, ("ref", "dice", "roller", "rows"))
    if m is None or len(m) < 4:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    dice = c.choice(m["dice"], f"{path}.dice", [k.value for k in DiceKind])
    roller = c.ref(m["roller"], f"{path}.roller", ctx.side_ids, "side")
    rows: list[OrderRollRow] = []
    items = c.seq(m["rows"], f"{path}.rows")
    for i, item in enumerate(items):
        p = f"{path}.rows[{i}]"
        rm = c.mapping(item, p, ("result",), ("label", "min", "max", "edge", "verify", "note"))
        if rm is None or "result" not in rm:
            continue
        lo, hi = _roll_range(c, rm, p, i, len(items))
        result = c.ref(rm["result"], f"{p}.result", ctx.side_ids, "side")
        edge = c.choice(rm.get("edge", "legible"), f"{p}.edge", ("legible", "interpreted"))
        verify = c.boolean(rm["verify"], f"{p}.verify") if "verify" in rm else False
        row_label = c.text(rm["label"], f"{p}.label", numbers=True) if "label" in rm else None
        row_note = c.text(rm["note"], f"{p}.note") if "note" in rm else None
        if result is None:
            continue
        probe = Row(lo, hi, None, ())
        rows.append(OrderRollRow(lo, hi, result, row_label or probe.range_text, edge == "interpreted", bool(verify),
                                 row_note))
    for i in range(1, len(rows)):
        prev, row = rows[i - 1], rows[i]
        if prev.max is not None and row.min is not None and row.min != prev.max + 1:
            c.error(f"{path}.rows[{i}]", f"rows are not contiguous (previous row ends at {prev.max}, this starts at {row.min})")
    if ref and dice and roller and rows and len(rows) == len(items):
        return OrderRoll(ref, DiceKind(dice), roller, tuple(rows))
    return None


def _initiative(c: _Checker, value: object, path: str, ctx: _Context) -> Initiative | None:
    m = c.mapping(value, path, ("ref", "mode", "matrix"), ("choices", "chit_limits", "dual_attack", "chosen_at"))
    if m is None or "ref" not in m or "mode" not in m or "matrix" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    mode = c.choice(m["mode"], f"{path}.mode", ("chit", "purchase"))
    choices = [Chit.ATTACK.value, Chit.IDLE.value]
    if "choices" in m:
        given = c.texts(m["choices"], f"{path}.choices")
        if sorted(given) != sorted(choices):
            c.error(f"{path}.choices", f"the choices are {', '.join(given) or 'none'}", "attack, idle")
    matrix: dict[tuple[Chit, Chit], MatrixCell] = {}
    wanted = [f"{a}/{b}" for a in choices for b in choices]
    raw_matrix = m["matrix"]
    if not isinstance(raw_matrix, dict):
        c.error(f"{path}.matrix", f"expected a mapping keyed \"<axis choice>/<allied choice>\", got {_kind_of(raw_matrix)}")
        raw_matrix = {}
    for key, raw in raw_matrix.items():
        name = str(key)
        p = f"{path}.matrix.{name}"
        if name not in wanted:
            c.error(p, f"unknown matrix key {name!r} (keys are \"<axis choice>/<allied choice>\")", ", ".join(wanted))
            continue
        cm = c.mapping(raw, p, ("result", "label"), ("setup_first", "moves_first"))
        if cm is None or "result" not in cm or "label" not in cm:
            continue
        result = c.choice(cm["result"], f"{p}.result", MATRIX_RESULTS)
        label = c.text(cm["label"], f"{p}.label")
        setup = c.ref(cm["setup_first"], f"{p}.setup_first", ctx.side_ids, "side") if "setup_first" in cm else None
        moves = c.ref(cm["moves_first"], f"{p}.moves_first", ctx.side_ids, "side") if "moves_first" in cm else None
        axis, allied = name.split("/")
        if result and label:
            matrix[(Chit(axis), Chit(allied))] = MatrixCell(result, label, setup, moves)
    absent = [key for key in wanted if key not in {str(k) for k in raw_matrix}]
    if absent:
        c.error(f"{path}.matrix", f"the matrix does not cover {', '.join(absent)}", "all four: " + ", ".join(wanted))
    limits: dict[SideId, int] = {}
    limits_ref = ""
    initial_counts = False
    if "chit_limits" in m:
        raw_limits = m["chit_limits"]
        lp = f"{path}.chit_limits"
        if not isinstance(raw_limits, dict):
            c.error(lp, f"expected a mapping of side ids to numbers, got {_kind_of(raw_limits)}")
        else:
            for key, raw in raw_limits.items():
                name = str(key)
                if name == "ref":
                    limits_ref = c.text(raw, f"{lp}.ref", numbers=True) or ""
                elif name == "initial_counts":
                    initial_counts = bool(c.boolean(raw, f"{lp}.initial_counts"))
                elif name in ctx.side_ids:
                    number = c.integer(raw, f"{lp}.{name}", minimum=0)
                    if number is not None:
                        limits[name] = number
                else:
                    c.error(f"{lp}.{name}", f"chit limit for unknown side {name!r}", ", ".join((*ctx.side_ids, "ref", "initial_counts")))
    setup_roll = move_roll = None
    if "dual_attack" in m:
        dm = c.mapping(m["dual_attack"], f"{path}.dual_attack", (), ("setup", "move"))
        if dm is not None:
            setup_roll = _order_roll(c, dm["setup"], f"{path}.dual_attack.setup", ctx) if "setup" in dm else None
            move_roll = _order_roll(c, dm["move"], f"{path}.dual_attack.move", ctx) if "move" in dm else None
    chosen_at = c.ref(m["chosen_at"], f"{path}.chosen_at", ctx.step_refs, "step") if "chosen_at" in m else None
    if ref and mode and len(matrix) == 4:
        return Initiative(ref, mode, matrix, limits, limits_ref, initial_counts, setup_roll, move_roll, chosen_at)
    return None


def _steps(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[Step, ...]:
    raw_steps = c.seq(value, path)
    ctx.step_refs = tuple(
        str(item["ref"]) for item in raw_steps if isinstance(item, dict) and isinstance(item.get("ref"), (str, int, float))
        and not isinstance(item.get("ref"), bool)
    )
    out = []
    refs = []
    for i, item in enumerate(raw_steps):
        p = f"{path}[{i}]"
        m = c.mapping(
            item,
            p,
            ("ref", "name"),
            ("markers", "loop_on_idle", "initial", "initial_only", "sides", "order", "secret", "revealed",
             "automation", "action", "params", "tables", "note", "board_rolls", "in_scenario"),
        )
        if m is None or "ref" not in m or "name" not in m:
            continue
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        markers = c.texts(m["markers"], f"{p}.markers") if "markers" in m else ()
        flags = {}
        for key in ("loop_on_idle", "initial", "initial_only"):
            flags[key] = bool(c.boolean(m[key], f"{p}.{key}")) if key in m else False
        sides = c.choice(m.get("sides", "simultaneous"), f"{p}.sides", STEP_SIDES)
        order: tuple[str, ...] = ()
        if "order" in m:
            allowed = (*STEP_ORDER_WORDS, *ctx.side_ids)
            order = c.refs(m["order"], f"{p}.order", allowed, "order entry")
            if sides != "ordered":
                c.error(f"{p}.order", "`order:` needs `sides: ordered`")
        elif sides == "ordered":
            c.error(p, "a step with `sides: ordered` needs `order:`")
        secret = c.choice(m.get("secret", "none"), f"{p}.secret", STEP_SECRET)
        revealed, revealed_at = "never", None
        if "revealed" in m:
            text = c.text(m["revealed"], f"{p}.revealed")
            if text is not None:
                if text.startswith("at-step"):
                    target = text.removeprefix("at-step").strip().strip('"')
                    if target not in ctx.step_refs:
                        c.error(f"{p}.revealed", f"unknown step {target!r}", ", ".join(ctx.step_refs))
                    else:
                        revealed, revealed_at = "at-step", target
                elif text in STEP_REVEALED:
                    revealed = text
                else:
                    c.error(f"{p}.revealed", f"unknown value {text!r}", ", ".join(STEP_REVEALED))
        action = _action(c, m["action"], f"{p}.action", ref) if "action" in m else None
        params = _params(c, m, p)
        _balance_params(c, params, f"{p}.params", ctx)
        tables = c.refs(m["tables"], f"{p}.tables", ctx.tables, "table") if "tables" in m else ()
        derived = step_kinds.derive(action, tables, params)
        if "declare_first" in params:  # RR 2.524 / PHD C5.40: alternating declarations (rules_engine.recon_turns)
            c.ref(params["declare_first"], f"{p}.params.declare_first", ctx.side_ids, "side")
        if "losses" in params and not isinstance(params["losses"], bool):
            c.error(f"{p}.params.losses", f"expected true or false, got {_kind_of(params['losses'])}", "true, false")
        if "board_part" in params and derived is not Automation.AUTOMATIC:
            c.error(f"{p}.params.board_part", "only an automatic step has a board part left to the players "
                    f"(this step is {derived.value}: the players do all of it)", "leave `board_part:` out")
        if "automation" in m:  # optional; when written it must say what the step's action makes it
            declared = c.choice(m["automation"], f"{p}.automation", [a.value for a in Automation])
            if declared is not None and declared != derived.value:
                c.error(f"{p}.automation", f"step {ref}: {declared!r} contradicts what the app does: {step_kinds.why(action and action.value, tables, derived)}",
                        f"{derived.value} (or leave `automation:` out)")
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        board: tuple[DiceKind, ...] | None = None
        if "board_rolls" in m:
            board = tuple(DiceKind(k) for k in c.refs(m["board_rolls"], f"{p}.board_rolls", [k.value for k in DiceKind],
                                                       "dice kind"))
            if board and secret == "roll":
                c.error(f"{p}.board_rolls", "a step whose rolls are secret (`secret: roll`) has no public rolls at the "
                        "board", "board_rolls: [] or leave it out")
        in_scenario = bool(c.boolean(m["in_scenario"], f"{p}.in_scenario")) if "in_scenario" in m else False
        if in_scenario and (action or flags["initial_only"] or derived is not Automation.ON_BOARD):
            c.error(f"{p}.in_scenario", "a step played during the scenario is done on the board: no `action:`, "
                    "`initial_only:` or `automation:` other than on-board")
        if ref:
            refs.append((f"{p}.ref", ref))
        if ref and name and sides and secret:
            out.append(
                Step(ref, name, markers, flags["loop_on_idle"], flags["initial"], flags["initial_only"], sides, order,
                     secret, revealed, revealed_at, derived, action, params, tables, note, board,
                     in_scenario)
            )
    c.unique(refs, "step ref")
    return tuple(out)


STEP_ACTIONS: tuple[str, ...] = tuple(sorted(a.value for a in StepAction))
"""The words a step's ``action:`` may say, sorted (the allowed list of the loader's refusal)."""


def _action(c: _Checker, value: object, path: str, ref: str | None) -> StepAction | None:
    """A step's action: one the engine knows (vocabulary.StepAction), never a misspelling read as an on-board step."""
    text = c.text(value, path, numbers=True)
    if text is None:
        return None
    if text not in STEP_ACTIONS:
        c.error(path, f"step {ref}: unknown action {text!r}", ", ".join(STEP_ACTIONS))
        return None
    return StepAction(text)


def _balance_params(c: _Checker, params: Mapping[str, object], path: str, ctx: _Context) -> None:
    """KGP 8.31 on a rolling step: ``balance_setting`` (a setting whose value names the side whose DR is changed, or
    ``none``), ``balance_halves: true`` (the DR is halved) and ``rounding`` (``down`` = FRD, ``up`` = FRU)."""
    if "balance_setting" not in params:
        if "balance_halves" in params:
            c.error(f"{path}.balance_halves", "`balance_halves` needs `balance_setting:` (the setting naming the side)")
        return
    setting_id = c.ref(params["balance_setting"], f"{path}.balance_setting", ctx.settings, "setting")
    if setting_id is not None:
        choices = ctx.settings[setting_id].choices
        allowed = ("none", *ctx.side_ids)
        odd = [choice for choice in choices if choice not in allowed]
        if not choices or odd:
            c.error(f"{path}.balance_setting", f"the setting {setting_id!r} must choose a side id or none "
                    f"(it offers {', '.join(choices) or 'no choices'})", ", ".join(allowed))
    if "balance_halves" not in params:
        c.error(path, "a balance on this step needs `balance_halves: true` (8.31: the Secret DR is halved)", "true")
    elif c.boolean(params["balance_halves"], f"{path}.balance_halves") is False:
        c.error(f"{path}.balance_halves", "false leaves the balance without effect; the only change the rules know "
                "is halving (8.31)", "true")
    if "rounding" not in params:
        c.error(path, "a halved DR needs `rounding:` (down = FRD, up = FRU)", ", ".join(ROUNDING))
    else:
        c.choice(params["rounding"], f"{path}.rounding", ROUNDING)


def _idle(c: _Checker, value: object, path: str, ctx: _Context) -> IdleRule | None:
    m = c.mapping(value, path, ("name", "loop"), ("steps", "then", "note"))
    if m is None or "name" not in m or "loop" not in m:
        return None
    name = c.text(m["name"], f"{path}.name")
    loop = c.choice(m["loop"], f"{path}.loop", ("steps-marked-loop", "listed-steps"))
    steps = c.refs(m["steps"], f"{path}.steps", ctx.step_refs, "step") if "steps" in m else ()
    if loop == "listed-steps" and "steps" not in m:
        c.error(path, "`loop: listed-steps` needs `steps:`")
    then = c.choice(m.get("then", "next-date"), f"{path}.then", ("next-date",))
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    if name and loop and then:
        return IdleRule(name, loop, steps, then, note)
    return None


def _currencies(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[Currency, ...]:
    items = c.seq(value, path)
    ctx.currency_codes = tuple(
        str(item["code"]) for item in items if isinstance(item, dict) and isinstance(item.get("code"), str)
    )
    out = []
    codes = []
    for i, item in enumerate(items):
        p = f"{path}{_label(item, i, 'code')}"
        m = c.mapping(item, p, ("code", "name"), ("carry_over", "ref", "forfeit_at_step", "bought_with", "note"))
        if m is None or "code" not in m or "name" not in m:
            continue
        code = c.text(m["code"], f"{p}.code")
        name = c.text(m["name"], f"{p}.name")
        carry = c.boolean(m["carry_over"], f"{p}.carry_over") if "carry_over" in m else True
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        forfeit = c.ref(m["forfeit_at_step"], f"{p}.forfeit_at_step", ctx.step_refs, "step") if "forfeit_at_step" in m else None
        bought = None
        if "bought_with" in m:
            bm = c.mapping(m["bought_with"], f"{p}.bought_with", ("currency",), ("via",))
            if bm is not None and "currency" in bm:
                cur = c.ref(bm["currency"], f"{p}.bought_with.currency", ctx.currency_codes, "currency")
                via = c.text(bm["via"], f"{p}.bought_with.via") if "via" in bm else None
                if cur:
                    bought = BoughtWith(cur, via)
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if code:
            codes.append((f"{p}.code", code))
        if code and name:
            out.append(Currency(code, name, bool(carry), ref, forfeit, bought, note))
    c.unique(codes, "currency code")
    return tuple(out)


def _calendar(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[CalendarEntry, ...]:
    out: list[CalendarEntry] = []
    ids = []
    for p, m in c.entries(
        value,
        path,
        ("id",),
        ("name", "date", "time", "night", "initial", "replenishment_roll", "base_numbers", "ec", "weather",
         "moon", "wind", "note", "map_groups"),
        label="id",
    ):
        ident = c.text(m["id"], f"{p}.id", numbers=True)
        texts = {k: c.text(m[k], f"{p}.{k}", numbers=True) if k in m else None for k in ("name", "date", "time", "note")}
        flags = {k: c.boolean(m[k], f"{p}.{k}") if k in m else None for k in ("night", "initial", "replenishment_roll")}
        base: dict[SideId, Cell] = (
            c.keyed_cells(m["base_numbers"], f"{p}.base_numbers", ctx.side_ids, "side", "side ids to numbers")
            if "base_numbers" in m else {}
        )
        printed = {k: c.cell(m[k], f"{p}.{k}") if k in m else None for k in ("ec", "weather", "moon", "wind")}
        groups = _map_group_refs(c, m["map_groups"], f"{p}.map_groups", ctx) if "map_groups" in m else ()
        if ident:
            ids.append((f"{p}.id", ident))
            out.append(
                CalendarEntry(
                    ident, len(out), texts["name"], texts["date"], texts["time"], bool(flags["night"]),
                    bool(flags["initial"]), flags["replenishment_roll"] is not False, base,
                    printed["ec"], printed["weather"], printed["moon"], printed["wind"], texts["note"], groups,
                )
            )
    c.unique(ids, "calendar entry id")
    ctx.calendar_ids = tuple(entry.id for entry in out)
    return tuple(out)


def _map_groups(c: _Checker, rules: tuple[SpecialRule, ...]) -> tuple[MapGroup, ...]:
    """KGP 8.2 Map Groups: the ``map_groups`` param of a special rule, each ``{id, sections}`` (``name`` optional)."""
    declaring = [rule for rule in rules if "map_groups" in rule.params]
    for rule in declaring[1:]:
        c.error(f"special_rules[{rule.id}].params.map_groups",
                f"Map Groups are already declared by special rule {declaring[0].id!r}; declare them once")
    if not declaring:
        return ()
    rule = declaring[0]
    path = f"special_rules[{rule.id}].params.map_groups"
    out: list[MapGroup] = []
    ids: list[tuple[str, str]] = []
    for p, m in c.entries(rule.params["map_groups"], path, ("id", "sections"), ("name",), label="id"):
        ident = c.text(m["id"], f"{p}.id", numbers=True)
        sections = c.integer(m["sections"], f"{p}.sections", minimum=1)
        name = c.text(m["name"], f"{p}.name") if "name" in m else None
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and sections is not None:
            out.append(MapGroup(ident, sections, name, rule.ref))
    if rule.params["map_groups"] == []:
        c.error(path, "an empty list; a system with Map Groups declares at least one")
    c.unique(ids, "Map Group id")
    return tuple(out)


def _map_group_refs(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[str, ...]:
    """A list of Map Group ids (KGP 8.2) in play: each declared, none twice, at least one."""
    if not ctx.map_groups:
        c.error(path, "this system declares no Map Groups (a special rule's params.map_groups); leave it out",
                "no Map Groups in this system")
        return ()
    allowed = ", ".join(ctx.map_group_ids)
    if isinstance(value, list) and not value:
        c.error(path, "an empty list; name at least one Map Group in play", allowed)
        return ()
    out: list[str] = []
    for i, text in enumerate(c.texts(value, path)):
        if text not in ctx.map_group_ids:
            c.error(f"{path}[{i}]", f"unknown Map Group {text!r}", allowed)
        elif text in out:
            c.error(f"{path}[{i}]", f"Map Group {text!r} is named twice (one CG scenario per Map Group per CG Date, "
                    "KGP 8.2)", allowed)
        else:
            out.append(text)
    return tuple(out)


def _units(c: _Checker, value: object, path: str) -> tuple[UnitCount, ...]:
    out = []
    for p, m in c.entries(value, path, ("count", "unit")):
        count = c.int_cell(m["count"], f"{p}.count")
        unit = c.text(m["unit"], f"{p}.unit", numbers=True)
        if count is not None and unit:
            out.append(UnitCount(count, unit))
    return tuple(out)


def _rg_note(c: _Checker, value: object, path: str, ctx: _Context) -> RgNote | None:
    m = c.mapping(
        value,
        path,
        ("text",),
        ("depletable", "leader_table", "on_map_surcharge", "on_map_surcharge_company", "pre_registered", "extra_max",
         "params"),
    )
    if m is None or "text" not in m:
        return None
    text = c.text(m["text"], f"{path}.text")
    depletable = c.boolean(m["depletable"], f"{path}.depletable") if "depletable" in m else False
    leader = c.ref(m["leader_table"], f"{path}.leader_table", ctx.tables, "table") if "leader_table" in m else None
    surcharge = c.integer(m["on_map_surcharge"], f"{path}.on_map_surcharge") if "on_map_surcharge" in m else None
    company = (
        c.integer(m["on_map_surcharge_company"], f"{path}.on_map_surcharge_company")
        if "on_map_surcharge_company" in m else None
    )
    pre = None
    if "pre_registered" in m:
        pm = c.mapping(m["pre_registered"], f"{path}.pre_registered", ("cost", "max"))
        if pm is not None and len(pm) == 2:
            cost = c.integer(pm["cost"], f"{path}.pre_registered.cost", minimum=0)
            most = c.integer(pm["max"], f"{path}.pre_registered.max", minimum=0)
            if cost is not None and most is not None:
                pre = PreRegistered(cost, most)
    extra = c.integer(m["extra_max"], f"{path}.extra_max", minimum=0) if "extra_max" in m else None
    params = _params(c, m, path)
    if text:
        return RgNote(text, bool(depletable), leader, surcharge, company, pre, extra, params)
    return None


def _rg_charts(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[RgChart, ...]:
    out = []
    chart_sides = []
    for p, m in c.entries(
        value, path, ("side", "ref", "name", "rows"), ("columns", "notes", "combined_max"), label="side"
    ):
        side = c.ref(m["side"], f"{p}.side", ctx.side_ids, "side")
        if side:
            chart_sides.append((f"{p}.side", side))
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        columns: dict[str, str] = {}
        if "columns" in m:
            cm = c.mapping(m["columns"], f"{p}.columns", (), ("cost", "date_max", "cg_max"))
            for key, label in (cm or {}).items():
                t = c.text(label, f"{p}.columns.{key}")
                if t:
                    columns[key] = t
        notes: dict[str, RgNote] = {}
        if "notes" in m:
            raw_notes = m["notes"]
            if isinstance(raw_notes, dict):
                for key, raw in raw_notes.items():
                    note = _rg_note(c, raw, f"{p}.notes.{key}", ctx)
                    if note is not None:
                        notes[str(key)] = note
            else:
                c.error(f"{p}.notes", f"expected a mapping of note letters, got {_kind_of(raw_notes)}")
        raw_letters = m.get("notes")
        note_letters = tuple(str(k) for k in raw_letters) if isinstance(raw_letters, dict) else ()
        rows = []
        ids = []
        for rp, rm in c.entries(
            m["rows"],
            f"{p}.rows",
            ("id", "type", "group_type", "cost"),
            ("date_max", "cg_max", "full", "depleted", "description", "company", "notes", "available_after",
             "available_from", "gives", "sw", "note", "effects", "quality"),
            label="id",
        ):
            rid = c.text(rm["id"], f"{rp}.id", numbers=True)
            rtype = c.choice(rm["type"], f"{rp}.type", RG_TYPES)
            if rid and rtype and not rid.startswith(rtype):
                c.error(f"{rp}.type", f"RG {rid!r} does not start with its type letter(s) {rtype!r}")
            group = c.text(rm["group_type"], f"{rp}.group_type")
            cost = c.int_cell(rm["cost"], f"{rp}.cost")
            date_max = c.int_cell(rm["date_max"], f"{rp}.date_max") if "date_max" in rm else None
            cg_max = c.int_cell(rm["cg_max"], f"{rp}.cg_max") if "cg_max" in rm else None
            full = _units(c, rm["full"], f"{rp}.full") if "full" in rm else ()
            depleted = _units(c, rm["depleted"], f"{rp}.depleted") if "depleted" in rm else ()
            desc = c.text(rm["description"], f"{rp}.description", numbers=True) if "description" in rm else None
            company = c.boolean(rm["company"], f"{rp}.company") if "company" in rm else False
            rnotes = c.refs(rm["notes"], f"{rp}.notes", note_letters, "RG note") if "notes" in rm else ()
            after = c.ref(rm["available_after"], f"{rp}.available_after", ctx.calendar_ids, "calendar entry") if "available_after" in rm else None
            since = c.ref(rm["available_from"], f"{rp}.available_from", ctx.calendar_ids, "calendar entry") if "available_from" in rm else None
            gives = (
                c.keyed_cells(rm["gives"], f"{rp}.gives", ctx.currency_codes, "currency", "currency codes to amounts")
                if "gives" in rm else {}
            )
            sw: dict[str, int] = {}
            if "sw" in rm:
                raw_sw = rm["sw"]
                if isinstance(raw_sw, dict):
                    for weapon, count in raw_sw.items():
                        n = c.integer(count, f"{rp}.sw.{weapon}", minimum=0)
                        if n is not None:
                            sw[str(weapon)] = n
                else:
                    c.error(f"{rp}.sw", f"expected a mapping of weapons to counts, got {_kind_of(raw_sw)}")
            rnote = c.text(rm["note"], f"{rp}.note") if "note" in rm else None
            effects = _rg_effects(c, rm["effects"], f"{rp}.effects") if "effects" in rm else {}
            quality = c.choice(rm["quality"], f"{rp}.quality", RG_QUALITIES) if "quality" in rm else None
            if rid:
                ids.append((f"{rp}.id", rid))
            if rid and rtype and group and cost is not None:
                rows.append(
                    RgRow(rid, rtype, group, cost, date_max, cg_max, full, depleted, desc, bool(company), rnotes,
                          after, since, gives, sw, rnote, effects, quality)
                )
        c.unique(ids, "RG id")
        combined = []
        row_ids = tuple(r.id for r in rows)
        for cp, cm2 in c.entries(m.get("combined_max", []), f"{p}.combined_max", ("ids", "max"), ("per", "ref")):
            cids = c.refs(cm2["ids"], f"{cp}.ids", row_ids, "RG id")
            most = c.integer(cm2["max"], f"{cp}.max", minimum=0)
            per = c.choice(cm2.get("per", "cg"), f"{cp}.per", ("cg", "date"))
            cref = c.text(cm2["ref"], f"{cp}.ref", numbers=True) if "ref" in cm2 else None
            if cids and most is not None and per:
                combined.append(CombinedMax(cids, most, per, cref))
        if side and ref and name:
            out.append(RgChart(side, ref, name, tuple(rows), columns, notes, tuple(combined)))
    c.unique(chart_sides, "RG chart side")
    return tuple(out)


def _rg_effects(c: _Checker, value: object, path: str) -> dict[str, int]:
    """``effects: [{san: 1}]`` — what buying the RG changes (RR M2 "SAN Increase +1"); each entry one track and amount."""
    out: dict[str, int] = {}
    for i, item in enumerate(c.seq(value, path)):
        p = f"{path}[{i}]"
        m = c.mapping(item, p, (), RG_EFFECTS)
        if m is None:
            continue
        if len(m) != 1:
            c.error(p, "an effect names one track and its change", ", ".join(RG_EFFECTS))
            continue
        for name, raw in m.items():
            amount = c.integer(raw, f"{p}.{name}")
            if amount is not None:
                out[name] = out.get(name, 0) + amount
    return out


def _setup_costs(c: _Checker, value: object, path: str) -> SetupCosts | None:
    m = c.mapping(value, path, ("ref",), ("minimum", "modes", "on_map_free_types", "never_on_map", "note"))
    if m is None or "ref" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    minimum = c.integer(m["minimum"], f"{path}.minimum") if "minimum" in m else None
    modes = []
    for p, mm in c.entries(m.get("modes", []), f"{path}.modes", ("mode",), ("ref", "by_type")):
        mode = c.choice(mm["mode"], f"{p}.mode", ("on-map", "reserve", "entry"))
        mref = c.text(mm["ref"], f"{p}.ref", numbers=True) if "ref" in mm else None
        by_type = c.keyed_cells(mm.get("by_type", {}), f"{p}.by_type", RG_TYPES, "RG type", "RG type letters to amounts")
        if mode:
            modes.append(SetupMode(mode, by_type, mref))
    free = c.refs(m["on_map_free_types"], f"{path}.on_map_free_types", RG_TYPES, "RG type") if "on_map_free_types" in m else ()
    never = c.texts(m["never_on_map"], f"{path}.never_on_map") if "never_on_map" in m else ()
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    if ref:
        return SetupCosts(ref, tuple(modes), minimum, free, never, note)
    return None


def _fort_cost(c: _Checker, value: object, path: str) -> FortCost | None:
    if isinstance(value, dict) and not ({"missing", "value"} & set(map(str, value))):
        m = c.mapping(value, path, (), (*FORT_COST_KINDS, "rounding"))
        if m is None:
            return None
        kinds = [k for k in FORT_COST_KINDS if k in m]
        if len(kinds) != 1:
            c.error(path, "a cost names exactly one way of pricing", ", ".join(FORT_COST_KINDS) + ", a number, {missing: …}")
            return None
        kind = kinds[0]
        raw = m[kind]
        rounding = c.choice(m["rounding"], f"{path}.rounding", ROUNDING) if "rounding" in m else None
        if kind in ("by_capacity", "by_unit"):
            by: dict[str, Cell] = {}
            if not isinstance(raw, dict):
                c.error(f"{path}.{kind}", f"expected a mapping, got {_kind_of(raw)}")
                return None
            for key, amount in raw.items():
                cell = c.int_cell(amount, f"{path}.{kind}.{key}")
                if cell is not None:
                    by[str(key)] = cell
            return FortCost(kind, by=by, rounding=rounding)
        if kind == "formula":
            formula = c.text(raw, f"{path}.formula")
            if formula is None:
                return None
            names = set(re.findall(r"[a-z_]+", formula))
            if not FORMULA_PATTERN.match(formula) or not names <= set(FORMULA_NAMES):
                c.error(f"{path}.formula", f"bad formula {formula!r}", "+, *, parentheses, numbers and " + ", ".join(FORMULA_NAMES))
                return None
            return FortCost(kind, formula=formula, rounding=rounding)
        if kind == "as_per":
            reference = c.text(raw, f"{path}.as_per", numbers=True)
            return FortCost(kind, reference=reference) if reference else None
        amount = c.int_cell(raw, f"{path}.{kind}")
        return FortCost(kind, amount=amount, rounding=rounding) if amount is not None else None
    cell = c.int_cell(value, path)
    return FortCost("fixed", amount=cell) if cell is not None else None


def _fortifications(c: _Checker, value: object, path: str, ctx: _Context) -> Fortifications | None:
    m = c.mapping(value, path, ("ref", "currency", "rows"), ("forfeit_unspent", "limits", "notes"))
    if m is None or len(set(m) & {"ref", "currency", "rows"}) < 3:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    currency = c.ref(m["currency"], f"{path}.currency", ctx.currency_codes, "currency")
    forfeit = c.boolean(m["forfeit_unspent"], f"{path}.forfeit_unspent") if "forfeit_unspent" in m else False
    rows = []
    for p, rm in c.entries(
        m["rows"], f"{path}.rows", ("type", "cost"), ("initial_only", "isolated_ok", "near_enemy_ok", "sides", "notes", "note"),
        label="type",
    ):
        ftype = c.text(rm["type"], f"{p}.type", numbers=True)
        cost = _fort_cost(c, rm["cost"], f"{p}.cost")
        flags = {k: bool(c.boolean(rm[k], f"{p}.{k}")) if k in rm else False for k in ("initial_only", "isolated_ok", "near_enemy_ok")}
        sides = c.refs(rm["sides"], f"{p}.sides", ctx.side_ids, "side") if "sides" in rm else ()
        fnotes = c.texts(rm["notes"], f"{p}.notes") if "notes" in rm else ()
        fnote = c.text(rm["note"], f"{p}.note") if "note" in rm else None
        if ftype and cost:
            rows.append(FortificationRow(ftype, cost, flags["initial_only"], flags["isolated_ok"], flags["near_enemy_ok"], sides, fnotes, fnote))
    types = tuple(r.type for r in rows)
    limits = []
    for p, lm in c.entries(m.get("limits", []), f"{path}.limits", ("types", "max_points"), ("per",)):
        ltypes = c.refs(lm["types"], f"{p}.types", types, "fortification type")
        most = c.integer(lm["max_points"], f"{p}.max_points", minimum=0)
        per = c.choice(lm.get("per", "scenario"), f"{p}.per", ("scenario", "date", "cg"))
        if ltypes and most is not None and per:
            limits.append(FortLimit(ltypes, most, per))
    notes = c.keyed_texts(m["notes"], f"{path}.notes", "note marks to texts") if "notes" in m else {}
    if ref and currency:
        return Fortifications(ref, currency, tuple(rows), bool(forfeit), tuple(limits), notes)
    return None


def _limits(c: _Checker, value: object, path: str, ctx: _Context) -> tuple[Limit, ...]:
    out = []
    ids = []
    for p, m in c.entries(
        value, path, ("id", "text"), ("ref", "per", "max", "by_side", "by_setting", "percent", "rounding", "note", "rg_types"), label="id"
    ):
        ident = c.ident(m["id"], f"{p}.id", "limit id")
        text = c.text(m["text"], f"{p}.text")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        per = c.choice(m["per"], f"{p}.per", ("purchase", "reph", "date", "scenario", "cg", "module", "rg")) if "per" in m else None
        most = c.int_cell(m["max"], f"{p}.max") if "max" in m else None
        by_side: dict[SideId, Cell] = (
            c.keyed_cells(m["by_side"], f"{p}.by_side", ctx.side_ids, "side", "side ids to numbers") if "by_side" in m else {}
        )
        by_setting = None
        by_choice: dict[str, Cell] = {}
        if "by_setting" in m:
            bm = c.mapping(m["by_setting"], f"{p}.by_setting", ("setting", "values"))
            if bm is not None and len(bm) == 2:
                sid = c.ref(bm["setting"], f"{p}.by_setting.setting", ctx.settings, "setting")
                if sid is not None:
                    by_setting = sid
                    by_choice = c.keyed_cells(
                        bm["values"], f"{p}.by_setting.values", ctx.settings[sid].choices or None, "choice", "choices to numbers"
                    )
        percent = c.int_cell(m["percent"], f"{p}.percent") if "percent" in m else None
        rounding = c.choice(m["rounding"], f"{p}.rounding", ROUNDING) if "rounding" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        rg_types = c.refs(m["rg_types"], f"{p}.rg_types", RG_TYPES, "RG type") if "rg_types" in m else ()
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and text:
            out.append(Limit(ident, text, ref, per, most, by_side, by_setting, by_choice, percent, rounding, note,
                             tuple(rg_types)))
    c.unique(ids, "limit id")
    return tuple(out)


def _forms(c: _Checker, value: object, path: str) -> tuple[Form, ...]:
    out = []
    ids = []
    for p, m in c.entries(value, path, ("id", "name", "per", "columns"), ("ref", "header_fields", "note"), label="id"):
        ident = c.ident(m["id"], f"{p}.id", "form id")
        name = c.text(m["name"], f"{p}.name")
        per = c.choice(m["per"], f"{p}.per", FORM_PER)
        columns = []
        col_ids = []
        for cp, cm in c.entries(m["columns"], f"{p}.columns", ("id", "label", "visibility")):
            cid = c.ident(cm["id"], f"{cp}.id", "column id", WORD_PATTERN)
            label = c.text(cm["label"], f"{cp}.label", numbers=True)
            vis = c.choice(cm["visibility"], f"{cp}.visibility", FORM_VISIBILITY)
            if cid:
                col_ids.append((f"{cp}.id", cid))
            if cid and label and vis:
                columns.append(FormColumn(cid, label, FORM_VISIBILITY[vis]))
        c.unique(col_ids, "form column id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True) if "ref" in m else None
        header = c.texts(m["header_fields"], f"{p}.header_fields") if "header_fields" in m else ()
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and name and per:
            out.append(Form(ident, name, per, tuple(columns), ref, header, note))
    c.unique(ids, "form id")
    return tuple(out)


def _special_rules(c: _Checker, value: object, path: str) -> tuple[SpecialRule, ...]:
    out = []
    ids = []
    for p, m in c.entries(value, path, ("id", "ref", "name", "text"), ("enforced", "params"), label="id"):
        ident = c.ident(m["id"], f"{p}.id", "rule id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        text = c.text(m["text"], f"{p}.text")
        enforced = c.boolean(m["enforced"], f"{p}.enforced") if "enforced" in m else False
        params = _params(c, m, p)
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and ref and name and text:
            out.append(SpecialRule(ident, ref, name, text, bool(enforced), params))
    c.unique(ids, "special rule id")
    return tuple(out)


def _scenario_rolls(
    c: _Checker, value: object, path: str, ctx: _Context, steps: tuple[Step, ...], rules: tuple[SpecialRule, ...]
) -> tuple[ScenarioRoll, ...]:
    """``scenario_rolls``: the public rolls made during the scenario, each with a typed threshold or a table."""
    out = []
    ids = []
    in_scenario = tuple(s.ref for s in steps if s.in_scenario)
    for p, m in c.entries(
        value, path, ("id", "ref", "name", "dice", "roller", "when"),
        ("threshold", "outcomes", "table", "modifiers", "sides", "from_turn", "night_only", "step", "rule", "note",
         "roller_role", "requires_rg", "not_in_initial_scenario"),
        label="id",
    ):
        ident = c.ident(m["id"], f"{p}.id", "scenario roll id")
        ref = c.text(m["ref"], f"{p}.ref", numbers=True)
        name = c.text(m["name"], f"{p}.name")
        dice = c.choice(m["dice"], f"{p}.dice", [k.value for k in DiceKind])
        roller = c.text(m["roller"], f"{p}.roller")
        when = c.text(m["when"], f"{p}.when")
        threshold = None
        if "threshold" in m:
            tm = c.mapping(m["threshold"], f"{p}.threshold", ("op", "label"), ("as_written", "interpreted", "verify"))
            if tm is not None and "op" in tm and "label" in tm:
                op = c.choice(tm["op"], f"{p}.threshold.op", THRESHOLD_OPS)
                label = c.text(tm["label"], f"{p}.threshold.label")
                written = c.text(tm["as_written"], f"{p}.threshold.as_written") if "as_written" in tm else None
                interp = c.text(tm["interpreted"], f"{p}.threshold.interpreted") if "interpreted" in tm else None
                verify = c.boolean(tm["verify"], f"{p}.threshold.verify") if "verify" in tm else False
                if op and label:
                    threshold = Threshold(op, label, written, interp, bool(verify))
        outcomes: tuple[str, str] = ("", "")
        if "outcomes" in m:
            om = c.mapping(m["outcomes"], f"{p}.outcomes", ("met", "not_met"))
            if om is not None and len(om) == 2:
                met, not_met = c.text(om["met"], f"{p}.outcomes.met"), c.text(om["not_met"], f"{p}.outcomes.not_met")
                outcomes = (met or "", not_met or "")
        table = c.ref(m["table"], f"{p}.table", ctx.tables, "table") if "table" in m else None
        if ("threshold" in m) == ("table" in m):
            c.error(p, "a scenario roll compares with a typed `threshold:` or rolls on a `table:` (one of the two)")
        if "threshold" in m and "outcomes" not in m:
            c.error(p, "a roll with a `threshold:` says its two `outcomes:` (met, not_met)")
        if table is not None and dice and ctx.tables[table].dice.value != dice:
            c.error(f"{p}.dice", f"table {table!r} is rolled with a {ctx.tables[table].dice.value}")
        modifiers = _modifiers(c, m["modifiers"], f"{p}.modifiers", ctx, ()) if "modifiers" in m else ()
        if table is not None and modifiers:
            c.error(f"{p}.modifiers", "a roll on a table takes the table's own modifiers")
        for j, modifier in enumerate(modifiers):
            if modifier.per is not None or modifier.ask in ("count",):
                c.error(f"{p}.modifiers[{j}]", "a scenario roll's modifier is a fact (`when:`/`unless:`), "
                        "a tick (`ask: tick`), a typed value (`ask: value`) or always applied")
        sides = c.refs(m["sides"], f"{p}.sides", ctx.side_ids, "side") if "sides" in m else ()
        from_turn = c.integer(m["from_turn"], f"{p}.from_turn", minimum=1) if "from_turn" in m else None
        night_only = bool(c.boolean(m["night_only"], f"{p}.night_only")) if "night_only" in m else False
        step = c.ref(m["step"], f"{p}.step", in_scenario, "step played during the scenario (`in_scenario: true`)") \
            if "step" in m else None
        rule = c.ref(m["rule"], f"{p}.rule", tuple(r.id for r in rules), "special rule") if "rule" in m else None
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        role = c.choice(m["roller_role"], f"{p}.roller_role", ("attacker", "defender")) if "roller_role" in m else None
        requires_rg = bool(c.boolean(m["requires_rg"], f"{p}.requires_rg")) if "requires_rg" in m else False
        if requires_rg and rule is None:
            c.error(f"{p}.requires_rg", "a roll that needs an RG bought names the special rule of that RG (`rule:`)")
        not_initial = (c.text(m["not_in_initial_scenario"], f"{p}.not_in_initial_scenario")
                       if "not_in_initial_scenario" in m else None)
        if ident:
            ids.append((f"{p}.id", ident))
        if ident and ref and name and dice and roller and when and (threshold is not None or table is not None):
            out.append(ScenarioRoll(ident, ref, name, DiceKind(dice), roller, when, outcomes, threshold, table,
                                    modifiers, sides, from_turn, night_only, step, rule, note, role, requires_rg,
                                    not_initial))
    c.unique(ids, "scenario roll id")
    return tuple(out)


def _initial_ob(c: _Checker, value: object, path: str, ctx: _Context) -> InitialOb | None:
    """``initial_ob``: per side ``points`` {currency: n}, ``rg`` [{id | group_type, count}], ``elr``, ``san``, ``text``."""
    m = c.mapping(value, path, ("ref", "sides"), ("note",))
    if m is None or "ref" not in m or "sides" not in m:
        return None
    ref = c.text(m["ref"], f"{path}.ref", numbers=True)
    note = c.text(m["note"], f"{path}.note") if "note" in m else None
    raw_sides = m["sides"]
    sides: dict[SideId, SideOb] = {}
    if not isinstance(raw_sides, dict):
        c.error(f"{path}.sides", f"expected a mapping of side ids, got {_kind_of(raw_sides)}", ", ".join(ctx.side_ids))
        raw_sides = {}
    for key, raw in raw_sides.items():
        name = str(key)
        p = f"{path}.sides.{name}"
        if name not in ctx.side_ids:
            c.error(p, f"unknown side {name!r}", ", ".join(ctx.side_ids))
            continue
        sm = c.mapping(raw, p, (), ("points", "rg", "elr", "san", "text"))
        if sm is None:
            continue
        points: dict[str, int] = {}
        if "points" in sm:
            raw_points = sm["points"]
            if not isinstance(raw_points, dict):
                c.error(f"{p}.points", f"expected a mapping of currency codes to numbers, got {_kind_of(raw_points)}",
                        ", ".join(ctx.currency_codes) or "no currency is defined")
            else:
                for code, amount in raw_points.items():
                    cp = f"{p}.points.{code}"
                    if str(code) not in ctx.currency_codes:
                        c.error(cp, f"unknown currency {code!r}", ", ".join(ctx.currency_codes) or "no currency is defined")
                        continue
                    number = c.integer(amount, cp, minimum=0)
                    if number is not None:
                        points[str(code)] = number
        groups: list[ObGroup] = []
        for gp, gm in c.entries(sm.get("rg", []), f"{p}.rg", ("count",), ("id", "group_type")):
            if "id" not in gm and "group_type" not in gm:
                c.error(gp, "an OB-given RG needs its chart id or its group type", "id, group_type")
                continue
            count = c.integer(gm["count"], f"{gp}.count", minimum=1)
            rg_id = c.text(gm["id"], f"{gp}.id", numbers=True) if "id" in gm else None
            group = c.text(gm["group_type"], f"{gp}.group_type", numbers=True) if "group_type" in gm else None
            if count is not None and (rg_id or group):
                groups.append(ObGroup(count, rg_id, group))
        elr = c.integer(sm["elr"], f"{p}.elr", minimum=0, maximum=5) if "elr" in sm else None  # an ELR: 0 to 5
        san = c.integer(sm["san"], f"{p}.san", minimum=0, maximum=12) if "san" in sm else None  # matched by a DR
        text = c.text(sm["text"], f"{p}.text") if "text" in sm else None
        sides[name] = SideOb(name, points, tuple(groups), elr, san, text)
    return InitialOb(ref, sides, note) if ref else None


VICTORY_VALUE_LIMIT = 100_000


def _victory_conditions(c: _Checker, value: object, path: str, ctx: _Context) -> VictoryConditions | None:
    """``victory_conditions``: the CG Victory Conditions as printed (``text``), optional checkable ``conditions`` tried
    in order, and the victor ``otherwise`` (docs/cg-format.md)."""
    m = c.mapping(value, path, ("text",), ("ref", "conditions", "otherwise"))
    if m is None or "text" not in m:
        return None
    text = c.text(m["text"], f"{path}.text")
    ref = c.text(m["ref"], f"{path}.ref", numbers=True) if "ref" in m else "CG Card"
    sides = ", ".join(ctx.side_ids)
    conditions: list[VictoryCondition] = []
    for p, cm in c.entries(m.get("conditions", []), f"{path}.conditions", ("side", "measure", "op", "value")):
        side = c.choice(cm["side"], f"{p}.side", ctx.side_ids) if ctx.side_ids else None
        measure = c.choice(cm["measure"], f"{p}.measure", VICTORY_MEASURES)
        op = c.choice(cm["op"], f"{p}.op", VICTORY_OPS)
        number = c.integer(cm["value"], f"{p}.value", minimum=-VICTORY_VALUE_LIMIT)
        if number is not None and number > VICTORY_VALUE_LIMIT:
            c.error(f"{p}.value", f"{number} is above the maximum",
                    f"a whole number from {-VICTORY_VALUE_LIMIT} to {VICTORY_VALUE_LIMIT}")
            number = None
        if side and measure and op and number is not None:
            conditions.append(VictoryCondition(side, measure, op, number))
    otherwise = None
    if "otherwise" in m:
        otherwise = c.choice(m["otherwise"], f"{path}.otherwise", ctx.side_ids) if ctx.side_ids else None
        if otherwise is None and not ctx.side_ids:
            c.error(f"{path}.otherwise", "no sides are defined", sides or "none")
    if text is None or ref is None:
        return None
    return VictoryConditions(text, ref, tuple(conditions), otherwise)


def _missing_parts(c: _Checker, value: object, path: str) -> tuple[MissingPart, ...]:
    out = []
    for p, m in c.entries(value, path, ("part", "note"), ("id",)):
        part = c.choice(m["part"], f"{p}.part", CARD_PARTS)
        note = c.text(m["note"], f"{p}.note")
        ident = c.text(m["id"], f"{p}.id", numbers=True) if "id" in m else None
        if part and note:
            out.append(MissingPart(part, note, ident))
    return tuple(out)


def _build_system(c: _Checker, doc: object, card: CardInfo | None = None) -> System | None:
    m = c.mapping(doc, "", ("format", "id", "kind", "name", "source", "sides"), SYSTEM_KEYS)
    if m is None:
        return None
    if "format" in m and m["format"] != FORMAT:
        c.error("format", f"unknown format {m['format']!r}", FORMAT)
    ident = c.ident(m["id"], "id", "system id") if "id" in m else None
    if "kind" in m and m["kind"] != "system":
        c.error("kind", f"expected kind 'system', got {_kind_of(m['kind'])}", "system (use parse_card for a cg-card)")
    name = c.text(m["name"], "name") if "name" in m else None
    source = c.text(m["source"], "source") if "source" in m else None
    ctx = _Context()
    sides = _sides(c, m["sides"], "sides") if "sides" in m else ()
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
    settings = _settings(c, m["settings"], "settings", ctx) if "settings" in m else ()
    tables = _tables(c, m["tables"], "tables", ctx, ident or "") if "tables" in m else {}
    steps = _steps(c, m["steps"], "steps", ctx) if "steps" in m else ()
    currencies = _currencies(c, m["currencies"], "currencies", ctx) if "currencies" in m else ()
    special = _special_rules(c, m["special_rules"], "special_rules") if "special_rules" in m else ()
    ctx.map_groups = _map_groups(c, special)
    calendar = _calendar(c, m["calendar"], "calendar", ctx) if "calendar" in m else ()
    in_play = (_map_group_refs(c, m["map_groups_in_play"], "map_groups_in_play", ctx)
               if "map_groups_in_play" in m else ())
    idle = _idle(c, m["idle"], "idle", ctx) if "idle" in m else None
    rg_charts = _rg_charts(c, m["rg_charts"], "rg_charts", ctx) if "rg_charts" in m else ()
    setup_costs = _setup_costs(c, m["setup_costs"], "setup_costs") if "setup_costs" in m else None
    forts = _fortifications(c, m["fortifications"], "fortifications", ctx) if "fortifications" in m else None
    initiative = _initiative(c, m["initiative"], "initiative", ctx) if "initiative" in m else None
    limits = _limits(c, m["limits"], "limits", ctx) if "limits" in m else ()
    forms = _forms(c, m["forms"], "forms") if "forms" in m else ()
    scenario_rolls = (_scenario_rolls(c, m["scenario_rolls"], "scenario_rolls", ctx, steps, special)
                      if "scenario_rolls" in m else ())
    initial_ob = _initial_ob(c, m["initial_ob"], "initial_ob", ctx) if "initial_ob" in m else None
    victory = (_victory_conditions(c, m["victory_conditions"], "victory_conditions", ctx)
               if "victory_conditions" in m else None)
    missing = _missing_parts(c, m["missing_parts"], "missing_parts") if "missing_parts" in m else ()
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


# ---------------------------------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------------------------------


def parse_system(text: str, filename: str) -> System:
    """Parse and validate a `kind: system` definition (docs/cg-format.md); DefinitionErrors lists every problem."""
    doc = _load_yaml(text, filename)
    c = _Checker(filename)
    system = _build_system(c, doc)
    if c.errors or system is None:
        raise DefinitionErrors(c.errors or [DefinitionError(filename, "", "not a valid system definition")])
    return system


def definition_kind(text: str, filename: str) -> tuple[str, str | None]:
    """The `kind` of a definition and, for a cg-card, the system it `extends` (for callers that pick the parser)."""
    doc = _load_yaml(text, filename)
    if not isinstance(doc, dict):
        raise DefinitionErrors([DefinitionError(filename, "", f"expected a mapping at the top level, got {_kind_of(doc)}")])
    kind = doc.get("kind")
    extends = doc.get("extends")
    if kind not in ("system", "cg-card"):
        raise DefinitionErrors([DefinitionError(filename, "kind", f"unknown kind {kind!r}", "system, cg-card")])
    return str(kind), extends if isinstance(extends, str) else None


def _steps_over_system(card_steps: object, system_steps: object) -> object:
    """A card's step list over the system's: a card step keeps what the system file says of the same ref (its part,
    markers, action, params, note) unless the card gives that key itself; the card decides the order and which steps
    run (KGP 8.6031 "CG-Scenario End" stays in the post-scenario part whatever the card lists)."""
    if not isinstance(card_steps, list) or not isinstance(system_steps, list):
        return copy.deepcopy(card_steps)
    by_ref = {str(s.get("ref")): s for s in system_steps if isinstance(s, dict) and "ref" in s}
    out: list[object] = []
    for step in card_steps:
        base = by_ref.get(str(step.get("ref"))) if isinstance(step, dict) and "ref" in step else None
        if base is None or not isinstance(step, dict):
            out.append(copy.deepcopy(step))
            continue
        # the kind is derived from the action (step_kinds): a declared kind of the system's step does not carry over
        merged = {**{k: copy.deepcopy(v) for k, v in base.items() if k != "automation"}, **copy.deepcopy(step)}
        base_params, card_params = base.get("params"), step.get("params")
        if isinstance(base_params, dict) and isinstance(card_params, dict):
            merged["params"] = {**copy.deepcopy(base_params), **copy.deepcopy(card_params)}
        out.append(merged)
    return out


def _chits_chosen_at(special: Sequence[SpecialRule], steps: Sequence[Step]) -> str | None:
    """The step at which a system's special rule seals the Initiative chits (ER CG15/CG18: Bombardment and the FPF
    Barrage are bought "when selecting" the Attack/Idle chit: ``params.chits_chosen_at_action: purchase-rg``)."""
    for rule in special:
        action = rule.params.get("chits_chosen_at_action")
        if isinstance(action, str):
            return next((s.ref for s in steps if s.action == action), None)
    return None


def parse_card(text: str, filename: str, base: System) -> System:
    """Apply a `kind: cg-card` to its base system: replace parts, set settings, fill `supply:` cells of declared-missing values."""
    doc = _load_yaml(text, filename)
    c = _Checker(filename)
    m = c.mapping(doc, "", ("format", "kind", "id", "extends", "name"), CARD_KEYS)
    if m is None:
        raise DefinitionErrors(c.errors)
    if "format" in m and m["format"] != FORMAT:
        c.error("format", f"unknown format {m['format']!r}", FORMAT)
    if "kind" in m and m["kind"] != "cg-card":
        c.error("kind", f"expected kind 'cg-card', got {_kind_of(m['kind'])}", "cg-card")
    ident = c.ident(m["id"], "id", "card id") if "id" in m else None
    name = c.text(m["name"], "name") if "name" in m else None
    source = c.text(m["source"], "source") if "source" in m else None
    example = c.boolean(m["example"], "example") if "example" in m else False
    if "extends" in m and m["extends"] != base.id:
        c.error("extends", f"this card extends {m['extends']!r}, but it was applied to {base.id!r}", base.id)
    if c.errors:
        raise DefinitionErrors(c.errors)

    merged: dict[str, object] = dict(copy.deepcopy(dict(base.document)))
    replaced = [part for part in CARD_PARTS if part in m]
    if "settings_values" in m and "settings" not in replaced:
        replaced.append("settings")  # the values resolve a `missing_parts: {part: settings}` entry
    for part in (p for p in replaced if p in m):
        card_tables = m["tables"] if part == "tables" else None
        base_tables = merged.get("tables")
        if isinstance(card_tables, list) and isinstance(base_tables, list):
            by_id = {t.get("id"): n for n, t in enumerate(base_tables) if isinstance(t, dict)}
            tables = list(base_tables)
            for table in card_tables:
                key = table.get("id") if isinstance(table, dict) else None
                if key in by_id:
                    tables[by_id[key]] = copy.deepcopy(table)
                else:
                    tables.append(copy.deepcopy(table))
            merged["tables"] = tables
        elif part == "steps":
            merged[part] = _steps_over_system(m[part], merged.get("steps"))
        else:
            merged[part] = copy.deepcopy(m[part])
    raw_card_tables = m.get("tables")
    supplied_tables = (
        {t.get("id") for t in raw_card_tables if isinstance(t, dict)} if isinstance(raw_card_tables, list) else set()
    )
    kept_missing = []
    raw_missing = merged.get("missing_parts")
    for entry in raw_missing if isinstance(raw_missing, list) else []:
        if isinstance(entry, dict) and entry.get("part") in replaced:
            if entry.get("part") != "tables" or entry.get("id") is None or entry.get("id") in supplied_tables:
                continue
        kept_missing.append(entry)
    merged["missing_parts"] = kept_missing
    card = CardInfo(ident or "", name or "", base.id, bool(example), source)
    system = _build_system(c, merged, card)
    if c.errors or system is None:
        raise DefinitionErrors(c.errors or [DefinitionError(filename, "", "the card does not make a valid system")])

    values = _settings_values(c, m.get("settings_values"), system) if "settings_values" in m else {}
    tables_after = _supply(c, m["supply"], "supply", system) if "supply" in m else dict(system.tables)
    if c.errors:
        raise DefinitionErrors(c.errors)
    return replace(system, card=card, settings_values=values, tables=tables_after, document=merged)


def _settings_values(
    c: _Checker, value: object, system: System, path: str = "settings_values", source: str | None = None
) -> dict[str, SettingValue | Mapping[SideId, SettingValue]]:
    """Setting values checked against the system's settings (a card's ``settings_values``; with ``source``, only the
    settings of that source may be given: the players' choices)."""
    out: dict[str, SettingValue | Mapping[SideId, SettingValue]] = {}
    if not isinstance(value, dict):
        c.error(path, f"expected a mapping of setting ids to values, got {_kind_of(value)}")
        return out
    known = {s.id: s for s in system.settings}
    allowed = ", ".join(s.id for s in system.settings if source is None or s.source == source) or "none defined"
    side_ids = tuple(side.id for side in system.sides)
    for key, raw in value.items():
        sid = str(key)
        p = _join(path, sid)
        if sid not in known:
            c.error(p, f"unknown setting {sid!r}", allowed)
            continue
        setting = known[sid]
        if source is not None and setting.source != source:
            words = _SOURCE_WORDS.get(source, source)
            c.error(p, f"{sid} is not {words}' choice: it is set by {_SOURCE_WORDS.get(setting.source, setting.source)}",
                    allowed)
            continue
        if setting.per_side:
            if not isinstance(raw, dict):
                c.error(p, f"{sid} is set per side: expected a mapping of side ids to values, got {_kind_of(raw)}", ", ".join(side_ids))
                continue
            per: dict[SideId, SettingValue] = {}
            for skey, sraw in raw.items():
                if str(skey) not in side_ids:
                    c.error(f"{p}.{skey}", f"unknown side {str(skey)!r}", ", ".join(side_ids))
                    continue
                val = _setting_value(c, sraw, f"{p}.{skey}", setting.type, setting.choices, setting.range)
                if val is not None:
                    per[str(skey)] = val
            absent = [s for s in side_ids if s not in {str(k) for k in raw}]
            if absent:
                c.error(p, f"no value for side(s) {', '.join(absent)}", ", ".join(side_ids))
            out[sid] = per
        else:
            val = _setting_value(c, raw, p, setting.type, setting.choices, setting.range)
            if val is not None:
                out[sid] = val
    return out


_SOURCE_WORDS = {"cg-card": "the CG Card", "rules": "the rules", "players": "the players"}
PLAYER_CHOICES = "players' choices"  # the "file" a players'-choice DefinitionError names


def player_settings(system: System) -> tuple[Setting, ...]:
    """The settings the players choose when they start a campaign (``source: players``: KGP 8.31, PL 3.2 …)."""
    return tuple(setting for setting in system.settings if setting.source == "players")


def player_setting_start(system: System, setting_id: str) -> SettingValue | Mapping[SideId, SettingValue] | None:
    """Where a players' choice starts: the CG Card's value if the card sets it, else the setting's default, else None
    (the players must choose)."""
    setting = system.setting(setting_id)
    card_value = system.settings_values.get(setting_id)
    return card_value if card_value is not None else setting.default


def setting_allowed(setting: Setting) -> str:
    """What a setting's value may be, in words ("none, german, us", "0 to 5", "true, false")."""
    if setting.type == "choice":
        return ", ".join(setting.choices)
    if setting.type == "int":
        return f"{setting.range[0]} to {setting.range[1]}" if setting.range else "a whole number"
    if setting.type == "bool":
        return "true, false"
    return "text"


def with_player_settings(
    system: System, values: Mapping[str, object], *, complete: bool = False, filename: str = PLAYER_CHOICES
) -> System:
    """The system with the players' choices of its ``source: players`` settings applied over the card's values, checked
    as a card's ``settings_values`` are; ``complete``: every choice without a card value or default must be given
    (DefinitionErrors listing every problem and what is allowed)."""
    c = _Checker(filename)
    chosen = _settings_values(c, dict(values), system, path="", source="players")
    if complete:
        for setting in player_settings(system):
            if setting.id not in values and player_setting_start(system, setting.id) is None:
                c.error(setting.id, "not chosen, and it has no default", setting_allowed(setting))
    if c.errors:
        raise DefinitionErrors(c.errors)
    chosen_system = replace(system, settings_values={**system.settings_values, **chosen}) if chosen else system
    return _map_groups_of_the_cg(c, chosen_system)


def _map_groups_of_the_cg(c: _Checker, system: System) -> System:
    """KGP 8.2 "the "Ch" Map Group (used in CGII)", CG21 "off the "Lg" Map Group during CG III": the chosen CG names
    Map Groups it plays (a rule's ``params.map_groups_by_setting``). A card that names none plays them; a card whose
    Map Groups leave one out is refused, saying which the rule gives."""
    for rule in system.special_rules:
        spec = rule.params.get("map_groups_by_setting")
        if not isinstance(spec, Mapping):
            continue
        setting_id, groups = spec.get("setting"), spec.get("groups")
        choice = system.settings_values.get(str(setting_id))
        wanted = groups.get(str(choice)) if isinstance(groups, Mapping) else None
        if not isinstance(wanted, list) or not wanted:
            continue
        named = set(system.map_groups_in_play) | {g for entry in system.calendar for g in entry.map_groups}
        if not named:
            return replace(system, map_groups_in_play=tuple(str(g) for g in wanted))
        if not {str(g) for g in wanted} <= named:
            choices = next((s.choices for s in system.settings if s.id == setting_id), ())
            fits = [str(k) for k in choices if not isinstance(groups.get(str(k)), list)
                    or {str(g) for g in groups[str(k)]} <= named] if isinstance(groups, Mapping) else []
            c.error(str(setting_id), f"CG {choice} is played on the {', '.join(map(str, wanted))} Map Group "
                    f"({spec.get('as_written', rule.ref)}), which this CG Card does not play (it plays "
                    f"{', '.join(sorted(named))})", ", ".join(fits) or None)
            raise DefinitionErrors(c.errors)
    return system


def _supply(c: _Checker, value: object, path: str, system: System) -> dict[str, DiceTable]:
    """Fill declared-missing cells (and lost row labels) of the system's tables."""
    tables = dict(system.tables)
    for p, m in c.entries(value, path, ("table", "row"), ("column", "value", "label", "note")):
        tid = c.ref(m["table"], f"{p}.table", tables, "table")
        final = c.integer(m["row"], f"{p}.row")
        if tid is None or final is None:
            continue
        table = tables[tid]
        index = next((n for n, row in enumerate(table.rows) if row.covers(final)), None)
        if index is None:
            c.error(f"{p}.row", f"no row of {tid} covers final {final}", ", ".join(r.range_text for r in table.rows))
            continue
        row = table.rows[index]
        note = c.text(m["note"], f"{p}.note") if "note" in m else None
        card_note = f"supplied by CG Card {system.card.id if system.card else ''}".strip() + (f": {note}" if note else "")
        if "value" not in m and "label" not in m:
            c.error(p, "a supply entry gives `value:` (a cell) or `label:` (a lost row label)")
            continue
        if "label" in m:
            label = c.text(m["label"], f"{p}.label", numbers=True)
            if row.label_missing is None:
                c.error(f"{p}.label", f"the label of {tid} row {row.range_text} is not missing; a card only fills lost values")
            elif label:
                row = replace(row, label=label, label_missing=None)
        if "value" in m:
            columns = [col.id for col in table.columns]
            try:
                column = table.column(str(m["column"]) if "column" in m else None)
            except ValueError as exc:
                c.error(f"{p}.column", str(exc), ", ".join(columns))
                column = None
            plain = c.plain(m["value"], f"{p}.value")
            if column is not None and plain is not None:
                k = table.columns.index(column)
                cells = list(row.cells) if row.missing is None else [
                    Cell(None, Provenance.MISSING, note=row.missing) for _ in table.columns
                ]
                if not cells[k].missing:
                    lost = [
                        f"row {r.range_text} column {col.id}"
                        for r in table.rows for n, col in enumerate(table.columns)
                        if r.missing is not None or (n < len(r.cells) and r.cells[n].missing)
                    ]
                    c.error(
                        f"{p}.value",
                        f"{tid} row {row.range_text} column {column.id} is not missing ({cells[k].text}); "
                        "a card only fills values lost in the rule text",
                        "; ".join(lost) or "this table has no missing cells",
                    )
                else:
                    cells[k] = Cell(plain, Provenance.LEGIBLE, note=card_note, supplied=True)
                    row = replace(row, cells=tuple(cells), missing=None)
        rows = list(table.rows)
        rows[index] = row
        tables[tid] = replace(table, rows=tuple(rows))
    return tables


__all__ = [
    "FORMAT", "KNOWN_FACTS", "PLAYER_CHOICES", "definition_kind", "parse_card", "parse_system", "player_setting_start",
    "player_settings", "setting_allowed", "with_player_settings",
]
