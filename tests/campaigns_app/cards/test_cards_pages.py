"""CG Card pages: upload a card (pasted or as a file), every validation problem shown with its path and what is
allowed, nothing saved on error, cards private to their owner, delete only when no campaign uses it."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns_app import engine, services
from campaigns_app.cards import services as card_services
from campaigns_app.models import Campaign, CgCard, CgSystem
from tests.campaigns_app.conftest import client_for

FIXTURES = Path(settings.REFIT_FIXTURES_DIR)
EXAMPLE_PL25 = (FIXTURES / "cards" / "example-pl25.yaml").read_text(encoding="utf-8")

# A small PHD card written for these tests (test data, not from a printed chart): it supplies the TP Replenishment
# value for final DR 4 in the US column, which the seed lost.
PHD_CARD = """\
# TEST DATA for Refit's tests — not a printed chart.
format: refit-cg/1
kind: cg-card
id: test-phd-values
extends: phd
name: "Test PHD values (test data)"
supply:
  - {table: tp-replenishment, row: 4, column: us, value: 33, note: "test value"}
"""

BAD_PL25_CARD = """\
format: refit-cg/1
kind: cg-card
id: test-bad
extends: pl25
name: "A card with three mistakes"
settings_values:
  intensity: extreme
  initial_elr: {allied: 9, axis: 3}
  colour: blue
