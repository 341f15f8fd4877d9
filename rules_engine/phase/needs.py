"""What a side must supply before an automatic step goes on: a lost table value, its SAN/ELR/LVP, a DRM fact."""
from __future__ import annotations

from collections.abc import Mapping

from rules_engine import leader_generation, roll_questions
from rules_engine.errors import RulesError, SubmissionError
from rules_engine.events import JSON
from rules_engine.lost_values import (
    LABEL,
    Need,
    column_shape,
    examples,
    need_id,
    split_key,
    with_cells,
)
from rules_engine.model import Step
from rules_engine.phase.facts import applies, facts_for
from rules_engine.phase.program import AUTOMATIC, MARKS, current_kind, find_step, settle, step_at
from rules_engine.phase.rolling import step_table, table_column
from rules_engine.phase.tracks import ledger_of
from rules_engine.state import (
    PHASE,
    CampaignState,
    SystemLike,
    side_ids,
)
from rules_engine.system_memo import SystemMemo
from rules_engine.tables import needed_facts
from rules_engine.vocabulary import Automation

TRACKS = ("san", "elr", "lvp")  # values a side may have to supply (its current SAN, ELR, Current-LVP)


TRACK_RANGES: Mapping[str, tuple[int, int, str]] = {
    "san": (0, 12, "a SAN is matched against a Dice Roll, 2 to 12"),
    "elr": (0, 5, "an ELR runs from 0 to 5"),
    "lvp": (0, 99_999, "LVP are counted, never negative"),
}
"""The whole numbers a side may supply for each track: (lowest, highest, why)."""


TABLE_HANDLERS = ("elr-change", "roll-per-side")


TRACK_NEEDS: Mapping[str, tuple[str, ...]] = {"new-date-and-san": ("san",), "clamp-san": ("san",), "elr-change": ("elr",),
                                              "record-lvp": ("lvp",)}


def for_side(system: SystemLike, state: CampaignState, side: str) -> SystemLike:
    """The system with the values ``side`` has typed in this campaign filled in (its own lookups only)."""
    cells = state.supplied_cells.get(side)
    return with_cells(system, cells) if cells else system


def lvp_recorders(system: SystemLike, step: Step) -> tuple[str, ...]:
    """The sides that record LVP at a step (RR 2.5032: ``params.recorder``, else both)."""
    recorder = step.params.get("recorder")
    if isinstance(recorder, str) and recorder in side_ids(system):
        return (recorder,)
    return side_ids(system)


def _missing_facts(system: SystemLike, state: CampaignState, step: Step, side: str) -> tuple[str, ...]:
    """Facts an automatic roll of this step needs that the engine cannot derive and nobody has supplied."""
    if step.action not in TABLE_HANDLERS or not applies(system, step, side):
        return ()
    table = step_table(system, step, side)
    try:
        column = table_column(system, step, table, side)
    except SubmissionError:
        return ()
    system.side(side)  # an unknown side is refused first, as the facts would refuse it
    ignored = step.params.get("ignore_facts")
    skip = set(ignored) if isinstance(ignored, list) else set()
    wanted = [f for f in needed_facts(table, column) if f not in skip and not f.startswith(("side_is:", "nationality_is:"))]
    if not wanted:
        return ()  # nothing to look up in the records
    known = facts_for(system, state, side)
    return tuple(f for f in wanted if f not in known)


def _missing_tracks(system: SystemLike, state: CampaignState, step: Step, side: str) -> tuple[str, ...]:
    needs = TRACK_NEEDS.get(step.action or "", ())
    if step.action == "record-lvp" and side not in lvp_recorders(system, step):
        return ()
    if step.action == "record-lvp":
        record = state.history[-1] if state.history else None
        if record and record.result and side in record.result.lvp:
            return ()
    return tuple(t for t in needs if t not in state.tracks.get(side, {}))


def _fact_shape(system: SystemLike, step: Step, side: str, fact: str) -> str:
    """``number`` for a counted fact (a ``per:`` modifier: "−1 per 10 CVP"), else ``yes-no``."""
    try:
        table = step_table(system, step, side)
    except RulesError:
        return "yes-no"
    return "number" if any(m.per is not None and m.per.fact == fact for m in table.modifiers) else "yes-no"


def _fact_words(system: SystemLike, step: Step, side: str, fact: str, shape: str) -> str:
    """The question for a DRM fact, in the words of the table's modifier ("–2 per Friendly Elite Infantry Pltn …")."""
    try:
        table = step_table(system, step, side)
    except RulesError:
        table = None
    for modifier in table.modifiers if table is not None else ():
        if (modifier.per is not None and modifier.per.fact == fact) or modifier.when == fact:
            reason = str(modifier.reason).strip().rstrip(".")
            return f"How many? {reason}" if shape == "number" else f"Does this apply? {reason}"
    return fact.replace("_", " ")


