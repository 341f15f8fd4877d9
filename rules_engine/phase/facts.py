"""Facts and settings for DRMs: what the engine knows from its records plus what a side supplied (RR 2.521, PL 3.47)."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.model import Step
from rules_engine.record_facts import platoons_purchased
from rules_engine.state import (
    CampaignState,
    DateRecord,
    SystemLike,
)
from rules_engine.system_memo import SystemMemo
from rules_engine.tables import Fact, side_facts
from rules_engine.vocabulary import Chit

_ATTACK = str(Chit.ATTACK)


def applies(system: SystemLike, step: Step, side: str) -> bool:
    """Whether a step applies to ``side`` (``params.only_if_setting`` / ``skip_if_setting``)."""
    only = step.params.get("only_if_setting")
    if isinstance(only, str) and not setting_value(system, side, only):
        return False
    skip = step.params.get("skip_if_setting")
    return not (isinstance(skip, str) and setting_value(system, side, skip))


def side_settings(system: SystemLike, side: str) -> dict[str, int]:
    """Whole-number settings for ``side`` (per-side values give that side's; defaults where nothing is set)."""
    return dict(_SIDE_SETTINGS(system, side))


def _side_settings(system: SystemLike, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for setting in system.settings:
        if isinstance(setting.default, int) and not isinstance(setting.default, bool):
            out[setting.id] = setting.default
    for key, given in system.settings_values.items():
        value = given.get(side) if isinstance(given, Mapping) else given
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
    return out


_SIDE_SETTINGS = SystemMemo(_side_settings).lookup


def setting_value(system: SystemLike, side: str, key: str) -> object:
    """A setting's value for ``side`` (per-side mappings resolved), else its default, else None."""
    value: object = system.settings_values.get(key)
    if isinstance(value, Mapping):
        value = value.get(side)
    if value is None:
        for setting in system.settings:
            if setting.id == key:
                return setting.default
    return value


def facts_for(system: SystemLike, state: CampaignState, side: str) -> dict[str, Fact]:
    """DRM facts the engine knows from its records ("previous"/"this" = the date just finished), plus supplied ones."""
    facts: dict[str, Fact] = side_facts(system, side)  # a fresh dict
    facts.update(_HISTORY_FACTS(state.history, (side, state.other(side))))
    if 0 <= state.date_index < len(system.calendar):
        facts["night"] = system.calendar[state.date_index].night
    own = state.sealed.get(side)
    if own is not None:
        facts["attack_option_purchased_now"] = own is Chit.ATTACK
    ledger = state.ledgers.get(side)
    if ledger is not None:
        facts.update(platoons_purchased(system, ledger, side, state.date_id))  # PL 3.47, from the record
    facts.update(state.facts_supplied.get(side, {}))
    return facts


def _history_facts(history: tuple[DateRecord, ...], sides: tuple[str, str]) -> dict[str, Fact]:
    """The facts ``facts_for`` reads from the dates played, for ``sides`` = (the side, its opponent)."""
    side, other = sides
    facts: dict[str, Fact] = {}
    last = history[-1] if history else None
    result = last.result if last is not None else None
    facts["own_attack_previous"] = last is not None and last.choices.get(side) == _ATTACK
    # RR 2.521 "-1 Attacked in the previous CG Scenario": the last scenario played (an Idle Date has none)
    played = next((r.result for r in reversed(history) if r.kind != "idle" and r.result is not None), None)
    facts["own_attacked_previous_scenario"] = bool(played and played.attacked.get(side))
    won = bool(result and result.winner == side)
    facts["won_previous"] = won
    facts["won_this"] = won
    facts["cvp_amassed_this"] = result.cvp.get(side, 0) if result else 0
    facts["cvp_suffered_previous"] = result.cvp.get(other, 0) if result else 0
    idle_seen = any(r.kind == "idle" for r in history)
    facts["firefights_without_idle"] = 0 if idle_seen else len(history)  # every date played: none was Idle
    return facts


# per history tuple (frozen: a new date makes a new tuple); the caller's dict is a copy (``facts.update``)
_HISTORY_FACTS = SystemMemo(_history_facts).lookup
