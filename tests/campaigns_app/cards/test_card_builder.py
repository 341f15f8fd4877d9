"""The CG Card builder's endpoints: each field checked as it is filled (the loader's message beside it), nothing saved
while the card is invalid, edit, copy, publish; published cards found by every player on the create page with their
author's name and read-only to them, unpublished cards 404 to others, a copy private to its copier."""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.urls import reverse

from campaigns_app import services
from campaigns_app.cards import selectors as card_selectors
from campaigns_app.cards import services as card_services
from campaigns_app.models import CgCard
from tests.campaigns_app.campaign_script import Play, ScriptedDice
from tests.campaigns_app.card_builder import build_card, card_form, edit_card, validate_card
from tests.campaigns_app.cards.test_cards_pages import load_system
from tests.campaigns_app.conftest import client_for
from tests.rules_engine.card_form_values import ER_FORM, KGP_FORM, form_over

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


# ------------------------------------------------- ER and KGP: RePh steps, points, matrix and RG units without YAML


def _built_in_the_form(client: Any, system_id: str, values: dict[str, str]) -> CgCard:
    start = form_over(card_form(system_id), values)
    assert not [k for k, v in start.items() if (k == "other" or k.endswith(".extra")) and v.strip()]
    response = build_card(client, system_id, {}, start=start)
    assert response.status_code == 302, response.content.decode()[:3000]
    card = CgCard.objects.get(card_id=values["id"])
    page = client.get(reverse("card_detail", args=[card.id])).content.decode()
    assert "cannot start" not in page and "it has no" not in page
    assert card_selectors.start_blockers(card_services.card_check(card.text, system_id=system_id).system) == []
    return card


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def test_an_er_card_typed_in_the_form_alone_starts_a_campaign_with_its_purchase_step_cpp_and_chits(
        db: Any, alice: User, monkeypatch: Any) -> None:
    load_system("er")
    card = _built_in_the_form(client_for(alice), "er", ER_FORM)
    # TEST DATA dice: D1 Night 1.516 Base Number − secret DR: U.S. 40 − (3+4) = 33; Japanese 30 − (2+2) = 26
    play = Play(monkeypatch, "er", "us", ScriptedDice(3, 4, 2, 2), card_text=card.text)
    assert play.at() == ("D1 AM", "phase", "1.518")
    assert play.until("@initial-scenario") == ["1.518", "1.520"]
    play.both_done()
    play.results(cvp={"us": 1, "japanese": 1}, attacked={"us": True, "japanese": False}, lvp={"us": 0, "japanese": 0})
    assert play.at() == ("D1 Night", "phase", "1.518")
    assert (play.ledger("us").balance("CPP"), play.ledger("japanese").balance("CPP")) == (Decimal(33), Decimal(26))
    play.chit("us", "idle")
    play.chit("japanese", "attack")
    play.order("us", rg("I1"), rg("M1"))  # 9 CPP (the card's U.S. I1, 3 × 6-6-8) + 2 CPP for M1, which gives 10 FPP
    play.order("japanese")
    assert (play.ledger("us").balance("CPP"), play.ledger("us").balance("FPP")) == (Decimal(22), Decimal(10))
    assert play.at() == ("D1 Night", "phase", "1.520")
    play.order("us", {"type": "fort", "fort_type": "Foxhole", "quantity": 2})  # 2 × 2 FPP (the form's 1.520 table)
    play.order("japanese")
    assert play.ledger("us").balance("FPP") == Decimal(6)
    play.until("@scenario")
    assert [(r.payload["label"], r.payload["moves_first"]) for r in play.records("chits-revealed")] == [
        ("Japanese Attack", "japanese")]


