"""Reads: seats, the campaign list, what one seat's live page shows, its history. Nothing here writes.

Everything a player sees of a campaign's state goes through rules_engine view_for (their side only) and
Event.visible_to; event sequence numbers and primary keys never reach a template.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from campaigns_app import end_selectors, engine, order_forms
from campaigns_app.card_selectors import choice_rows
from campaigns_app.lost_value_selectors import value_rows
from campaigns_app.models import Campaign, CgSystem, EventRecord, LiveConnection, Seat
from rules_engine.board import PURPOSE_MAX
from rules_engine.errors import RulesError
from rules_engine.event_text import (
    RESULT_LABELS, STEP_LABELS, Words, cg_ended_text, describe, record_words, result_summary, visible_events,
)
from rules_engine.events import EventKind
from rules_engine.fortification_purchase import formula_words
from rules_engine.state import IDLE as IDLE_RESULT
from rules_engine.vocabulary import Chit

HEARTBEAT_SECONDS = 25
ONLINE_WITHIN = timedelta(seconds=HEARTBEAT_SECONDS * 3)
HISTORY_LATEST = 5
# the live page's fragments a phase form's response swaps in (fragments.FRAGMENTS keys)
PHASE_FRAGMENT_IDS = ("campaign-status", "owes", "step-panel", "chit-panel", "step-records", "checklist",
                      "ledger-summary", "players", "history-latest")



def seat_for(public_id: str, user: AbstractBaseUser | Any) -> Seat | None:
    """The user's seat in the campaign, or None (anonymous, not seated, or no such campaign: callers answer 404)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Seat.objects.filter(campaign__public_id=public_id, user_id=user.pk)
        .select_related("campaign", "campaign__system", "user")
        # the system's YAML text is parsed once per process (engine.system_of); the state is read where it is needed
        .defer("campaign__system__definition", "campaign__state")
        .first()
    )


def seeds_fixed(campaign: Campaign, seats_count: int) -> bool:
    """Whether the player seeds are fixed: once both players have joined (or a roll was made).

    Every roll binds both seeds, so a seed must not change after the first roll. But the first roll may be one side's
    secret roll (an RG bought before the Initial Scenario, an optional secret roll): fixing the seeds at that moment
    would tell the other player that it happened. So they are fixed at the earliest public moment after which a roll
    can be made — the join (no roll is made before both seats are taken)."""
    return seats_count >= 2 or any(int(n or 0) > 0 for n in (campaign.dice_counters or {}).values())


def seat_online(seat: Seat, at: datetime | None = None) -> bool:
    """Whether the seat has a live page open right now (a connection with a recent heartbeat)."""
    moment = at or timezone.now()
    return LiveConnection.objects.filter(seat=seat, last_beat__gte=moment - ONLINE_WITHIN).exists()


def systems_for_create() -> list[dict[str, Any]]:
    """CG systems a campaign can be created from, with their sides (systems that fail to parse are left out)."""
    rows = []
    for cg_system in CgSystem.objects.all():
        try:
            system = engine.system_of(cg_system)
        except Exception:  # a stored definition the current engine rejects: not offered
            continue
        if not getattr(system, "calendar", None):
            continue  # its calendar is on a CG Card not in the seed: a campaign cannot start yet
        rows.append(
            {
                "id": cg_system.id,
                "name": cg_system.name,
                "sides": [(side.id, side.name) for side in system.sides],
            }
        )
    return rows


def step_label(system: Any, view: dict[str, Any]) -> str:
    """The current step as a player reads it ("Initiative Determination (2.522)", "Scenario: Dual Attack")."""
    step = view.get("step", "")
    if step == "phase" and view.get("phase"):
        return f"{view['phase']['ref']} {view['phase']['name']}"
    if step == "results":
        return "Scenario results"
    label = STEP_LABELS.get(step, step.replace("-", " ").capitalize())
    if step == "initiative" and view.get("initiative"):
        label = f"{label} ({view['initiative']['ref']})"
    if step == "scenario" and view.get("last_round") and view["last_round"]["date_index"] == view["date"]["index"]:
        label = f"{label}: {view['last_round']['label']}"
    groups = view.get("map_groups") or []
    if step in ("initial-scenario", "scenario", "results") and groups:
        label = f"{label} · Map Group{'s' if len(groups) > 1 else ''} {', '.join(g['id'] for g in groups)}"
    return label


def chit_problem(system: Any, state: Any, seat: Seat, seats_count: int, side: str, chit: str) -> str | None:
    """Why this chit cannot be submitted now (a message naming what is allowed), or None when it can."""
    sides = engine.side_ids(system)
    if side != seat.side:
        if side in sides:
            return (
                f"You play the {engine.side_name(system, seat.side)} side; you cannot submit a chit for the "
                f"{engine.side_name(system, side)} side."
            )
        return f"Unknown side “{side}” (allowed: {seat.side})."
    allowed = [c.value for c in Chit]
    if chit not in allowed:
        return f"“{chit}” is not an Initiative chit (allowed: {', '.join(allowed)})."
    if seats_count < 2:
        return "Your opponent has not joined yet; chits are chosen once both seats are taken."
    try:
        engine.validate_chit(system, state, seat.side, Chit(chit))
    except RulesError as error:
        return str(error)
    return None


def seat_chit_problem(seat: Seat, side: str, chit: str) -> str | None:
    """chit_problem for a seat, read fresh (the confirm step; the service re-checks under the row lock)."""
    campaign = Campaign.objects.select_related("system").get(pk=seat.campaign_id)
    system = engine.system_for(campaign)
    state = engine.load_state(campaign.state)
    return chit_problem(system, state, seat, Seat.objects.filter(campaign=campaign).count(), side, chit)


@dataclass(frozen=True)
class CampaignRow:
    """One line of "My campaigns"."""

    public_id: str
    name: str
    system: str
    side: str
    opponent: str | None
    date: str
    step: str
    owes: tuple[str, ...]
    waiting_for_opponent: bool
    updated: datetime


def campaign_rows(user: AbstractBaseUser) -> list[CampaignRow]:
    """The user's campaigns, most recently active first."""
    seats = (
        Seat.objects.filter(user_id=user.pk)
        .select_related("campaign", "campaign__system")
        .defer("campaign__system__definition")
        .order_by("-campaign__updated")
    )
    campaign_ids = [seat.campaign_id for seat in seats]
    opponents = {
        (seat.campaign_id, seat.side): seat.user.get_username()
        for seat in Seat.objects.filter(campaign_id__in=campaign_ids).exclude(user_id=user.pk).select_related("user")
    }
    rows = []
    for seat in seats:
        campaign = seat.campaign
        system = engine.system_for(campaign)
        state = engine.load_state(campaign.state)
        view = engine.view_for(system, state, seat.side)
        opponent_side = engine.other_side(system, seat.side)
        opponent = opponents.get((campaign.id, opponent_side))
        rows.append(
            CampaignRow(
                public_id=campaign.public_id,
                name=campaign.name,
                system=campaign.system.name,
                side=engine.side_name(system, seat.side),
                opponent=opponent,
                date=str(view["date"]["id"]),
                step=step_label(system, view),
                owes=tuple(view["owes"][seat.side]) if opponent else (),
                waiting_for_opponent=opponent is None,
                updated=campaign.updated,
            )
        )
    return rows


