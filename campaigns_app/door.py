"""The app's one door to what a seat may see: a campaign's ``SideView`` (rules_engine.view.view_for).

Only the adapters (engine, door, services, records) read a ``CampaignState``; every page, fragment, websocket frame
and e-mail is rendered from the SideView this module gives.
"""
from __future__ import annotations

from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from campaigns_app.models import Campaign
from rules_engine.lost_values import Need
from rules_engine.state import CampaignState, stored_ended
from rules_engine.view import ChitFacts, SideView, chit_facts, view_for

NEED_DATA = ("table", "table_ref", "table_name", "final", "row", "column", "column_label", "step", "public", "low", "high")
NEED_INPUTS = {"number": "number", "yes-no": "fact", "questions": "questions"}


def system_of(campaign: Campaign) -> System:
    """The rules the campaign plays by (its system, with its CG Card and the players' choices)."""
    found: System = engine.system_for(campaign)
    return found


def chit_facts_of(system: System, state: CampaignState, side: str) -> ChitFacts:
    """What ``side`` knows of the sealed chits in a state a service holds (RR 2.522), and why a chit is refused."""
    return chit_facts(system, state, side)


def campaign_chit_facts(campaign: Campaign, side: str) -> ChitFacts:
    """``side``'s chit facts as stored now (the confirm step reads only these, not the whole SideView)."""
    return chit_facts(system_of(campaign), engine.load_state(campaign.state), side)


def side_view(campaign: Campaign, side: str) -> SideView:
    """``side``'s view of the campaign as stored now."""
    return view_for(system_of(campaign), engine.load_state(campaign.state), side)


def ended(campaign: Campaign) -> bool:
    """Whether the campaign's CG is over (what a side may see of the event log depends on it), without a SideView
    and without parsing the stored state."""
    return stored_ended(campaign.state)


def need_fields(need: Need) -> dict[str, Any]:
    """A Need as the need form renders it: its id, kind, label and help in the page's words, and its table cell."""
    kind, text = str(need.kind), str(need.text)
    data: dict[str, Any] = {name: getattr(need, name) for name in NEED_DATA}
    data["examples"] = list(need.examples)
    label, help_text = engine.TRACK_LABELS.get(need.id, ("", "")) if kind == "track" else ("", "")
    if kind == "table-value":
        label = f"{data.get('table_name')} ({data.get('table_ref')}): the value for final {data.get('final')}"
        if data.get("column_label"):
            label += f", column {data['column_label']}"
        help_text = text[:1].upper() + text[1:] + "."
    elif kind == "fact":
        label = text[:1].upper() + text[1:]  # the table's own words for the DRM (never the internal key)
        help_text = ""
    elif kind == "questions":  # issue 14 item 7: the DRM ticks of this side's own secret rolls
        label = "Questions for your secret rolls"
        help_text = text[:1].upper() + text[1:] + "."
    return {"id": str(need.id), "kind": kind, "shape": str(need.shape), "label": label or need.id, "text": help_text,
            "input": NEED_INPUTS.get(str(need.shape), "text"), **data}


def needs(view: SideView) -> list[dict[str, Any]]:
    """What the side must supply now, as the need form renders it."""
    return [need_fields(need) for need in view.needs]


def opponent_needs(view: SideView) -> list[dict[str, Any]]:
    """The opponent's needs the side may see (a value lost in the text that a public roll fell on)."""
    return [need_fields(need) for need in view.opponent_needs]
