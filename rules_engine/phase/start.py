"""Starting a CG (from the waiting step): the Initial OB (PHD C4.2), known SAN/ELR, then the steps before the Initial Scenario."""
from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from rules_engine.dice import Dice
from rules_engine.events import JSON, Event, EventKind
from rules_engine.ledger import SideLedger, new_ledger
from rules_engine.phase.advance import advance
from rules_engine.phase.order import InitialRoles, initial_roles
from rules_engine.phase.program import goto, program
from rules_engine.phase.tracks import with_records
from rules_engine.progress import Progress
from rules_engine.purchases import record_initial_ob
from rules_engine.state import (
    RevealedRound,
    SystemLike,
    check_side,
    new_campaign,
    side_ids,
    side_name,
)
from rules_engine.vocabulary import Visibility


def _initial_tracks(system: SystemLike) -> dict[str, dict[str, int]]:
    """SAN/ELR known from the data: ``initial_san``/``initial_elr`` settings, or a special rule's per-side OB params."""
    sides = side_ids(system)
    tracks: dict[str, dict[str, int]] = {side: {} for side in sides}
    values = system.settings_values
    for name, track in (("initial_san", "san"), ("initial_elr", "elr")):
        per_side = values.get(name)
        if isinstance(per_side, Mapping):
            for side in sides:
                value = per_side.get(side)
                if isinstance(value, int) and not isinstance(value, bool):
                    tracks[side][track] = value
    initial_ob = system.initial_ob
    for side in sides:
        ob = initial_ob.side(side) if initial_ob is not None else None
        for track, value in (("san", ob.san if ob else None), ("elr", ob.elr if ob else None)):
            if isinstance(value, int):
                tracks[side].setdefault(track, value)
    return tracks


def _initial_ob(system: SystemLike, ledger: SideLedger, side: str, date_id: str) -> tuple[SideLedger, Event | None]:
    """PHD C4.2 Initial OB: the points it gives go on the ledger, its RG become Initial-OB lines (not counted for maxima)."""
    initial_ob = system.initial_ob
    ob = initial_ob.side(side) if initial_ob is not None else None
    if initial_ob is None or ob is None:
        return ledger, None
    for code, amount in ob.points.items():
        ledger = ledger.adjust(code, Decimal(amount))
    ledger = record_initial_ob(system, ledger, side, date_id, ob.rg)
    payload: dict[str, JSON] = {
        "date": date_id, "side": side, "ref": initial_ob.ref, "points": {k: v for k, v in ob.points.items()},
        "rg": [g.text for g in ob.rg], "elr": ob.elr, "san": ob.san,
        "text": f"{side_name(system, side)} Initial OB ({initial_ob.ref}): "
                + "; ".join([*(f"RG: {g.text}" for g in ob.rg), *(f"{v} {k}" for k, v in ob.points.items())]),
    }
    return ledger, Event(EventKind.INITIAL_OB, Visibility.PUBLIC, None, payload)  # printed on the scenario card: both know it


def start(
    system: SystemLike,
    dice: Dice,
    *,
    roles: InitialRoles | None = None,
    tracks: Mapping[str, Mapping[str, int]] | None = None,
    ledgers: Mapping[str, SideLedger] | None = None,
) -> Progress:
    """A CG at its start (the waiting step left): the Initial OB applied (PHD C4.2: points, OB-given RG, ELR/SAN), then the steps before the
    Initial Scenario (RR ††, PL 2.2–2.9, PHD C5.31ff) are run."""
    base = new_campaign(system)
    known = _initial_tracks(system)
    for side, values in (tracks or {}).items():
        check_side(system, side)
        known.setdefault(side, {}).update(values)
    chosen = roles if roles is not None else initial_roles(system)
    last = None
    if chosen is not None:
        last = RevealedRound(
            date_index=0, date_id=base.date_id, chits={}, result="initial", label=chosen.label,
            setup_first=chosen.setup_first, moves_first=chosen.moves_first,
        )
    events: list[Event] = [
        Event(EventKind.CAMPAIGN_STARTED, Visibility.PUBLIC, None, {"date": base.date_id, "initial_roles": chosen.label if chosen else None})
    ]
    books: dict[str, SideLedger] = {}
    for side in base.sides:
        given = (ledgers or {}).get(side)
        if given is not None:
            books[side] = given
            continue
        book = new_ledger(side, san=known.get(side, {}).get("san"), elr=known.get(side, {}).get("elr"))
        book, ob_event = _initial_ob(system, book, side, base.date_id)
        books[side] = book
        if ob_event is not None:
            events.append(ob_event)
    state = base.evolve(tracks=known, last_round=last, ledgers=books)
    state = with_records(state, *events[1:])
    state = goto(system, state, "initial", program(system, "initial")[0])
    return Progress(state, tuple(events)).then(lambda new: advance(system, new, dice))
