"""One door: everything one side may know of the campaign, as a ``SideView`` (no other code needs the state to show it).

``view_for`` reads the state once and keeps the side's own slice (its ledger, its sealed chit, its needs, its forms'
facts), the opponent's public facts only ("has chosen", done, its needs on public rolls) and the JSON view the pages
render (``json``, as ``view_json`` gives it). Every secret is decided here or in ``view_json``.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rules_engine import declarations, patrols, recon_turns, sequence
from rules_engine.dice import Roll
from rules_engine.errors import RulesError
from rules_engine.events import JSON, EventKind
from rules_engine.initiative import choosing_early, validate_chit
from rules_engine.ledger import SideLedger
from rules_engine.lost_values import Need
from rules_engine.model import Step, System
from rules_engine.state import WAITING, CampaignState
from rules_engine.view.json_view import view_json
from rules_engine.vocabulary import Chit, SideId

SUPPLY = re.compile(r"^(.*): supply (.+)$")  # an owed action naming the need ids (rules_engine.state.owes)


@dataclass(frozen=True)
class ChitFacts:
    """RR 2.522: the side's own sealed chit, whether the opponent has chosen (never which), and why a chit is refused."""

    own: Chit | None
    opponent_has_chosen: bool
    any_sealed: bool
    choosing_early: bool  # PHD C5.31: chits sealed before the reveal step
    refusals: Mapping[Chit, str]  # chit → why the side cannot seal it now (validate_chit's words)

    def refusal(self, chit: Chit) -> str | None:
        """Why the side cannot seal ``chit`` now, or None."""
        return self.refusals.get(chit)


@dataclass(frozen=True)
class FormFacts:
    """What one seat's form token is bound to (campaigns_app.form_tokens): the step occurrence and the side's own
    progress at it — never anything the opponent did in secret."""

    date_index: int
    pass_kind: str | None
    phase_ref: str | None
    history_len: int
    roll_count: int  # the side's own table-results at the current phase step
    board_count: int  # the side's own public rolls at the board
    done: bool
    map_done: frozenset[str]  # KGP 8.2: the Map Groups whose scenario the side marked finished

    def parts(self, purpose: str, map_group: str | None) -> tuple[object, ...]:
        """The token's occurrence fields for a form's ``purpose`` (and Map Group)."""
        count = self.roll_count if purpose == "roll" else self.board_count if purpose == "board" else 0
        done = self.done if map_group is None else map_group in self.map_done
        return (purpose, self.date_index, self.pass_kind, self.phase_ref, self.history_len, count, done, map_group or "")


@dataclass(frozen=True)
class ReconTurn:
    """RR 2.524 / PHD C5.40: whose turn it is to declare, and this side's own count (never the opponent's)."""

    left: int
    declared: tuple[str, ...]
    your_turn: bool
    turn: SideId | None


@dataclass(frozen=True)
class Resolution:
    """PL 2.74: both sides resolve at this step and who goes first is not chosen yet: the side that chooses."""

    chooser: SideId | None
    sides: tuple[SideId, ...]


@dataclass(frozen=True)
class SideView:
    """What one side may know now, and what it owes and may do."""

    side: SideId
    opponent: SideId
    json: Mapping[str, JSON]  # the view the pages render (view_json)
    started: bool  # both players have joined: the campaign is past its waiting step
    step: str
    phase_ref: str | None
    pass_kind: str | None
    date_id: str
    date_index: int
    ended: bool
    you_done: bool
    opponent_done: bool
    owes: tuple[str, ...]
    opponent_owes: tuple[str, ...]
    ledger: SideLedger | None  # the side's own
    chits: ChitFacts
    needs: tuple[Need, ...]
    opponent_needs: tuple[Need, ...]  # only those on public rolls (sequence.public_needs)
    opponent_named_needs: tuple[Need, ...]  # the opponent's needs its owes already name ("supply san"), for their words
    current_step: Step | None
    waiting_for: SideId | None
    can_mark_done: bool
    board_run: tuple[Step, ...]
    recon_turn: ReconTurn | None
    recon_problem: str | None
    resolution: Resolution | None
    declarations: tuple[Mapping[str, JSON], ...]
    forms: FormFacts

    @property
    def current_step_ref(self) -> str:
        """The step a "Mark finished" form finishes: the phase step ref ("2.512"), else the spine step ("scenario")."""
        return str(self.phase_ref if self.step == "phase" else self.step)

    def chit_refusal(self, chit: Chit) -> str | None:
        """Why the side cannot seal ``chit`` now, or None."""
        return self.chits.refusal(chit)


class _DiceNotReady(RulesError):
    """A roll was asked for while only reading the view."""


class _NoDice:
    """Dice that refuse every roll: a submission is tried for its message only, nothing is stored."""

    def roll(self, *args: object, **kwargs: object) -> Roll:
        raise _DiceNotReady("no roll while reading a view")


def current_step(system: System, state: CampaignState) -> Step | None:
    """The current phase step (None at a mark such as ``@results``, or outside the phase)."""
    if not state.phase_ref or state.phase_ref in sequence.MARKS:
        return None
    return next((s for s in system.steps if s.ref == state.phase_ref), None)


