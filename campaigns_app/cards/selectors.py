"""Reads for CG Cards: a user's cards, what a card supplies, what a system still lacks, and a campaign's rules in use.

A user's card is visible to its owner only; bundled cards (fixtures/cards/) to every player. The opponent of a campaign
sees the card through the campaign (its copied text), never through the card itself.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet

from campaigns_app import engine
from campaigns_app.cards.contents import (
    Value,
    card_detail,
    card_report,
    card_system,
    start_blockers,
    system_report,
    system_values,
)
from campaigns_app.models import Campaign, CgCard, CgSystem
from rules_engine.loader import player_setting_start, player_settings
from rules_engine.model import Setting, System
from rules_engine.rules_in_use import rules_in_use

__all__ = [
    "Value", "bundled_cards", "campaign_choices", "campaign_rules", "card_detail", "card_for", "card_report",
    "card_system", "card_usable", "cards_visible", "choice_rows", "create_choices", "create_system", "own_cards",
    "player_setting_fields", "player_settings_from_post", "published_cards", "setting_title", "setting_value_text",
    "start_blockers", "system_report", "system_values",
]


def cards_visible(user: AbstractBaseUser) -> QuerySet[CgCard]:
    """The user's own cards, the bundled ones and the cards their authors published."""
    return CgCard.objects.filter(Q(owner_id=user.pk) | Q(owner__isnull=True) | Q(published=True)).select_related(
        "system", "owner")


def published_cards(user: AbstractBaseUser) -> QuerySet[CgCard]:
    """Cards other players published (every player may use and copy them; only their author edits them)."""
    return (CgCard.objects.filter(published=True).exclude(owner_id=user.pk).select_related("system", "owner")
            .order_by("system__name", "name", "created"))


def own_cards(user: AbstractBaseUser) -> QuerySet[CgCard]:
    """The user's own cards with the number of campaigns using each."""
    return (
        CgCard.objects.filter(owner_id=user.pk)
        .select_related("system")
        .annotate(used_by=Count("campaigns"))
        .order_by("system__name", "name", "created")
    )


def bundled_cards() -> QuerySet[CgCard]:
    return CgCard.objects.filter(owner__isnull=True).select_related("system").order_by("system__name", "name")


def card_for(user: AbstractBaseUser, card_id: str) -> CgCard | None:
    """The card if the user may see it (their own or a bundled one), else None (the view answers 404)."""
    if not user.is_authenticated:
        return None
    return cards_visible(user).annotate(used_by=Count("campaigns", filter=Q(campaigns__seats__user_id=user.pk))).filter(
        id=card_id
    ).first()


def card_usable(user: AbstractBaseUser, card_id: str) -> CgCard | None:
    """A card the user may start a campaign with (their own or a bundled one)."""
    return cards_visible(user).filter(id=card_id).first()


# --------------------------------------------------------------------------------------------- campaign creation


def create_choices(user: AbstractBaseUser) -> list[dict[str, Any]]:
    """Every loadable system with its sides, the user's cards for it (bundled example cards too) and whether it can
    start without a card."""
    by_system: dict[str, list[dict[str, Any]]] = {}
    for card in cards_visible(user).order_by("owner_id", "name", "created"):
        by_system.setdefault(card.system_id, []).append(
            {"id": card.id, "name": card.name, "example": card.example, "bundled": card.owner_id is None,
             "mine": card.owner_id == user.pk, "published": card.published,
             "author": card.owner.get_username() if card.owner is not None and card.owner_id != user.pk else ""}
        )
    rows = []
    for cg_system in CgSystem.objects.all():
        try:
            system = engine.system_of(cg_system)
        except Exception:  # a stored definition the current engine rejects: not offered
            continue
        cards = sorted(by_system.get(cg_system.id, []), key=lambda c: (c["bundled"], not c["mine"], c["name"]))
        rows.append(
            {
                "id": cg_system.id,
                "name": cg_system.name,
                "sides": [(side.id, side.name) for side in system.sides],
                "needs_card": bool(start_blockers(system)),
                "blockers": start_blockers(system),
                "cards": cards,
            }
        )
    return rows


# --------------------------------------------------------------------------------------------- the players' choices
# Settings with ``source: players`` (KGP 8.31 CG Balance, KGP 8.51–.53 which CG, PL 3.2 Redeployment Option): chosen on
# the create page, shown to the opponent before joining (joining accepts them), on Rules in use and in the history.

SETTING_FIELD_PREFIX = "setting-"


