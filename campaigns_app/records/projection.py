"""The CG Roster and RG Purchase Record tables: the projection of the ledgers in ``Campaign.state`` and their reads.

``Campaign.state`` (rules_engine ``CampaignState``) stays the engine's source of truth; ``project`` writes each side's
``SideLedger.roster`` / ``.purchases`` into ``RosterLine`` / ``PurchaseRecordLine`` in the caller's transaction
(``services.core.save_state``; skipped when neither side's ledger changed: ``inputs_changed``), touching only the
lines that changed: one read per table, one bulk upsert per table for the new and changed lines, one delete per table
for lines gone from the ledger. ``rebuild_records`` re-projects every
campaign. The reads give back the ledger's JSON shape (``RosterLine.to_json`` / ``PurchaseLine.to_json``) for
rules_engine.record_view (via ``record_door``); the opponent's hidden roster cells — as record_view decides — are nulled
by the database itself and dropped, so they never reach Python, let alone a context.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models import Case, F, Value, When

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign, PurchaseRecordLine, RosterLine
from rules_engine.ledger import amount_text

ROSTER_FIELDS = (
    "start", "replenished", "purchased", "spent", "left", "recon", "elr", "san", "initiative", "lvp_current",
    "lvp_cg", "fortifications", "cvp_suffered", "cvp_amassed", "notes", "san_pending",
)
ROSTER_DECIMALS = ("start", "replenished", "spent", "left")
PURCHASE_FIELDS = (
    "date_id", "rg_id", "group_type", "leaders", "number_purchased", "remaining", "strength", "units", "sw",
    "setup_area", "oba_ammo", "cost", "setup_mode", "pre_registered", "extra", "leader_column", "rolled", "notes",
    "initial_ob",
)


@dataclass(frozen=True)
class Projected:
    """What one projection wrote: lines inserted or updated, and lines deleted, per table."""

    roster_written: int = 0
    roster_deleted: int = 0
    purchases_written: int = 0
    purchases_deleted: int = 0

    @property
    def changed(self) -> bool:
        return any((self.roster_written, self.roster_deleted, self.purchases_written, self.purchases_deleted))


# ------------------------------------------------------------------------------------------------------- projection


def _positions(system: System, state: Any) -> dict[str, int]:
    """Each known date's play-order index: the system's calendar, then dates met only in the history (no calendar)."""
    order = [entry.id for entry in (system.calendar)]
    for record in getattr(state, "history", ()):
        if record.date_id not in order:
            order.append(record.date_id)
    if state.date_id not in order:
        order.append(state.date_id)
    return {date_id: index for index, date_id in enumerate(order)}


def _dec(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def _roster_values(line: Any, position: int) -> dict[str, Any]:
    """A rules_engine RosterLine as the table's column values."""
    return {
        "position": position,
        "start": line.start,
        "replenished": line.replenished,
        "purchased": [[rg, amount_text(cost)] for rg, cost in line.purchased],
        "spent": line.spent,
        "left": line.left,
        "recon": line.recon,
        "elr": line.elr,
        "san": line.san,
        "initiative": None if line.initiative is None else str(line.initiative),
        "lvp_current": line.lvp_current,
        "lvp_cg": line.lvp_cg,
        "fortifications": [str(f) for f in line.fortifications],
        "cvp_suffered": line.cvp_suffered,
        "cvp_amassed": line.cvp_amassed,
        "notes": line.notes,
        "san_pending": line.san_pending,
    }


def _purchase_values(line: Any) -> dict[str, Any]:
    """A rules_engine PurchaseLine as the table's column values."""
    return {
        "date_id": line.date_id,
        "rg_id": line.rg_id,
        "group_type": line.group_type,
        "leaders": list(line.leaders),
        "number_purchased": line.number_purchased,
        "remaining": line.remaining,
        "strength": line.strength,
        "units": [[count, unit] for count, unit in line.units],
        "sw": dict(line.sw),
        "setup_area": line.setup_area,
        "oba_ammo": line.oba_ammo,
        "cost": line.cost,
        "setup_mode": line.setup_mode,
        "pre_registered": line.pre_registered,
        "extra": line.extra,
        "leader_column": line.leader_column,
        "rolled": line.rolled,
        "notes": line.notes,
        "initial_ob": line.initial_ob,
    }


