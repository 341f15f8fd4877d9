"""The CG end page (PL 1.3: last CG Date, CG objectives met, concession, mutual agreement): how to end it before;
after, how it ended, the victor per the CG Victory Conditions, each side's totals and the full reveal."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from rules_engine.event_words import date_name, side_name
from rules_engine.events import JSON, Event
from rules_engine.model import System
from rules_engine.record_view.model import (
    CgEndFacts,
    EndRecord,
    EndStatus,
    SuppliedValue,
    TotalsRow,
    VictoryRule,
)
from rules_engine.record_view.text import text
from rules_engine.record_view.visibility import sees_books, sides_of, supplied_events
from rules_engine.state import CampaignState
from rules_engine.victory import judge
from rules_engine.vocabulary import SideId

REASONS = {
    "last-date": "the last CG Date was played",
    "objectives": "the CG objectives were met",
    "concession": "a side conceded",
    "mutual-agreement": "both sides agreed to end it (mutual agreement)",
}
VICTORY_RULE_IDS = ("victory", "cg-victory", "cg-objectives", "tm-objective", "cg-end", "tm-end")
DEFINING_RULE_IDS = ("victory", "cg-victory", "cg-objectives", "tm-objective")
TRACK_WORDS = {"san": "SAN", "elr": "ELR", "lvp": "Current-LVP Total"}


def victory_rules(system: System) -> tuple[list[VictoryRule], str | None]:
    """(the system's CG victory / CG end rules as printed, the note saying the victory conditions are lost or None)."""
    rules = [VictoryRule(str(rule.ref or ""), str(rule.name or rule.id), str(rule.text or ""))
             for rule in system.special_rules if rule.id in VICTORY_RULE_IDS and rule.text]
    missing = None
    if not any(rule.id in DEFINING_RULE_IDS for rule in system.special_rules if rule.text):
        for part in system.missing_parts:
            if part.part == "victory_conditions" or part.id == "victory":
                missing = str(part.note or "The CG Victory Conditions are not in the rule text.")
    return rules, missing


def victory_verdict(system: System, state: CampaignState) -> Mapping[str, JSON] | None:
    """The CG Victory Conditions judged on the records (rules_engine.victory.judge), None without any."""
    verdict = judge(system, state)
    return dict(verdict.to_json(system)) if verdict is not None else None


def end_status(state: CampaignState) -> EndStatus:
    """How the CG ended, or who proposes to end it (both public)."""
    cg_end = state.cg_end.to_json() if state.cg_end is not None else None
    return EndStatus(cg_end, tuple(s for s in state.sides if s in state.end_proposals))


def _ledger_json(state: CampaignState, side: SideId, of_side: SideId) -> Mapping[str, JSON]:
    ledger = state.ledgers.get(of_side)
    return ledger.to_json() if ledger is not None and sees_books(state, side, of_side) else {}


def totals(system: System, state: CampaignState, side: SideId) -> tuple[TotalsRow, ...]:
    """Final totals per side (shown at CG end): tracks, points left, RG bought, CVP amassed/suffered from the results."""
    sides = [s.id for s in system.sides]
    cvp, suffered = dict.fromkeys(sides, 0), dict.fromkeys(sides, 0)
    leaders, units = dict.fromkeys(sides, 0), dict.fromkeys(sides, 0)
    scenarios = 0
    for record in state.history:
        result = record.result
        if result is None:
            continue
        scenarios += 1
        for s in sides:
            cvp[s] += int(result.cvp.get(s, 0))
            suffered[s] += sum(int(v) for k, v in result.cvp.items() if k != s)
            leaders[s] += int(result.leaders_lost.get(s, 0))
            units[s] += int(result.units_lost.get(s, 0))
    rows = []
    for s in sides:
        tracks = dict(state.tracks.get(s, {}))
        ledger = _ledger_json(state, side, s)
        purchases = ledger.get("purchases") or []
        bought = [p for p in purchases if isinstance(p, Mapping) and not p.get("initial_ob")] \
            if isinstance(purchases, (list, tuple)) else []
        points = ledger.get("points") or {}
        rows.append(TotalsRow(
            side=s, side_name=side_name(system, s),
            cg_lvp=tracks.get("cg_lvp"), lvp=tracks.get("lvp"), san=tracks.get("san"), elr=tracks.get("elr"),
            cvp=cvp[s] if scenarios else None,
            cvp_suffered=suffered[s] if scenarios else None,
            leaders_lost=leaders[s] if scenarios else None,
            units_lost=units[s] if scenarios else None,
            rg_bought=len(bought),
            points=", ".join(f"{v} {k}" for k, v in sorted(points.items())) if isinstance(points, Mapping) else "",
        ))
    return tuple(rows)


def _value_words(key: str) -> str:
    """A supplied value's name in words ("san" → "SAN", a DRM fact → "Elite platoons purchased previous")."""
    return TRACK_WORDS.get(key) or key.replace("_", " ").replace("-", " ").strip().capitalize()


def supplied_values(system: System, events: Sequence[Event], viewer: SideId, ended: bool) -> tuple[SuppliedValue, ...]:
    """Values the players typed in (SAN/ELR, DRM facts, cells lost in the rule text), as the viewer may see them."""
    rows = []
    for event in supplied_events(events, viewer, ended):
        payload = event.payload
        side = event.side or str(payload.get("side") or "")
        values = payload.get("values")
        if isinstance(values, Mapping):
            shown = ", ".join(f"{_value_words(str(k))} = {text(v)}" for k, v in values.items())
        elif payload.get("text"):
            shown = str(payload["text"])
        else:
            shown = "; ".join(f"{k}: {text(payload[k])}" for k in ("table", "row", "column", "value", "text")
                              if payload.get(k) is not None)
        rows.append(SuppliedValue(side_name(system, side) if side else "", text(payload.get("step")), shown,
                                  side == viewer))
    return tuple(rows)


def _cg_end_facts(system: System, state: CampaignState) -> CgEndFacts:
    end = state.cg_end
    if end is None:
        return CgEndFacts("the CG ended", "", date_name(system, state.date_id), None, None)
    return CgEndFacts(REASONS.get(end.reason, end.reason), end.reason, date_name(system, end.date_id),
                      side_name(system, end.side) if end.side else None,
                      side_name(system, end.victor) if end.victor else None)


def end_record(system: System, state: CampaignState, side: SideId, events: Sequence[Event]) -> EndRecord:
    """The CG end page as ``side`` may see it (everything once the CG has ended)."""
    _, other = sides_of(system, side)
    rules, missing = victory_rules(system)
    vc = system.victory_conditions
    if vc is not None:  # shown once, as the CG Victory Conditions (PHD's C4.2 TM Objective is also a special rule)
        rules = [rule for rule in rules if rule.text != vc.text]
    claimant = state.end_claimant if state.end_proposals else None
    record = EndRecord(
        victory_rules=tuple(rules),
        victory_missing=None if vc is not None else missing,
        victory={"text": vc.text, "ref": vc.ref} if vc is not None else None,  # judged once the CG has ended
        i_proposed=side in state.end_proposals,
        they_proposed=other in state.end_proposals,
        end_reason=state.end_reason if state.end_proposals else None,
        end_claimant=claimant,
        end_claimant_name=side_name(system, claimant) if claimant else None,
        i_claim=claimant == side,
    )
    if not state.ended:
        return record
    return replace(
        record,
        victory=victory_verdict(system, state),
        cg_end=_cg_end_facts(system, state),
        totals=totals(system, state, side),
        supplied=supplied_values(system, events, side, True),
        roll_count=sum(1 for event in events if event.kind == "roll"),
    )
