"""Reads for the records: CG Roster, RG Purchase Record, dice log, CG end, dice verification. Nothing here writes.

Every value comes from a side's ``RecordView`` (``campaigns_app.records.door``; rules_engine.record_view decides what
the side may see: its own records in full, the opponent's only through the record forms' public columns until CG end,
everything after). A hidden cell is never in a RecordView, so no template, print view or CSV export built from these
contexts can leak it. Campaign-level facts that are no secret (seats, the published commitment, the seed once the CG
has ended) come from the models.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.records import door as record_door
from campaigns_app.records.door import RecordPart, RecordView
from campaigns_app.records.pictures import pictures_context


def _view(seat: Seat, *parts: RecordPart) -> RecordView:
    return record_door.record_view(seat.campaign, seat.side, parts)


def _part[T](part: T | None) -> T:
    """A part of the RecordView that was asked for."""
    if part is None:
        raise ValueError("record view part not built")
    return part


def _base_context(seat: Seat, view: RecordView) -> dict[str, Any]:
    return {
        "campaign": seat.campaign,
        "seat": seat,
        "ended": view.ended,
        "side_name": view.side_name,
        "opponent_name": view.opponent_name,
        "date": view.date,
    }


def roster_context(seat: Seat) -> dict[str, Any]:
    """The CG Roster page: both sides' tables (own in full), own points and fortifications (the opponent's at CG end)."""
    view = _view(seat, RecordPart.ROSTER)
    roster = _part(view.roster)
    context = _base_context(seat, view)
    context.update({
        "nav": "roster",
        "form_name": roster.form.name,
        "form_ref": roster.form.ref,
        "form_note": roster.form.note,
        "own_layout": roster.form.own_layout,
        "tables": roster.tables,
        "books": roster.books,
        "map_groups": roster.map_groups,
        **pictures_context(roster.pictures),
    })
    return context


def purchases_context(seat: Seat) -> dict[str, Any]:
    """The RG Purchase Record page: the own side's lines; the opponent's only after CG end."""
    view = _view(seat, RecordPart.PURCHASES)
    purchases = _part(view.purchases)
    context = _base_context(seat, view)
    context.update({
        "nav": "purchases",
        "form_name": purchases.form.name,
        "form_ref": purchases.form.ref,
        "form_note": purchases.form.note,
        "own_layout": purchases.form.own_layout,
        "tables": purchases.tables,
    })
    return context


def dice_context(seat: Seat) -> dict[str, Any]:
    """The dice log: public rolls and the viewer's own secret rolls (everything after CG end)."""
    view = _view(seat, RecordPart.DICE)
    log = _part(view.dice)
    context = _base_context(seat, view)
    context.update({
        "nav": "dice",
        "rows": log.rows,
        "public_count": log.count("public"),
        "own_count": log.count("own"),
        "revealed_count": log.count("revealed"),
    })
    return context


def dice_page_context(seat: Seat, asked: str | None) -> dict[str, Any]:
    """One page of the dice log (``asked``: its number, 1 the oldest rolls; None the newest): its rolls and the whole
    log's tallies, read from that page's rolls only (event_pages.PageError for a page number that is no page)."""
    view, log, page = record_door.dice_page_of(seat.campaign, seat.side, asked)
    context = _base_context(seat, view)
    context.update({
        "nav": "dice",
        "rows": log.rows,
        "page": page,
        "total": sum(log.count(seen) for seen in ("public", "own", "revealed")),
        "public_count": log.count("public"),
        "own_count": log.count("own"),
        "revealed_count": log.count("revealed"),
    })
    return context


def dice_error_context(seat: Seat, problem: str) -> dict[str, Any]:
    """The dice log page saying why the page asked for is none (no rolls shown)."""
    context = _base_context(seat, _view(seat))
    context.update({"nav": "dice", "rows": (), "page_error": problem})
    return context


# ------------------------------------------------------------------------------------------------------------ CG end


def player_seeds(seats: Iterable[Seat], sides: tuple[str, str]) -> tuple[str, str] | None:
    """Both players' seeds in the system's side order (None unless both are seated)."""
    by_side = {seat.side: seat.player_seed for seat in seats}
    first, second = sides
    if first not in by_side or second not in by_side:
        return None
    return (by_side[first], by_side[second])


