"""Issue 15 item 7: on the RG Purchase Record, "Initial Scenario OB" is said once on each line the Initial Scenario OB
gives (2.5188's reading in ER: OB-given RG are recorded and not counted toward the maxima) and never on a line bought
with CPP. The ER values-only test card with an OB added for this test (TEST DATA: U.S. OB 2 × I1 and 20 CPP)."""
from __future__ import annotations

import html as htmllib
import re
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from tests.campaigns_app.campaign_script import CARDS, Play, ScriptedDice
from tests.campaigns_app.conftest import client_for

pytestmark = pytest.mark.django_db

US_OB = "us: {elr: 4, san: 3}"


def test_the_initial_scenario_ob_note_is_said_once_per_ob_line_and_not_on_purchased_lines(monkeypatch: Any) -> None:
    text = (CARDS / "er-values-test.yaml").read_text(encoding="utf-8")
    assert US_OB in text
    text = text.replace(US_OB, "us: {elr: 4, san: 3, points: {CPP: 20}, rg: [{id: I1, count: 2}]}")
    play = Play(monkeypatch, "er", "us", ScriptedDice(), card_text=text)
    assert play.at() == ("D1 AM", "phase", "1.518")
    # the Initial Scenario's 1.518: I1 9 CPP (entry) + M1 2 CPP → 20 − 11 = 9 CPP left
    play.order("us", {"type": "rg", "rg_id": "I1", "setup_mode": "entry"}, {"type": "rg", "rg_id": "M1",
                                                                            "setup_mode": "entry"})
    assert play.ledger("us").balance("CPP") == Decimal(9)
    assert [(p.rg_id, p.initial_ob) for p in play.ledger("us").purchases] == [
        ("I1", True), ("I1", True), ("I1", False), ("M1", False)]

    page = client_for(play.users["us"]).get(reverse("records_purchases", args=[play.public_id])).content.decode()
    section = page[page.index('aria-labelledby="side-us-'):]
    rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", section[:section.index("</table>")], re.S)
    notes = [" ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", cell)).split())
             for row in rows for cell in re.findall(r'<td class="col-(?:notes|other)">(.*?)</td>', row, re.S)]
    assert notes[2:] == ["cost 9", "gives 10 FPP; cost 2"]
    ob_lines, bought = notes[:2], notes[2:]
    assert all(n.count("Initial Scenario OB") == 1 and n.startswith("Initial Scenario OB (not counted toward the maxima)")
               for n in ob_lines), ob_lines
    assert not any("Initial Scenario OB" in n for n in bought), bought
    assert page.count("Initial Scenario OB") == 2
