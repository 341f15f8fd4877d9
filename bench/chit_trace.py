"""pytest plugin for bench/architecture.py: trace the project functions one sealed chit submission passes through."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest

PACKAGES = ("rules_engine", "campaigns_app")


@pytest.fixture(autouse=True)
def trace_chit_post(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Wrap the test client's POST: while a chit is submitted, record each project function entered, in order."""
    from django.test import Client

    original = Client.post
    order: list[str] = []
    climbs: list[str] = []

    def profiler(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if module.split(".")[0] in PACKAGES and "migrations" not in module:
            where = f"{module}.{frame.f_code.co_qualname}"
            if not order or order[-1] != where:
                order.append(where)
            caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back else ""
            if module.startswith("campaigns_app") and caller.startswith("rules_engine"):
                climbs.append(f"{caller} -> {where}")

    def post(self: Client, path: str, *args: Any, **kwargs: Any) -> Any:
        if "chit" not in path or "confirmed" not in (args[0] if args else kwargs.get("data", {})):
            return original(self, path, *args, **kwargs)
        sys.setprofile(profiler)
        try:
            return original(self, path, *args, **kwargs)
        finally:
            sys.setprofile(None)

    monkeypatch.setattr(Client, "post", post)
    yield
    places = list(dict.fromkeys(order))
    modules = list(dict.fromkeys(p.rsplit(".", 1)[0] if "." in p else p for p in places))
    print(f"\nchit submission: {len(places)} distinct project functions in {len(modules)} modules; "
          f"calls from rules_engine back into campaigns_app: {len(climbs)} {sorted(set(climbs))}")
    for p in places:
        print(f"  {p}")
