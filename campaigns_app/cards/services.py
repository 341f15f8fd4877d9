"""Writes for CG Cards: create, replace the text, delete, and load the cards bundled with Refit.

A card is validated completely by ``rules_engine.loader.parse_card`` against its base system before anything is
saved; a refused card raises ``CardInvalid`` carrying every problem (file, path, what is wrong, what is allowed).
Campaigns copy a card's text when they are created (services.campaign_create), so these writes never change one.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import engine
from campaigns_app.cards import selectors as card_selectors
from campaigns_app.engine import System
from campaigns_app.models import Campaign, CgCard, CgSystem, now
from rules_engine.errors import DefinitionError, DefinitionErrors, RulesError
from rules_engine.model import CardInfo

MAX_CARD_BYTES = 256 * 1024
BUNDLED_PREFIX = "bundled-"


class CardError(ValueError):
    """A card request Refit refuses, with a message for the player; nothing was changed."""


class CardNotFound(CardError):
    """No card with this id that the user may see (views answer 404: existence is not confirmed)."""


@dataclass(frozen=True)
class Problem:
    """One problem of a refused card, as a player reads it."""

    path: str
    problem: str
    allowed: str | None = None
    line: int | None = None  # where the card's YAML text has the place the path names

    def __str__(self) -> str:
        where = (f"line {self.line}, " if self.line else "") + (f"{self.path}: " if self.path else "")
        return where + self.problem + (f" (allowed: {self.allowed})" if self.allowed else "")


class CardInvalid(CardError):
    """The card text does not validate; ``problems`` lists every one (nothing was saved)."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(problem) for problem in problems))


def _problems(error: RulesError) -> list[Problem]:
    if isinstance(error, DefinitionErrors):
        return [Problem(e.path, e.problem, e.allowed) for e in error.errors]
    if isinstance(error, DefinitionError):
        return [Problem(error.path, error.problem, error.allowed)]
    return [Problem("", str(error))]


def _systems_allowed() -> str:
    return ", ".join(CgSystem.objects.order_by("id").values_list("id", flat=True)) or "none loaded — run manage.py load_systems"


@dataclass(frozen=True)
class Checked:
    """A card that validated: its base system row, the merged System and the document's header."""

    cg_system: CgSystem
    system: System
    text: str
    sha256: str

    @property
    def info(self) -> CardInfo:
        """The card's header (id, name, example): every checked card has one."""
        assert self.system.card is not None
        return self.system.card


def card_check(text: str, *, system_id: str | None = None, filename: str = "card.yaml") -> Checked:
    """Validate a card's text against its base system (``system_id`` if chosen, else the card's ``extends``)."""
    text = (text or "").replace("\r\n", "\n")
    if not text.strip():
        raise CardInvalid([Problem("", "the card is empty: paste its YAML text or choose a .yaml file")])
    if len(text.encode("utf-8")) > MAX_CARD_BYTES:
        raise CardInvalid([Problem("", f"the card is too long: at most {MAX_CARD_BYTES // 1024} KiB")])
    try:
        kind, extends = engine.definition_kind(text, filename)
    except RulesError as error:
        raise CardInvalid(_problems(error)) from None
    if kind != "cg-card":
        raise CardInvalid([Problem("kind", f"this is a {kind} definition, not a CG Card", "cg-card")])
    chosen = system_id or extends
    if not chosen:
        raise CardInvalid([Problem("extends", "the card does not say which system it extends", _systems_allowed())])
    cg_system = CgSystem.objects.filter(id=chosen).first()
    if cg_system is None:
        where = "extends" if not system_id else "system"
        raise CardInvalid([Problem(where, f"unknown CG system {chosen!r}", _systems_allowed())])
    try:
        system = engine.parse_card(text, filename, engine.system_of(cg_system))
    except RulesError as error:
        raise CardInvalid(_problems(error)) from None
    checked = Checked(cg_system, system, text, hashlib.sha256(text.encode("utf-8")).hexdigest())
    info = checked.info
    too_long = [(key, value, limit) for key, value, limit in (("id", info.id, 80), ("name", info.name, 300)) if len(value) > limit]
    if too_long:
        raise CardInvalid([Problem(key, f"too long ({len(value)} characters)", f"at most {limit}") for key, value, limit in too_long])
    return checked


def _owned(user: User, card_id: str, *, lock: bool = False) -> CgCard:
    query = CgCard.objects.select_for_update() if lock else CgCard.objects.all()
    card = query.filter(id=card_id, owner_id=user.pk).first()
    if card is None:
        raise CardNotFound("No such CG Card.")
    return card


@transaction.atomic
def card_create(
    user: User, text: str, *, system_id: str | None = None, filename: str = "card.yaml"
) -> CgCard:
    """Validate and save a user's CG Card (private to them). The same text twice gives the same card (double submit)."""
    checked = card_check(text, system_id=system_id, filename=filename)
    existing = CgCard.objects.filter(owner_id=user.pk, sha256=checked.sha256).first()
    if existing is not None:
        return existing
    info = checked.info
    return CgCard.objects.create(
        owner=user,
        system=checked.cg_system,
        card_id=info.id,
        name=info.name,
        text=checked.text,
        sha256=checked.sha256,
        example=bool(info.example),
    )


