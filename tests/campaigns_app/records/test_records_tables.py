"""The CG Roster and RG Purchase Record as PostgreSQL tables: the projection of the ledgers, its constraints, the
pages and CSV read from the tables with the rules' visibility, and ``rebuild_records``.

Golden values are typed from the RR text (001): the Infantry RG chart lines "I4 Eng Pltn 3/2 8-3-8adelo 14 1 1" and
"I2 Inf Pltn (replacements) 3 4-5-7 5 1 2" (cost, then per-date and CG maxima), 2.521 Recon "3 CPP (plus additional CPP
for a beneficial drm)", and 2.518's roster arithmetic (Left = Start + Replenished − Spent; the next date's Start is the
Left of the one before, as 2.521 says).
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns_app import engine, services
from campaigns_app.models import Campaign, PurchaseRecordLine, RosterLine
from campaigns_app.records import projection as records
from rules_engine.ledger import RosterLine as LedgerRosterLine
from tests.campaigns_app.conftest import client_for, scrub_random
from tests.campaigns_app.records.test_records_support import create_rr, play

SECRET = "ZZ-TABLE-ONLY-7431"  # planted in the tables only: a page showing it read the table


@pytest.fixture
def early(rr: Any, users: Any) -> Any:
    """An RR CG at 19 Night (date index 2), its chits due: each side bought an RG on 19 PM and Recon on 19 Night."""
    return play(create_rr(users["gerd"], users["cana"]), until_date=2, buy_on={1})


def _roster(campaign: Campaign, side: str) -> list[RosterLine]:
    return list(RosterLine.objects.filter(campaign=campaign, side=side).order_by("position"))


def _purchases(campaign: Campaign, side: str) -> list[PurchaseRecordLine]:
    return list(PurchaseRecordLine.objects.filter(campaign=campaign, side=side).order_by("line"))


def _get(user: Any, name: str, campaign: Campaign) -> str:
    response = client_for(user).get(reverse(name, args=[campaign.public_id]))
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


def _section(html: str, side: str, kind: str) -> str:
    match = re.search(rf'<section[^>]*aria-labelledby="side-{side}-{kind}".*?</section>', html, re.S)
    assert match, f"no {side} {kind} section"
    return match.group(0)


# ------------------------------------------------------------------------------------------------------ projection


def test_the_tables_hold_a_line_per_date_per_side_in_calendar_order(early: Any) -> None:
    for side in ("german", "canadian"):
        lines = _roster(early.campaign, side)
        assert [(line.date_id, line.position) for line in lines] == [("19 AM", 0), ("19 PM", 1), ("19 Night", 2)]


def test_the_projection_holds_the_purchases_and_rolls_typed_from_the_rr_charts(early: Any) -> None:
    campaign = early.campaign
    assert early.bought == {"german": ["I4"], "canadian": ["I2"]}

    german_pm, canadian_pm = _roster(campaign, "german")[1], _roster(campaign, "canadian")[1]
    assert german_pm.purchased == [["I4", "14"]] and german_pm.spent == Decimal(14)
    assert canadian_pm.purchased == [["I2", "5"]] and canadian_pm.spent == Decimal(5)
    for side in ("german", "canadian"):
        am, pm, night = _roster(campaign, side)
        assert pm.left == pm.start + pm.replenished - pm.spent  # 2.518 roster arithmetic
        assert night.start == pm.left  # 2.521: the Left total goes to the next date's Start
        assert night.left == night.start + night.replenished - night.spent
        assert night.purchased == [["M3", "4"]] and night.spent == Decimal(4)  # Recon: 3 CPP + 1 extra (2.521)
        assert night.recon is not None and pm.initiative in ("attack", "idle")

    i4, recon = _purchases(campaign, "german")
    assert (i4.line, i4.date_id, i4.rg_id, i4.group_type, i4.cost) == (1, "19 PM", "I4", "Eng Pltn", Decimal(14))
    assert (i4.number_purchased, i4.remaining) == (1, 0)  # CG max 1
    assert i4.strength in ("F", "D") and i4.rolled  # 2.5191 Strength rolled in secret
    assert i4.units == [[2, "8-3-8"]] or i4.units == [[3, "8-3-8"]]  # "3/2": full or depleted
    assert (recon.line, recon.rg_id, recon.date_id, recon.cost, recon.extra) == (2, "M3", "19 Night", Decimal(4), 1)
    i2 = _purchases(campaign, "canadian")[0]
    assert (i2.rg_id, i2.cost, i2.units, i2.number_purchased, i2.remaining) == ("I2", Decimal(5), [[3, "4-5-7"]], 1, 1)
    assert i2.strength is None  # 2.5191 EXC: replacements are not eligible for Depletion


def test_the_projection_matches_the_ledgers_line_for_line(early: Any) -> None:
    state = engine.load_state(early.campaign.state)
    for side, ledger in state.ledgers.items():
        tables = records.roster_lines(early.campaign, side, None)[side]
        assert list(tables) == [line.date_id for line in ledger.roster]
        for line in ledger.roster:
            assert tables[line.date_id] == line.to_json()
        bought = records.purchase_lines(early.campaign, [side])[side]
        assert bought == [p.to_json() for p in ledger.purchases]


def test_a_save_writes_only_changed_lines_and_deletes_lines_gone_from_the_ledger(early: Any) -> None:
    campaign = Campaign.objects.select_related("system").get(pk=early.campaign.pk)
    state = engine.load_state(campaign.state)
    ledger = state.ledgers["german"]
    before = {line.date_id: line.pk for line in _roster(campaign, "german")}
    untouched = _roster(campaign, "canadian")

    i4 = ledger.purchase(1)
    changed = ledger.with_purchase(replace(i4, strength="F", units=((3, "8-3-8"),), leaders=("9-1", "8-0")))
    changed = replace(changed, purchases=tuple(p for p in changed.purchases if p.line != 2))  # Recon line gone
    changed = changed.with_roster_line(LedgerRosterLine("20 AM", start=Decimal("127"), spent=Decimal("1.5"),
                                                        fortifications=("A-P mines 3",)))
    state = replace(state, ledgers={**state.ledgers, "german": changed})
    with CaptureQueriesContext(connection) as queries:
        result = records.project(campaign, state)

    assert (result.roster_written, result.roster_deleted, result.purchases_written, result.purchases_deleted) == (1, 0, 1, 1)
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))]
    assert len(writes) == 3  # one upsert per table, one delete: never a query per line
    german = _purchases(campaign, "german")
    assert [(p.line, p.rg_id, p.strength, p.units, p.leaders) for p in german] == [
        (1, "I4", "F", [[3, "8-3-8"]], ["9-1", "8-0"])]
    new = _roster(campaign, "german")[-1]
    assert (new.date_id, new.position, new.start, new.spent, new.fortifications) == (
        "20 AM", 3, Decimal(127), Decimal("1.5"), ["A-P mines 3"])
    assert {line.date_id: line.pk for line in _roster(campaign, "german")[:3]} == before  # updated in place
    assert _roster(campaign, "canadian") == untouched


def test_projecting_13_dates_takes_as_many_queries_as_projecting_two(rr: Any, users: Any) -> None:
    short = play(create_rr(users["gerd"], users["cana"], name="Short"), until_date=1, buy_on={1}).campaign
    long = play(create_rr(users["gerd"], users["carol"], name="Long"), until_date=12, buy_on={1, 2, 5}).campaign
    counts = []
    for campaign in (short, long):
        campaign = Campaign.objects.select_related("system").get(pk=campaign.pk)
        RosterLine.objects.filter(campaign=campaign).delete()
        PurchaseRecordLine.objects.filter(campaign=campaign).delete()
        with CaptureQueriesContext(connection) as queries:
            records.project(campaign, campaign.state)
        counts.append(len(queries))
    assert RosterLine.objects.filter(campaign=short, side="german").count() == 2  # 19 AM, 19 PM
    assert PurchaseRecordLine.objects.filter(campaign=short, side="german").count() == 1  # bought on 19 PM
    assert RosterLine.objects.filter(campaign=long, side="german").count() == 13  # 19 AM … 26 AM
    assert counts[0] == counts[1]  # reads + one bulk upsert per table, whatever the length


def test_a_campaign_played_through_the_services_has_its_lines_saved_with_each_action(rr: Any, users: Any) -> None:
    from tests.campaigns_app.conftest import new_campaign

    campaign = new_campaign(users["gerd"], users["cana"])  # Initial Scenario, results, the RePh, to 19 PM chits

    state = engine.load_state(campaign.state)
    for side in ("german", "canadian"):
        assert [line.date_id for line in _roster(campaign, side)] == [line.date_id for line in state.ledgers[side].roster]
        assert _roster(campaign, side)[0].date_id == "19 AM"


# ----------------------------------------------------------------------------------------------------- constraints


def _roster_row(campaign: Campaign, **values: Any) -> RosterLine:
    return RosterLine.objects.create(**{"campaign": campaign, "side": "german", "date_id": "30 AM", "position": 30, **values})


def _purchase_row(campaign: Campaign, **values: Any) -> PurchaseRecordLine:
    defaults = {"campaign": campaign, "side": "german", "line": 99, "date_id": "19 PM", "rg_id": "I1", "cost": Decimal(5)}
    return PurchaseRecordLine.objects.create(**{**defaults, **values})


@pytest.mark.parametrize("values", [
    {"date_id": "19 AM"},  # a second 19 AM line for the German side
    {"side": ""},
    {"date_id": ""},
    {"spent": Decimal(-1)},
    {"initiative": "maybe"},
    {"cvp_suffered": -2},
    {"cvp_amassed": -1},
], ids=["duplicate-date", "no-side", "no-date", "negative-spent", "unknown-initiative", "negative-cvp-suffered",
        "negative-cvp-amassed"])
def test_the_roster_table_rejects_bad_lines(early: Any, values: dict[str, Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        _roster_row(early.campaign, **values)


@pytest.mark.parametrize("values", [
    {"line": 1},  # German line 1 exists
    {"line": 0},
    {"strength": "X"},
    {"remaining": -1},
    {"cost": Decimal(-3)},
    {"setup_mode": "parachute"},
    {"rg_id": ""},
    {"side": ""},
], ids=["duplicate-line", "line-zero", "strength-not-f-or-d", "negative-remaining", "negative-cost",
        "unknown-setup-mode", "no-rg", "no-side"])
def test_the_purchase_record_table_rejects_bad_lines(early: Any, values: dict[str, Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        _purchase_row(early.campaign, **values)


def test_the_tables_accept_good_lines_and_half_points(early: Any) -> None:
    _roster_row(early.campaign, spent=Decimal("1.5"), initiative="idle")
    _purchase_row(early.campaign, strength="D", remaining=0, setup_mode="on-map")
    assert RosterLine.objects.get(campaign=early.campaign, date_id="30 AM").spent == Decimal("1.5")


# ------------------------------------------------------------------------------------------- pages from the tables


def _plant(campaign: Campaign, side: str) -> None:
    """Secret markers in the tables only (not in the state): hidden roster cells and a purchase line's cells."""
    RosterLine.objects.filter(campaign=campaign, side=side).update(
        purchased=[[SECRET, "9"]], fortifications=[SECRET], notes=SECRET, start=Decimal("913"), left=Decimal("917"))
    PurchaseRecordLine.objects.filter(campaign=campaign, side=side).update(group_type=SECRET, setup_area=SECRET)


