"""The ER CG Card form in Debian's chromium: the RePh sequence, points, initiative matrix and RG units are form fields
(no YAML); a param the chosen action does not take gets a message beside it; a unit row is added with "+ unit"; the page
is no wider than the viewport at 1280 and 390 px (screenshots in test-results/e2e/<test name>/). Values are TEST DATA.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.e2e.conftest import Player, settle, signed_up
from tests.e2e.test_card_builder import _both_widths

pytestmark = pytest.mark.e2e


def test_the_er_form_asks_for_the_reph_steps_matrix_and_rg_units_without_yaml(
        new_player: Callable[[str], Player], screenshot: Callable[[object, str], Path]) -> None:
    from playwright.sync_api import expect

    player = new_player("us")
    page = player.page
    signed_up(player)
    page.goto("/cards/build/er/")  # type: ignore[attr-defined]
    expect(page.locator("#section-steps")).to_contain_text("Refit Phase sequence")  # type: ignore[attr-defined]
    expect(page.locator("#section-initiative")).to_contain_text("Initiative")  # type: ignore[attr-defined]
    _both_widths(player, screenshot, "01-er-form")

    page.locator("#f-steps-0-ref").fill("1.518")  # type: ignore[attr-defined]
    page.locator("#f-steps-0-name").fill("Purchasing RG")  # type: ignore[attr-defined]
    page.locator("#f-steps-0-action").select_option(label="secret RG purchase")  # type: ignore[attr-defined]
    page.locator("#f-steps-0-params-dice").select_option("DR")  # type: ignore[attr-defined]
    page.locator("#f-steps-0-params-currency").select_option("CPP")  # type: ignore[attr-defined]
    settle(page)
    expect(page.locator("#err-steps-0-params-dice")).to_contain_text(  # type: ignore[attr-defined]
        "“secret RG purchase” takes currency; leave this blank")
    page.locator("#f-steps-0-params-dice").select_option("")  # type: ignore[attr-defined]
    settle(page)
    expect(page.locator("#err-steps-0-params-dice")).to_have_text("")  # type: ignore[attr-defined]
    expect(page.locator("#err-idle-name")).to_have_text("")  # type: ignore[attr-defined]
    expect(page.locator("#err-initiative-ref")).to_have_text("")  # type: ignore[attr-defined]

    page.locator("#f-rg_charts-0-rows-0-id").fill("I1")  # type: ignore[attr-defined]
    page.get_by_role("button", name=re.compile(r"Add a unit to Full strength units, row 1")).first.click()  # type: ignore[attr-defined]
    count = page.get_by_label(re.compile(r"^Count, unit 1 of Full strength units, row 1")).first  # type: ignore[attr-defined]
    count.fill("3")
    page.get_by_label(re.compile(r"^Unit 1 of Full strength units, row 1")).first.fill("6-6-8")  # type: ignore[attr-defined]
    page.locator("#f-initiative-matrix-attack-idle-label").fill("Japanese Attack")  # type: ignore[attr-defined]
    page.locator("#f-initiative-matrix-attack-idle-label").press("Tab")  # type: ignore[attr-defined]
    settle(page)
    page.locator("#yaml-title").click()  # type: ignore[attr-defined]
    yaml_text = page.locator("#builder-yaml")  # type: ignore[attr-defined]
    for words in ("action: purchase-rg", "{count: 3, unit: 6-6-8}", "Japanese Attack"):
        expect(yaml_text).to_contain_text(words)
    _both_widths(player, screenshot, "02-er-steps-units-matrix")
