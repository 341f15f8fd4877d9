"""The records' one door: the record selectors, views, exports and CG-end texts never load a campaign state nor
import rules_engine; they get a RecordView from ``campaigns_app.records.door`` (rules_engine.record_view decides)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3] / "campaigns_app"
BEHIND_THE_DOOR = (
    "records/selectors.py", "records/views.py", "records/exports.py", "records/end_selectors.py", "records/urls.py",
)


def _tree(name: str) -> ast.Module:
    return ast.parse((ROOT / name).read_text(), name)


@pytest.mark.parametrize("name", BEHIND_THE_DOOR)
def test_record_modules_import_no_rules_engine(name: str) -> None:
    imported = [node.module or "" for node in ast.walk(_tree(name)) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(_tree(name)) if isinstance(node, ast.Import) for alias in node.names]
    assert not [module for module in imported if module.startswith("rules_engine")], name


@pytest.mark.parametrize("name", BEHIND_THE_DOOR)
def test_record_modules_never_load_or_read_a_campaign_state(name: str) -> None:
    source = (ROOT / name).read_text()
    assert "load_state" not in source and "CampaignState" not in source, name
    reads = [node for node in ast.walk(_tree(name))
             if isinstance(node, ast.Attribute) and node.attr == "state"
             and isinstance(node.value, ast.Name) and node.value.id == "campaign"]
    assert not reads, f"{name} reads campaign.state"
