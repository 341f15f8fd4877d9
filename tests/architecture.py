"""Import graph, cycles, module sizes and private-name uses of Refit's own packages (tests/test_architecture.py and
bench/architecture.py read them)."""
from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGES = ("rules_engine", "campaigns_app")
LIMIT = 400  # lines a module may have


def sources(root: Path) -> list[Path]:
    """Every project module but migrations."""
    return sorted(p for pkg in PACKAGES for p in (root / pkg).rglob("*.py") if "migrations" not in p.parts)


def module_name(path: Path) -> str:
    """Dotted name of a source file (the package's parent is the root)."""
    parts = list(path.parts)
    start = max(i for i, part in enumerate(parts) if part in PACKAGES and (i == 0 or parts[i - 1] not in PACKAGES))
    names = [*parts[start:-1], path.stem]
    if names[-1] == "__init__":
        names.pop()
    return ".".join(names)


def _imported(path: Path) -> set[str]:
    """Project modules (and module.name pairs) one file imports, anywhere in it."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                base = ".".join(up[: len(up) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in found if m.split(".")[0] in PACKAGES}


def import_graph(files: Iterable[Path]) -> dict[str, set[str]]:
    """Module → the project modules it imports (a package's __init__ counts as the package)."""
    files = list(files)
    names = {module_name(p) for p in files}
    return {module_name(p): {m for m in _imported(p) if m in names and m != module_name(p)} for p in files}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a loop (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def imports_inside_functions(files: Iterable[Path]) -> list[str]:
    """`module:line` of each import statement inside a function."""
    hits = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                hits.extend(f"{module_name(path)}:{n.lineno}" for n in ast.walk(node)
                            if isinstance(n, (ast.Import, ast.ImportFrom)))
    return sorted(set(hits))


def private_uses(files: Iterable[Path]) -> list[str]:
    """Imports or `module._name` uses of another project module's private name."""
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
                aliases.update((a.asname or a.name, a.name) for a in node.names if a.name.split(".")[0] in PACKAGES)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__") and node.attr != "_meta"):
                hits.append(f"{module_name(path)} uses {aliases[node.value.id]}.{node.attr}")
    return sorted(set(hits))


def oversized(files: Iterable[Path]) -> list[tuple[int, str]]:
    """(lines, module) of each module over LIMIT lines, largest first."""
    sized = ((len(p.read_text().splitlines()), module_name(p)) for p in files)
    return sorted((s for s in sized if s[0] > LIMIT), reverse=True)
