"""What the board offers and records: where rolls are made, the dice kinds and scenario rolls offered, the Map Group
a roll is for (KGP 8.2), a player's purpose text and the log of rolls kept with the state (rules_engine.board)."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine.errors import SubmissionError
from rules_engine.events import JSON, Event
from rules_engine.map_groups import in_play, pick
from rules_engine.model import MapGroup, ScenarioRoll, Step
from rules_engine.phase.program import ON_BOARD, settle, step_at, step_kind
from rules_engine.state import INITIAL_SCENARIO, PHASE, SCENARIO, CampaignState, SystemLike, check_side
from rules_engine.vocabulary import DiceKind

PURPOSE_MAX = 80  # characters of a purpose typed by a player
COUNT_MAX = 12  # rolls of one kind at once ("3 × DR" for three Encircled units)
LOG_SIZE = 12  # rolls kept with the state for the step / scenario panel (per Map Group's scenario)
THRESHOLD_RANGE = (0, 20)  # a typed threshold (a circled number on a turn track)
TURN_MAX = 99
SCENARIO_STEPS = (INITIAL_SCENARIO, SCENARIO)
OPS: Mapping[str, tuple[str, str]] = {"<=": ("≤", ">"), "<": ("<", "≥"), ">=": ("≥", "<"), ">": (">", "≤")}

Events = tuple[Event, ...]


def step_board_kinds(system: SystemLike, step: Step) -> tuple[DiceKind, ...]:
    """The dice kinds a step offers for public rolls at the board (module docstring)."""
    if step.board_rolls is not None:
        return step.board_rolls
    if step.secret != "none":
        return ()
    if step_kind(system, step) == ON_BOARD or step.action == "free-rolls":
        return (DiceKind.DR, DiceKind.dr)
    return ()


def where(state: CampaignState) -> str:
    """The entry rolls are made at now: the phase step's ref, or the spine step ("scenario", "initial-scenario")."""
    return str(state.phase_ref if state.step == PHASE else state.step)


def board_kinds(system: SystemLike, state: CampaignState) -> tuple[DiceKind, ...]:
    """The dice kinds offered now (empty: no roll at the board here)."""
    state = settle(system, state)
    if state.ended:
        return ()
    if state.step in SCENARIO_STEPS:
        return (DiceKind.DR, DiceKind.dr)
    if state.step != PHASE:
        return ()
    step = step_at(system, state)
    return step_board_kinds(system, step) if step is not None else ()


def is_night(system: SystemLike, state: CampaignState) -> bool:
    """Whether the current date is a night scenario (its calendar entry says so)."""
    if 0 <= state.date_index < len(system.calendar):
        return system.calendar[state.date_index].night
    return False


def scenario_rolls(system: SystemLike, state: CampaignState) -> tuple[ScenarioRoll, ...]:
    """The scenario rolls offered now: the system's ``scenario_rolls`` while a scenario is played (night-only ones in
    a night scenario only)."""
    state = settle(system, state)
    if state.ended or state.step not in SCENARIO_STEPS:
        return ()
    night = is_night(system, state)
    return tuple(r for r in system.scenario_rolls if night or not r.night_only)


def open_map_groups(system: SystemLike, state: CampaignState) -> tuple[MapGroup, ...]:
    """KGP 8.2: the Map Groups whose scenario rolls are made for now — in play while a scenario is played, and not
    marked finished by both sides (empty off a scenario, or in a system without Map Groups)."""
    state = settle(system, state)
    if state.ended or state.step not in SCENARIO_STEPS:
        return ()
    return tuple(g for g in in_play(system, state) if not state.map_done.get(g.id, frozenset()) >= set(state.sides))


def scenario_group(system: SystemLike, state: CampaignState, map_group: object) -> MapGroup | None:
    """KGP 8.2: the Map Group whose scenario a roll is for — the one named, or the only one in play (SubmissionError
    naming those in play); None where no scenario is played per Map Group (a Map Group named there is refused)."""
    state = settle(system, state)
    groups = in_play(system, state) if state.step in SCENARIO_STEPS else ()
    wanted = None if map_group is None or map_group == "" else map_group
    if not groups:
        if wanted is not None:
            raise SubmissionError(f"No scenario is played per Map Group here; roll without naming one "
                                  f"(got {wanted!r}).")
        return None
    if wanted is not None and not isinstance(wanted, str):
        raise SubmissionError(f"A Map Group is named by its id ({', '.join(g.id for g in groups)}; got {wanted!r}).")
    group = pick(groups, wanted, state.date_id, "roll for")
    if group not in open_map_groups(system, state):
        raise SubmissionError(f"The scenario on Map Group {group.id} is over: both sides marked it finished "
                              f"({state.date_id}); its rolls are closed.", group.ref)
    return group


def clean_purpose(text: object) -> str:
    """A player's purpose text as recorded: spaces collapsed; SubmissionError saying what is allowed."""
    if not isinstance(text, str) or not text.strip():
        raise SubmissionError(f"Say what the roll is for (1 to {PURPOSE_MAX} characters), e.g. “1TC Encircled 4-6-7 "
                              "in 23Q5”.")
    cleaned = " ".join(text.split())
    if len(cleaned) > PURPOSE_MAX:
        raise SubmissionError(f"The purpose is {len(cleaned)} characters long; at most {PURPOSE_MAX} are allowed.")
    if not cleaned.isprintable():
        raise SubmissionError("The purpose contains a character that cannot be printed; use letters, digits, "
                              "punctuation and spaces only.")
    return cleaned


def check_where(system: SystemLike, state: CampaignState, side: str, at: str) -> None:
    """SubmissionError unless ``side`` may roll at ``at`` now (the current step or scenario)."""
    check_side(system, side)
    if state.ended:
        raise SubmissionError("The CG has ended; no more rolls are made.")
    now = where(state)
    if at != now:
        raise SubmissionError(f"The rolls were asked for at {at!r}, which is not the current step (now: {now}).")

def on_group(group: MapGroup | None) -> str:
    """" on Map Group X" for a roll made for one Map Group's scenario (KGP 8.2), else nothing."""
    return f" on Map Group {group.id}" if group is not None else ""


def board_label(system: SystemLike, state: CampaignState, group: MapGroup | None = None) -> str:
    """Where a board roll is made, as its purpose starts ("Scenario on Map Group A", a step ref)."""
    if state.step == INITIAL_SCENARIO:
        return f"Initial Scenario{on_group(group)}"
    if state.step == SCENARIO:
        return f"Scenario{on_group(group)}"
    return str(state.phase_ref)


def trimmed(log: Events) -> Events:
    """The latest LOG_SIZE rolls of the step, or of each Map Group's scenario (KGP 8.2), oldest first."""
    seen: dict[str, int] = {}
    kept: list[Event] = []
    for event in reversed(log):
        key = str(event.payload.get("map_group") or "")
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= LOG_SIZE:
            kept.append(event)
    return tuple(reversed(kept))


def logged(state: CampaignState, side: str, events: Events) -> CampaignState:
    """The state with ``events`` kept in the board log and counted for ``side``."""
    counts = dict(state.board_counts)
    counts[side] = counts.get(side, 0) + len(events)
    return state.evolve(board_log=trimmed(state.board_log + events), board_counts=counts)


def log_json(state: CampaignState) -> list[JSON]:
    """The rolls made at the board at the current step / scenario, oldest first (public)."""
    return [e.to_json() for e in state.board_log]
