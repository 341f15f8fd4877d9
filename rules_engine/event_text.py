"""One registry of event kinds (``EVENT_SPECS``): who may see an event of a kind, and how it reads.

Every ``EventKind`` has exactly one ``EventSpec``: the visibilities its events may carry (``Event.visible_to`` then
says who sees one, and when), the kind that hides it from a viewer who sees that one (a side that sees its own sealed
chit needs no "you have chosen a chit" as well), its history line, its detail line and — for a step's record on the
live page — its title and text.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules_engine.event_words import (
    RESULT_LABELS,
    STEP_LABELS,
    Payload,
    Words,
    board_roll_words,
    cg_ended_text,
    mapping,
    result_summary,
)
from rules_engine.events import JSON, EventKind, EventLike
from rules_engine.pace import pace_words
from rules_engine.vocabulary import Visibility

K = EventKind
ALL = frozenset(Visibility)
PUBLIC = frozenset({Visibility.PUBLIC})
HIDING_KEY = "date"  # a hidden_by event hides only the event of its own side with the same payload value here
SIDE = frozenset({Visibility.SIDE})
CG_END = frozenset({Visibility.CG_END})


@dataclass(frozen=True)
class Seen:
    """One event as a viewer reads it: its payload, the side that owns it (if any), and the viewer's side."""

    p: Payload
    owner: str | None
    viewer: str


Text = Callable[[Seen, Words], str]
Record = Callable[[Seen, Words], tuple[str, str]]


def _nothing(seen: Seen, words: Words) -> str:
    return ""


@dataclass(frozen=True)
class EventSpec:
    """Who may see an event of one kind and how it reads (history line, detail line, step record)."""

    visibilities: frozenset[Visibility]
    text: Text
    detail: Text = _nothing
    record: Record | None = None
    hidden_by: EventKind | None = None


def _said(default: str) -> Text:
    """The engine's own words (``payload.text``), else ``default``."""
    return lambda s, w: str(s.p.get("text") or default)


def _plain(kind: EventKind) -> Text:
    """A kind with no words of its own: its name ("Replenishment skipped.")."""
    return lambda s, w: str(kind).replace("-", " ").capitalize() + "."


def _engine_words(kind: EventKind) -> Text:
    """The engine's words with a full stop (rules_engine.patrols words them), else the kind's name."""
    return lambda s, w: str(s.p["text"]) + "." if s.p.get("text") else _plain(kind)(s, w)


def _where(p: Payload) -> str:
    return f" on Map Group {p['map_group']}" if p.get("map_group") else ""


def _created(s: Seen, w: Words) -> str:
    p = s.p
    return f"{p.get('player')} created the campaign ({p.get('system')}) and took the {w.side(p.get('side'))} side."


def _chit_chosen(s: Seen, w: Words) -> str:
    side = s.p.get("side", s.owner)
    return f"{w.who(side, s.viewer)} chose {str(s.p.get('chit', '')).capitalize()} for {s.p.get('date')} (sealed)."


def _revealed(s: Seen, w: Words) -> str:
    chits = mapping(s.p.get("chits"))
    parts = ", ".join(f"{w.side(side.id)} {str(chits[side.id]).capitalize()}" for side in w.system.sides
                      if side.id in chits)
    return f"Initiative chits revealed for {s.p.get('date')}: {parts} → {s.p.get('label')}."


def _revealed_order(s: Seen, w: Words) -> str:
    order = []
    if s.p.get("setup_first"):
        order.append(f"{w.side(s.p['setup_first'])} sets up first")
    if s.p.get("moves_first"):
        order.append(f"{w.side(s.p['moves_first'])} moves first")
    return "; ".join(order)


