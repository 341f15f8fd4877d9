"""KGP on two Map Groups through the browser-facing views (PostgreSQL), with the TEST DATA card
tests/campaigns_app/cards/kgp-map-groups-test.yaml (St and Lg, 2 Map Sections each; the 8.31 Balance set to german):
the live page lists one scenario per Map Group, each marked finished and its results entered on its own form; the CG
Roster and history show each Map Group's results on the CG Date's line; each Map Group's block has its own rolls at the
board (CG23 Game End dr, Roll dice), recorded with the Map Group and public to both; and the U.S. side never sees the
German's balance-halved 8.616 Secret DR before CG end (byte-identical pages whatever the German rolled)."""
from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.live import fragments
from campaigns_app.models import Campaign, EventRecord, Seat
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.conftest import client_for, deterministic_csrf, snapshot
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.test_campaign_kgp_map_groups import AM_LG, AM_ST

pytestmark = pytest.mark.django_db

CARD = CARDS / "kgp-map-groups-test.yaml"
US, GE = "us", "german"


def html_of(play: Play, side: str, name: str = "campaign_detail", query: str = "") -> str:
    return client_for(play.users[side]).get(reverse(name, args=[play.public_id]) + query).content.decode()


def post(play: Play, side: str, name: str, data: dict[str, str]) -> Any:
    return client_for(play.users[side]).post(reverse(name, args=[play.public_id]), data, headers={"HX-Request": "true"})


def group_token(html: str, group: str) -> str:
    match = re.search(rf'name="map_group" value="{group}">\s*<input type="hidden" name="token" value="([0-9a-f]+)"', html)
    assert match, f"the {group} form carries its one-time token"
    return match.group(1)


def form(entry: dict[str, Any], group: str) -> dict[str, str]:
    data = {"map_group": group, "winner": ""}
    for side in (US, GE):
        data[f"cvp-{side}"] = str(entry["cvp"][side])
        data[f"attacked-{side}"] = "yes" if entry["attacked"][side] else "no"
        data[f"lvp-{side}"] = str(entry["lvp"].get(side, ""))
        data[f"leaders_lost-{side}"] = data[f"units_lost-{side}"] = ""
    return data


def at_initial_scenario(monkeypatch: Any, dice: ScriptedDice | None = None) -> Play:
    play = Play(monkeypatch, "kgp", GE, dice or ScriptedDice(), card=CARD)
    play.order(GE)
    play.order(US)
    assert play.at() == ("18 AM", "initial-scenario", "@initial-scenario")
    return play


def test_the_live_page_lists_one_scenario_per_map_group_each_marked_finished_on_its_own_form(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch)
    html = html_of(play, GE)
    checklist = html[html.index('id="checklist"'):html.index('id="ledger-summary"')]
    assert "Initial Scenario on Map Group St (2 Map Sections)" in checklist
    assert "Initial Scenario on Map Group Lg (2 Map Sections)" in checklist
    assert 'id="mark-done-St"' in html and 'id="mark-done-Lg"' in html and 'id="mark-done"' not in html

    done = {"step": "initial-scenario", "map_group": "St", "token": group_token(html, "St")}
    assert post(play, GE, "phase_done", done).status_code == 200
    assert post(play, GE, "phase_done", done).status_code == 200  # the same form again: recorded once
    assert len(play.records("step-done", map_group="St")) == 1
    html = html_of(play, GE)
    assert 'id="mark-done-St"' not in html and 'id="mark-done-Lg"' in html
    assert "German: mark the Initial Scenario on St finished" not in html_of(play, US)
    assert "You: mark the Initial Scenario on St finished" in html_of(play, US)


def test_each_map_groups_results_are_entered_on_its_own_form_and_a_difference_blocks_only_until_agreed(
    monkeypatch: Any,
) -> None:
    play = at_initial_scenario(monkeypatch)
    play.both_done()
    assert play.at()[1] == "results"
    for side in (US, GE):
        assert post(play, side, "phase_results", form(AM_ST, "St")).status_code == 200
    assert post(play, US, "phase_results", form({**AM_LG, "cvp": {US: 3, GE: 5}}, "Lg")).status_code == 200
    assert post(play, GE, "phase_results", form(AM_LG, "Lg")).status_code == 200
    html = html_of(play, US)
    assert 'id="results-differ-Lg"' in html and 'id="results-differ-St"' not in html
    assert "Agreed</span> CVP U.S. 6, German 11; LVP U.S. 2, German 1; German attacked." in html
    assert 'id="results-form-Lg"' in html and 'id="results-form-St"' not in html
    assert "The entries differ: agree them" in html
    refused = post(play, US, "phase_results", {**form(AM_LG, "Lg"), "cvp-us": "-1"})
    assert refused.status_code == 422 and "Map Group Lg: CVP amassed by the U.S. side: -1 is out of range: enter a whole number from 0 to 99999." in refused.content.decode()
    assert post(play, US, "phase_results", form(AM_LG, "Lg")).status_code == 200
    assert play.at() == ("18 AM", "phase", "8.612")


