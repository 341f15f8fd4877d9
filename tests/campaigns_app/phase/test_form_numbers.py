"""Every number a player types is bounded before anything is built from it (issue 10.1, 10.3; issue 9.4 SAN): a refusal
answers 422 with a message naming the field and the allowed range, saves nothing, and is fast; a refused order or
fortification form comes back with everything the player typed.

Bounds typed from the rules: RR 2.518 at most 20 of one RG a form accepts; a SAN is matched against a Dice Roll (2–12);
elsewhere the forms' own bound of 99 999 (every sum fits a PostgreSQL integer).
"""
from __future__ import annotations

import re
import time
from typing import Any

import pytest

from campaigns_app.models import Campaign, PurchaseRecordLine, RosterLine
from campaigns_app.phase import form_numbers
from tests.campaigns_app.conftest import drive, snapshot
from tests.campaigns_app.phase.test_phase_flow import RESULTS_FORM, page, players, post, started, token_in


@pytest.fixture
def at_19pm_purchase(rr: Any, users: Any) -> Campaign:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.518")
    return campaign


@pytest.fixture
def at_19pm_fortifications(rr: Any, users: Any) -> Campaign:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.date_id == "19 PM" and s.phase_ref == "2.520")
    return campaign


def errors_of(body: str) -> str:
    start = body.index('id="phase-errors"')
    return body[start:body.index("</ul>", start)]


@pytest.mark.parametrize("raw", ["99999999999999999999999", "1" * 5000, "21", "-1", "1e9", "٣", "0x10", "1.5"])
def test_an_rg_quantity_out_of_bounds_is_refused_fast_naming_the_range_and_nothing_is_saved(
    at_19pm_purchase: Campaign, users: Any, raw: str
) -> None:
    campaign = at_19pm_purchase
    html = page(users["gerd"], campaign)
    before = snapshot(campaign)
    started_at = time.monotonic()
    response = post(users["gerd"], campaign, "phase_order", {"token": token_in(html), "nothing": "no", "qty-I1": raw})
    assert time.monotonic() - started_at < 5
    assert response.status_code == 422
    errors = errors_of(response.content.decode())
    assert "RG I1 quantity" in errors and "a whole number from 0 to 20" in errors
    assert raw[:30] not in errors or len(raw) <= 20  # a long value is quoted as a short excerpt only
    assert snapshot(campaign) == before
    assert not PurchaseRecordLine.objects.filter(campaign=campaign).exists()


def test_a_refused_order_form_comes_back_with_everything_the_player_typed(
    at_19pm_purchase: Campaign, users: Any
) -> None:
    campaign = at_19pm_purchase
    html = page(users["gerd"], campaign)
    before = snapshot(campaign)
    form = {"token": token_in(html), "nothing": "no", "qty-I4": "1", "mode-I4": "on-map", "qty-M3": "1",
            "extra-M3": "2", "qty-I1": "abc"}
    response = post(users["gerd"], campaign, "phase_order", form)
    body = response.content.decode()
    assert response.status_code == 422 and "RG I1 quantity" in errors_of(body)
    assert re.search(r'id="qty-I4"[^>]*value="1"', body)
    assert re.search(r'<option value="on-map" selected>', body)
    assert re.search(r'id="extra-M3"[^>]*value="2"', body)
    assert re.search(r'id="qty-I1"[^>]*value="abc"', body)
    assert snapshot(campaign) == before


def test_an_order_the_rules_refuse_comes_back_with_what_was_typed(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    html = page(users["gerd"], campaign)
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {"token": token_in(html), "nothing": "no", "qty-I3": "2"})
    body = response.content.decode()
    assert response.status_code == 422 and "CG Date Max is 1" in errors_of(body)
    assert re.search(r'id="qty-I3"[^>]*value="2"', body)
    assert snapshot(campaign) == before


