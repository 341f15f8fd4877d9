"""`python -m rules_engine …` run as a user would, in a subprocess: listing, lookups, checks, dice verification."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine.dice import CommittedDice, export_rolls
from rules_engine.vocabulary import DiceKind
from tests.rules_engine.loader.test_loader import CARD, MINI

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"
FIXTURES = REPO / "fixtures"


def run(*args: str, fixtures: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("REFIT_FIXTURES_DIR", None)
    if fixtures is not None:
        env["REFIT_FIXTURES_DIR"] = str(fixtures)
    python = str(PYTHON) if PYTHON.exists() else sys.executable
    return subprocess.run(
        [python, "-m", "rules_engine", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.fixture()
def mini_dir(tmp_path: Path) -> Path:
    (tmp_path / "mini.yaml").write_text(MINI, encoding="utf-8")
    return tmp_path


def test_systems_lists_each_system_id_with_its_name(mini_dir: Path) -> None:
    result = run("systems", fixtures=mini_dir)
    assert result.returncode == 0
    assert result.stdout == "mini\tMini CG\n"


def test_tables_lists_each_table_with_its_columns(mini_dir: Path) -> None:
    result = run("tables", "mini", fixtures=mini_dir)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "cpp\t1.11\tCPP Table\tDR\tcolumns: low, mid",
        "leaders\t1.12\tLeader Table\tDR\tcolumns: result (Leaders Received)",
    ]


def test_settings_lists_what_a_cg_card_or_the_players_supply(mini_dir: Path) -> None:
    result = run("settings", "mini", fixtures=mini_dir)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "intensity\t1.0\tIntensity column\tone of low, mid\tfrom cg-card",
        "hist_drm\t-\tHIST DRM\tint\tfrom cg-card, per side",
    ]


def test_kgp_settings_name_the_8_31_balance_with_its_default() -> None:
    result = run("settings", "kgp")
    assert result.returncode == 0
    assert "balance\t8.31\tCG Balance (8.31)\tone of none, german, us\tfrom players\tdefault \"none\"" in result.stdout


def test_lookup_prints_only_the_cell_as_printed(mini_dir: Path) -> None:
    result = run("lookup", "mini", "leaders", "1", fixtures=mini_dir)
    assert (result.returncode, result.stdout, result.stderr) == (0, "10-3, 9-1, 8-1\n", "")


def test_lookup_beyond_the_edges_takes_the_first_or_last_row(mini_dir: Path) -> None:
    assert run("lookup", "mini", "cpp", "-4", "--column", "low", fixtures=mini_dir).stdout == "16\n"
    assert run("lookup", "mini", "leaders", "99", fixtures=mini_dir).stdout == "-\n"


def test_lookup_of_a_lost_cell_is_refused_on_stderr(mini_dir: Path) -> None:
    result = run("lookup", "mini", "cpp", "5", "--column", "mid", fixtures=mini_dir)
    assert result.returncode == 1
    assert result.stdout == ""
    assert "the MID value for final DR 5 is lost in the rule text" in result.stderr


def test_lookup_needs_a_column_when_the_table_has_several(mini_dir: Path) -> None:
    result = run("lookup", "mini", "cpp", "5", fixtures=mini_dir)
    assert result.returncode == 2 and result.stdout == ""
    assert "allowed: low, mid" in result.stderr


def test_unknown_system_table_and_column_are_refused_with_the_allowed_names(mini_dir: Path) -> None:
    system = run("lookup", "maxi", "cpp", "5", fixtures=mini_dir)
    assert system.returncode == 2 and "unknown system 'maxi' (allowed: mini)" in system.stderr
    table = run("lookup", "mini", "cp", "5", fixtures=mini_dir)
    assert table.returncode == 2 and "unknown table 'cp' (allowed: cpp, leaders)" in table.stderr
    column = run("lookup", "mini", "cpp", "5", "--column", "high", fixtures=mini_dir)
    assert column.returncode == 2 and "unknown column 'high' (allowed: low, mid)" in column.stderr
    assert system.stdout == table.stdout == column.stdout == ""


def test_an_interpreted_cell_flagged_verify_adds_a_note_on_stderr_only(tmp_path: Path) -> None:
    text = MINI.replace("cells: [16, 25]", 'cells: [16, {value: 25, as_written: "2S", interpreted: "S read as 5", verify: true}]')
    (tmp_path / "mini.yaml").write_text(text, encoding="utf-8")
    result = run("lookup", "mini", "cpp", "2", "--column", "mid", fixtures=tmp_path)
    assert result.returncode == 0
    assert result.stdout == "25\n"
    assert "verify against your printed chart" in result.stderr and "'2S'" in result.stderr


def test_an_invalid_system_file_is_reported_with_its_problems(tmp_path: Path) -> None:
    (tmp_path / "mini.yaml").write_text(MINI.replace("dice: DR\n    per: side", "dice: 2d6\n    per: side"), encoding="utf-8")
    result = run("tables", "mini", fixtures=tmp_path)
    assert result.returncode == 1
    assert "mini.yaml: tables[cpp].dice: unknown value '2d6' (allowed: DR, dr)" in result.stderr


def test_check_validates_a_cg_card_against_its_base_system(mini_dir: Path) -> None:
    card = mini_dir / "cards" / "example.yaml"
    card.parent.mkdir()
    card.write_text(CARD, encoding="utf-8")
    ok = run("check", str(card), fixtures=mini_dir)
    assert ok.returncode == 0 and "ok (CG Card example-card for mini" in ok.stdout
    card.write_text(CARD.replace("column: MID, value: 33", "column: low, value: 33"), encoding="utf-8")
    bad = run("check", str(card), fixtures=mini_dir)
    assert bad.returncode == 1
    assert "supply[0].value: cpp row 3-10 column low is not missing" in bad.stderr


def _export(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    seed = bytes(range(32))
    dice = CommittedDice(seed, "c-1", ("alpha", "bravo"))
    rolls = [dice.roll(DiceKind.DR, "cpp", "grey", "grey"), dice.roll(DiceKind.dr, "setup", "blue")]
    data = export_rolls(seed, "c-1", ("alpha", "bravo"), rolls)
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, data


def test_verify_dice_confirms_an_honest_export(tmp_path: Path) -> None:
    path, _ = _export(tmp_path)
    result = run("verify-dice", str(path))
    assert (result.returncode, result.stdout) == (0, "all 2 rolls verified\n")


def test_verify_dice_reports_a_tampered_roll_and_fails(tmp_path: Path) -> None:
    path, data = _export(tmp_path)
    rolls = data["rolls"]
    assert isinstance(rolls, list)
    first = rolls[0]
    first["dice"] = [7 - d for d in first["dice"]]
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run("verify-dice", str(path))
    assert result.returncode == 1
    assert result.stdout.strip() != ""
    assert "verification FAILED" in result.stderr


# --- golden lookups on the campaign systems (values typed from the seed rule texts, via the catalog) ---------------

def needs(system: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not (FIXTURES / f"{system}.yaml").exists(), reason=f"fixtures/{system}.yaml not written yet")


@needs("pl25")
def test_pl25_cp_replenishment_mid_column_for_a_final_dr_of_2_is_25() -> None:
    result = run("lookup", "pl25", "cp-replenishment", "2", "--column", "mid")
    assert (result.returncode, result.stdout) == (0, "25\n")


@needs("pl25")
def test_pl25_cp_replenishment_below_the_first_row_takes_it_and_the_column_is_case_insensitive() -> None:
    result = run("lookup", "pl25", "cp-replenishment", "1", "--column", "MID")
    assert (result.returncode, result.stdout) == (0, "25\n")


@needs("pl25")
def test_pl25_leader_table_standard_column_for_3_is_9_2() -> None:
    result = run("lookup", "pl25", "leader", "3", "--column", "standard")
    assert (result.returncode, result.stdout) == (0, "9-2\n")


@needs("pl25")
def test_pl25_oba_table_for_4_is_plentiful() -> None:
    result = run("lookup", "pl25", "oba-ammo", "4")
    assert (result.returncode, result.stdout) == (0, "Plentiful\n")


@needs("rr")
def test_rr_company_leader_table_for_1_gives_three_leaders() -> None:
    result = run("lookup", "rr", "company-leader", "1")
    assert (result.returncode, result.stdout) == (0, "10-3, 9-1, 8-1\n")


@needs("rr")
def test_rr_company_leader_table_has_no_row_for_12_and_refuses() -> None:
    result = run("lookup", "rr", "company-leader", "12")
    assert result.returncode != 0 and result.stdout == ""
    assert "12" in result.stderr


@needs("phd")
def test_phd_tp_replenishment_us_value_for_6_is_lost_and_refused() -> None:
    result = run("lookup", "phd", "tp-replenishment", "6", "--column", "us")
    assert result.returncode != 0 and result.stdout == ""
    assert "lost" in result.stderr or "not in the rule text" in result.stderr


def test_systems_lists_the_five_campaign_systems_once_their_fixtures_exist() -> None:
    present = sorted(p.stem for p in FIXTURES.glob("*.yaml"))
    if not present:
        pytest.skip("no fixtures written yet")
    result = run("systems")
    assert result.returncode == 0, result.stderr
    listed = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert sorted(listed) == present


@needs("rr")
def test_rr_escape_row_printed_with_a_reversed_glyph_warns_on_stderr_only() -> None:
    result = run("lookup", "rr", "escape", "5", "--column", "infantry")
    assert (result.returncode, result.stdout) == (0, "Escapes\n")
    assert "verify against your printed chart" in result.stderr


@pytest.mark.skipif(not (FIXTURES / "cards" / "example-pl25.yaml").exists(), reason="example card not written yet")
def test_the_example_pl25_card_checks_ok_against_pl25() -> None:
    result = run("check", str(FIXTURES / "cards" / "example-pl25.yaml"))
    assert result.returncode == 0, result.stderr
    assert "ok (CG Card example-pl25 for pl25" in result.stdout
