"""A Purple Heart Draw (Tactical Mission) campaign in Debian's chromium, two new users (issue 9 item 5).

The German player builds a PHD CG Card in the browser form with the values of tests/campaigns_app/cards/phd-test.yaml
(TEST DATA: RG chart rows, set-up costs, the C5.33 Leader Table, the TP price of a DSP — none is a printed value),
types on the create page the values that card leaves lost (tests/campaigns_app/lost_test_values.PHD_TEST_CARD, TEST
DATA), creates, invites; the US player joins. Every value is typed in a field of the form, no YAML: the card's lost
values (the C5.29/C5.23 cells it supplies) in the lost-value fields, the C5.35 TP price of a DSP in the fields of the
system's ``dsp_price`` setting, note ``l`` of each RG chart (C5.33 Leader Table, its column by RG type) in the chart's
notes grid, and the C5.32 set-up costs' lowest cost and note in their fields.

They play TM I (the Initial TM Scenario), TM II (chits sealed at C5.31: German Attack, US Idle; the scenario played),
TM III (both Idle: C5.37's Lull, no scenario), reach TM IV's C5.31 and end the TM by agreement; the CG-end page and the
dice verification page are opened by both.

Checked against figures worked by hand from seed 003 and the card: C4.2 Initial OB German 20 TP + 60 DSP, US 30 TP;
C5.31/C5.32 a German Gren Pl (I1) set up on map costs 8 + 1 (card, TEST DATA) = 9 TP, a US Rifle Pl (I1) entering 9;
each C5.29 replenishment against the table (the side's own final DR read from its history); the CG-end Final totals
(CVP amassed/suffered, units lost, RG bought, TP left) from the results typed in.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.campaigns_app.lost_test_values import PHD_TEST_CARD, post_fields
from tests.e2e.browser_campaign import Shots, add_row, advance, fill_all, points, post_form, put, shows
from tests.e2e.conftest import Player, choose_chit, enter_results, eyebrow, settle, sign_up, submit, visible

pytestmark = pytest.mark.e2e

# The card's lost values (TEST DATA), typed in the form's "Values the rule text lost" fields (supply.<table>.<row>.<column>,
# the row by its index in the table): C5.29 TP Replenishment final DR 4 (row 2) and 6 (row 4); C5.23 Battlefield
# Promotion's third row (row 2: label and # of MMC)
SUPPLY = {"supply.tp-replenishment.2.german": "23", "supply.tp-replenishment.2.us": "33",
          "supply.tp-replenishment.4.german": "21", "supply.tp-replenishment.4.us": "31",
          "supply.battlefield-promotion.2._label": "5-6", "supply.battlefield-promotion.2.mmc": "1"}
# C5.33: the RG charts' note l (a row of each chart's notes grid, printed in seed 003) names the Leader Table; the card
# gives its column by RG type (TEST DATA) and its text
NOTE_L = {0: ("Determine Leader as per Table C5.33 (TEST DATA)", "I: german"),
          1: ("Determine Leader as per Table C5.33 (TEST DATA)", "I: us, A: armour")}
RG = {  # chart n → rows (id, type, group type, cost, scen max, TM max, notes, [(count, unit)]) — TEST DATA
    0: [("I1", "I", "Gren Pl", "8", "1", "3", "l", [("3", "4-6-7")]),
        ("G1", "G", "7.5cm PaK 40", "5", "1", "2", "", [("1", "75L AT"), ("1", "2-2-8")])],
    1: [("I1", "I", "Rifle Pl", "9", "1", "3", "l", [("3", "6-6-7")]),
        ("A1", "A", "Sherman Pl", "14", "1", "2", "l", [("3", "M4A1")])],
}
LEADER_ROWS = [("≤4", "", "4", ["9-2", "9-1", "9-1"]), ("5-7", "5", "7", ["8-1", "8-0", "8-1"]),
               ("8-10", "8", "10", ["8-0", "7-0", "8-0"]), ("≥11", "11", "", ["7-0", "6+1", "-"])]
SETUP = {"setup_costs.minimum": "1", "setup_costs.note": "TEST DATA: invented set-up modifiers.",
         "setup_costs.modes.0.by_type.G": "1", "setup_costs.modes.0.by_type.HW": "1",
         "setup_costs.modes.0.by_type.I": "1", "setup_costs.modes.0.by_type.A": "2",
         "setup_costs.modes.1.by_type.G": "-1", "setup_costs.modes.1.by_type.HW": "-1",
         "setup_costs.modes.1.by_type.I": "-1", "setup_costs.modes.1.by_type.A": "-1"}


def has(page: object, name: str) -> bool:
    return bool(page.locator(f'[name="{name}"]').count())  # type: ignore[attr-defined]


def grow(page: object, prefix: str, n: int) -> None:
    """Add rows under ``prefix`` until row ``n`` exists (the form may start with one)."""
    while not has(page, f"{prefix}.{n}._row"):
        add_row(page, prefix)


def note_row(page: object, chart: int, letter: str) -> str:
    """The field prefix of the chart's notes-grid row for note ``letter`` (``rg_charts.0.notes.3``)."""
    letters = page.locator(f'input[name^="rg_charts.{chart}.notes."][name$=".letter"]')  # type: ignore[attr-defined]
    for k in range(letters.count()):
        if letters.nth(k).input_value() == letter:
            return str(letters.nth(k).get_attribute("name")).removesuffix(".letter")
    raise AssertionError(f"no note {letter} in RG chart {chart}")


