"""What one side may see of the campaign state (never the other side's sealed chit — only that it has chosen).

Phased campaigns add the checklist, the step records the side may see, the results entry (the opponent's entry only
once both are in), each side's own ledger in full and the opponent's only through the record forms' public columns
(``visibility: both``) until the CG ends; after CG end everything is shown.
"""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine import board, sequence
from rules_engine.errors import SubmissionError, UnknownNameError
from rules_engine.events import JSON
from rules_engine.initiative import attack_chits_left, validate_chit
from rules_engine.ledger import SideLedger
from rules_engine.map_groups import in_play
from rules_engine.results import differing_fields, scenario_victory_conditions
from rules_engine.state import INITIATIVE, WAITING, CampaignState, ScenarioResult, SystemLike, side_name
from rules_engine.vocabulary import Chit, SideId, Visibility

# CG Roster form column id → the RosterLine fields it shows (ids as the fixtures write them).
ROSTER_FIELDS: Mapping[str, tuple[str, ...]] = {
    "cg_date": ("date_id",), "scenario": ("date_id",), "start": ("start",), "replenished": ("replenished",),
    "repl": ("replenished",), "rg_purchased": ("purchased",), "rg_requisitioned": ("purchased",), "spent": ("spent",),
    "used": ("spent",), "left": ("left",), "recon": ("recon",), "recce": ("recon",), "lvp": ("lvp_current", "lvp_cg"),
    "elr": ("elr",), "san": ("san",), "initiative": ("initiative",), "fortifications": ("fortifications",),
    "vp_tally": ("cvp_amassed",),
}


def allowed_chits(system: SystemLike, state: CampaignState, side: SideId) -> list[JSON]:
    """The chits ``side`` may seal now (RR 2.522; validate_chit says why not)."""
    allowed: list[JSON] = []
    for chit in Chit:
        try:
            validate_chit(system, state, side, chit)
        except SubmissionError:
            continue
        allowed.append(str(chit))
    return allowed


def view_json(system: SystemLike, state: CampaignState, side: SideId) -> dict[str, JSON]:
    """JSON-safe view for ``side``: date, step, own sealed chit, opponent "has chosen", last revealed round, owes."""
    if side not in state.sides:
        raise UnknownNameError(f"Unknown side {side!r} (allowed: {', '.join(state.sides)})")
    other = state.other(side)
    initiative = system.initiative
    chits: JSON = None
    if initiative is not None and initiative.mode == "chit":
        own = state.sealed.get(side)
        chits = {
            "ref": initiative.ref,
            "open": state.step == INITIATIVE,
            "own_chit": str(own) if own is not None else None,
            "opponent_has_chosen": other in state.sealed,
            "allowed": allowed_chits(system, state, side) if state.step == INITIATIVE else [],
            "attack_chits": {
                s: {
                    "used": state.attack_chits_used.get(s, 0),
                    "limit": initiative.chit_limits.get(s),
                    "left": attack_chits_left(system, state, s),
                }
                for s in state.sides
            },
            "limits_ref": initiative.chit_limits_ref or None,
        }
    return {
        "system": system.id,
        "side": side,
        "opponent": other,
        "side_names": {s: side_name(system, s) for s in state.sides},
        "date": {"index": state.date_index, "id": state.date_id, "count": len(system.calendar)},
        "step": state.step,
        "initial": state.initial,
        "ended": state.ended,
        "done": {s: s in state.done for s in state.sides},
        "initiative": chits,
        "last_round": state.last_round.to_json() if state.last_round is not None else None,
        "owes": {s: list(sequence.owes(system, state, s)) for s in state.sides},
        **(_phase_view(system, state, side) if state.step != WAITING else {"started": False}),
    }


def _roster_form_columns(system: SystemLike) -> tuple[tuple[str, Visibility], ...]:
    for form in getattr(system, "forms", ()):
        if form.per in ("date", "scenario"):
            return tuple((c.id, c.visibility) for c in form.columns)
    return ()


def public_roster_fields(system: SystemLike) -> frozenset[str]:
    """The RosterLine fields an opponent sees before CG end: the form's ``visibility: both`` columns, and ``date_id``."""
    public = [cid for cid, vis in _roster_form_columns(system) if vis is Visibility.PUBLIC]
    return frozenset({"date_id"} | {f for cid in public for f in ROSTER_FIELDS.get(cid, ())})


