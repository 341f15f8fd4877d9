"""Two players in two browser contexts of Debian's chromium: sign up, create, invite, join (with a player seed), get
through the Initial pass and the RePh to 19 PM's 2.522, both choose a chit, both see the reveal, and the history.

The server is a separate uvicorn process (see conftest.py); these tests are plain sync functions and never touch
Django's database in-process. The steps between the join and the chits are played with the play helpers of conftest.py
(nothing bought, no Recon, every step marked finished). Screenshots of every stage, for both
players, go to the e2e results folder (conftest.py), under the test's name.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import (
    Player,
    answer_needs,
    at_rule,
    buy_nothing,
    check,
    choose_chit,
    enter_results,
    fill_lost_values,
    play_until,
    sign_up,
    submit,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
def players(new_player: Callable[[str], Player]) -> tuple[Player, Player]:
    """Player 1 (Canadian, creates the campaign) and player 2 (German, joins it), each in its own browser context."""
    return new_player("canadian"), new_player("german")


def mentions(html: str, word: str) -> int:
    return len(re.findall(word, html, flags=re.IGNORECASE))


def test_two_players_sign_up_join_choose_and_both_pages_show_the_reveal_without_reload(
    players: tuple[Player, Player], browser: object, live_url: str, screenshot: Callable[[object, str], Path]
) -> None:
    from playwright.sync_api import expect

    p1, p2 = players

    # 1. Both sign up.
    p1.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    screenshot(p1.page, "01-player1-signup")
    sign_up(p1.page, p1.name)
    expect(p1.page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]
    expect(p1.page.locator("main")).to_contain_text("No campaigns yet")  # type: ignore[attr-defined]
    screenshot(p1.page, "02-player1-my-campaigns-empty")

    # 2. Player 1 creates an RR campaign as the Canadian side and copies the invitation link.
    p1.page.goto("/campaigns/new/?system=rr")  # type: ignore[attr-defined]
    expect(p1.page.locator("select[name=system]")).to_have_value("rr")  # type: ignore[attr-defined]
    p1.page.fill("input[name=name]", f"Hill 112 {p1.name}")  # type: ignore[attr-defined]
    p1.page.locator("input[name=side][value=canadian]").check()  # type: ignore[attr-defined]
    fill_lost_values(p1.page)
    screenshot(p1.page, "03-player1-create")
    p1.page.get_by_role("button", name="Create campaign").click()  # type: ignore[attr-defined]
    expect(p1.page).to_have_url(re.compile(r"/campaigns/[A-Za-z0-9_-]+/invite/$"))  # type: ignore[attr-defined]
    campaign_path = re.sub(r"invite/$", "", p1.page.url.removeprefix(live_url))  # type: ignore[attr-defined]
    link = p1.page.locator("#invite-link").input_value()  # type: ignore[attr-defined]
    assert re.fullmatch(re.escape(live_url) + r"/join/[A-Za-z0-9_-]{24,48}/", link), link
    p1.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_url)  # type: ignore[attr-defined]
    p1.page.locator("#copy-invite").click()  # type: ignore[attr-defined]
    expect(p1.page.locator("#copy-status")).to_have_text("Link copied.")  # type: ignore[attr-defined]
    assert p1.page.evaluate("navigator.clipboard.readText()") == link  # type: ignore[attr-defined]
    screenshot(p1.page, "04-player1-invitation")

    # Player 1 waits on the live page: the opponent's arrival must show up there without a reload.
    p1.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(p1.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    expect(p1.page.locator("#owes")).to_contain_text("Waiting for your opponent to join")  # type: ignore[attr-defined]
    # Until the opponent joins, player 1 may change its own seed on the page (saved through htmx, no reload).
    p1.page.locator("#player-seed-input").fill("canadian seed, second thought")  # type: ignore[attr-defined]
    p1.page.locator("#seed-form button").click()  # type: ignore[attr-defined]
    expect(p1.page.locator("#player-seed-input")).to_have_value("canadian seed, second thought")  # type: ignore[attr-defined]
    p1.page.evaluate("window.__refitMarker = 'p1-before-join'")  # type: ignore[attr-defined]
    screenshot(p1.page, "05-player1-live-waiting")

    # 3. Player 2 opens the link, signs up from it, types a player seed and takes the other (German) side.
    p2.page.goto(link)  # type: ignore[attr-defined]
    expect(p2.page.locator("main")).to_contain_text("invites you to play the German side")  # type: ignore[attr-defined]
    screenshot(p2.page, "06-player2-invitation")
    p2.page.get_by_role("link", name="Sign up to join").click()  # type: ignore[attr-defined]
    sign_up(p2.page, p2.name)
    expect(p2.page.locator("#join-button")).to_have_text("Take the German side")  # type: ignore[attr-defined]
    seed_field = p2.page.get_by_label("Your player seed")  # type: ignore[attr-defined]
    expect(seed_field).to_be_visible()
    seed_field.fill(f"german seed {p2.name}")
    screenshot(p2.page, "07-player2-join")
    p2.page.locator("#join-button").click()  # type: ignore[attr-defined]
    expect(p2.page).to_have_url(live_url + campaign_path)  # type: ignore[attr-defined]
    expect(p2.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    screenshot(p2.page, "08-player2-live")

    expect(p1.page.locator("#players")).to_contain_text(p2.name)  # type: ignore[attr-defined]
    # the seed form player 1 still had open became the fixed seed, live (the server would now refuse the form)
    expect(p1.page.locator("#seed-form")).to_have_count(0)  # type: ignore[attr-defined]
    expect(p1.page.locator("#player-seed")).to_have_text("canadian seed, second thought")  # type: ignore[attr-defined]
    assert p1.page.evaluate("window.__refitMarker") == "p1-before-join", "player 1's page reloaded"  # type: ignore[attr-defined]
    screenshot(p1.page, "09-player1-opponent-joined-live")

    # 4. The Initial pass (RR ††: 2.518 with nothing to buy, 2.520), the Initial Scenario and its results, the RePh
    #    to 19 PM (each side types its SAN at 2.512), nothing bought at 2.518, no fortifications, no Recon (2.521).
    pair = (p1, p2)
    for player in pair:
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.518")  # type: ignore[attr-defined]
        expect(player.page.locator("#nothing-to-buy")).to_contain_text("nothing can be bought now")  # type: ignore[attr-defined]
    screenshot(p1.page, "10-player1-initial-2.518-nothing-to-buy")

    def buy_nothing_at(ref: str) -> None:
        play_until(pair, at_rule(ref))
        for player, opponent in (pair, pair[::-1]):
            buy_nothing(player, opponent, ref)

    buy_nothing_at("2.518")
    buy_nothing_at("2.520")
    for player in pair:
        expect(player.page.locator("#step-panel")).to_contain_text("Play the Initial Scenario on the board")  # type: ignore[attr-defined]
    # player 1 also has the page open without JavaScript (no live updates): it goes stale
    stale_context = browser.new_context(  # type: ignore[attr-defined]
        base_url=live_url, storage_state=p1.context.storage_state(), java_script_enabled=False)  # type: ignore[attr-defined]
    stale_tab = stale_context.new_page()
    stale_tab.goto(campaign_path)
    expect(stale_tab.locator("#step-panel #mark-done")).to_be_visible()
    for player, opponent in (pair, pair[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "Initial Scenario finished")  # type: ignore[attr-defined]
    # The stale tab still shows "The Initial Scenario is finished": clicking it finishes nothing and says so.
    expect(p1.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
    stale_tab.locator("#step-panel #mark-done").click()
    expect(stale_tab.locator("main")).to_contain_text("That step is already finished; the page has been refreshed.")
    expect(stale_tab.locator("#results-form")).to_be_visible()
    screenshot(stale_tab, "10b-player1-stale-page-mark-finished")
    stale_context.close()
    results = dict(cvp={"german": 8, "canadian": 5}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    for player, opponent in (pair, pair[::-1]):
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
        enter_results(player, opponent, **results)
    play_until(pair, at_rule("2.512"))
    for player, opponent in (pair, pair[::-1]):
        expect(player.page.locator("#needs")).to_contain_text("Both players will see your SAN")  # type: ignore[attr-defined]
        answer_needs(player, opponent, {"san": "3"})
    buy_nothing_at("2.518")
    buy_nothing_at("2.520")
    play_until(pair, at_rule("2.521"))
    for player, opponent in (pair, pair[::-1]):
        check(player.page, player.page.locator("#recon-form input[name=recon][value=none]"), "no Recon")  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#recon-form button[type=submit]"), "no Recon")  # type: ignore[attr-defined]
    for number, player in enumerate(pair, start=1):
        expect(player.page.locator("#chit-form")).to_be_visible()  # type: ignore[attr-defined]
        expect(player.page.locator("#campaign-status")).to_contain_text("19 PM")  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.522")  # type: ignore[attr-defined]
        screenshot(player.page, f"11-player{number}-chit-step")

    # 5. Player 1 (Canadian) chooses Attack. Player 2 learns only "has chosen".
    for player in (p1, p2):
        player.page.evaluate("window.__refitMarker = 'before-chits'")  # type: ignore[attr-defined]
    p1_url, p2_url = p1.page.url, p2.page.url  # type: ignore[attr-defined]
    p2_panel_before = p2.page.locator("#chit-panel").inner_html()  # type: ignore[attr-defined]
    p2_html_before = p2.page.content()  # type: ignore[attr-defined]
    p2_frames_before = len(p2.frames)

    confirm = choose_chit(p1.page, "attack")
    screenshot(p1.page, "12-player1-confirm-attack")
    confirm.get_by_role("button", name="Yes, submit Attack").click()
    expect(p1.page.locator("#chit-sealed")).to_contain_text("Your Attack chit is sealed")  # type: ignore[attr-defined]
    screenshot(p1.page, "13-player1-sealed")

    expect(p2.page.locator("#players")).to_contain_text("Has chosen")  # type: ignore[attr-defined]
    screenshot(p2.page, "14-player2-opponent-has-chosen")
    p2_html_after = p2.page.content()  # type: ignore[attr-defined]
    for word in ("attack", "idle"):
        assert mentions(p2_html_after, word) == mentions(p2_html_before, word), (
            f"player 2's page mentions “{word}” a different number of times after player 1 chose"
        )
    assert p2.page.locator("#chit-panel").inner_html() == p2_panel_before  # type: ignore[attr-defined]
    assert p2.page.locator("#chit-reveal").count() == 0  # type: ignore[attr-defined]
    assert "Attack chit is sealed" not in p2_html_after
    new_frames = p2.frames[p2_frames_before:]
    assert new_frames, "player 2's page received no live update when player 1 chose"
    for frame in new_frames:
        assert not re.search(r"attack|idle|chit-reveal", frame, flags=re.IGNORECASE), frame

    # 6. Player 2 (German) chooses Idle: both pages show the reveal; player 1's without reload or navigation.
    confirm = choose_chit(p2.page, "idle")
    screenshot(p2.page, "15-player2-confirm-idle")
    confirm.get_by_role("button", name="Yes, submit Idle").click()

    for number, player in enumerate((p1, p2), start=1):
        reveal = player.page.locator("#chit-reveal")  # type: ignore[attr-defined]
        # RR 2.522 matrix (rules-catalog §2.7): CDN ATTACK × GER IDLE = Canadian Assault;
        # the German sets up first, the Canadian moves first.
        expect(reveal).to_contain_text("Canadian Assault")
        expect(reveal.locator("tr", has_text="Canadian")).to_contain_text("Attack")
        expect(reveal.locator("tr", has_text="German")).to_contain_text("Idle")
        expect(reveal).to_contain_text("German sets up first")
        expect(reveal).to_contain_text("Canadian moves first")
        screenshot(player.page, f"16-player{number}-revealed")

    assert p1.page.url == p1_url and p2.page.url == p2_url  # type: ignore[attr-defined]
    assert p1.page.evaluate("window.__refitMarker") == "before-chits", "player 1's page reloaded for the reveal"  # type: ignore[attr-defined]
    assert p2.page.evaluate("window.__refitMarker") == "before-chits", "player 2's page reloaded for the reveal"  # type: ignore[attr-defined]

    # The shared history shows the reveal to both.
    for number, player in enumerate((p1, p2), start=1):
        player.page.goto(campaign_path + "history/")  # type: ignore[attr-defined]
        line = player.page.locator("main li", has_text="Initiative chits revealed")  # type: ignore[attr-defined]
        expect(line).to_contain_text("→ Canadian Assault")
        expect(line).to_contain_text("Canadian Attack")
        expect(line).to_contain_text("German Idle")
        screenshot(player.page, f"17-player{number}-history")
