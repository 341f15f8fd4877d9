"""Two new players play a whole Kampfgruppe Peiper campaign in Debian's chromium, with a CG Card built in the browser
form (issue 9 item 5): the U.S. player builds the card, chooses the players' choices on the create page (8.51–.53 CG
III, 8.31 Balance: German), creates, invites; the German joins. 18 AM the Initial Scenario on the two Map Groups in
play (results entered per Map Group), its RePh (8.603), 18 PM purchases and sealed chits (both Idle: an Idle Date),
19 AM (the last CG Date) chits and the scenario, whose CG-LVP 8.603 adds before the CG ends, and the CG end page's
victory check.

Every value typed into the card is TEST DATA (tests/campaigns_app/cards/kgp-values-test.yaml, with a third CG Date, an
Initial OB and Victory Conditions added), typed in form fields only (no YAML): not from a printed KGP module. The system's rules (8.603's part and action,
8.31, CG15, …) come from fixtures/kgp.yaml. Secret DRs (8.616) are the campaign's real dice: only what is deterministic
is checked exactly (starting CPP from the Initial OB, purchase costs, LVP totals), the replenishment by its range.
Screenshots of every page visited at 1280 and 390 px go to test-results/e2e-<db>/<test name>/; on each the document is
no wider than the viewport and axe-core finds no serious or critical WCAG 2.1 AA violation (check_accessibility).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.browser_campaign import post_form
from tests.e2e.conftest import DESKTOP, Player, choose_chit, enter_results, settle, sign_up, submit

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}

# TEST DATA: the RePh steps as printed (by number and name; what Refit does for each), kept from the rows the form
# offers (the system's steps): the others are removed. (ref, name, who acts, initial, loop on Idle, action, currency)
STEPS = (("8.603", "CG-Scenario End and CG-LVP Totals", "simultaneous", False, False, "", ""),
         ("8.616", "The Secret DR", "simultaneous", False, True, "replenish-base-minus-dr", "CPP"),
         ("8.619", "Purchasing RG", "simultaneous", True, True, "purchase-rg", "CPP"),
         ("8.623", "Initiative", "simultaneous", False, True, "initiative", ""),
         ("8.624", "Setup", "none", False, False, "", ""))
OFFERED_STEPS = ("8.602", "8.603", "8.605", "8.606", "8.609", "8.611", "8.612", "8.613", "8.616", "8.617", "8.618",
                 "8.619", "8.620", "8.621", "8.622", "8.623", "8.624")
# TEST DATA: the 8.623 initiative matrix (German chit / U.S. chit → result, label, sets up first, moves first)
MATRIX = {"attack/attack": ("dual-attack", "Dual Attack", "us", "german"),
          "attack/idle": ("axis-assault", "German Attack", "us", "german"),
          "idle/attack": ("allied-assault", "U.S. Attack", "german", "us"),
          "idle/idle": ("idle", "Idle Date", "", "")}
# TEST DATA: CG Dates (id, initial, U.S. / German CPP Base Numbers of 8.616)
CALENDAR = (("18 AM", True, "0", "0"), ("18 PM", False, "35", "45"), ("19 AM", False, "30", "40"))
# TEST DATA: RG charts (side, rows: id, type, group type, cost, date max, CG max, full-strength units)
CHARTS = (
    ("us", (("I1", "I", "Rifle Pl", "10", "2", "6", ("3", "6-6-7")),
            ("O1", "O", "81mm OBA", "4", "1", "3", None), ("O2", "O", "105mm OBA", "5", "1", "3", None),
            ("O3", "O", "M12 GMC OBA", "6", "1", "3", None))),
    ("german", (("I1", "I", "Gren Pl", "8", "2", "6", ("3", "4-6-7")),
                ("O1", "O", "Bombardment", "6", "1", "2", None), ("O2", "O", "150mm OBA", "5", "1", "3", None))),
)
# TEST DATA: the Initial OB's starting CPP
START_CPP = {"us": 12, "german": 15}


def fits(page: object) -> None:
    """The document is no wider than the viewport (no sideways scroll)."""
    width = int(page.evaluate("document.documentElement.scrollWidth"))  # type: ignore[attr-defined]
    viewport = int(page.evaluate("window.innerWidth"))  # type: ignore[attr-defined]
    if width > viewport:  # name the widest elements that stick out, to say what to fix
        culprits = page.evaluate(  # type: ignore[attr-defined]
            """(w) => Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > w)
                 .slice(-4).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""",
            viewport)
        raise AssertionError(f"the page is {width} px wide in a {viewport} px viewport: {culprits}")


def cg_date(page: object) -> str:
    return str(page.locator("#campaign-status .status-grid dd.big").first.inner_text()).strip()  # type: ignore[attr-defined]


def cpp(page: object) -> int:
    """The CPP the side's own "Your points" card shows."""
    item = page.locator("#ledger-summary .points-item", has=page.locator("dt", has_text=re.compile(r"^CPP$")))  # type: ignore[attr-defined]
    return int(str(item.locator("dd").inner_text()).strip())


