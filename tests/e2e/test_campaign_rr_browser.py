"""A whole RR campaign in Debian's chromium with two new users, no YAML (issue 9 item 5): the German builds an RR CG
Card in the browser form, creates the campaign with it and invites; the Canadian joins; they play the Initial Scenario
(19 AM), the RePh, 19 PM with purchases and sealed chits, 19 Night as an Idle Date (both Idle), and the CG ends on its
last CG Date; the CG end page names the victor by the card's CG Victory Conditions.

The card keeps the first three CG Dates of the RR calendar the form starts with (seed 001 2.5161 Base Numbers: 19 PM
German 80 / Canadian 40) and removes the other ten, so the campaign reaches its last date quickly. Everything else
typed into the card is TEST DATA, not from a printed CG Card: the Initial OB (starting CPP German 12, Canadian 7; ELR,
SAN), the two values the rule text lost (2.5061 row 3-4, 2.5193 row 12) and the CG Victory Conditions.

Points are checked against figures worked by hand (comments) from those values and seed 001's RG charts; the secret
2.516 DR cannot be predicted, so it is read from the side's own history ("Base Number − DR") and the CPP checked as
start + base − DR. Every page visited is photographed at 1280 and 390 px (test-results/e2e-<db>/<test>/) and checked no
wider than the viewport.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.campaign_pages import (
    add_row,
    both,
    cg_date,
    cpp,
    create_with_card,
    fill,
    join,
    open_new_card_form,
    order_points,
    remove_calendar_rows_from,
    replenishment_dr,
    save_card,
    signed_up,
    visit,
)
from tests.e2e.conftest import Player, at_rule, buy_nothing, choose_chit, enter_results, play_until, submit

pytestmark = pytest.mark.e2e

# TEST DATA typed into the card (not a printed Initial Scenario card)
LAST = "19 Night"
START_CPP = {"german": 12, "canadian": 7}
CARD_VALUES = {
    "id": "test-rr-browser",
    "name": "TEST DATA — RR card built in the browser (three CG Dates)",
    "source": "Invented for tests/e2e/test_campaign_rr_browser.py",
    "initial_ob.ref": "Initial Scenario card (TEST DATA)",
    "initial_ob.sides.german.points.CPP": str(START_CPP["german"]),
    "initial_ob.sides.german.elr": "4",
    "initial_ob.sides.german.san": "3",
    "initial_ob.sides.german.text": "TEST DATA: Kampfgruppe on board 23",
    "initial_ob.sides.canadian.points.CPP": str(START_CPP["canadian"]),
    "initial_ob.sides.canadian.elr": "3",
    "initial_ob.sides.canadian.san": "2",
    "initial_ob.sides.canadian.text": "TEST DATA: one company in Verrières",
    # the values the rule text lost (2.5061 Escape Results dr 3-4, 2.5193 Company Leader final DR 12)
    "supply.escape-equipment.1.result": "Captured",
    "supply.company-leader.11.leaders": "9-1, 8-0",
    "victory_conditions.ref": "CG Card (TEST DATA)",
    "victory_conditions.text": "TEST DATA: the German wins with 20 CVP or more; else the Canadian with 15 CVP or more; "
                               "else the German.",
    "victory_conditions.conditions.0.side": "german",
    "victory_conditions.conditions.0.measure": "cvp",
    "victory_conditions.conditions.0.op": ">=",
    "victory_conditions.conditions.0.value": "20",
    "victory_conditions.conditions.1.side": "canadian",
    "victory_conditions.conditions.1.measure": "cvp",
    "victory_conditions.conditions.1.op": ">=",
    "victory_conditions.conditions.1.value": "15",
    "victory_conditions.otherwise": "german",
}
# seed 001 RG charts (fixtures/rr.yaml): German I1 Para Inf Coy 28 CPP; Canadian G1 AT Sect I 6 CPP, I1 Inf Coy 20 CPP
COST = {("german", "I1"): 28, ("canadian", "G1"): 6, ("canadian", "I1"): 20}


def test_two_new_players_play_an_rr_campaign_built_in_the_browser_to_its_cg_end(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path], output_dir: Path,
) -> None:
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    players = (ger, cdn)

    # --- The German builds the card in the form -------------------------------------------------------------------
    signed_up(ger)
    open_new_card_form(ger, screenshot, "rr", "RR Campaign Game")
    page = ger.page
    visit(ger, screenshot, "03-rr-form-as-opened")
    remove_calendar_rows_from(page, 3)  # 19 AM, 19 PM, 19 Night stay (seed 001 values as the form gives them)
    add_row(page, "victory_conditions", "victory_conditions.conditions")
    add_row(page, "victory_conditions", "victory_conditions.conditions")
    assert [page.locator(f"#f-calendar-{n}-id").input_value() for n in range(3)] == ["19 AM", "19 PM", "19 Night"]  # type: ignore[attr-defined]
    fill(page, CARD_VALUES)
    save_card(ger, screenshot)
    text = ""
    page.locator("#card-text summary").click()  # type: ignore[attr-defined]
    text = str(page.locator("#card-text pre").inner_text())  # type: ignore[attr-defined]
    assert "extends: rr" in text and "19 Night" in text and "20 AM" not in text, text[:400]

    # --- Create with the card, invite; the Canadian joins -----------------------------------------------------------
    campaign_path, link = create_with_card(ger, screenshot, live_url, f"Verrières {ger.name}")
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(ger.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    join(cdn, screenshot, link, live_url, campaign_path, "Canadian")
    for player in players:
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.518")  # type: ignore[attr-defined]
        assert cg_date(player.page) == "19 AM"

    # --- 19 AM (Initial Scenario, RR ††): the card's starting CPP, not 0 ------------------------------------------
    for player in players:
        assert order_points(player.page) == START_CPP[player.side]
        assert cpp(player.page) == START_CPP[player.side]
    both(players, screenshot, "11-19AM-2.518-starting-cpp")
    # The Canadian buys G1 with its starting CPP: 7 − 6 = 1; the German buys nothing (12 stay)
    cdn.page.fill("#qty-G1", "1")  # type: ignore[attr-defined]
    submit(cdn, ger, cdn.page.locator("#order-form button[name=nothing][value=no]"), "bought G1 at 19 AM")  # type: ignore[attr-defined]
    buy_nothing(ger, cdn, "2.518")
    assert cpp(cdn.page) == START_CPP["canadian"] - COST[("canadian", "G1")] == 1
    assert cpp(ger.page) == START_CPP["german"] == 12
    play_until(players, at_rule("2.520"))
    both(players, screenshot, "12-19AM-2.520")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.520")
    for player in players:
        expect(player.page.locator("#step-panel")).to_contain_text("Play the Initial Scenario on the board")  # type: ignore[attr-defined]
    both(players, screenshot, "13-19AM-initial-scenario")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "Initial Scenario finished")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
    both(players, screenshot, "14-19AM-results-form")
    initial = dict(cvp={"german": 8, "canadian": 5}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    enter_results(ger, cdn, **initial)
    enter_results(cdn, ger, **initial)

    # --- The RePh after the Initial Scenario, to 19 PM's 2.518 ----------------------------------------------------
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.501")  # type: ignore[attr-defined]
    both(players, screenshot, "15-19AM-reph-2.501")
    play_until(players, at_rule("2.518"))
    for player in players:
        assert cg_date(player.page) == "19 PM"
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
    both(players, screenshot, "16-19PM-2.518-order-form")

    # 2.516 (secret): each side's CPP = what it had left + Base Number (seed 001 2.5161, 19 PM) − its own DR
    left = {"german": 12, "canadian": 1}
    base = {"german": 80, "canadian": 40}
    dr = {p.side: replenishment_dr(p, screenshot, campaign_path, "2.516", "19 PM", base[p.side]) for p in players}
    for player in players:
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
        assert order_points(player.page) == left[player.side] + base[player.side] - dr[player.side]
        assert cpp(player.page) == left[player.side] + base[player.side] - dr[player.side]

    # 2.518: German I1 (28 CPP), Canadian I1 (20 CPP): each side's CPP falls by exactly that
    before = {p.side: cpp(p.page) for p in players}
    ger.page.fill("#qty-I1", "1")  # type: ignore[attr-defined]
    visit(ger, screenshot, "17-19PM-2.518-order-filled")
    submit(ger, cdn, ger.page.locator("#order-form button[name=nothing][value=no]"), "bought I1")  # type: ignore[attr-defined]
    cdn.page.fill("#qty-I1", "1")  # type: ignore[attr-defined]
    submit(cdn, ger, cdn.page.locator("#order-form button[name=nothing][value=no]"), "bought I1")  # type: ignore[attr-defined]
    assert cpp(ger.page) == before["german"] - COST[("german", "I1")]
    assert cpp(cdn.page) == before["canadian"] - COST[("canadian", "I1")]
    expect(ger.page.locator("#ledger-summary")).to_contain_text("Para Inf Coy")  # type: ignore[attr-defined]
    both(players, screenshot, "18-19PM-after-purchases")

    # 2.519 secret RG rolls (the lost Company Leader row 12 is on the card: nothing pauses), 2.520, 2.521
    play_until(players, at_rule("2.520"))
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.520")
    play_until(players, at_rule("2.521"))
    both(players, screenshot, "19-19PM-2.521-recon")
    for player, opponent in (players, players[::-1]):
        player.page.locator("#recon-form input[name=recon][value=none]").check()  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#recon-form button[type=submit]"), "no Recon")  # type: ignore[attr-defined]

    # 2.522 sealed chits: German Attack, Canadian Idle → German Assault (RR 2.522 matrix)
    for player in players:
        expect(player.page.locator("#chit-form")).to_be_visible()  # type: ignore[attr-defined]
    both(players, screenshot, "20-19PM-2.522-chits")
    for player, opponent, chit in ((ger, cdn, "attack"), (cdn, ger, "idle")):
        confirm = choose_chit(player.page, chit)
        submit(player, opponent, confirm.get_by_role("button", name=f"Yes, submit {chit.capitalize()}"), f"chit {chit}")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#chit-reveal")).to_contain_text("German Assault")  # type: ignore[attr-defined]
    both(players, screenshot, "21-19PM-2.522-revealed")
    play_until(players, lambda p: p.page.locator("#step-panel", has_text="Play the scenario on the board").count() > 0)  # type: ignore[attr-defined]
    both(players, screenshot, "22-19PM-scenario")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "scenario finished")  # type: ignore[attr-defined]
    scenario = dict(cvp={"german": 6, "canadian": 12}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})
    enter_results(ger, cdn, **scenario)
    enter_results(cdn, ger, **scenario)

    # --- RePh to 19 Night (the last CG Date): buy nothing, both Idle → an Idle Date → the CG ends (last date) -------
    play_until(players, at_rule("2.518"))
    for player in players:
        assert cg_date(player.page) == "19 Night"
    both(players, screenshot, "23-19Night-2.518")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.518")
    play_until(players, at_rule("2.520"))
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.520")
    play_until(players, at_rule("2.521"))
    for player, opponent in (players, players[::-1]):
        player.page.locator("#recon-form input[name=recon][value=none]").check()  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#recon-form button[type=submit]"), "no Recon")  # type: ignore[attr-defined]
    for player, opponent in (players, players[::-1]):
        confirm = choose_chit(player.page, "idle")
        submit(player, opponent, confirm.get_by_role("button", name="Yes, submit Idle"), "chit idle")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("main")).to_contain_text("Idle Date")  # type: ignore[attr-defined]
    both(players, screenshot, "24-19Night-idle-date")
    # the Idle Date's loop (its * steps the players mark, if any), then @new-date: no date left → CG end
    play_until(players, lambda p: p.page.locator("#step-panel", has_text="The Campaign Game is over").count() > 0,  # type: ignore[attr-defined]
               timeout=90)
    for player in players:
        ended = player.page.locator("#step-panel")  # type: ignore[attr-defined]
        expect(ended).to_contain_text(f"The Campaign Game ended on {LAST}")
        expect(ended).to_contain_text("the last CG Date")
    both(players, screenshot, "25-ended-live-page")

    # --- CG end: the card's conditions in order: German CVP 8 + 6 = 14 < 20 (not met); Canadian 5 + 12 = 17 ≥ 15 → the
    # Canadian wins
    for player in players:
        player.page.goto(campaign_path + "cg-end/")  # type: ignore[attr-defined]
        expect(player.page.locator("#victory-victor")).to_contain_text("Canadian wins (the first condition met)")  # type: ignore[attr-defined]
        checks = player.page.locator("#victory-checks li")  # type: ignore[attr-defined]
        expect(checks).to_have_count(2)
        expect(checks.nth(0)).to_have_class("not-met")
        expect(checks.nth(1)).to_have_class("met")
        expect(checks.nth(0)).to_have_text("German CVP earned over the CG 14 ≥ 20: not met")
        expect(checks.nth(1)).to_have_text("Canadian CVP earned over the CG 17 ≥ 15: met")
        expect(player.page.locator("main")).to_contain_text("last CG Date")  # type: ignore[attr-defined]
        visit(player, screenshot, "26-cg-end")
        player.page.goto(campaign_path + "roster/")  # type: ignore[attr-defined]
        visit(player, screenshot, "27-roster")
        player.page.goto(campaign_path + "purchases/")  # type: ignore[attr-defined]
        visit(player, screenshot, "28-purchases")
    (output_dir / "actions.txt").write_text("\n".join(f"{p.side}: {a}" for p in players for a in p.actions) + "\n")
