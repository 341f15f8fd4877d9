"""Issue 13 item 2: the e-mail settings page, reached from My campaigns, fits 1280 and 390 px (no sideways scroll,
axe clean), saves the choices; the broken-link page fits too."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import Player, create_campaign

pytestmark = pytest.mark.e2e


def test_the_email_settings_page_fits_both_widths_and_saves_the_choices(
    new_player: Callable[[str], Player], live_url: str, screenshot: Callable[[object, str], Path],
) -> None:
    from playwright.sync_api import expect

    ger = new_player("german")
    create_campaign(ger, live_url, "A campaign with a rather long name to test the settings page width")
    page = ger.page
    page.goto("/campaigns/")  # type: ignore[attr-defined]
    page.locator("main").get_by_role("link", name="E-mail settings").click()  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_have_text("E-mail settings")  # type: ignore[attr-defined]
    screenshot(page, "01-email-settings")  # checks 1280 and 390 px, and axe at both

    page.get_by_label("All my campaigns").select_option("digest")  # type: ignore[attr-defined]
    page.locator("#notify-form select").nth(1).select_option("none")  # type: ignore[attr-defined]
    page.get_by_role("button", name="Save").click()  # type: ignore[attr-defined]
    expect(page.locator(".messages")).to_contain_text("Your e-mail settings are saved.")  # type: ignore[attr-defined]
    # the site's green notice, full width: the players' chat messages (.message-list .message) do not restyle it
    notice = page.locator(".messages .message").first  # type: ignore[attr-defined]
    expect(notice).to_have_css("background-color", "rgb(227, 241, 229)")  # --ok-soft #e3f1e5
    expect(notice).to_have_css("margin-right", "0px")
    expect(page.get_by_label("All my campaigns")).to_have_value("digest")  # type: ignore[attr-defined]
    expect(page.locator("#notify-form select").nth(1)).to_have_value("none")  # type: ignore[attr-defined]
    screenshot(page, "02-email-settings-saved")

    page.goto("/notifications/link/not-a-token/")  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_have_text("This link is broken")  # type: ignore[attr-defined]
    screenshot(page, "03-broken-link")