"""


def load_system(system_id: str) -> CgSystem:
    text = (FIXTURES / f"{system_id}.yaml").read_text(encoding="utf-8")
    system = engine.parse_system(text, f"{system_id}.yaml")
    cg, _ = CgSystem.objects.update_or_create(
        id=system.id,
        defaults={"name": system.name, "definition": text, "sha256": hashlib.sha256(text.encode()).hexdigest()},
    )
    return cg


@pytest.fixture
def systems(db: Any) -> None:
    for system_id in ("pl25", "phd", "rr"):
        load_system(system_id)
    card_services.bundled_cards_load()


def post_card(user: User, text: str = "", system: str = "pl25", upload: SimpleUploadedFile | None = None) -> Any:
    data: dict[str, Any] = {"system": system, "text": text}
    if upload is not None:
        data["file"] = upload
    return client_for(user).post("/cards/new/", data)


# --------------------------------------------------------------------------------------------------- upload


def test_a_pasted_valid_card_is_saved_for_its_owner_and_its_page_shows_what_it_fills(systems: None, alice: User) -> None:
    response = post_card(alice, EXAMPLE_PL25)
    card = CgCard.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == f"/cards/{card.id}/"
    assert card.system_id == "pl25"
    assert card.card_id == "example-pl25"
    assert card.example is True
    assert card.sha256 == hashlib.sha256(EXAMPLE_PL25.encode()).hexdigest()
    page = client_for(alice).get(f"/cards/{card.id}/").content.decode()
    assert "Missing parts it fills" in page
    filled = page.split('id="card-supplies"')[1].split("</section>")[0]
    assert "<strong>CG calendar</strong>" in filled and "<strong>RG charts</strong>" in filled \
        and "<strong>Players&#x27; choices</strong>" in filled  # the parts as players name them, not the file's keys
    # the example card's calendar, as typed in fixtures/cards/example-pl25.yaml
    assert "Initial Firefight (example)" in filled and "5 June 1944" in filled and "2300" in filled
    still = page.split('id="card-missing"')[1].split("</section>")[0]
    assert "3.19" in still  # 3.19 AFV Shock/UK removal dr thresholds: in neither the seed nor the card
    assert "example — not a published campaign" in page


def test_an_uploaded_yaml_file_is_accepted(systems: None, alice: User) -> None:
    upload = SimpleUploadedFile("my-phd.yaml", PHD_CARD.encode(), content_type="application/yaml")
    response = post_card(alice, system="phd", upload=upload)
    card = CgCard.objects.get(owner=alice)
    assert response.status_code == 302
    assert card.name == "Test PHD values (test data)"
    page = client_for(alice).get(f"/cards/{card.id}/").content.decode()
    supplied = page.split('id="card-supplied"')[1].split("</table>")[0]
    assert "TP Replenishment" in supplied and "row 4, column US" in supplied and ">33<" in supplied
    missing = page.split('id="card-missing-values"')[1].split("</table>")[0]
    assert "row 4, column GERMAN" in missing  # still lost: the card supplies only the US value
    assert "row 4, column US" not in missing


def test_an_invalid_card_shows_each_problem_with_its_path_and_what_is_allowed_and_saves_nothing(
    systems: None, alice: User
) -> None:
    response = post_card(alice, BAD_PL25_CARD)
    assert response.status_code == 400
    assert CgCard.objects.count() == 1  # only the bundled example
    page = response.content.decode()
    problems = page.split('id="card-problems"')[1].split("</div>")[0]
    assert "3 problems" in problems
    items = problems.split("<li>")[1:]
    assert len(items) == 3
    by_path = {item.split("</code>")[0].split(">")[-1]: item for item in items}
    assert "unknown value &#x27;extreme&#x27;" in by_path["settings_values.intensity"]
    assert "allowed: low, mid, high" in by_path["settings_values.intensity"]
    assert "9 is out of range" in by_path["settings_values.initial_elr.allied"]
    assert "allowed: 0 to 5" in by_path["settings_values.initial_elr.allied"]
    assert "unknown setting &#x27;colour&#x27;" in by_path["settings_values.colour"]
    assert "intensity" in by_path["settings_values.colour"].split("allowed:")[1]
    # the text is kept in the form for correcting
    assert "intensity: extreme" in page


def test_a_card_for_another_system_than_the_one_chosen_is_refused(systems: None, alice: User) -> None:
    response = post_card(alice, PHD_CARD, system="pl25")
    assert response.status_code == 400
    page = response.content.decode()
    assert "this card extends &#x27;phd&#x27;, but it was applied to &#x27;pl25&#x27;" in page
    assert not CgCard.objects.filter(owner=alice).exists()


def test_a_card_that_supplies_a_legible_value_is_refused_with_the_values_that_are_missing(
    systems: None, alice: User
) -> None:
    text = PHD_CARD.replace("row: 4, column: us, value: 33", "row: 7, column: us, value: 30")
    response = post_card(alice, text, system="phd")
    page = response.content.decode()
    assert response.status_code == 400
    assert "supply[0].value" in page
    assert "a card only fills values lost in the rule text" in page
    assert "row 4 column us" in page  # one of the allowed (missing) cells
    assert not CgCard.objects.filter(owner=alice).exists()


@pytest.mark.parametrize(
    ("text", "upload", "message"),
    [
        ("", None, "The card is empty"),
        ("format: [unclosed", None, "not valid YAML"),
        ("kind: system\nid: x\n", None, "this is a system definition, not a CG Card"),
        (EXAMPLE_PL25, SimpleUploadedFile("card.yaml", b"x: 1"), "not both"),
        ("", SimpleUploadedFile("card.txt", b"x: 1"), "is not a YAML file (allowed: .yaml, .yml)"),
        ("", SimpleUploadedFile("card.yaml", b"\xff\xfe\x00bad"), "not UTF-8"),
    ],
)
def test_malformed_submissions_say_what_is_wrong_and_save_nothing(
    systems: None, alice: User, text: str, upload: SimpleUploadedFile | None, message: str
) -> None:
    response = post_card(alice, text, upload=upload)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not CgCard.objects.filter(owner=alice).exists()


def test_the_same_card_submitted_twice_is_saved_once(systems: None, alice: User) -> None:
    post_card(alice, EXAMPLE_PL25)
    post_card(alice, EXAMPLE_PL25)
    assert CgCard.objects.filter(owner=alice).count() == 1


# --------------------------------------------------------------------------------------------------- privacy


def test_another_user_gets_404_for_every_page_of_my_card(systems: None, alice: User, bob: User) -> None:
    card = card_services.card_create(alice, EXAMPLE_PL25)
    bob_client = client_for(bob)
    for url in (f"/cards/{card.id}/", f"/cards/{card.id}/download/", f"/cards/{card.id}/edit/"):
        assert bob_client.get(url).status_code == 404, url
    assert bob_client.post(f"/cards/{card.id}/delete/").status_code == 404
    assert bob_client.post(f"/cards/{card.id}/edit/", {"system": "pl25", "text": PHD_CARD}).status_code == 404
    assert CgCard.objects.filter(id=card.id, text=EXAMPLE_PL25).exists()
    listing = bob_client.get("/cards/").content.decode()
    assert card.id not in listing
    create = bob_client.get("/campaigns/new/?system=pl25").content.decode()
    assert card.id not in create


def test_anonymous_visitors_are_sent_to_log_in(systems: None, alice: User) -> None:
    card = card_services.card_create(alice, EXAMPLE_PL25)
    response = client_for(None).get(f"/cards/{card.id}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_bundled_example_card_is_shown_to_every_player_marked_as_an_example(systems: None, bob: User) -> None:
    page = client_for(bob).get("/cards/").content.decode()
    bundled = page.split('id="bundled-cards"')[1]
    assert "Example CG Card — not a published campaign (Platoon Leader 2.5)" in bundled
    assert "example — not a published campaign" in bundled
    response = client_for(bob).get("/cards/bundled-example-pl25/download/")
    assert response.status_code == 200 and response.content.decode() == EXAMPLE_PL25
    assert client_for(bob).post("/cards/bundled-example-pl25/delete/").status_code == 404


def test_download_gives_the_card_text_as_a_yaml_attachment(systems: None, alice: User) -> None:
    card = card_services.card_create(alice, PHD_CARD)
    response = client_for(alice).get(f"/cards/{card.id}/download/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="test-phd-values.yaml"'
    assert response.content.decode() == PHD_CARD


# --------------------------------------------------------------------------------------------------- edit and delete


def test_an_unused_card_can_be_deleted_and_a_used_one_cannot(systems: None, alice: User) -> None:
    unused = card_services.card_create(alice, PHD_CARD)
    used = card_services.card_create(alice, EXAMPLE_PL25)
    services.campaign_create(user=alice, system_id="pl25", side="allied", name="Cards", card_id=used.id,
                             player_settings={"redeployment_option": "A"})
    client = client_for(alice)
    assert client.post(f"/cards/{unused.id}/delete/").status_code == 302
    assert not CgCard.objects.filter(id=unused.id).exists()
    response = client.post(f"/cards/{used.id}/delete/", follow=True)
    assert "used by 1 campaign and cannot be deleted" in response.content.decode()
    assert CgCard.objects.filter(id=used.id).exists()


def test_an_edit_that_breaks_the_card_is_refused_and_the_card_is_unchanged(systems: None, alice: User) -> None:
    card = card_services.card_create(alice, EXAMPLE_PL25)
    response = client_for(alice).post(
        f"/cards/{card.id}/edit/", {"system": "pl25", "text": EXAMPLE_PL25.replace("intensity: mid", "intensity: medium")}
    )
    assert response.status_code == 400
    assert "settings_values.intensity" in response.content.decode()
    card.refresh_from_db()
    assert card.text == EXAMPLE_PL25


def test_card_create_refuses_an_unknown_base_system_listing_the_loaded_ones(systems: None, alice: User) -> None:
    with pytest.raises(card_services.CardInvalid) as refused:
        card_services.card_create(alice, PHD_CARD.replace("extends: phd", "extends: asl"))
    assert str(refused.value) == "extends: unknown CG system 'asl' (allowed: phd, pl25, rr)"
    assert not Campaign.objects.exists() and not CgCard.objects.filter(owner=alice).exists()