def test_the_own_pages_and_csv_are_read_from_the_tables(early: Any, users: Any) -> None:
    _plant(early.campaign, "german")

    assert f"{SECRET} (9)" in _section(_get(users["gerd"], "records_roster", early.campaign), "german", "roster")
    assert "913" in _get(users["gerd"], "records_roster_csv", early.campaign)
    assert SECRET in _section(_get(users["gerd"], "records_purchases", early.campaign), "german", "purchases")
    assert SECRET in _get(users["gerd"], "records_purchases_csv", early.campaign)


@pytest.mark.parametrize("url_name", ["records_roster", "records_roster_csv", "records_purchases",
                                      "records_purchases_csv"])
def test_the_opponents_pages_and_csv_never_hold_hidden_table_cells_before_cg_end(
    early: Any, users: Any, url_name: str
) -> None:
    _plant(early.campaign, "german")

    text = _get(users["cana"], url_name, early.campaign)

    text = scrub_random(text, early.campaign)  # a random token may hold "I4" or "913" by chance: not a leak
    assert SECRET not in text
    assert "913" not in text and "917" not in text
    assert "I4" not in text  # the German RG bought on 19 PM


def test_the_opponents_roster_lines_come_back_with_the_public_columns_only(early: Any) -> None:
    from rules_engine.view import public_roster_fields

    system = engine.system_for(early.campaign)
    lines = records.roster_lines(early.campaign, "canadian", public_roster_fields(system))

    assert all(set(line) == {"date_id", "lvp_current", "lvp_cg", "elr", "san", "initiative"}
               for line in lines["german"].values())  # RR 2.518: CG Date, LVP, ELR, SAN, Initiative are "both"
    assert lines["german"]["19 PM"]["initiative"] == "attack"
    assert lines["canadian"]["19 PM"]["purchased"] == [["I2", "5"]]  # own lines in full


