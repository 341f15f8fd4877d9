"""Every player can use it (issue 16): the axe check itself, the order and chit flows with the keyboard only (where
focus lands after each action, and that the opponent's update never moves it), and the permanent live region that
says the opponent's "has chosen" and the reveal — and nothing a side may not know.

axe runs on every page the e2e tests photograph (the ``screenshot`` fixture calls ``check_accessibility`` at 1280
and 390 px); this file adds the flows axe cannot see.
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
    check_accessibility,
    create_campaign,
    enter_results,
    join_campaign,
    play_until,
    settle,
    submit,
)

pytestmark = pytest.mark.e2e

# Records every sentence the live region says, in order (the region is cleared before each new sentence).
RECORD_ANNOUNCEMENTS = """
() => {
  window.__announced = [];
  var region = document.getElementById('live-announcer');
  new MutationObserver(function () {
    var text = region.textContent.trim();
    if (text) window.__announced.push(text);
  }).observe(region, {childList: true, characterData: true, subtree: true});
}
"""
ACTIVE = """
() => {
  var el = document.activeElement;
  if (!el || el === document.body) return 'body';
  return (el.id ? '#' + el.id : el.tagName.toLowerCase()) + ' ' + (el.textContent || el.value || '').replace(/\\s+/g, ' ').trim();
}
"""


def active(player: Player) -> str:
    """The focused element: '#id text' (or 'tag text'), 'body' when nothing has focus."""
    return str(player.page.evaluate(ACTIVE))  # type: ignore[attr-defined]


def announced(player: Player) -> list[str]:
    return list(player.page.evaluate("() => window.__announced"))  # type: ignore[attr-defined]


def wait_for_focus(player: Player, selector: str) -> None:
    """Wait until the element matching ``selector`` has focus (fails with what has it instead)."""
    try:
        player.page.wait_for_function(  # type: ignore[attr-defined]
            "s => document.activeElement && document.activeElement.matches(s)", arg=selector, timeout=15000)
    except Exception as error:
        raise AssertionError(f"{player.side}: focus should be on {selector}, is on {active(player)!r}") from error


def press(player: Player, opponent: Player, key: str, what: str) -> None:
    """Press a key that submits a phase or chit form: wait for the answer and for the opponent's live update."""
    frames_before = len(opponent.frames)
    with player.page.expect_response(lambda r: "/phase/" in r.url or "/chit" in r.url):  # type: ignore[attr-defined]
        player.page.keyboard.press(key)  # type: ignore[attr-defined]
    settle(player.page)
    player.actions.append(what)
    player.page.wait_for_timeout(150)  # type: ignore[attr-defined]
    for _ in range(60):
        if len(opponent.frames) > frames_before:
            break
        opponent.page.wait_for_timeout(50)  # type: ignore[attr-defined]
    settle(opponent.page)


def test_the_accessibility_check_fails_on_a_serious_violation_and_names_it(browser: object) -> None:
    context = browser.new_context()  # type: ignore[attr-defined]
    try:
        page = context.new_page()
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>Refit</h1>'
                         '<p style="color:#6b7680;background:#eceae3">muted text as it was</p>'
                         '<ul class="messages" role="status"><li>Saved.</li></ul></main></body></html>')
        with pytest.raises(pytest.fail.Exception) as failed:
            check_accessibility(page, "a bad page")
        message = str(failed.value)
        assert "color-contrast (serious)" in message and "listitem (serious)" in message and "at 390 px" in message
        page.set_content('<html lang="en"><head><title>t</title></head><body><main><h1>Refit</h1>'
                         '<p style="color:#56616b;background:#eceae3">muted text now</p>'
                         '<div role="status"><ul class="messages"><li>Saved.</li></ul></div></main></body></html>')
        check_accessibility(page, "the same page fixed")
    finally:
        context.close()