@transaction.atomic
def card_update(
    user: User, card_id: str, text: str, *, system_id: str | None = None, filename: str = "card.yaml"
) -> CgCard:
    """Replace a card's text (validated the same way). Campaigns keep the copy they were created with."""
    card = _owned(user, card_id, lock=True)
    checked = card_check(text, system_id=system_id, filename=filename)
    if checked.sha256 == card.sha256:
        return card
    if CgCard.objects.filter(owner_id=user.pk, sha256=checked.sha256).exclude(id=card.id).exists():
        raise CardError("You already have a CG Card with exactly this text.")
    info = checked.info
    card.system = checked.cg_system
    card.card_id = info.id
    card.name = info.name
    card.text = checked.text
    card.sha256 = checked.sha256
    card.example = bool(info.example)
    card.updated = now()
    card.save()
    return card


@transaction.atomic
def card_publish(user: User, card_id: str, published: bool) -> CgCard:
    """Share a card with every player on this server (they find it by system on the create page, read-only), or stop
    sharing it. Only its author may; campaigns already started with it keep their copy of its text."""
    card = _owned(user, card_id, lock=True)
    if card.published != published:
        card.published = published
        card.published_at = now() if published else None
        card.save(update_fields=["published", "published_at"])
    return card


def _renamed(text: str, card_id: str, name: str) -> str:
    """The card text with a new top-level ``id:`` and ``name:`` (the rest, comments included, unchanged)."""
    text = re.sub(r"^id:.*$", f"id: {json.dumps(card_id)}", text, count=1, flags=re.MULTILINE)
    return re.sub(r"^name:.*$", f"name: {json.dumps(name, ensure_ascii=False)}", text, count=1, flags=re.MULTILINE)


@transaction.atomic
def card_copy(user: User, card_id: str) -> CgCard:
    """Copy a card the user may see (their own, a bundled or a published one) into a new private card of theirs.

    A copy of a card the user has already copied (the same text) is that copy; a copy of their own card gets the id
    ``<id>-copy`` and the name "… (copy)" so that the two can be told apart."""
    source = card_selectors.card_usable(user, card_id)
    if source is None:
        raise CardNotFound("No such CG Card.")
    text = source.text
    if CgCard.objects.filter(owner_id=user.pk, sha256=source.sha256).exists():
        if source.owner_id != user.pk:
            return CgCard.objects.get(owner_id=user.pk, sha256=source.sha256)
        text = _renamed(text, f"{source.card_id}-copy"[:80], f"{source.name} (copy)"[:300])
    checked = card_check(text, system_id=source.system_id, filename=f"{source.card_id}.yaml")
    existing = CgCard.objects.filter(owner_id=user.pk, sha256=checked.sha256).first()
    if existing is not None:
        return existing
    info = checked.info
    return CgCard.objects.create(
        owner=user, system=checked.cg_system, card_id=info.id, name=info.name, text=checked.text,
        sha256=checked.sha256, example=bool(info.example), copied_from=source,
    )


@transaction.atomic
def card_delete(user: User, card_id: str) -> None:
    """Delete a card of the user's that no campaign uses."""
    card = _owned(user, card_id, lock=True)
    used = Campaign.objects.filter(card=card).count()
    if used:
        raise CardError(
            f"This CG Card is used by {used} campaign{'s' if used != 1 else ''} and cannot be deleted "
            "(a campaign keeps the card it was started with)."
        )
    card.delete()


def bundled_id(filename: str) -> str:
    """The fixed id of a bundled card (``bundled-example-pl25`` for ``example-pl25.yaml``)."""
    stem = re.sub(r"[^A-Za-z0-9_-]", "-", Path(filename).stem)
    return (BUNDLED_PREFIX + stem)[:40].ljust(16, "_")


def bundled_cards_load(directory: Path | None = None) -> list[tuple[str, str]]:
    """Validate and upsert the cards bundled in ``fixtures/cards/`` (shared by every player); (file, outcome) each."""
    folder = Path(directory or Path(settings.REFIT_FIXTURES_DIR) / "cards")
    outcomes: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8")
        try:
            checked = card_check(text, filename=path.name)
        except CardInvalid as error:
            outcomes.append((path.name, f"invalid: {error}"))
            continue
        info = checked.info
        fields: dict[str, object] = {
            "system": checked.cg_system,
            "card_id": info.id,
            "name": info.name,
            "text": checked.text,
            "sha256": checked.sha256,
            "example": bool(info.example),
            "updated": now(),
        }
        with transaction.atomic():
            _, created = CgCard.objects.update_or_create(
                owner=None,
                bundled_file=path.name,
                defaults=fields,
                create_defaults={"id": bundled_id(path.name), **fields},
            )
        outcomes.append((path.name, "loaded" if created else "updated"))
    return outcomes
