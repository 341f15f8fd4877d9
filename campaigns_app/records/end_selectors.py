"""Ending the CG in words (PL 1.3 mutual agreement, CG objectives met, concession; the last CG Date): the proposal a
side must answer in "Your move" (Agree / Decline), and what happened once it ended. Reads only; services write."""
from __future__ import annotations

from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign
from campaigns_app.records import door as record_door

CG_END_DONE = {
    "propose": "You proposed to end the CG. It ends when the {other} side agrees.",
    "withdraw": "Your proposal to end the CG is withdrawn.",
    "decline": "You declined the proposal to end the CG: the CG goes on.",
    "concede": "You conceded the CG.",
}


def cg_end_message(campaign: Campaign, action: str) -> str:
    """The message after a CG end action: what happened — the CG ended and how, or what is awaited now."""
    system = engine.system_for(campaign)
    status = record_door.campaign_end_status(campaign)
    if status.cg_end is not None:
        return record_door.cg_ended_text(system, dict(status.cg_end)) + " Everything is revealed to both sides."
    proposer = next((s for s in record_door.side_ids(campaign) if s in status.proposers), None)
    other = engine.side_name(system, engine.other_side(system, proposer)) if proposer else "other"
    return CG_END_DONE.get(action, "Recorded.").format(other=other)


def proposal_moves(system: System, view: dict[str, Any], side: str, mine: list[str], theirs: list[str]
                        ) -> tuple[dict[str, Any] | None, list[str], list[str]]:
    """PL 1.3 CG End by mutual agreement (or CG objectives met): a proposal the side must answer is its move (Agree /
    Decline); the proposer waits for the answer. The proposal itself is public (both pages list it)."""
    proposals = view.get("end_proposals") or {}
    other = engine.other_side(system, side)
    reason = view.get("end_reason") or "mutual-agreement"
    if proposals.get(other) and not proposals.get(side):
        claimant = view.get("end_claimant")
        if reason == "objectives" and claimant:
            text = (f"The {engine.side_name(system, claimant)} side says its CG objectives are met and it wins the CG. "
                    "If you confirm, the CG ends at once and everything is revealed to both sides.")
        else:
            text = (f"The {engine.side_name(system, other)} side proposes to end the CG now, by mutual agreement. If you "
                    "agree, the CG ends at once and everything is revealed to both sides.")
        question = {"text": text, "reason": reason,
                    "agree": "Confirm: the CG ends" if reason == "objectives" else "Agree: end the CG",
                    "decline": "Decline: the CG goes on"}
        return question, ["agree to or decline the proposal to end the CG", *mine], theirs
    if proposals.get(side) and not proposals.get(other):
        return None, mine, ["agree to or decline the proposal to end the CG", *theirs]
    return None, mine, theirs
