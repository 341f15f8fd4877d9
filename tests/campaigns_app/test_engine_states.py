"""Stored state JSON in and out: a write's own state is not parsed again when its pages are published."""
from __future__ import annotations

import copy
from typing import Any

from campaigns_app import engine
from rules_engine.state import CampaignState


def test_the_json_a_write_stores_gives_back_its_state_without_parsing(rr: Any, monkeypatch: Any) -> None:
    state = engine.load_state(engine.new_state(engine.system_of(rr)))
    stored = engine.stored_json(state)
    parsed: list[object] = []
    original = CampaignState.from_json
    monkeypatch.setattr(CampaignState, "from_json", staticmethod(lambda data: parsed.append(data) or original(data)))
    assert engine.load_state(stored) is state
    assert parsed == []
    equal_but_other = copy.deepcopy(stored)
    again = engine.load_state(equal_but_other)
    assert again is not state and again == state
    assert len(parsed) == 1
