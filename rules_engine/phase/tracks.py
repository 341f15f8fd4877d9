"""A side's tracks (SAN, ELR, LVP) and its ledger's CG Roster lines as the phase writes them (RR 2.5122, 2.5032, M2)."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.errors import RulesError
from rules_engine.events import Event
from rules_engine.ledger import RosterLine, SideLedger, new_ledger
from rules_engine.purchases import purchase_currency
from rules_engine.state import (
    CampaignState,
    SystemLike,
)


def with_records(state: CampaignState, *events: Event) -> CampaignState:
    """The state with ``events`` added to this date's records."""
    return state.evolve(records=state.records + tuple(events))


ROSTER_TRACKS = {"san": "san", "elr": "elr", "lvp": "lvp_current", "cg_lvp": "lvp_cg"}


def main_currency(system: SystemLike) -> str | None:
    """The currency a side's roster "Start"/"Left" count (the purchase currency: CPP, CP, TP)."""
    try:
        return purchase_currency(system)
    except RulesError:
        return None


def set_track(state: CampaignState, side: str, name: str, value: int, date_id: str | None = None,
              currency: str | None = None, *events: Event) -> CampaignState:
    """A side's track (SAN, ELR, LVP …) set, on its ledger and its CG Roster line too; ``events`` join this date's
    records in the same copy of the state."""
    return set_tracks(state, side, {name: value}, date_id, currency, *events)


def set_tracks(state: CampaignState, side: str, values: Mapping[str, int], date_id: str | None = None,
               currency: str | None = None, *events: Event) -> CampaignState:
    """``set_track`` of several tracks of a side in turn (RR 2.5032 Current-LVP and CG-LVP Totals), ``events`` added to
    this date's records: one copy of the state (a new CG Roster line starts with the ``currency`` balance)."""
    tracks = {**state.tracks, side: {**state.tracks.get(side, {}), **values}}
    records = state.records + events if events else state.records
    ledger = state.ledgers.get(side)
    if ledger is None:
        return state.evolve(tracks=tracks, records=records)
    if "san" in values:
        ledger = ledger.evolve(san=values["san"])
    if "elr" in values:
        ledger = ledger.evolve(elr=values["elr"])
    written = {ROSTER_TRACKS[name]: value for name, value in values.items() if name in ROSTER_TRACKS}
    if written:
        ledger = _roster_written(ledger, date_id or state.date_id, currency, **written)
    return state.evolve(tracks=tracks, ledgers={**state.ledgers, side: ledger}, records=records)


def ledger_of(system: SystemLike, state: CampaignState, side: str) -> SideLedger:
    """A side's ledger (an empty one when it has none yet)."""
    ledger = state.ledgers.get(side)
    return ledger if ledger is not None else new_ledger(side)


def with_ledger(state: CampaignState, side: str, ledger: SideLedger) -> CampaignState:
    """The state with ``side``'s ledger replaced."""
    return state.evolve(ledgers={**state.ledgers, side: ledger})


def with_books(state: CampaignState, side: str, ledger: SideLedger, *events: Event) -> CampaignState:
    """``with_records(with_ledger(state, side, ledger), *events)`` in one copy of the state."""
    return state.evolve(ledgers={**state.ledgers, side: ledger}, records=state.records + events)


def roster_update(state: CampaignState, side: str, date_id: str, currency: str | None = None, **values: object) -> CampaignState:
    """Write values the phase knows (SAN, ELR, Initiative, LVP, CVP) on a side's CG Roster line for a date (a new
    line starts with the side's ``currency`` balance: RR "Start")."""
    ledger = state.ledgers.get(side)
    if ledger is None:
        return state
    return with_ledger(state, side, _roster_written(ledger, date_id, currency, **values))


def _roster_written(ledger: SideLedger, date_id: str, currency: str | None, **values: object) -> SideLedger:
    """The ledger with ``values`` written on its CG Roster line for a date (``roster_update``)."""
    line = ledger.roster_line(date_id) or RosterLine(date_id, start=ledger.balance(currency) if currency else None,
                                                     elr=ledger.elr, san=ledger.san)
    return ledger.with_roster_line(line.evolve(**values))  # type: ignore[arg-type]


def fold_san(system: SystemLike, state: CampaignState, side: str) -> CampaignState:
    """A side's SAN increase bought in secret (RR M2 "SAN Increase +1", RosterLine.san_pending) joins its SAN — when the
    SAN is announced (RR 2.525, PL 2.4), a scenario starts (the opponent rolls for the side's Sniper: the SAN is known
    at the board) or a public SAN check acts on it (RR 2.5122). Unknown SAN (not typed yet): it stays pending."""
    ledger = state.ledgers.get(side)
    san = state.tracks.get(side, {}).get("san")
    if ledger is None or not ledger.san_pending or san is None:
        return state
    pending = ledger.san_pending
    roster = tuple(
        line.evolve(san=(line.san if line.san is not None else san) + line.san_pending, san_pending=0)
        if line.san_pending else line
        for line in ledger.roster
    )
    state = with_ledger(state, side, ledger.evolve(roster=roster))
    return set_track(state, side, "san", san + pending, None, main_currency(system))


def fold_all(system: SystemLike, state: CampaignState) -> tuple[CampaignState, bool]:
    """Every side's secretly bought SAN folded in (``fold_san``); True when any SAN changed."""
    before = {s: state.tracks.get(s, {}).get("san") for s in state.sides}
    for side in state.sides:
        state = fold_san(system, state, side)
    return state, any(state.tracks.get(s, {}).get("san") != before[s] for s in state.sides)
