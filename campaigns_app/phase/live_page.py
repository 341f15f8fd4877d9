"""What one seat's live page renders, from its side's SideView only (campaigns_app.door)."""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from django.urls import get_script_prefix, reverse

from campaigns_app import door, engine
from campaigns_app.campaigns.selectors import seeds_fixed
from campaigns_app.engine import System
from campaigns_app.live import presence_store
from campaigns_app.messages.selectors import conversation, latest_messages
from campaigns_app.models import Campaign, Seat
from campaigns_app.pace.selectors import pace_context
from campaigns_app.phase.context import phase_context
from campaigns_app.phase.history import RecentEvent, history, recent_records
from campaigns_app.phase.steps import step_label
from campaigns_app.records import end_selectors
from rules_engine.event_text import STEP_LABELS, cg_ended_text
from rules_engine.view import IDLE as IDLE_RESULT
from rules_engine.view import SideView
from rules_engine.vocabulary import Chit

HISTORY_LATEST = 5
# the campaign's own addresses the live page links and posts to (``{{ urls.NAME }}`` in its templates): reversed once
# per campaign and process, not once per {% url %} tag and render (each takes a URL resolver's work)
CAMPAIGN_URLS = (
    "campaign_detail", "campaign_fragments", "campaign_history", "campaign_invite", "campaign_message",
    "campaign_notes", "campaign_pace", "campaign_pace_answer", "campaign_pace_withdraw", "campaign_pause",
    "campaign_pause_answer", "campaign_rules", "chit_confirm", "chit_submit", "phase_board_roll", "phase_cg_end",
    "phase_declare", "phase_done", "phase_first", "phase_losses", "phase_order", "phase_recon",
    "phase_recon_location", "phase_repair", "phase_results", "phase_roll", "phase_scenario_roll", "phase_supply",
    "records_cg_end", "records_dice", "records_purchases", "records_roster", "records_verify", "seed_set",
)

# the names the live templates test that only a refused form's response (``extra``) or an {% include … with %} sets:
# present with the value a missing name renders as (a name missing from the context costs Django's lookup several
# exceptions each time it is read); ``extra`` and the includes' own values replace them
ABSENT: dict[str, Any] = {
    "action_error": None, "phase_errors": None, "phase_notice": None, "chit_error": None, "confirm_chit": None,
    "confirm_concede": None, "pace_error": None, "pace_error_form": None, "seed_error": None, "message_error": None,
    "board_kind": "", "board_count": "", "board_purpose": "", "board_map_group": None, "map_board": None,
    "run": False, "steps_only": False, "rolls_only": False, "map_group": None, "suffix": "",
}

# The live context's parts, each made only when a fragment to be rendered reads a name it gives (``live_context(only=
# …)``): by fragments.FRAGMENTS id, the fragments whose partials read the side's view (every name worded from it),
# ``phase``, ``history_latest``, ``conversation`` (the last two read from rows ``shared`` reads only for them).
# tests/campaigns_app/live/test_publish_scope.py reads the partials to hold these.
VIEW_READERS = frozenset({"campaign-status", "owes", "step-panel", "chit-panel", "step-records", "checklist",
                          "ledger-summary", "players", "dice-card"})
PHASE_READERS = frozenset({"step-panel", "chit-panel", "step-records", "checklist", "ledger-summary"})
HISTORY_READERS = frozenset({"history-latest"})
MESSAGES_READERS = frozenset({"messages"})

# the live page's fragments a phase form's response swaps in (fragments.FRAGMENTS keys)
PHASE_FRAGMENT_IDS = ("campaign-status", "owes", "step-panel", "chit-panel", "step-records", "checklist",
                      "ledger-summary", "players", "history-latest")


@dataclass(frozen=True)
class Shared:
    """What both seats' live pages read alike: the campaign (with its system row), its rules, its seats by side (with
    their users), the sides online now, the latest messages and the newest events. A service passes the rows it holds under the lock (``shared``)."""

    campaign: Campaign
    system: System
    seats: dict[str, Seat]
    online: set[str]
    messages: list[tuple[str, str, datetime]]
    recent: list[RecentEvent]  # the newest events, read once: each seat's latest history filters them for its side


def shared(campaign: Campaign, system: System | None = None, seats: list[Seat] | None = None,
           online: frozenset[str] | None = None, only: Collection[str] | None = None) -> Shared:
    """The shared part of the live context: ``system`` and ``seats`` read when not given, who is online read now
    (``online``: as the publishing caller just read it). ``only``: the fragments that will be rendered from it; the
    messages and the newest events are read only when one of them reads them (else empty: none of them shows them)."""
    found = seats if seats is not None else list(Seat.objects.filter(campaign=campaign).select_related("user"))
    for seat in found:
        seat.campaign = campaign  # templates reach the campaign through the seat: no query per seat
    online = presence_store.online(campaign.public_id) if online is None else online
    return Shared(campaign, system if system is not None else door.system_of(campaign),
                  {seat.side: seat for seat in found}, set(online),
                  latest_messages(campaign) if _wanted(MESSAGES_READERS, only) else [],
                  recent_records(campaign) if _wanted(HISTORY_READERS, only) else [])