def setting_value_text(system: System, setting: Setting, value: object) -> str:
    """A setting's value as a player reads it: a side id by its side's name, yes/no, per side "Side: value; …"."""
    names = {side.id: side.name for side in system.sides}
    if isinstance(value, Mapping):
        return "; ".join(f"{names.get(str(k), k)}: {setting_value_text(system, setting, v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "not chosen"
    return names.get(str(value), str(value)) if setting.type == "choice" else str(value)


def setting_title(setting: Setting) -> str:
    """A setting's label with its rule number (unless the label has it): "KGP Campaign Game (8.51-.53)"."""
    return setting.label + (f" ({setting.ref})" if setting.ref and setting.ref not in setting.label else "")


def player_setting_fields(system: System, submitted: Mapping[str, object] | None = None) -> list[dict[str, Any]]:
    """One create-page field per players' setting: its kind, choices (value, words), range, note, and the value shown
    (what was submitted, else the card's value, else the default; empty: it must be chosen). Per-side players' settings
    have no field (no system has one): the service then refuses the campaign, naming the setting."""
    rows = []
    for setting in player_settings(system):
        start = player_setting_start(system, setting.id)
        value = submitted[setting.id] if submitted is not None and setting.id in submitted else start
        card_value = system.settings_values.get(setting.id)
        rows.append({
            "id": setting.id,
            "name": f"{SETTING_FIELD_PREFIX}{setting.id}",
            "label": setting.label,
            "ref": setting.ref if setting.ref and setting.ref not in setting.label else "",
            "note": setting.note or "",
            "type": setting.type,
            "per_side": setting.per_side,
            "choices": [(choice, setting_value_text(system, setting, choice)) for choice in setting.choices],
            "range": setting.range,
            "value": "" if value is None or isinstance(value, Mapping) else (
                value if isinstance(value, bool) else str(value)),
            "required": start is None,
            "start": "card" if card_value is not None else ("default" if setting.default is not None else ""),
            "start_text": "" if start is None else setting_value_text(system, setting, start),
        })
    return rows


def create_system(user: AbstractBaseUser, system_id: str, card_id: str | None) -> System | None:
    """The system (with the card, if the user may use it for this system and it applies) the create page shows the
    players' choices of; None when the system is not loaded or does not load."""
    cg_system = CgSystem.objects.filter(id=system_id).first()
    if cg_system is None:
        return None
    card = card_usable(user, card_id) if card_id else None
    try:
        if card is not None and card.system_id == cg_system.id:
            return card_system(card)
    except ValueError:
        pass  # the service refuses the card with its message; show the system's own choices meanwhile
    try:
        return engine.system_of(cg_system)
    except ValueError:
        return None


def player_settings_from_post(system: System, data: Mapping[str, Any]) -> dict[str, object]:
    """The players' choices in a create-page POST, typed for the engine's checks (a whole number as int, a checkbox as
    true/false); an absent or empty field is left out (the card's value or the default applies, or it is missing)."""
    out: dict[str, object] = {}
    for setting in player_settings(system):
        name = f"{SETTING_FIELD_PREFIX}{setting.id}"
        getlist = getattr(data, "getlist", None)
        raw = (getlist(name) or [None])[-1] if getlist is not None else data.get(name)  # a checkbox after its hidden
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        text = str(raw).strip()
        if setting.type == "int":
            number = re.fullmatch(r"[+-]?[0-9]{1,12}", text)
            out[setting.id] = int(text) if number else text[:20]  # the engine says what is allowed
        elif setting.type == "bool":
            out[setting.id] = {"true": True, "on": True, "false": False}.get(text.casefold(), text)
        else:
            out[setting.id] = text
    return out


def choice_rows(system: System, values: Mapping[str, object]) -> list[dict[str, str]]:
    """The players' choices as shown: label, rule, value in words, the setting's note (the system's order)."""
    rows = []
    for setting in system.settings:
        if setting.id in values:
            rows.append({"id": setting.id, "label": setting.label, "ref": setting.ref or "", "title": setting_title(setting),
                         "value": setting_value_text(system, setting, values[setting.id]), "note": setting.note or ""})
    return rows


def campaign_choices(campaign: Campaign) -> list[dict[str, str]]:
    """Every players' setting of the campaign's system with the value it plays by and where that value comes from:
    chosen at creation, else the card's value or the default (a campaign created before players chose), else none."""
    system = engine.system_for(campaign)
    chosen = campaign.player_settings or {}
    rows = []
    for setting in player_settings(system):
        value = system.settings_values.get(setting.id)
        if setting.id in chosen:
            source = "chosen by the players"
        elif value is not None:
            source = "the CG Card's value"
        elif setting.default is not None:
            value, source = setting.default, "the default"
        else:
            source = "not chosen"
        rows.append({"id": setting.id, "label": setting.label, "ref": setting.ref or "", "title": setting_title(setting),
                     "value": setting_value_text(system, setting, value), "note": setting.note or "", "source": source})
    return rows


# --------------------------------------------------------------------------------------------- a campaign's rules


def campaign_rules(campaign: Campaign) -> dict[str, Any]:
    """The rules a campaign plays by: system, card (its copied text), what the card supplies, what to verify and what is
    still missing. Shown to both seated players."""
    # the card's own values (the players' choices are shown apart), with the lost values settled at creation
    system = engine.with_values(engine.card_system_for(campaign), campaign.supplied_values or {})
    out: dict[str, Any] = {
        "choices": campaign_choices(campaign),
        "system_name": campaign.system.name,
        "system_id": campaign.system_id,
        "system_sha256": campaign.system.sha256,
        "card": None,
        "report": system_report(system),
        "special_rules": [vars(r) for r in rules_in_use(engine.system_for(campaign))],
    }
    if campaign.card_sha256:
        out["card"] = {
            "name": campaign.card_name or (system.card.name if system.card else ""),
            "example": bool(system.card and system.card.example),
            "source": (system.card.source if system.card else "") or "",
            "text": campaign.card_text,
            "sha256": campaign.card_sha256,
        }
        out["report"] = card_report(campaign.system, system)
        chosen = {row["id"]: row["value"] for row in out["choices"] if row["source"] == "chosen by the players"}
        for row in out["report"]["settings"]:
            if row["id"] in chosen:  # the players' choice wins over the card's value
                row["overridden"] = chosen[row["id"]]
    return out
