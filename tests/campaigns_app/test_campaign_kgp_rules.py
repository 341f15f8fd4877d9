"""KGP CG rules from fixtures/kgp.yaml with a card that supplies values only (issue 15 item 3, issue 14 item 5):
tests/campaigns_app/cards/kgp-values-test.yaml lists 8.603 by number and name only — its part (post-scenario: 8.6031
completes the CG-Scenario End) and its action (CG-LVP Totals, 8.6033) come from the system file — and carries no rule.
Quoted from seed 004: 8.2 (Map Groups, CG-Scenario End, LVP), CG7c, CG14, CG15. Figures worked by hand from the card's
TEST DATA values and the scripted dice.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from campaigns_app import services
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.test_campaign_er_rules import refused, rg

pytestmark = pytest.mark.django_db

CARD = CARDS / "kgp-values-test.yaml"

DICE = (
    # 18 PM 8.616 (card: Base Number − Secret DR; Balance none): U.S. 35 − (3+3 = 6) = 29; German 45 − (6+5 = 11) = 34
    3, 3, 6, 5,
)


def lvp(play: Play, date: str) -> dict[str, tuple[int, int]]:
    return {r.payload["side"]: (r.payload["current_lvp"], r.payload["cg_lvp"])
            for r in play.records("lvp-recorded", date=date)}


def declare(play: Play, side: str) -> Any:
    return lambda: services.declaration_submit(user=play.users[side], public_id=play.public_id, rule_id="fanaticism")


def test_kgp_rules_from_the_system_file_with_a_values_only_card(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "kgp", "german", dice, card=CARD, player_settings={"kgp_cg": "I"})

    # --- 18 AM, the Initial Scenario (8.619 only: initial on the card)
    assert play.until("@initial-scenario") == ["8.619"]
    # CG14 "the German may declare that all of his Personnel are Fanatic … immediately upon the conclusion of all
    # on-map setup": the U.S. may not; the German may, for two CG scenarios in CG I
    refused(play, declare(play, "us"), "CG14 German Fanaticism is declared by the German side only (CG14).")
    declare(play, "german")()
    [made] = play.records("declared")
    assert (made.payload["count"], made.payload["of"], made.payload["map_group"], made.visibility) == (1, 2, "St", "public")
    refused(play, declare(play, "german"), "German Fanaticism is already declared for the scenario on St of 18 AM (CG14).")
    play.both_done()
    play.results(cvp={"us": 6, "german": 11}, attacked={"german": True, "us": False}, lvp={"us": 2, "german": 1})
    # 8.603 (post-scenario, from the system file): Current-LVP 2 / 1; CG-LVP = Current + 0 = 2 / 1
    assert lvp(play, "18 AM") == {"us": (2, 2), "german": (1, 1)}

    # --- 18 PM: 8.616, then 8.619
    assert play.at() == ("18 PM", "phase", "8.619")
    assert (play.ledger("us").balance("CPP"), play.ledger("german").balance("CPP")) == (Decimal(29), Decimal(34))
    # CG7c "U.S. RG cannot be set up in Reserve"
    refused(play, lambda: play.order("us", rg("I1", "reserve")),
            "RG I1 (Rifle Pl): U.S. RG cannot be set up in Reserve (CG7c)")
    # CG15 "a maximum of two … modules per Map Group per CG Date": one Map Group (St) → 2; O1 and O2 count, a third
    # module is refused; U.S. "O3" (M12 GMC OBA) is excepted
    refused(play, lambda: play.order("us", rg("O1"), rg("O2"), rg("O4")),
            "RG O4 (155mm OBA): at most 2 OBA modules per Map Group per CG Date — 2 on 18 PM with 1 Map Group in play "
            "(St); 2 already bought (CG15)")
    # U.S.: O1 4 + O2 5 + O3 6 = 15 → 29 − 15 = 14
    play.order("us", rg("O1"), rg("O2"), rg("O3"))
    # German: "a Bombardment RG is not an OBA module": O1 Bombardment 6 + O2 150mm OBA 5 + I1 In Reserve 8 (CG7a:
    # German I RG may set up in Reserve; no cost change on this card) = 19 → 34 − 19 = 15
    play.order("german", rg("O1"), rg("O2"), rg("I1", "reserve"))
    assert (play.ledger("us").balance("CPP"), play.ledger("german").balance("CPP")) == (Decimal(14), Decimal(15))

    # 8.623: German Attack, U.S. Idle
    play.chit("german", "attack")
    play.chit("us", "idle")
    assert play.until("@scenario") == ["8.624"]
    # the scenario panel offers the declaration to the German only, with his count (1 of 2 used)
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    pages = {side: client_for(play.users[side]).get(reverse("campaign_detail", args=[play.public_id])).content.decode()
             for side in ("german", "us")}
    assert 'id="declare-fanaticism-St"' in pages["german"] and "1 of 2 used in this CG" in pages["german"]
    assert "declare-fanaticism" not in pages["us"]
    declare(play, "german")()
    assert [r.payload["count"] for r in play.records("declared")] == [1, 2]
    play.both_done()
    play.results(cvp={"us": 10, "german": 12}, attacked={"german": True, "us": False}, lvp={"us": 3, "german": 0})
    # KGP 8.603 on the last CG Date (issue 14 item 5): "CG-Scenario End: the CG scenario and RePh step 8.6031 have been
    # completed" → the final scenario's CG-LVP is added before the CG ends: U.S. 3 + 2 = 5, German 0 + 1 = 1
    assert lvp(play, "18 PM") == {"us": (3, 5), "german": (0, 1)}
    assert play.state.ended and play.state.cg_end.reason == "last-date"
    assert (play.state.tracks["us"]["cg_lvp"], play.state.tracks["german"]["cg_lvp"]) == (5, 1)
    assert (play.roster("us", "18 PM").lvp_cg, play.roster("german", "18 PM").lvp_cg) == (5, 1)
    assert dice.remaining == 0


def test_cg_ii_is_refused_with_a_card_that_plays_st_because_8_2_gives_it_the_ch_map_group(monkeypatch: Any) -> None:
    from django.contrib.auth.models import User

    from campaigns_app.cards import services as card_services
    from tests.campaigns_app.campaign_script import PASSWORD, load_system

    load_system("kgp")
    user = User.objects.create_user("kgp-ii", "kgp-ii@example.org", PASSWORD)
    card = card_services.card_create(user, CARD.read_text(encoding="utf-8"), filename=CARD.name)
    before = Campaign.objects.count()
    with pytest.raises(services.PlayerSettingsInvalid) as caught:
        services.campaign_create(user=user, system_id="kgp", side="german", name="CG II", card_id=card.id,
                                 player_settings={"kgp_cg": "II"})
    text = str(caught.value.problems if hasattr(caught.value, "problems") else caught.value)
    assert ("CG II is played on the Ch Map Group (8.2 \"the \"Ch\" Map Group (used in CGII)\"), which this CG Card "
            "does not play (it plays St) (allowed: I, III)") in text
    assert Campaign.objects.count() == before and not EventRecord.objects.exists()


def test_the_chosen_cg_names_the_map_group_when_the_card_names_none_and_cg_ii_declares_fanaticism_once() -> None:
    from pathlib import Path

    from rules_engine import declarations
    from rules_engine.loader import parse_card, parse_system, with_player_settings

    base = parse_system((Path(__file__).resolve().parents[2] / "fixtures/kgp.yaml").read_text(), "kgp.yaml")
    text = CARD.read_text(encoding="utf-8").replace("map_groups_in_play: [St]\n", "")
    card = parse_card(text, "card.yaml", base)
    assert card.map_groups_in_play == ()
    cg3 = with_player_settings(card, {"kgp_cg": "III"}, complete=True)
    assert cg3.map_groups_on(0) == ()  # CG III's Map Groups are not named in the seed: the card must say
    cg2 = with_player_settings(card, {"kgp_cg": "II"}, complete=True)
    assert [g.id for g in cg2.map_groups_on(0)] == ["Ch"]  # 8.2 "the "Ch" Map Group (used in CGII)"
    fanaticism = next(r for r in cg2.special_rules if r.id == "fanaticism")
    assert declarations.allowed(cg2, fanaticism) == 1  # CG14 "[EXC: once during CG II]"
    assert declarations.allowed(cg3, fanaticism) == 2  # "For two CG scenario of each CG"
