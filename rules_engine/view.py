"""What one side may see of the campaign state (never the other side's sealed chit — only that it has chosen)."""
from __future__ import annotations

from rules_engine.errors import SubmissionError, UnknownNameError
from rules_engine.events import JSON
from rules_engine.initiative import attack_chits_left, validate_chit
from rules_engine.state import INITIATIVE, CampaignState, SystemLike, owes, side_name
from rules_engine.vocabulary import Chit, SideId


def _allowed_chits(system: SystemLike, state: CampaignState, side: SideId) -> list[JSON]:
    allowed: list[JSON] = []
    for chit in Chit:
        try:
            validate_chit(system, state, side, chit)
        except SubmissionError:
            continue
        allowed.append(str(chit))
    return allowed


def view_for(system: SystemLike, state: CampaignState, side: SideId) -> dict[str, JSON]:
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
            "allowed": _allowed_chits(system, state, side) if state.step == INITIATIVE else [],
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
        "owes": {s: list(owes(system, state, s)) for s in state.sides},
    }