def live_context(seat: Seat, common: Shared | None = None, only: Collection[str] | None = None) -> dict[str, Any]:
    """Everything the seat's live page renders (its own side's view only): fresh from the database, or from the rows
    ``common`` holds (a service publishing both seats' pages under the campaign row lock). ``only``: the fragments
    (fragments.FRAGMENTS ids) that will be rendered from it; the parts none of them reads are not made."""
    if common is None:
        common = shared(Campaign.objects.select_related("system").defer("system__definition").get(pk=seat.campaign_id))
    campaign, system, seats = common.campaign, common.system, common.seats
    opponent_side = engine.other_side(system, seat.side)
    context = {
        **ABSENT,
        "campaign": campaign,
        "urls": campaign_urls(campaign.public_id),
        "seat": seat,
        "system": system,
        "side_name": engine.side_name(system, seat.side),
        "opponent_name": engine.side_name(system, opponent_side),
        "opponent_joined": opponent_side in seats,
        "seeds_fixed": seeds_fixed(campaign, len(seats)),
        "phase_oob": ",".join(f"#{fragment_id}" for fragment_id in PHASE_FRAGMENT_IDS),
    }
    if _wanted(MESSAGES_READERS, only):
        context["conversation"] = conversation(common.messages, system, seat.side)
    side_view = door.side_view(campaign, seat.side) if _wanted(VIEW_READERS, only) else None
    if side_view is not None:
        context.update(_view_part(seat, common, side_view))
        if _wanted(PHASE_READERS, only):
            context["phase"] = phase_context(campaign, seat, system, side_view, len(seats) == 2)
    if _wanted(HISTORY_READERS, only):
        context["history_latest"] = history(campaign, seat, latest=HISTORY_LATEST, recent=common.recent,
                                            ended=side_view.ended if side_view is not None else None)
    return context


def _wanted(readers: frozenset[str], only: Collection[str] | None) -> bool:
    """Whether a part read by ``readers`` is made for the fragments ``only`` (None: every fragment)."""
    return only is None or not readers.isdisjoint(only)


def _view_part(seat: Seat, common: Shared, side_view: SideView) -> dict[str, Any]:
    """The names worded from the side's view (VIEW_READERS read them)."""
    campaign, system, seats, online = common.campaign, common.system, common.seats, common.online
    view: Any = side_view.json  # the JSON view (rules_engine.view.view_json), read key by key
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
    if initiative is not None and side_view.started:
        initiative, chit_early = _early_chits(system, side_view, initiative)
        if chit_early and len(seats) == 2:
            due = f"choose your Initiative chit (chosen at {initiative['chosen_at']}, revealed at {initiative['ref']})"
            if side_view.chits.own is None:
                my_owes.insert(0, due)
            if not side_view.chits.opponent_has_chosen:
                opponent_owes.insert(0, due)
    if len(seats) == 2 and side_view.started:
        my_owes = _need_words(door.needs(side_view), my_owes)
        opponent_owes = _need_words([door.need_fields(n) for n in side_view.opponent_named_needs], opponent_owes)
    end_question = None
    if len(seats) == 2 and side_view.started and not view.get("ended"):
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
    return {
        "view": view,
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
        "revealed": revealed,
        "end_question": end_question,
        "cg_end_text": cg_ended_text(system, view["cg_end"]) if view.get("ended") and view.get("cg_end") else "",
        "can_mark_done": len(seats) == 2 and side_view.can_mark_done,
        "pace": pace_context(campaign, system, seat.side),
        "ended": view.get("ended", False),
    }


def campaign_urls(public_id: str) -> MappingProxyType[str, str]:
    """The addresses of CAMPAIGN_URLS for the campaign ``public_id`` (as ``{% url NAME public_id %}`` gives them)."""
    return _campaign_urls(public_id, get_script_prefix())


@lru_cache(maxsize=1024)
def _campaign_urls(public_id: str, prefix: str) -> MappingProxyType[str, str]:
    """Cached per script prefix too: reverse() puts the request's prefix in front of every address."""
    return MappingProxyType({name: reverse(name, args=[public_id]) for name in CAMPAIGN_URLS})


def _idle_still_shown(last_round: dict[str, Any] | None, view: dict[str, Any]) -> bool:
    """RR 2.522 / PL 2.4 / PHD C5.37: an Idle Date (Idle Firefight, Lull) sends both sides into the idle loop of the next
    date at once; its result stays on the page through that loop, until the players move on to the next reveal."""
    return bool(last_round and last_round["result"] == IDLE_RESULT and not view.get("ended")
                and last_round["date_index"] < view["date"]["index"])


def _round_label(system: System, revealed: dict[str, Any]) -> str:
    """The matrix result as a player reads it; an Idle result says why: "Idle Date — both chose Idle"."""
    label = str(revealed["label"])
    chits = {str(chit) for chit in (revealed.get("chits") or {}).values()}
    if revealed["result"] == IDLE_RESULT and chits == {"idle"}:
        return f"{label} — both chose Idle"
    return label


def _need_words(side_needs: list[dict[str, Any]], items: list[str]) -> list[str]:
    """"2.512 …: supply san" (the engine names need ids) → "2.512 …: type your SAN": each id by the need's own words.
    Only ids already in the item are replaced, so nothing the viewer may not see is added."""
    found = {str(n["id"]): n for n in side_needs}
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
    return re.sub(r"\byour\b", "its", item)


def _early_chits(system: System, view: SideView, initiative: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The chit panel where the system seals the chits before the reveal (PHD: chosen at C5.31, revealed at C5.37):
    open at the choosing step, and showing the sealed chit until the reveal. Returns (initiative view, choosing now)."""
    rule = system.initiative
    chosen_at = getattr(rule, "chosen_at", None)
    if not chosen_at:
        return initiative, False
    early = view.chits.choosing_early
    shown = dict(initiative, chosen_at=chosen_at)
    if early:
        shown.update(open=True, allowed=[str(chit) for chit in Chit if view.chit_refusal(chit) is None])
    elif view.chits.any_sealed and view.step != "initiative":
        shown.update(open=True, allowed=[])  # sealed before the reveal: the panel shows "sealed" / "has chosen"
    return shown, early