def _describe_event(system: Any, record: EventRecord, viewer: str) -> dict[str, Any]:
    """A history line: what happened, in words (rules_engine.event_text), and its dice (if a roll)."""
    payload = record.payload or {}
    said = describe(Words(system), record.kind, payload, record.side or None, viewer)
    return {
        "kind": record.kind,
        "text": said.text,
        "detail": said.detail,
        "choices": _creation_choices(system, payload) if record.kind == EventKind.CAMPAIGN_CREATED else "",
        "dice": (payload.get("dice") or []) if record.kind == EventKind.ROLL else None,
        # "Only you" on the viewer's own secret records; the opponent's, seen after CG end, are revealed, not his own
        "secret": record.visibility != EventRecord.Visibility.PUBLIC and record.side == viewer,
        "created": record.created,
    }


def _creation_choices(system: Any, payload: dict[str, Any]) -> str:
    """The rules a campaign plays by, chosen at its creation: the players' choices (``source: players`` settings) and
    the values lost in the rule text typed then (printed rule values, not secrets)."""
    choices = ""
    chosen = payload.get("settings") or {}
    if chosen:
        rows = choice_rows(system, chosen)
        choices = "Players' choices: " + "; ".join(f"{row['title']}: {row['value']}" for row in rows) + "."
    typed = payload.get("lost_values") or {}
    if typed:
        lost = "Values lost in the rule text, typed as printed: " + "; ".join(
            f"{row['ref']} {row['chart']}, {row['row']}, {row['column']}: {row['value']}"
            for row in value_rows(system, typed, "")) + "."
        choices = f"{choices} {lost}".strip()
    return choices


def _visible(records: list[EventRecord], side: str, ended: bool) -> list[EventRecord]:
    """The records ``side`` may see (rules_engine.event_text decides)."""
    return visible_events(records, side, ended)


HISTORY_WINDOW = 24  # events read at a time, newest first, for the latest few


def history(campaign: Campaign, seat: Seat, latest: int | None = None, state: Any = None) -> list[dict[str, Any]]:
    """The events the seat's side may see, in order (``latest``: only the last few, read from the newest back)."""
    system = engine.system_for(campaign)
    ended = engine.cg_ended(state if state is not None else engine.load_state(campaign.state))
    events = EventRecord.objects.filter(campaign=campaign)
    if latest is None:
        visible = _visible(list(events.order_by("seq")), seat.side, ended)
    else:
        window = max(HISTORY_WINDOW, latest + 1)
        while True:
            records = list(events.order_by("-seq")[:window])[::-1]
            visible = _visible(records, seat.side, ended)
            if len(records) < window:  # the whole campaign
                break
            # the window's first event may be a chit-sealed whose chit-chosen (just before it) was not read
            visible = [r for r in visible if r.seq != records[0].seq]
            if len(visible) >= latest:
                break
            window *= 4
        visible = visible[-latest:]
    return [_describe_event(system, record, seat.side) for record in visible]


def live_context(seat: Seat) -> dict[str, Any]:
    """Everything the seat's live page renders (its own side's view only), fresh from the database."""
    campaign = Campaign.objects.select_related("system").defer("system__definition").get(pk=seat.campaign_id)
    system = engine.system_for(campaign)
    state = engine.load_state(campaign.state)
    view = engine.view_for(system, state, seat.side)
    seats = {s.side: s for s in Seat.objects.filter(campaign=campaign).select_related("user")}
    moment = timezone.now()
    online = set(
        LiveConnection.objects.filter(seat__campaign=campaign, last_beat__gte=moment - ONLINE_WITHIN).values_list(
            "seat__side", flat=True
        )
    )
    sides = engine.side_ids(system)
    players = []
    for side in sides:
        other_seat = seats.get(side)
        players.append(
            {
                "side": side,
                "side_name": engine.side_name(system, side),
                "player": other_seat.user.get_username() if other_seat else None,
                "you": side == seat.side,
                "online": side in online,
                "owes": view["owes"].get(side, []) if len(seats) == 2 else [],
                "done": view["done"].get(side, False),
            }
        )
    entry = None
    try:
        entry = system.calendar_entry(view["date"]["id"])
    except Exception:
        entry = None
    initiative = view.get("initiative")
    chit_early = False
    my_owes = list(view["owes"].get(seat.side, [])) if len(seats) == 2 else []
    opponent_owes = list(view["owes"].get(engine.other_side(system, seat.side), [])) if len(seats) == 2 else []
    if initiative is not None and state.phased:
        initiative, chit_early = _early_chits(system, state, seat.side, initiative)
        if chit_early and len(seats) == 2:
            due = f"choose your Initiative chit (chosen at {initiative['chosen_at']}, revealed at {initiative['ref']})"
            if seat.side not in state.sealed:
                my_owes.insert(0, due)
            if engine.other_side(system, seat.side) not in state.sealed:
                opponent_owes.insert(0, due)
    if len(seats) == 2 and state.phased:
        my_owes = _need_words(system, state, seat.side, my_owes)
        opponent_owes = _need_words(system, state, engine.other_side(system, seat.side), opponent_owes)
    end_question = None
    if len(seats) == 2 and state.phased and not view.get("ended"):
        end_question, my_owes, opponent_owes = end_selectors.proposal_moves(system, view, seat.side, my_owes, opponent_owes)
    last_round = view.get("last_round")
    current_round = last_round if last_round and last_round["date_index"] == view["date"]["index"] else None
    if current_round is None and _idle_still_shown(last_round, view):
        current_round = last_round  # an Idle Date jumps to the next date: its result stays until the next reveal
    revealed = None
    if current_round:
        revealed = {
            "label": _round_label(system, current_round),
            "date_id": current_round["date_id"],
            "date_name": engine.date_name(system, current_round["date_id"]),
            "earlier": current_round["date_index"] != view["date"]["index"],
            "result": current_round["result"],
            "chits": [
                {"side_name": engine.side_name(system, side), "chit": str(current_round["chits"].get(side, "")).capitalize(),
                 "you": side == seat.side}
                for side in sides
            ],
            "setup_first": engine.side_name(system, current_round["setup_first"]) if current_round["setup_first"] else None,
            "moves_first": engine.side_name(system, current_round["moves_first"]) if current_round["moves_first"] else None,
            "rolls": current_round.get("rolls", []),
        }
    opponent_side = engine.other_side(system, seat.side)
    return {
        "campaign": campaign,
        "seat": seat,
        "system": system,
        "view": view,
        "side_name": engine.side_name(system, seat.side),
        "opponent_name": engine.side_name(system, opponent_side),
        "opponent_joined": opponent_side in seats,
        "players": players,
        "my_owes": my_owes,
        "opponent_owes": [their_words(item) for item in opponent_owes],
        "step_label": step_label(system, view),
        "step_name": STEP_LABELS.get(view.get("step", ""), view.get("step", "")),
        "date": view["date"],
        "calendar_entry": entry,
        "initiative": initiative,
        "my_attack_chits": (initiative.get("attack_chits") or {}).get(seat.side) if initiative else None,
        "chit_open": bool(initiative and initiative.get("open")) and len(seats) == 2,
        "chit_early": chit_early,
        "scenario_done_label": (
            "The Initial Scenario is finished" if view.get("step") == "initial-scenario"
            else f"The scenario ({revealed['label']}) is finished" if revealed else "The scenario is finished"),
        "seeds_fixed": seeds_fixed(campaign, len(seats)),
        "revealed": revealed,
        "end_question": end_question,
        "cg_end_text": cg_ended_text(system, view["cg_end"]) if view.get("ended") and view.get("cg_end") else "",
        "can_mark_done": len(seats) == 2 and engine.can_mark_done(system, state, seat.side),
        "move_order_due": len(seats) == 2 and engine.move_order_due(system, state, seat.side),
        "history_latest": history(campaign, seat, latest=HISTORY_LATEST, state=state),
        "ended": view.get("ended", False),
        "phase": phase_context(campaign, seat, system, state, view, len(seats) == 2),
        "phase_oob": ",".join(f"#{fragment_id}" for fragment_id in PHASE_FRAGMENT_IDS),
    }


