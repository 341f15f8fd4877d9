"""The notes page live for a screen-reader user and at CG end, in two browsers: the German's new note is said in the
Canadian's live region in the shadow's words (never its text); when the German concedes, the Canadian's open notes page
says the CG is over and drops its Seal and Roll-in-secret forms without a reload."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.e2e.conftest import LiveServer, Player, create_campaign, join_campaign

pytestmark = pytest.mark.e2e
OVER = "The Campaign Game is over: every note and secret roll is revealed."


def test_the_opponents_note_is_announced_and_cg_end_drops_the_notes_forms_live(
    new_player: Callable[[str], Player], live_server_process: LiveServer
) -> None:
    from playwright.sync_api import expect

    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_server_process.url, "Hill 112")
    join_campaign(cdn, link, live_server_process.url, campaign_path)
    for player in (ger, cdn):
        player.page.goto(campaign_path + "notes/")  # type: ignore[attr-defined]
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    announcer = cdn.page.locator("#live-announcer")  # type: ignore[attr-defined]
    expect(announcer).to_have_text("")

    ger.page.locator("#note-text").fill("HIP in the K5 stone building")  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Seal this note").click()  # type: ignore[attr-defined]

    expect(cdn.page.locator("#note-german-1")).to_contain_text("its text stays hidden")  # type: ignore[attr-defined]
    expect(announcer).to_have_text("The German side sealed note #1.")
    expect(cdn.page.locator("#note-form")).to_be_visible()  # type: ignore[attr-defined]
    expect(cdn.page.locator("#secret-roll-form")).to_be_visible()  # type: ignore[attr-defined]

    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    ger.page.locator("#cg-end summary").click()  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Concede…").click()  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Yes, concede").click()  # type: ignore[attr-defined]

    expect(cdn.page.locator("#notes-ended")).to_have_text(OVER)  # type: ignore[attr-defined]
    expect(announcer).to_have_text(OVER)
    expect(cdn.page.locator("#note-form")).to_have_count(0)  # type: ignore[attr-defined]
    expect(cdn.page.locator("#secret-roll-form")).to_have_count(0)  # type: ignore[attr-defined]
    expect(cdn.page.locator("#note-german-1")).to_contain_text("HIP in the K5 stone building")  # type: ignore[attr-defined]