def _same(stored: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """Whether a stored row already holds the wanted values (Decimals compare by value: 28.00 == 28)."""
    for name, value in wanted.items():
        have = stored.get(name)
        if isinstance(value, Decimal) or isinstance(have, Decimal):
            if (have is None) != (value is None) or (value is not None and _dec(have) != _dec(value)):
                return False
        elif have != value:
            return False
    return True


def _sync[M: (RosterLine, PurchaseRecordLine)](
    model: type[M], campaign: Campaign, key: str, wanted: dict[tuple[str, Any], dict[str, Any]],
    fields: Iterable[str],
) -> tuple[int, int]:
    """Upsert the changed rows and delete the rows gone (a read, a bulk upsert and a delete at most)."""
    names = list(fields)
    stored = {
        (row["side"], row[key]): row
        for row in model.objects.filter(campaign=campaign).values("id", "side", key, *names)
    }
    gone = [row["id"] for k, row in stored.items() if k not in wanted]
    changed = [k for k, values in wanted.items() if k not in stored or not _same(stored[k], values)]
    if gone:
        model.objects.filter(pk__in=gone).delete()
    if changed:
        model.objects.bulk_create(
            [model(campaign=campaign, side=side, **{key: k}, **wanted[(side, k)]) for side, k in changed],
            update_conflicts=True,
            unique_fields=["campaign", "side", key],
            update_fields=names,
        )
    return len(changed), len(gone)


def _inputs(state: Any) -> tuple[object, ...]:
    """What a projection reads from a state: each side's roster and purchases, and the dates that place the lines."""
    ledgers = getattr(state, "ledgers", None) or {}
    return (tuple((side, ledger.roster, ledger.purchases) for side, ledger in sorted(ledgers.items())),
            tuple(record.date_id for record in getattr(state, "history", ())), state.date_id)


def inputs_changed(before: Any, after: Any) -> bool:
    """Whether projecting ``after`` could write anything that projecting ``before`` did not (CampaignStates)."""
    return _inputs(before) != _inputs(after)


def project(campaign: Campaign, state: Any, system: System | None = None) -> Projected:
    """Write the state's ledgers into the record tables (call inside the transaction that saves the state).

    ``state`` is a CampaignState or its JSON. Only new and changed lines are written; lines no longer in a ledger are
    deleted. A campaign without ledgers (not phased yet) has no lines."""
    if isinstance(state, Mapping):
        state = engine.load_state(state)
    if system is None:
        system = engine.system_for(campaign)
    positions = _positions(system, state)
    extra = len(positions)
    roster: dict[tuple[str, Any], dict[str, Any]] = {}
    purchases: dict[tuple[str, Any], dict[str, Any]] = {}
    for side, ledger in (getattr(state, "ledgers", None) or {}).items():
        for index, line in enumerate(ledger.roster):
            roster[(str(side), line.date_id)] = _roster_values(line, positions.get(line.date_id, extra + index))
        for line in ledger.purchases:
            purchases[(str(side), line.line)] = _purchase_values(line)
    roster_written, roster_deleted = _sync(RosterLine, campaign, "date_id", roster, ("position", *ROSTER_FIELDS))
    bought_written, bought_deleted = _sync(PurchaseRecordLine, campaign, "line", purchases, PURCHASE_FIELDS)
    return Projected(roster_written, roster_deleted, bought_written, bought_deleted)


# ------------------------------------------------------------------------------------------------------------ reads


def _text(value: Any) -> Any:
    return amount_text(value) if isinstance(value, Decimal) else value


def roster_lines(
    campaign: Campaign, viewer: str, opponent_fields: Collection[str] | None
) -> dict[str, dict[str, dict[str, Any]]]:
    """Both sides' CG Roster lines (side → date id → the line's JSON), in one query.

    The viewer's own lines come in full. The opponent's come with ``opponent_fields`` only (rules_engine.record_view
    ``opponent_roster_fields`` decides: the form's public columns before CG end) — the database returns NULL for every
    other cell and the key is dropped — or in full when ``opponent_fields`` is None (after CG end)."""
    columns: dict[str, Any] = {}
    for name in ROSTER_FIELDS:
        if opponent_fields is None or name in opponent_fields:
            columns[name] = F(name)
        else:  # the opponent's cell never leaves the database
            field = RosterLine._meta.get_field(name)
            assert isinstance(field, models.Field)
            columns[name] = Case(When(side=viewer, then=F(name)), default=Value(None), output_field=field)
    rows: Iterable[Mapping[str, Any]] = (
        RosterLine.objects.filter(campaign=campaign).order_by("side", "position")
        .values("side", "date_id", **{f"v_{name}": expr for name, expr in columns.items()}))
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        side = row["side"]
        own = side == viewer
        line: dict[str, Any] = {"date_id": row["date_id"]}
        for name in ROSTER_FIELDS:
            if own or opponent_fields is None or name in opponent_fields:
                line[name] = _text(row[f"v_{name}"])
        out.setdefault(side, {})[row["date_id"]] = line
    return out


def purchase_lines(campaign: Campaign, sides: Collection[str]) -> dict[str, list[dict[str, Any]]]:
    """The RG Purchase Record lines of these sides (side → lines in line order, each as PurchaseLine JSON), one query.

    The caller passes only the sides the viewer may see (the own side; both after CG end)."""
    out: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
    rows = (PurchaseRecordLine.objects.filter(campaign=campaign, side__in=list(sides)).order_by("side", "line")
            .values("side", "line", *PURCHASE_FIELDS))
    for row in rows:
        side = row.pop("side")
        out[side].append({name: _text(value) for name, value in row.items()})
    return out