def test_after_cg_end_the_opponents_pages_and_csv_show_every_cell_from_the_tables(early: Any, users: Any) -> None:
    services.cg_end_concede(user=users["gerd"], public_id=early.campaign.public_id)

    roster = _section(_get(users["cana"], "records_roster", early.campaign), "german", "roster")
    assert "I4 (14)" in roster and "M3 (4)" in roster
    assert "Hidden until CG end" not in roster
    rows = list(csv.reader(io.StringIO(_get(users["cana"], "records_roster_csv", early.campaign))))
    german = rows[rows.index([]) + 1:]  # the opponent's block, after the viewer's own
    assert german[0] == ["Side", "CG Date", "Start", "Replenished", "RG Purchased", "Spent", "Left", "Recon", "LVP",
                         "ELR", "SAN", "Initiative", "Fortifications"]
    assert any("I4 (14)" in row for row in german[1:])
    purchases = _section(_get(users["cana"], "records_purchases", early.campaign), "german", "purchases")
    assert '<td class="col-rg_id">I4</td>' in purchases and "Eng Pltn" in purchases
    assert "I4" in _get(users["cana"], "records_purchases_csv", early.campaign)


# -------------------------------------------------------------------------------------------------- rebuild_records


def _snapshot(campaign: Campaign) -> tuple[list[Any], list[Any]]:
    return (list(RosterLine.objects.filter(campaign=campaign).order_by("pk").values()),
            list(PurchaseRecordLine.objects.filter(campaign=campaign).order_by("pk").values()))


