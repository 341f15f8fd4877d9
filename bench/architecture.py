"""Architecture figures, run by hand: import cycles, imports inside functions, modules over 400 lines, private calls
across modules, mypy --strict errors, and the places a sealed chit submission passes through (traced at run time).

    .venv/bin/python bench/architecture.py            # everything (the chit trace runs one pytest test on SQLite)
    .venv/bin/python bench/architecture.py --no-trace --no-mypy
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules_engine", "campaigns_app")
LIMIT = 400


def sources() -> list[Path]:
    """Every project module but migrations."""
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts)


def module_name(path: Path) -> str:
    """Dotted name of a source file."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> tuple[set[str], int]:
    """Project modules a file imports (anywhere in it) and how many import statements sit inside functions."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    inner = 0
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner += sum(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(node))
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                base = ".".join(up[: len(up) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in found if m.split(".")[0] in PACKAGES}, inner


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def private_calls(files: list[Path]) -> list[str]:
    """`module._name` uses of another project module's private name."""
    hits = []
    for path in files:
        tree = ast.parse(path.read_text())
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        hits.append(f"{module_name(path)} imports {node.module}.{a.name}")
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in PACKAGES:
                        aliases[a.asname or a.name] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__") and node.attr != "_meta"):
                hits.append(f"{module_name(path)} uses {aliases[node.value.id]}.{node.attr}")
    return sorted(set(hits))


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
                    "tests/campaigns_app/test_chits.py::test_a_confirmed_chit_is_sealed_and_the_page_says_so"],
                   cwd=ROOT, env=env, check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-mypy", action="store_true")
    parser.add_argument("--no-trace", action="store_true")
    args = parser.parse_args()
    files = sources()
    graph: dict[str, set[str]] = {}
    inner_total = 0
    names = {module_name(p) for p in files}
    for path in files:
        found, inner = imports(path)
        inner_total += inner
        graph[module_name(path)] = {m for m in found if m in names and m != module_name(path)}
    found_cycles = cycles(graph)
    big = sorted(((len(p.read_text().splitlines()), module_name(p)) for p in files), reverse=True)
    big = [b for b in big if b[0] > LIMIT]
    print(f"modules: {len(files)}")
    print(f"import cycles (strongly connected groups): {len(found_cycles)}")
    for comp in found_cycles:
        print(f"  {len(comp)} modules: {', '.join(comp)}")
    print(f"import statements inside functions: {inner_total}")
    print(f"modules over {LIMIT} lines: {len(big)}")
    for lines, name in big:
        print(f"  {lines:5d} {name}")
    priv = private_calls(files)
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
