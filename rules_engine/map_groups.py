"""KGP 8.2 Map Groups: "One CG scenario may be played per Map Group per CG Date" — the scenario and its results entry
run once per Map Group in play (which ones: the calendar entry's ``map_groups``, else the CG's ``map_groups_in_play``).

A system without Map Groups (RR, PL, PHD, ER) has none in play and plays one scenario per date, as before.

The Attack/Idle chit stays one per CG Date (catalog 5.5; whether KGP 8.6 makes it per Map Group is not in the seed): its
result applies to every Map Group in play, and an Idle Date plays no scenario on any of them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.errors import SubmissionError
from rules_engine.model import MapGroup
from rules_engine.state import CampaignState, ScenarioResult, SystemLike
from rules_engine.vocabulary import SideId

__all__ = ["LVP_TRACK", "combine", "in_play", "lvp_track", "on_date", "pick"]

LVP_TRACK = "lvp@"  # a side's tracks keep each Map Group's last Current-LVP as "lvp@St"


def on_date(system: SystemLike, date_index: int) -> tuple[MapGroup, ...]:
    """KGP 8.2: the Map Groups with a CG scenario on a calendar entry (empty for a system without Map Groups)."""
    return tuple(system.map_groups_on(date_index))


def in_play(system: SystemLike, state: CampaignState) -> tuple[MapGroup, ...]:
    """KGP 8.2: the Map Groups with a CG scenario on the current CG Date."""
    return on_date(system, state.date_index)


def pick(groups: Sequence[MapGroup], wanted: str | None, date_id: str, doing: str) -> MapGroup:
    """KGP 8.2: the Map Group a submission is for — the one named (it must be in play), or the only one in play."""
    ids = ", ".join(group.id for group in groups)
    ref = groups[0].ref if groups else None
    if wanted is None or wanted == "":
        if len(groups) == 1:
            return groups[0]
        raise SubmissionError(f"Say which Map Group's scenario you {doing} (in play on {date_id}: {ids})", ref)
    for group in groups:
        if group.id == wanted:
            return group
    raise SubmissionError(f"No CG scenario is played on Map Group {wanted!r} on {date_id} (in play: {ids})", ref)


def lvp_track(group_id: str) -> str:
    """The track name of a side's last Current-LVP on one Map Group."""
    return f"{LVP_TRACK}{group_id}"


def _total(values: Mapping[SideId, Sequence[int]], side: SideId) -> int:
    return sum(values.get(side, ()))


def combine(
    groups: Sequence[MapGroup], agreed: Mapping[str, ScenarioResult], sides: Sequence[SideId],
    tracks: Mapping[SideId, Mapping[str, int]],
) -> tuple[ScenarioResult, dict[SideId, dict[str, int]]]:
    """The CG Date's figures over its Map Groups' agreed results, and each side's per-Map-Group LVP tracks after them.

    With one Map Group in play the date's result is that scenario's, as entered. With several [interp, KGP 8.6 is not
    in the seed]: CVP, leaders and units lost add up; a side attacked if it attacked on any Map Group; no single
    scenario winner (each Map Group's stays in ``DateRecord.map_results``). LVP (8.2 Current-LVP Total = the LVP of
    *all* LVP Locations the side Controls): each Map Group's value as entered, else its last known value (a Map Group
    not played keeps its control); the total over every Map Group known, only when each Map Group in play has one and
    at least one was entered for this date (else, as without Map Groups, the 8.603 step keeps the side's total).
    """
    new_tracks: dict[SideId, dict[str, int]] = {}
    lvp: dict[SideId, int] = {}
    for side in sides:
        known = {name: value for name, value in tracks.get(side, {}).items() if name.startswith(LVP_TRACK)}
        for group in groups:
            entered = agreed[group.id].lvp.get(side)
            if entered is not None:
                known[lvp_track(group.id)] = entered
        new_tracks[side] = known
        entered = any(side in agreed[group.id].lvp for group in groups)
        if entered and all(lvp_track(group.id) in known for group in groups):
            lvp[side] = sum(known.values())
    if len(groups) == 1:
        only = agreed[groups[0].id]
        return ScenarioResult(only.cvp, only.attacked, only.winner, lvp, only.leaders_lost, only.units_lost,
                              only.objective_hexes), new_tracks
    results = [agreed[group.id] for group in groups]
    sums: dict[str, dict[SideId, list[int]]] = {"cvp": {}, "leaders_lost": {}, "units_lost": {}, "objective_hexes": {}}
    for result in results:
        for name, values in (("cvp", result.cvp), ("leaders_lost", result.leaders_lost), ("units_lost", result.units_lost),
                             ("objective_hexes", result.objective_hexes)):
            for side, value in values.items():
                sums[name].setdefault(side, []).append(value)
    combined = ScenarioResult(
        cvp={side: _total(sums["cvp"], side) for side in sides if side in sums["cvp"]},
        attacked={side: any(r.attacked.get(side, False) for r in results) for side in sides},
        winner=None,
        lvp=lvp,
        leaders_lost={side: _total(sums["leaders_lost"], side) for side in sides if side in sums["leaders_lost"]},
        units_lost={side: _total(sums["units_lost"], side) for side in sides if side in sums["units_lost"]},
        # [interp] Objective Hexes (8.2) Controlled: the sum of those entered on the Map Groups played this date
        objective_hexes={side: _total(sums["objective_hexes"], side) for side in sides if side in sums["objective_hexes"]},
    )
    return combined, new_tracks
