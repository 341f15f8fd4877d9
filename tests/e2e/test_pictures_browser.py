"""The campaign in pictures and the story of a CG Date in a browser (issue 13 item 6): the CG Roster's charts before
and after CG end, and a story page, photographed at 1280 and 390 px (the ``screenshot`` fixture: no sideways scroll,
axe). The campaign is created and joined in the browser, then played on and conceded on the server
(tests/campaigns_app/records/test_records_support.play) to keep the test short."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import REPO, LiveServer, Player, create_campaign, join_campaign, settle

pytestmark = pytest.mark.e2e

PLAY_ON = """
from campaigns_app import services
from campaigns_app.models import Campaign
from tests.campaigns_app.records.test_records_support import play
campaign = Campaign.objects.get(public_id={public_id!r})
play(campaign, until_date=4, buy_on={{1, 2}})
"""
CONCEDE = """
from campaigns_app import services
from campaigns_app.models import Seat
seat = Seat.objects.select_related("user").get(campaign__public_id={public_id!r}, side="german")
services.cg_end_concede(user=seat.user, public_id={public_id!r})
"""


def on_server(server: LiveServer, code: str) -> None:
    done = subprocess.run([sys.executable, str(REPO / "manage.py"), "shell", "-c", code], cwd=REPO, env=server.env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


def test_the_roster_charts_and_the_story_fit_1280_and_390_px(
    new_player: Callable[[str], Player], live_server_process: LiveServer, screenshot: Callable[[object, str], Path],
) -> None:
    from playwright.sync_api import expect

    live_url = live_server_process.url
    ger, cdn = new_player("german"), new_player("canadian")
    campaign_path, link = create_campaign(ger, live_url, "Pictures")
    join_campaign(cdn, link, live_url, campaign_path)
    public_id = campaign_path.strip("/").split("/")[-1]
    on_server(live_server_process, PLAY_ON.format(public_id=public_id))

    ger.page.goto(campaign_path + "roster/")  # type: ignore[attr-defined]
    settle(ger.page)
    expect(ger.page.locator("#chart-points svg title").first).to_have_text("CPP available and spent per CG Date")  # type: ignore[attr-defined]
    expect(ger.page.locator("#chart-cvp")).to_be_visible()  # type: ignore[attr-defined]
    expect(ger.page.locator(".pictures")).to_contain_text("the Canadian side's points are hidden until CG end")  # type: ignore[attr-defined]
    screenshot(ger.page, "01-german-roster-pictures")
    ger.page.goto(campaign_path + "story/2/")  # type: ignore[attr-defined]
    expect(ger.page.locator("main")).to_contain_text("told once the CG has ended")  # type: ignore[attr-defined]

    on_server(live_server_process, CONCEDE.format(public_id=public_id))
    cdn.page.goto(campaign_path + "roster/")  # type: ignore[attr-defined]
    settle(cdn.page)
    expect(cdn.page.locator("#chart-points table thead")).to_contain_text("German available")  # type: ignore[attr-defined]
    screenshot(cdn.page, "02-canadian-roster-pictures-after-cg-end")
    cdn.page.get_by_role("link", name="Read the story of the campaign, one CG Date at a time").click()  # type: ignore[attr-defined]
    cdn.page.get_by_role("link", name="19 PM →").click()  # type: ignore[attr-defined]
    expect(cdn.page.locator("h1")).to_have_text("The story of 19 PM")  # type: ignore[attr-defined]
    screenshot(cdn.page, "03-canadian-story-19-pm")
    # on a phone every record page's link is in sight (none hidden in a strip scrolled sideways)
    cdn.page.set_viewport_size({"width": 390, "height": 844})  # type: ignore[attr-defined]
    links = cdn.page.locator(".records-nav a")  # type: ignore[attr-defined]
    expect(links).to_have_count(9)
    rights = links.evaluate_all("links => links.map(a => Math.round(a.getBoundingClientRect().right))")
    assert max(rights) <= 390, rights
