"""The players' choices (settings with ``source: players``: KGP 8.31 CG Balance, KGP 8.51–.53 which CG, PL 3.2
Redeployment Option): chosen on the create page, checked by the engine (a bad one: 400, the message, no campaign),
stored with the campaign for good, applied by engine.system_for over the card's values, shown to the opponent before
joining, on Rules in use and in the history.

KGP figures: the TEST DATA card tests/campaigns_app/cards/kgp-test.yaml (18 PM base numbers U.S. 35, German 45; CPP =
Base Number − Secret DR) with 8.31 from seed 004: the chosen side's 8.616 Secret DR is halved, fractions rounded down
(FRD). Every figure is worked by hand in the comments.
"""
from __future__ import annotations

import html
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.cards import services as card_services
from campaigns_app.models import Campaign, CgCard
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice, load_system
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db

KGP_CARD = (CARDS / "kgp-test.yaml").read_text(encoding="utf-8")
BALANCE_CARD = (CARDS / "kgp-map-groups-test.yaml").read_text(encoding="utf-8")  # settings_values: balance: german
US, GE = "us", "german"


@pytest.fixture
def kgp_card(alice: User) -> CgCard:
    load_system("kgp")
    return card_services.card_create(alice, KGP_CARD, filename="kgp-test.yaml")


def create_kgp(user: User, card: CgCard, **choices: Any) -> Campaign:
    return services.campaign_create(user=user, system_id="kgp", side=GE, name="Peiper", card_id=card.id,
                                    player_settings=choices)


def page(response: Any) -> str:
    return html.unescape(response.content.decode())


# ------------------------------------------------------------------------------------------------ the rules applied


def test_a_kgp_campaign_created_with_the_german_balance_halves_the_german_8_616_secret_dr(monkeypatch: Any) -> None:
    # 18 PM 8.616: U.S. DR 3+3 = 6, not halved → 35 − 6 = 29 CPP; German DR 6+5 = 11, halved FRD → 5 → 45 − 5 = 40 CPP
    # (without the balance: 45 − 11 = 34, as test_campaign_kgp.py has it)
    dice = ScriptedDice(3, 3, 6, 5)
    play = Play(monkeypatch, "kgp", GE, dice, card=CARDS / "kgp-test.yaml",
                player_settings={"balance": "german", "kgp_cg": "I"})
    assert play.campaign.player_settings == {"balance": "german", "kgp_cg": "I"}
    play.order(GE)
    play.order(US)
    assert play.until("@initial-scenario") == []
    play.both_done()
    play.results(cvp={US: 6, GE: 11}, attacked={GE: True, US: False}, lvp={US: 2, GE: 1})
    assert play.until("8.619") == ["8.612"]
    replenished = {r.side: r.payload["amount"] for r in play.records("replenished", date_id="18 PM")}
    assert replenished == {US: "29", GE: "40"}
    assert (play.ledger(US).balance("CPP"), play.ledger(GE).balance("CPP")) == (Decimal(29), Decimal(40))
    assert [r.payload.get("balance") for r in play.records("replenished", date_id="18 PM") if r.side == GE] == [
        {"rule": "8.31", "setting": "balance", "rounding": "down", "original": 11, "final": 5}]
    assert [r.side for r in play.records("replenished", date_id="18 PM") if "balance" in r.payload] == [GE]
    assert dice.remaining == 0


def test_the_players_choice_wins_over_the_cards_balance(monkeypatch: Any) -> None:
    # The card says balance: german; the players chose us. 18 PM 8.616 (base U.S. 35, German 45): U.S. DR 4+5 = 9,
    # halved FRD → 4 → 35 − 4 = 31; German DR 6+3 = 9, not halved → 45 − 9 = 36.
    dice = ScriptedDice(4, 5, 6, 3)
    play = Play(monkeypatch, "kgp", US, dice, card=CARDS / "kgp-map-groups-test.yaml",
                player_settings={"balance": "us", "kgp_cg": "I"})  # CG II would be refused: 8.2 gives it Ch
    assert play.system.settings_values["balance"] == "us"
    play.order(GE)
    play.order(US)
    for group in ("St", "Lg"):
        play.done(US, group)
        play.done(GE, group)
    for group in ("St", "Lg"):
        play.results(group, cvp={US: 3, GE: 4}, attacked={US: False, GE: True}, lvp={US: 5, GE: 7})
    assert play.until("8.619") == ["8.612"]
    assert (play.ledger(US).balance("CPP"), play.ledger(GE).balance("CPP")) == (Decimal(31), Decimal(36))
    assert [r.side for r in play.records("replenished", date_id="18 PM") if "balance" in r.payload] == [US]
    assert dice.remaining == 0