def test_the_cg_roster_and_history_show_each_map_groups_results_on_the_dates_line(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch)
    play.both_done()
    play.results("St", **AM_ST)
    play.results("Lg", **AM_LG)
    roster = html_of(play, US, "records_roster")
    # the U.S. line: St CVP 6 amassed / 11 suffered, LVP 2; Lg 3 / 4, LVP 5 — the German line, seen by the U.S.
    # before CG end (both sides agreed these results): St 11 / 6, LVP 1; Lg 4 / 3, LVP 7
    assert "St: CVP 6 / 11, LVP 2; Lg: CVP 3 / 4, LVP 5" in roster
    assert "St: CVP 11 / 6, LVP 1; Lg: CVP 4 / 3, LVP 7" in roster
    csv = client_for(play.users[GE]).get(reverse("records_roster_csv", args=[play.public_id])).content.decode()
    assert "St: CVP 11 / 6, LVP 1; Lg: CVP 4 / 3, LVP 7" in csv
    history = html_of(play, GE, "campaign_history")
    assert ("The results of 18 AM are confirmed on every Map Group — St: CVP U.S. 6, German 11; LVP U.S. 2, "
            "German 1; German attacked · Lg: CVP U.S. 3, German 4; LVP U.S. 5, German 7; German attacked.") in history
    assert "The U.S. side finished Initial Scenario on Map Group Lg (18 AM)." in history
    assert "You finished Initial Scenario on Map Group St (18 AM)." in history


# ---- rolls at the board per Map Group's scenario (KGP 8.2; CG23 s004:174 "A Turn Record Chart is printed on one map of
# each Map Group", s004:176 "EX: … Game Turn 7 in a daytime scenario, play ends immediately on a Game-End Original dr of
# ≤ 3") ------------------------------------------------------------------------------------------------------------------


def block(html: str, group: str) -> str:
    """One Map Group's block of the scenario panel."""
    start = html.index(f'id="map-group-{group}"')
    return html[start:html.index("</li>\n", start)]


def board_token(html: str) -> str:
    match = re.search(r'id="board-form-St".*?name="token" value="([0-9a-f]+)"', html, re.S)
    assert match, "each Map Group's Roll dice form carries the one-time token"
    return match.group(1)


def test_a_cg23_game_end_dr_on_one_of_two_map_groups_is_logged_with_it_and_public_to_both(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch, ScriptedDice(2))
    html = html_of(play, GE)
    for group in ("St", "Lg"):  # each Map Group's scenario has its own Game End dr and Roll dice form
        own = block(html, group)
        assert f'id="scenario-roll-game-end-{group}"' in own and f'id="board-form-{group}"' in own
        assert f'<input type="hidden" name="map_group" value="{group}">' in own
    roll = {"token": board_token(html), "roll": "game-end", "threshold": "3", "turn": "7"}
    before = snapshot(play.campaign)
    refused = post(play, GE, "phase_scenario_roll", roll)  # which Map Group's scenario: not said
    assert refused.status_code == 422
    assert "Say which Map Group&#x27;s scenario you roll for (in play on 18 AM: St, Lg)" in refused.content.decode()
    assert snapshot(play.campaign) == before

    assert post(play, GE, "phase_scenario_roll", {**roll, "map_group": "Lg"}).status_code == 200
    [event] = play.records("roll", scenario_roll="game-end")
    assert (event.visibility, event.payload["stream"], event.payload["map_group"]) == ("public", "public", "Lg")
    assert event.payload["purpose"] == ("CG23 Game End dr on Map Group Lg, Turn 7, circled number in the current "
                                        "turn's box on the CG Turn Record Chart 3")
    for side in (US, GE):
        html = html_of(play, side)
        assert "dr 2 ≤ 3: the scenario ends immediately" in block(html, "Lg")
        assert "dr 2 ≤ 3" not in block(html, "St") and "Latest rolls on St" not in block(html, "St")
        dice_log = html_of(play, side, "records_dice")
        assert "CG23 Game End dr on Map Group Lg, Turn 7" in dice_log
    assert play.at() == ("18 AM", "initial-scenario", "@initial-scenario")  # the players mark Lg finished themselves


