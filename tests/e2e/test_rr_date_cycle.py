"""Two players play one full RR CG Date cycle in two browser contexts of Debian's chromium (issue 4 item 10).

19 AM: the Initial pass (2.518–2.520, nothing to buy), the Initial Scenario and its results; the RePh after it
(2.501–2.511) to 19 PM; 2.512 (each side types its SAN), 2.513 (a secret Shift roll), 2.516 (secret CPP), 2.518 secret
purchases (German I1, Canadian G1), 2.519 secret RG rolls, 2.520, 2.521, the sealed chits and their reveal, 2.523–2.524,
the scenario, results entered (once differing, then agreed), and the RePh to the next CG Date (19 Night).

The server is a separate uvicorn process (conftest.py); the test never touches Django's database in-process. The dice
are the campaign's real committed dice, so the test never assumes a roll's value: only where each roll is shown. A roll
that lands on a value lost in the rule text asks its owner for it (a `.need-form`); the test types one in like a player.
Screenshots of every stage, for both players, go to test-results/e2e/<test name>/.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import (
    DESKTOP,
    Player,
    answer_needs,
    assert_no_sideways_scroll,
    at_rule,
    buy_nothing,
    choose_chit,
    create_campaign,
    enter_results,
    join_campaign,
    play_until,
    settle,
    submit,
)

pytestmark = pytest.mark.e2e

# The RePh steps after a scenario that wait for the players (RR 2.501–2.511; after the app's part of 2.503 its
# 2.5031 rally and unloading are the players', issue 14 item 9)
POST_SCENARIO = ["2.501", "2.502", "2.503", "2.504", "2.505", "2.506", "2.507", "2.508", "2.509", "2.510", "2.511"]
PHONE = {"width": 390, "height": 844}

# What each side buys at 19 PM 2.518 (fixtures typed from seed 001's RG charts): strings that only the buyer's chart
# and records contain, so the opponent's page must never contain them.
GERMAN_BUY = "I1"  # German Para Inf Coy, 10/7 × 5-4-8 (28 CPP)
CANADIAN_BUY = "G1"  # Canadian AT Sect I, 2/1 × 57L 6-pdr AT (6 CPP)
# 2.516 CPP Replenishment is secret too: 19 PM CPP Base Numbers German 80, Canadian 40 (seed 001 2.5161).
GERMAN_ONLY = ("Para Inf Coy", "5-4-8", "German · RG I1", "Base Number 80")
CANADIAN_ONLY = ("AT Sect I", "57L 6-pdr", "Canadian · RG G1", "Base Number 40")


@pytest.fixture
def two_players(new_player: Callable[[str], Player]) -> tuple[Player, Player]:
    """The German (creates the campaign) and the Canadian (joins it), each in its own browser context."""
    return new_player("german"), new_player("canadian")


# --- small helpers ---------------------------------------------------------------------------------------------------

def cg_date(page: object) -> str:
    return str(page.locator("#campaign-status .status-grid dd.big").first.inner_text()).strip()  # type: ignore[attr-defined]


def cpp(page: object) -> int:
    """The CPP the side's own "Your points" card shows."""
    item = page.locator("#ledger-summary .points-item", has=page.locator("dt", has_text=re.compile(r"^CPP$")))  # type: ignore[attr-defined]
    return int(str(item.locator("dd").inner_text()).strip())


def secret_records(page: object) -> list[str]:
    """The text of each "Only you" result on the side's own page, without the badge."""
    heads = page.locator("#step-records li.record.secret .record-head").all_text_contents()  # type: ignore[attr-defined]
    return [" ".join(str(h).replace("Only you", "").split()) for h in heads]


def step_refs(passed: list[str]) -> list[str]:
    return [m.group(1) for m in (re.match(r"Rule (\S+)", s) for s in passed) if m]


