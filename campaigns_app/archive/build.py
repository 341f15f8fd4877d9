"""Build a campaign's archive (refit-archive/1) and check one.

Contents: the rules in use (the system's YAML, the CG Card copied into the campaign, the players' choices and the
values typed for those lost in the rule text), the seats, the state, every event in order, the dice (seed,
commitment, player seeds and every roll — the secret rolls at the board on their ``board-<side>`` streams too: a
refit-dice/1 export, so ``python -m rules_engine verify-dice`` checks it; a revealed secret roll must show the roll made),
the sealed notes with their salts (``verify-notes`` checks them), the players' messages and a SHA-256 digest of all of it. The players'
archive exists only after CG end, when nothing is secret any more; the operators' (``manage.py export_campaign``)
exists at any time and also carries the players' e-mail addresses, so a moved campaign's players can sign in again.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from campaigns_app.models import Campaign, EventRecord, Seat, now
from campaigns_app.records import door as record_door
from rules_engine.board_secret import reveal_problems
from rules_engine.dice import EXPORT_FORMAT, PUBLIC_STREAM
from rules_engine.events import EventKind
from rules_engine.notes import matches

ARCHIVE_FORMAT = "refit-archive/1"
ROLL_KEYS = ("stream", "number", "kind", "dice", "roller", "purpose")


def canonical(data: object) -> bytes:
    """The JSON the digest is taken of: keys sorted, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def digest(archive: Mapping[str, Any]) -> str:
    """SHA-256 of everything in the archive but its digest and the moment it was made."""
    return hashlib.sha256(canonical({k: v for k, v in archive.items() if k not in ("digest", "exported_at")})).hexdigest()


def _events(campaign: Campaign) -> list[dict[str, Any]]:
    return [{"seq": seq, "kind": kind, "visibility": visibility, "side": side, "payload": payload,
             "created": created.isoformat()}
            for seq, kind, visibility, side, payload, created in EventRecord.objects.filter(campaign=campaign)
            .order_by("seq").values_list("seq", "kind", "visibility", "side", "payload", "created")]


def _dice(campaign: Campaign, seats: list[Seat], events: list[dict[str, Any]]) -> dict[str, Any]:
    by_side = {seat.side: seat.player_seed for seat in seats}
    rolls = [{key: e["payload"].get(key) for key in ROLL_KEYS} for e in events if e["kind"] == EventKind.ROLL]
    rolls.sort(key=lambda r: (r["stream"] != PUBLIC_STREAM, str(r["stream"]), r["number"] or 0))
    return {"format": EXPORT_FORMAT, "campaign": campaign.public_id, "seed": campaign.dice_seed,
            "commitment": campaign.seed_commitment,
            "player_seeds": [by_side.get(side, "") for side in record_door.side_ids(campaign)], "rolls": rolls}


def _notes(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    revealed = {(e["side"], e["payload"].get("note")) for e in events if e["kind"] == EventKind.NOTE_REVEALED}
    return [{"side": e["side"], "note": e["payload"].get("note"), "date": e["payload"].get("date"),
             "step": e["payload"].get("step"), "sealed_at": e["created"], "text": e["payload"].get("text"),
             "salt": e["payload"].get("salt"), "commitment": e["payload"].get("commitment"),
             "revealed_by_writer": (e["side"], e["payload"].get("note")) in revealed}
            for e in events if e["kind"] == EventKind.NOTE_WRITTEN]


def build_archive(campaign: Campaign, *, operator: bool = False) -> dict[str, Any]:
    """The campaign's archive (``operator``: with the players' e-mail addresses, for moving it between servers)."""
    seats = list(Seat.objects.filter(campaign=campaign).select_related("user").order_by("joined", "pk"))
    events = _events(campaign)
    system = campaign.system
    archive: dict[str, Any] = {
        "format": ARCHIVE_FORMAT,
        "exported_at": now().isoformat(),
        "campaign": {"public_id": campaign.public_id, "name": campaign.name, "created": campaign.created.isoformat(),
                     "updated": campaign.updated.isoformat(), "created_by": campaign.created_by.get_username(),
                     "ended": bool((campaign.state or {}).get("ended"))},
        "rules": {"system": {"id": system.id, "name": system.name, "sha256": system.sha256,
                             "definition": system.definition},
                  "card": {"name": campaign.card_name, "text": campaign.card_text, "sha256": campaign.card_sha256},
                  "player_settings": campaign.player_settings, "supplied_values": campaign.supplied_values},
        "seats": [{"side": seat.side, "player": seat.user.get_username(), "player_seed": seat.player_seed,
                   "joined": seat.joined.isoformat(), **({"email": seat.user.email} if operator else {})}
                  for seat in seats],
        "state": campaign.state,
        "events": events,
        "dice": _dice(campaign, seats, events),
        "dice_counters": campaign.dice_counters,
        "notes": _notes(events),
        "messages": [{"side": e["side"], "text": e["payload"].get("text"), "sent": e["created"]}
                     for e in events if e["kind"] == EventKind.MESSAGE],
    }
    archive["digest"] = digest(archive)
    return archive


def archive_problems(archive: Mapping[str, Any]) -> list[str]:
    """What is wrong with an archive (empty: intact): its format, its digest, its dice and its notes."""
    if archive.get("format") != ARCHIVE_FORMAT:
        return [f"format: expected {ARCHIVE_FORMAT!r}, got {str(archive.get('format'))[:40]!r}"]
    problems = []
    if archive.get("digest") != digest(archive):
        problems.append("digest: the archive was altered after it was made (its SHA-256 digest does not match)")
    dice = archive.get("dice")
    if not isinstance(dice, dict):
        return [*problems, "dice: missing"]
    checked = record_door.verify_export(dice)
    problems += [f"dice: {failure}" for failure in checked.failures]
    reveals = [e.get("payload") or {} for e in archive.get("events") or []
               if isinstance(e, dict) and e.get("kind") == EventKind.BOARD_ROLL_REVEALED]
    rolls = [r for r in dice.get("rolls") or [] if isinstance(r, dict)]
    problems += [f"dice: {problem}" for problem in reveal_problems(rolls, reveals)]
    for note in archive.get("notes") or []:
        if not isinstance(note, dict) or not matches(str(note.get("text")), str(note.get("salt")),
                                                      str(note.get("commitment"))):
            problems.append(f"notes: note {note.get('side') if isinstance(note, dict) else '?'} "
                            f"#{note.get('note') if isinstance(note, dict) else '?'} does not match its commitment")
    return problems