def _public_roster(system: SystemLike, ledger: SideLedger) -> list[JSON]:
    """The opponent's CG Roster lines, public columns only (``date_id`` always: the dates themselves are public)."""
    fields = public_roster_fields(system)
    lines: list[JSON] = []
    for line in ledger.roster:
        data = line.to_json()
        lines.append({k: v for k, v in data.items() if k in fields})
    return lines


def _phase_view(system: SystemLike, state: CampaignState, side: SideId) -> dict[str, JSON]:
    other = state.other(side)
    ended = state.ended
    step = None
    ref = state.phase_ref
    if ref is not None and ref not in sequence.MARKS:
        for candidate in getattr(system, "steps", ()):
            if candidate.ref == ref:
                step = candidate
    own_ledger = state.ledgers.get(side)
    their_ledger = state.ledgers.get(other)
    opponent: JSON = None
    if their_ledger is not None:
        opponent = dict(their_ledger.to_json()) if ended else {"side": other, "roster": _public_roster(system, their_ledger)}
    has_vc, vc_rule = scenario_victory_conditions(system)
    return {
        "started": True,
        "phase": {
            "pass": state.pass_kind,
            "ref": ref,
            "name": step.name if step is not None else None,
            "kind": sequence.current_kind(system, state, step) if step is not None else None,
            "checklist": sequence.checklist(system, state),
            "needs": [need.to_json() for need in sequence.needs(system, state, side)],
            "opponent_needs": [need.to_json() for need in sequence.public_needs(system, state, side)],
            "roll_questions": [q.to_json() for q in sequence.roll_questions_for(system, state, side)],  # own only
        },
        "records": [e.to_json() for e in state.records if e.visible_to(side, ended)],
        "results": {**entries_view(state.results, side, other), "winner_allowed": has_vc, "no_winner_rule": vc_rule},
        "history": [r.to_json() for r in state.history],
        "tracks": {s: dict(state.tracks.get(s, {})) for s in state.sides},
        "ledger": dict(own_ledger.to_json()) if own_ledger is not None else None,
        "opponent_ledger": opponent,
        "cg_end": state.cg_end.to_json() if state.cg_end else None,
        "end_proposals": {s: s in state.end_proposals for s in state.sides},
        "end_reason": state.end_reason if state.end_proposals else None,
        "end_claimant": state.end_claimant if state.end_proposals else None,
        "supplied_values": {s: dict(cells) for s, cells in state.supplied_cells.items() if s == side or ended},
        "map_groups": _map_groups_view(system, state, side),
        "board": {  # public rolls at the board (rules_engine.board): what is offered here, and the latest made
            "at": board.where(state),
            "kinds": [str(k) for k in board.board_kinds(system, state)],
            "scenario_rolls": [r.id for r in board.scenario_rolls(system, state)],
            "log": board.log_json(state),
            "map_groups": [g.id for g in board.open_map_groups(system, state)],  # KGP 8.2: scenarios still played
        },
    }


def entries_view(entries: Mapping[SideId, ScenarioResult], side: SideId, other: SideId) -> dict[str, JSON]:
    """A scenario's results entries as ``side`` may see them: its own, whether the opponent has entered, and the
    opponent's entry and the differing fields only once both are in."""
    both = len(entries) == 2
    return {
        "own": entries[side].to_json() if side in entries else None,
        "opponent_submitted": other in entries,
        "differ": list(differing_fields(entries)) if both else [],
        "entries": {s: r.to_json() for s, r in entries.items()} if both else None,
    }


def _map_groups_view(system: SystemLike, state: CampaignState, side: SideId) -> list[JSON]:
    """KGP 8.2: each Map Group in play on the current date — who marked its scenario finished, its results entries
    as ``side`` may see them (``entries_view``), the agreed results."""
    out: list[JSON] = []
    for group in in_play(system, state):
        agreed = state.map_agreed.get(group.id)
        out.append({
            "id": group.id, "sections": group.sections, "label": group.label, "name": group.name,
            "scenario_done": {s: s in state.map_done.get(group.id, frozenset()) for s in state.sides},
            **entries_view(state.map_results.get(group.id, {}), side, state.other(side)),
            "agreed": agreed.to_json() if agreed is not None else None,
        })
    return out