def _idle_still_shown(last_round: dict[str, Any] | None, view: dict[str, Any]) -> bool:
    """RR 2.522 / PL 2.4 / PHD C5.37: an Idle Date (Idle Firefight, Lull) sends both sides into the idle loop of the next
    date at once; its result stays on the page through that loop, until the players move on to the next reveal."""
    return bool(last_round and last_round["result"] == IDLE_RESULT and not view.get("ended")
                and last_round["date_index"] < view["date"]["index"])


def _round_label(system: Any, revealed: dict[str, Any]) -> str:
    """The matrix result as a player reads it; an Idle result says why: "Idle Date — both chose Idle"."""
    label = str(revealed["label"])
    chits = {str(chit) for chit in (revealed.get("chits") or {}).values()}
    if revealed["result"] == IDLE_RESULT and chits == {"idle"}:
        return f"{label} — both chose Idle"
    return label


def _need_words(system: Any, state: Any, side: str, items: list[str]) -> list[str]:
    """"2.512 …: supply san" (the engine names need ids) → "2.512 …: type your SAN": each id by the need's own words.
    Only ids already in the item are replaced, so nothing the viewer may not see is added."""
    import re

    found = {str(n["id"]): n for n in engine.needs(system, state, side)}
    out = []
    for item in items:
        match = re.match(r"^(.*): supply (.+)$", item)
        if not match:
            out.append(item)
            continue
        words = []
        for need_id in (part.strip() for part in match.group(2).split(",")):
            need = found.get(need_id)
            if need is not None and need["kind"] == "track":
                words.append(f"your {need_id.upper()}")
            elif need is not None:
                words.append(str(need["label"]).rstrip("?").lower() if need["kind"] == "fact" else str(need["label"]))
            else:
                words.append(need_id.replace("_", " "))
        out.append(f"{match.group(1)}: type {' and '.join(words)}")
    return out


def their_words(item: str) -> str:
    """An owed action as the other side reads it: "choose your Initiative chit" → "choose its Initiative chit"."""
    import re

    return re.sub(r"\byour\b", "its", item)


