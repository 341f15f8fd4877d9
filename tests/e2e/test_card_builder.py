"""A player builds a small Platoon Leader 2.5 CG Card in the browser form (no YAML), in Debian's chromium: a wrong
value gets the loader's message beside its field as it is typed, a calendar row is added, and the card is saved only
once valid; the card page says a campaign can start with it and the author publishes it.

Screenshots at 1280 and 390 px go to test-results/e2e/<test name>/; on each page the document is no wider than the
viewport. Every value typed is TEST DATA (not from a printed CG Card).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import DESKTOP, Player, settle, signed_up

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def _fits(page: object) -> None:
    page.wait_for_load_state("load")  # type: ignore[attr-defined]  # its stylesheet applied (a loaded machine is slow)
    width = int(page.evaluate("document.documentElement.scrollWidth"))  # type: ignore[attr-defined]
    viewport = int(page.evaluate("window.innerWidth"))  # type: ignore[attr-defined]
    assert width <= viewport, f"the page is {width} px wide in a {viewport} px viewport"


def _both_widths(player: Player, screenshot: Callable[[object, str], Path], name: str) -> None:
    page = player.page
    for label, size in (("1280", DESKTOP), ("390", PHONE)):
        page.set_viewport_size(size)  # type: ignore[attr-defined]
        _fits(page)
        screenshot(page, f"{name}-{label}")
    page.set_viewport_size(DESKTOP)  # type: ignore[attr-defined]


def test_a_player_builds_a_small_pl_card_in_the_browser_form(
        new_player: Callable[[str], Player], screenshot: Callable[[object, str], Path]) -> None:
    from playwright.sync_api import expect

    player = new_player("allied")
    page = player.page
    signed_up(player)

    page.goto("/cards/")  # type: ignore[attr-defined]
    page.get_by_role("link", name="New CG Card").first.click()  # type: ignore[attr-defined]
    page.get_by_label("Base CG system").select_option("pl25")  # type: ignore[attr-defined]
    page.get_by_role("button", name="Open the form").click()  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_contain_text("New CG Card for Platoon Leader 2.5")  # type: ignore[attr-defined]
    _both_widths(player, screenshot, "01-empty-form")

    page.get_by_label("Card id").fill("test-pl-browser")  # type: ignore[attr-defined]
    page.get_by_label("Card name").fill("TEST DATA — PL card built in the browser")  # type: ignore[attr-defined]
    page.get_by_label("Intensity column").select_option("mid")  # type: ignore[attr-defined]
    elr = page.locator("#f-settings_values-initial_elr-allied")  # type: ignore[attr-defined]
    elr.fill("9")
    elr.blur()
    settle(page)
    expect(page.locator("#err-settings_values-initial_elr-allied")).to_contain_text("9 is out of range (allowed: 0 to 5)")  # type: ignore[attr-defined]
    expect(page.locator("#builder-summary")).to_contain_text("Not saved yet")  # type: ignore[attr-defined]
    _both_widths(player, screenshot, "02-message-beside-the-field")
    elr.fill("3")
    page.locator("#f-settings_values-initial_elr-axis").fill("4")  # type: ignore[attr-defined]

    page.get_by_label("Id, row 1 of CG Firefights").fill("FF1")  # type: ignore[attr-defined]
    page.get_by_label("Initial, row 1 of CG Firefights").check()  # type: ignore[attr-defined]
    page.get_by_label("Weather, row 1 of CG Firefights").fill("Clear")  # type: ignore[attr-defined]
    page.locator("#section-calendar").get_by_role("button", name="Add a row").click()  # type: ignore[attr-defined]
    page.get_by_label("Id, row 2 of CG Firefights").fill("FF2")  # type: ignore[attr-defined]
    page.get_by_label("Night, row 2 of CG Firefights").check()  # type: ignore[attr-defined]
    for n, (group, cost) in enumerate((("Rifle Pltn", "12"), ("Gren Pltn", "10"))):
        page.locator(f"#f-rg_charts-{n}-ref").fill("CG Card")  # type: ignore[attr-defined]
        page.locator(f"#f-rg_charts-{n}-name").fill(f"RG Table {n + 1} (TEST DATA)")  # type: ignore[attr-defined]
        page.locator(f"#f-rg_charts-{n}-rows-0-id").fill("I1")  # type: ignore[attr-defined]
        page.locator(f"#f-rg_charts-{n}-rows-0-type").select_option("I")  # type: ignore[attr-defined]
        page.locator(f"#f-rg_charts-{n}-rows-0-group_type").fill(group)  # type: ignore[attr-defined]
        page.locator(f"#f-rg_charts-{n}-rows-0-cost").fill(cost)  # type: ignore[attr-defined]
    page.locator("#f-rg_charts-1-rows-0-cost").blur()  # type: ignore[attr-defined]
    settle(page)
    expect(page.locator("#builder-summary")).to_contain_text("The card is valid")  # type: ignore[attr-defined]
    expect(page.locator("#err-settings_values-initial_elr-allied")).to_have_text("")  # type: ignore[attr-defined]
    _both_widths(player, screenshot, "03-valid")

    page.get_by_role("button", name="Check and save").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/cards/[A-Za-z0-9_-]{16,40}/$"))  # type: ignore[attr-defined]
    expect(page.locator("#card-start")).to_contain_text("Yes")  # type: ignore[attr-defined]
    page.locator("#card-text summary").click()  # type: ignore[attr-defined]
    text = page.locator("#card-text pre").inner_text()  # type: ignore[attr-defined]
    assert "extends: pl25" in text and "id: FF2" in text and "night: true" in text
    _both_widths(player, screenshot, "04-card-page")

    page.get_by_role("button", name="Publish to every player").click()  # type: ignore[attr-defined]
    expect(page.locator("main")).to_contain_text("Published: every player on this server finds it")  # type: ignore[attr-defined]
    _both_widths(player, screenshot, "05-published")


def test_a_builder_check_swaps_only_the_problems_that_changed(new_player: Callable[[str], Player]) -> None:
    """A check answers with every field's problem slot; the page swaps only those whose words changed. Swapping all of
    them (htmx fires oobAfterSwap for every element swapped so far after each one) held a PHD form for seconds."""
    from playwright.sync_api import expect

    player = new_player("allied")
    page = player.page
    signed_up(player)
    page.goto("/cards/build/pl25/")  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_contain_text("New CG Card for Platoon Leader 2.5")  # type: ignore[attr-defined]
    elr = page.locator("#f-settings_values-initial_elr-allied")  # type: ignore[attr-defined]
    elr.fill("9")
    elr.blur()
    expect(page.locator("#err-settings_values-initial_elr-allied")).to_contain_text("9 is out of range")  # type: ignore[attr-defined]
    settle(page)
    slots = int(page.evaluate(  # type: ignore[attr-defined]
        """() => { const all = [...document.querySelectorAll('.builder-error[id]')];
                   all.forEach(el => { el.__before = true; });
                   window.__swapped = 0;
                   document.addEventListener('htmx:oobBeforeSwap', e => { if (e.detail.shouldSwap) window.__swapped++; });
                   return all.length; }"""))

    page.get_by_label("Card name").fill("TEST DATA — a check swaps what changed")  # type: ignore[attr-defined]
    elr.fill("3")
    elr.blur()
    expect(page.locator("#err-settings_values-initial_elr-allied")).to_have_text(  # type: ignore[attr-defined]
        "no value for side(s) axis (allowed: allied, axis)")
    settle(page)

    kept = int(page.evaluate("[...document.querySelectorAll('.builder-error[id]')].filter(el => el.__before).length"))  # type: ignore[attr-defined]
    swapped = int(page.evaluate("window.__swapped"))  # type: ignore[attr-defined]
    assert slots > 40, f"the PL form has {slots} problem slots"
    # the ELR slot and the card name's were replaced (their words changed); every other slot is the node it was
    assert kept >= slots - 2, f"{slots - kept} of {slots} problem slots were replaced"
    assert swapped <= 6 * 2, f"{swapped} out-of-band swaps for a change of two fields"  # slots, summary, YAML; ≤ 2 checks
