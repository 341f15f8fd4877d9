"""Restore a campaign from its archive (``manage.py import_campaign``): refused if the archive was altered, if the
campaign already exists here, or if this server has other rules under the same system id; all or nothing."""
from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app import engine
from campaigns_app.archive.build import archive_problems
from campaigns_app.models import Campaign, CgSystem, EventRecord, Seat
from campaigns_app.records import projection as records
from campaigns_app.services.errors import ServiceError


class ArchiveRefused(ServiceError):
    """An archive that cannot be restored here (the message says why)."""


def _system(rules: Mapping[str, Any]) -> CgSystem:
    found = rules["system"]
    existing = CgSystem.objects.filter(id=found["id"]).first()
    if existing is None:
        return CgSystem.objects.create(id=found["id"], name=found["name"], definition=found["definition"],
                                       sha256=found["sha256"])
    if existing.sha256 != found["sha256"]:
        raise ArchiveRefused(f"This server's {found['id']!r} rules differ from the archive's "
                             f"(sha256 {existing.sha256[:12]}… here, {str(found['sha256'])[:12]}… there): load the "
                             "same system file first.")
    return existing


def _user(seat: Mapping[str, Any]) -> User:
    """The player by user name; created without a password (they set one by 'forgot password') when new here."""
    user, created = User.objects.get_or_create(username=seat["player"], defaults={"email": seat.get("email", "")})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def campaign_import(archive: Mapping[str, Any]) -> Campaign:
    """Recreate the archived campaign with its seats, state, events and dice; project its records (all or nothing)."""
    problems = archive_problems(archive)
    if problems:
        raise ArchiveRefused("The archive is refused: " + "; ".join(problems[:10]))
    try:
        return _restore(archive)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ArchiveRefused(f"The archive is malformed ({type(error).__name__}: {str(error)[:120]}).") from None


@transaction.atomic
def _restore(archive: Mapping[str, Any]) -> Campaign:
    info, rules, dice = archive["campaign"], archive["rules"], archive["dice"]
    if Campaign.objects.filter(public_id=info["public_id"]).exists():
        raise ArchiveRefused(f"A campaign with public id {info['public_id']} already exists on this server.")
    system = _system(rules)
    seats = {seat["player"]: _user(seat) for seat in archive["seats"]}
    creator = seats.get(info["created_by"]) or _user({"player": info["created_by"]})
    card = rules["card"]
    campaign = Campaign.objects.create(
        public_id=info["public_id"], system=system, name=info["name"], created_by=creator, state=archive["state"],
        dice_seed=dice["seed"], seed_commitment=dice["commitment"], dice_counters=archive.get("dice_counters") or {},
        created=datetime.fromisoformat(info["created"]), updated=datetime.fromisoformat(info["updated"]),
        card_name=card["name"], card_text=card["text"], card_sha256=card["sha256"],
        player_settings=rules["player_settings"], supplied_values=rules["supplied_values"],
        event_seq=max((int(e["seq"]) for e in archive["events"]), default=0))
    for seat in archive["seats"]:
        Seat.objects.create(campaign=campaign, user=seats[seat["player"]], side=seat["side"],
                            player_seed=seat["player_seed"], joined=datetime.fromisoformat(seat["joined"]))
    EventRecord.objects.bulk_create(
        EventRecord(campaign=campaign, seq=e["seq"], kind=e["kind"], visibility=e["visibility"], side=e["side"],
                    payload=e["payload"], created=datetime.fromisoformat(e["created"]))
        for e in archive["events"])
    records.project(campaign, engine.load_state(campaign.state))
    return campaign
