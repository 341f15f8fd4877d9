"""The one door: only the adapter modules see the engine's state; pages, fragments, frames and e-mails get a SideView's
JSON and words (the autouse guard in conftest checks every template context rendered in these tests)."""
from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth.models import User
from django.template import Context, Template

from campaigns_app import door
from campaigns_app.models import Campaign
from rules_engine.ledger import new_ledger
from rules_engine.view import SideView
from tests.campaigns_app.state_guard import forbidden_values

APP = Path(__file__).resolve().parents[2] / "campaigns_app"
# the adapters: they load, pass and store the state (engine, door, services), project it into tables (records)
ADAPTERS = ("engine/", "services/", "door.py", "records/door.py", "records/projection.py")
STATE_MODULES = {"rules_engine.state"}
STATE_NAMES = {"CampaignState", "SideLedger"}


def state_imports(source: str, filename: str) -> list[str]:
    """Each import of the engine's state module or of a state type in ``source`` ("file:line: what")."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {alias.name for alias in node.names}
            if node.module in STATE_MODULES or names & STATE_NAMES:
                found.append(f"{filename}:{node.lineno}: from {node.module} import {', '.join(sorted(names))}")
            if node.module == "rules_engine" and "state" in names:
                found.append(f"{filename}:{node.lineno}: from rules_engine import state")
        elif isinstance(node, ast.Import):
            found += [f"{filename}:{node.lineno}: import {a.name}" for a in node.names if a.name in STATE_MODULES]
    return found


def test_no_campaigns_app_module_but_the_adapters_imports_the_engines_state() -> None:
    found = [hit for path in sorted(APP.rglob("*.py")) if not path.relative_to(APP).as_posix().startswith(ADAPTERS)
             and "migrations" not in path.parts
             for hit in state_imports(path.read_text(encoding="utf-8"), path.relative_to(APP).as_posix())]
    assert found == []


def test_the_import_check_sees_a_state_import() -> None:
    assert state_imports("from rules_engine.state import CampaignState\n", "x.py")
    assert state_imports("from rules_engine.ledger import SideLedger\n", "x.py")
    assert state_imports("from rules_engine import state\n", "x.py")
    assert not state_imports("from rules_engine.view import SideView\n", "x.py")


def test_the_context_guard_finds_a_state_wherever_it_hides(
        campaign_factory: Callable[..., Campaign], users: dict[str, User]) -> None:
    view = door.side_view(campaign_factory(users["gerd"], users["cana"]), "german")
    assert isinstance(view, SideView)
    ledger = new_ledger("german")
    hidden = {"phase": {"rows": [1, (2, ledger)]}}
    assert list(forbidden_values(hidden)) == ["context['phase']['rows'][1][1]: SideLedger"]
    assert list(forbidden_values({"view": view})) == ["context['view']: SideView"]
    assert list(forbidden_values({"view": view.json, "n": 1})) == []
    assert Template("{{ view.step }}").render(Context({"view": view.json})) == view.step