def test_the_system_cache_tells_campaigns_apart_by_their_choices(kgp_card: CgCard, alice: User) -> None:
    german = create_kgp(alice, kgp_card, balance="german", kgp_cg="I")
    us = create_kgp(alice, kgp_card, balance="us", kgp_cg="III")
    plain = create_kgp(alice, kgp_card, kgp_cg="I")
    assert engine.system_for(german).settings_values == {"balance": "german", "kgp_cg": "I"}
    assert engine.system_for(us).settings_values == {"balance": "us", "kgp_cg": "III"}
    assert engine.system_for(german).settings_values == {"balance": "german", "kgp_cg": "I"}  # from the cache
    assert engine.system_for(plain).settings_values == {"kgp_cg": "I"}  # balance: the default, none
    assert engine.card_system_for(german).settings_values == {}


def test_the_choices_stay_as_created_through_the_join_and_play(kgp_card: CgCard, alice: User, bob: User) -> None:
    campaign = create_kgp(alice, kgp_card, balance="us", kgp_cg="III")
    services.campaign_join(user=bob, token=campaign.invitations.get().token)
    services.phase_mark_done(user=alice, public_id=campaign.public_id)  # any later write
    campaign.refresh_from_db()
    assert campaign.player_settings == {"balance": "us", "kgp_cg": "III"}
    assert engine.system_for(campaign).settings_values["balance"] == "us"


# ------------------------------------------------------------------------------------------------ refused choices


def test_a_choice_not_among_the_allowed_ones_is_refused_by_the_service_and_nothing_is_created(
    kgp_card: CgCard, alice: User
) -> None:
    with pytest.raises(services.PlayerSettingsInvalid) as caught:
        create_kgp(alice, kgp_card, balance="french", kgp_cg="IV")
    assert caught.value.problems == {
        "balance": "CG Balance (8.31): unknown value 'french' (allowed: none, german, us).",
        "kgp_cg": "KGP Campaign Game (8.51-.53): unknown value 'IV' (allowed: I, II, III).",
    }
    with pytest.raises(services.PlayerSettingsInvalid, match=r"KGP Campaign Game \(8\.51-\.53\): not chosen, and it has "
                                                             r"no default \(allowed: I, II, III\)\."):
        create_kgp(alice, kgp_card, balance="german")
    with pytest.raises(services.PlayerSettingsInvalid, match=r"“nationality”: unknown setting 'nationality' "
                                                             r"\(allowed: balance, kgp_cg\)"):
        create_kgp(alice, kgp_card, kgp_cg="I", nationality="german")
    assert not Campaign.objects.exists()


def test_an_invalid_choice_on_the_create_form_answers_400_with_the_message_and_creates_nothing(
    kgp_card: CgCard, alice: User
) -> None:
    client = client_for(alice)
    data = {"name": "Peiper", "system": "kgp", "side": GE, "card": kgp_card.id,
            "setting-balance": "french", "setting-kgp_cg": ""}
    response = client.post(reverse("campaign_create"), data)
    assert response.status_code == 400
    text = page(response)
    assert "CG Balance (8.31): unknown value 'french' (allowed: none, german, us)." in text
    assert "KGP Campaign Game (8.51-.53): not chosen, and it has no default (allowed: I, II, III)." in text
    # each message also stands under its own field
    balance = text.split('id="choice-balance"')[1].split("</div>")[0]
    assert 'class="field-error" role="alert">CG Balance (8.31): unknown value' in balance
    assert not Campaign.objects.exists()

    response = client.post(reverse("campaign_create"), {**data, "setting-balance": "german", "setting-kgp_cg": "III"})
    assert response.status_code == 302
    assert Campaign.objects.get().player_settings == {"balance": "german", "kgp_cg": "III"}


# ------------------------------------------------------------------------------------------------ the create page


def test_the_create_page_shows_a_field_per_players_setting_with_its_rule_note_and_default(
    kgp_card: CgCard, alice: User
) -> None:
    text = page(client_for(alice).get(f"{reverse('campaign_create')}?system=kgp&card={kgp_card.id}"))
    fields = text.split('id="system-fields"')[1].split('id="player-settings"')[1].split("</fieldset>")[0]
    balance = fields.split('id="choice-balance"')[1].split("</div>")[0]
    assert "CG Balance (8.31)" in balance
    assert '<option value="none" selected>none</option>' in balance  # 8.31 default none
    assert '<option value="german">German</option>' in balance and '<option value="us">U.S.</option>' in balance
    assert "the chosen side's Secret DR of 8.616 is halved (FRD)" in balance
    assert "Default: none." in balance
    kgp_cg = fields.split('id="choice-kgp_cg"')[1].split("</div>")[0]
    assert "KGP Campaign Game <span class=\"ref\">(8.51-.53)</span>" in kgp_cg
    assert 'required' in kgp_cg and '<option value="" selected>— choose —</option>' in kgp_cg
    assert "No default: choose one." in kgp_cg


