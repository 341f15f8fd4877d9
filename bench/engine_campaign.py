#!/usr/bin/env python
"""rules_engine benchmark: one RR between-scenario phase, and whole 13-date RR campaigns, with random valid choices.

Run by hand (not a test), from the repository root; pure CPU, no database, no Redis, no network:

    .venv/bin/python bench/engine_campaign.py                       # 200 campaigns, phases, baseline, ≤ 60 s
    .venv/bin/python bench/engine_campaign.py --campaigns 20 --seed 7 --max-seconds 20

What it does:
 1. parses fixtures/rr.yaml once (``loader.parse_system``; the parse is timed and reported on its own) and settles the
    values lost in the seed as a campaign does at creation (``lost_values.settle``), each with a printed value of the
    same column chosen from the seed: a stand-in, not a rule value (``--unsettled``: without them; the campaigns that
    roll on a lost cell stop and are left out);
 2. plays N simulated RR CGs from ``sequence.start`` to CG end (13 CG Dates, 19 AM … 26 AM) with committed HMAC
    dice (``CommittedDice``, a seed drawn from the run's random generator so that the run is reproducible) and random
    but valid player choices: RG orders (random rows, set-up modes, Pre-Registered hexes, extra CPP) kept only when
    ``purchases.validate_order`` accepts them, fortifications with the FPP an M1 gives, Recon (2.521) when affordable,
    assisted rolls on the step's tables with random answers to the ``ask:`` DRM, Attack/Idle chits within the 2.5221
    limits (both Idle = an Idle Date and its loop), random scenario results (sometimes entered differently first, then
    agreed); it counts the rolls and events of each CG and measures the final state's JSON size;
 3. times the between-scenario phase alone: from a state waiting for scenario results (taken from the campaigns of
    step 2, any date but the last) through results entry, 2.501–2.521 and the 2.522 chit reveal, many times;
 4. times a baseline in the same run: ``CampaignState.from_json(state.to_json())`` of the final states (and the same
    with ``json.dumps``/``json.loads`` in between), and a bare ``CommittedDice.roll``;
 5. prints median and p95 (ms) per phase and per campaign, phases/s, rolls, events, state size, the ratios to the
    baseline, the refusals of random candidate orders by rule (expected: maxima, points, availability), the campaigns
    a roll on a value lost in the seed stopped (MissingValueError: expected, the engine must refuse; left out of the
    figures) and any unexpected error (exit status 1).

"engine" times count only the calls into rules_engine an app would make (results, marks, orders, rolls, chits,
advance, owes, needs, supply); "wall" times include the driver making its random choices (which validates candidate
orders with ``validate_order``). Time bound: the campaigns stop at 60 % of --max-seconds, the phases before the end
(keeping a few seconds for the baseline). Everything follows from --seed (same seed and same number of campaigns
done → same fingerprint of the final states).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from rules_engine import sequence  # noqa: E402
from rules_engine.dice import CommittedDice  # noqa: E402
from rules_engine.errors import MissingValueError, SubmissionError  # noqa: E402
from rules_engine.fortification_purchase import FortOrder  # noqa: E402
from rules_engine.initiative import attack_chits_left  # noqa: E402
from rules_engine.loader import parse_system  # noqa: E402
from rules_engine.lost_values import SETTLED_NOTE, needed_values, settle, with_cells  # noqa: E402
from rules_engine.model import DiceTable, Step, System  # noqa: E402
from rules_engine.purchases import RgOrder, purchase_currency, validate_order  # noqa: E402
from rules_engine.results import submit_results  # noqa: E402
from rules_engine.state import (  # noqa: E402
    ENDED,
    INITIAL_SCENARIO,
    INITIATIVE,
    PHASE,
    RESULTS,
    SCENARIO,
    CampaignState,
    ScenarioResult,
)
from rules_engine.tables import questions  # noqa: E402
from rules_engine.vocabulary import Chit, DiceKind  # noqa: E402

FIXTURE = REPO / "fixtures" / "rr.yaml"
SETUP_MODES = (("entry", 6), ("on-map", 3), ("reserve", 1))  # weights of a random RG set-up mode
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # what the figures are measured with (--clock; the time bound is always wall time)
MAX_ACTIONS = 5_000  # per phase/campaign: a driver that loops longer is stuck (reported as an engine error)
T = TypeVar("T")


class Stuck(RuntimeError):
    """The driver found nothing to do although the CG has not ended (an engine or driver bug)."""


@dataclass
class EngineError:
    """An unexpected refusal or crash: what was called, with what, and the message (for the coordinator)."""

    where: str
    call: str
    detail: str
    message: str
    trace: str
    when: str = ""  # the call and step, without the date (for grouping)

    def line(self) -> str:
        return f"{self.where} — {self.call}({self.detail}): {self.message}"


@dataclass
class Tally:
    """What one driven run made: engine time, rolls, events, refusals of candidates."""

    engine: float = 0.0
    events: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    reveals: int = 0
    idle_dates: int = 0
    scenarios: int = 0


class Driver:
    """Plays both sides of one RR CG at random (valid choices only), timing each engine call."""

    def __init__(self, system: System, rng: random.Random, dice: CommittedDice) -> None:
        self.system = system
        self.rng = rng
        self.dice = dice
        self.tally = Tally()
        self.steps = {s.ref: s for s in system.steps}
        self.currency = purchase_currency(system)
        self.attacker_initial: str | None = None
        self.last: CampaignState | None = None  # the state the current action started from
        self.calling = ""  # the rules_engine function being called

    # -- timing -------------------------------------------------------------------------------------------------------

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call into rules_engine, counting its time (and its events when it returns (state, events))."""
        self.calling = getattr(fn, "__name__", repr(fn))
        start = clock()
        out = fn(*args, **kwargs)
        self.tally.engine += clock() - start
        self.tally.actions += 1
        if isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], CampaignState):
            self.tally.events += len(out[1])
        return out

    def move(self, fn: Callable[..., tuple[CampaignState, Any]], *args: Any, **kwargs: Any) -> CampaignState:
        state, _ = self.call(fn, *args, **kwargs)
        return state

    # -- one action at a time -----------------------------------------------------------------------------------------

    def run(self, state: CampaignState, stop: Callable[[CampaignState], bool]) -> CampaignState:
        """Act until ``stop(state)`` (or the CG ends)."""
        for _ in range(MAX_ACTIONS):
            if stop(state) or state.step == ENDED:
                return state
            state = self.act(state)
        raise Stuck(f"no end after {MAX_ACTIONS} actions at {state.date_id} {state.step} {state.phase_ref}")

    def act(self, state: CampaignState) -> CampaignState:
        system = self.system
        self.last = state
        if state.step == RESULTS:
            return self.results(state)
        if state.step == INITIATIVE:
            return self.chits(state)
        if state.step in (INITIAL_SCENARIO, SCENARIO):
            if state.step == SCENARIO:
                self.tally.scenarios += 1
            for side in self.shuffled(state.sides):
                if side not in state.done:
                    state = self.move(sequence.mark_done, system, state, side)
            return self.move(sequence.advance, system, state, self.dice)
        if state.step != PHASE or state.phase_ref is None:
            raise Stuck(f"unknown spine step {state.step!r} at {state.date_id}")
        if state.phase_ref in sequence.MARKS:  # @new-date etc. are the engine's own moves
            new = self.move(sequence.advance, system, state, self.dice)
            if new == state:
                raise Stuck(f"advance does not move past {state.phase_ref} at {state.date_id}")
            return new
        step = self.steps[state.phase_ref]
        kind = sequence.current_kind(system, state, step)
        moved = False
        for side in self.shuffled(state.sides):
            wanted = self.call(sequence.needs, system, state, side)
            if wanted:
                state = self.supply(state, side, wanted)
                moved = True
                continue
            if kind == sequence.AUTOMATIC or not self.call(sequence.owes, system, state, side):
                continue  # nothing owed now (done, or waiting for the other side of an ordered step)
            before = state
            if kind == sequence.INPUT:
                state = self.order(state, step, side)
            elif kind == sequence.ASSISTED:
                state = self.assisted(state, step, side)
            else:
                state = self.move(sequence.mark_done, system, state, side)
            moved = True
            if state.phase_ref != before.phase_ref or state.step != before.step:
                break  # the step finished with this side; look again
        new = self.move(sequence.advance, system, state, self.dice)
        if not moved and new == state:
            owed = {s: self.call(sequence.owes, system, state, s) for s in state.sides}
            raise Stuck(f"nothing to do at {state.date_id} {state.phase_ref} ({kind}); owes: {owed}")
        return new

    def shuffled(self, sides: tuple[str, str]) -> list[str]:
        out = list(sides)
        self.rng.shuffle(out)
        return out

    # -- players' inputs ----------------------------------------------------------------------------------------------

    def supply(self, state: CampaignState, side: str, wanted: tuple[Any, ...]) -> CampaignState:
        """A value lost in the seed (a stand-in of the right shape: the bench plays a player reading their chart),
        else SAN/ELR/LVP and DRM facts."""
        lost = [n for n in wanted if n.kind == "table-value"]
        if lost:
            self.tally.refusals[f"{lost[0].table_ref}: lost value typed by the player ({lost[0].table}, {lost[0].row})"] += 1
            typed = {"number": "1", "leaders": "8-0"}.get(lost[0].shape, "bench value")
            return self.move(sequence.supply, self.system, state, side, lost[0].id, typed, dice=self.dice)
        return self.move(sequence.supply, self.system, state, side, self.supply_values(tuple(n.id for n in wanted)))

    def supply_values(self, wanted: tuple[str, ...]) -> dict[str, int | bool]:
        """What an automatic step asks for: SAN/ELR/LVP as numbers, DRM facts as yes/no."""
        values: dict[str, int | bool] = {}
        for name in wanted:
            values[name] = self.rng.randint(1, 7) if name in sequence.TRACKS else self.rng.random() < 0.5
        return values

    def results(self, state: CampaignState) -> CampaignState:
        """Both sides enter the same random outcome (sometimes one enters a different one first, then both agree)."""
        rng, sides = self.rng, state.sides
        last = state.last_round if state.last_round and state.last_round.date_index == state.date_index else None
        if last is not None and last.chits:
            attacked = {s: last.chits.get(s) is Chit.ATTACK for s in sides}
        elif last is not None and last.moves_first:
            attacked = {s: s == last.moves_first for s in sides}
        else:  # RR: the Initial Scenario's attacker is on its card, not in the seed; the players say who attacked
            self.attacker_initial = self.attacker_initial or rng.choice(sides)
            attacked = {s: s == self.attacker_initial for s in sides}
        entry = ScenarioResult(
            cvp={s: rng.randint(0, 40) for s in sides},
            attacked=attacked,
            winner=None,  # RR 2.5231: individual scenarios have no Victory Conditions
            lvp={"canadian": rng.randint(0, 20)},
            leaders_lost={s: rng.randint(0, 2) for s in sides},
            units_lost={s: rng.randint(0, 6) for s in sides},
        )
        first, second = self.shuffled(sides)
        if rng.random() < 0.1:  # a typo first: the entries differ, then the side corrects it
            wrong = ScenarioResult(cvp={s: v + 1 for s, v in entry.cvp.items()}, attacked=attacked, lvp=entry.lvp,
                                   leaders_lost=entry.leaders_lost, units_lost=entry.units_lost)
            state = self.move(submit_results, self.system, state, first, wrong)
            state = self.move(submit_results, self.system, state, second, entry)
            state = self.move(submit_results, self.system, state, first, entry)
        else:
            state = self.move(submit_results, self.system, state, first, entry)
            state = self.move(submit_results, self.system, state, second, entry)
        return self.move(sequence.advance, self.system, state, self.dice)

    def chits(self, state: CampaignState) -> CampaignState:
        """2.522: each side seals Attack or Idle at random, Attack only while it has chits left (2.5221)."""
        for side in self.shuffled(state.sides):
            if side in state.sealed:
                continue
            left = self.call(attack_chits_left, self.system, state, side)
            chit = Chit.ATTACK if (left is None or left > 0) and self.rng.random() < 0.5 else Chit.IDLE
            state = self.move(sequence.submit_chit, self.system, state, side, chit, self.dice)
        self.tally.reveals += 1
        if state.history and state.history[-1].kind == "idle" and state.pass_kind == "idle":
            self.tally.idle_dates += 1
        return state

    def order(self, state: CampaignState, step: Step, side: str) -> CampaignState:
        if step.action == "purchase-recon":
            return self.recon(state, step, side)
        if step.action == "purchase-fortifications":
            orders: list[object] = self.fort_orders(state, side)
        else:
            orders = self.rg_orders(state, side)
        return self.move(sequence.submit_order, self.system, state, side, orders)

    def _ok(self, state: CampaignState, side: str, orders: list[Any]) -> bool:
        """Whether ``validate_order`` accepts the batch; a refusal is tallied by its rule."""
        violations = validate_order(self.system, state.ledgers[side], side, state.date_id, orders,
                                    initial=state.pass_kind == "initial", chit=state.sealed.get(side))
        for v in violations:
            self.tally.refusals[_refusal_key(v.ref, v.message)] += 1
        return not violations

    def rg_orders(self, state: CampaignState, side: str) -> list[Any]:
        """2.518: up to six random RG candidates, each kept only if the whole order stays valid."""
        rng = self.rng
        chart = self.system.rg_chart(side)
        orders: list[Any] = []
        modes = [m for m, _ in SETUP_MODES]
        weights = [w for _, w in SETUP_MODES]
        for _ in range(rng.randint(0, 6)):
            row = rng.choice(chart.rows)
            notes = [chart.notes[n] for n in row.notes if n in chart.notes]
            pre = next((n.pre_registered for n in notes if n.pre_registered is not None), None)
            extra = next((n.extra_max for n in notes if n.extra_max is not None), None)
            candidate = RgOrder(
                row.id,
                setup_mode=rng.choices(modes, weights)[0],
                pre_registered=rng.randint(0, pre.max) if pre is not None else 0,
                extra=rng.randint(0, extra) if extra is not None else 0,
            )
            if self._ok(state, side, [*orders, candidate]):
                orders.append(candidate)
        return orders

    def fort_orders(self, state: CampaignState, side: str) -> list[Any]:
        """2.520: random fortifications while the FPP last (unspent FPP are forfeit)."""
        table = self.system.fortifications
        ledger = state.ledgers[side]
        if table is None or ledger.balance(table.currency) <= Decimal(0):
            return []
        rng = self.rng
        orders: list[Any] = []
        for _ in range(rng.randint(0, 5)):
            row = rng.choice(table.rows)
            cost = row.cost
            candidate = FortOrder(
                row.type,
                quantity=rng.randint(1, 3),
                capacity=int(rng.choice(list(cost.by))) if cost.kind == "by_capacity" else None,
                unit=rng.choice(list(cost.by)) if cost.kind == "by_unit" else None,
                base_cost=rng.randint(1, 10) if cost.kind == "multiplier" else None,
                ca_drm=rng.randint(-2, 2) if cost.kind == "formula" else None,
                nca_drm=rng.randint(-2, 2) if cost.kind == "formula" else None,
            )
            if self._ok(state, side, [*orders, candidate]):
                orders.append(candidate)
        return orders

    def recon(self, state: CampaignState, step: Step, side: str) -> CampaignState:
        """2.521: no Recon, or Recon with 0..extra_max extra CPP when the side can pay for it."""
        cost, most = step.params.get("cost"), step.params.get("extra_max")
        left = state.ledgers[side].balance(str(step.params.get("currency", self.currency)))
        extra: int | None = None
        if isinstance(cost, int) and isinstance(most, int) and self.rng.random() < 0.4:
            affordable = [x for x in range(most + 1) if cost + x <= left]
            extra = self.rng.choice(affordable) if affordable else None
        try:
            return self.move(sequence.submit_recon, self.system, state, side, extra, self.dice)
        except SubmissionError as error:  # e.g. RG M3 CG Max 8 reached: the Recon is an M3 purchase
            self.tally.refusals[_refusal_key(step.ref, str(error))] += 1
            return self.move(sequence.submit_recon, self.system, state, side, None, self.dice)

    def assisted(self, state: CampaignState, step: Step, side: str) -> CampaignState:
        """0–2 rolls on the step's tables (random column, random answers to the ``ask:`` DRM), then done."""
        tables = list(step.tables)
        for _ in range(self.rng.randint(0, 2) if tables else 0):
            table = self.system.table(self.rng.choice(tables))
            column = self.rng.choice(table.columns).id if len(table.columns) > 1 else None
            answers = self.answers(table, column)
            state = self.move(sequence.assisted_roll, self.system, state, side, step.ref, table.id, column,
                              answers, self.dice)
            wanted = self.call(sequence.needs, self.system, state, side)
            if wanted:  # the roll fell on a value lost in the seed: the player types it
                state = self.supply(state, side, wanted)
        return self.move(sequence.mark_done, self.system, state, side)

    def answers(self, table: DiceTable, column: str | None) -> dict[int, int | bool]:
        out: dict[int, int | bool] = {}
        for index, modifier in questions(table, column):
            if self.rng.random() < 0.5:
                continue
            if modifier.ask == "tick":
                out[index] = self.rng.random() < 0.5
            elif modifier.ask == "count":
                out[index] = self.rng.randint(0, 2)
            else:
                low, high = modifier.range if modifier.range else (-2, 2)
                out[index] = self.rng.randint(max(low, -3), min(high, 3))
        return out