def _refusals(system: System, state: CampaignState, side: SideId) -> dict[Chit, str]:
    refused: dict[Chit, str] = {}
    for chit in Chit:
        try:
            validate_chit(system, state, side, chit)
        except RulesError as error:
            refused[chit] = str(error)
    return refused


def chit_facts(system: System, state: CampaignState, side: SideId) -> ChitFacts:
    """RR 2.522: what ``side`` knows of the sealed chits now, and why each chit is refused (if it is)."""
    rule = system.initiative
    early = bool(rule is not None and rule.chosen_at) and choosing_early(system, state)
    return ChitFacts(state.sealed.get(side), state.other(side) in state.sealed, bool(state.sealed), early,
                     _refusals(system, state, side))


def form_facts(state: CampaignState, side: SideId) -> FormFacts:
    """The facts one side's form tokens are bound to (its own progress at the current step occurrence)."""
    rolls = sum(1 for e in state.records if e.kind is EventKind.TABLE_RESULT and e.payload.get("side") == side
                and e.payload.get("step") == state.phase_ref)
    groups = frozenset(g for g, sides in state.map_done.items() if side in sides)
    return FormFacts(state.date_index, state.pass_kind, state.phase_ref, len(state.history), rolls,
                     int(state.board_counts.get(side, 0)), side in state.done, groups)


def _ok(check: Callable[[], object]) -> bool:
    """True when ``check()`` raises no RulesError."""
    try:
        check()
    except RulesError:
        return False
    return True


def _needs(system: System, state: CampaignState, side: SideId, public: bool) -> tuple[Need, ...]:
    try:
        return tuple(sequence.public_needs(system, state, side) if public else sequence.needs(system, state, side))
    except RulesError:
        return ()


def named_needs(system: System, state: CampaignState, side: SideId, owed: tuple[str, ...]) -> tuple[Need, ...]:
    """``side``'s needs whose ids its owed actions already name (": supply san, elr"): nothing more is told."""
    named = {part.strip() for item in owed if (found := SUPPLY.match(item)) for part in found.group(2).split(",")}
    return tuple(n for n in _needs(system, state, side, False) if n.id in named)


def _recon_turn(system: System, state: CampaignState, step: Step | None, side: SideId) -> ReconTurn | None:
    if step is None or recon_turns.first(step) is None or state.phase_ref != step.ref:
        return None
    now = recon_turns.turn(state, step)
    mine = recon_turns.declared(state, step, side)
    return ReconTurn(max(0, recon_turns.allowed(state, side) - len(mine)), tuple(mine), now == side, now)


def _recon_problem(system: System, state: CampaignState, step: Step | None, side: SideId) -> str | None:
    """The engine's own message when the recon form cannot be bought (it refuses before any roll); nothing is stored."""
    if step is None or step.action != "purchase-recon":
        return None
    try:
        sequence.submit_recon(system, state, side, 0, _NoDice())
    except _DiceNotReady:
        return None
    except RulesError as error:
        return str(error)
    return None


def _resolution(system: System, state: CampaignState, step: Step | None) -> Resolution | None:
    if step is None or not patrols.needs_choice(state, step):
        return None
    chooser = sequence.order_chooser(system, state, step)
    if patrols.chosen_first(state, chooser) is not None:
        return None
    return Resolution(chooser, tuple(state.sides))


def _waiting_for(system: System, state: CampaignState, step: Step | None, side: SideId) -> SideId | None:
    if step is None or step.sides != "ordered" or side in state.done:
        return None
    return sequence.waiting_for(system, state, step, side)


def _declarations(system: System, state: CampaignState, side: SideId) -> tuple[Mapping[str, JSON], ...]:
    return tuple(declarations.for_view(system, state, side)) if state.step != WAITING else ()


def view_for(system: System, state: CampaignState, side: SideId) -> SideView:
    """The one door: ``side``'s view of ``state`` (UnknownNameError for a side not in the campaign)."""
    json = view_json(system, state, side)
    other = state.other(side)
    step = current_step(system, state)
    started = state.step != WAITING
    their_owes = tuple(sequence.owes(system, state, other))
    return SideView(
        side=side, opponent=other, json=json, started=started, step=state.step, phase_ref=state.phase_ref,
        pass_kind=state.pass_kind, date_id=state.date_id, date_index=state.date_index, ended=state.ended,
        you_done=side in state.done, opponent_done=other in state.done,
        owes=tuple(sequence.owes(system, state, side)), opponent_owes=their_owes,
        ledger=state.ledgers.get(side), chits=chit_facts(system, state, side),
        needs=_needs(system, state, side, False) if started else (),
        opponent_needs=_needs(system, state, side, True) if started else (),
        opponent_named_needs=named_needs(system, state, other, their_owes) if started else (), current_step=step,
        waiting_for=_waiting_for(system, state, step, side),
        can_mark_done=_ok(lambda: sequence.validate_mark_done(system, state, side)),
        board_run=tuple(sequence.board_run(system, state)) if started else (),
        recon_turn=_recon_turn(system, state, step, side), recon_problem=_recon_problem(system, state, step, side),
        resolution=_resolution(system, state, step), declarations=_declarations(system, state, side),
        forms=form_facts(state, side),
    )
