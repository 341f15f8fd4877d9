"""The CG Card builder's endpoints: each field checked as it is filled (the loader's message beside it), nothing saved
while the card is invalid, edit, copy, publish; published cards found by every player on the create page with their
author's name and read-only to them, unpublished cards 404 to others, a copy private to its copier."""
from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.urls import reverse

from campaigns_app import card_selectors, services
from campaigns_app.models import CgCard
from tests.campaigns_app.card_builder import build_card, card_form, edit_card, validate_card
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.test_cards_pages import load_system

# TEST DATA: typed for these tests, not from a printed CG Card.
PL_VALUES = {
    "id": "test-pl-builder", "name": "TEST DATA PL card from the builder", "example": "true",
    "settings_values.intensity": "mid",
    "calendar.0.id": "FF1", "calendar.0.initial": "true", "calendar.0.weather": "Clear",
    "rg_charts.0.ref": "CG Card", "rg_charts.0.name": "Allied RG Table (TEST DATA)",
    "rg_charts.0.rows.0.id": "I1", "rg_charts.0.rows.0.type": "I", "rg_charts.0.rows.0.group_type": "Rifle Pltn",
    "rg_charts.0.rows.0.cost": "12",
    "rg_charts.1.ref": "CG Card", "rg_charts.1.name": "Axis RG Table (TEST DATA)",
    "rg_charts.1.rows.0.id": "I1", "rg_charts.1.rows.0.type": "I", "rg_charts.1.rows.0.group_type": "Gren Pltn",
    "rg_charts.1.rows.0.cost": "10",
}


@pytest.fixture
def pl(db: Any) -> None:
    load_system("pl25")


def _slot(html: str, slot: str) -> str:
    match = re.search(rf'id="{re.escape(slot)}"[^>]*>([^<]*)<', html)
    assert match, slot
    return match.group(1)


