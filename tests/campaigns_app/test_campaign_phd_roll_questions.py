"""Issue 14 item 7: the tick-box DRM of an automatic secret roll reach it (PHD C5.34 "+1 If module placed an FFE
counter in prior TM Scenario"), asked of the owner only, and every side answers (possibly nothing) so the opponent
learns nothing. Figures from seed 003 (C5.34 US Offboard Artillery Table: "=6" Plentiful [≤6], 7-11 Normal, ">12"
Scarce [≥12]); the US O1 module row is TEST DATA in a card (the PHD RG chart rows are lost)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from campaigns_app import engine, services
from campaigns_app.models import EventRecord
from rules_engine import sequence
from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice

pytestmark = pytest.mark.django_db

CARD = (CARDS / "phd-test.yaml").read_text(encoding="utf-8").replace(
    "      - {id: A1, type: A, group_type: Sherman Pl,",
    "      - {id: O1, type: O, group_type: \"81mm MTR OBA (TEST DATA)\", full: [{count: 1, unit: Radio}], cost: 10, "
    "date_max: 1, cg_max: 2}\n      - {id: A1, type: A, group_type: Sherman Pl,", 1)

# C5.33 Leader Table (card) for the OB-given I1 lines: German 1+1, 3+3; US 4+4, 6+6; then the US O1 OBA DR
LEADER_DICE = (1, 1, 3, 3, 4, 4, 6, 6)


def at_c5_33(monkeypatch: Any, oba: tuple[int, int] = (5, 6)) -> Play:
    play = Play(monkeypatch, "phd", "german", ScriptedDice(*LEADER_DICE, *oba), card_text=CARD)
    play.until("C5.31")
    play.order("german")
    play.order("us", {"type": "rg", "rg_id": "O1"})
    play.until("C5.33")
    return play


def _page_text(play: Play, side: str) -> str:
    state = play.state
    view = engine.view_for(play.system, state, side)
    return json.dumps(view) + json.dumps(engine.owes(play.system, state, engine.other_side(play.system, side)))


@pytest.mark.parametrize(("fired", "oba", "total", "strength"), [
    (True, (5, 6), 12, "Scarce"),       # DR 11 +1 (FFE ticked) = 12 → ">12" [≥12] Scarce
    (False, (3, 3), 6, "Plentiful"),    # DR 6, nothing ticked → "=6" [≤6] Plentiful
])
def test_c5_34_the_ffe_tick_reaches_the_oba_ammunition_dr(monkeypatch: Any, fired: bool, oba: tuple[int, int],
                                                          total: int, strength: str) -> None:
    play = at_c5_33(monkeypatch, oba)
    questions = sequence.roll_questions_for(play.system, play.state, "us")
    assert [(q.rg_id, q.table_ref, q.reason) for q in questions] == [
        ("O1", "C5.34", "+1 If module placed an FFE counter in prior TM Scenario")]
    assert sequence.roll_questions_for(play.system, play.state, "german") == ()
    # both sides owe the same words: the German, with nothing to answer, confirms too
    owes = services.owes_all(play.system, play.state)
    assert owes["german"] == owes["us"] == ("C5.33 Leader Table: supply the answers for your secret rolls",)
    play.supply("us", "roll-answers", {questions[0].id: True} if fired else {})
    assert play.at() == ("I", "phase", "C5.33")  # the German has not answered yet: nothing rolled
    play.supply("german", "roll-answers", {})
    made = [r for r in play.records("roll", table="us-oba")]
    assert [(r.side, r.payload["original"], r.payload["final"], r.payload["result"]) for r in made] == [
        ("us", sum(oba), total, strength)]
    assert [m["reason"] for m in made[0].payload["modifiers"]] == (
        ["+1 If module placed an FFE counter in prior TM Scenario"] if fired else [])
    assert play.ledger("us").purchases[-1].oba_ammo == strength


def test_the_questions_and_answers_of_a_secret_roll_never_reach_the_opponent(monkeypatch: Any) -> None:
    play = at_c5_33(monkeypatch)
    (question,) = sequence.roll_questions_for(play.system, play.state, "us")
    assert "FFE" in _page_text(play, "us") and question.id in _page_text(play, "us")
    german_sees = _page_text(play, "german")
    assert "FFE" not in german_sees and question.id not in german_sees and "O1" not in german_sees
    play.supply("us", "roll-answers", {question.id: True})
    german_sees = _page_text(play, "german")
    assert "FFE" not in german_sees and question.id not in german_sees
    supplied = EventRecord.objects.filter(campaign__public_id=play.public_id, kind="supplied")
    assert [(e.side, e.visibility) for e in supplied] == [("us", "side")]


def test_an_unknown_question_is_refused_with_the_ones_allowed(monkeypatch: Any) -> None:
    play = at_c5_33(monkeypatch)
    with pytest.raises(services.ServiceError, match=r"Unknown question\(s\) l99-us-oba-1 \(allowed: none\)"):
        play.supply("german", "roll-answers", {"l99-us-oba-1": True})


def test_the_owner_answers_on_its_page_and_the_opponents_page_shows_no_question(monkeypatch: Any) -> None:
    from django.urls import reverse

    from tests.campaigns_app.conftest import client_for

    play = at_c5_33(monkeypatch)
    (question,) = sequence.roll_questions_for(play.system, play.state, "us")
    url = reverse("campaign_detail", args=[play.public_id])
    us_page = client_for(play.users["us"]).get(url).content.decode()
    german_page = client_for(play.users["german"]).get(url).content.decode()
    assert f'name="tick:{question.id}"' in us_page and "placed an FFE counter" in us_page
    assert "placed an FFE counter" not in german_page and question.id not in german_page
    assert "None of your rolls at this step asks anything" in german_page
    # the US ticks the box through the page's form (an unticked box would be "no")
    response = client_for(play.users["us"]).post(reverse("phase_supply", args=[play.public_id]), {
        "need": "roll-answers", "input": "questions", f"tick:{question.id}": "yes"})
    assert response.status_code in (200, 302)
    assert play.state.facts_supplied["us"][question.id] is True
    german_page = client_for(play.users["german"]).get(url).content.decode()
    assert "placed an FFE counter" not in german_page and question.id not in german_page


# C5.33 Leader Table DRM "-1 Pionerie/Engineer Pl" (seed 003; the table's rows are lost, the card's are TEST DATA): the
# card's table carries the seed's one legible DRM line.
ENGINEER_CARD = (CARDS / "phd-test.yaml").read_text(encoding="utf-8").replace(
    '      - {label: "≥11", min: 11, cells: ["7-0", "6+1", "-"]}\n',
    '      - {label: "≥11", min: 11, cells: ["7-0", "6+1", "-"]}\n'
    '    modifiers:\n      - {reason: "-1 Pionerie/Engineer Pl", value: -1, ask: tick}\n', 1)


def test_c5_33_the_pionerie_engineer_tick_reaches_the_leader_dr(monkeypatch: Any) -> None:
    # German I1 (ticked: a Pionerie Pl): DR 4+4 = 8 −1 = 7 → card row "5-7" → 8-1 (unticked: 8 → "8-10" → 8-0);
    # German I1 (not ticked): DR 4+4 = 8 → 8-0. US I1 ×2 (not ticked): DR 6+6 = 12 → "≥11" → 6+1
    assert "Pionerie" in ENGINEER_CARD
    play = Play(monkeypatch, "phd", "german", ScriptedDice(4, 4, 4, 4, 6, 6, 6, 6), card_text=ENGINEER_CARD)
    play.until("C5.31")
    play.order("german")
    play.order("us")
    play.until("C5.33")
    german = sequence.roll_questions_for(play.system, play.state, "german")
    assert [(q.rg_id, q.table_ref, q.reason) for q in german] == [("I1", "C5.33", "-1 Pionerie/Engineer Pl")] * 2
    us = sequence.roll_questions_for(play.system, play.state, "us")
    assert [q.reason for q in us] == ["-1 Pionerie/Engineer Pl"] * 2
    play.supply("german", "roll-answers", {german[0].id: True})
    play.supply("us", "roll-answers", {})
    made = [(r.side, r.payload["original"], r.payload["final"], r.payload["result"])
            for r in play.records("roll", table="leader")]
    assert made == [("german", 8, 7, "8-1"), ("german", 8, 8, "8-0"), ("us", 12, 12, "6+1"), ("us", 12, 12, "6+1")]
    assert [p.leaders for p in play.ledger("german").purchases] == [("8-1",), ("8-0",)]
    assert play.dice.remaining == 0
