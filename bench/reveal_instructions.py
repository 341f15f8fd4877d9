#!/usr/bin/env python
"""The instructions one reveal costs, counted by valgrind's callgrind: steady whatever else the machine is doing, where
``reveal_cpu.py``'s CPU times move by a third from one run to the next on a shared machine. Run by hand (not
collected by the suite), from the repository root, with the databases the tests use:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/refit REDIS_URL=redis://127.0.0.1:6379/7 \\
        .venv/bin/python bench/reveal_instructions.py [--rounds 20]

For each of five writes — the second chit POST (htmx), the same reveal as a plain form, a message (htmx), a side's last
page closing (the presence service: who is online), and the request floor (the same POST to a view that only reads the
signed-in user: bench/floor_urls.py), and the reveal and the message again with 30 messages already on the pages (a
conversation under way: the latest 30 are shown) — it runs the test in bench/instruction_rounds.py under ``valgrind
--tool=callgrind``, its instrumentation off while Django, the test database and the campaign are set up
(``--instr-atstart=no``; the test turns it on with ``callgrind_control -i on`` once they are), and counts only inside
the measured writes: each is made through ``functools.reduce``, and ``--toggle-collect=functools_reduce`` collects
there alone. Each round runs in a savepoint rolled back afterwards (outside the count), so every round reveals the same
sealed chits from the same rows; its after-commit work (frames, e-mail) is counted, as in ``reveal_cpu.py``; templates
render as in production. It prints the instructions per write and each one's ratio to the request floor (the page
closing is no request: its ratio only sets it beside the others). Compare two commits by running this in each: the
counts of the same code move by 1–2 % at most from one run to the next (threads waiting on the database and Redis,
the garbage collector's timing), where CPU times move by a third.

Callgrind counts the instructions of the Python process in user space: not the kernel's work for its sockets, nor
PostgreSQL's or Redis's. A reveal's CPU time is therefore more than its instructions alone suggest, next to the floor.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REQUESTS = ("reveal (htmx)", "reveal (plain form)", "message (htmx)", "last page closing", "request floor",
            "reveal, 30 messages", "message, 30 messages")  # the last two: 30 messages already on the pages
ROUNDS_TEST = Path(__file__).resolve().with_name("instruction_rounds.py")


def count(what: str, rounds: int) -> int:
    """The instructions callgrind collected over ``rounds`` requests of kind ``what``."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        env = dict(os.environ, REVEAL_INSTRUCTIONS=what, REVEAL_INSTRUCTIONS_ROUNDS=str(rounds), PYTHONHASHSEED="0")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--toggle-collect=functools_reduce",
             f"--callgrind-out-file={out}", sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             str(ROUNDS_TEST)],
            env=env, capture_output=True, text=True)
        if run.returncode != 0 or not out.exists():
            raise SystemExit(f"{what}: the run failed\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
        found = re.search(r"^totals:\s*(\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise SystemExit(f"{what}: no totals in callgrind's output")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=20, help="counted requests of each kind (default 20)")
    parser.add_argument("--only", choices=REQUESTS, action="append", help="count only these kinds (repeatable)")
    args = parser.parse_args()
    kinds = args.only or list(REQUESTS)
    if "request floor" not in kinds:
        kinds.append("request floor")
    per = {what: count(what, args.rounds) / args.rounds for what in kinds}
    floor = per["request floor"]
    print(f"instructions per request (callgrind, {args.rounds} rounds each, after a few not counted):")
    for what, figure in per.items():
        print(f"  {what:22} {figure / 1e6:8.2f} M   {figure / floor:5.2f}x the request floor")


if __name__ == "__main__":
    main()