def test_each_field_is_checked_as_filled_with_the_loaders_message_beside_it(pl: None, alice: User) -> None:
    client = client_for(alice)
    response = validate_card(client, "pl25", {**PL_VALUES, "settings_values.intensity": "extreme",
                                              "settings_values.initial_elr.allied": "9",
                                              "rg_charts.0.rows.0.cost": "{value: 12"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "unknown value &#x27;extreme&#x27; (allowed: low, mid, high)" in _slot(html, "err-settings_values-intensity")
    assert "9 is out of range (allowed: 0 to 5)" in _slot(html, "err-settings_values-initial_elr-allied")
    assert "not valid YAML flow text" in _slot(html, "err-rg_charts-0-rows-0-cost")
    assert _slot(html, "err-calendar-0-weather") == ""  # a good field's slot is cleared
    assert 'hx-swap-oob="true"' in html and "Not saved yet" in html
    assert CgCard.objects.count() == 1 - 1  # validating saves nothing


def test_a_valid_form_says_so_and_shows_the_yaml_it_makes(pl: None, alice: User) -> None:
    html = validate_card(client_for(alice), "pl25", PL_VALUES).content.decode()
    assert "The card is valid." in html
    assert "extends: pl25" in html and "id: test-pl-builder" in html


def test_save_is_refused_while_the_card_is_invalid_and_nothing_is_saved(pl: None, alice: User) -> None:
    client = client_for(alice)
    response = build_card(client, "pl25", {**PL_VALUES, "name": "", "calendar.0.initial": "",
                                           "settings_values.hist_cp_drm.allied": "two"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "required: the card&#x27;s name" in html
    assert "expected a whole number" in _slot(html, "err-settings_values-hist_cp_drm-allied")
    assert 'value="two"' in html  # what was typed comes back
    assert not CgCard.objects.exists()


def test_a_valid_card_is_saved_as_refit_cg_yaml_and_opens_again_in_the_form(pl: None, alice: User) -> None:
    client = client_for(alice)
    response = build_card(client, "pl25", PL_VALUES)
    assert response.status_code == 302
    card = CgCard.objects.get(owner=alice)
    doc = yaml.safe_load(card.text)
    assert (doc["format"], doc["kind"], doc["extends"], doc["example"]) == ("refit-cg/1", "cg-card", "pl25", True)
    assert doc["calendar"] == [{"id": "FF1", "initial": True, "weather": "Clear"}]
    page = client.get(reverse("card_build_edit", args=[card.id])).content.decode()
    assert 'name="calendar.0.id"' in page and 'value="FF1"' in page
    assert client.get(reverse("card_download", args=[card.id])).content.decode() == card.text


def test_rows_are_added_and_removed_by_the_form_without_saving(pl: None, alice: User) -> None:
    client = client_for(alice)
    response = build_card(client, "pl25", PL_VALUES, action="add:calendar")
    assert response.status_code == 200 and 'name="calendar.1._row"' in response.content.decode()
    response = build_card(client, "pl25", PL_VALUES, action="remove:calendar.0")
    assert 'name="calendar.0.id"' not in response.content.decode()
    assert not CgCard.objects.exists()


def test_the_author_edits_the_card_in_the_form(pl: None, alice: User) -> None:
    client = client_for(alice)
    build_card(client, "pl25", PL_VALUES)
    card = CgCard.objects.get(owner=alice)
    response = edit_card(client, card.id, {"calendar.0.weather": "Overcast"}, start=card_form("pl25", card.text))
    assert response.status_code == 302
    card.refresh_from_db()
    assert yaml.safe_load(card.text)["calendar"][0]["weather"] == "Overcast"


def test_an_unpublished_card_is_not_found_by_anyone_else(pl: None, alice: User, bob: User) -> None:
    build_card(client_for(alice), "pl25", PL_VALUES)
    card = CgCard.objects.get(owner=alice)
    other = client_for(bob)
    for name in ("card_detail", "card_build_edit", "card_download", "card_edit"):
        assert other.get(reverse(name, args=[card.id])).status_code == 404, name
    assert other.post(reverse("card_copy", args=[card.id])).status_code == 404
    assert other.post(reverse("card_publish", args=[card.id]), {"publish": "1"}).status_code == 404
    assert not CgCard.objects.get(id=card.id).published
    row = next(s for s in card_selectors.create_choices(bob) if s["id"] == "pl25")
    assert card.id not in [c["id"] for c in row["cards"]]


def test_a_published_card_is_found_by_system_on_the_create_page_with_its_authors_name(
        pl: None, alice: User, bob: User) -> None:
    author = client_for(alice)
    build_card(author, "pl25", PL_VALUES)
    card = CgCard.objects.get(owner=alice)
    assert author.post(reverse("card_publish", args=[card.id]), {"publish": "1"}).status_code == 302
    other = client_for(bob)
    page = other.get(reverse("campaign_create") + "?system=pl25").content.decode()
    assert card.name in page and "published by alice" in page
    listed = other.get(reverse("card_list")).content.decode()
    assert 'id="published-cards"' in listed and card.name in listed and "alice" in listed
    # read-only to others: seen, downloaded, used; not edited
    assert other.get(reverse("card_detail", args=[card.id])).status_code == 200
    assert other.get(reverse("card_build_edit", args=[card.id])).status_code == 404
    assert other.post(reverse("card_build_edit", args=[card.id]), {**card_form("pl25", card.text),
                                                                   "action": "save"}).status_code == 404
    campaign = services.campaign_create(user=bob, system_id="pl25", side="allied", name="Shared", card_id=card.id,
                                        player_settings={"redeployment_option": "A"})
    assert campaign.card_id == card.id
    # unpublished again: gone from others' create page
    author.post(reverse("card_publish", args=[card.id]), {"publish": "0"})
    row = next(s for s in card_selectors.create_choices(bob) if s["id"] == "pl25")
    assert card.id not in [c["id"] for c in row["cards"]]


def test_a_copy_is_private_to_the_player_who_copied_it(pl: None, alice: User, bob: User) -> None:
    author = client_for(alice)
    build_card(author, "pl25", PL_VALUES)
    card = CgCard.objects.get(owner=alice)
    author.post(reverse("card_publish", args=[card.id]), {"publish": "1"})
    response = client_for(bob).post(reverse("card_copy", args=[card.id]))
    assert response.status_code == 302
    copy = CgCard.objects.get(owner=bob)
    assert (copy.published, copy.copied_from_id, copy.text) == (False, card.id, card.text)
    assert client_for(alice).get(reverse("card_detail", args=[copy.id])).status_code == 404
    # the author copies their own card: a second card with its own id and name
    author.post(reverse("card_copy", args=[card.id]))
    own_copy = CgCard.objects.filter(owner=alice).exclude(id=card.id).get()
    assert (own_copy.card_id, own_copy.name) == ("test-pl-builder-copy", f"{card.name} (copy)")


def test_the_card_page_says_a_campaign_cannot_start_without_purchase_step_points_or_initiative(
        db: Any, alice: User) -> None:
    load_system("er")
    client = client_for(alice)
    values = {"id": "test-er-calendar-only", "name": "TEST DATA ER card: a calendar only",
              "calendar.0.id": "D1 AM", "calendar.0.initial": "true"}
    assert build_card(client, "er", values).status_code == 302
    card = CgCard.objects.get(owner=alice)
    page = client.get(reverse("card_detail", args=[card.id])).content.decode()
    assert "it has no RG purchase step" in page
    assert "it has no Initiative step" in page


def test_the_yaml_help_shows_the_chosen_system(db: Any, alice: User) -> None:
    load_system("er")
    page = client_for(alice).get(reverse("card_new") + "?system=er").content.decode()
    assert "extends: er" in page and "extends: pl25" not in page


def test_a_yaml_card_problem_names_its_line(pl: None, alice: User) -> None:
    text = ("format: refit-cg/1\nkind: cg-card\nid: test-lines\nextends: pl25\nname: TEST DATA lines\n"
            "settings_values:\n  intensity: extreme\n")
    response = client_for(alice).post(reverse("card_new"), {"system": "pl25", "text": text})
    assert response.status_code == 400
    html = response.content.decode()
    assert re.search(r'<span class="problem-line">line 7</span> <code class="problem-path">settings_values.intensity</code>',
                     html)
    assert not CgCard.objects.exists()


def test_the_builders_grids_scroll_in_a_labelled_focusable_region(pl: None, alice: User) -> None:
    page = client_for(alice).get(reverse("card_build_new", args=["pl25"])).content.decode()
    regions = re.findall(r'<div class="table-scroll" role="region" tabindex="0" aria-labelledby="([^"]+)"', page)
    assert regions and all(f'id="{label}"' in page for label in regions)
    assert 'aria-label="Id, row 1 of CG Firefights"' in page