def test_rebuild_records_restores_the_tables_and_a_second_run_changes_nothing(early: Any) -> None:
    campaign = early.campaign
    projected = {side: records.roster_lines(campaign, side, None)[side] for side in ("german", "canadian")}
    RosterLine.objects.filter(campaign=campaign, side="canadian").delete()
    RosterLine.objects.filter(campaign=campaign, side="german", date_id="19 PM").update(spent=Decimal(99))
    PurchaseRecordLine.objects.filter(campaign=campaign, side="german", line=1).update(strength=None)
    _purchase_row(campaign, line=7)  # a line no ledger has

    out = io.StringIO()
    call_command("rebuild_records", stdout=out)
    assert "Projected 1 campaign(s); 1 changed." in out.getvalue()
    assert {side: records.roster_lines(campaign, side, None)[side] for side in ("german", "canadian")} == projected
    assert [p.line for p in _purchases(campaign, "german")] == [1, 2]
    assert _purchases(campaign, "german")[0].strength in ("F", "D")

    after_first = _snapshot(campaign)
    again = io.StringIO()
    call_command("rebuild_records", stdout=again)
    assert "Projected 1 campaign(s); 0 changed." in again.getvalue()
    assert _snapshot(campaign) == after_first  # same rows, same ids: nothing rewritten


def test_rebuild_records_names_an_unknown_campaign(early: Any) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No campaign with public id nope"):
        call_command("rebuild_records", "nope", stdout=io.StringIO())