def _roll(s: Seen, w: Words) -> str:
    p = s.p
    if p.get("board_secret"):  # rules_engine.board_secret: a side's secret roll at the board
        return board_roll_words(w, p, s.viewer, "made", True)
    roller = w.side(p.get("roller"))
    whom = roller if roller.casefold().endswith(" side") else f"{roller} side"  # PL "Allied Side"
    text = f"{p.get('purpose')}: {p.get('kind')} {p.get('total')} rolled for the {whom}"
    if p.get("result"):
        label = f" ({p['label']})" if p.get("label") else ""
        text += f" → {w.side(str(p['result']))}{label}"
    return text + "."


def _step_done(s: Seen, w: Words) -> str:
    step = w.step(s.p.get("step"))
    if s.p.get("map_group"):  # KGP 8.2: the scenario on one Map Group
        step = f"{step} on Map Group {s.p['map_group']}"
    return f"{w.who(s.p.get('side'), s.viewer)} finished {step} ({s.p.get('date')})."


def _date_advanced(s: Seen, w: Words) -> str:
    date_id = str(s.p.get("date"))
    named = w.date(date_id)
    step = s.p.get("step")
    return f"{named if named != date_id else f'{w.unit()} {date_id}'}: {STEP_LABELS.get(str(step), step)}."


def _weather(s: Seen, w: Words) -> str:
    p = s.p
    if p.get("board"):
        return str(p.get("text"))
    shown = " · ".join(str(p[k]) for k in ("ec", "weather", "moon") if p.get(k) and p.get(k) != "-")
    return f"Weather for {p.get('date')}: {shown}." + (f" (rolled on the {p.get('rolled')})" if p.get("rolled") else "")


def _night_elr(s: Seen, w: Words) -> str:
    p = s.p
    elr = f": {p.get('printed')} → {p.get('elr')}" if p.get("elr") is not None else ""
    return (f"Night scenario ({p.get('date')}): the {w.side(p.get('side'))} side is the Scenario Defender; its ELR is "
            f"one less than in daytime{elr} ({p.get('rule')}).")


def _declared(s: Seen, w: Words) -> str:
    p = s.p
    where = f" on {p.get('map_group')}" if p.get("map_group") else ""
    count = f": {p.get('count')} of {p.get('of')} in this CG." if p.get("of") is not None else "."
    return f"The {w.side(p.get('side'))} side declared {p.get('name')} ({p.get('ref')}) for the scenario of " \
           f"{p.get('date')}{where}{count}"


def _differ(s: Seen, w: Words) -> str:
    fields = s.p.get("fields") or []
    names = ", ".join(RESULT_LABELS.get(str(f), str(f)) for f in (fields if isinstance(fields, Sequence) else []))
    return f"The results entries of {s.p.get('date')}{_where(s.p)} differ: {names}."


def _confirmed(s: Seen, w: Words) -> str:
    found = s.p.get("map_results") or []
    by_group = [mapping(item) for item in (found if isinstance(found, Sequence) else []) if isinstance(item, Mapping)]
    if not by_group:
        return f"The results of {s.p.get('date')} are confirmed."
    lines = " · ".join(f"{item.get('map_group')}: {w.result(item.get('result'))}" for item in by_group)
    return f"The results of {s.p.get('date')} are confirmed on every Map Group — {lines}."


def _track_set(s: Seen, w: Words) -> str:
    values = mapping(s.p.get("values"))
    return f"{w.side(s.p.get('side'))}: " + ", ".join(f"{k.upper()} {val}" for k, val in values.items()) + "."


def _end_proposed(s: Seen, w: Words) -> str:
    p, side = s.p, w.side(s.p.get("side"))
    if p.get("reason") != "objectives":
        return f"The {side} side proposes to end the CG by mutual agreement."
    if p.get("claimant") == p.get("side"):
        return f"The {side} side says its CG objectives are met."
    return f"The {side} side confirms that the {w.side(p.get('claimant'))} side's CG objectives are met."


def _track_change(track: str) -> Text:
    return lambda s, w: f"{w.side(s.p.get('side'))} {track} {s.p.get('before')} → {s.p.get('after')} ({s.p.get('step')})."