def order_points(page: object) -> int:
    return int(page.locator("#order-form").get_attribute("data-points"))  # type: ignore[attr-defined]


def eyebrow_ref(page: object) -> str:
    found = page.locator("#step-panel .step-eyebrow")  # type: ignore[attr-defined]
    text = " ".join(str(found.text_content()).split()) if found.count() else ""
    m = re.match(r"Rule (\S+)", text)
    return m.group(1) if m else ""


def test_two_new_players_play_a_kgp_campaign_from_a_card_built_in_the_browser(
        new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path],
        output_dir: Path) -> None:
    from playwright.sync_api import expect

    us, ger = new_player("us"), new_player("german")
    players = (us, ger)
    count = {"n": 0}

    def shot(player: Player, stage: str) -> None:
        """Both widths: the document fits, a full-page screenshot."""
        page = player.page
        settle(page)
        count["n"] += 1
        name = f"{count['n']:02d}-{stage}-{player.side}"
        page.set_viewport_size(PHONE)  # type: ignore[attr-defined]
        fits(page)
        page.screenshot(path=str(output_dir / f"{name}-390.png"), full_page=True)  # type: ignore[attr-defined]
        page.set_viewport_size(DESKTOP)  # type: ignore[attr-defined]
        fits(page)
        screenshot(page, f"{name}-1280")  # and axe-core (check_accessibility) at 1280 and 390 px

    def both(stage: str) -> None:
        for player in players:
            shot(player, stage)

    page = us.page
    # --- The U.S. player signs up and builds the card in the form ------------------------------------------------
    page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    shot(us, "signup")
    sign_up(page, us.name)
    expect(page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]
    page.goto("/cards/")  # type: ignore[attr-defined]
    shot(us, "cards")
    page.get_by_role("link", name="New CG Card").first.click()  # type: ignore[attr-defined]
    page.get_by_label("Base CG system").select_option("kgp")  # type: ignore[attr-defined]
    shot(us, "card-choose-system")
    page.get_by_role("button", name="Open the form").click()  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_contain_text("New CG Card for")  # type: ignore[attr-defined]
    shot(us, "card-empty-form")

    def fill(name: str, value: str) -> None:
        page.locator("#f-" + name.replace(".", "-").replace("/", "-")).fill(value)  # type: ignore[attr-defined]

    def add_row(prefix: str) -> None:
        post_form(page, page.locator(f"button[name=action][value='add:{prefix}']"))  # type: ignore[attr-defined]

    def select(name: str, value: str) -> None:
        page.locator("#f-" + name.replace(".", "-").replace("/", "-")).select_option(value)  # type: ignore[attr-defined]

    # rows first (each "Add a row" / "✕" posts the form and shows it again with what was typed): the offered RePh
    # steps the card does not play are removed, last first
    for n in reversed(range(len(OFFERED_STEPS))):
        if OFFERED_STEPS[n] not in {step[0] for step in STEPS}:
            post_form(page, page.locator(f"button[name=action][value='remove:steps.{n}']"))  # type: ignore[attr-defined]
    for _ in CALENDAR[1:]:
        add_row("calendar")
    for n, (_, rows) in enumerate(CHARTS):
        for _ in rows[1:]:
            add_row(f"rg_charts.{n}.rows")
        add_row(f"rg_charts.{n}.rows.0.full")
    add_row("setup_costs.modes")
    add_row("setup_costs.modes")
    add_row("victory_conditions.conditions")
    # the kept rows keep their numbers (steps.<n> of the offered row)
    row = {step[0]: OFFERED_STEPS.index(step[0]) for step in STEPS}
    refs = page.locator("input[name^='steps.'][name$='.ref']")  # type: ignore[attr-defined]
    assert [refs.nth(k).input_value() for k in range(refs.count())] == [step[0] for step in STEPS]

    fill("id", "test-kgp-browser")
    fill("name", "TEST DATA — KGP card built in the browser")
    fill("source", "Invented for tests/e2e/test_campaign_kgp_browser.py")
    # the RePh steps, points, initiative, Idle Date and 8.6194 set-up costs (TEST DATA)
    for ref, name, sides, initial_step, loop, action, currency in STEPS:
        n = row[ref]
        fill(f"steps.{n}.name", name)
        select(f"steps.{n}.sides", sides)
        initial_box = page.locator(f"#f-steps-{n}-initial")  # type: ignore[attr-defined]
        initial_box.check() if initial_step else initial_box.uncheck()
        if loop:
            page.locator(f"#f-steps-{n}-loop_on_idle").check()  # type: ignore[attr-defined]
        if action:
            select(f"steps.{n}.action", action)
        if currency:
            select(f"steps.{n}.params.currency", currency)
    select(f"steps.{row['8.616']}.params.base", "calendar.base_numbers")
    select(f"steps.{row['8.623']}.revealed", "never")
    select("currencies.0.carry_over", "true")
    select("currencies.1.carry_over", "false")
    fill("initiative.ref", "8.623")
    select("initiative.mode", "chit")
    for cell, (result, label, setup_first, moves_first) in MATRIX.items():
        select(f"initiative.matrix.{cell}.result", result)
        fill(f"initiative.matrix.{cell}.label", label)
        if setup_first:
            select(f"initiative.matrix.{cell}.setup_first", setup_first)
            select(f"initiative.matrix.{cell}.moves_first", moves_first)
    fill("idle.name", "Idle Date")
    select("idle.loop", "steps-marked-loop")
    select("idle.then", "next-date")
    fill("setup_costs.ref", "8.6194")
    select("setup_costs.modes.0.mode", "on-map")
    fill("setup_costs.modes.0.ref", "8.6194")
    fill("setup_costs.modes.0.by_type.I", "2")
    select("setup_costs.modes.1.mode", "entry")
    for n, (date, initial, base_us, base_ger) in enumerate(CALENDAR):
        fill(f"calendar.{n}.id", date)
        if initial:
            page.locator(f"#f-calendar-{n}-initial").check()  # type: ignore[attr-defined]
        fill(f"calendar.{n}.map_groups", "St, Lg")
        fill(f"calendar.{n}.base_numbers.us", base_us)
        fill(f"calendar.{n}.base_numbers.german", base_ger)
    fill("initial_ob.ref", "CG Card (TEST DATA)")
    for side, points in START_CPP.items():
        fill(f"initial_ob.sides.{side}.points.CPP", str(points))
    for n, (side, rows) in enumerate(CHARTS):
        page.locator(f"#f-rg_charts-{n}-side").select_option(side)  # type: ignore[attr-defined]
        fill(f"rg_charts.{n}.ref", "8.619")
        fill(f"rg_charts.{n}.name", f"{'U.S.' if side == 'us' else 'German'} RG Chart (TEST DATA)")
        fill(f"rg_charts.{n}.columns.cost", "CPP Cost")
        for m, (rg_id, rg_type, group, cost, date_max, cg_max, more) in enumerate(rows):
            fill(f"rg_charts.{n}.rows.{m}.id", rg_id)
            page.locator(f"#f-rg_charts-{n}-rows-{m}-type").select_option(rg_type)  # type: ignore[attr-defined]
            fill(f"rg_charts.{n}.rows.{m}.group_type", group)
            fill(f"rg_charts.{n}.rows.{m}.cost", cost)
            fill(f"rg_charts.{n}.rows.{m}.date_max", date_max)
            fill(f"rg_charts.{n}.rows.{m}.cg_max", cg_max)
            if more:
                page.locator(f'input[name="rg_charts.{n}.rows.{m}.full.0.count"]').fill(more[0])  # type: ignore[attr-defined]
                page.locator(f'input[name="rg_charts.{n}.rows.{m}.full.0.unit"]').fill(more[1])  # type: ignore[attr-defined]
    # TEST DATA Victory Conditions: the U.S. wins with a CG-LVP total of 6 or more, else the German
    fill("victory_conditions.text", "TEST DATA: the U.S. wins with 6 or more CG-LVP; otherwise the German wins.")
    page.locator("#f-victory_conditions-otherwise").select_option("german")  # type: ignore[attr-defined]
    page.locator("#f-victory_conditions-conditions-0-side").select_option("us")  # type: ignore[attr-defined]
    page.locator("#f-victory_conditions-conditions-0-measure").select_option("cg_lvp")  # type: ignore[attr-defined]
    page.locator("#f-victory_conditions-conditions-0-op").select_option(">=")  # type: ignore[attr-defined]
    fill("victory_conditions.conditions.0.value", "6")
    page.locator("#f-victory_conditions-conditions-0-value").blur()  # type: ignore[attr-defined]
    settle(page)
    expect(page.locator("#f-other")).to_have_value("")  # type: ignore[attr-defined]  # no YAML typed
    expect(page.locator("#builder-summary")).to_contain_text("The card is valid")  # type: ignore[attr-defined]
    shot(us, "card-valid")
    page.get_by_role("button", name="Check and save").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/cards/[A-Za-z0-9_-]{16,40}/$"))  # type: ignore[attr-defined]
    expect(page.locator("#card-start")).to_contain_text("Yes")  # type: ignore[attr-defined]
    shot(us, "card-page")

    # --- Create: the players' choices (CG III, Balance German), invite; the German joins ---------------------------
    page.get_by_role("link", name="Start a campaign with it").click()  # type: ignore[attr-defined]
    expect(page.locator("select[name=system]")).to_have_value("kgp")  # type: ignore[attr-defined]
    page.fill("input[name=name]", f"KGP {us.name}")  # type: ignore[attr-defined]
    page.locator("input[name=side][value=us]").check()  # type: ignore[attr-defined]
    page.locator("#player-settings select[name$=kgp_cg]").select_option("III")  # type: ignore[attr-defined]
    page.locator("#player-settings select[name$=balance]").select_option("german")  # type: ignore[attr-defined]
    shot(us, "create")
    page.get_by_role("button", name="Create campaign").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/campaigns/[A-Za-z0-9_-]+/invite/$"))  # type: ignore[attr-defined]
    shot(us, "invite")
    campaign_path = re.sub(r"invite/$", "", page.url.removeprefix(live_url))  # type: ignore[attr-defined]
    link = str(page.locator("#invite-link").input_value())  # type: ignore[attr-defined]

    ger.page.goto(link)  # type: ignore[attr-defined]
    expect(ger.page.locator("main")).to_contain_text("invites you to play the German side")  # type: ignore[attr-defined]
    for words in ("Kampfgruppe Peiper", "III", "German"):
        expect(ger.page.locator("main")).to_contain_text(words)  # type: ignore[attr-defined]
    shot(ger, "invitation")
    ger.page.get_by_role("link", name="Sign up to join").click()  # type: ignore[attr-defined]
    sign_up(ger.page, ger.name)
    expect(ger.page.locator("#join-button")).to_have_text("Take the German side")  # type: ignore[attr-defined]
    shot(ger, "join")
    ger.page.locator("#join-button").click()  # type: ignore[attr-defined]
    expect(ger.page).to_have_url(live_url + campaign_path)  # type: ignore[attr-defined]
    page.goto(campaign_path)  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]

    # --- 18 AM, the Initial pass: 8.619 with the Initial OB's CPP ----------------------------------------------------
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 8.619")  # type: ignore[attr-defined]
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
        assert cg_date(player.page) == "18 AM"
        # starting CPP: the card's Initial OB (TEST DATA) U.S. 12, German 15
        assert order_points(player.page) == START_CPP[player.side], player.side
    both("18AM-8.619-order")
    # U.S. buys O1 (81mm OBA, 4 CPP): 12 − 4 = 8; German buys I1 (Gren Pl, 8 CPP) on-map: 15 − 8 = 7
    us.page.fill("#qty-O1", "1")  # type: ignore[attr-defined]
    submit(us, ger, us.page.locator("#order-form button[name=nothing][value=no]"), "bought O1")  # type: ignore[attr-defined]
    ger.page.fill("#qty-I1", "1")  # type: ignore[attr-defined]
    submit(ger, us, ger.page.locator("#order-form button[name=nothing][value=no]"), "bought I1")  # type: ignore[attr-defined]
    assert cpp(us.page) == 8 and cpp(ger.page) == 7, (cpp(us.page), cpp(ger.page))
    both("18AM-8.619-bought")

    # --- The Initial Scenario on each Map Group in play (St, Lg), results per Map Group ---------------------------
    play_to(players, lambda p: p.page.locator("#mark-done-St").count() > 0)
    for player in players:
        expect(player.page.locator("#step-panel")).to_contain_text("Initial Scenario")  # type: ignore[attr-defined]
    both("18AM-initial-scenario")
    for group in ("St", "Lg"):
        for player, opponent in (players, players[::-1]):
            submit(player, opponent, player.page.locator(f"#mark-done-{group}"), f"Initial Scenario on {group} finished")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#results-form-St")).to_be_visible()  # type: ignore[attr-defined]
        expect(player.page.locator("#results-form-Lg")).to_be_visible()  # type: ignore[attr-defined]
    both("18AM-results-forms")
    # TEST DATA results: St U.S. LVP 2, German 1; Lg U.S. 1, German 0 → Current-LVP U.S. 3, German 1 (8.603)
    initial = {"St": ({"us": 5, "german": 9}, {"us": 2, "german": 1}), "Lg": ({"us": 3, "german": 4}, {"us": 1, "german": 0})}
    for group, (cvp, lvp) in initial.items():
        for player, opponent in (players, players[::-1]):
            enter_results(player, opponent, cvp, {"german": True, "us": False}, lvp, group=group)
    # 8.603 after the Initial Scenario: CG-LVP = Current-LVP + 0 → U.S. 3, German 1; then 18 PM
    play_to(players, lambda p: cg_date(p.page) == "18 PM" and p.page.locator("#order-form").count() > 0)
    both("18PM-8.619-order")

    # --- 18 PM: 8.616 (secret, automatic), 8.619 purchases, 8.623 chits -------------------------------------------
    points = {p.side: order_points(p.page) for p in players}
    # 8.616 Base Number − Secret DR on the 8 / 7 CPP carried from 18 AM: U.S. 8 + (35 − DR); German (8.31 Balance:
    # the German Secret DR halved FRD) 7 + (45 − ⌊DR/2⌋). The DR is the one each side's own page shows.
    dr = {p.side: replenishment_dr(p.page, "18 PM") for p in players}
    assert points == {"us": 8 + 35 - dr["us"], "german": 7 + 45 - dr["german"] // 2}, (points, dr)
    # U.S. O2 105mm OBA 5 + O3 M12 GMC OBA 6 = 11; German O1 Bombardment 6 + O2 150mm OBA 5 = 11
    us.page.fill("#qty-O2", "1")  # type: ignore[attr-defined]
    us.page.fill("#qty-O3", "1")  # type: ignore[attr-defined]
    shot(us, "18PM-order-filled")
    submit(us, ger, us.page.locator("#order-form button[name=nothing][value=no]"), "bought O2 O3")  # type: ignore[attr-defined]
    ger.page.fill("#qty-O1", "1")  # type: ignore[attr-defined]
    ger.page.fill("#qty-O2", "1")  # type: ignore[attr-defined]
    submit(ger, us, ger.page.locator("#order-form button[name=nothing][value=no]"), "bought O1 O2")  # type: ignore[attr-defined]
    assert (cpp(us.page), cpp(ger.page)) == (points["us"] - 11, points["german"] - 11)
    left = {"us": points["us"] - 11, "german": points["german"] - 11}
    play_to(players, lambda p: p.page.locator("#chit-form").count() > 0)
    both("18PM-8.623-chits")
    for player, opponent in (players, players[::-1]):
        confirm = choose_chit(player.page, "idle")
        submit(player, opponent, confirm.get_by_role("button", name="Yes, submit Idle"), "chit idle")  # type: ignore[attr-defined]
    for player in players:  # 8.623 matrix (TEST DATA) idle/idle: the Idle Date, its * steps repeated on the next
        expect(player.page.locator("body")).to_contain_text(re.compile(r"Idle Date.*\(18 PM\)"))  # type: ignore[attr-defined]
    both("18PM-idle-date")

    # --- 19 AM (the last CG Date): 8.616, nothing bought, chits German Attack / U.S. Idle, the scenario -----------
    play_to(players, lambda p: cg_date(p.page) == "19 AM" and p.page.locator("#order-form").count() > 0)
    points = {p.side: order_points(p.page) for p in players}
    # after the Idle Date the CPP left carry over (8.619 CPP carry_over): carried + 30 − DR (U.S.), + 40 − ⌊DR/2⌋ (German)
    dr = {p.side: replenishment_dr(p.page, "19 AM") for p in players}
    assert points == {"us": left["us"] + 30 - dr["us"], "german": left["german"] + 40 - dr["german"] // 2}, (left, points, dr)
    both("19AM-8.619-order")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#order-form button[name=nothing][value=yes]"), "nothing at 8.619")  # type: ignore[attr-defined]
    assert (cpp(us.page), cpp(ger.page)) == (points["us"], points["german"])
    play_to(players, lambda p: p.page.locator("#chit-form").count() > 0)
    for player, opponent, chit in ((ger, us, "attack"), (us, ger, "idle")):
        confirm = choose_chit(player.page, chit)
        submit(player, opponent, confirm.get_by_role("button", name=f"Yes, submit {chit.capitalize()}"), f"chit {chit}")  # type: ignore[attr-defined]
    for player in players:
        reveal = player.page.locator("#chit-reveal")  # type: ignore[attr-defined]
        expect(reveal).to_contain_text("German Attack")  # 8.623 matrix (TEST DATA): attack/idle
    both("19AM-chits-revealed")
    # 8.624 Setup, on the board (the U.S. sets up first)
    play_to(players, lambda p: eyebrow_ref(p.page) == "8.624")
    both("19AM-8.624-setup")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "8.624 Setup finished")  # type: ignore[attr-defined]
    play_to(players, lambda p: p.page.locator("#mark-done-St").count() > 0)
    both("19AM-scenario")
    for group in ("St", "Lg"):
        for player, opponent in (players, players[::-1]):
            submit(player, opponent, player.page.locator(f"#mark-done-{group}"), f"scenario on {group} finished")  # type: ignore[attr-defined]
    # TEST DATA results: St U.S. 1, German 2; Lg U.S. 2, German 0 → Current-LVP U.S. 3, German 2; 8.603 on the last
    # CG Date adds them before the CG ends: CG-LVP U.S. 3 + 3 = 6, German 2 + 1 = 3
    final = {"St": ({"us": 4, "german": 7}, {"us": 1, "german": 2}), "Lg": ({"us": 6, "german": 2}, {"us": 2, "german": 0})}
    for group, (cvp, lvp) in final.items():
        for player, opponent in (players, players[::-1]):
            enter_results(player, opponent, cvp, {"german": True, "us": False}, lvp, group=group)
    both("19AM-after-results")

    # --- CG end: the victory check (U.S. CG-LVP 6 ≥ 6 → the U.S. wins; without 8.603's last addition it would be 3)
    for player in players:
        player.page.goto(campaign_path + "cg-end/")  # type: ignore[attr-defined]
        checks = player.page.locator("#victory-checks")  # type: ignore[attr-defined]
        expect(checks).to_contain_text("6")
        expect(player.page.locator("#victory-victor")).to_contain_text("U.S.")  # type: ignore[attr-defined]
        expect(player.page.locator("main")).to_contain_text("19 AM")  # type: ignore[attr-defined]
        # Final totals: CG-LVP 6 / 3, Current-LVP 3 / 2; CVP amassed U.S. 5 + 3 + 4 + 6 = 18, German 9 + 4 + 7 + 2 = 22;
        # points left: nothing bought at 19 AM, so what the 19 AM order form showed
        for side, name, cells in (("us", "U.S.", ("6", "3", "18")), ("german", "German", ("3", "2", "22"))):
            row = player.page.locator("#final-totals tbody tr", has_text=name)  # type: ignore[attr-defined]
            expect(row.locator("td").nth(0)).to_have_text(cells[0])
            expect(row.locator("td").nth(1)).to_have_text(cells[1])
            expect(row.locator("td").nth(2)).to_have_text(cells[2])
            expect(row).to_contain_text(f"{points[side]} CPP")
    both("cg-end")
    for sub in ("roster/", "purchases/", "dice/", "history/", "rules/"):
        for player in players:
            response = player.page.goto(campaign_path + sub)  # type: ignore[attr-defined]
            assert response.status == 200, (sub, response.status)
        both("records-" + sub.strip("/"))
    for player in players:
        player.page.goto(campaign_path + "roster/")  # type: ignore[attr-defined]
        expect(player.page.locator("main")).to_contain_text("6")  # type: ignore[attr-defined]


def replenishment_dr(page: object, date: str) -> int:
    """The side's own 8.616 Secret DR of ``date`` as its page shows it (the dice are real: read, never assumed)."""
    record = page.locator("#step-records li.record.secret", has_text=f"8.616 CPP Replenishment DR — {date}")  # type: ignore[attr-defined]
    text = " ".join(str(record.first.inner_text()).split())
    found = re.search(r"Original (\d+)", text)
    assert found, text
    return int(found.group(1))


def play_to(players: tuple[Player, Player], arrived: Callable[[Player], bool], timeout: float = 60.0) -> None:
    """Wait for the automatic steps (8.603, 8.616) to run until ``arrived`` holds on both pages; nothing is decided."""
    import time

    deadline = time.monotonic() + timeout
    while not all(arrived(p) for p in players):
        assert time.monotonic() < deadline, [(p.side, eyebrow_ref(p.page), cg_date(p.page)) for p in players]
        players[0].page.wait_for_timeout(150)  # type: ignore[attr-defined]
        for p in players:
            settle(p.page)
