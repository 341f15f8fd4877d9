"""Play at a distance in two browsers: a campaign with a pace of 2 days per action; the players exchange messages
live; the German seals a note (the Canadian sees that, when and where, and the commitment, never the text) and reveals
it (it matches its commitment); he rolls a secret DR at the board (the Canadian sees that it was made, never its
purpose or dice) and reveals it; the scheduler's reminders, run with a clock two days on, mark the Canadian — away from
the page — overdue on both pages and in My campaigns; the dice statistics page. Every page photographed at 1280 and
390 px (no sideways scrolling, axe)."""
from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from tests.e2e.conftest import REPO, LiveServer, Player, create_campaign, join_campaign, settle

pytestmark = pytest.mark.e2e
NOTE = "HIP: the 9-1 and two 4-6-7 in the K5 stone building"
ROLL_PURPOSE = "Quagmire check for the Sherman in O7"
SECOND_NOTE = "Panzerfaust team waits in the P3 orchard"
SECOND_PURPOSE = "Random ambush hex"


def send_message(player: Player, opponent: Player, text: str) -> None:
    from playwright.sync_api import expect

    player.page.locator("#message-text").fill(text)  # type: ignore[attr-defined]
    player.page.locator("#message-form button[type=submit]").click()  # type: ignore[attr-defined]
    settle(player.page)
    for page in (player.page, opponent.page):
        expect(page.locator("#messages")).to_contain_text(text)
    expect(player.page.locator("#message-text")).to_have_value("")  # type: ignore[attr-defined]