# ------------------------------------------------------------------------------ a step's records on the live page


def _weather_record(s: Seen, w: Words) -> tuple[str, str]:
    p = s.p
    if p.get("board"):
        return "Weather", str(p.get("text") or "")
    parts = [f"{name.upper() if name == 'ec' else name.capitalize()}: {p[name]}"
             for name in ("ec", "weather", "moon", "wind") if p.get(name) and p.get(name) != "-"]  # "-": none
    return "Weather", (" · ".join(parts) + (" · Night" if p.get("night") else "")
                       + (f" (rolled on the {p.get('rolled')})" if p.get("rolled") else ""))


def _san_record(s: Seen, w: Words) -> tuple[str, str]:
    p = s.p
    text = f"{w.side(_owner(s))} SAN {p.get('before')} → {p.get('after')}"
    drm = p.get("drm")
    if p.get("dr") is not None and isinstance(drm, int):
        text += f" (dr {p.get('dr')} {drm:+d} = {p.get('final')})"
    return "SAN adjustment", text


def _announced_record(s: Seen, w: Words) -> tuple[str, str]:
    parts = [f"{w.side(side)}: " + ", ".join(f"{k.upper()} {v}" for k, v in mapping(values).items())
             for side, values in mapping(s.p.get("tracks")).items() if values]
    return "Announced", "; ".join(parts) or "Each side announces its SAN."


def _note_place(s: Seen, w: Words) -> str:
    """Where a note was sealed: "19 PM, 2.518 RG Purchase" (before the CG starts: "before the CG began")."""
    date, step = s.p.get("date"), s.p.get("step")
    return f"{date}, {w.step(step)}" if date and step else "before the CG began"


def _pace(s: Seen, w: Words, did: str, after: str) -> str:
    hours, was = (v if isinstance(v, int) else None for v in (s.p.get("hours"), s.p.get("was")))
    return (f"{w.who(s.p.get('side'), s.viewer, 'You', '')} {did} {pace_words(hours).lower()}"
            f"{after.format(was=pace_words(was).lower())}")


def _titled(title: str, text: Text) -> Record:
    return lambda s, w: (title, text(s, w))


def _owner(s: Seen) -> JSON:
    """The side a record is about: its payload's side, else the event's, else the roller."""
    return s.p.get("side") or s.owner or s.p.get("roller") or ""


