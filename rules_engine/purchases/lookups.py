"""Purchase data look-ups: currency, rule numbers, settings by side, chart rows and the rules that govern them."""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.errors import UnknownNameError
from rules_engine.fortification_purchase import Violation
from rules_engine.model import Cell, RgChart, RgRow, SettingValue, SpecialRule, System
from rules_engine.system_memo import SystemMemo
from rules_engine.vocabulary import SideId


def objective_hex_prefixes(system: System) -> tuple[tuple[str, ...], str] | None:
    """KGP 8.2 Objective Hex: the RG ID prefixes that allow a designation and the rule's ref (None: no such rule)."""
    for rule in system.special_rules:
        prefixes = rule.params.get("rg_id_prefixes")
        if rule.params.get("results_field") == "objective_hexes" and isinstance(prefixes, list):
            return tuple(str(p) for p in prefixes), str(rule.ref)
    return None


def _purchase_step_params(system: System) -> tuple[str, Mapping[str, object]]:
    """The secret purchase step's rule number and params (empty when the system has none)."""
    return _PURCHASE_STEP(system, None)


def _find_purchase_step(system: System, _: None) -> tuple[str, Mapping[str, object]]:
    for step in system.steps:
        if step.secret == "purchase" and step.action in ("purchase-rg", "purchase"):
            return step.ref, step.params
    return "", {}


_PURCHASE_STEP = SystemMemo(_find_purchase_step).lookup


def purchase_currency(system: System) -> str:
    """The currency RG are bought with (the purchase step's ``currency``; else the system's first currency)."""
    _, params = _purchase_step_params(system)
    currency = params.get("currency")
    if isinstance(currency, str):
        return currency
    if not system.currencies:
        raise UnknownNameError(f"{system.id}: no currency to buy with")
    return system.currencies[0].code


def purchase_ref(system: System) -> str:
    """The rule number of the RG purchase step (2.518, 2.3, C5.31)."""
    ref, _ = _purchase_step_params(system)
    return ref or (system.rg_charts[0].ref if system.rg_charts else "")


def side_setting(system: System, setting_id: str, side: SideId) -> SettingValue | None:
    """A setting's value for one side (per-side settings give that side's), else its default, else None."""
    value = system.settings_values.get(setting_id)
    if isinstance(value, Mapping):
        return value.get(side)
    if value is not None:
        return value
    for setting in system.settings:
        if setting.id == setting_id:
            return setting.default
    return None


def int_settings(system: System, side: SideId) -> dict[str, int]:
    """The whole-number settings for one side (what tables.resolve takes for CG-Card DRM)."""
    out: dict[str, int] = {}
    for key in system.settings_values:
        value = side_setting(system, key, side)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
    return out


def cell_number(cell: Cell | None) -> int | None:
    """A chart cell as a whole number (None when empty or lost)."""
    if cell is None or cell.missing or cell.value is None:
        return None
    value = cell.number
    return int(value)


def lost_violation(what: str, cell: Cell, ref: str) -> Violation:
    """A value lost in the rule text as a violation asking for a CG Card."""
    return Violation(ref, f"{what} is lost in the rule text ({cell.note}); supply it in a CG Card ({ref})")


def row_label(row: RgRow) -> str:
    """An RG row as messages name it: ``RG M3 (Recon)``."""
    return f"RG {row.id} ({row.group_type})"


def params_list(value: object) -> tuple[str, ...]:
    """A rule parameter as a tuple of strings (empty unless it is a list)."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        return tuple(str(v) for v in value)
    return ()


def matches_rule_row(rule: SpecialRule, chart: RgChart, row: RgRow) -> bool:
    """Whether a special rule (ER CG15/CG18) governs an RG row: by note (``special_rule: id``) or by group type."""
    for letter in row.notes:
        note = chart.notes.get(letter)
        if note is not None and note.params.get("special_rule") == rule.id:
            return True
    wanted = params_list(rule.params.get("group_types"))
    text = f"{row.group_type} {row.description or ''}".casefold()
    return any(w.casefold() in text for w in wanted)


def rule_rg_ids(system: System, side: SideId, rule_id: str) -> frozenset[str]:
    """The ids of the side's RG rows a special rule governs (ER CG18: the FPF Barrage rows)."""
    rule = next((r for r in system.special_rules if r.id == rule_id), None)
    try:
        chart = system.rg_chart(side)
    except UnknownNameError:
        return frozenset()
    if rule is None:
        return frozenset()
    return frozenset(row.id for row in chart.rows if matches_rule_row(rule, chart, row))


def calendar_index(system: System, entry_id: str) -> int | None:
    """The calendar position of a CG Date id (None when unknown)."""
    for entry in system.calendar:
        if entry.id == entry_id:
            return entry.index
    return None


def row_type(chart: RgChart, rg_id: str) -> str | None:
    """The type of the chart row with this RG id (None when absent)."""
    for row in chart.rows:
        if row.id == rg_id:
            return row.type
    return None


def setting_ref(system: System, setting_id: str, fallback: str) -> str:
    """The rule number a setting cites, else ``fallback``."""
    return next((s.ref for s in system.settings if s.id == setting_id and s.ref), None) or fallback
