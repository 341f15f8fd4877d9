"""Changing the pace in two browsers: the German proposes 1 day per action on the Players card, the Canadian's page
shows the proposal live and he agrees; both pages then read the new pace, its deadlines and the history line; then
the Canadian proposes a week, the German declines. Photographed at 1280 and 390 px (no sideways scrolling, axe)."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.e2e.conftest import LiveServer, Player, create_campaign, join_campaign, settle

pytestmark = pytest.mark.e2e


def test_both_players_agree_to_a_new_pace_and_decline_another_live_on_both_pages(
    new_player: Callable[[str], Player], live_server_process: LiveServer, screenshot: Callable[..., object]
) -> None:
    from playwright.sync_api import expect

    live_url = live_server_process.url
    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_url, "Hill 112", pace="48")
    join_campaign(cdn, link, live_url, campaign_path)
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    for player in (ger, cdn):
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]

    ger.page.locator(".pace-change summary").click()  # type: ignore[attr-defined]
    ger.page.get_by_label("New pace").select_option(label="1 day per action")  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Propose to my opponent").click()  # type: ignore[attr-defined]
    settle(ger.page)
    expect(ger.page.locator("#pace")).to_contain_text("You proposed a new pace: 1 day per action")  # type: ignore[attr-defined]
    answer = cdn.page.locator("form.pace-answer")  # type: ignore[attr-defined]
    expect(answer).to_contain_text("The German side proposes a new pace: 1 day per action (now: 2 days per action)")
    screenshot(cdn.page, "01-pace-proposed-canadian")

    answer.get_by_role("button", name="Agree").click()
    settle(cdn.page)
    for player in (ger, cdn):
        expect(player.page.locator("#pace")).to_contain_text("Pace: 1 day per action")  # type: ignore[attr-defined]
        expect(player.page.locator("#pace")).to_contain_text("due by")  # type: ignore[attr-defined]
    expect(ger.page.locator("#history-latest")).to_contain_text(  # type: ignore[attr-defined]
        "The Canadian side agreed to the new pace: 1 day per action (was: 2 days per action)")
    screenshot(ger.page, "02-pace-agreed-german")

    cdn.page.locator(".pace-change summary").click()  # type: ignore[attr-defined]
    cdn.page.get_by_label("New pace").select_option(label="1 week per action")  # type: ignore[attr-defined]
    cdn.page.get_by_role("button", name="Propose to my opponent").click()  # type: ignore[attr-defined]
    settle(cdn.page)
    ger.page.locator("form.pace-answer").get_by_role("button", name="Decline").click()  # type: ignore[attr-defined]
    settle(ger.page)
    expect(cdn.page.locator("#history-latest")).to_contain_text(  # type: ignore[attr-defined]
        "The German side declined the new pace: 1 week per action; it stays 1 day per action.")
    expect(cdn.page.locator("#pace")).to_contain_text("Pace: 1 day per action")  # type: ignore[attr-defined]
    expect(cdn.page.locator(".pace-change summary")).to_be_visible()  # type: ignore[attr-defined]
