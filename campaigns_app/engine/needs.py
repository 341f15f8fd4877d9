"""Needs: what a side must supply before the current step can go on (a DRM fact, its SAN/ELR/LVP, a value lost in the
rule text), as the need form renders them."""
from __future__ import annotations

from rules_engine import sequence
from rules_engine.errors import RulesError
from rules_engine.events import JSON
from rules_engine.lost_values import Need
from rules_engine.model import System
from rules_engine.state import CampaignState
from rules_engine.vocabulary import SideId

NeedRow = dict[str, JSON]

TRACK_LABELS = {
    "san": ("Your current SAN", "Sniper Activation Number, as on your CG Roster."),
    "elr": ("Your current ELR", "Experience Level Rating, as on your CG Roster."),
    "lvp": ("Your Current-LVP Total", "Location Victory Points you control now (CG Roster, LVP column, upper half)."),
}
INPUTS = {"number": "number", "yes-no": "fact", "questions": "questions"}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _label(need: Need) -> tuple[str, str]:
    """The need's label and help text (the table's own words for a DRM fact, never the internal key)."""
    if need.kind == "track":
        return TRACK_LABELS.get(need.id, ("", ""))
    if need.kind == "table-value":
        label = f"{need.table_name} ({need.table_ref}): the value for final {need.final}"
        if need.column_label:
            label += f", column {need.column_label}"
        return label, _capital(need.text) + "."
    if need.kind == "fact":
        return _capital(need.text), ""
    if need.kind == "questions":  # issue 14 item 7: the DRM ticks of this side's own secret rolls
        return "Questions for your secret rolls", _capital(need.text) + "."
    return "", ""


def need_row(need: Need) -> NeedRow:
    """A Need as the need form renders it."""
    label, help_text = _label(need)
    data: NeedRow = {"table": need.table, "table_ref": need.table_ref, "table_name": need.table_name,
                     "final": need.final, "row": need.row, "column": need.column, "column_label": need.column_label,
                     "step": need.step, "public": need.public, "low": need.low, "high": need.high,
                     "examples": list(need.examples)}
    return {"id": need.id, "kind": need.kind, "shape": need.shape, "label": label or need.id, "text": help_text,
            "input": INPUTS.get(need.shape, "text"), **data}


def needs(system: System, state: CampaignState, side: SideId) -> list[NeedRow]:
    """What ``side`` must supply now (none when the state asks nothing of it)."""
    try:
        found = sequence.needs(system, state, side)
    except RulesError:
        return []
    return [need_row(need) for need in found]


def opponent_needs(system: System, state: CampaignState, side: SideId) -> list[NeedRow]:
    """The opponent's needs ``side`` may see (a value lost in the text that a public roll fell on)."""
    try:
        return [need_row(need) for need in sequence.public_needs(system, state, side)]
    except RulesError:
        return []