def questions(player: Player) -> object | None:
    """The "Questions for your secret rolls" form, if the page shows it."""
    return visible(player.page, "#step-panel #need-roll-answers")


def buy_nothing_until(players: tuple[Player, Player], arrived: Callable[[Player], bool]) -> None:
    """Default moves, "Buy nothing this time" on every secret order form, until ``arrived`` holds for both."""
    def here(p: Player) -> bool:
        return arrived(p) or any(visible(p.page, f"#step-panel {f}") is not None
                                 for f in ("#order-form", "#recon-form", "#need-roll-answers"))
    while not all(arrived(p) for p in players):
        advance(players, here, timeout=180)
        for player, opponent in (players, players[::-1]):
            form = questions(player)
            if form is not None:  # C5.33 DRM questions: none of these RG is a Pioneer/Engineer Pl (nothing ticked)
                submit(player, opponent, form.get_by_role("button", name="Record"), "answered the roll questions")  # type: ignore[attr-defined]
                continue
            recon = visible(player.page, "#step-panel #recon-form")
            if recon is not None and not arrived(player):  # C5.36: no Reconnaissance bought (the form's default)
                submit(player, opponent, recon.get_by_role("button", name="Submit (secret)"), "no recon")  # type: ignore[attr-defined]
                continue
            if not arrived(player) and visible(player.page, "#step-panel #order-form") is not None:
                submit(player, opponent, player.page.locator("#order-form button[name=nothing][value=yes]"),  # type: ignore[attr-defined]
                       f"bought nothing at {eyebrow(player.page)}")


def build_card(player: Player, shot: Shots) -> str:
    from playwright.sync_api import expect

    page = player.page
    page.goto("/cards/")  # type: ignore[attr-defined]
    page.get_by_role("link", name="New CG Card").first.click()  # type: ignore[attr-defined]
    page.get_by_label("Base CG system").select_option("phd")  # type: ignore[attr-defined]
    post_form(page, page.get_by_role("button", name="Open the form"))  # type: ignore[attr-defined]
    shot(player, "card-form-empty")
    for n, rows in RG.items():
        grow(page, f"rg_charts.{n}.rows", len(rows) - 1)
        for m, row in enumerate(rows):
            grow(page, f"rg_charts.{n}.rows.{m}.full", len(row[7]) - 1)
    grow(page, "tables.0.rows", len(LEADER_ROWS) - 1)
    fill_all(page, {"id": f"test-phd-e2e-{player.name}",
                    "name": "TEST DATA — not from any published rule text (PHD browser campaign card)",
                    "settings_values.dsp_price.german": "1", "settings_values.dsp_price.us": "1", **SETUP, **SUPPLY})
    for n, rows in RG.items():
        note = note_row(page, n, "l")
        fill_all(page, {f"rg_charts.{n}.name": f"{'German' if n == 0 else 'US'} TM Reinforcement Group Chart (TEST DATA)",
                        f"{note}.text": NOTE_L[n][0], f"{note}.leader_table": "leader",
                        f"{note}.columns_by_type": NOTE_L[n][1]})
        for m, (ident, kind, group, cost, smax, tmax, notes, units) in enumerate(rows):
            p = f"rg_charts.{n}.rows.{m}"
            fill_all(page, {f"{p}.id": ident, f"{p}.type": kind, f"{p}.group_type": group, f"{p}.cost": cost,
                            f"{p}.date_max": smax, f"{p}.cg_max": tmax, f"{p}.notes": notes})
            for k, (count, unit) in enumerate(units):
                fill_all(page, {f"{p}.full.{k}.count": count, f"{p}.full.{k}.unit": unit})
    put(page, "tables.0.name", "Leader Table (TEST DATA)")
    for m, (label, lo, hi, cells) in enumerate(LEADER_ROWS):
        fill_all(page, {f"tables.0.rows.{m}.label": label, f"tables.0.rows.{m}.min": lo, f"tables.0.rows.{m}.max": hi,
                        **{f"tables.0.rows.{m}.cells.{k}": c for k, c in enumerate(cells)}})
    page.locator('[name="id"]').blur()  # type: ignore[attr-defined]
    settle(page)
    for box in ("other", "setup_costs.extra", "rg_charts.0.extra", "rg_charts.1.extra"):  # no YAML typed anywhere
        assert not page.locator(f'[name="{box}"]').count() or page.locator(f'[name="{box}"]').input_value() == "", box  # type: ignore[attr-defined]
    expect(page.locator("#builder-summary")).to_contain_text("The card is valid")  # type: ignore[attr-defined]
    shot(player, "card-form-valid")
    page.get_by_role("button", name="Check and save").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/cards/[A-Za-z0-9_-]{16,40}/$"))  # type: ignore[attr-defined]
    shot(player, "card-page")
    return str(page.url).rstrip("/").rsplit("/", 1)[-1]  # type: ignore[attr-defined]


