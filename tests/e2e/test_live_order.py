"""The live page never goes back in time: a player's own htmx response that lands after a newer websocket frame is
not swapped in, whichever way the two arrive (the race behind the "late live update" of the browser tests), and
focus still lands in the step panel once it is processed.

The German buys nothing at the Initial pass's 2.518 while his page holds the response back (conftest.py
hold_responses: a slow network or a busy browser); his socket brings that he has finished, then — the Canadian buying
nothing too — that both are at 2.520. Only then is the response to his 2.518 order processed. His page stays at 2.520
and he can carry on.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import (
    Player,
    buy_nothing,
    create_campaign,
    eyebrow,
    hold_responses,
    join_campaign,
    release_responses,
    settle,
)

pytestmark = pytest.mark.e2e


def live_versions(page: object) -> dict[str, int]:
    """Each live fragment's data-live-version on the page."""
    found = page.evaluate(  # type: ignore[attr-defined]
        "() => Object.fromEntries([...document.querySelectorAll('[data-live-version]')]"
        ".map(el => [el.id, Number(el.getAttribute('data-live-version'))]))")
    return {str(k): int(v) for k, v in found.items()}


def test_an_older_response_landing_after_a_newer_frame_leaves_the_page_at_the_newer_step(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path]
) -> None:
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_url, "Carpiquet")
    join_campaign(cdn, link, live_url, campaign_path)
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    for player in (ger, cdn):
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        expect(player.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.518")  # type: ignore[attr-defined]
    ger_frames = len(ger.frames)

    # The German's order is recorded; his page gets the response but does not process it yet.
    hold_responses(ger)
    with ger.page.expect_response(lambda r: "/phase/order/" in r.url) as answer:  # type: ignore[attr-defined]
        ger.page.locator("#order-form button[name=nothing][value=yes]").click()  # type: ignore[attr-defined]
    assert answer.value.status == 200
    expect(ger.page.locator("#step-panel")).to_contain_text("You have finished this step")  # type: ignore[attr-defined]
    assert len(ger.frames) > ger_frames, "the German's socket brought his own order's update"

    # The Canadian buys nothing: both are at 2.520, and the German's socket says so.
    buy_nothing(cdn, ger, "2.518")
    expect(ger.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.520")  # type: ignore[attr-defined]
    newer = live_versions(ger.page)
    screenshot(ger.page, "01-german-at-2.520-response-held")

    # Now the response to his 2.518 order lands: rendered before the Canadian's order, it is older than the page.
    assert release_responses(ger) == 1
    settle(ger.page)
    ger.page.wait_for_timeout(300)  # and whatever the socket sends after it
    screenshot(ger.page, "02-german-after-the-older-response")
    assert eyebrow(ger.page).startswith("Rule 2.520"), eyebrow(ger.page)
    expect(ger.page.locator("#checklist li[aria-current=step]")).to_contain_text("2.520")  # type: ignore[attr-defined]
    assert all(version >= newer[fragment] for fragment, version in live_versions(ger.page).items()), (
        newer, live_versions(ger.page))
    # The button he pressed went with the frame that replaced its fragment; once his own response is in, focus is
    # in the step panel, never left on <body> (htmx fires afterRequest on the detached form: refit.js listens to the
    # request itself).
    ger.page.wait_for_function(  # type: ignore[attr-defined]
        "() => document.activeElement && document.activeElement.closest('#step-panel') !== null", timeout=5000)

    # …and he carries on from there.
    buy_nothing(ger, cdn, "2.520")
    buy_nothing(cdn, ger, "2.520")
    for player in (ger, cdn):
        expect(player.page.locator("#step-panel")).to_contain_text("Play the Initial Scenario on the board")  # type: ignore[attr-defined]
    screenshot(ger.page, "03-german-initial-scenario")


def test_what_a_player_is_typing_survives_the_first_frame_when_only_another_fragment_changed(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path]
) -> None:
    """The page is rendered, then its socket connects: the player's own presence moves his view's version, so the
    socket's first frame brings every fragment at a newer version. A fragment whose content is the same (the order
    form) is not replaced: the quantity he typed before the frame arrived stays, and so does his focus. (The race
    behind the seed that a browser test typed and then saw replaced by the value it had before.)"""
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_url, "Authie")
    join_campaign(cdn, link, live_url, campaign_path)

    # The German's socket is held open by the browser but not connected to the server until we say so.
    held: list[object] = []
    ger.page.route_web_socket(re.compile(r"/ws/campaigns/"), lambda ws: held.append(ws))  # type: ignore[attr-defined]
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(ger.page.locator("#step-panel .step-eyebrow")).to_contain_text("Rule 2.518")  # type: ignore[attr-defined]
    before = live_versions(ger.page)
    quantity = ger.page.locator("#order-form .rg-row .input-qty:not([disabled])").first  # type: ignore[attr-defined]
    quantity.fill("1")
    quantity.focus()

    # Now the socket reaches the server: it registers his presence and sends every fragment.
    for _ in range(100):
        if held:
            break
        ger.page.wait_for_timeout(50)  # type: ignore[attr-defined]
    assert held, "the page opened its socket"
    held[0].connect_to_server()  # type: ignore[attr-defined]
    ger.page.wait_for_function(  # type: ignore[attr-defined]
        "v => Number(document.getElementById('players').getAttribute('data-live-version')) > v",
        arg=before["players"], timeout=15000)
    settle(ger.page)
    ger.page.wait_for_timeout(300)  # type: ignore[attr-defined]
    after = live_versions(ger.page)
    assert after["step-panel"] > before["step-panel"], (before, after)
    assert quantity.input_value() == "1", "the frame replaced the order form he was typing in"
    assert ger.page.evaluate("() => document.activeElement === document.querySelector('#order-form .rg-row .input-qty:not([disabled])')"), \
        "his focus left the field"  # type: ignore[attr-defined]
    screenshot(ger.page, "04-german-typing-kept")