def test_the_cards_value_is_preselected(alice: User) -> None:
    load_system("kgp")
    card = card_services.card_create(alice, BALANCE_CARD, filename="kgp-map-groups-test.yaml")
    text = page(client_for(alice).get(f"{reverse('campaign_create')}?system=kgp&card={card.id}"))
    balance = text.split('id="choice-balance"')[1].split("</div>")[0]
    assert '<option value="german" selected>German</option>' in balance
    assert "Preselected: the CG Card's value, German." in balance


def test_the_pl_create_page_asks_for_the_redeployment_option(alice: User) -> None:
    load_system("pl25")
    card_services.bundled_cards_load()
    text = page(client_for(alice).get(f"{reverse('campaign_create')}?system=pl25&card=bundled-example-pl25"))
    option = text.split('id="choice-redeployment_option"')[1].split("</div>")[0]
    assert "Redeployment Option <span class=\"ref\">(3.2)</span>" in option
    assert '<option value="A">A</option>' in option and '<option value="B">B</option>' in option
    assert 'name="setting-redeployment_option"' in option and "required" in option


def test_a_system_without_players_settings_shows_no_choices(alice: User, rr: Any) -> None:
    assert 'id="player-settings"' not in page(client_for(alice).get(f"{reverse('campaign_create')}?system=rr"))


# ------------------------------------------------------------------------------------------------ shown to both


def test_the_join_page_shows_the_choices_before_joining(kgp_card: CgCard, alice: User, bob: User) -> None:
    campaign = create_kgp(alice, kgp_card, balance="german", kgp_cg="III")
    link = reverse("campaign_join", args=[campaign.invitations.get().token])
    for client in (client_for(bob), client_for(None)):
        text = page(client.get(link))
        rules = text.split('id="join-rules"')[1]
        assert "By joining you accept them: they cannot be changed afterwards" in rules
        balance = rules.split('id="choice-balance"')[1].split("</div>")[0]
        assert "CG Balance (8.31)" in balance and '<strong class="choice-value">German</strong>' in balance
        kgp_cg = rules.split('id="choice-kgp_cg"')[1].split("</div>")[0]
        assert "KGP Campaign Game (8.51-.53)" in kgp_cg and '<strong class="choice-value">III</strong>' in kgp_cg
    invite = page(client_for(alice).get(reverse("campaign_invite", args=[campaign.public_id])))
    assert '<strong class="choice-value">German</strong>' in invite


def test_rules_in_use_shows_the_choices_apart_from_the_cards_values(alice: User, bob: User) -> None:
    load_system("kgp")
    card = card_services.card_create(alice, BALANCE_CARD, filename="kgp-map-groups-test.yaml")
    campaign = create_kgp(alice, card, balance="us", kgp_cg="I")
    services.campaign_join(user=bob, token=campaign.invitations.get().token)
    for user in (alice, bob):
        text = page(client_for(user).get(reverse("campaign_rules", args=[campaign.public_id])))
        choices = text.split('id="rules-choices-table"')[1].split("</table>")[0]
        assert ('CG Balance (8.31)<span class="muted small block">' in choices
                and '<td class="value">U.S.</td><td>chosen by the players</td>' in choices)
        assert '<td class="value">I</td><td>chosen by the players</td>' in choices
        card_settings = text.split('id="card-settings"')[1].split("</table>")[0]
        # what the card itself gives, and that the choice wins over it
        assert "<td>german <span class=\"muted small\">— the players chose U.S., which is used</span></td>" in card_settings


def test_a_campaign_from_before_the_choices_shows_the_defaults_and_what_was_never_chosen(
    kgp_card: CgCard, alice: User
) -> None:
    campaign = create_kgp(alice, kgp_card, kgp_cg="I")
    Campaign.objects.filter(pk=campaign.pk).update(player_settings={})  # as stored before this column existed
    campaign.refresh_from_db()
    text = page(client_for(alice).get(reverse("campaign_rules", args=[campaign.public_id])))
    choices = text.split('id="rules-choices-table"')[1].split("</table>")[0]
    assert '<td class="value">none</td><td>the default</td>' in choices
    assert '<td class="value">not chosen</td><td>not chosen</td>' in choices


def test_the_history_shows_the_choices_in_the_campaign_created_event(kgp_card: CgCard, alice: User) -> None:
    campaign = create_kgp(alice, kgp_card, balance="german", kgp_cg="III")
    assert campaign.events.get(kind="campaign-created").payload["settings"] == {"balance": "german", "kgp_cg": "III"}
    text = page(client_for(alice).get(reverse("campaign_history", args=[campaign.public_id])))
    assert ("Players' choices: CG Balance (8.31): German; KGP Campaign Game (8.51-.53): III." in text)
