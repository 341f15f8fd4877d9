"""The rules engine is pure Python: no Django, no network, no database, no files (only the CLI entry points read files)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "rules_engine"
ENTRY_POINTS = {"cli.py", "__main__.py"}  # the command line reads files; nothing else may
FORBIDDEN_MODULES = {
    "django", "channels", "channels_redis", "psycopg", "psycopg2", "redis", "asyncio", "socket", "ssl",
    "requests", "httpx", "urllib.request", "urllib3", "http.client", "aiohttp", "sqlite3", "subprocess",
}
FORBIDDEN_CALLS = {"open"}  # open(…) / io.open(…) / Path.open(…)
FORBIDDEN_METHODS = {"read_text", "read_bytes", "write_text", "write_bytes", "open"}


def _forbidden_module(name: str) -> str | None:
    for module in FORBIDDEN_MODULES:
        if name == module or name.startswith(module + "."):
            return module
    return None


def impurities(source: str, filename: str) -> list[str]:
    """Each forbidden import or file call in ``source``, as "file:line: what"."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        line = getattr(node, "lineno", 0)
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS | {"__import__"}:
                found.append(f"{filename}:{line}: calls {func.id}()")
            elif isinstance(func, ast.Attribute) and func.attr in FORBIDDEN_METHODS | {"import_module"}:
                found.append(f"{filename}:{line}: calls .{func.attr}()")
        for name in names:
            module = _forbidden_module(name)
            if module:
                found.append(f"{filename}:{line}: imports {module}")
                break
    return found


def engine_files() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if p.name not in ENTRY_POINTS)


def test_the_engine_has_modules_to_check() -> None:
    names = {p.name for p in engine_files()}
    assert {"dice.py", "events.py", "state.py", "initiative.py", "side_view.py", "model.py", "errors.py"} <= names


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_a_rules_engine_module_does_no_io_and_imports_no_framework(path: Path) -> None:
    assert impurities(path.read_text(encoding="utf-8"), path.name) == []


@pytest.mark.parametrize(
    "source,expected",
    [
        ("import django.db", "x.py:1: imports django"),
        ("from channels.layers import get_channel_layer", "x.py:1: imports channels"),
        ("import psycopg", "x.py:1: imports psycopg"),
        ("import redis.asyncio as r", "x.py:1: imports redis"),
        ("import asyncio", "x.py:1: imports asyncio"),
        ("from socket import create_connection", "x.py:1: imports socket"),
        ("import requests", "x.py:1: imports requests"),
        ("import httpx", "x.py:1: imports httpx"),
        ("from urllib import request", "x.py:1: imports urllib.request"),
        ("import urllib.request", "x.py:1: imports urllib.request"),
        ("import sqlite3", "x.py:1: imports sqlite3"),
        ("data = open('rr.yaml').read()", "x.py:1: calls open()"),
        ("from pathlib import Path\ntext = Path('rr.yaml').read_text()", "x.py:2: calls .read_text()"),
    ],
)
def test_the_purity_check_catches_each_kind_of_impurity(source: str, expected: str) -> None:
    assert impurities(source, "x.py") == [expected]


def test_the_purity_check_lets_plain_python_through() -> None:
    source = "import json\nimport hmac\nfrom urllib.parse import quote\nfrom rules_engine.dice import Roll\nx = json.dumps({})"
    assert impurities(source, "x.py") == []