def test_two_new_users_play_a_phd_tm_built_in_the_browser_to_an_agreed_cg_end(
        new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path]) -> None:
    from playwright.sync_api import expect

    shot = Shots(screenshot)
    german, us = new_player("german"), new_player("us")
    players = (german, us)
    german.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    sign_up(german.page, german.name)
    expect(german.page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]
    card_id = build_card(german, shot)

    page = german.page
    page.goto("/campaigns/new/?system=phd")  # type: ignore[attr-defined]
    expect(page.locator("select[name=system]")).to_have_value("phd")  # type: ignore[attr-defined]
    page.fill("input[name=name]", f"PHD browser {german.name}")  # type: ignore[attr-defined]
    page.locator("input[name=side][value=german]").check()  # type: ignore[attr-defined]
    page.locator(f"input[name=card][value='{card_id}']").check()  # type: ignore[attr-defined]
    settle(page)
    for name, value in post_fields(PHD_TEST_CARD).items():  # the values the card leaves lost (TEST DATA)
        put(page, name, value)
    shot(german, "create")
    page.get_by_role("button", name="Create campaign").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/campaigns/[A-Za-z0-9_-]+/invite/$"))  # type: ignore[attr-defined]
    shot(german, "invite")
    campaign_path = re.sub(r"invite/$", "", str(page.url).removeprefix(live_url))  # type: ignore[attr-defined]
    link = str(page.locator("#invite-link").input_value())  # type: ignore[attr-defined]

    us.page.goto(link)  # type: ignore[attr-defined]
    us.page.get_by_role("link", name="Sign up to join").click()  # type: ignore[attr-defined]
    sign_up(us.page, us.name)
    shot(us, "join")
    us.page.locator("#join-button").click()  # type: ignore[attr-defined]
    expect(us.page).to_have_url(live_url + campaign_path)  # type: ignore[attr-defined]
    german.page.goto(campaign_path)  # type: ignore[attr-defined]

    # --- TM I, the Initial TM Scenario: C4.2 Initial OB German 20 TP + 60 DSP, US 30 TP (seed 003)
    advance(players, shows("#step-panel #order-form"))
    shot(german, "tm1-order")
    shot(us, "tm1-order")
    assert (points(german.page, "TP"), points(german.page, "DSP")) == (20, 60)
    assert points(us.page, "TP") == 30

    # TM I: nothing bought at C5.31 and C5.35; then the scenario, results entered by both
    buy_nothing_until(players, shows("#step-panel #results-form"))
    shot(german, "tm1-scenario")
    cvp, attacked = {"german": 12, "us": 25}, {"us": True, "german": False}
    enter_results(german, us, cvp, attacked)
    enter_results(us, german, cvp, attacked)

    # --- ConPh after TM I, to TM II's C5.31: chits sealed with the requisitions
    advance(players, lambda p: visible(p.page, "#step-panel #order-form") is not None or questions(p) is not None, timeout=240)
    assert all(questions(p) is None for p in players)
    shot(german, "tm2-order")
    shot(us, "tm2-order")
    for player, opponent, chit in ((german, us, "attack"), (us, german, "idle")):
        confirm = choose_chit(player.page, chit)
        submit(player, opponent, confirm.get_by_role("button", name=f"Yes, submit {chit.capitalize()}"), f"chit {chit}")  # type: ignore[attr-defined]
        expect(player.page.locator("#chit-sealed")).to_contain_text(f"Your {chit.capitalize()} chit is sealed")  # type: ignore[attr-defined]
    # C5.31 sealed: neither page shows the other's chit
    expect(german.page.locator("#chit-reveal")).to_have_count(0)  # type: ignore[attr-defined]
    expect(us.page.locator("#chit-reveal")).to_have_count(0)  # type: ignore[attr-defined]
    tp_german, tp_us = points(german.page, "TP"), points(us.page, "TP")
    # C5.31/C5.32: German I1 Gren Pl on map 8 + 1 (card, TEST DATA) = 9 TP; US I1 Rifle Pl entering 9 (TEST DATA)
    for player, opponent, mode in ((german, us, "on-map"), (us, german, "entry")):
        form = player.page.locator("#order-form")  # type: ignore[attr-defined]
        form.locator("#qty-I1").fill("1")
        if form.locator("select#mode-I1").count():
            form.locator("select#mode-I1").select_option(mode)
        submit(player, opponent, form.get_by_role("button", name="Submit my order (secret)"), f"order I1 {mode}")
    assert points(german.page, "TP") == tp_german - 9
    assert points(us.page, "TP") == tp_us - 9
    # C5.37 reveals both chits at once: German Attack
    buy_nothing_until(players, shows("#chit-reveal"))
    for player in players:
        expect(player.page.locator("#chit-panel")).to_contain_text("German Attack")  # type: ignore[attr-defined]
        expect(player.page.locator("#chit-reveal")).to_contain_text("Idle")  # type: ignore[attr-defined]
    shot(german, "tm2-revealed")
    shot(us, "tm2-revealed")

    # --- TM II played (German Attack: C5.38–C5.41 on the board, the scenario), results entered by both
    buy_nothing_until(players, shows("#step-panel #results-form"))
    shot(german, "tm2-scenario")
    cvp2, attacked2 = {"german": 10, "us": 7}, {"german": True, "us": False}
    enter_results(german, us, cvp2, attacked2)
    enter_results(us, german, cvp2, attacked2)
    left = {"german": points(german.page, "TP"), "us": points(us.page, "TP")}

    # --- ConPh after TM II, to TM III's C5.31: both seal Idle, buy nothing → C5.37 idle/idle: a Lull (no scenario)
    to_order_form(players)
    shot(german, "tm3-order")
    for player in players:  # C5.29 (secret): TP left after TM II + the table's TP for the side's own final DR
        assert points(player.page, "TP") == left[player.side] + replenished(player, shot, campaign_path)[-1]
    for player, opponent in (players, players[::-1]):
        confirm = choose_chit(player.page, "idle")
        submit(player, opponent, confirm.get_by_role("button", name="Yes, submit Idle"), "chit idle")  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#order-form button[name=nothing][value=yes]"), "nothing at TM III C5.31")  # type: ignore[attr-defined]
    buy_nothing_until(players, shows("#chit-reveal"))
    for player in players:  # C5.37 matrix idle/idle: "Lull Date"; the idle block (fixtures/phd.yaml) names it "Lull"
        expect(player.page.locator("#chit-reveal")).to_contain_text("Lull")  # type: ignore[attr-defined]
    shot(german, "tm3-lull")
    shot(us, "tm3-lull")

    # --- the Lull's ConPh (every PHD step loops on a Lull), then TM IV's C5.31
    to_order_form(players)
    shot(us, "tm4-order")
    tp_final = {p.side: points(p.page, "TP") for p in players}
    # C5.29 three times per side (TM II, III, IV; I5: no roll for the Initial TM Scenario). With the card's supply
    # and the create page's lost values, the table (TEST DATA) gives German 27 − final DR, US 37 − final DR
    # (≤2: 25/35 … ≥12: 15/25). TP: German 20 (C4.2) + T(d2) − 9 (I1 on map 8 + 1) + T(d3) + T(d4);
    # US 30 (C4.2) + T(d2) − 9 (I1 entering) + T(d3) + T(d4).
    start_tp, spent = {"german": 20, "us": 30}, {"german": 9, "us": 9}
    for player in players:
        amounts = replenished(player, shot, campaign_path)
        assert len(amounts) == 3, amounts
        assert tp_final[player.side] == start_tp[player.side] - spent[player.side] + sum(amounts), (tp_final, amounts)

    # --- the CG ends by agreement: the German proposes, the US agrees in "Your move"
    german.page.locator("#cg-end summary").click()  # type: ignore[attr-defined]
    submit(german, us, german.page.locator("#cg-end").get_by_role("button", name="Propose to end the CG"), "proposed the end")  # type: ignore[attr-defined]
    us.page.reload()  # type: ignore[attr-defined]
    shot(us, "end-question")
    submit(us, german, us.page.locator("#end-agree"), "agreed to end")
    for player in players:
        player.page.reload()  # type: ignore[attr-defined]
        expect(player.page.locator("#cg-ended-line")).to_be_visible()  # type: ignore[attr-defined]
        shot(player, "cg-over")

    # --- the CG-end page: Final totals worked by hand from the results typed in
    # CVP amassed German 12 + 10 = 22, US 25 + 7 = 32; suffered: the other side's, German 25 + 7 = 32, US 12 + 10 = 22;
    # leaders lost 0 + 0; units lost 1 + 1 = 2; RG bought one each (TM II I1; the Initial OB's RG not counted);
    # points left the TP above (DSP forfeited at C5.35)
    expected = {"German": ("22", "32", "0", "2", "1", tp_final["german"]), "US": ("32", "22", "0", "2", "1", tp_final["us"])}
    for player in players:
        player.page.goto(campaign_path + "cg-end/")  # type: ignore[attr-defined]
        expect(player.page.locator(".end-line")).to_contain_text("IV (1530-hrs)")  # type: ignore[attr-defined]
        expect(player.page.locator(".end-line")).to_contain_text("mutual agreement")  # type: ignore[attr-defined]
        for name, (amassed, suffered, leaders, units, bought, tp) in expected.items():
            cells = player.page.locator("#final-totals tbody tr", has=player.page.locator("th", has_text=re.compile(rf"^{name}$"))).locator("td")  # type: ignore[attr-defined]
            expect(cells.nth(2)).to_have_text(amassed)
            expect(cells.nth(3)).to_have_text(suffered)
            expect(cells.nth(4)).to_have_text(leaders)
            expect(cells.nth(5)).to_have_text(units)
            expect(cells.nth(6)).to_have_text(bought)
            expect(cells.nth(7)).to_contain_text(f"{tp} TP")
        shot(player, "cg-end")
        # the dice verification: every roll (the secret C5.29/C5.33 ones included) recomputed from the revealed seed
        player.page.get_by_role("link", name="Verify the dice").click()  # type: ignore[attr-defined]
        expect(player.page.locator("#verify-result.verify-ok")).to_contain_text("verified")  # type: ignore[attr-defined]
        shot(player, "verify")


