"""The date changes of the phase: an Idle Date's loop, the next CG Date (RR 2.5121), the CG end (PL 1.3)."""
from __future__ import annotations

from rules_engine import patrols
from rules_engine.events import JSON, Event, EventKind
from rules_engine.phase.program import goto, move_on, program
from rules_engine.phase.tracks import with_records
from rules_engine.progress import Progress
from rules_engine.state import ENDED, CampaignState, CgEnd, DateRecord, SystemLike
from rules_engine.vocabulary import Visibility


def enter_idle(system: SystemLike, state: CampaignState) -> Progress:
    """An Idle Date / Idle Firefight / Lull: record it, then the system's idle loop (module docstring)."""
    last = state.last_round
    record = DateRecord(
        state.date_index, state.date_id, "idle", last.label if last else "idle",
        {s: str(c) for s, c in last.chits.items()} if last else {},
    )
    new = state.evolve(history=state.history + (record,), sealed={})
    entries = program(system, "idle")
    new = goto(system, new, "idle", entries[0])
    idle = system.idle
    event = Event(EventKind.IDLE, Visibility.PUBLIC, None, {
        "date": state.date_id, "label": last.label if last else "idle", "loop": list(entries),
        "note": idle.note if idle is not None else None})
    lost = patrols.lost_on_idle(system, state)  # PL 2.41: Patrols bought for it are lost
    return Progress(with_records(new, *lost), (event, *lost))


def new_date(system: SystemLike, state: CampaignState) -> Progress:
    """The next CG Date (RR 2.5121): its steps follow; after the last calendar entry the CG ends."""
    index = state.date_index + 1
    if index >= len(system.calendar):
        return end_cg(system, state, "last-date")
    date_id = system.calendar[index].id
    new = state.evolve(date_index=index, date_id=date_id, initial=False, sealed={}, records=(), run_done={})
    new = move_on(system, new)
    return Progress(new, (Event(EventKind.DATE_ADVANCED, Visibility.PUBLIC, None, {"date": date_id, "date_index": index, "step": new.step}),))


def end_cg(system: SystemLike, state: CampaignState, reason: str, side: str | None = None,
           victor: str | None = None) -> Progress:
    """CG end (last date, objectives, concession, mutual agreement): everything is revealed from now on."""
    end = CgEnd(reason, state.date_id, side, victor)
    new = state.evolve(step=ENDED, ended=True, done=frozenset(), sealed={}, cg_end=end, phase_ref=None,
                  end_proposals=frozenset(), end_reason=None, end_claimant=None)
    payload: dict[str, JSON] = {"date": state.date_id, **end.to_json(),
                                "tracks": {s: dict(v) for s, v in state.tracks.items()}}
    return Progress(new, (Event(EventKind.CG_ENDED, Visibility.PUBLIC, None, payload),))

