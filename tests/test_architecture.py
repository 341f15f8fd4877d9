"""The house rules that keep Refit's code easy to find one's way in: no import cycles, small modules, no reach into
another module's private names, no imports hidden in functions (the figures bench/architecture.py prints)."""
from __future__ import annotations

from pathlib import Path

from tests.architecture import cycles, import_graph, imports_inside_functions, oversized, private_uses, sources

ROOT = Path(__file__).resolve().parent.parent


def test_no_import_cycle_between_project_modules() -> None:
    assert cycles(import_graph(sources(ROOT))) == []


def test_no_module_is_over_the_size_limit() -> None:
    assert oversized(sources(ROOT)) == []


def test_no_module_uses_another_modules_private_name() -> None:
    assert private_uses(sources(ROOT)) == []


def test_every_import_sits_at_the_top_of_its_module() -> None:
    assert imports_inside_functions(sources(ROOT)) == []