def _refusal_key(ref: str | None, message: str) -> str:
    """A refusal grouped by rule and kind ("2.518: … Date Max is …"), numbers blanked."""
    message = re.sub(r"RG \w+ \((?:[^()]|\([^()]*\))*\)", "RG …", message)  # "RG V4 (Transport Sect)" → "RG …"
    words = ["#" if any(ch.isdigit() for ch in word) and not word.startswith("(") else word
             for word in message.split()]
    text = " ".join(words)
    return f"{ref or '-'}: {text[:110]}"


# ---------------------------------------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------------------------------------


@dataclass
class CampaignRun:
    wall: float
    engine: float
    rolls: int
    events: int
    size: int
    idle_dates: int
    scenarios: int
    final: CampaignState


@dataclass
class Snapshot:
    """A state waiting for scenario results, with the dice counters at that point."""

    state: CampaignState
    counters: dict[str, int]


def _dice(rng: random.Random, name: str, counters: dict[str, int] | None = None) -> CommittedDice:
    seed = rng.randbytes(32)
    players = (rng.randbytes(8).hex(), rng.randbytes(8).hex())
    return CommittedDice(seed, name, players, counters or {})


def _where(error: BaseException) -> str:
    """Where an exception came from: the rules_engine call chain (``sequence.advance › … › rg_rolls.x``) and the
    innermost frame as file:line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "rules_engine" in f.filename]
    if not frames:
        frames = traceback.extract_tb(error.__traceback__)[-1:]
    if not frames:
        return "?"
    chain = " › ".join(f"{Path(f.filename).stem}.{f.name}" for f in frames)
    f = frames[-1]
    where = Path(f.filename).relative_to(REPO) if f.filename.startswith(str(REPO)) else f.filename
    return f"{chain} ({where}:{f.lineno})"


def _engine_error(error: BaseException, state: CampaignState | None) -> EngineError:
    where = _where(error)
    call = getattr(error, "bench_call", "") or "?"
    at = (f"{call} from {state.date_id}, step {state.step}, {state.phase_ref}, {state.pass_kind} pass"
          if state else call)
    when = f"{call} from {state.phase_ref} ({state.pass_kind} pass)" if state else call
    return EngineError(where, type(error).__name__, at, str(error), "".join(traceback.format_exception(error)), when)


def run_campaign(
    system: System, seed: int, index: int, snapshots: list[Snapshot] | None
) -> tuple[CampaignRun, Tally]:
    """One CG from ``sequence.start`` to its end (an exception carries the last state as ``bench_state``)."""
    rng = random.Random(f"{seed}/campaign/{index}")
    dice = _dice(rng, f"bench-{seed}-{index}")
    driver = Driver(system, rng, dice)
    wall0 = clock()
    tracks = {s: {"san": rng.randint(1, 7)} for s in ("canadian", "german")}  # from the Initial Scenario's card
    state = driver.move(sequence.start, system, dice, tracks=tracks)
    last = len(system.calendar) - 1
    try:
        while state.step != ENDED:
            state = driver.run(state, lambda s: s.step == RESULTS and not s.results)
            if state.step != RESULTS:
                continue
            if snapshots is not None and state.date_index < last:
                snapshots.append(Snapshot(state, dice.counters))
            state = driver.act(state)
    except Exception as error:
        error.bench_state = driver.last  # type: ignore[attr-defined]
        error.bench_call = driver.calling  # type: ignore[attr-defined]
        raise
    wall = clock() - wall0
    size = len(json.dumps(state.to_json()))
    run = CampaignRun(wall, driver.tally.engine, len(dice.made), driver.tally.events, size,
                      driver.tally.idle_dates, driver.tally.scenarios, state)
    return run, driver.tally


def run_phase(system: System, snap: Snapshot, rng: random.Random, index: int) -> tuple[float, float, Driver]:
    """Results entry → 2.501 … 2.521 → the 2.522 reveal, from one snapshot."""
    dice = _dice(rng, f"bench-phase-{index}", snap.counters)
    driver = Driver(system, rng, dice)
    wall0 = clock()
    try:
        driver.run(snap.state, lambda s: driver.tally.reveals > 0)
    except Exception as error:
        error.bench_state = driver.last  # type: ignore[attr-defined]
        error.bench_call = driver.calling  # type: ignore[attr-defined]
        raise
    return clock() - wall0, driver.tally.engine, driver


# ---------------------------------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------------------------------


def stand_in_values(system: System, rng: random.Random) -> dict[str, Any]:
    """Values for the cells lost in the seed, as a campaign settles them at creation (``lost_values.settle``): the
    players type them from their printed module; the bench types one of the column's printed values instead (a stand-in
    to let campaigns run to their end, not a rule value)."""
    raw: dict[str, object] = {}
    for value in needed_values(system):
        if value.examples:
            raw[value.key] = rng.choice(value.examples)
        elif value.shape == "number":
            raw[value.key] = rng.randint(0, 3)
        else:
            raw[value.key] = "8-0" if value.shape == "leaders" else "stand-in"
    return settle(system, raw)


def pct(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of values."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(q * len(ordered) + 0.5)) - 1))
    return ordered[rank]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f}"


def timeit(fn: Callable[[], object], min_runs: int, min_seconds: float) -> list[float]:
    """Per-call times of ``fn`` (at least ``min_runs`` calls and ``min_seconds``)."""
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < min_runs or time.perf_counter() - start < min_seconds:
        t0 = clock()
        fn()
        times.append(clock() - t0)
        if len(times) >= min_runs * 50:
            break
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--campaigns", type=int, default=200, help="simulated 13-date RR CGs (default 200)")
    parser.add_argument("--phases", type=int, default=1000, help="timed between-scenario phases (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice and dice seed (default 1)")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--refusals", type=int, default=12, help="how many kinds of refused candidates to list")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="measure wall time (default) or this process's CPU time (a shared, loaded machine)")
    parser.add_argument("--unsettled", action="store_true",
                        help="play without settling the values lost in the seed (campaigns that roll on one stop)")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    if args.campaigns < 1 or args.phases < 0 or args.max_seconds <= 0:
        parser.error("--campaigns ≥ 1, --phases ≥ 0, --max-seconds > 0")
    begin = time.perf_counter()
    deadline = begin + args.max_seconds
    campaign_deadline = begin + args.max_seconds * 0.6  # the rest for the phases and the baseline

    text = FIXTURE.read_text(encoding="utf-8")
    t0 = clock()
    system = parse_system(text, FIXTURE.name)
    parse_time = clock() - t0
    settled = {} if args.unsettled else stand_in_values(system, random.Random(f"{args.seed}/lost"))
    system = with_cells(system, settled, SETTLED_NOTE) if settled else system

    errors: list[EngineError] = []
    blocked: list[EngineError] = []  # campaigns stopped by a lost value (expected: the engine must refuse)
    blocked_phases: list[EngineError] = []
    refusals: Counter[str] = Counter()
    runs: list[CampaignRun] = []
    snapshots: list[Snapshot] = []
    fingerprint = hashlib.sha256()
    for i in range(args.campaigns):
        if time.perf_counter() > campaign_deadline and runs:
            break
        try:
            run, tally = run_campaign(system, args.seed, i, snapshots)
        except MissingValueError as error:  # a roll fell on a value lost in the seed: the CG cannot go on
            blocked.append(_engine_error(error, getattr(error, "bench_state", None)))
            continue
        except Exception as error:  # noqa: BLE001 — every failure is reported
            errors.append(_engine_error(error, getattr(error, "bench_state", None)))
            continue
        refusals.update(tally.refusals)
        runs.append(run)
        fingerprint.update(json.dumps(run.final.to_json(), sort_keys=True).encode())
    campaigns_cut = len(runs) + len(errors) + len(blocked) < args.campaigns

    phase_rng = random.Random(f"{args.seed}/phases")
    phase_wall: list[float] = []
    phase_engine: list[float] = []
    phase_rolls: list[int] = []
    phase_events: list[int] = []
    by_date: dict[str, list[float]] = {}
    reserve = min(5.0, args.max_seconds * 0.1)
    for i in range(args.phases if snapshots else 0):
        if time.perf_counter() > deadline - reserve and phase_wall:
            break
        snap = phase_rng.choice(snapshots)
        try:
            p_wall, p_engine, driver = run_phase(system, snap, phase_rng, i)
        except MissingValueError as error:
            blocked_phases.append(_engine_error(error, getattr(error, "bench_state", snap.state)))
            continue
        except Exception as error:  # noqa: BLE001
            errors.append(_engine_error(error, getattr(error, "bench_state", snap.state)))
            continue
        phase_wall.append(p_wall)
        phase_engine.append(p_engine)
        phase_rolls.append(len(driver.dice.made))
        phase_events.append(driver.tally.events)
        by_date.setdefault(snap.state.date_id, []).append(p_engine)
        refusals.update(driver.tally.refusals)
    phases_cut = len(phase_wall) + len(blocked_phases) < args.phases

    # baseline: JSON round trip of final states, a bare committed roll
    finals = [r.final for r in runs[:20]]
    rt: list[float] = []
    rt_text: list[float] = []
    round_trip_equal = True
    for final in finals:
        data = final.to_json()
        round_trip_equal &= CampaignState.from_json(data) == final
        rt.extend(timeit(lambda final=final: CampaignState.from_json(final.to_json()), 5, 0.02))
        rt_text.extend(timeit(lambda final=final: CampaignState.from_json(json.loads(json.dumps(final.to_json()))), 5, 0.02))
    bare = CommittedDice(bytes(32), "bench-baseline", ("a", "b"))
    purposes = [f"2.5{n:02d} table roll ({side})" for n in range(1, 23) for side in ("Canadian", "German")]
    counter = iter(range(10**9))
    rolls_t = timeit(lambda: bare.roll(DiceKind.DR, purposes[next(counter) % len(purposes)], "canadian", "canadian"),
                     20_000, 0.3)
    total = time.perf_counter() - begin

    # ---- report ----
    out = print
    out(f"rules_engine benchmark — RR, seed {args.seed}, Python {sys.version.split()[0]}, "
        f"total {total:.1f} s (bound {args.max_seconds:g} s), {args.clock} clock")
    out(f"parse fixtures/rr.yaml (once): {ms(parse_time)} ms")
    out("")
    if runs:
        wall = [r.wall for r in runs]
        engine = [r.engine for r in runs]
        rolls = [r.rolls for r in runs]
        events = [r.events for r in runs]
        sizes = [r.size for r in runs]
        out(f"campaigns: {len(runs)} completed of {args.campaigns} (13 CG Dates, start → CG end)"
            + (f", {len(blocked)} blocked by a lost value" if blocked else "")
            + (" — stopped by --max-seconds" if campaigns_cut else ""))
        out(f"  per campaign, engine  ms: median {ms(statistics.median(engine))}  p95 {ms(pct(engine, 0.95))}")
        out(f"  per campaign, wall    ms: median {ms(statistics.median(wall))}  p95 {ms(pct(wall, 0.95))}"
            f"  (campaigns/s {len(runs) / sum(wall):.1f})")
        out(f"  rolls/campaign:  median {statistics.median(rolls):g}  min {min(rolls)}  max {max(rolls)}")
        out(f"  events/campaign: median {statistics.median(events):g}  min {min(events)}  max {max(events)}")
        out(f"  scenarios/campaign: median {statistics.median([r.scenarios for r in runs]):g} (+ Initial);  "
            f"idle dates/campaign: median {statistics.median([r.idle_dates for r in runs]):g}")
        out(f"  final state JSON: median {statistics.median(sizes):g} B  min {min(sizes)}  max {max(sizes)}")
    if phase_wall:
        out(f"between-scenario phases: {len(phase_wall)} of {args.phases} (results → 2.501 … 2.521 → 2.522 reveal; "
            f"from {len(snapshots)} snapshots)" + (f", {len(blocked_phases)} blocked by a lost value"
                                                   if blocked_phases else "")
            + (" — stopped by --max-seconds" if phases_cut else ""))
        out(f"  per phase, engine ms: median {ms(statistics.median(phase_engine))}  p95 {ms(pct(phase_engine, 0.95))}"
            f"  (phases/s {len(phase_engine) / sum(phase_engine):.0f})")
        out(f"  per phase, wall   ms: median {ms(statistics.median(phase_wall))}  p95 {ms(pct(phase_wall, 0.95))}"
            f"  (phases/s {len(phase_wall) / sum(phase_wall):.0f})")
        out(f"  rolls/phase median {statistics.median(phase_rolls):g}, events/phase median "
            f"{statistics.median(phase_events):g}")
        order = [c.id for c in system.calendar]
        out("  engine ms median by date: " + ", ".join(
            f"{d} {ms(statistics.median(by_date[d]))}" for d in order if d in by_date))
    if rt:
        rt_m, rtt_m, roll_m = statistics.median(rt), statistics.median(rt_text), statistics.median(rolls_t)
        out("baseline:")
        out(f"  CampaignState.from_json(to_json()) of a final state: median {ms(rt_m)} ms  p95 {ms(pct(rt, 0.95))}"
            f"  (equal after the trip: {'yes' if round_trip_equal else 'NO'})")
        out(f"  … with json.dumps/json.loads between:             median {ms(rtt_m)} ms  p95 {ms(pct(rt_text, 0.95))}")
        out(f"  bare CommittedDice.roll (DR):                       median {roll_m * 1e6:.2f} µs")
        out("ratios:")
        if phase_engine:
            pe = statistics.median(phase_engine)
            out(f"  phase (engine) / JSON round trip:   {pe / rt_m:.1f}×   phase / text round trip {pe / rtt_m:.1f}×")
            out(f"  phase (engine) / bare roll:         {pe / roll_m:.0f}×")
        ce = statistics.median([r.engine for r in runs])
        out(f"  campaign (engine) / JSON round trip: {ce / rt_m:.1f}×")
        share = statistics.median([r.rolls for r in runs]) * roll_m / ce
        out(f"  dice share of a campaign: {share * 100:.1f}% (rolls × bare roll / campaign engine time)")
    if refusals:
        out(f"refused random candidates (validate_order / lost values; expected limits): {sum(refusals.values())}")
        for key, count in refusals.most_common(args.refusals):
            out(f"  {count:6d}  {key}")
    if blocked or blocked_phases:
        out(f"blocked by a value lost in the seed (the engine refuses, as it must; a CG Card has to supply it): "
            f"{len(blocked)} campaigns, {len(blocked_phases)} phases — left out of the figures")
        lost = Counter(f"{e.where} [{e.call}] {e.message[:160]}" for e in blocked + blocked_phases)
        for key, count in lost.most_common(5):
            out(f"  {count:6d}  {key}")
        at = Counter(e.when for e in blocked + blocked_phases)
        out("  when: " + "; ".join(f"{k} ×{v}" for k, v in at.most_common(5)))
    out(f"fingerprint of the final states: {fingerprint.hexdigest()[:16]} (same seed → same value)")
    if errors:
        out(f"UNEXPECTED ENGINE ERRORS: {len(errors)} (those campaigns/phases are left out)")
        seen: set[str] = set()
        for problem in errors:
            if problem.line() in seen:
                continue
            seen.add(problem.line())
            out("  " + problem.line())
        out("first traceback:")
        out(errors[0].trace)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