def assert_hidden_from(opponent: Player, words: tuple[str, ...], frames_from: int = 0) -> None:
    """The opponent's page (its HTML and its text) and the websocket frames it received never contain any of ``words``."""
    html = str(opponent.page.content())  # type: ignore[attr-defined]
    text = " ".join(str(opponent.page.locator("body").text_content()).split())  # type: ignore[attr-defined]
    for word in words:
        assert word not in html, f"the {opponent.side} page's HTML contains {word!r}"
        assert word not in text, f"the {opponent.side} page shows {word!r}"
        for frame in opponent.frames[frames_from:]:
            assert word not in frame, f"a websocket frame to the {opponent.side} page carries {word!r}"


def choose_and_submit_chit(player: Player, opponent: Player, chit: str, shot: Callable[[Player, str], None],
                           stage: str) -> None:
    confirm = choose_chit(player.page, chit)
    shot(player, f"{stage}-confirm-{chit}")
    submit(player, opponent, confirm.get_by_role("button", name=f"Yes, submit {chit.capitalize()}"), f"chit {chit}")  # type: ignore[attr-defined]


# --- the test ----------------------------------------------------------------------------------------------------------

def test_two_players_play_a_full_rr_cg_date_cycle(
    two_players: tuple[Player, Player], live_url: str, screenshot: Callable[[object, str], Path], output_dir: Path,
) -> None:
    from playwright.sync_api import expect

    ger, cdn = two_players
    players = (ger, cdn)

    def shot(player: Player, stage: str) -> None:
        settle(player.page)
        screenshot(player.page, f"{stage}-{player.side}")

    def both(stage: str) -> None:
        for player in players:
            shot(player, stage)

    # --- The German signs up, creates an RR campaign; the Canadian joins through the invitation link ---------------
    campaign_path, link = create_campaign(ger, live_url, "Hill 112")
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(ger.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    shot(ger, "01-created-waiting")

    join_campaign(cdn, link, live_url, campaign_path)
    for player in players:
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    expect(ger.page.locator("#players")).to_contain_text(cdn.name)  # type: ignore[attr-defined]

    # --- 19 AM, the Initial pass (RR ††): 2.518 purchases (no CPP before the Initial Scenario), 2.520 -------------
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.518")  # type: ignore[attr-defined]
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
        expect(player.page.locator("#checklist")).to_contain_text("Before the Initial Scenario")  # type: ignore[attr-defined]
        assert cg_date(player.page) == "19 AM"
    both("02-initial-2.518-order")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.518")
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.520")  # type: ignore[attr-defined]
    both("03-initial-2.520-fortifications")
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.520")

    # --- The Initial Scenario, then both enter the same results ---------------------------------------------------
    for player in players:
        expect(player.page.locator("#step-panel")).to_contain_text("Play the Initial Scenario on the board")  # type: ignore[attr-defined]
    both("04-initial-scenario")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "Initial Scenario finished")  # type: ignore[attr-defined]
    for player in players:
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
    initial_results = dict(cvp={"german": 8, "canadian": 5}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    enter_results(ger, cdn, **initial_results)
    both("05-initial-results-one-entered")
    enter_results(cdn, ger, **initial_results)

    # --- RePh after the Initial Scenario: 2.501 (German, the attacker, first) … 2.511, then 19 PM's 2.512 ---------
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.501")  # type: ignore[attr-defined]
    expect(cdn.page.locator("#step-panel")).to_contain_text("the German side goes first")  # type: ignore[attr-defined]
    both("06-reph-2.501-ordered")
    passed = play_until(players, at_rule("2.504"))
    # 2.504 (2.5041 "Each encircled unit … must take a separate 1TC"): three public DRs through the Roll dice form;
    # both pages show them, the opponent's without a reload (rolled on the server, values never assumed)
    form = ger.page.locator("#board-form")  # type: ignore[attr-defined]
    form.locator("input[name=count]").fill("3")
    form.locator("input[name=purpose]").fill("1TC Encircled 4-6-7 in 23Q5")
    submit(ger, cdn, form.get_by_role("button", name="Roll"), "2.504 three 1TC DRs")
    for player, who in ((ger, "You"), (cdn, "German")):
        log = player.page.locator("#step-panel .board-log")  # type: ignore[attr-defined]
        expect(log.locator(".board-roll")).to_have_count(3)
        expect(log.locator(".board-roll").first).to_contain_text(f"{who}")
        expect(log).to_contain_text("1TC Encircled 4-6-7 in 23Q5 (3 of 3)")
    both("06b-reph-2.504-board-rolls")
    for player in players:
        player.page.set_viewport_size(PHONE)  # type: ignore[attr-defined]
        player.page.locator("#step-panel").screenshot(path=str(output_dir / f"06c-phone-2.504-{player.side}.png"))  # type: ignore[attr-defined]
        assert_no_sideways_scroll(player.page, f"06c-phone-2.504-{player.side}")
        player.page.set_viewport_size(DESKTOP)  # type: ignore[attr-defined]
    passed += play_until(players, at_rule("2.512"))
    assert step_refs(passed) == POST_SCENARIO, passed
    for player in players:
        expect(player.page.locator("#campaign-status")).to_contain_text("19 PM")  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .need-form")).to_be_visible()  # type: ignore[attr-defined]
    both("07-19PM-2.512-san-asked")

    # 2.512: each side types its own SAN (German 6 → the adjustment dr is rolled; Canadian 3)
    answer_needs(ger, cdn, {"san": "6"})
    answer_needs(cdn, ger, {"san": "3"})
    play_until(players, at_rule("2.513"))
    both("08-19PM-2.513-shift")

    # 2.513 Shift: the German makes one secret Shift DR; the Canadian must not see it
    shift_box = ger.page.locator("#step-panel details.roll-box").first  # type: ignore[attr-defined]
    cdn_frames = len(cdn.frames)
    submit(ger, cdn, shift_box.locator(".roll-form button[type=submit]"), "Shift DR")
    own_rolls = ger.page.locator("#step-records li.record.secret")  # type: ignore[attr-defined]
    expect(own_rolls.first).to_be_visible()
    shift_line = secret_records(ger.page)[-1]
    assert "Shift" in shift_line, shift_line
    shot(ger, "09-19PM-2.513-own-secret-shift-roll")
    assert "Shift" in str(cdn.page.locator("#step-panel").inner_text())  # type: ignore[attr-defined]
    assert cdn.page.locator("#step-records li.record", has_text="Shift").count() == 0  # type: ignore[attr-defined]
    assert_hidden_from(cdn, (shift_line,), cdn_frames)
    shot(cdn, "09-19PM-2.513-opponent-sees-no-roll")

    # 2.513–2.517 to 2.518 (2.516 CPP Replenishment is secret and automatic)
    play_until(players, at_rule("2.518"))
    for player in players:
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
    points = {p.side: int(p.page.locator("#order-form").get_attribute("data-points")) for p in players}  # type: ignore[attr-defined]
    assert points["german"] >= 28 and points["canadian"] >= 6, points  # 19 PM base numbers 80/40 minus a DR (2.516)
    both("10-19PM-2.518-order-form")

    # --- 2.518: secret purchases -----------------------------------------------------------------------------------
    ger_frames, cdn_frames = len(ger.frames), len(cdn.frames)
    ger.page.fill(f"#qty-{GERMAN_BUY}", "1")  # type: ignore[attr-defined]
    shot(ger, "11-19PM-2.518-order-filled")
    submit(ger, cdn, ger.page.locator("#order-form button[name=nothing][value=no]"), f"bought {GERMAN_BUY}")  # type: ignore[attr-defined]
    expect(ger.page.locator("#ledger-summary")).to_contain_text("Para Inf Coy")  # type: ignore[attr-defined]
    shot(ger, "12-19PM-2.518-order-submitted")
    expect(cdn.page.locator("#checklist li[aria-current=step]")).to_contain_text("German: finished")  # type: ignore[attr-defined]
    shot(cdn, "12-19PM-2.518-opponent-ordered")
    assert_hidden_from(cdn, GERMAN_ONLY, cdn_frames)
    cdn.page.fill(f"#qty-{CANADIAN_BUY}", "1")  # type: ignore[attr-defined]
    shot(cdn, "13-19PM-2.518-order-filled")
    submit(cdn, ger, cdn.page.locator("#order-form button[name=nothing][value=no]"), f"bought {CANADIAN_BUY}")  # type: ignore[attr-defined]
    expect(cdn.page.locator("#ledger-summary")).to_contain_text("AT Sect I")  # type: ignore[attr-defined]
    # Each side's own points, left after its order: I1 costs the German 28 CPP, G1 the Canadian 6 (seed RG charts)
    assert cpp(ger.page) == points["german"] - 28
    assert cpp(cdn.page) == points["canadian"] - 6

    # --- 2.519: the server's secret RG rolls, each in the buyer's own records only -----------------------------------
    play_until(players, at_rule("2.520"))
    expect(ger.page.locator("#step-records")).to_contain_text(f"RG {GERMAN_BUY}")  # type: ignore[attr-defined]
    expect(cdn.page.locator("#step-records")).to_contain_text(f"RG {CANADIAN_BUY}")  # type: ignore[attr-defined]
    both("14-19PM-2.519-own-rg-rolls")
    ger_secret = secret_records(ger.page)
    cdn_secret = secret_records(cdn.page)
    assert any(f"RG {GERMAN_BUY}" in t for t in ger_secret), ger_secret
    assert any(f"RG {CANADIAN_BUY}" in t for t in cdn_secret), cdn_secret
    assert_hidden_from(cdn, GERMAN_ONLY + tuple(t for t in ger_secret if "German" in t), cdn_frames)
    assert_hidden_from(ger, CANADIAN_ONLY + tuple(t for t in cdn_secret if "Canadian" in t), ger_frames)

    # 2.520 no fortifications, 2.521 no Recon
    for player, opponent in (players, players[::-1]):
        buy_nothing(player, opponent, "2.520")
    play_until(players, at_rule("2.521"))
    both("15-19PM-2.521-recon")
    for player, opponent in (players, players[::-1]):
        player.page.locator("#recon-form input[name=recon][value=none]").check()  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#recon-form button[type=submit]"), "no Recon")  # type: ignore[attr-defined]

    # --- 2.522: sealed chits, revealed on both pages at once without a reload -------------------------------------
    for player in players:
        expect(player.page.locator("#chit-form")).to_be_visible()  # type: ignore[attr-defined]
        player.page.evaluate("window.__refitMarker = 'before-chits'")  # type: ignore[attr-defined]
    both("16-19PM-2.522-chits")
    cdn_frames = len(cdn.frames)
    cdn_panel_before = cdn.page.locator("#chit-panel").inner_html()  # type: ignore[attr-defined]
    choose_and_submit_chit(ger, cdn, "attack", shot, "17-19PM-2.522")
    expect(ger.page.locator("#chit-sealed")).to_contain_text("Your Attack chit is sealed")  # type: ignore[attr-defined]
    expect(cdn.page.locator("#players")).to_contain_text("Has chosen")  # type: ignore[attr-defined]
    assert cdn.page.locator("#chit-panel").inner_html() == cdn_panel_before  # type: ignore[attr-defined]
    for frame in cdn.frames[cdn_frames:]:
        assert not re.search(r"attack|chit-reveal", frame, flags=re.IGNORECASE), frame
    both("18-19PM-2.522-german-sealed")
    choose_and_submit_chit(cdn, ger, "idle", shot, "19-19PM-2.522")
    for player in players:
        reveal = player.page.locator("#chit-reveal")  # type: ignore[attr-defined]
        # RR 2.522 matrix: GER ATTACK × CDN IDLE = German Assault; the Canadian sets up first, the German moves first
        expect(reveal).to_contain_text("German Assault")
        expect(reveal.locator("tr", has_text="German")).to_contain_text("Attack")
        expect(reveal.locator("tr", has_text="Canadian")).to_contain_text("Idle")
        expect(reveal).to_contain_text("Canadian sets up first")
        expect(reveal).to_contain_text("German moves first")
        assert player.page.evaluate("window.__refitMarker") == "before-chits", f"the {player.side} page reloaded"  # type: ignore[attr-defined]
    both("20-19PM-2.522-revealed")

    # --- 2.523 (Canadian, setting up first, first), 2.524 (German first), then the scenario --------------------------
    for player in players:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.523")  # type: ignore[attr-defined]
    expect(ger.page.locator("#step-panel")).to_contain_text("the Canadian side goes first")  # type: ignore[attr-defined]
    both("21-19PM-2.523-ordered")
    play_until(players, lambda p: p.page.locator("#step-panel", has_text="Play the scenario on the board").count() > 0)  # type: ignore[attr-defined]
    both("22-19PM-scenario")
    for player, opponent in (players, players[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "scenario finished")  # type: ignore[attr-defined]

    # --- Results: the entries differ once (both pages say so), then the Canadian corrects his ---------------------
    for player in players:
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
    both("23-19PM-results-form")
    enter_results(ger, cdn, cvp={"german": 6, "canadian": 12}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})
    enter_results(cdn, ger, cvp={"german": 7, "canadian": 12}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})
    for player in players:
        differ = player.page.locator("#results-differ")  # type: ignore[attr-defined]
        expect(differ).to_contain_text("Your entries differ")
        row = differ.locator("tbody tr", has_text="CVP amassed")  # the one field that differs: German CVP 6 vs 7
        expect(row.locator("td").nth(0)).to_contain_text("German 7")  # the Canadian's entry (sides in fixture order)
        expect(row.locator("td").nth(1)).to_contain_text("German 6")
        expect(differ.locator("tbody tr")).to_have_count(1)
    both("24-19PM-results-differ")
    enter_results(cdn, ger, cvp={"german": 6, "canadian": 12}, attacked={"german": True, "canadian": False}, lvp={"canadian": 4})

    # --- The RePh after the scenario, to the next CG Date ---------------------------------------------------------
    for player in players:
        expect(player.page.locator("#results-differ")).to_have_count(0)  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.501")  # type: ignore[attr-defined]
    both("25-19PM-reph-2.501")
    passed = play_until(players, lambda p: cg_date(p.page) != "19 PM")
    assert step_refs(passed)[:len(POST_SCENARIO)] == POST_SCENARIO, passed
    for player in players:
        assert cg_date(player.page) == "19 Night", cg_date(player.page)
    both("26-19Night-arrived")

    # The checklist on a phone
    for player in players:
        player.page.set_viewport_size(PHONE)  # type: ignore[attr-defined]
        player.page.locator("#checklist").screenshot(path=str(output_dir / f"27-phone-checklist-{player.side}.png"))  # type: ignore[attr-defined]
        player.page.evaluate("window.scrollTo(0, 0)")  # type: ignore[attr-defined]
        player.page.screenshot(path=str(output_dir / f"28-phone-page-top-{player.side}.png"), full_page=False)  # type: ignore[attr-defined]
        assert_no_sideways_scroll(player.page, f"28-phone-page-top-{player.side}")
        player.page.set_viewport_size(DESKTOP)  # type: ignore[attr-defined]

    # The dice statistics page: public rolls and the viewer's own secret rolls, charts at 1280 and 390 px
    for player in players:
        player.page.goto(f"{campaign_path}dice/statistics/?scope=secret")  # type: ignore[attr-defined]
        expect(player.page.locator("h1")).to_have_text("Dice statistics")  # type: ignore[attr-defined]
        expect(player.page.locator("svg.stats-svg").first).to_be_visible()  # type: ignore[attr-defined]
        shot(player, "29-dice-statistics")
    # the German rolled in secret at 2.513 and 2.519; the Canadian counts none of those rolls
    expect(cdn.page.locator("h2", has_text="German")).to_have_text(re.compile(r"German\s+0 rolls"))  # type: ignore[attr-defined]
    expect(ger.page.locator("h2", has_text="Canadian")).to_have_text(re.compile(r"Canadian\s+0 rolls"))  # type: ignore[attr-defined]
    expect(ger.page.locator("h2", has_text="German")).to_have_text(re.compile(r"German\s+[1-9]\d* rolls?"))  # type: ignore[attr-defined]

    # Nothing either side bought or rolled in secret ever reached the other's page
    assert_hidden_from(cdn, GERMAN_ONLY)
    assert_hidden_from(ger, CANADIAN_ONLY)
    (output_dir / "actions.txt").write_text(
        "\n".join(f"{p.side}: {a}" for p in players for a in p.actions) + "\n")