def test_messages_a_sealed_note_and_a_reminder_driven_overdue_badge(
    new_player: Callable[[str], Player], live_server_process: LiveServer, screenshot: Callable[..., object]
) -> None:
    from playwright.sync_api import expect

    live_url = live_server_process.url
    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_url, "Hill 112", pace="48")
    expect(ger.page.locator("#invite-pace")).to_contain_text("2 days per action")  # type: ignore[attr-defined]
    cdn.page.goto(link)  # type: ignore[attr-defined]
    expect(cdn.page.locator("#join-pace")).to_contain_text("2 days per action — agreed by joining")  # type: ignore[attr-defined]
    join_campaign(cdn, link, live_url, campaign_path)
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    for player in (ger, cdn):
        expect(player.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
        expect(player.page.locator("#pace")).to_contain_text("Pace: 2 days per action")  # type: ignore[attr-defined]
        expect(player.page.locator("#pace")).to_contain_text("due by")  # type: ignore[attr-defined]

    # Messages, live both ways
    send_message(ger, cdn, "Good luck — see https://vasl.info for the map")
    send_message(cdn, ger, "And to you. Dawn attack?")
    expect(cdn.page.locator('#messages a[href="https://vasl.info"]')).to_be_visible()  # type: ignore[attr-defined]
    for player in (ger, cdn):
        screenshot(player.page, f"01-messages-{player.side}")

    # A sealed note: the opponent sees that it was sealed, never its text
    ger.page.goto(campaign_path + "notes/")  # type: ignore[attr-defined]
    ger.page.locator("#note-text").fill(NOTE)  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Seal this note").click()  # type: ignore[attr-defined]
    expect(ger.page.locator("#note-german-1")).to_contain_text(NOTE)  # type: ignore[attr-defined]
    screenshot(ger.page, "02-note-sealed-german")
    expect(cdn.page.locator("#history-latest")).to_contain_text("The German side sealed note #1")  # type: ignore[attr-defined]
    cdn.page.goto(campaign_path + "notes/")  # type: ignore[attr-defined]
    sealed = cdn.page.locator("#note-german-1")  # type: ignore[attr-defined]
    expect(sealed).to_contain_text("its text stays hidden")
    assert "K5 stone" not in cdn.page.content() and all("K5 stone" not in frame for frame in cdn.frames)  # type: ignore[attr-defined]
    screenshot(cdn.page, "03-note-sealed-canadian")
    expect(cdn.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Reveal note #1 to both sides").click()  # type: ignore[attr-defined]
    expect(ger.page.locator("#note-german-1")).to_contain_text("Revealed to both sides")  # type: ignore[attr-defined]
    expect(sealed).to_contain_text(NOTE)  # live on the Canadian's notes page, without a reload
    expect(sealed).to_contain_text("Matches the commitment sealed")
    screenshot(cdn.page, "04-note-revealed-canadian")

    # A secret roll at the board: the Canadian sees at once (live) that a secret DR was made, never its purpose or dice
    cdn.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(cdn.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    ger.page.goto(campaign_path + "notes/")  # type: ignore[attr-defined]
    ger.page.locator("#roll-purpose").fill(ROLL_PURPOSE)  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Roll in secret").click()  # type: ignore[attr-defined]
    rolled = ger.page.locator("#secret-roll-german-1")  # type: ignore[attr-defined]
    expect(rolled).to_contain_text(ROLL_PURPOSE)
    screenshot(ger.page, "04b-secret-roll-german")
    expect(cdn.page.locator("#history-latest")).to_contain_text("The German side made secret DR #1 at the board")  # type: ignore[attr-defined]
    assert "Quagmire" not in cdn.page.content() and all("Quagmire" not in frame for frame in cdn.frames)  # type: ignore[attr-defined]
    cdn.page.goto(campaign_path + "notes/")  # type: ignore[attr-defined]
    shadow = cdn.page.locator("#secret-roll-german-1")  # type: ignore[attr-defined]
    expect(shadow).to_contain_text("Hidden: its purpose and dice stay secret")
    assert "Quagmire" not in cdn.page.content() and all("Quagmire" not in frame for frame in cdn.frames)  # type: ignore[attr-defined]
    screenshot(cdn.page, "04c-secret-roll-canadian")
    expect(cdn.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Reveal secret roll #1 to both sides").click()  # type: ignore[attr-defined]
    expect(ger.page.locator("#secret-roll-german-1")).to_contain_text("Revealed to both sides")  # type: ignore[attr-defined]
    expect(shadow).to_contain_text(ROLL_PURPOSE)  # live, without a reload
    expect(shadow).to_contain_text("it agrees with the roll announced")

    # The Canadian stays on the notes page: the German's next note and secret dr appear there live, hidden
    ger.page.locator("#note-text").fill(SECOND_NOTE)  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Seal this note").click()  # type: ignore[attr-defined]
    expect(cdn.page.locator("#note-german-2")).to_contain_text("its text stays hidden")  # type: ignore[attr-defined]
    ger.page.locator("#roll-purpose").fill(SECOND_PURPOSE)  # type: ignore[attr-defined]
    ger.page.get_by_role("radio", name="dr (one die)").check()  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Roll in secret").click()  # type: ignore[attr-defined]
    expect(cdn.page.locator("#secret-roll-german-2")).to_contain_text("Hidden: its purpose and dice")  # type: ignore[attr-defined]
    expect(cdn.page.locator("#note-german-1")).to_contain_text(NOTE)  # type: ignore[attr-defined]
    for secret in ("Panzerfaust", "ambush"):
        assert secret not in cdn.page.content() and all(secret not in frame for frame in cdn.frames)  # type: ignore[attr-defined]
    screenshot(cdn.page, "04d-notes-live-canadian")
    # The German's own second tab gets his new note live; its "Reveal" form (from the socket) posts with the page's
    # CSRF token
    tab = ger.page.context.new_page()  # type: ignore[attr-defined]
    tab.goto(campaign_path + "notes/")
    expect(tab.locator("#live-indicator")).to_have_attribute("data-state", "online")
    ger.page.locator("#note-text").fill("Smoke at dawn")  # type: ignore[attr-defined]
    ger.page.get_by_role("button", name="Seal this note").click()  # type: ignore[attr-defined]
    expect(tab.locator("#note-german-3")).to_contain_text("Smoke at dawn")
    tab.get_by_role("button", name="Reveal note #3 to both sides").click()
    expect(tab.locator("#note-german-3")).to_contain_text("Revealed to both sides")
    expect(cdn.page.locator("#note-german-3")).to_contain_text("Smoke at dawn")  # type: ignore[attr-defined]
    tab.close()

    # The Canadian is away; the scheduler runs two days and a minute on: his move is overdue, the German's is not
    ger.page.goto(campaign_path)  # type: ignore[attr-defined]
    expect(ger.page.locator("#live-indicator")).to_have_attribute("data-state", "online")  # type: ignore[attr-defined]
    cdn.page.goto("/campaigns/")  # type: ignore[attr-defined]
    later = (datetime.now(UTC) + timedelta(hours=48, minutes=1)).isoformat()
    done = subprocess.run([sys.executable, str(REPO / "manage.py"), "send_reminders", "--now", later], cwd=REPO,
                          env=live_server_process.env, capture_output=True, text=True, timeout=120, check=False)
    # other browser tests' paced campaigns share this server's database: at least this one's reminder went out
    sent = re.fullmatch(r"(\d+) reminders? sent\.", done.stdout.strip())
    assert done.returncode == 0 and sent and int(sent.group(1)) >= 1, done.stdout + done.stderr
    overdue = ger.page.locator("#pace li", has_text="Canadian")  # type: ignore[attr-defined]
    expect(overdue).to_contain_text("Overdue")  # live, without a reload
    expect(ger.page.locator("#pace li", has_text="Your move")).not_to_contain_text("Overdue")  # type: ignore[attr-defined]
    expect(ger.page.locator("#history-latest")).to_contain_text("The Canadian side’s action is overdue")  # type: ignore[attr-defined]
    screenshot(ger.page, "05-overdue-german")
    cdn.page.reload()  # type: ignore[attr-defined]
    row = cdn.page.locator("tr.campaign-row", has_text="Hill 112")  # type: ignore[attr-defined]
    expect(row).to_contain_text("Overdue")
    expect(row.locator("time")).to_have_text(re.compile(r"\d"))
    screenshot(cdn.page, "06-my-campaigns-overdue-canadian")

    # The dice statistics page
    cdn.page.goto(campaign_path + "dice/statistics/")  # type: ignore[attr-defined]
    expect(cdn.page.locator("h1")).to_have_text("Dice statistics")  # type: ignore[attr-defined]
    screenshot(cdn.page, "07-dice-statistics-canadian")