def test_a_free_roll_for_one_map_groups_scenario_is_shown_in_its_block_only(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch, ScriptedDice(3, 4))
    html = html_of(play, US)
    assert post(play, US, "phase_board_roll", {"token": board_token(html), "at": "initial-scenario", "kind": "DR",
                                                "count": "1", "purpose": "IFT 8 FP vs StK5", "map_group": "St"}
                ).status_code == 200
    [event] = play.records("roll", board=True)
    assert (event.payload["map_group"], event.payload["purpose"]) == ("St", "Initial Scenario on Map Group St: IFT 8 FP vs StK5")
    german = html_of(play, GE)
    assert "IFT 8 FP vs StK5" in block(german, "St") and "IFT 8 FP vs StK5" not in block(german, "Lg")
    # both sides finish St: its rolls are closed (its log stays), Lg's form is still there
    for side in (US, GE):
        play.done(side, "St")
    html = html_of(play, GE)
    assert 'id="board-form-St"' not in html and 'id="scenario-roll-game-end-St"' not in html
    assert "IFT 8 FP vs StK5" in block(html, "St") and 'id="board-form-Lg"' in block(html, "Lg")


# ---- the 8.31 Balance: the German's halved Secret DR stays his until CG end --------------------------------------------

GERMAN_DR = {"9 halved to 4": (6, 3), "5 halved to 2": (4, 1), "12 halved to 6": (6, 6)}


def us_renders(play: Play, monkeypatch: Any, german: tuple[int, int]) -> tuple[tuple[bytes, ...], str]:
    """Everything the U.S. gets once 18 PM's 8.616 has run (U.S. DR 4+5 = 9, German ``german``), then rolled back."""
    with transaction.atomic():
        monkeypatch.setattr(engine, "committed_dice", lambda campaign, seeds: ScriptedDice(4, 5, *german))
        play.done(US)  # the last 8.612 mark: the new CG Date's 8.616 runs
        assert play.at() == ("18 PM", "phase", "8.619")
        client = client_for(play.users[US])
        pages = tuple(client.get(reverse(name, args=[play.public_id]) + query).content for name, query in (
            ("campaign_detail", ""), ("campaign_fragments", ""), ("campaign_fragments", "?part=step-records"),
            ("campaign_history", ""), ("records_dice", ""), ("records_dice_csv", ""), ("records_roster", ""),
            ("records_roster_csv", ""), ("records_purchases", ""), ("records_cg_end", "")))
        live = fragments.live_fragments(Seat.objects.get(campaign__public_id=play.public_id, side=US))
        german_page = html_of(play, GE) + html_of(play, GE, "records_dice")
        transaction.set_rollback(True)
    return (*pages, repr(sorted(live.items())).encode()), german_page


def test_the_us_side_never_sees_the_german_balance_halved_secret_dr_before_cg_end(monkeypatch: Any) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    play = at_initial_scenario(monkeypatch)
    play.both_done()
    play.results("St", **AM_ST)
    play.results("Lg", **AM_LG)
    play.done(GE)  # 8.612: the German has finished; the U.S. mark starts 18 PM

    seen = {name: us_renders(play, monkeypatch, dr) for name, dr in GERMAN_DR.items()}

    us_pages = [renders for renders, _ in seen.values()]
    assert all(pages == us_pages[0] for pages in us_pages[1:])  # byte for byte, whatever the German rolled
    us_text = b"".join(us_pages[0]).decode()
    assert "8.616" in us_text and "Base Number 35 − DR 9 = 26 CPP" in us_text  # the U.S.'s own, not halved
    for secret in ("halved", "8.31 CG Balance", "÷2", "Base Number 45"):
        assert secret not in us_text
    german_page = seen["9 halved to 4"][1]
    assert "DR 9 halved (FRD) by the 8.31 CG Balance = 4; Base Number 45 − 4 = 41 CPP" in german_page
    assert "8.31 CG Balance: German DR halved (FRD)" in german_page  # the dice log's modifier line


def test_at_cg_end_the_us_side_sees_the_german_halving_in_the_dice_log(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch, ScriptedDice(4, 5, 6, 3))
    play.both_done()
    play.results("St", **AM_ST)
    play.results("Lg", **AM_LG)
    assert play.until("8.619") == ["8.612"]
    assert "halved" not in html_of(play, US, "records_dice")
    services.cg_end_concede(user=play.users[US], public_id=play.public_id)
    dice_log = html_of(play, US, "records_dice")
    assert "8.31 CG Balance: German DR halved (FRD)" in dice_log
    [halved] = [r for r in EventRecord.objects.filter(campaign__public_id=play.public_id, kind="roll")
                if r.side == GE and r.payload.get("balance")]
    assert (halved.payload["original"], halved.payload["final"]) == (9, 4)
    assert Campaign.objects.get(public_id=play.public_id).state["ended"] is True


def test_the_rules_in_use_page_lists_each_cg_dates_map_groups(monkeypatch: Any) -> None:
    play = at_initial_scenario(monkeypatch)
    rules = html_of(play, US, "campaign_rules")
    assert "<th scope=\"col\">Map Groups in play</th>" in rules
    assert "<td>St (2 Map Sections), Lg (2 Map Sections)</td>" in rules
    row = rules[rules.index('<th scope="row">18 Night</th>'):]
    assert row[:row.index("</tr>")].count("<td>Lg (2 Map Sections)</td>") == 1
    assert "map groups in play" in rules  # the card replaces the part