EVENT_SPECS: Mapping[EventKind, EventSpec] = {
    K.CAMPAIGN_CREATED: EventSpec(PUBLIC, _created, lambda s, w: f"Dice seed commitment (SHA-256): "
                                                                 f"{s.p.get('commitment', '')}"),
    K.PLAYER_JOINED: EventSpec(PUBLIC, lambda s, w: f"{s.p.get('player')} joined and took the "
                                                    f"{w.side(s.p.get('side'))} side."),
    K.CHIT_CHOSEN: EventSpec(SIDE, _chit_chosen),
    K.CHIT_SEALED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer, 'You have', ' has')} chosen "
                                                  f"an Initiative chit for {s.p.get('date')}.",
                             hidden_by=K.CHIT_CHOSEN),
    K.CHITS_REVEALED: EventSpec(PUBLIC, _revealed, _revealed_order),
    K.MESSAGE: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.owner, s.viewer, 'You', '')} wrote: “{s.p.get('text')}”"),
    K.OVERDUE: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer, 'Your', '’s')} action is overdue "
                                              f"({s.p.get('owes')}); it was due by {s.p.get('deadline')} UTC."),
    K.PAUSE_ASKED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer, 'You', '')} asked for a pause until "
                                                  f"the end of {s.p.get('until')} (UTC)."),
    K.PAUSE_AGREED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer, 'You', '')} agreed to pause the "
                                                   f"campaign until the end of {s.p.get('until')} (UTC): no deadline runs "
                                                   "meanwhile."),
    K.PAUSE_DECLINED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer, 'You', '')} declined the pause until "
                                                     f"the end of {s.p.get('until')} (UTC)."),
    K.PACE_PROPOSED: EventSpec(PUBLIC, lambda s, w: _pace(s, w, "proposed a new pace:", " (until now: {was}).")),
    K.PACE_AGREED: EventSpec(PUBLIC, lambda s, w: _pace(s, w, "agreed to the new pace:", " (was: {was}); every "
                                                        "running deadline started again from then.")),
    K.PACE_DECLINED: EventSpec(PUBLIC, lambda s, w: _pace(s, w, "declined the new pace:", "; it stays {was}.")),
    K.PACE_WITHDRAWN: EventSpec(PUBLIC, lambda s, w: _pace(s, w, "withdrew the proposed pace:", "; it stays {was}.")),
    K.NOTE_WRITTEN: EventSpec(CG_END, lambda s, w: f"{w.who(s.owner, s.viewer, 'You', '')} sealed note "
                                                   f"#{s.p.get('note')} ({_note_place(s, w)}): “{s.p.get('text')}”",
                              lambda s, w: f"Commitment (SHA-256): {s.p.get('commitment')}"),
    K.NOTE_SEALED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.owner, s.viewer, 'You', '')} sealed note "
                                                  f"#{s.p.get('note')} ({_note_place(s, w)}).",
                             lambda s, w: f"Commitment (SHA-256): {s.p.get('commitment')}", hidden_by=K.NOTE_WRITTEN),
    K.NOTE_REVEALED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.owner, s.viewer, 'You', '')} revealed note "
                                                    f"#{s.p.get('note')} (sealed {_note_place(s, w)}): "
                                                    f"“{s.p.get('text')}”",
                               lambda s, w: f"Commitment (SHA-256): {s.p.get('commitment')}"),
    K.BOARD_ROLL_SEALED: EventSpec(PUBLIC, lambda s, w: board_roll_words(w, s.p, s.viewer, "made", False),
                                   hidden_by=K.ROLL),
    K.BOARD_ROLL_REVEALED: EventSpec(PUBLIC, lambda s, w: board_roll_words(w, s.p, s.viewer, "revealed", True)),
    K.ROLL: EventSpec(ALL, _roll, lambda s, w: "Verify this result against your printed chart." if s.p.get("verify")
                      else "", record=lambda s, w: (str(s.p.get("purpose") or "Roll"), "")),
    K.STEP_DONE: EventSpec(PUBLIC, _step_done),
    K.DATE_ADVANCED: EventSpec(PUBLIC, _date_advanced),
    K.MOVE_ORDER: EventSpec(PUBLIC, lambda s, w: f"{w.side(s.p.get('moves_first'))} moves first on "
                                                 f"{s.p.get('date')}."),
    K.CG_ENDED: EventSpec(PUBLIC, lambda s, w: cg_ended_text(w.system, s.p)),
    K.CAMPAIGN_STARTED: EventSpec(PUBLIC, lambda s, w: f"The Campaign Game began on {s.p.get('date')}."),
    K.STEP_RESOLVED: EventSpec(PUBLIC, lambda s, w: f"Step {s.p.get('step')} resolved by the app ({s.p.get('date')})."),
    K.RECON_DECLARED: EventSpec(PUBLIC, _said("A Recon Location was declared."),
                                record=_titled("Recon Location", _said(""))),  # issue 14 item 8
    K.LOSSES_RECORDED: EventSpec(PUBLIC, _said("Losses recorded."), record=_titled("Losses", _said(""))),
    K.BOARD_PART: EventSpec(PUBLIC, lambda s, w: str(s.p.get("text") or f"Step {s.p.get('step')}: the rest is done "
                                                                        "on the board."),
                            record=_titled("Now on the board", _said(""))),  # issue 14 item 9
    K.ORDER_RECORDED: EventSpec(CG_END, lambda s, w: f"Your secret order at {s.p.get('step')} is recorded "
                                                     f"({s.p.get('date')})."),
    K.REPLENISHED: EventSpec(CG_END, lambda s, w: str(s.p.get("text") or f"Replenished {s.p.get('amount')} "
                                                                          f"{s.p.get('currency')}."),
                             record=lambda s, w: ("Replenishment", str(s.p.get("text") or f"{s.p.get('amount')} "
                                                                                          f"{s.p.get('currency')}"))),
    K.WEATHER: EventSpec(PUBLIC, _weather, record=_weather_record),
    K.SAN_ADJUSTED: EventSpec(PUBLIC, _track_change("SAN"), record=_san_record),
    K.ELR_CHANGED: EventSpec(PUBLIC, _track_change("ELR"),
                             record=lambda s, w: ("ELR", f"{w.side(_owner(s))} ELR {s.p.get('before')} → "
                                                         f"{s.p.get('after')}")),
    K.NIGHT_ELR: EventSpec(PUBLIC, _night_elr),
    K.DECLARED: EventSpec(PUBLIC, _declared),
    K.LVP_RECORDED: EventSpec(PUBLIC, lambda s, w: f"{w.side(s.p.get('side'))}: Current-LVP {s.p.get('current_lvp')}, "
                                                   f"CG-LVP {s.p.get('cg_lvp')}.",
                              record=lambda s, w: ("LVP totals", f"{w.side(_owner(s))}: Current-LVP "
                                                                 f"{s.p.get('current_lvp')}, CG-LVP {s.p.get('cg_lvp')}")),
    K.TABLE_RESULT: EventSpec(ALL, lambda s, w: f"{s.p.get('table_name')} ({w.side(s.p.get('side'))}): final "
                                                f"{s.p.get('final')} → {s.p.get('result')}.",
                              record=lambda s, w: (f"{s.p.get('table_name')} ({s.p.get('table_ref')})", "")),
    K.RESULTS_ENTERED: EventSpec(SIDE, lambda s, w: f"You entered the results of {s.p.get('date')}{_where(s.p)}."),
    K.RESULTS_SUBMITTED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer)} entered the scenario "
                                                        f"results of {s.p.get('date')}{_where(s.p)}."),
    K.RESULTS_DIFFER: EventSpec(PUBLIC, _differ),
    K.RESULTS_CONFIRMED: EventSpec(PUBLIC, _confirmed),
    K.MAP_GROUP_RESULTS_CONFIRMED: EventSpec(PUBLIC, lambda s, w: f"The results of {s.p.get('date')}{_where(s.p)} are "
                                                                  f"confirmed: {w.result(s.p.get('result'))}."),
    K.SECRET_DR: EventSpec(ALL, lambda s, w: str(s.p.get("text") or f"Secret DR {s.p.get('final')}") + ".",
                           record=lambda s, w: ("Secret DR", str(s.p.get("text") or s.p.get("final")))),
    K.SUPPLIED: EventSpec(SIDE, lambda s, w: f"You supplied a value for {s.p.get('step')}."),
    K.TRACK_SET: EventSpec(PUBLIC, _track_set),
    K.ANNOUNCED: EventSpec(PUBLIC, lambda s, w: "Each side announced its SAN.", record=_announced_record),
    K.IDLE: EventSpec(PUBLIC, lambda s, w: f"{s.p.get('label')}: the * steps are repeated ({s.p.get('date')})."),
    K.POINTS_FORFEITED: EventSpec(CG_END, _said("Unspent points forfeited."),
                                  record=lambda s, w: ("Points forfeited", str(s.p.get("text") or s.p))),
    K.END_PROPOSED: EventSpec(PUBLIC, _end_proposed),
    K.END_WITHDRAWN: EventSpec(PUBLIC, lambda s, w: f"The {w.side(s.p.get('side'))} side withdrew its proposal to end "
                                                    "the CG."),
    K.END_DECLINED: EventSpec(PUBLIC, lambda s, w: f"{w.who(s.p.get('side'), s.viewer)} declined the proposal to end "
                                                   "the CG: the CG goes on."),
    K.INITIATIVE_ASSIGNED: EventSpec(PUBLIC, lambda s, w: f"Initial Scenario roles: {s.p.get('label')}."),
    K.INITIAL_OB: EventSpec(PUBLIC, lambda s, w: f"{s.p.get('text') or w.side(s.p.get('side')) + ' Initial OB'}."),
    K.ITEMS_LOST: EventSpec(CG_END, _engine_words(K.ITEMS_LOST)),
    K.NOTHING_TO_RESOLVE: EventSpec(PUBLIC, _engine_words(K.NOTHING_TO_RESOLVE)),
    K.RESOLUTION_ORDER: EventSpec(PUBLIC, _engine_words(K.RESOLUTION_ORDER)),
    K.LEADERS_GENERATED: EventSpec(ALL, _engine_words(K.LEADERS_GENERATED)),
    K.REPLENISHMENT_SKIPPED: EventSpec(CG_END, _plain(K.REPLENISHMENT_SKIPPED)),
    K.ROLL_RESOLVED: EventSpec(ALL, _plain(K.ROLL_RESOLVED)),
    K.VALUE_NEEDED: EventSpec(ALL, _plain(K.VALUE_NEEDED)),
    K.VALUE_SUPPLIED: EventSpec(ALL, _plain(K.VALUE_SUPPLIED)),
}


