"""A step as a player reads it: its label, its kind (automatic, secret order, on the board …) and the checklist."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from campaigns_app import engine
from campaigns_app.engine import System
from rules_engine.event_text import STEP_LABELS
from rules_engine.step_kinds import INITIATIVE_ACTIONS


def step_label(system: System, view: dict[str, Any]) -> str:
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
    return str(label)


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


def side_list(system: System, sides: Any) -> str:
    names = [engine.side_name(system, side) for side in sides or []]
    return " then ".join(names)


SECRET_KIND_LABELS = {
    "automatic": ("Automatic · secret", "The app rolls for each side in secret; only that side sees its result."),
    "assisted": ("Assisted · secret", "Play it on the board; the app rolls on the printed table in secret when you "
                 "ask — only you see your result."),
}


def step_kind_label(system: System, entry: dict[str, Any], initial_pass: bool = False,
                    steps: dict[str, Any] | None = None) -> tuple[str, str, str]:
    """(label, help, css kind) of a checklist step, from the data: sequence.step_kind, then what the step's
    ``secret``/``action`` and the system's initiative say (a sealed chit is a secret simultaneous choice, never
    "on the board"; an initiative resolved from what was bought is done by the app)."""
    kind = str(entry.get("kind") or "")
    step = (steps.get(str(entry.get("ref"))) if steps is not None
            else next((s for s in system.steps if s.ref == entry.get("ref")), None))
    initiative = system.initiative
    chits = initiative is not None and initiative.mode == "chit"
    secret = str(entry.get("secret") or (step.secret if step is not None else "") or "none")
    if initial_pass and step is not None and step.action in INITIATIVE_ACTIONS:
        return "Automatic", "The rules assign the Initial Scenario's roles; the app records them.", "automatic"
    if chits and initiative is not None and initiative.ref == entry.get("ref"):
        if initiative.chosen_at:
            return ("Chits revealed", f"The chits sealed at {initiative.chosen_at} are revealed together and the "
                    "app applies the result.", "chits")
        return "Sealed chits", "Both sides choose a chit in secret; they are revealed together.", "chits"
    if chits and initiative is not None and initiative.chosen_at == entry.get("ref"):
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


def steps_by_ref(system: System) -> dict[str, Any]:
    """The system's steps by ref (the first of a ref, as a scan finds it): one scan per checklist, not one per item."""
    found: dict[str, Any] = {}
    for step in system.steps:
        found.setdefault(str(step.ref), step)
    return found


def checklist(system: System, view: dict[str, Any], side: str) -> list[dict[str, Any]]:
    items = []
    steps = steps_by_ref(system)
    results_pending = any(item["ref"] == "@results" and item.get("status") != "done" for item in view["phase"]["checklist"])
    for item in view["phase"]["checklist"]:
        entry = dict(item)
        if entry["kind"] == "mark":
            label, help_text = MARK_KIND.get(entry["ref"], ("", ""))
            entry.update(number="", kind_label=label, kind_help=help_text, kind_class="mark")
            if entry["ref"] in ("@scenario", "@initial-scenario"):  # steps played during it (PL 2.8, 2.9)
                during = [f"{s.ref} {s.name}" for s in system.steps if s.in_scenario]
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
            label, help_text, kind_class = step_kind_label(system, entry, view["phase"].get("pass") == "initial", steps)
            entry["kind"] = kind_class
            entry.update(number=entry["ref"], kind_label=label, kind_help=help_text, kind_class=entry["kind"])
            order = entry.get("order")
            known = [s for s in order or [] if s in view["side_names"]]
            if entry.get("sides") == "ordered" and order and len(known) == len(order):
                entry["order_text"] = "In order: " + side_list(system, known)
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
        items.append(_shown(entry))
    return items


STATUS_SHOWN = {"done": ("✓", "done"), "current": ("▸", "current step")}  # status → (mark, words); else ("", "to come")


def _shown(entry: dict[str, Any]) -> dict[str, Any]:
    """What the checklist template prints of an item, worked out here rather than by {% if %} chains per item: its
    mark and status words, and every key it tests present (a dict miss costs Django's lookup two exceptions and a
    dir()); where both sides' progress is shown, each side's word ("finished" / "to do", or the item's own
    ``done_words``)."""
    entry["current"] = entry.get("status") == "current"
    entry["mark"], entry["status_words"] = STATUS_SHOWN.get(str(entry.get("status")), ("", "to come"))
    entry.setdefault("order_text", "")
    entry.setdefault("show_sides", False)
    if entry["show_sides"]:
        done_word, todo_word = entry.get("done_words") or ("", "")
        done_word, todo_word = done_word or "finished", todo_word or "to do"
        entry["you_words"] = done_word if entry.get("you_done") else todo_word
        entry["opponent_words"] = done_word if entry.get("opponent_done") else todo_word
    entry["line"] = ChecklistLine(**{name: entry.get(name, "") for name in LINE_FIELDS})
    return entry


@dataclass(frozen=True)
class ChecklistLine:
    """What the checklist prints of one item, and nothing else (``checklist_item`` in campaigns/phase/live.html reads
    these alone, with the opponent's name): hashable, so an item whose words did not change is not rendered again
    (templatetags/rendered_once.py) — a reveal re-renders each seat's checklist, about 40 items."""

    status: str
    kind_class: str
    current: bool
    mark: str
    number: str
    name: str
    status_words: str
    kind_label: str
    kind_help: str
    order_text: str
    show_sides: bool
    you_words: str
    opponent_words: str


LINE_FIELDS = tuple(ChecklistLine.__dataclass_fields__)
