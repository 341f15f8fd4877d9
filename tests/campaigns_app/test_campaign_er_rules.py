"""ER CG special rules from fixtures/er.yaml with a card that supplies values only (issue 15 items 1, 2, 4):
tests/campaigns_app/cards/er-values-test.yaml has the CG Dates, the printed steps, the RG charts, the 1.520 table, the
Initial Scenario OB and the matrix — no chit timing, no special_rule notes, no group types. Every rule below is quoted
from seed 002 (CG4, CG7, CG12, CG13, CG15, CG16, CG18, CG21, CG5); the figures are worked by hand from the card's
TEST DATA values and the scripted dice.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from campaigns_app import services
from campaigns_app.models import EventRecord
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

CARD = CARDS / "er-values-test.yaml"

DICE = (
    # D1 Night 1.516 (card: Base Number − secret DR): U.S. 40 − (3+4 = 7) = 33; Japanese 30 − (2+2 = 4) = 26
    3, 4, 2, 2,
    # the night scenario: CG21 Game End dr by the Japanese (the Attacker), Turn 6, circled number 2: dr 5 > 2 → goes on
    5,
    # CG5 night reinforcement dr by the U.S. (the Scenario Defender), Turn 3: dr 2 < 3 → may enter
    2,
    # CG18 FPF Barrage accuracy dr by the U.S. (it bought O1): Original dr 4 ≤ 4 → accurate
    4,
)


def rg(rg_id: str, mode: str = "entry") -> dict[str, Any]:
    return {"type": "rg", "rg_id": rg_id, "setup_mode": mode}


def snapshot(play: Play) -> tuple[Any, int]:
    return play.campaign.state, EventRecord.objects.filter(campaign__public_id=play.public_id).count()


def refused(play: Play, call: Any, *expected: str) -> None:
    """The service refuses (ServiceError, each expected message) and nothing is saved."""
    before = snapshot(play)
    with pytest.raises(services.ServiceError) as caught:
        call()
    messages = getattr(caught.value, "messages", None) or [str(caught.value)]
    for text in expected:
        assert any(text in m for m in messages), (text, messages)
    assert snapshot(play) == before


def roll(play: Play, side: str, roll_id: str, **kw: Any) -> Any:
    return lambda: services.scenario_roll_submit(user=play.users[side], public_id=play.public_id, roll_id=roll_id, **kw)


def last_roll(play: Play) -> dict[str, Any]:
    return dict(play.records("roll")[-1].payload)


def test_er_special_rules_from_the_system_file_with_a_values_only_card(monkeypatch: Any) -> None:
    dice = ScriptedDice(*DICE)
    play = Play(monkeypatch, "er", "us", dice, card=CARD)

    # --- D1 AM, the Initial Scenario: 1.518 and 1.520 (initial: true on the card), nothing to spend
    assert play.at() == ("D1 AM", "phase", "1.518")
    # CG18 "if he is selecting an Idle initiative chit", CG15 "when selecting an Attack Chit": no chit is selected for
    # the Initial Scenario, so its 1.518 says so (no chit panel to send the player to)
    refused(play, lambda: play.order("us", rg("O1")),
            "RG O1 (60mm FPF Barrage): FPF Barrage may be bought only when selecting the Idle chit; no Initiative chit "
            "is selected for the Initial Scenario (CG18)")
    refused(play, lambda: play.order("japanese", rg("O2")),
            "RG O2 (Pre-Game Bombardment): Pre-Game Bombardment may be bought only when selecting the Attack chit; no "
            "Initiative chit is selected for the Initial Scenario (CG15)")
    assert play.until("@initial-scenario") == ["1.518", "1.520"]
    # CG13 "[EXC: Both players only use one during the Initial Scenario]": no dr chooses between two Snipers
    refused(play, roll(play, "us", "sniper-choice"),
            "CG13 Which Sniper attacks is not made in the Initial Scenario: both players only use one Sniper counter "
            "during the Initial Scenario (CG13) (CG13).")
    # CG18: only a side that bought an FPF Barrage RG makes its accuracy dr
    refused(play, roll(play, "us", "fpf-accuracy"),
            "CG18 FPF Barrage accuracy dr: the U.S. side has bought no FPF Barrage RG, so it makes no such dr (CG18).")
    play.both_done()
    # LVP typed in the results: U.S. 3, Japanese 5 reach the CG Roster line of D1 AM (ER has no 8.603-style step)
    play.results(cvp={"us": 2, "japanese": 4}, attacked={"us": True, "japanese": False}, lvp={"us": 3, "japanese": 5})
    assert (play.roster("us", "D1 AM").lvp_current, play.roster("japanese", "D1 AM").lvp_current) == (3, 5)

    # --- D1 Night: 1.516 automatic; 1.518 is where the chits are sealed (CG15/CG18, fixtures/er.yaml)
    assert play.at() == ("D1 Night", "phase", "1.518")
    assert (play.ledger("us").balance("CPP"), play.ledger("japanese").balance("CPP")) == (Decimal(33), Decimal(26))
    # CG18 FPF Barrage "available … if he is selecting an Idle initiative chit": no chit yet → the step asks for it
    refused(play, lambda: play.order("us", rg("O1")),
            "1.518 Purchasing RG: choose your Initiative chit (Attack or Idle) first — it is chosen now and revealed at "
            "1.522 (rule 1.518)")
    play.chit("us", "idle")
    play.chit("japanese", "attack")
    # CG15 Bombardment "when selecting an Attack Chit": the U.S. chose Idle
    refused(play, lambda: play.order("us", rg("O2")),
            "RG O2 (Pre-Game Bombardment): Pre-Game Bombardment may be bought only when selecting the Attack chit, "
            "not Idle (CG15)")
    # CG7's +1/−1 CPP is for RU that set up: an OBA RG (CG12: its radio is placed) and a row that buys FPP are not
    refused(play, lambda: play.order("us", rg("O3", "on-map")),
            "RG O3 (81mm OBA): OBA is not set up on-map (allowed: entry) (CG12)")
    refused(play, lambda: play.order("us", rg("M1", "reserve")),
            "RG M1 (Fortifications) buys FPP, not a unit: it is not set up In Reserve and RG Setup/Entry cost does not "
            "apply (allowed: entry) (CG7)")
    refused(play, lambda: play.order("us", rg("O1", "reserve")),
            "RG O1 (60mm FPF Barrage): FPF Barrage is not set up In Reserve (allowed: entry) (CG18)")
    # the Japanese may not buy the U.S.-only FPF Barrage (the card gives him none) nor a Bombardment on map
    refused(play, lambda: play.order("japanese", rg("O2", "on-map")),
            "RG O2 (Pre-Game Bombardment): Pre-Game Bombardment is not set up on-map (allowed: entry) (CG15)")
    # U.S.: I1 on map 9 + 1 = 10, O1 FPF 4, M1 2 → 33 − 16 = 17 CPP, 10 FPP
    play.order("us", rg("I1", "on-map"), rg("O1"), rg("M1"))
    # Japanese (Attack): O2 Bombardment 6, I1 In Reserve 7 − 1 = 6 → 26 − 12 = 14 CPP
    play.order("japanese", rg("O2"), rg("I1", "reserve"))
    assert (play.ledger("us").balance("CPP"), play.ledger("japanese").balance("CPP")) == (Decimal(17), Decimal(14))
    assert [(p.rg_id, p.cost) for p in play.ledger("us").purchases] == [
        ("I1", Decimal(10)), ("O1", Decimal(4)), ("M1", Decimal(2))]
    assert play.ledger("us").balance("FPP") == Decimal(10)

    # 1.520 CG16: Jungle Paths, 3 FPP each on the card → 2 purchases = 6 FPP, 3 path markers each = 6 markers
    assert play.at() == ("D1 Night", "phase", "1.520")
    play.order("us", {"type": "fort", "fort_type": "Jungle Path", "quantity": 2})
    play.order("japanese")
    [paths] = play.ledger("us").fortifications
    assert (paths.type, paths.quantity, paths.cost) == ("Jungle Path", 2, Decimal(6))
    assert paths.notes == "6 path markers to place during step 1.520; any not placed then are lost (CG16)"

    # 1.522 reveals the chits sealed at 1.518: Japanese Attack, U.S. Idle → "Japanese Attack"
    assert [(r.payload["label"], r.payload["moves_first"]) for r in play.records("chits-revealed")] == [
        ("Japanese Attack", "japanese")]
    assert play.until("@scenario") == ["1.5232"]
    # CG4 "the Scenario Defender's ELR at night is one less": the U.S. (Idle chit, CG5) plays at ELR 4 − 1 = 3
    [night] = play.records("night-elr")
    assert (night.payload["side"], night.payload["printed"], night.payload["elr"], night.visibility) == (
        "us", 4, 3, "public")

    # CG21 "the Attacker makes a Game End dr": the U.S. is not the Attacker
    refused(play, roll(play, "us", "game-end", threshold=2, turn=6),
            "CG21 Game End dr is made by the Attacker; the U.S. side is not the Attacker in this scenario "
            "(Attacker: Japanese) (CG21).")
    roll(play, "japanese", "game-end", threshold=2, turn=6)()
    assert last_roll(play)["result"] == "dr 5 > 2: the scenario continues"
    # CG5 "Scenario Defender reinforcements … only following a RPh dr < the current Game Turn number"
    refused(play, roll(play, "japanese", "night-reinforcements", threshold=3),
            "CG5 Scenario Defender reinforcement dr (night) is made by the Scenario Defender; the Japanese side "
            "attacks in this scenario (CG5).")
    roll(play, "us", "night-reinforcements", threshold=3)()
    assert last_roll(play)["result"].startswith("dr 2 < 3")
    # CG18 accuracy: the U.S. bought O1 this date → its Original dr 4 ≤ 4: accurate
    roll(play, "us", "fpf-accuracy")()
    assert last_roll(play)["result"] == "the Barrage lands accurately"

    # CG4 "if a Massacre (A20.4) occurs during any CG scenario/RePh, all effects … for the remainder of the CG":
    # recorded once, by either side, for both to see
    services.declaration_submit(user=play.users["japanese"], public_id=play.public_id, rule_id="cg-massacre")
    [massacre] = play.records("declared")
    assert (massacre.payload["side"], massacre.payload["ref"], massacre.visibility) == ("japanese", "CG4", "public")
    refused(play, lambda: services.declaration_submit(user=play.users["us"], public_id=play.public_id,
                                                      rule_id="cg-massacre"),
            "Massacre is already declared for the scenario of D1 Night (CG4).")
    play.both_done()
    play.results(cvp={"us": 6, "japanese": 3}, attacked={"us": False, "japanese": True}, lvp={"us": 2, "japanese": 6})
    # the last CG Date: the CG ends, and the LVP typed reach the roster and the CG end totals
    assert play.state.ended and play.state.cg_end.reason == "last-date"
    assert (play.roster("us", "D1 Night").lvp_current, play.roster("japanese", "D1 Night").lvp_current) == (2, 6)
    assert (play.state.tracks["us"]["lvp"], play.state.tracks["japanese"]["lvp"]) == (2, 6)
    assert dice.remaining == 0

    # issue 15 item 7: the Initial Scenario had no Initiative chit → its roster column stays empty; D1 Night's is the chit
    assert (play.roster("us", "D1 AM").initiative, play.roster("us", "D1 Night").initiative) == (None, "idle")
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for
    from tests.campaigns_app.phase.test_history_pages import every_page

    japanese = client_for(play.users["japanese"])
    page = japanese.get(reverse("campaign_detail", args=[play.public_id])).content.decode()
    assert "The Campaign Game ended on D1 Night (the last CG Date)." in page
    # after CG end the U.S. side's secret records are revealed to the Japanese, not badged "Only you"
    history = every_page(japanese, reverse("campaign_history", args=[play.public_id]))  # every page, oldest first
    own_secret = EventRecord.objects.filter(campaign__public_id=play.public_id, side="japanese").exclude(
        visibility="public").count()
    assert own_secret > 0 and history.count(">Only you</span>") == own_secret
    assert "The U.S. side" in history or "U.S." in history


def test_the_invitation_page_shows_the_dice_seed_commitment(monkeypatch: Any) -> None:
    from django.contrib.auth.models import User
    from django.urls import reverse

    from tests.campaigns_app.campaign_script import PASSWORD, load_system
    from tests.campaigns_app.conftest import client_for
    from tests.campaigns_app.lost_test_values import RR

    load_system("rr")
    user = User.objects.create_user("inviter", "inviter@example.org", PASSWORD)
    campaign = services.campaign_create(user=user, system_id="rr", side="german", name="Invite", lost_values=RR)
    page = client_for(user).get(reverse("campaign_invite", args=[campaign.public_id])).content.decode()
    commitment = page[page.index('id="invite-commitment"'):]
    assert len(campaign.seed_commitment) == 64 and campaign.seed_commitment in commitment[:400]


def test_rules_in_use_lists_each_er_special_rule_with_its_summary_and_where_refit_applies_it(monkeypatch: Any) -> None:
    import html as htmllib
    import re

    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    play = Play(monkeypatch, "er", "us", ScriptedDice(), card=CARD)
    for side in ("us", "japanese"):  # both players read the same page
        page = client_for(play.users[side]).get(reverse("campaign_rules", args=[play.public_id])).content.decode()
        table = page[page.index('id="rules-special-table"'):]
        table = table[:table.index("</table>")]
        rows = {" ".join(re.sub(r"<[^>]+>", " ", m).split()[:2]): " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", m)).split())
                for m in re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", table)}
        # seed 002 CG18, first sentence; enforced at the card's purchase step and by the scenario roll forms
        assert rows["CG18 FPF"].startswith("CG18 FPF Barrage A FPF Barrage is a special type of 60+mm HE (only) Barrage RG")
        assert rows["CG18 FPF"].endswith("Refit Enforced at 1.518 (RG purchase); roll form in the scenario: FPF Barrage "
                                     "accuracy dr (the U.S. player); FPF Barrage removal dr (the U.S. player)")
        assert rows["CG15 Pre-Game"].endswith("Refit Enforced at 1.518 (RG purchase)")
        assert rows["CG16 Jungle"] == ("CG16 Jungle Paths Both sides have Jungle Paths as an available FPP purchase. "
                                "Refit Enforced at 1.520 (Fortification purchase)")
        assert rows["CG4 ELR/Massacre"].endswith("Refit Applied at the start of each night scenario")
        assert rows["CG4 Massacre"].endswith("Refit Declared in the scenario (a form on the scenario panel)")
        assert rows["CG21 Game"].endswith("Refit Roll form in the scenario: Game End dr (the Attacker)")
        assert rows["CG17 Wire"] == ("CG17 Wire When determining the MF required to move below a Wire counter, subtract 2 "
                                "from the dr. On the board (the players apply it)")
        assert "Chits sealed at 1.518, revealed together at 1.522" in rows["CG5, CG15,"]