def test_keyboard_only_order_and_chit_flows_keep_focus_and_the_live_region_says_only_what_a_side_may_know(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path]
) -> None:
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    pair = (ger, cdn)
    campaign_path, link = create_campaign(ger, live_url, "Keyboard")
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    join_campaign(cdn, link, live_url, campaign_path)
    for player in pair:
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        expect(player.page.locator("#order-form")).to_be_visible()  # type: ignore[attr-defined]
        player.page.evaluate(RECORD_ANNOUNCEMENTS)  # type: ignore[attr-defined]
    # the region is permanent: outside every swapped live fragment
    assert ger.page.locator("#live-announcer").evaluate("el => !el.closest('[data-live-version]')")  # type: ignore[attr-defined]

    # --- The order form (19 AM 2.518): "Skip to submit", then the submit; focus lands on what happened -----------
    # The Canadian is elsewhere on its page (the History link, outside the live fragments): the German's action,
    # arriving on its page as a websocket frame, must leave its focus there.
    cdn.page.get_by_role("link", name="History", exact=True).focus()  # type: ignore[attr-defined]
    skip = ger.page.locator("#order-form .skip-to-submit")  # type: ignore[attr-defined]
    expect(skip).to_have_text("Skip to submit")
    skip.focus()
    ger.page.keyboard.press("Enter")  # type: ignore[attr-defined]
    wait_for_focus(ger, "#order-form #order-submit")
    press(ger, cdn, "Enter", "keyboard: buy nothing at 2.518")
    wait_for_focus(ger, "#step-panel .done-line")
    assert "You have finished this step" in active(ger)
    screenshot(ger.page, "01-german-order-submitted-focus-on-done")
    assert active(cdn) == "a History", "the German's action moved the Canadian's focus"
    expect(cdn.page.locator("#checklist")).to_contain_text("German: finished")  # type: ignore[attr-defined]

    # the Canadian, with the keyboard too: the step is over for both, focus goes to the next step's panel
    cdn.page.locator("#order-form .skip-to-submit").focus()  # type: ignore[attr-defined]
    cdn.page.keyboard.press("Enter")  # type: ignore[attr-defined]
    wait_for_focus(cdn, "#order-form #order-submit")
    press(cdn, ger, "Enter", "keyboard: buy nothing at 2.518")
    expect(cdn.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.520")  # type: ignore[attr-defined]
    wait_for_focus(cdn, "#step-panel *")
    assert active(cdn) != "body"
    screenshot(cdn.page, "02-canadian-order-submitted-focus-on-next-step")

    # --- to 19 PM's chits, played with the ordinary helpers ---------------------------------------------------------
    for player, opponent in (pair, pair[::-1]):
        buy_nothing(player, opponent, "2.520")
    for player, opponent in (pair, pair[::-1]):
        submit(player, opponent, player.page.locator("#step-panel #mark-done"), "Initial Scenario finished")  # type: ignore[attr-defined]
    results = dict(cvp={"german": 8, "canadian": 5}, attacked={"german": True, "canadian": False}, lvp={"canadian": 3})
    for player, opponent in (pair, pair[::-1]):
        expect(player.page.locator("#results-form")).to_be_visible()  # type: ignore[attr-defined]
        enter_results(player, opponent, **results)
    play_until(pair, at_rule("2.512"))
    for player, opponent in (pair, pair[::-1]):
        answer_needs(player, opponent, {"san": "3"})
    for ref in ("2.518", "2.520"):
        play_until(pair, at_rule(ref))
        for player, opponent in (pair, pair[::-1]):
            buy_nothing(player, opponent, ref)
    play_until(pair, at_rule("2.521"))
    for player, opponent in (pair, pair[::-1]):
        check(player.page, player.page.locator("#recon-form input[name=recon][value=none]"), "no Recon")  # type: ignore[attr-defined]
        submit(player, opponent, player.page.locator("#recon-form button[type=submit]"), "no Recon")  # type: ignore[attr-defined]
    for player in pair:
        expect(player.page.locator("#chit-form")).to_be_visible()  # type: ignore[attr-defined]
        player.page.evaluate("window.__announced = []")  # type: ignore[attr-defined]

    # --- The chits, keyboard only: radio, Continue → "Yes, submit", Enter → the sealed message --------------------
    def choose_with_keys(player: Player, opponent: Player, chit: str) -> None:
        player.page.locator(f"#chit-form input[name=chit][value={chit}]").focus()  # type: ignore[attr-defined]
        player.page.keyboard.press("Space")  # type: ignore[attr-defined]
        player.page.keyboard.press("Tab")  # type: ignore[attr-defined]
        wait_for_focus(player, "#chit-form button[type=submit]")
        press(player, opponent, "Enter", f"keyboard: continue with {chit}")
        wait_for_focus(player, "#chit-confirm button[type=submit]")
        assert active(player) == f"button Yes, submit {chit.capitalize()}"

    cdn.page.get_by_role("link", name="History", exact=True).focus()  # type: ignore[attr-defined]
    choose_with_keys(ger, cdn, "attack")
    screenshot(ger.page, "03-german-continue-focus-on-yes")
    press(ger, cdn, "Enter", "keyboard: seal attack")
    wait_for_focus(ger, "#chit-sealed")
    assert "Your Attack chit is sealed" in active(ger)
    screenshot(ger.page, "04-german-sealed-focus-on-message")

    # the Canadian hears "has chosen", never the chit, and keeps its focus
    expect(cdn.page.locator("#live-announcer")).to_have_text(  # type: ignore[attr-defined]
        "The German side has chosen an Initiative chit for 19 PM.")
    assert active(cdn) == "a History", "the German's chit moved the Canadian's focus"
    before_reveal = announced(cdn)
    assert before_reveal and not any(re.search(r"attack|idle", line, re.IGNORECASE) for line in before_reveal), before_reveal
    screenshot(cdn.page, "05-canadian-hears-has-chosen")

    choose_with_keys(cdn, ger, "idle")
    press(cdn, ger, "Enter", "keyboard: seal idle")
    # RR 2.522 (rules-catalog §2.7): GER ATTACK × CDN IDLE = German Assault; both hear the reveal
    for player in pair:
        expect(player.page.locator("#chit-reveal")).to_contain_text("German Assault")  # type: ignore[attr-defined]
        expect(player.page.locator("#live-announcer")).to_contain_text(  # type: ignore[attr-defined]
            "Initiative chits revealed for 19 PM: Canadian Idle, German Attack → German Assault.")
        screenshot(player.page, f"06-{player.side}-hears-the-reveal")
    # the German heard its own choice only as "You …", and the Canadian's only with the reveal
    german_heard = announced(ger)
    reveal_at = next(i for i, line in enumerate(german_heard) if "revealed" in line)
    assert not any("Idle" in line for line in german_heard[:reveal_at]), german_heard


def test_the_pages_around_the_live_page_pass_axe_at_both_widths(
    new_player: Callable[[str], Player], live_url: str
) -> None:
    """The pages a player reaches from the menus and the campaign page's buttons, signed out and in, both sides."""
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/"):
        cdn.page.goto(path)  # type: ignore[attr-defined]
        check_accessibility(cdn.page, f"signed out {path}")
    campaign_path, link = create_campaign(ger, live_url, "Pages")
    check_accessibility(ger.page, "german invitation")
    join_campaign(cdn, link, live_url, campaign_path)
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    for player in (ger, cdn):
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        check_accessibility(player.page, f"{player.side} live page")
    pages = ("history/", "roster/", "purchases/", "dice/", "cg-end/", "rules/", "invite/")
    for player in (ger, cdn):
        for page in pages:
            player.page.goto(campaign_path + page)  # type: ignore[attr-defined]
            check_accessibility(player.page, f"{player.side} {page}")
    for path in ("/campaigns/", "/cards/", "/cards/new/", "/accounts/password_change/"):
        ger.page.goto(path)  # type: ignore[attr-defined]
        check_accessibility(ger.page, f"signed in {path}")