def test_a_kgp_card_typed_in_the_form_alone_starts_a_campaign_with_its_purchase_step_cpp_and_chits(
        db: Any, alice: User, monkeypatch: Any) -> None:
    load_system("kgp")
    card = _built_in_the_form(client_for(alice), "kgp", KGP_FORM)
    # TEST DATA dice: 18 PM 8.616 Base Number − Secret DR (no Balance): U.S. 35 − (3+3) = 29; German 45 − (6+5) = 34
    play = Play(monkeypatch, "kgp", "german", ScriptedDice(3, 3, 6, 5), card_text=card.text,
                player_settings={"kgp_cg": "I"})
    assert play.until("@initial-scenario") == ["8.619"]
    play.both_done()
    play.results(cvp={"us": 1, "german": 1}, attacked={"german": True, "us": False}, lvp={"us": 0, "german": 0})
    assert play.at() == ("18 PM", "phase", "8.619")
    assert (play.ledger("us").balance("CPP"), play.ledger("german").balance("CPP")) == (Decimal(29), Decimal(34))
    play.order("us", rg("I1"))  # 10 CPP
    play.order("german", rg("I1", "on-map"))  # 8 CPP + 2 for Standard On-Map Setup of an I RG (the form's 8.6194)
    assert (play.ledger("us").balance("CPP"), play.ledger("german").balance("CPP")) == (Decimal(19), Decimal(24))
    assert play.at() == ("18 PM", "initiative", "8.623")  # the sealed chits are due
    play.chit("german", "attack")
    play.chit("us", "idle")
    play.until("@scenario")
    assert [r.payload["label"] for r in play.records("chits-revealed")] == ["German Attack"]


def test_a_step_param_the_action_does_not_take_is_shown_beside_it_and_nothing_is_saved(
        db: Any, alice: User) -> None:
    load_system("er")
    client = client_for(alice)
    start = form_over(card_form("er"), ER_FORM) | {"steps.3.params.dice": "DR", "initiative.matrix.idle/idle.result": "x"}
    html = validate_card(client, "er", {}, start=start).content.decode()
    assert "takes no params; leave this blank" in _slot(html, "err-steps-3-params-dice")
    assert "dual-attack, axis-assault, allied-assault, idle" in _slot(html, "err-initiative-matrix-idle-idle-result")
    assert build_card(client, "er", {}, start=start).status_code == 400
    assert not CgCard.objects.filter(owner=alice).exists()


def test_the_builder_page_shows_the_step_matrix_and_unit_fields_with_their_rule_numbers(db: Any, alice: User) -> None:
    load_system("er")
    client = client_for(alice)
    page = build_card(client, "er", {}, start=form_over(card_form("er"), ER_FORM), action="add:steps").content.decode()
    for name in ("steps.0.action", "steps.0.params.currency", "steps.4.ref", "currencies.0.carry_over",
                 "initiative.matrix.attack/idle.label", "idle.loop", "rg_charts.1.rows.0.full.1.unit",
                 "rg_charts.0.rows.2.gives.FPP", "fortifications.rows.1.cost"):
        assert f'name="{name}"' in page, name
    assert 'value="add:rg_charts.0.rows.0.full"' in page
    assert "secret RG purchase" in page and "1.522" in page


def test_the_builder_page_heads_each_card_part_with_its_rule_number_where_the_catalog_gives_one(
        pl: None, alice: User) -> None:
    # catalog PL 1.7 (the CG Firefights: 1.2, 2.2, 2.42), 1.8 (CG End: 1.3), 1.2 (2.3 Purchasing Reinforcements)
    html = client_for(alice).get(reverse("card_build_new", args=["pl25"])).content.decode()
    for part, rule in (("calendar", "1.2, 2.2, 2.42"), ("victory_conditions", "1.3"), ("rg_charts", "2.3")):
        heading = html[html.index(f'id="sec-{part}"'):]
        assert heading[:heading.index("</h2>")].count(f'<span class="ref">rule {rule}</span>') == 1, part
    heading = html[html.index('id="sec-initial_ob"'):]
    assert "rule " not in heading[:heading.index("</h2>")]  # the catalog gives PL's Initial OB no rule number
