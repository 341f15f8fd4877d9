"""Helpers for the per-system browser campaigns (issue 9 item 5): fill the CG Card builder by field name, photograph
each page (the ``screenshot`` fixture: 1280 and 390 px, no sideways scroll, axe), read a side's points, take one-click runs."""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import Player, answer_needs, eyebrow, play_until, settle, submit, visible


class Shots:
    """Numbered screenshots of every page visited: the ``screenshot`` fixture takes each at 1280 and 390 px, checks it
    scrolls no sideways (assert_no_sideways_scroll) and runs axe on it (check_accessibility)."""

    def __init__(self, screenshot: Callable[[object, str], Path]) -> None:
        self.screenshot = screenshot
        self.n = 0

    def __call__(self, player: Player, name: str, page: object | None = None) -> None:
        """Photograph the player's page (or another tab of the player's, ``page``)."""
        self.n += 1
        page = player.page if page is None else page
        settle(page)
        self.screenshot(page, f"{self.n:02d}-{player.side}-{name}")


def put(page: object, name: str, value: str | bool) -> None:
    """Type a value into the builder field named ``name`` (a text/number input, a select, a checkbox or a textarea)."""
    field = page.locator(f'[name="{name}"]').first  # type: ignore[attr-defined]
    tag = str(field.evaluate("e => e.tagName + ':' + (e.type || '')"))
    if tag.startswith("SELECT"):
        field.select_option(("true" if value else "false") if isinstance(value, bool) else value)
    elif tag.endswith(":checkbox"):
        field.set_checked(value in (True, "true", "yes"))
    else:
        field.fill(str(value))


def fill_all(page: object, values: dict[str, str | bool]) -> None:
    for name, value in values.items():
        put(page, name, value)


def post_form(page: object, button: object) -> None:
    """Press a button that posts the whole page's form, and wait for the page the server answers with: a click does
    not wait for the navigation it starts, and a busy browser may still show the old page for a while."""
    with page.expect_navigation():  # type: ignore[attr-defined]
        button.click()  # type: ignore[attr-defined]


def add_row(page: object, prefix: str) -> None:
    """"Add a row" under a builder grid (a full form post: what was typed is kept)."""
    post_form(page, page.locator(f'button[name=action][value="add:{prefix}"]'))  # type: ignore[attr-defined]


def points(page: object, code: str) -> int:
    """The points of currency ``code`` the side's own "Your points" card shows."""
    item = page.locator("#ledger-summary .points-item",  # type: ignore[attr-defined]
                        has=page.locator("dt", has_text=re.compile(rf"^{code}$")))  # type: ignore[attr-defined]
    return int(str(item.locator("dd").inner_text()).strip())


def step_once(player: Player, opponent: Player) -> bool:
    """One default move: a value asked for, a run of board steps confirmed in one click, or one step marked finished."""
    if answer_needs(player, opponent):
        return True
    if visible(player.page, "#step-panel #results-form") or visible(player.page, "#step-panel #order-form"):
        return False
    for form_id in ("#patrol-form", "#fort-form"):  # 2.31 Patrols / 2.38 Fortifications: this test buys none
        form = visible(player.page, f"#step-panel {form_id}")
        if form is not None:
            submit(player, opponent, form.locator("button[name=nothing][value=yes]"), f"nothing at {form_id}")  # type: ignore[attr-defined]
            return True
    run = visible(player.page, "#step-panel #mark-run-done")
    if run is not None:
        submit(player, opponent, run, f"confirmed the run from {eyebrow(player.page)}")
        return True
    done = visible(player.page, "#step-panel #mark-done")
    if done is not None:
        submit(player, opponent, done, f"marked {eyebrow(player.page)} finished")
        return True
    return False


def advance(players: tuple[Player, Player], arrived: Callable[[Player], bool], timeout: float = 120.0) -> list[str]:
    """Both players take default moves (``step_once``) until ``arrived`` holds for both; the steps passed on the way."""
    return play_until(players, arrived, timeout, step=step_once)


def shows(selector: str) -> Callable[[Player], bool]:
    return lambda p: visible(p.page, selector) is not None
