"""What one side may see of the campaign: ``view_for`` (the typed ``SideView``, the one door) and ``view_json`` (the
JSON view inside it, as the browser gets it)."""
from __future__ import annotations

from rules_engine.state import IDLE
from rules_engine.view.json_view import ROSTER_FIELDS, allowed_chits, entries_view, public_roster_fields, view_json
from rules_engine.view.side_view import (
    ChitFacts,
    FormFacts,
    ReconTurn,
    Resolution,
    SideView,
    chit_facts,
    current_step,
    form_facts,
    view_for,
)

__all__ = ["IDLE", "ROSTER_FIELDS", "ChitFacts", "FormFacts", "ReconTurn", "Resolution", "SideView", "allowed_chits",
           "chit_facts", "current_step", "entries_view", "form_facts", "public_roster_fields", "view_for", "view_json"]
