"""Helpers shared by the per-system browser campaigns (issue 9 item 5): each page a player visits is checked and
photographed at 1280 and 390 px, the card builder's row buttons, the create/join pages, and reading a side's own points.

`visit(player, shoot, name)` is the one place a page is checked: the conftest's ``screenshot`` fixture photographs it
at 1280 and 390 px, checks each is no wider than the viewport (``assert_no_sideways_scroll``) and runs axe.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tests.e2e.conftest import DESKTOP, Player, history_text, settle, sign_up


def visit(player: Player, shoot: Callable[[object, str], Path], name: str, page: object | None = None) -> None:
    """Check and photograph the page the player is on (or another page of the player's): the ``screenshot`` fixture
    (``shoot``) takes it at 1280 and 390 px, checks at each that it is no wider than the viewport, and runs axe."""
    page = player.page if page is None else page
    settle(page)
    page.set_viewport_size(DESKTOP)  # type: ignore[attr-defined]
    shoot(page, f"{name}-{player.side}")


def both(players: tuple[Player, Player], shoot: Callable[[object, str], Path], name: str) -> None:
    for player in players:
        visit(player, shoot, name)


def signed_up(player: Player) -> None:
    from playwright.sync_api import expect

    player.page.goto("/accounts/signup/")  # type: ignore[attr-defined]
    sign_up(player.page, player.name)
    expect(player.page).to_have_url(re.compile(r"/campaigns/$"))  # type: ignore[attr-defined]


def open_new_card_form(player: Player, shoot: Callable[[object, str], Path], system: str, title: str) -> None:
    """My CG Cards → New CG Card → the system → Open the form (each page checked)."""
    from playwright.sync_api import expect

    page = player.page
    page.goto("/cards/")  # type: ignore[attr-defined]
    visit(player, shoot, "01-my-cards")
    page.get_by_role("link", name="New CG Card").first.click()  # type: ignore[attr-defined]
    page.get_by_label("Base CG system").select_option(system)  # type: ignore[attr-defined]
    visit(player, shoot, "02-choose-system")
    page.get_by_role("button", name="Open the form").click()  # type: ignore[attr-defined]
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"New CG Card for {title}")  # type: ignore[attr-defined]


def row_count(page: object, grid: str) -> int:
    """How many rows a builder grid has (``calendar``, ``victory_conditions.conditions`` …)."""
    return int(page.locator(f'input[type=hidden][name^="{grid}."][name$="._row"]').count())  # type: ignore[attr-defined]


def add_row(page: object, section: str, grid: str) -> None:
    """Press "Add a row" in a builder section (the form is posted and comes back with one more row)."""
    from playwright.sync_api import expect

    before = row_count(page, grid)
    page.locator(f"#section-{section}").get_by_role("button", name="Add a row").first.click()  # type: ignore[attr-defined]
    expect(page.locator(f'input[type=hidden][name^="{grid}."][name$="._row"]')).to_have_count(before + 1)  # type: ignore[attr-defined]


def remove_calendar_rows_from(page: object, keep: int) -> None:
    """Remove calendar rows after the first ``keep`` (the ✕ of row keep+1, until none is left)."""
    from playwright.sync_api import expect

    while (count := row_count(page, "calendar")) > keep:
        page.locator("#section-calendar").get_by_role("button", name=f"Remove row {keep + 1}", exact=True).click()  # type: ignore[attr-defined]
        expect(page.locator('input[type=hidden][name^="calendar."][name$="._row"]')).to_have_count(count - 1)  # type: ignore[attr-defined]


def field(page: object, name: str) -> object:
    """A builder field by its form name (``initial_ob.sides.us.elr`` → ``#f-initial_ob-sides-us-elr``)."""
    return page.locator(f'[name="{name}"]')  # type: ignore[attr-defined]


def fill(page: object, values: dict[str, str]) -> None:
    for name, value in values.items():
        found = field(page, name)
        tag = str(found.evaluate("e => e.tagName + ':' + (e.type || '')"))  # type: ignore[attr-defined]
        if tag.startswith("SELECT"):
            found.select_option(value)  # type: ignore[attr-defined]
        elif tag.endswith("checkbox"):
            found.set_checked(value == "true")  # type: ignore[attr-defined]
        else:
            found.fill(value)  # type: ignore[attr-defined]


def save_card(player: Player, shoot: Callable[[object, str], Path]) -> str:
    """Check the whole card (htmx), "Check and save": the card page; returns its path."""
    from playwright.sync_api import expect

    page = player.page
    page.locator("#f-name").focus()  # type: ignore[attr-defined]
    page.locator("#f-name").blur()  # type: ignore[attr-defined]
    settle(page)
    summary = page.locator("#builder-summary")  # type: ignore[attr-defined]
    expect(summary).to_contain_text("The card is valid")
    visit(player, shoot, "04-card-valid")
    page.get_by_role("button", name="Check and save").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/cards/[A-Za-z0-9_-]{16,40}/$"))  # type: ignore[attr-defined]
    expect(page.locator("#card-start")).to_contain_text("Yes")  # type: ignore[attr-defined]
    visit(player, shoot, "05-card-page")
    return str(page.url)  # type: ignore[attr-defined]


def create_with_card(player: Player, shoot: Callable[[object, str], Path], live_url: str, name: str) -> tuple[str, str]:
    """From the card page: "Start a campaign with it", the card chosen, the player's side: (campaign path, invite link)."""
    from playwright.sync_api import expect

    page = player.page
    page.get_by_role("link", name="Start a campaign with it").click()  # type: ignore[attr-defined]
    expect(page.locator("#campaign-create-form")).to_be_visible()  # type: ignore[attr-defined]
    checked = page.locator("#card-field input[name=card]:checked")  # type: ignore[attr-defined]
    expect(checked).to_have_count(1)
    assert checked.get_attribute("value"), "the card is chosen on the create page"
    page.fill("input[name=name]", name)  # type: ignore[attr-defined]
    page.locator(f"input[name=side][value={player.side}]").check()  # type: ignore[attr-defined]
    settle(page)
    visit(player, shoot, "06-create-page")
    page.get_by_role("button", name="Create campaign").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(re.compile(r"/campaigns/[A-Za-z0-9_-]+/invite/$"))  # type: ignore[attr-defined]
    visit(player, shoot, "07-invite-page")
    campaign_path = re.sub(r"invite/$", "", str(page.url).removeprefix(live_url))  # type: ignore[attr-defined]
    return campaign_path, str(page.locator("#invite-link").input_value())  # type: ignore[attr-defined]


def join(player: Player, shoot: Callable[[object, str], Path], link: str, live_url: str, campaign_path: str,
         side_name: str) -> None:
    """The invitation link, sign up from it, take the free side: the campaign's live page."""
    from playwright.sync_api import expect

    page = player.page
    page.goto(link)  # type: ignore[attr-defined]
    expect(page.locator("main")).to_contain_text(f"invites you to play the {side_name} side")  # type: ignore[attr-defined]
    visit(player, shoot, "08-invitation-signed-out")
    page.get_by_role("link", name="Sign up to join").click()  # type: ignore[attr-defined]
    visit(player, shoot, "09-signup-from-invitation")
    sign_up(page, player.name)
    expect(page.locator("#join-button")).to_have_text(f"Take the {side_name} side")  # type: ignore[attr-defined]
    visit(player, shoot, "10-join-page")
    page.locator("#join-button").click()  # type: ignore[attr-defined]
    expect(page).to_have_url(live_url + campaign_path)  # type: ignore[attr-defined]


def points(page: object, code: str) -> int:
    """The points of one currency (CPP, FPP …) the side's own "Your points" card shows."""
    item = page.locator("#ledger-summary .points-item", has=page.locator("dt", has_text=re.compile(rf"^{code}$")))  # type: ignore[attr-defined]
    return int(str(item.locator("dd").inner_text()).strip())


def cpp(page: object) -> int:
    """The CPP the side's own "Your points" card shows."""
    return points(page, "CPP")


def order_points(page: object) -> int:
    """The points the side's order form says it may spend."""
    return int(str(page.locator("#order-form").get_attribute("data-points")))  # type: ignore[attr-defined]


def cg_date(page: object) -> str:
    return str(page.locator("#campaign-status .status-grid dd.big").first.inner_text()).strip()  # type: ignore[attr-defined]


def replenishment_dr(player: Player, shoot: Callable[[object, str], Path], campaign_path: str, ref: str, date: str,
                     base: int, currency: str = "CPP") -> int:
    """The secret Replenishment DR the side's own history shows for ``date`` ("<ref>: Base Number B − DR d = n CPP"),
    checked against the Base Number typed in the card (the history page is visited and photographed)."""
    page = player.context.new_page()  # type: ignore[attr-defined]
    try:  # a second tab: the live page stays as it is
        page.goto(campaign_path + "history/")
        visit(player, shoot, f"history-{date.replace(' ', '')}", page)
        text = history_text(page, campaign_path)
    finally:
        page.close()
    found = re.findall(rf"{re.escape(ref)}: Base Number (\d+) − DR (\d+) = (\d+) {currency}", text)
    assert found, f"no {ref} record on the {player.side} history page"
    base_shown, dr, amount = (int(x) for x in found[-1])
    assert base_shown == base and amount == base - dr and 2 <= dr <= 12, found
    return dr