# C5.29 TP Replenishment (TEST DATA): the printed cells, the card's supply (DR 4, 6) and the create page's lost values
# (DR 8, 10, ≥12), by final DR: German 27 − DR, US 37 − DR
TP_TABLE = {"GERMAN": {d: 27 - d for d in range(2, 13)}, "US": {d: 37 - d for d in range(2, 13)}}


def replenished(player: Player, shot: Shots, campaign_path: str) -> list[int]:
    """The side's own C5.29 replenishments, in order, as its history page shows them ("C5.29: final DR d on SIDE = n
    TP"), each checked against TP_TABLE; the history is opened in a second tab (its newest page photographed) and read
    page by page, oldest first, following its "Newer" links."""
    tab = player.context.new_page()  # type: ignore[attr-defined]
    texts: list[str] = []
    try:
        tab.goto(campaign_path + "history/")
        shot(player, "history", tab)
        tab.goto(campaign_path + "history/?page=1")
        while True:
            texts.append(" ".join(str(tab.locator("main").inner_text()).split()))
            newer = tab.locator('a[rel="next"]')
            if newer.count() == 0:
                break
            tab.goto(campaign_path + "history/" + str(newer.first.get_attribute("href")))
    finally:
        tab.close()
    text = " ".join(texts)
    found = re.findall(r"C5\.29: final DR (-?\d+) on (GERMAN|US) = (\d+) TP", text)
    assert found, f"no C5.29 record on the {player.side} history page"
    for dr, column, amount in found:
        assert column == player.side.upper() and int(amount) == TP_TABLE[column][min(max(int(dr), 2), 12)], found
    return [int(amount) for _, _, amount in found]


def to_order_form(players: tuple[Player, Player]) -> None:
    """Default moves through the ConPh, answering the C5.33 roll questions (nothing ticked), to C5.31's order form."""
    arrived = shows("#step-panel #order-form")
    while not all(arrived(p) for p in players):
        advance(players, lambda p: arrived(p) or questions(p) is not None, timeout=240)
        for player, opponent in (players, players[::-1]):
            form = questions(player)
            if form is not None:
                submit(player, opponent, form.get_by_role("button", name="Record"), "answered the roll questions")  # type: ignore[attr-defined]
