"""Scenario results entry (issue 4 item 5): each side enters the outcome; equal entries are confirmed, different ones
block the campaign (a public "results differ" event names the fields) until the sides agree.

``ScenarioResult.cvp[side]`` is the Casualty VP *amassed by* that side (so CVP suffered by a side = the opponent's).
RR 2.5231: "individual Scenarios do not have Victory Conditions" — where a special rule says
``scenario_victory_conditions: false`` no winner may be entered. RR 2.5032: ``lvp`` holds the Current-LVP Total of the
recording side(s); the CG-LVP Total is kept by the 2.503 step (2.5033: current + the preceding date's CG-LVP).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event, EventKind
from rules_engine.map_groups import combine, in_play, pick
from rules_engine.model import MapGroup
from rules_engine.phase.program import move_on
from rules_engine.phase.tracks import main_currency, roster_update
from rules_engine.progress import Progress
from rules_engine.state import RESULTS, CampaignState, DateRecord, ScenarioResult, SystemLike, check_side, side_ids
from rules_engine.vocabulary import Chit, SideId, Visibility

__all__ = [
    "differing_fields", "result_from_json", "scenario_victory_conditions", "submit_results", "validate_results",
]


def scenario_victory_conditions(system: SystemLike) -> tuple[bool, str | None]:
    """(whether scenarios have a winner, the rule that says they do not)."""
    for rule in system.special_rules:
        if rule.params.get("scenario_victory_conditions") is False:
            return False, str(rule.ref)
    return True, None


def result_from_json(data: Mapping[str, JSON]) -> ScenarioResult:
    """A results entry from form/JSON data (SubmissionError naming the bad field)."""
    try:
        return ScenarioResult.from_json(data)
    except (ValueError, KeyError) as error:
        raise SubmissionError(f"The results entry is malformed: {error}") from None


def _counts(system: SystemLike, name: str, values: Mapping[SideId, int], *, every_side: bool) -> None:
    sides = side_ids(system)
    for side, value in values.items():
        if side not in sides:
            raise SubmissionError(f"{name}: unknown side {side!r} (allowed: {', '.join(sides)})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise SubmissionError(f"{name} for {side} must be a whole number of 0 or more (got {value!r})")
    if every_side and set(values) != set(sides):
        missing = [s for s in sides if s not in values]
        raise SubmissionError(f"{name}: enter a value for each side (missing: {', '.join(missing)})")


def validate_results(system: SystemLike, state: CampaignState, side: SideId, entry: ScenarioResult) -> None:
    """SubmissionError (each problem named, with what is allowed) unless ``side`` may enter ``entry`` now."""
    check_side(system, side)
    if state.step != RESULTS:
        raise SubmissionError(f"Scenario results are entered after a scenario is played; {state.date_id} is at step {state.step!r}.")
    _counts(system, "CVP", entry.cvp, every_side=True)
    _counts(system, "LVP", entry.lvp, every_side=False)
    _counts(system, "Leaders lost", entry.leaders_lost, every_side=False)
    _counts(system, "Units lost", entry.units_lost, every_side=False)
    _counts(system, "Objective Hexes Controlled", entry.objective_hexes, every_side=False)
    sides = side_ids(system)
    if set(entry.attacked) != set(sides):
        raise SubmissionError(f"Attacked: say for each side whether it attacked (sides: {', '.join(sides)})")
    for key, value in entry.attacked.items():
        if not isinstance(value, bool):
            raise SubmissionError(f"Attacked for {key} must be yes or no (got {value!r})")
    has_vc, rule = scenario_victory_conditions(system)
    if entry.winner is not None:
        if not has_vc:
            raise SubmissionError(
                f"Individual scenarios of {system.id} have no Victory Conditions ({rule}); leave the winner empty.", rule
            )
        if entry.winner not in sides:
            raise SubmissionError(f"Winner: unknown side {entry.winner!r} (allowed: {', '.join(sides)}, or none)")


def differing_fields(results: Mapping[SideId, ScenarioResult]) -> tuple[str, ...]:
    """The fields in which the two entries differ (empty when they agree)."""
    entries = list(results.values())
    if len(entries) != 2:
        return ()
    first, second = (e.to_json() for e in entries)
    return tuple(name for name in ScenarioResult.FIELDS if first.get(name) != second.get(name))


def _record(state: CampaignState, result: ScenarioResult, map_results: Mapping[str, ScenarioResult] | None = None
            ) -> DateRecord:
    last = state.last_round if state.last_round and state.last_round.date_index == state.date_index else None
    choices: dict[SideId, str] = {}
    if last is not None and last.chits:
        choices = {s: str(c) for s, c in last.chits.items()}
    elif last is not None and last.moves_first:
        choices = {s: str(Chit.ATTACK if s == last.moves_first else Chit.IDLE) for s in state.sides}
    else:
        choices = {s: str(Chit.ATTACK if result.attacked.get(s) else Chit.IDLE) for s in state.sides}
    kind = "initial" if state.initial else "scenario"
    return DateRecord(
        state.date_index, state.date_id, kind, last.label if last else kind, choices,
        last.setup_first if last else None, last.moves_first if last else None, result, map_results or {},
    )


def submit_results(
    system: SystemLike, state: CampaignState, side: SideId, entry: ScenarioResult, map_group: str | None = None
) -> Progress:
    """Enter (or re-enter) a side's results; the second entry confirms them when equal, else reports the difference.
    With Map Groups in play (KGP 8.2) the entry is for ``map_group``'s scenario (the only one may be left out)."""
    groups = in_play(system, state)
    if groups:
        return _submit_map_group(system, state, side, entry, map_group, groups)
    if map_group is not None:
        raise SubmissionError(f"{system.id} has no Map Groups: enter the results without one (got {map_group!r})")
    validate_results(system, state, side, entry)
    where: dict[str, JSON] = {"date": state.date_id}
    results = {**state.results, side: entry}
    events = _entry_events(side, entry, where)
    new = state.evolve(results=results)
    if len(results) < 2:
        return Progress(new, tuple(events))
    differ = _differ_event(results, where)
    if differ is not None:
        return Progress(new, (*events, differ))
    new, confirmed = _close_date(system, state, new.evolve(results={}), _record(state, entry))
    return Progress(new, (*events, confirmed))