def _early_chits(system: Any, state: Any, side: str, initiative: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The chit panel where the system seals the chits before the reveal (PHD: chosen at C5.31, revealed at C5.37):
    open at the choosing step, and showing the sealed chit until the reveal. Returns (initiative view, choosing now)."""
    from rules_engine.initiative import choosing_early

    rule = getattr(system, "initiative", None)
    chosen_at = getattr(rule, "chosen_at", None)
    if not chosen_at:
        return initiative, False
    early = choosing_early(system, state)
    shown = dict(initiative, chosen_at=chosen_at)
    if early:
        allowed = []
        for chit in Chit:
            try:
                engine.validate_chit(system, state, side, chit)
            except RulesError:
                continue
            allowed.append(str(chit))
        shown.update(open=True, allowed=allowed)
    elif state.sealed and state.step != "initiative":
        shown.update(open=True, allowed=[])  # sealed before the reveal: the panel shows "sealed" / "has chosen"
    return shown, early


# ----------------------------------------------------------------------------------------------- between-scenario phase

KIND_LABELS = {
    "automatic": ("Automatic", "The app does this step and shows the result."),
    "input": ("Secret order", "Each side fills in its own order in secret."),
    "assisted": ("Assisted", "Play it on the board; the app rolls on the printed table when you ask and applies the DRM you tick."),
    "on-board": ("On the board", "Do it on the board, then mark it finished."),
    "mark": ("", ""),
}
MARK_KIND = {"@results": ("Both enter", "Both players enter the scenario's results; they must agree."),
             "@new-date": ("Automatic", "The next CG Date begins."),
             "@scenario": ("On the board", "Play the scenario, then mark it finished."),
             "@initial-scenario": ("On the board", "Play the Initial Scenario, then mark it finished.")}
SETUP_MODE_LABELS = {"entry": "Enters", "on-map": "On map", "reserve": "In Reserve"}


def _side_list(system: Any, sides: Any) -> str:
    names = [engine.side_name(system, side) for side in sides or []]
    return " then ".join(names)


SECRET_KIND_LABELS = {
    "automatic": ("Automatic · secret", "The app rolls for each side in secret; only that side sees its result."),
    "assisted": ("Assisted · secret", "Play it on the board; the app rolls on the printed table in secret when you "
                 "ask — only you see your result."),
}


def step_kind_label(system: Any, entry: dict[str, Any], initial_pass: bool = False) -> tuple[str, str, str]:
    """(label, help, css kind) of a checklist step, from the data: sequence.step_kind, then what the step's
    ``secret``/``action`` and the system's initiative say (a sealed chit is a secret simultaneous choice, never
    "on the board"; an initiative resolved from what was bought is done by the app)."""
    from rules_engine.sequence import INITIATIVE_ACTIONS

    kind = str(entry.get("kind") or "")
    step = next((s for s in getattr(system, "steps", ()) or () if s.ref == entry.get("ref")), None)
    initiative = getattr(system, "initiative", None)
    chits = initiative is not None and initiative.mode == "chit"
    secret = str(entry.get("secret") or (step.secret if step is not None else "") or "none")
    if initial_pass and step is not None and step.action in INITIATIVE_ACTIONS:
        return "Automatic", "The rules assign the Initial Scenario's roles; the app records them.", "automatic"
    if chits and initiative.ref == entry.get("ref"):
        if initiative.chosen_at:
            return ("Chits revealed", f"The chits sealed at {initiative.chosen_at} are revealed together and the "
                    "app applies the result.", "chits")
        return "Sealed chits", "Both sides choose a chit in secret; they are revealed together.", "chits"
    if chits and initiative.chosen_at == entry.get("ref"):
        label, help_text = KIND_LABELS.get(kind, (kind, ""))
        return (f"{label} + sealed chit" if label else "Sealed chit",
                f"{help_text} Each side also seals its Initiative chit now; both are revealed at {initiative.ref}.".strip(),
                "chits")
    if step is not None and step.action in INITIATIVE_ACTIONS:
        return ("Automatic", "The app resolves the initiative from what each side has bought and shows the result.",
                "automatic")
    if secret == "choice":
        return ("Secret choice", "Each side makes its choice in secret; reveal them together on the board, then mark "
                "the step finished.", "chits")
    if secret == "roll" and kind in SECRET_KIND_LABELS:
        label, help_text = SECRET_KIND_LABELS[kind]
        return label, help_text, kind
    label, help_text = KIND_LABELS.get(kind, (kind, ""))
    return label, help_text, kind


def _checklist(system: Any, view: dict[str, Any], side: str) -> list[dict[str, Any]]:
    items = []
    results_pending = any(item["ref"] == "@results" and item.get("status") != "done" for item in view["phase"]["checklist"])
    for item in view["phase"]["checklist"]:
        entry = dict(item)
        if entry["kind"] == "mark":
            label, help_text = MARK_KIND.get(entry["ref"], ("", ""))
            entry.update(number="", kind_label=label, kind_help=help_text, kind_class="mark")
            if entry["ref"] in ("@scenario", "@initial-scenario"):  # steps played during it (PL 2.8, 2.9)
                during = [f"{s.ref} {s.name}" for s in getattr(system, "steps", ()) or () if s.in_scenario]
                entry["order_text"] = f"During it: {', '.join(during)}" if during else ""
            if entry.get("map_group"):  # KGP 8.2: this Map Group's scenario (or its results), with its own status
                entry["number"] = str(entry["map_group"])
                if entry["ref"] == "@results":
                    entry["kind_help"] = "Both players enter this Map Group's results; they must agree."
                    entry["done_words"] = ("entered", "to enter")
                else:
                    entry["kind_help"] = "Play this Map Group's scenario, then both mark it finished."
                    entry["done_words"] = ("finished", "to do")
                done = entry.get("done") or {}
                entry["you_done"] = bool(done.get(side))
                entry["opponent_done"] = bool(done.get(view["opponent"]))
                entry["show_sides"] = entry.get("status") == "current" and bool(done)
                if entry.get("differ"):  # both entered, not the same: that is what the players must see
                    entry["show_sides"] = False
                    entry["order_text"] = "The entries differ: agree them"
        else:
            label, help_text, kind_class = step_kind_label(system, entry, view["phase"].get("pass") == "initial")
            entry["kind"] = kind_class
            entry.update(number=entry["ref"], kind_label=label, kind_help=help_text, kind_class=entry["kind"])
            order = entry.get("order")
            known = [s for s in order or [] if s in view["side_names"]]
            if entry.get("sides") == "ordered" and order and len(known) == len(order):
                entry["order_text"] = "In order: " + _side_list(system, known)
            elif entry.get("sides") == "ordered" and order:
                # roles (attacker, defender …) that name no side yet: say which roles and when they are known
                roles = ", then ".join(str(r).replace("_", " ").replace("-", " ").capitalize() for r in order)
                entry["order_text"] = f"In order: {roles} ({'known once the results are in' if results_pending else 'known later'})"
            elif entry.get("sides") == "ordered":
                entry["order_text"] = "In order (roles not known yet)"
            done = entry.get("done") or {}
            entry["you_done"] = bool(done.get(side))
            entry["opponent_done"] = bool(done.get(view["opponent"]))
            chits = view.get("initiative") or {}
            if chits and entry["ref"] == chits.get("ref") and entry.get("status") == "current":
                entry["you_done"] = bool(chits.get("own_chit"))  # a sealed chit is this step's whole part
                entry["opponent_done"] = bool(chits.get("opponent_has_chosen"))
                entry["done_words"] = ("chosen", "to choose")
            entry["show_sides"] = entry.get("status") == "current" and entry["kind"] != "automatic"
        items.append(entry)
    return items


def _recon_turn(system: Any, state: Any, step: Any, side: str) -> dict[str, Any] | None:
    """RR 2.524 / PHD C5.40: whose turn it is to declare, and this side's own count (never the opponent's)."""
    from rules_engine import recon_turns

    if step is None or recon_turns.first(step) is None or state.phase_ref != step.ref:
        return None
    now = recon_turns.turn(state, step)
    mine = recon_turns.declared(state, step, side)
    return {"left": max(0, recon_turns.allowed(state, side) - len(mine)), "declared": list(mine),
            "your_turn": now == side, "turn_name": engine.side_name(system, now) if now else None}


def _records_losses(step: Any) -> bool:
    from rules_engine.losses import records_losses

    return records_losses(step)


def _losses_count_leaders(system: Any) -> bool:
    from rules_engine.losses import counts_leaders

    return counts_leaders(system)


def _recon_inspection(system: Any, state: Any, step: Any, ledger: Any) -> dict[str, Any] | None:
    """RR 2.524 Recon Inspection: the number of Locations the viewer may reconnoiter — its own Recon Final dr, recorded
    in the Recon column of its CG Roster line at the step that buys Recon (2.521) and used at the step that step names
    as its reveal. None when the viewer bought no Recon for this date (nothing is shown: the opponent's page is the same
    whatever the other side bought)."""
    if step is None or ledger is None:
        return None
    bought_at = next((s for s in system.steps if s.action == "purchase-recon" and s.revealed == "at-step"
                      and s.revealed_at == step.ref), None)
    line = ledger.roster_line(state.date_id) if bought_at is not None else None
    if line is None or line.recon is None:
        return None
    return {"count": line.recon, "ref": bought_at.ref, "step_ref": step.ref}


def _describe_record(system: Any, event: dict[str, Any], side: str) -> dict[str, Any] | None:
    """One step result of this date as the viewer may see it (view_for already dropped what it may not); its title
    and text from rules_engine.event_text, a roll's breakdown here."""
    payload = event.get("payload") or {}
    kind = event["kind"]
    words = record_words(Words(system), kind, payload, event.get("side") or None, side)
    if words is None:
        return None
    title, text = words
    own_secret = event.get("visibility") != "public" and (event.get("side") in (None, "", side))
    owner = payload.get("side") or event.get("side") or payload.get("roller") or ""
    base = {"kind": kind, "secret": own_secret, "step": payload.get("step"), "side_name": engine.side_name(system, owner),
            "you": owner == side, "what_for": (payload.get("purpose") or "") if kind == "table-result" else "",
            "title": title}
    if kind == EventKind.TABLE_RESULT:
        return {**base, "column": payload.get("column"), "dice": payload.get("dice") or [],
                "original": payload.get("original"), "modifiers": _modifier_texts(payload.get("modifiers")),
                "final": payload.get("final"), "row": payload.get("row"), "result": payload.get("result"),
                "caution": payload.get("caution"), "breakdown": True, "cost": payload.get("cost"),
                "currency": payload.get("currency")}
    if kind == EventKind.ROLL:
        return {**base, "dice": payload.get("dice") or [], "original": payload.get("original", payload.get("total")),
                "modifiers": _modifier_texts(payload.get("modifiers")), "final": payload.get("final", payload.get("total")),
                "result": payload.get("result"), "breakdown": True, "rg_id": payload.get("rg_id")}
    if kind == EventKind.SAN_ADJUSTED:
        return {**base, "text": text, "caution": payload.get("caution")}
    return {**base, "text": text}