@pytest.mark.parametrize(("field", "raw", "label"), [
    ("fqty-0", "10000000000000000000", "quantity"),
    ("fqty-0", "-3", "quantity"),
])
def test_a_fortification_number_out_of_bounds_is_refused_and_comes_back(
    at_19pm_fortifications: Campaign, users: Any, field: str, raw: str, label: str
) -> None:
    campaign = at_19pm_fortifications  # RR 2.520 Purchasing Fortifications: the form with the fqty- fields
    html = page(users["gerd"], campaign)
    assert 'id="fort-form"' in html
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_order", {"token": token_in(html), "nothing": "no", field: raw})
    body = response.content.decode()
    assert response.status_code == 422
    errors = errors_of(body)
    assert label in errors and "a whole number from 0 to 999" in errors
    assert re.search(rf'id="{field}"[^>]*value="{re.escape(raw)}"', body), "the refused number comes back typed"
    assert snapshot(campaign) == before


SAN_RANGE = "SAN must be a whole number from 0 to 12 (a SAN is matched against a Dice Roll, 2 to 12); "


@pytest.mark.parametrize(("raw", "expected"), [
    ("-5", SAN_RANGE + "-5 is out of range (rule 2.512)"),
    ("13", SAN_RANGE + "13 is out of range (rule 2.512)"),
    ("1" + "0" * 30, SAN_RANGE + "“10000000000000000000…” is not allowed (rule 2.512)"),
    ("1" * 5000, SAN_RANGE + "“11111111111111111111…” is not allowed (rule 2.512)"),
    ("two", SAN_RANGE + "“two” is not allowed (rule 2.512)"),
])
def test_a_san_outside_the_rules_is_refused_at_2_512_and_nothing_is_recorded(
    rr: Any, users: Any, raw: str, expected: str
) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.phase_ref == "2.512")
    before = snapshot(campaign)
    response = post(users["gerd"], campaign, "phase_supply", {"need": "san", "input": "number", "value": raw})
    body = response.content.decode()
    assert response.status_code == 422 and expected in errors_of(body)
    assert "99999" not in errors_of(body)  # the rules' range, never the forms' own bound
    assert snapshot(campaign) == before
    assert not RosterLine.objects.filter(campaign=campaign, side="german", san__lt=0).exists()
    ok = post(users["gerd"], campaign, "phase_supply", {"need": "san", "input": "number", "value": "0"})
    assert ok.status_code == 200  # the lowest SAN the rules allow is recorded


@pytest.mark.parametrize("raw", ["2147483648", "-1", "100000"])
def test_a_cvp_that_would_not_fit_is_refused_naming_the_range(rr: Any, users: Any, raw: str) -> None:
    campaign = started(users)
    drive(campaign, players(users), lambda s: s.step == "results")
    before = snapshot(campaign)
    for user in (users["gerd"], users["cana"]):
        response = post(user, campaign, "phase_results", {**RESULTS_FORM, "cvp-german": raw})
        assert response.status_code == 422
        assert "CVP amassed by the German side" in errors_of(response.content.decode())
        assert "a whole number from 0 to 99999" in errors_of(response.content.decode())
    assert snapshot(campaign) == before


def test_whole_number_reads_only_short_ascii_numbers_within_their_range() -> None:
    problems: list[str] = []
    assert form_numbers.whole_number(" 7 ", "Q", problems, None, 0, 20) == 7
    assert form_numbers.whole_number("", "Q", problems, 4, 0, 20) == 4
    assert problems == []
    assert form_numbers.whole_number("9" * 10_000, "Q", problems, None, 0, 20) is None
    assert form_numbers.whole_number("٣", "Q", problems, None, 0, 20) is None
    assert form_numbers.whole_number("-0", "Q", problems, None, 0, 20) == 0
    assert form_numbers.whole_number("21", "Q", problems, None, 0, 20) is None
    assert problems[0] == "Q: “99999999999999999999…” is not allowed: enter a whole number from 0 to 20."
    assert problems[2] == "Q: 21 is out of range: enter a whole number from 0 to 20."


def test_what_was_typed_comes_back_escaped(at_19pm_purchase: Campaign, users: Any) -> None:
    campaign = at_19pm_purchase
    response = post(users["gerd"], campaign, "phase_order", {"token": token_in(page(users["gerd"], campaign)),
                                                             "nothing": "no", "qty-I1": '"><b id=x>1'})
    body = response.content.decode()
    assert response.status_code == 422
    assert 'id="qty-I1"' in body and "<b id=x>" not in body and "&quot;&gt;&lt;b id=x&gt;1" in body
