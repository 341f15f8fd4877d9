"""Fixtures for the live page's tests: the presence store's clock, moved on by hand (never by sleeping)."""
from __future__ import annotations

import pytest

from campaigns_app.live import presence_store


class PresenceClock:
    """The presence store's time, standing still until a test moves it on."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def presence_clock(monkeypatch: pytest.MonkeyPatch) -> PresenceClock:
    clock = PresenceClock(presence_store.clock())
    monkeypatch.setattr(presence_store, "clock", clock)
    return clock