E = TypeVar("E", bound=EventLike)


def may_see(event: EventLike, viewer: str, ended: bool) -> bool:
    """Whether ``viewer`` may see ``event`` now: PUBLIC to both; SIDE and CG_END to their side, to both at CG end."""
    return Visibility(event.visibility) is Visibility.PUBLIC or viewer == (event.side or None) or ended


def visible_events(events: Sequence[E], viewer: str, ended: bool) -> list[E]:
    """The events ``viewer`` may see, in order, without those a seen event of their spec's ``hidden_by`` kind says
    already (``(side, date)`` the same)."""
    seen = [e for e in events if may_see(e, viewer, ended)]
    shown = {(e.kind, e.side or None, e.payload.get(HIDING_KEY)) for e in seen}
    return [e for e in seen if not _hidden(e, shown)]


def _hidden(event: EventLike, shown: set[tuple[str, str | None, JSON]]) -> bool:
    by = EVENT_SPECS[EventKind(event.kind)].hidden_by
    return by is not None and (str(by), event.side or None, event.payload.get(HIDING_KEY)) in shown


@dataclass(frozen=True)
class EventText:
    """An event in words: its history line and its detail line."""

    text: str
    detail: str


def describe(words: Words, kind: str, payload: Payload, owner: str | None, viewer: str) -> EventText:
    """``kind``'s history line and detail line for ``viewer``."""
    spec = EVENT_SPECS[EventKind(kind)]
    seen = Seen(payload, owner, viewer)
    return EventText(spec.text(seen, words), spec.detail(seen, words))


def record_words(words: Words, kind: str, payload: Payload, owner: str | None, viewer: str) -> tuple[str, str] | None:
    """A step record's (title, text) on the live page, or None when the kind has no step record."""
    spec = EVENT_SPECS[EventKind(kind)]
    return spec.record(Seen(payload, owner, viewer), words) if spec.record is not None else None


__all__ = ["EVENT_SPECS", "HIDING_KEY", "EventLike", "EventSpec", "EventText", "RESULT_LABELS", "STEP_LABELS", "Seen", "Words",
           "cg_ended_text", "describe", "may_see", "record_words", "result_summary", "visible_events"]
