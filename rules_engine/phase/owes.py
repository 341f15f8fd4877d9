"""What a side owes now and the checklist of the current pass (public wording)."""
from __future__ import annotations

from rules_engine import map_groups, patrols
from rules_engine.events import JSON
from rules_engine.model import MapGroup
from rules_engine.phase.needs import needs, open_pending, table_need
from rules_engine.phase.order import order_chooser, resolve_order, waiting_for
from rules_engine.phase.program import (
    ASSISTED,
    AUTOMATIC,
    INITIAL_MARK,
    INPUT,
    MARKS,
    NEW_DATE,
    RESULTS_MARK,
    SCENARIO_MARK,
    current_kind,
    current_program,
    find_step,
    settle,
    step_at,
    step_kind,
    step_label,
)
from rules_engine.results import differing_fields
from rules_engine.state import (
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    WAITING,
    CampaignState,
    SystemLike,
    check_side,
)


def owes(system: SystemLike, state: CampaignState, side: str) -> tuple[str, ...]:
    """What ``side`` must do now (public wording: never a choice, a point or a purchase)."""
    check_side(system, side)
    state = settle(system, state)
    if state.ended or state.step == WAITING:
        return ()  # waiting for the second player: nothing is owed yet
    if state.step != PHASE:  # the scenario, its results, the chits; a step follows below
        groups = map_groups.in_play(system, state) if state.step in (INITIAL_SCENARIO, SCENARIO, RESULTS) else ()
        if state.step in (INITIAL_SCENARIO, SCENARIO) and groups:
            what = "the Initial Scenario" if state.step == INITIAL_SCENARIO else "the scenario"
            return tuple(f"mark {what} on {g.id} finished" for g in groups if side not in state.map_done.get(g.id, ()))
        if state.step == INITIAL_SCENARIO:
            return () if side in state.done else ("mark the Initial Scenario finished",)
        if state.step == SCENARIO:
            return () if side in state.done else ("mark the scenario finished",)
        if state.step == RESULTS and groups:
            owed: list[str] = []
            for group in groups:
                entries = state.map_results.get(group.id, {})
                if group.id in state.map_agreed:
                    continue
                if side not in entries:
                    owed.append(f"enter the scenario results on {group.id}")
                elif len(entries) == 2 and differing_fields(entries):
                    owed.append(f"agree the scenario results on {group.id} (the entries differ)")
            return tuple(owed)
        if state.step == RESULTS:
            if side not in state.results:
                return ("enter the scenario results",)
            if len(state.results) == 2 and differing_fields(state.results):
                return ("agree the scenario results (the entries differ)",)
            return ()
        if state.step == INITIATIVE:
            if side in state.sealed:
                return ()
            ref = system.initiative.ref if system.initiative else ""
            return (f"choose your Initiative chit ({ref})" if ref else "choose your Initiative chit",)
    step = step_at(system, state)
    if step is None:
        return ()
    kind = current_kind(system, state, step)
    if kind != AUTOMATIC:  # what ``needs`` gives at a step the app does not resolve: a lost value a roll fell on
        pending = open_pending(state, side)
        if pending is not None:
            return (f"{step_label(step)}: {table_need(system, state, side, pending).text}",)
    else:
        wanted = needs(system, state, side)
        lost = [n for n in wanted if n.kind == "table-value"]
        if lost:
            return (f"{step_label(step)}: {lost[0].text}",)
        asked = dict.fromkeys(n.id if n.kind == "track" else "the answers for your secret rolls"
                              if n.kind == "questions" else "an answer" for n in wanted)  # never an internal key
        return (f"{step_label(step)}: supply {', '.join(asked)}",) if wanted else ()
    if side in state.done or waiting_for(system, state, step, side) is not None:
        return ()
    if patrols.needs_choice(state, step):
        chooser = order_chooser(system, state, step)
        if patrols.chosen_first(state, chooser) is None:
            return (f"{step_label(step)}: choose which side resolves first",) if chooser == side else ()
    if kind == INPUT:
        return (f"{step_label(step)}: submit your order (or finish with none)",)
    if kind == ASSISTED:
        return (f"{step_label(step)}: roll as needed, then mark it done",)
    return (f"{step_label(step)}: do it on the board, then mark it done",)


def checklist(system: SystemLike, state: CampaignState) -> list[dict[str, JSON]]:
    """The current pass as a checklist: each entry with its kind, sides, order and status (done/current/todo)."""
    state = settle(system, state)
    if state.ended or state.pass_kind is None:
        return []
    entries = current_program(system, state)
    here = entries.index(state.phase_ref) if state.phase_ref in entries else -1
    names = {RESULTS_MARK: "Scenario results", NEW_DATE: "New date", SCENARIO_MARK: "Scenario",
             INITIAL_MARK: "Initial Scenario"}
    items: list[dict[str, JSON]] = []
    turn = entries.index(NEW_DATE) if NEW_DATE in entries else len(entries)
    for i, entry in enumerate(entries):
        status = "done" if i < here else "current" if i == here else "todo"
        if entry in MARKS:
            # a scenario (or its results) per Map Group in play on the date the mark belongs to (KGP 8.2)
            index = state.date_index + (1 if i > turn >= here else -1 if here > turn > i else 0)
            groups = map_groups.on_date(system, index) if entry != NEW_DATE else ()
            if not groups:
                items.append({"ref": entry, "name": names[entry], "kind": "mark", "status": status})
            for group in groups:
                items.append(_group_item(state, entry, names[entry], group, status))
            continue
        step = find_step(system, entry)
        order = resolve_order(system, state, step) if step.sides == "ordered" else None
        items.append({
            "ref": step.ref, "name": step.name,
            "kind": current_kind(system, state, step) if status == "current" else step_kind(system, step), "status": status,
            "sides": step.sides, "order": list(order) if order else (list(step.order) or None),
            "secret": step.secret, "tables": list(step.tables), "note": step.note,
            "done": {s: (s in state.done) if status == "current" else status == "done" for s in state.sides},
        })
    return items


def _group_item(state: CampaignState, entry: str, name: str, group: MapGroup, status: str) -> dict[str, JSON]:
    """One checklist entry of a scenario mark for one Map Group (KGP 8.2): its id and Map Sections, its own status."""
    item: dict[str, JSON] = {"ref": entry, "name": f"{name} on Map Group {group.label}", "kind": "mark",
                             "status": status, "map_group": group.id, "sections": group.sections}
    if status != "current":
        return item
    if entry == RESULTS_MARK:
        entries = state.map_results.get(group.id, {})
        agreed = group.id in state.map_agreed
        item["status"] = "done" if agreed else "current"
        item["done"] = {s: agreed or s in entries for s in state.sides}
        item["agreed"] = agreed
        item["differ"] = not agreed and len(entries) == 2 and bool(differing_fields(entries))
    else:
        marked = state.map_done.get(group.id, frozenset())
        item["status"] = "done" if marked >= set(state.sides) else "current"
        item["done"] = {s: s in marked for s in state.sides}
    return item