def cg_end_context(seat: Seat) -> dict[str, Any]:
    """The CG end page: how to end (before), or the end, the victor per the system, totals and the full reveal."""
    view = _view(seat, RecordPart.END)
    end = _part(view.end)
    campaign = seat.campaign
    seats = list(Seat.objects.filter(campaign=campaign).select_related("user"))
    context = _base_context(seat, view)
    context.update({
        "nav": "cg-end",
        "both_seated": len(seats) == 2,
        "started": view.started,
        "victory_rules": end.victory_rules,
        "victory_missing": end.victory_missing,
        "victory": end.victory,
        "i_proposed": end.i_proposed,
        "they_proposed": end.they_proposed,
        "end_reason": end.end_reason,
        "end_claimant": end.end_claimant,
        "end_claimant_name": end.end_claimant_name,
        "i_claim": end.i_claim,
        "cg_end": None,
        "totals": [],
        "supplied": [],
        "seed": None,
    })
    if view.ended:
        names = {view.side: view.side_name, view.opponent: view.opponent_name}
        sides = record_door.side_ids(campaign)
        seeds = player_seeds(seats, sides)
        context.update({
            "cg_end": end.cg_end,
            "totals": end.totals,
            "supplied": end.supplied,
            "seed": campaign.dice_seed,  # revealed: the CG is over
            "player_seeds": [{"side_name": names[s], "seed": v} for s, v in zip(sides, seeds or ("", ""))],
            "roll_count": end.roll_count,
        })
    return context


# --------------------------------------------------------------------------------------------------- verification


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _raw_roll(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {key: payload.get(key) for key in ("stream", "number", "kind", "dice", "roller", "purpose")}


def dice_export(campaign: Campaign, seats: Iterable[Seat] | None = None) -> dict[str, Any] | None:
    """The refit-dice/1 export of every roll (seed revealed) — None while the CG runs: the seed never leaves before."""
    if not record_door.ended(campaign):
        return None
    found = seats if seats is not None else Seat.objects.filter(campaign=campaign)
    seeds = player_seeds(found, record_door.side_ids(campaign))
    if seeds is None:
        return None
    rolls = [_raw_roll(r.payload or {}) for r in EventRecord.objects.filter(campaign=campaign, kind="roll").order_by("seq")]
    rolls.sort(key=lambda r: (r["stream"] != record_door.PUBLIC_STREAM, str(r["stream"]),
                              r["number"] if _is_int(r["number"]) else 0))
    return {
        "format": record_door.EXPORT_FORMAT,
        "campaign": campaign.public_id,
        "seed": campaign.dice_seed,
        "commitment": campaign.seed_commitment,  # as published at the start, not recomputed from the seed
        "player_seeds": list(seeds),
        "rolls": rolls,
    }


def _counter_failures(export: Mapping[str, Any], counters: Mapping[str, Any]) -> list[str]:
    """A roll dropped from the END of a stream: the server's persisted counter says how many were made."""
    seen: dict[str, int] = {}
    for roll in export.get("rolls") or []:
        number = roll.get("number")
        if _is_int(number):
            seen[str(roll.get("stream"))] = max(seen.get(str(roll.get("stream")), 0), number)
    failures = []
    for stream, following in sorted((counters or {}).items()):
        made = int(following) - 1 if _is_int(following) else 0
        if made != seen.get(stream, 0):
            failures.append(f"stream {stream}: {made} roll(s) were made, the log holds {seen.get(stream, 0)}")
    return failures


def verification_context(seat: Seat) -> dict[str, Any]:
    """Recompute every roll against the commitment published at the start (after CG end; before, explain)."""
    view = _view(seat)
    context = _base_context(seat, view)
    context.update({"nav": "verify", "verification": None})
    if not view.ended:
        return context
    export = dice_export(seat.campaign)
    if export is None:
        return context
    result = record_door.verify_export(export)
    failures = list(result.failures) + _counter_failures(export, seat.campaign.dice_counters or {})
    context.update({
        "verification": {"ok": result.ok and not failures, "checked": result.checked, "total": len(export["rolls"]),
                         "failures": failures},
        "seed": export["seed"],
        "player_seeds": export["player_seeds"],
    })
    return context