def _modifier_texts(modifiers: Any) -> list[dict[str, Any]]:
    """A roll's modifiers with the text shown: "+2", "-1", or as recorded when not an added DRM (KGP 8.31 "÷2")."""
    out = []
    for modifier in modifiers or []:
        if not isinstance(modifier, dict):
            continue
        value = modifier.get("value")
        number = isinstance(value, int) and not isinstance(value, bool)
        out.append({**modifier, "text": f"{value:+d}" if number else str(value)})
    return out


def _with_step_cautions(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A caution about a step's rule text (RR 2.5122 "as written") belongs to the step, not to its first record: it
    becomes one ``step-caution`` entry before the step's first record; a roll's own caution stays on the roll."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, str]] = set()
    for record in records:
        caution = record.get("caution")
        if caution and not record.get("breakdown"):
            record = {**record, "caution": None}
            if (record.get("step"), caution) not in seen:
                seen.add((record.get("step"), caution))
                out.append({"kind": "step-caution", "step": record.get("step"), "caution": caution, "secret": False,
                            "title": "Check against your printed rules", "step_caution": True})
        elif caution:
            if (record.get("step"), caution) in seen:  # the same roll caution for each side: once
                record = {**record, "caution": None}
            seen.add((record.get("step"), caution))
        out.append(record)
    return out


def _rg_rows(system: Any, side: str, ledger: Any, date_id: str, date_index: int, *, initial: bool = False,
             chit: Any = None) -> list[dict[str, Any]]:
    """The side's RG chart as the order form lists it (cost per set-up mode, #P, remaining, availability)."""
    from rules_engine import purchases
    from rules_engine.ledger import SETUP_MODES, amount_text

    try:
        chart = system.rg_chart(side)
    except Exception:
        return []
    rows = []
    for row in chart.rows:
        modes = []
        for mode in SETUP_MODES:
            cost, problems = purchases.rg_order_cost(system, side, purchases.RgOrder(row.id, mode))
            if cost is not None and not problems:
                modes.append({"mode": mode, "label": SETUP_MODE_LABELS[mode], "cost": amount_text(cost)})
        bought = ledger.purchased_count((row.id,)) if ledger is not None else 0
        bought_today = ledger.purchased_count((row.id,), date_id) if ledger is not None else 0
        cg_max = row.cg_max.number if row.cg_max is not None and not row.cg_max.missing else None
        date_max = row.date_max.number if row.date_max is not None and not row.date_max.missing else None
        unavailable = []
        if modes and ledger is not None:
            # why this RG cannot be bought now whatever the points (availability, maxima reached, another step's RG)
            rich = ledger.with_points(purchases.purchase_currency(system), 10 ** 6)
            problems = purchases.validate_order(system, rich, side, date_id, [purchases.RgOrder(row.id, modes[0]["mode"])],
                                                initial=initial, chit=chit)
            unavailable = [_short(v.message, row.id) for v in problems]
        notes = [{"letter": letter, "text": chart.notes[letter].text} for letter in row.notes if letter in chart.notes]
        pre = next((chart.notes[n].pre_registered for n in row.notes if n in chart.notes and chart.notes[n].pre_registered), None)
        extra = next((chart.notes[n].extra_max for n in row.notes if n in chart.notes and chart.notes[n].extra_max is not None), None)
        left_cg = None if cg_max is None else int(cg_max) - bought
        left_date = None if date_max is None else int(date_max) - bought_today
        limits = [n for n in (left_cg, left_date) if n is not None]
        rows.append({
            "id": row.id, "type": row.type, "group_type": row.group_type, "description": row.description,
            "cost": row.cost.text if not row.cost.missing else "?", "cost_missing": row.cost.missing,
            "date_max": row.date_max.text if row.date_max is not None else "—",
            "cg_max": row.cg_max.text if row.cg_max is not None else "—",
            "full": ", ".join(f"{u.count.text} × {u.unit}" for u in row.full),
            "depleted": ", ".join(f"{u.count.text} × {u.unit}" for u in row.depleted),
            "bought": bought, "remaining": left_cg, "notes": notes, "unavailable": unavailable,
            "modes": modes, "pre_registered": pre, "extra_max": extra, "max_now": max(min(limits), 0) if limits else 9,
            "gives": ", ".join(f"{c.text} {code}" for code, c in row.gives.items()),
            "objective_hex": _objective_hex_ref(system, row.id),
        })
    return rows


def _objective_hex_ref(system: Any, rg_id: str) -> str | None:
    """KGP 8.2/8.6198: the rule's ref when this RG allows its side to secretly designate an Objective Hex."""
    from rules_engine.purchases import objective_hex_prefixes

    found = objective_hex_prefixes(system)
    return found[1] if found is not None and rg_id.startswith(found[0]) else None


def _short(message: str, rg_id: str) -> str:
    """"RG M4 (Activate A20 Entry) is only available after 19 PM (2.518)" → "Only available after 19 PM (2.518)"."""
    prefix = f"RG {rg_id} ("
    if message.startswith(prefix):
        depth, index = 0, len("RG ") + len(rg_id) + 1
        for index in range(index, len(message)):
            depth += {"(": 1, ")": -1}.get(message[index], 0)
            if depth == 0:
                break
        rest = message[index + 1:].lstrip(" :")
        rest = rest[3:] if rest.startswith("is ") else rest
        return rest[:1].upper() + rest[1:]
    return message


def _fort_rows(system: Any, side: str, initial: bool) -> list[dict[str, Any]]:
    table = getattr(system, "fortifications", None)
    if table is None:
        return []
    rows = []
    for index, row in enumerate(table.rows):
        cost = row.cost
        if cost.kind == "fixed" and cost.amount is not None:
            price = f"{cost.amount.text} each"
        elif cost.kind in ("per_factor", "per_hexside") and cost.amount is not None:
            price = f"{cost.amount.text} per {'factor' if cost.kind == 'per_factor' else 'hexside'}"
        elif cost.by:
            price = ", ".join(f"{key}: {cell.text}" for key, cell in cost.by.items())
        elif cost.formula:
            price = formula_words(cost.formula)
        else:
            price = f"as per {cost.reference}" if cost.reference else cost.kind
        problem = None
        if cost.kind == "as_per":  # PL 2.38 Dummy Minefield "as per F.7B": a cost the rule text does not give
            problem = "Cost not given by the rule text: buy it only where your CG Card gives it"
        elif row.sides and side not in row.sides:
            problem = f"{_side_list(system, row.sides)} only"
        elif row.initial_only and not initial:
            problem = "Initial Scenario only"
        rows.append({"index": index, "type": row.type, "kind": cost.kind, "price": price,
                     "options": list(cost.by.keys()), "option_name": "capacity" if cost.kind == "by_capacity" else "unit",
                     "formula": cost.formula, "problem": problem, "note": row.note, "currency": table.currency})
    return rows


OP_SIGNS = {"<=": "≤", "<": "<", ">=": "≥", ">": ">"}


def _board_context(system: Any, board: dict[str, Any], side: str) -> dict[str, Any]:
    """The "Roll dice" form of the current step / scenario and its latest rolls (public: both sides see them)."""
    from rules_engine.board import COUNT_MAX, PURPOSE_MAX

    rolls = []
    for event in reversed(board.get("log") or []):
        payload = event.get("payload") or {}
        roller = str(payload.get("roller", ""))
        scenario_roll = payload.get("scenario_roll")
        rolls.append({
            "you": roller == side,
            "side_name": engine.side_name(system, roller),
            "text": payload.get("text") or payload.get("purpose"),
            "kind": payload.get("kind"),
            "dice": payload.get("dice") or [],
            "total": payload.get("total"),
            "index": payload.get("index"), "of": payload.get("of"),
            "scenario": bool(scenario_roll),
            "result": payload.get("result"),
            "met": payload.get("met"),
            "modifiers": payload.get("modifiers") or [],
            "final": payload.get("final"),
            "caution": payload.get("caution"),
            "lost": payload.get("lost"),
            "number": payload.get("number"),
            "map_group": payload.get("map_group"),
        })
    return {"at": board.get("at"), "kinds": list(board.get("kinds") or []), "rolls": rolls,
            "purpose_max": PURPOSE_MAX, "count_max": COUNT_MAX}


def _group_board(board: dict[str, Any], group_id: str, is_open: bool) -> dict[str, Any]:
    """KGP 8.2: one Map Group's "Roll dice" form and latest rolls — the rolls made for its scenario only; no form once
    both sides marked its scenario finished (rules_engine.board.open_map_groups)."""
    return {**board, "map_group": group_id, "suffix": f"-{group_id}", "open": is_open,
            "kinds": board["kinds"] if is_open else [],
            "rolls": [r for r in board["rolls"] if r.get("map_group") == group_id]}


def _scenario_roll_forms(system: Any, offered: list[str], side: str) -> list[dict[str, Any]]:
    """The scenario's own rolls offered now (PL CG2 Game End dr …): the rule's words, the typed threshold, the DRM."""
    from rules_engine import board

    rules = {r.id: r for r in getattr(system, "special_rules", ()) or ()}
    out = []
    for roll in getattr(system, "scenario_rolls", ()) or ():
        if roll.id not in offered:
            continue
        questions = [{"index": index, "reason": m.reason, "ask": m.ask,
                      "range": list(m.range) if m.range else None}
                     for index, m in board.questions(system, roll)]
        automatic = [m.reason for m in (roll.modifiers if not roll.table else ()) if m.ask is None]
        threshold = roll.threshold
        table = system.table(roll.table) if roll.table else None
        rule = rules.get(roll.rule) if roll.rule else None
        out.append({
            "id": roll.id, "ref": roll.ref, "name": roll.name, "dice": str(roll.dice), "roller": roll.roller,
            "when": roll.when, "note": roll.note, "from_turn": roll.from_turn,
            "threshold": None if threshold is None else {
                "label": threshold.label, "sign": OP_SIGNS[threshold.op], "as_written": threshold.as_written,
                "caution": threshold.interpreted if threshold.verify else None},
            "outcomes": roll.outcomes, "questions": questions, "automatic": automatic,
            "allowed": not roll.sides or side in roll.sides,
            "sides_text": " or ".join(engine.side_name(system, s) for s in roll.sides),
            "rule_text": rule.text if rule is not None else None,
            "rows": [{"label": r.display_label, "cells": [c.text for c in r.cells]} for r in table.rows] if table else [],
        })
    return out


def _assisted_tables(system: Any, step: Any, side: str) -> list[dict[str, Any]]:
    from rules_engine import sequence, tables

    names = list(step.tables) + [str(t) for t in (step.params.get("table"),) if isinstance(t, str) and t not in step.tables]
    out = []
    for name in names:
        try:
            table = system.table(name)
        except Exception:
            continue
        try:
            fixed_column = sequence.table_column(system, step, table, side)
        except Exception:
            fixed_column = None
        columns = [{"id": c.id, "label": c.label} for c in table.columns]
        questions = []
        for index, modifier in tables.questions(table, None) if len(table.columns) == 1 else \
                [(i, m) for i, m in enumerate(table.modifiers) if m.ask is not None]:
            questions.append({"index": index, "reason": modifier.reason, "ask": modifier.ask,
                              "value": modifier.value if isinstance(modifier.value, int) else None,
                              "range": list(modifier.range) if modifier.range else None,
                              "na_for": [c for c in modifier.na_for], "columns": list(modifier.columns)})
        out.append({"id": table.id, "ref": table.ref, "name": table.name, "dice": str(table.dice.value),
                    "columns": columns, "column": fixed_column, "questions": questions, "secret": table.secret,
                    "rows": [{"label": r.display_label, "cells": [c.text for c in r.cells] if not r.missing else ["(lost)"]}
                             for r in table.rows],
                    "note": table.note})
    return out


def phase_context(campaign: Campaign, seat: Seat, system: Any, state: Any, view: dict[str, Any],
                  both_seated: bool) -> dict[str, Any]:
    """What the live page shows of the between-scenario phase for ``seat`` (its own side only)."""
    from campaigns_app import services
    from rules_engine import sequence

    if not view.get("phased"):
        return {"phased": False}
    side = seat.side
    opponent = view["opponent"]
    phase = view["phase"]
    step = None
    if state.phase_ref and state.phase_ref not in sequence.MARKS:
        step = next((s for s in system.steps if s.ref == state.phase_ref), None)
    kind = phase.get("kind")
    ledger = state.ledgers.get(side)
    panel = "none"
    if view.get("ended"):
        panel = "ended"
    elif state.step == "results":
        panel = "results"
    elif state.step == "initiative":
        panel = "initiative"
    elif state.step in ("initial-scenario", "scenario"):
        panel = "scenario"
    elif step is not None:
        if kind == "input":
            panel = {"purchase-fortifications": "fortifications", "purchase-recon": "recon",
                     "purchase-patrols": "patrols"}.get(step.action or "", "order")
        elif kind == "assisted":
            panel = "assisted"
        elif kind == "automatic":
            panel = "automatic"
        else:
            panel = "on-board"
    waiting_for = None
    if step is not None and step.sides == "ordered" and side not in state.done:
        waiting_for = sequence._waiting_for(system, state, step, side)  # noqa: SLF001
    you_done = side in state.done
    currency = sequence.main_currency(system)
    balances = []
    if ledger is not None:
        from rules_engine.ledger import amount_text

        codes = [c.code for c in getattr(system, "currencies", ())]
        for code in codes:
            balances.append({"code": code, "amount": amount_text(ledger.balance(code)),
                             "main": code == currency})
    own_records = _with_step_cautions(
        [r for r in (_describe_record(system, e, side) for e in view.get("records", [])) if r])
    step_records = [r for r in own_records if r.get("step") == state.phase_ref]
    # the rolls at this step: the viewer's own, and the opponent's where the step's rolls are public (RR 2.504 …)
    step_rolls = [r for r in step_records if r.get("breakdown") and r.get("you")]
    opponent_step_rolls = [r for r in step_records if r.get("breakdown") and not r.get("you")]
    needs = engine.needs(system, state, side)
    recon_inspection = _recon_inspection(system, state, step, ledger)
    # what a side types is seen by both when the step is not secret (RR 2.512: each side announces its SAN, 2.525)
    needs_public = bool(needs) and step is not None and str(step.secret or "none") == "none" and all(
        n.get("public") for n in needs if n["kind"] == "table-value")
    context: dict[str, Any] = {
        "phased": True,
        "pass": phase.get("pass"),
        "title": getattr(getattr(system, "between_phase", None), "name", None) or "Between scenarios",
        "checklist": _checklist(system, view, side),
        "panel": panel if both_seated else "waiting",
        "step": step,
        "step_ref": state.phase_ref,
        "kind": kind,
        "kind_label": (step_kind_label(system, {"ref": step.ref, "kind": kind, "secret": step.secret},
                                       state.pass_kind == "initial")[0] if step is not None else ""),
        "you_done": you_done,
        "opponent_done": opponent in state.done,
        "waiting_for": engine.side_name(system, waiting_for) if waiting_for else None,
        "needs": needs,
        "roll_questions": list(phase.get("roll_questions") or []),  # this side's own (view_for)
        "records_losses": _records_losses(step),
        "losses_leaders": _records_losses(step) and _losses_count_leaders(system),
        "recon_turn": _recon_turn(system, state, step, side),
        "needs_public": needs_public,
        "needs_public_names": " and ".join(str(n["id"]).upper() for n in needs if n["kind"] == "track"),
        "opponent_needs": engine.opponent_needs(system, state, side),
        "records": own_records,
        "step_records": step_records,
        "step_rolls": step_rolls,
        "recon_inspection": recon_inspection,
        "purpose_max": PURPOSE_MAX,
        "opponent_step_rolls": opponent_step_rolls,
        "balances": balances,
        "currency": currency,
        "results": view["results"],
        "sides": [{"id": s, "name": engine.side_name(system, s), "you": s == side} for s in engine.side_ids(system)],
        "end_proposals": view.get("end_proposals") or {},
        "cg_end": view.get("cg_end"),
        "this_date_purchases": [p for p in (view.get("ledger") or {}).get("purchases", []) if p.get("date_id") == state.date_id],
        "you_proposed": bool((view.get("end_proposals") or {}).get(side)),
        "opponent_proposed": bool((view.get("end_proposals") or {}).get(opponent)),
        "end_reason": view.get("end_reason"),
        "end_claimant_name": engine.side_name(system, view["end_claimant"]) if view.get("end_claimant") else None,
        "points_left": _balance(ledger, currency),
    }
    groups = view.get("map_groups") or []
    context["map_groups"] = groups
    if panel in ("scenario", "assisted", "on-board") and both_seated:
        # the "Mark finished" form names the step occurrence it finishes (services.phase_mark_done)
        context["done_step"] = services.current_step_ref(state)
        context["done_token"] = services.form_token(campaign, seat, state, "done")
    if panel == "scenario" and both_seated and groups:
        # KGP 8.2: one scenario per Map Group in play, each marked finished on its own form
        context["scenario_groups"] = [
            {**group, "you_done": bool(group["scenario_done"].get(side)),
             "opponent_done": bool(group["scenario_done"].get(opponent)),
             "token": services.form_token(campaign, seat, state, "done", group["id"])}
            for group in groups
        ]
    if panel == "on-board" and both_seated:
        context["run_steps"] = [{"ref": s.ref, "name": s.name, "option": order_forms.chosen_option(system, s)}
                                for s in sequence.board_run(system, state)]
        context["run_label"] = f"Mark these {len(context['run_steps'])} steps finished"
    context["chosen_option"] = order_forms.chosen_option(system, step)
    if both_seated and step is not None and not view.get("ended"):
        from rules_engine.board import REPAIR_DRM

        context["repair_rows"] = order_forms.repair_rows(system, step)
        if context["repair_rows"]:
            context["repair_token"] = services.form_token(campaign, seat, state, "board")
            context["repair_drm"] = REPAIR_DRM
            context["purpose_max"] = PURPOSE_MAX
    if panel in ("order", "fortifications", "recon", "patrols"):
        context["order_token"] = services.form_token(campaign, seat, state, "recon" if panel == "recon" else "order")
    if panel == "order" and step is not None:
        context["attack_option"] = order_forms.attack_option(system, state, step, side, currency)
    if panel == "patrols":
        context["patrols"] = order_forms.patrol_purchase(system, state, side, currency)
    if both_seated and step is not None and not view.get("ended"):
        context["resolution_choice"] = order_forms.resolution_choice(system, state, step, side)
        if context["resolution_choice"] and context["resolution_choice"]["you_choose"]:
            context["first_token"] = services.form_token(campaign, seat, state, "first")
    if panel == "order" and step is not None:
        context["rg_rows"] = _rg_rows(system, side, ledger, state.date_id, state.date_index,
                                      initial=state.pass_kind == "initial", chit=state.sealed.get(side))
        context["setup_note"] = system.setup_costs.note if getattr(system, "setup_costs", None) else None
        context["chart"] = system.rg_chart(side) if _has_chart(system, side) else None
        context["nothing_to_buy"] = _nothing_to_buy(context["rg_rows"], ledger, currency)
        context["initial_ob_missing"] = (
            state.pass_kind == "initial" and getattr(system, "initial_ob", None) is None
            and any(m.part == "initial_ob" for m in getattr(system, "missing_parts", ())))
        context["system_short"] = str(system.id).upper()
    if panel == "fortifications":
        context["fort_rows"] = _fort_rows(system, side, state.pass_kind == "initial")
        table = getattr(system, "fortifications", None)
        context["fort_currency"] = table.currency if table is not None else None
        context["fort_ref"] = table.ref if table is not None else None
        context["fort_forfeit"] = bool(table and table.forfeit_unspent)
        context["fort_points"] = _balance(ledger, table.currency if table is not None else None)
        context["points_purchase"] = order_forms.points_purchase(system, side, ledger)
    if panel == "recon" and step is not None:
        context["recon"] = _recon_context(system, state, step, side, currency)
    if panel == "assisted" and step is not None:
        context["tables"] = _assisted_tables(system, step, side)
        context["roll_token"] = services.form_token(campaign, seat, state, "roll")
    board_view = view.get("board") or {}
    if both_seated and not view.get("ended") and (board_view.get("kinds") or board_view.get("log")):
        context["board"] = _board_context(system, board_view, side)
        context["board"]["token"] = services.form_token(campaign, seat, state, "board")
    if panel == "scenario" and both_seated:
        context["in_scenario_steps"] = [s for s in system.steps if s.in_scenario]
        context["scenario_rolls"] = _scenario_roll_forms(system, board_view.get("scenario_rolls") or [], side)
        from rules_engine.declarations import for_view

        context["declarations"] = for_view(system, state, side)
        if context.get("scenario_groups") and context.get("board"):
            # KGP 8.2: each Map Group's scenario has its own rolls (CG23: a Turn Record Chart on each Map Group)
            rolling = set(board_view.get("map_groups") or [])
            for group in context["scenario_groups"]:
                group["board"] = _group_board(context["board"], group["id"], group["id"] in rolling)
    if panel == "results":
        from rules_engine.results import scenario_victory_conditions

        has_vc, vc_rule = scenario_victory_conditions(system)
        context["winner_allowed"] = has_vc
        context["no_winner_rule"] = vc_rule
        own = view["results"].get("own")
        context["results_own"] = own
        context["results_differ"] = _differ_rows(system, side, view["results"])
        lvp_sides, lvp_ref = lvp_recorders(system)
        context["lvp_ref"] = lvp_ref
        context["lvp_recorder_names"] = _side_list(system, lvp_sides or []).replace(" then ", " and ")
        context["results_rows"] = _results_rows(system, side, own, lvp_sides)
        if groups:
            context["result_forms"] = [_group_results_form(system, side, group, lvp_sides) for group in groups]
        else:
            context["result_forms"] = [{
                "map_group": None, "prefix": "", "suffix": "", "own": own, "rows": context["results_rows"],
                "differ": context["results_differ"], "opponent_submitted": view["results"].get("opponent_submitted"),
                "agreed": None}]
    return context


def _differ_rows(system: Any, side: str, results: dict[str, Any]) -> list[dict[str, Any]]:
    """The fields in which the two entries differ, each with what each side entered (view_for gives both entries
    only once both are in)."""
    entries = results.get("entries") or {}
    return [
        {"field": name, "label": RESULT_LABELS.get(name, name),
         "values": [{"side_name": engine.side_name(system, s), "you": s == side,
                     "text": _result_text(system, name, (entries.get(s) or {}).get(name))}
                    for s in engine.side_ids(system)]}
        for name in results.get("differ") or []
    ]


def _results_rows(system: Any, side: str, own: Any, lvp_sides: Any) -> list[dict[str, Any]]:
    """The results form's fields per side, filled with the side's own entry (if any)."""
    return [
        {"id": s, "name": engine.side_name(system, s), "you": s == side,
         "lvp_recorded": None if lvp_sides is None else s in lvp_sides,
         "cvp": (own or {}).get("cvp", {}).get(s), "attacked": (own or {}).get("attacked", {}).get(s),
         "lvp": (own or {}).get("lvp", {}).get(s), "leaders_lost": (own or {}).get("leaders_lost", {}).get(s),
         "units_lost": (own or {}).get("units_lost", {}).get(s),
         "objective_hex_ref": engine.objective_hex_ref(system),
         "objective_hexes": (own or {}).get("objective_hexes", {}).get(s)}
        for s in engine.side_ids(system)
    ]


def _group_results_form(system: Any, side: str, group: dict[str, Any], lvp_sides: Any) -> dict[str, Any]:
    """KGP 8.2: one Map Group's results form — the side's own entry, the differences once both are in, or the
    agreed results (view_for gives the opponent's entry only once both are in)."""
    own = group.get("own")
    agreed = group.get("agreed")
    return {"map_group": group["id"], "label": group["label"], "prefix": f"{group['id']}-", "suffix": f"-{group['id']}",
            "own": own, "rows": _results_rows(system, side, own, lvp_sides), "differ": _differ_rows(system, side, group),
            "opponent_submitted": group.get("opponent_submitted"), "agreed": agreed,
            "agreed_text": result_summary(system, agreed) if agreed else ""}


def lvp_recorders(system: Any) -> tuple[tuple[str, ...] | None, str | None]:
    """Which sides record LVP, from the data: the ``record-lvp`` step's ``recorder`` (a side id, or ``each-side``),
    and that step's ref (RR 2.503: the Canadian only, 2.5032). (None, None) when the data say nothing."""
    for step in getattr(system, "steps", ()) or ():
        if step.action != "record-lvp":
            continue
        recorder = step.params.get("recorder")
        sides = tuple(engine.side_ids(system))
        if isinstance(recorder, str) and recorder in sides:
            return (recorder,), step.ref
        return sides, step.ref
    return None, None


def _nothing_to_buy(rows: list[dict[str, Any]], ledger: Any, currency: str | None) -> bool:
    """True when the side has no points and no RG it may buy costs nothing (every quantity box would be refused)."""
    from decimal import Decimal, InvalidOperation

    if ledger is None or currency is None or ledger.balance(currency) > 0:
        return False
    for row in rows:
        if row["unavailable"]:
            continue
        for mode in row["modes"]:
            try:
                if Decimal(str(mode["cost"]).strip()) <= 0:
                    return False
            except InvalidOperation:
                return False  # a cost the app cannot read: let the player try
    return True


def _recon_context(system: Any, state: Any, step: Any, side: str, currency: str | None) -> dict[str, Any]:
    """The recon form (RR 2.521, PHD C5.36): its cost, extra points and — when the rule text lost the cost and no CG
    Card supplies it — the engine's own message saying so (the form then offers only "No Recon")."""
    from rules_engine import purchases, sequence

    params = step.params
    cost = params.get("cost")
    row = None
    try:
        row = purchases.recon_row(system, side)
    except Exception:
        row = None
    cost_text = str(cost) if isinstance(cost, int) else (row.cost.text if row is not None and not row.cost.missing else None)
    problem = None
    if not isinstance(cost, int) and row is None:
        try:  # the engine's message (it refuses before any roll); nothing is stored
            sequence.submit_recon(system, state, side, 0, engine._NoDice())  # noqa: SLF001
        except engine.DiceNotReady:
            problem = None
        except RulesError as error:
            problem = str(error)
    return {"cost": cost_text, "extra_max": params.get("extra_max"), "currency": params.get("currency", currency),
            "problem": problem, "ref": step.ref}




def _result_text(system: Any, name: str, value: Any) -> str:
    if name == "winner":
        return engine.side_name(system, value) if value else "none"
    if isinstance(value, dict):
        parts = []
        for s in engine.side_ids(system):
            if s in value:
                shown = ("yes" if value[s] else "no") if isinstance(value[s], bool) else str(value[s])
                parts.append(f"{engine.side_name(system, s)} {shown}")
        return ", ".join(parts) or "—"
    return "—" if value is None else str(value)


def _balance(ledger: Any, currency: str | None) -> str:
    from rules_engine.ledger import amount_text

    if ledger is None or currency is None:
        return "0"
    return amount_text(ledger.balance(currency))


def _has_chart(system: Any, side: str) -> bool:
    try:
        system.rg_chart(side)
    except Exception:
        return False
    return True
