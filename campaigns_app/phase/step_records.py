"""The current step's records as the viewer may see them: results, rolls with their breakdown, recon turns."""
from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from rules_engine.event_text import Words, record_words
from rules_engine.events import EventKind
from rules_engine.view import ReconTurn


def recon_turn(system: System, turn: ReconTurn | None) -> dict[str, Any] | None:
    """RR 2.524 / PHD C5.40: whose turn it is to declare, and this side's own count (never the opponent's)."""
    if turn is None:
        return None
    return {"left": turn.left, "declared": list(turn.declared), "your_turn": turn.your_turn,
            "turn_name": engine.side_name(system, turn.turn) if turn.turn else None}


def recon_inspection(system: System, date_id: str, step: Any, ledger: Any) -> dict[str, Any] | None:
    """RR 2.524 Recon Inspection: the number of Locations the viewer may reconnoiter — its own Recon Final dr, recorded
    in the Recon column of its CG Roster line at the step that buys Recon (2.521) and used at the step that step names
    as its reveal. None when the viewer bought no Recon for this date (nothing is shown: the opponent's page is the same
    whatever the other side bought)."""
    if step is None or ledger is None:
        return None
    bought_at = next((s for s in system.steps if s.action == "purchase-recon" and s.revealed == "at-step"
                      and s.revealed_at == step.ref), None)
    line = ledger.roster_line(date_id) if bought_at is not None else None
    if bought_at is None or line is None or line.recon is None:
        return None
    return {"count": line.recon, "ref": bought_at.ref, "step_ref": step.ref}


# the keys the records' template tests with {% if %}, on every record: a key missing from a dict costs Django's
# template lookup two exceptions and a dir() of the dict each time
RECORD_DEFAULTS: dict[str, Any] = {"breakdown": False, "step_caution": False, "caution": None, "column": None,
                                   "rg_id": None}


def describe_record(system: System, event: dict[str, Any], side: str) -> dict[str, Any] | None:
    """One step result of this date as the viewer may see it (view_for already dropped what it may not); its title
    and text from rules_engine.event_text, a roll's breakdown here."""
    payload = event.get("payload") or {}
    kind = event["kind"]
    words = record_words(Words(system), kind, payload, event.get("side") or None, side)
    if words is None:
        return None
    title, text = words
    own_secret = event.get("visibility") != "public" and (event.get("side") in (None, "", side))
    owner = payload.get("side") or event.get("side") or payload.get("roller") or ""
    base = {"kind": kind, "secret": own_secret, "step": payload.get("step"), "side_name": engine.side_name(system, owner),
            "you": owner == side, "what_for": (payload.get("purpose") or "") if kind == "table-result" else "",
            "title": title, **RECORD_DEFAULTS}
    if kind == EventKind.TABLE_RESULT:
        return {**base, "column": payload.get("column"), "dice": payload.get("dice") or [],
                "original": payload.get("original"), "modifiers": _modifier_texts(payload.get("modifiers")),
                "final": payload.get("final"), "row": payload.get("row"), "result": payload.get("result"),
                "caution": payload.get("caution"), "breakdown": True, "cost": payload.get("cost"),
                "currency": payload.get("currency")}
    if kind == EventKind.ROLL:
        return {**base, "dice": payload.get("dice") or [], "original": payload.get("original", payload.get("total")),
                "modifiers": _modifier_texts(payload.get("modifiers")), "final": payload.get("final", payload.get("total")),
                "result": payload.get("result"), "breakdown": True, "rg_id": payload.get("rg_id")}
    if kind == EventKind.SAN_ADJUSTED:
        return {**base, "text": text, "caution": payload.get("caution")}
    return {**base, "text": text}


def _modifier_texts(modifiers: Any) -> list[dict[str, Any]]:
    """A roll's modifiers with the text shown: "+2", "-1", or as recorded when not an added DRM (KGP 8.31 "÷2")."""
    out = []
    for modifier in modifiers or []:
        if not isinstance(modifier, dict):
            continue
        value = modifier.get("value")
        number = isinstance(value, int) and not isinstance(value, bool)
        out.append({**modifier, "text": f"{value:+d}" if number else str(value)})
    return out


def with_step_cautions(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A caution about a step's rule text (RR 2.5122 "as written") belongs to the step, not to its first record: it
    becomes one ``step-caution`` entry before the step's first record; a roll's own caution stays on the roll."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, str]] = set()
    for record in records:
        caution = record.get("caution")
        if caution and not record.get("breakdown"):
            record = {**record, "caution": None}
            if (record.get("step"), caution) not in seen:
                seen.add((record.get("step"), caution))
                out.append({"kind": "step-caution", "step": record.get("step"), "caution": caution, "secret": False,
                            "title": "Check against your printed rules", "step_caution": True})
        elif caution:
            if (record.get("step"), caution) in seen:  # the same roll caution for each side: once
                record = {**record, "caution": None}
            seen.add((record.get("step"), caution))
        out.append(record)
    return out


@dataclass(frozen=True)
class ModifierLine:
    """A DRM as the records print it: "+2" and why."""

    text: str
    reason: Hashable


@dataclass(frozen=True)
class RecordLine:
    """What the step-records card prints of one record, and nothing else (``record_lines`` in the phase context;
    ``step_records_card`` in campaigns/phase/live.html reads these alone): hashable, so a card whose records did not
    change is not rendered again (templatetags/rendered_once.py) — most writes leave the date's records as they were."""

    step_caution: bool
    step: Hashable
    title: Hashable
    caution: Hashable
    secret: bool
    side_name: Hashable
    breakdown: bool
    rg_id: Hashable
    dice: tuple[Hashable, ...]
    original: Hashable
    modifiers: tuple[ModifierLine, ...]
    final: Hashable
    result: Hashable
    column: Hashable
    text: Hashable


def record_line(record: dict[str, Any]) -> RecordLine:
    """The record (``describe_record``, ``with_step_cautions``) as the card prints it; a value the card would print
    that is a list or a mapping becomes a tuple (hashable)."""
    return RecordLine(
        step_caution=bool(record.get("step_caution")), step=_frozen(record.get("step")),
        title=_frozen(record.get("title")), caution=_frozen(record.get("caution")), secret=bool(record.get("secret")),
        side_name=_frozen(record.get("side_name")), breakdown=bool(record.get("breakdown")),
        rg_id=_frozen(record.get("rg_id")), dice=tuple(_frozen(d) for d in record.get("dice") or ()),
        original=_frozen(record.get("original")),
        modifiers=tuple(ModifierLine(str(m.get("text", "")), _frozen(m.get("reason"))) for m in record.get("modifiers") or ()),
        final=_frozen(record.get("final")), result=_frozen(record.get("result")), column=_frozen(record.get("column")),
        text=_frozen(record.get("text")))


PLAIN = frozenset({str, int, bool, float})


def _frozen(value: object) -> Hashable:
    """``value`` itself when hashable, else its items as a tuple (lists, mappings): never a refusal at render time."""
    if value is None or type(value) in PLAIN:  # most values: known hashable before the slower abstract check below
        return value
    if isinstance(value, Hashable):
        return value
    if isinstance(value, dict):
        return tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, set)) else repr(value)