def _entry_events(side: SideId, entry: ScenarioResult, where: Mapping[str, JSON]) -> list[Event]:
    """A side's entry: in full for itself, "entered" for both."""
    return [
        Event(EventKind.RESULTS_ENTERED, Visibility.SIDE, side, {**where, "side": side, "entry": entry.to_json()}),
        Event(EventKind.RESULTS_SUBMITTED, Visibility.PUBLIC, side, {**where, "side": side}),
    ]


def _differ_event(entries: Mapping[SideId, ScenarioResult], where: Mapping[str, JSON]) -> Event | None:
    """Both entries in and different: the public "results differ" event naming the fields (None when they agree)."""
    fields = differing_fields(entries)
    if not fields:
        return None
    shown: dict[str, JSON] = {s: {name: r.to_json()[name] for name in fields} for s, r in entries.items()}
    return Event(EventKind.RESULTS_DIFFER, Visibility.PUBLIC, None, {**where, "fields": list(fields), "entries": shown})


def _close_date(
    system: SystemLike, state: CampaignState, new: CampaignState, record: DateRecord, **extra: JSON
) -> tuple[CampaignState, Event]:
    """The date's results are confirmed: its record goes into the history, each side's CG Roster line gets the CVP
    amassed/suffered and its Initiative, and the phase moves on."""
    result = record.result
    assert result is not None
    new = new.evolve(history=state.history + (record,))
    tracks = {s: dict(v) for s, v in new.tracks.items()}
    # the Initial Scenario has no Initiative chit (its roles come from the scenario): the roster column stays empty
    chosen = {} if record.kind == "initial" and record.label == "initial" else dict(record.choices)
    for s in state.sides:
        lvp = result.lvp.get(s)
        more: dict[str, object] = {"lvp_current": lvp} if lvp is not None else {}
        new = roster_update(new, s, state.date_id, main_currency(system), cvp_amassed=result.cvp.get(s),
                            cvp_suffered=result.cvp.get(state.other(s)), initiative=chosen.get(s), **more)
        if lvp is not None:  # the LVP typed in the results: the side's Current-LVP Total (a 2.5032-style step may add)
            tracks.setdefault(s, {})["lvp"] = lvp
    new = new.evolve(tracks=tracks) if tracks != {s: dict(v) for s, v in new.tracks.items()} else new
    event = Event(EventKind.RESULTS_CONFIRMED, Visibility.PUBLIC, None, {
        "date": state.date_id, "kind": record.kind, "result": result.to_json(), **extra})
    return move_on(system, new), event


def _submit_map_group(
    system: SystemLike, state: CampaignState, side: SideId, entry: ScenarioResult, wanted: str | None,
    groups: Sequence[MapGroup],
) -> Progress:
    """KGP 8.2: a side's entry for one Map Group's scenario. Equal entries confirm that Map Group; different ones block
    it (and so the CG Date) until the sides agree. The date's record is written when every Map Group is confirmed."""
    validate_results(system, state, side, entry)
    group = pick(groups, wanted, state.date_id, "enter the results of")
    if group.id in state.map_agreed:
        raise SubmissionError(
            f"The results of the scenario on {group.id} ({state.date_id}) are already confirmed by both sides.", group.ref)
    entries = {**state.map_results.get(group.id, {}), side: entry}
    where: dict[str, JSON] = {"date": state.date_id, "map_group": group.id, "sections": group.sections}
    events = _entry_events(side, entry, where)
    new = state.evolve(map_results={**state.map_results, group.id: entries})
    if len(entries) < 2:
        return Progress(new, tuple(events))
    differ = _differ_event(entries, where)
    if differ is not None:
        return Progress(new, (*events, differ))
    agreed = {**state.map_agreed, group.id: entry}
    new = new.evolve(map_agreed=agreed)
    events.append(Event(EventKind.MAP_GROUP_RESULTS_CONFIRMED, Visibility.PUBLIC, None, {**where, "result": entry.to_json()}))
    if any(g.id not in agreed for g in groups):
        return Progress(new, tuple(events))
    combined, lvp_tracks = combine(groups, agreed, state.sides, state.tracks)
    by_group = {g.id: agreed[g.id] for g in groups}
    tracks = {s: {**state.tracks.get(s, {}), **lvp_tracks.get(s, {})} for s in state.sides}
    new, confirmed = _close_date(system, state, new.evolve(tracks=tracks), _record(state, combined, by_group),
                                 map_results=[{"map_group": g, "result": r.to_json()} for g, r in by_group.items()])
    return Progress(new, (*events, confirmed))
