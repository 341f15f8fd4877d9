"""Transitional: ``rules_engine.view`` still imports ``owes`` from here; the one machine has no spine of its own
(``owes`` is ``rules_engine.phase.owes.owes``, also ``sequence.owes``). Delete this module once view imports that."""
from __future__ import annotations

from rules_engine.phase.owes import owes

__all__ = ["owes"]
