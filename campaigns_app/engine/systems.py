"""Systems for the web app: parsed definitions (cached), a campaign's System (card, players' choices, lost values)
and the names the pages give sides and dates."""
from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping

from campaigns_app.models import Campaign, CgSystem
from rules_engine import loader, lost_values, victory
from rules_engine.errors import RulesError
from rules_engine.events import JSON
from rules_engine.lost_values import LostValue
from rules_engine.model import System
from rules_engine.vocabulary import SideId

_systems: dict[tuple[str, str], System] = {}
_systems_lock = threading.Lock()


def _cached(key: tuple[str, str], build: Callable[[], System]) -> System:
    """The System cached under ``key``, built by ``build()`` when missing."""
    found = _systems.get(key)
    if found is None:
        found = build()
        with _systems_lock:
            _systems[key] = found
    return found


def parse_system(text: str, filename: str) -> System:
    """rules_engine.loader.parse_system: a `kind: system` definition validated (DefinitionErrors)."""
    return loader.parse_system(text, filename)


def definition_kind(text: str, filename: str) -> tuple[str, str | None]:
    """rules_engine.loader.definition_kind: a definition's kind and, for a card, the system it extends."""
    return loader.definition_kind(text, filename)


def parse_card(text: str, filename: str, base: System) -> System:
    """rules_engine.loader.parse_card: a CG Card applied to its base system (DefinitionErrors)."""
    return loader.parse_card(text, filename, base)


def system_of(cg_system: CgSystem) -> System:
    """The parsed System of a stored definition, cached by (id, sha256)."""
    return _cached((cg_system.id, cg_system.sha256),
                   lambda: parse_system(cg_system.definition, f"{cg_system.id}.yaml"))


def side_ids(system: System) -> list[SideId]:
    """The two side ids in the system's order (the order of the player seeds too)."""
    return [side.id for side in system.sides]


def objective_hex_ref(system: System) -> str | None:
    """KGP 8.2: the Objective Hex rule that asks the results for each side's Controlled Objective Hexes (or None)."""
    return victory.objective_hex_ref(system)


def other_side(system: System, side_id: SideId) -> SideId:
    """The opponent of ``side_id`` (the first side for anything that is not the first side)."""
    first, second = side_ids(system)
    return second if side_id == first else first


def system_for(campaign: Campaign) -> System:
    """The campaign's System: its base system with the CG Card copied into the campaign at creation (if any), the
    players' choices made at creation (``source: players`` settings) over it, and the lost values typed at creation
    filled in for both sides (``lost_values.with_cells``), cached by all of them."""
    return with_values(_chosen_system_for(campaign), dict(campaign.supplied_values or {}))


def _chosen_system_for(campaign: Campaign) -> System:
    choices = campaign.player_settings or {}
    if not choices:
        return card_system_for(campaign)
    words = json.dumps(choices, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    key = (campaign.system_id, f"{cg_system_row(campaign).sha256}+{campaign.card_sha256}+players:{words}")
    return _cached(key, lambda: with_player_settings(card_system_for(campaign), choices))


def needed_values(system: System) -> tuple[LostValue, ...]:
    """rules_engine.lost_values.needed_values: every value lost in the rule text a campaign of ``system`` could need."""
    return lost_values.needed_values(system)


def settle_values(system: System, raw: Mapping[str, object]) -> dict[str, JSON]:
    """rules_engine.lost_values.settle: the typed lost values checked (SubmissionError, one line per problem)."""
    return lost_values.settle(system, raw)


def value_problems(error: RulesError) -> dict[str, str]:
    """What ``settle_values`` refused, by value key ("" for the whole: any other refusal)."""
    if isinstance(error, lost_values.UnsettledValuesError):
        return dict(error.problems)
    return {"": str(error)}


def with_values(system: System, values: Mapping[str, JSON]) -> System:
    """rules_engine.lost_values.with_cells: the system with settled lost values filled in."""
    return lost_values.with_cells(system, dict(values), lost_values.SETTLED_NOTE)


def card_system_for(campaign: Campaign) -> System:
    """The campaign's base system with its copied CG Card (if any), without the players' choices."""
    if campaign.card_sha256:
        return system_with_card(cg_system_row(campaign), campaign.card_text, campaign.card_sha256)
    return system_of(cg_system_row(campaign))


def cg_system_row(campaign: Campaign) -> CgSystem:
    """The campaign's CgSystem row: the one loaded with it, else read without its YAML ``definition`` (system_of reads
    that only when its cache misses), so no path loads the 60 KB text for a system already parsed."""
    if not Campaign.system.is_cached(campaign):
        campaign.system = CgSystem.objects.defer("definition").get(pk=campaign.system_id)
    return campaign.system


def with_player_settings(system: System, values: Mapping[str, object], complete: bool = False) -> System:
    """rules_engine.loader.with_player_settings: the players' choices applied over the card (DefinitionErrors)."""
    return loader.with_player_settings(system, values, complete=complete)


def system_with_card(cg_system: CgSystem, card_text: str, card_sha256: str, filename: str = "card.yaml") -> System:
    """rules_engine.loader.parse_card of a card on its base system, cached by (system sha256, card sha256)."""
    key = (cg_system.id, f"{cg_system.sha256}+{card_sha256}")
    return _cached(key, lambda: parse_card(card_text, filename, system_of(cg_system)))