def table_need(system: SystemLike, state: CampaignState, side: str, pending: Mapping[str, JSON]) -> Need:
    """The "table-value" Need of a side's paused roll."""
    key = str(pending["cell"])
    table_id, index, column = split_key(key)
    table = for_side(system, state, side).table(table_id)
    row = table.rows[index]
    col = None if column == LABEL else table.column(column)
    final = pending.get("final")
    shape = column_shape(table, column)
    if col is None:
        what = f"the row label of {table.ref} {table.name} for final {table.dice} {final} (read as {row.range_text})"
    elif len(table.columns) > 1:
        what = f"the {col.label} value of {table.ref} {table.name} for final {table.dice} {final}"
    else:
        what = f"the result of {table.ref} {table.name} for final {table.dice} {final}"
    text = f"{what} is lost in the rule text: type it as printed on your chart"
    return Need(
        id=need_id(key), kind="table-value", side=side, text=text, shape=shape, step=str(pending.get("step")),
        table=table.id, table_ref=table.ref, table_name=table.name, final=final if isinstance(final, int) else None,
        row=row.range_text, column=col.id if col else None, column_label=col.label if col else None,
        public=bool(pending.get("public")), examples=examples(table, column),
    )


def open_pending(state: CampaignState, side: str) -> Mapping[str, JSON] | None:
    """A side's paused roll whose value has not been typed yet."""
    pending = state.pending.get(side)
    if pending is None or str(pending.get("cell")) in state.supplied_cells.get(side, {}):
        return None
    return pending


def needs(system: SystemLike, state: CampaignState, side: str) -> tuple[Need, ...]:
    """What ``side`` must supply before the current step goes on: a value lost in the rule text that its roll fell on
    ("table-value"), its SAN/ELR/Current-LVP ("track"), a DRM fact the records do not give ("fact")."""
    state = settle(system, state)
    pending = open_pending(state, side)
    lost = (table_need(system, state, side, pending),) if pending is not None else ()
    ref = state.phase_ref
    if state.step != PHASE or ref is None or ref in MARKS:
        return lost
    step = find_step(system, ref)
    if step.automation is not Automation.AUTOMATIC or current_kind(system, state, step) != AUTOMATIC:
        return lost  # only an automatic step asks for anything (its board part, once open, is a board step)
    out: list[Need] = list(lost)
    for track in _missing_tracks(system, state, step, side):
        text = f"your current {track.upper()} ({step.ref})"
        bought = ledger_of(system, state, side).san_pending if track == "san" else 0
        if bought:
            text = (f"your current SAN ({step.ref}), without the {bought:+d} of the Sniper RG you bought: "
                    "the app adds it")
        out.append(Need(track, "track", side, text, "number", step.ref))
    generate = leader_generation.need(state, step, side) if leader_generation.params(step) is not None else None
    if generate is not None:
        out.append(generate)
    for fact in _missing_facts(system, state, step, side):
        shape = _fact_shape(system, step, side, fact)
        out.append(Need(fact, "fact", side, f"{_fact_words(system, step, side, fact, shape)} ({step.ref})", shape,
                        step.ref))
    asked = roll_questions.need(system, state, step, side)  # PHD C5.33/C5.34 ticks (issue 14 item 7)
    if asked is not None:
        out.append(asked)
    return tuple(out)


def anyone_needs(system: SystemLike, state: CampaignState, step: Step) -> bool:
    """Whether a side must supply something before the automatic ``step`` goes on (``needs`` of each side); a step
    that asks for no track, fact, leader count or DRM answer waits only for a value lost in the rule text."""
    if not _ASKS(system, step.ref):
        return bool(state.pending) and any(open_pending(state, s) is not None for s in state.sides)
    return any(needs(system, state, s) for s in state.sides)


def _asks(system: SystemLike, ref: str) -> bool:
    step = find_step(system, ref)
    return (step.action in TRACK_NEEDS or step.action in TABLE_HANDLERS or leader_generation.params(step) is not None
            or roll_questions.asks(system, step))


_ASKS = SystemMemo(_asks).lookup  # per System and step ref: what a step's action may ask is in its (frozen) data


def roll_questions_for(system: SystemLike, state: CampaignState, side: str) -> tuple[roll_questions.Question, ...]:
    """The DRM questions of ``side``'s own secret rolls at the current step, while it has not answered (its view only)."""
    step = step_at(system, settle(system, state))
    if step is None or roll_questions.answered(state, side):
        return ()
    return roll_questions.open_questions(system, state, step, side)


def public_needs(system: SystemLike, state: CampaignState, side: str) -> tuple[Need, ...]:
    """The opponent's Needs ``side`` may see: values lost in the rule text that a *public* roll fell on."""
    other = state.other(side)
    pending = open_pending(state, other)
    if pending is None or not pending.get("public"):
        return ()
    return (table_need(system, state, other, pending),)
