"""A guard for every page, fragment, websocket frame and e-mail rendered in the tests: no template context holds a
``CampaignState`` or a ``SideLedger`` (they reach campaigns_app only through the door: a SideView's JSON and words)."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import Model

from rules_engine.ledger import SideLedger
from rules_engine.model import System
from rules_engine.state import CampaignState
from rules_engine.view import SideView

FORBIDDEN = (CampaignState, SideLedger, SideView)
LEAVES = (str, bytes, int, float, bool, type(None), Model, System)  # a System is rules data, never the state


def forbidden_values(value: Any, path: str = "context", seen: set[int] | None = None) -> Iterator[str]:
    """The paths in ``value`` (recursively through dicts, lists, tuples, sets and dataclasses) that hold a
    CampaignState, a SideLedger or a whole SideView."""
    seen = set() if seen is None else seen
    if isinstance(value, LEAVES) or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, FORBIDDEN):
        yield f"{path}: {type(value).__name__}"
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from forbidden_values(item, f"{path}[{key!r}]", seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for index, item in enumerate(value):
            yield from forbidden_values(item, f"{path}[{index}]", seen)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from forbidden_values(getattr(value, field.name), f"{path}.{field.name}", seen)
