"""Architecture figures, run by hand: import cycles, imports inside functions, modules over 400 lines, private calls
across modules, mypy --strict errors, and the places a sealed chit submission passes through (traced at run time).

    .venv/bin/python bench/architecture.py            # everything (the chit trace runs one pytest test on SQLite)
    .venv/bin/python bench/architecture.py --no-trace --no-mypy
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.architecture import (  # noqa: E402
    LIMIT,
    PACKAGES,
    cycles,
    import_graph,
    imports_inside_functions,
    oversized,
    private_uses,
    sources,
)

ROOT = Path(__file__).resolve().parent.parent


def mypy_errors(target: str) -> str:
    """The count mypy --strict prints for one package."""
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", target], cwd=ROOT, capture_output=True, text=True)
    last = (run.stdout.strip().splitlines() or ["?"])[-1]
    m = re.search(r"Found (\d+) error", last)
    return m.group(1) if m else ("0" if "Success" in last else last)


def chit_trace() -> None:
    """Run one chit test with the tracer plugin (bench/chit_trace.py) on the embedded database."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["PYTHONPATH"] = str(ROOT)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "bench.chit_trace", "-p", "no:cacheprovider", "-s",
                    "tests/campaigns_app/phase/test_chits.py::test_a_confirmed_chit_is_sealed_and_the_page_says_so"],
                   cwd=ROOT, env=env, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-mypy", action="store_true")
    parser.add_argument("--no-trace", action="store_true")
    args = parser.parse_args()
    files = sources(ROOT)
    found_cycles = cycles(import_graph(files))
    big = oversized(files)
    print(f"modules: {len(files)}")
    print(f"import cycles (strongly connected groups): {len(found_cycles)}")
    for comp in found_cycles:
        print(f"  {len(comp)} modules: {', '.join(comp)}")
    print(f"import statements inside functions: {len(imports_inside_functions(files))}")
    print(f"modules over {LIMIT} lines: {len(big)}")
    for lines, name in big:
        print(f"  {lines:5d} {name}")
    priv = private_uses(files)
    print(f"uses of another module's private name: {len(priv)}")
    for hit in priv[:40]:
        print(f"  {hit}")
    if not args.no_mypy:
        for pkg in PACKAGES:
            print(f"mypy --strict errors in {pkg}: {mypy_errors(pkg)}")
    if not args.no_trace:
        chit_trace()


if __name__ == "__main__":
    main()
