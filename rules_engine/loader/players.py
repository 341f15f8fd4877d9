"""Setting values: a CG Card's and the players' choices (KGP 8.31, PL 3.2), and the CG's Map Groups."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules_engine.errors import DefinitionErrors
from rules_engine.loader.checker import Checker, join_path, kind_of
from rules_engine.loader.settings import read_setting_value
from rules_engine.model import Setting, SettingValue, System
from rules_engine.vocabulary import SideId


def read_settings_values(
    c: Checker, value: object, system: System, path: str = "settings_values", source: str | None = None
) -> dict[str, SettingValue | Mapping[SideId, SettingValue]]:
    """Setting values checked against the system's settings (a card's ``settings_values``; with ``source``, only the
    settings of that source may be given: the players' choices)."""
    out: dict[str, SettingValue | Mapping[SideId, SettingValue]] = {}
    if not isinstance(value, dict):
        c.error(path, f"expected a mapping of setting ids to values, got {kind_of(value)}")
        return out
    known = {s.id: s for s in system.settings}
    allowed = ", ".join(s.id for s in system.settings if source is None or s.source == source) or "none defined"
    side_ids = tuple(side.id for side in system.sides)
    for key, raw in value.items():
        sid = str(key)
        p = join_path(path, sid)
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
                c.error(p, f"{sid} is set per side: expected a mapping of side ids to values, got {kind_of(raw)}", ", ".join(side_ids))
                continue
            per: dict[SideId, SettingValue] = {}
            for skey, sraw in raw.items():
                if str(skey) not in side_ids:
                    c.error(f"{p}.{skey}", f"unknown side {str(skey)!r}", ", ".join(side_ids))
                    continue
                val = read_setting_value(c, sraw, f"{p}.{skey}", setting.type, setting.choices, setting.range)
                if val is not None:
                    per[str(skey)] = val
            absent = [s for s in side_ids if s not in {str(k) for k in raw}]
            if absent:
                c.error(p, f"no value for side(s) {', '.join(absent)}", ", ".join(side_ids))
            out[sid] = per
        else:
            val = read_setting_value(c, raw, p, setting.type, setting.choices, setting.range)
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
    c = Checker(filename)
    chosen = read_settings_values(c, dict(values), system, path="", source="players")
    if complete:
        for setting in player_settings(system):
            if setting.id not in values and player_setting_start(system, setting.id) is None:
                c.error(setting.id, "not chosen, and it has no default", setting_allowed(setting))
    if c.errors:
        raise DefinitionErrors(c.errors)
    chosen_system = replace(system, settings_values={**system.settings_values, **chosen}) if chosen else system
    return _map_groups_of_the_cg(c, chosen_system)


def _map_groups_of_the_cg(c: Checker, system: System) -> System:
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
