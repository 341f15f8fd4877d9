"""A whole ER campaign in Debian's chromium with two new users (issue 9 item 5): the U.S. player builds an ER CG Card in
the browser form from values only, creates the campaign with it and invites; the Japanese joins; they play the Initial
Scenario (D1 AM), the RePh, D1 PM with its Initiative chits sealed at the purchase step (ER CG15/CG18: the chit is
chosen at 1.518, revealed at 1.522) and purchases, D2 AM as an Idle Date (both Idle), and the CG ends on its last CG
Date; the CG end page names the victor by the card's CG Victory Conditions.

EVERY VALUE TYPED INTO THE CARD IS TEST DATA, not from any published rule text (seed 002 has only CG1–CG21): the CG
Dates and Base Numbers, the Initial OB, the RG charts and the 1.520 table as in tests/campaigns_app/cards/
er-values-test.yaml, the printed steps, matrix, currencies and Idle Date in their own sections of the form, and the CG
Victory Conditions. Only the rules come from seed 002 (fixtures/er.yaml): CG7 (+1 CPP per RG set
up on map, −1 In Reserve), CG15/CG18 (the chit chosen at the purchase step; a Bombardment only with Attack, an FPF
Barrage only with Idle).

Points are checked against figures worked by hand (comments) from the card's values; the secret 1.516 DR is read from
the side's own history ("Base Number − DR"). Every page visited is photographed at 1280 and 390 px and checked no wider
than the viewport.
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
    points,
    replenishment_dr,
    row_count,
    save_card,
    signed_up,
    visit,
)
from tests.e2e.conftest import Player, at_rule, buy_nothing, choose_chit, enter_results, play_until, submit

pytestmark = pytest.mark.e2e

LAST = "D2 AM"
START_CPP = {"us": 12, "japanese": 4}  # TEST DATA
BASE = {"D1 PM": {"us": 40, "japanese": 30}, "D2 AM": {"us": 30, "japanese": 20}}  # TEST DATA

CHART_HEAD = {"ref": "1.518", "columns.cost": "CPP Cost", "columns.date_max": "CG Date Max", "columns.cg_max": "CG Max"}
# TEST DATA RG rows: id, type, group type, cost, date max, CG max, description, and the row's other form fields
# (full strength units, FPP given)
US_ROWS = [
    ("I1", "I", "Marine Rifle Pl", "9", "2", "6", "", {"full.0.count": "3", "full.0.unit": "6-6-8"}),
    ("O1", "O", "60mm FPF Barrage", "4", "1", "3", "", {}),
    ("O2", "O", "Pre-Game Bombardment", "6", "1", "3", "", {}),
    ("M1", "M", "Fortifications", "2", "1", "3", "10 FPP", {"gives.FPP": "10"}),
]
JAPANESE_ROWS = [
    ("I1", "I", "Rifle Pl", "7", "2", "6", "", {"full.0.count": "3", "full.0.unit": "4-4-7"}),
    ("O2", "O", "Pre-Game Bombardment", "6", "1", "3", "", {}),
    ("M1", "M", "Fortifications", "2", "1", "3", "10 FPP", {"gives.FPP": "10"}),
]
# The printed RePh steps, currencies, 1.520 table, initiative matrix and Idle Date (TEST DATA, as in
# er-values-test.yaml), typed over the five step rows the form starts with (the system's own steps).
STEP_ROWS = [
    {"ref": "1.516", "name": "CPP Replenishment", "sides": "simultaneous", "loop_on_idle": "true", "secret": "roll",
     "revealed": "never", "action": "replenish-base-minus-dr", "params.currency": "CPP", "params.dice": "DR",
     "params.base": "calendar.base_numbers"},
    {"ref": "1.518", "name": "Purchasing RG", "sides": "simultaneous", "initial": "true", "loop_on_idle": "true",
     "secret": "purchase", "revealed": "never", "action": "purchase-rg", "params.currency": "CPP"},
    {"ref": "1.520", "name": "Purchasing Fortifications", "sides": "simultaneous", "initial": "true",
     "loop_on_idle": "true", "secret": "purchase", "revealed": "never", "action": "purchase-fortifications",
     "params.currency": "FPP"},
    {"ref": "1.522", "name": "Initiative", "sides": "simultaneous", "loop_on_idle": "true", "secret": "choice",
     "action": "initiative"},
    {"ref": "1.5232", "name": "Paths revealed before scenario setup", "sides": "none", "action": "on-board"},
]
PARTS = {
    "currencies.0.code": "CPP", "currencies.0.carry_over": "true",
    "currencies.1.code": "FPP", "currencies.1.carry_over": "false",
    **{f"steps.{n}.{k}": v for n, row in enumerate(STEP_ROWS) for k, v in row.items()},
    "fortifications.ref": "1.520", "fortifications.currency": "FPP",
    "fortifications.rows.0.type": "Jungle Path", "fortifications.rows.0.cost": "3",
    "initiative.ref": "1.522", "initiative.mode": "chit",
    **{f"initiative.matrix.{key}.{k}": v for key, row in {
        "attack/attack": {"result": "dual-attack", "label": "Dual Attack", "setup_first": "us", "moves_first": "japanese"},
        "attack/idle": {"result": "axis-assault", "label": "Japanese Attack", "setup_first": "us",
                        "moves_first": "japanese"},
        "idle/attack": {"result": "allied-assault", "label": "U.S. Attack", "setup_first": "japanese", "moves_first": "us"},
        "idle/idle": {"result": "idle", "label": "Idle Date"},
    }.items() for k, v in row.items()},
    "idle.name": "Idle Date", "idle.loop": "steps-marked-loop", "idle.then": "next-date",
}
CARD_VALUES = {
    "id": "test-er-browser",
    "name": "TEST DATA — not from any published rule text (ER card built in the browser)",
    "source": "Invented for tests/e2e/test_campaign_er_browser.py",
    "calendar.0.id": "D1 AM", "calendar.0.initial": "true", "calendar.0.weather": "Clear",
    "calendar.0.base_numbers.us": "0", "calendar.0.base_numbers.japanese": "0",
    "calendar.1.id": "D1 PM", "calendar.1.weather": "Clear",
    "calendar.1.base_numbers.us": str(BASE["D1 PM"]["us"]), "calendar.1.base_numbers.japanese": str(BASE["D1 PM"]["japanese"]),
    "calendar.2.id": "D2 AM", "calendar.2.weather": "Rain",
    "calendar.2.base_numbers.us": str(BASE["D2 AM"]["us"]), "calendar.2.base_numbers.japanese": str(BASE["D2 AM"]["japanese"]),
    "initial_ob.ref": "Initial Scenario (TEST DATA)",
    "initial_ob.sides.us.points.CPP": str(START_CPP["us"]),
    "initial_ob.sides.us.elr": "4", "initial_ob.sides.us.san": "3",
    "initial_ob.sides.japanese.points.CPP": str(START_CPP["japanese"]),
    "initial_ob.sides.japanese.elr": "5", "initial_ob.sides.japanese.san": "4",
    "rg_charts.0.side": "us", "rg_charts.0.name": "U.S. RG Chart (TEST DATA)",
    "rg_charts.1.side": "japanese", "rg_charts.1.name": "Japanese RG Chart (TEST DATA)",
    **{f"rg_charts.{n}.{k}": v for n in (0, 1) for k, v in CHART_HEAD.items()},
    "victory_conditions.ref": "CG Card (TEST DATA)",
    "victory_conditions.text": "TEST DATA: the Japanese win with 10 CVP or more; else the U.S. with 8 CVP or more; "
                               "else the Japanese.",
    "victory_conditions.conditions.0.side": "japanese", "victory_conditions.conditions.0.measure": "cvp",
    "victory_conditions.conditions.0.op": ">=", "victory_conditions.conditions.0.value": "10",
    "victory_conditions.conditions.1.side": "us", "victory_conditions.conditions.1.measure": "cvp",
    "victory_conditions.conditions.1.op": ">=", "victory_conditions.conditions.1.value": "8",
    "victory_conditions.otherwise": "japanese",
    **PARTS,
}
for chart, rows in ((0, US_ROWS), (1, JAPANESE_ROWS)):
    for m, (rg_id, kind, group, cost, date_max, cg_max, description, extra) in enumerate(rows):
        p = f"rg_charts.{chart}.rows.{m}"
        CARD_VALUES.update({f"{p}.id": rg_id, f"{p}.type": kind, f"{p}.group_type": group, f"{p}.cost": cost,
                            f"{p}.date_max": date_max, f"{p}.cg_max": cg_max, f"{p}.description": description,
                            **{f"{p}.{k}": v for k, v in extra.items()}})


def order(player: Player, opponent: Player, buys: dict[str, tuple[int, str | None]], what: str) -> None:
    """Fill the order form (quantity and, where the row offers it, the CG7 set-up) and submit it."""
    page = player.page
    for rg_id, (qty, mode) in buys.items():
        page.fill(f"#qty-{rg_id}", str(qty))  # type: ignore[attr-defined]
        if mode is not None:
            page.locator(f"#mode-{rg_id}").select_option(mode)  # type: ignore[attr-defined]
    submit(player, opponent, page.locator("#order-form button[name=nothing][value=no]"), what)  # type: ignore[attr-defined]


def seal_chit(player: Player, opponent: Player, chit: str) -> None:
    confirm = choose_chit(player.page, chit)
    submit(player, opponent, confirm.get_by_role("button", name=f"Yes, submit {chit.capitalize()}"), f"chit {chit}")  # type: ignore[attr-defined]


def test_two_new_players_play_an_er_campaign_built_in_the_browser_from_values_only_to_its_cg_end(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path], output_dir: Path,
) -> None:
    from playwright.sync_api import expect

    us, jp = new_player("us"), new_player("japanese")
    players = (us, jp)

    # --- The U.S. player builds the card in the form --------------------------------------------------------------
    signed_up(us)
    open_new_card_form(us, screenshot, "er", "ER Campaign Game")
    page = us.page
    visit(us, screenshot, "03-er-form-as-opened")
    add_row(page, "calendar", "calendar")
    add_row(page, "calendar", "calendar")
    for chart, rows in ((0, US_ROWS), (1, JAPANESE_ROWS)):
        while row_count(page, f"rg_charts.{chart}.rows") < len(rows):
            add_chart_row(page, chart)
        for m, row in enumerate(rows):  # a unit line for the rows whose full-strength units are typed
            units = f"rg_charts.{chart}.rows.{m}.full"
            if "full.0.count" in row[-1] and not page.locator(f'[name="{units}.0.count"]').count():  # type: ignore[attr-defined]
                page.locator(f"button[name=action][value='add:{units}']").click()  # type: ignore[attr-defined]
                expect(page.locator(f'[name="{units}.0.count"]')).to_have_count(1)  # type: ignore[attr-defined]
    add_row(page, "victory_conditions", "victory_conditions.conditions")
    add_row(page, "victory_conditions", "victory_conditions.conditions")
    fill(page, CARD_VALUES)
    typed_yaml = page.evaluate(  # type: ignore[attr-defined]
        """() => [...document.querySelectorAll('#f-other, [name$=".extra"]')].filter(e => e.value.trim())
                 .map(e => e.name)""")
    assert typed_yaml == [], f"no YAML typed: {typed_yaml}"
    save_card(us, screenshot)
    page.locator("#card-text summary").click()  # type: ignore[attr-defined]
    text = str(page.locator("#card-text pre").inner_text())  # type: ignore[attr-defined]
    assert "extends: er" in text and "D2 AM" in text and "Marine Rifle Pl" in text, text[:400]

    # --- Create with the card, invite; the Japanese joins ---------------------------------------------------------
    campaign_path, link = create_with_card(us, screenshot, live_url, f"Tarawa {us.name}")
    us.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(us.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    join(jp, screenshot, link, live_url, campaign_path, "Japanese")
    for player in players:
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 1.518")  # type: ignore[attr-defined]
        assert cg_date(player.page) == "D1 AM"

    # --- D1 AM, the Initial Scenario: the card's starting CPP ------------------------------------------------------
    for player in players:
        assert order_points(player.page) == START_CPP[player.side]
        assert cpp(player.page) == START_CPP[player.side]
    both(players, screenshot, "11-D1AM-1.518-starting-cpp")
    # U.S.: I1 set up on map, 9 + 1 (CG7) = 10 → 12 − 10 = 2; the Japanese buys nothing (4 stay)
    order(us, jp, {"I1": (1, "on-map")}, "I1 on map at D1 AM")
    buy_nothing(jp, us, "1.518")
    assert cpp(us.page) == 2 and cpp(jp.page) == 4
    play_until(players, at_rule("1.520"))
    both(players, screenshot, "12-D1AM-1.520")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "1.520")
    play_until(players, lambda p: p.page.locator("#results-form").count() > 0 or p.page.locator(  # type: ignore[attr-defined]
        "#step-panel", has_text="Initial Scenario").count() > 0)
    both(players, screenshot, "13-D1AM-initial-scenario")
    for player, opponent in (players, players[::-1]):
        if player.page.locator("#step-panel #mark-done").count():  # type: ignore[attr-defined]
            submit(player, opponent, player.page.locator("#step-panel #mark-done"), "Initial Scenario finished")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
    both(players, screenshot, "14-D1AM-results-form")
    initial = dict(cvp={"us": 2, "japanese": 4}, attacked={"us": True, "japanese": False}, lvp={"us": 3, "japanese": 5})
    enter_results(us, jp, **initial)
    enter_results(jp, us, **initial)

    # --- The RePh to D1 PM's 1.518: the chit is chosen first, at the purchase step (CG15/CG18) ----------------------
    play_until(players, at_rule("1.518"))
    for player in players:
        assert cg_date(player.page) == "D1 PM"
        expect(player.page.locator("#chit-form")).to_be_visible()  # type: ignore[attr-defined]
    both(players, screenshot, "15-D1PM-1.518-chit-first")
    left = {"us": 2, "japanese": 4}
    dr = {p.side: replenishment_dr(p, screenshot, campaign_path, "1.516", "D1 PM", BASE["D1 PM"][p.side]) for p in players}
    jp_frames = len(jp.frames)
    seal_chit(us, jp, "idle")
    # sealed: the Japanese page learns only that the U.S. has chosen, nothing of the chit, until 1.522
    expect(jp.page.locator("#players")).to_contain_text("Has chosen")  # type: ignore[attr-defined]
    expect(jp.page.locator("#chit-reveal")).to_have_count(0)  # type: ignore[attr-defined]
    assert not any("chit-reveal" in frame for frame in jp.frames[jp_frames:])
    seal_chit(jp, us, "attack")
    for player in players:
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
        assert order_points(player.page) == left[player.side] + BASE["D1 PM"][player.side] - dr[player.side]
    both(players, screenshot, "16-D1PM-1.518-order-after-chit")
    before = {p.side: cpp(p.page) for p in players}
    # U.S. (Idle): O1 FPF Barrage 4 (CG18: only with Idle) + M1 Fortifications 2 = 6
    order(us, jp, {"O1": (1, None), "M1": (1, None)}, "O1 + M1")
    # Japanese (Attack): O2 Bombardment 6 (CG15: only with Attack) + I1 In Reserve 7 − 1 (CG7) = 6 → 12
    order(jp, us, {"O2": (1, None), "I1": (1, "reserve")}, "O2 + I1 In Reserve")
    assert cpp(us.page) == before["us"] - 6
    assert cpp(jp.page) == before["japanese"] - 12
    assert points(us.page, "FPP") == 10  # M1 "gives 10 FPP" (card)
    both(players, screenshot, "17-D1PM-after-purchases")

    # 1.520: the U.S. buys two Jungle Paths with the FPP of M1 (3 FPP each on the card: 10 − 6 = 4 FPP left)
    play_until(players, at_rule("1.520"))
    us.page.fill("#fqty-0", "2")  # type: ignore[attr-defined]
    submit(us, jp, us.page.locator("#fort-form button[name=nothing][value=no]"), "two Jungle Paths")  # type: ignore[attr-defined]
    buy_nothing(jp, us, "1.520")
    assert points(us.page, "FPP") == 10 - 2 * 3 == 4
    # 1.522 reveals the chits sealed at 1.518: Japanese Attack × U.S. Idle → "Japanese Attack"
    for player in players:
        expect(player.page.locator("#chit-reveal")).to_contain_text("Japanese Attack")  # type: ignore[attr-defined]
    both(players, screenshot, "18-D1PM-1.522-revealed")
    play_until(players, lambda p: p.page.locator("#step-panel", has_text="Play the scenario on the board").count() > 0)  # type: ignore[attr-defined]
    both(players, screenshot, "19-D1PM-scenario")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "scenario finished")  # type: ignore[attr-defined]
    scenario = dict(cvp={"us": 6, "japanese": 3}, attacked={"us": False, "japanese": True}, lvp={"us": 2, "japanese": 6})
    enter_results(us, jp, **scenario)
    enter_results(jp, us, **scenario)

    # --- D2 AM (the last CG Date): both Idle at 1.518, nothing bought → an Idle Date → the CG ends -----------------
    play_until(players, at_rule("1.518"))
    for player in players:
        assert cg_date(player.page) == "D2 AM"
    both(players, screenshot, "20-D2AM-1.518")
    for player, opponent in (players, players[::-1]):
        seal_chit(player, opponent, "idle")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "1.518")
    play_until(players, at_rule("1.520"))
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "1.520")
    for player in players:
        expect(player.page.locator("main")).to_contain_text("Idle Date")  # type: ignore[attr-defined]
    both(players, screenshot, "21-D2AM-idle-date")
    # the Idle Date's loop (its * steps the players mark, if any), then @new-date: no date left → CG end
    play_until(players, lambda p: p.page.locator("#step-panel", has_text="The Campaign Game is over").count() > 0,  # type: ignore[attr-defined]
               timeout=90)
    for player in players:
        ended = player.page.locator("#step-panel")  # type: ignore[attr-defined]
        expect(ended).to_contain_text(f"The Campaign Game ended on {LAST}")
        expect(ended).to_contain_text("the last CG Date")
    both(players, screenshot, "22-ended-live-page")

    # --- CG end: Japanese CVP 4 + 3 = 7 < 10 (not met); U.S. 2 + 6 = 8 ≥ 8 → the U.S. wins
    for player in players:
        player.page.goto(campaign_path + "cg-end/")  # type: ignore[attr-defined]
        expect(player.page.locator("#victory-victor")).to_contain_text("U.S. wins (the first condition met)")  # type: ignore[attr-defined]
        checks = player.page.locator("#victory-checks li")  # type: ignore[attr-defined]
        expect(checks).to_have_count(2)
        expect(checks.nth(0)).to_have_class("not-met")
        expect(checks.nth(1)).to_have_class("met")
        expect(checks.nth(0)).to_have_text("Japanese CVP earned over the CG 7 ≥ 10: not met")
        expect(checks.nth(1)).to_have_text("U.S. CVP earned over the CG 8 ≥ 8: met")
        expect(player.page.locator("main")).to_contain_text("last CG Date")  # type: ignore[attr-defined]
        visit(player, screenshot, "23-cg-end")
        player.page.goto(campaign_path + "roster/")  # type: ignore[attr-defined]
        visit(player, screenshot, "24-roster")
        player.page.goto(campaign_path + "purchases/")  # type: ignore[attr-defined]
        visit(player, screenshot, "25-purchases")
    (output_dir / "actions.txt").write_text("\n".join(f"{p.side}: {a}" for p in players for a in p.actions) + "\n")


def add_chart_row(page: object, chart: int) -> None:
    """ "Add a row" of one RG chart's rows (each chart also has its notes' "Add a row")."""
    from playwright.sync_api import expect

    rows = page.locator(f'input[type=hidden][name^="rg_charts.{chart}.rows."][name$="._row"]')  # type: ignore[attr-defined]
    before = rows.count()
    page.locator(f"#section-rg_charts button[name=action][value='add:rg_charts.{chart}.rows']").click()  # type: ignore[attr-defined]
    expect(rows).to_have_count(before + 1)
