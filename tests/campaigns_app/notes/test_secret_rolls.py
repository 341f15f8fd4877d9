"""Secret rolls at the board in the web app: before it is revealed, nothing of a roll's purpose or dice reaches the
opponent (pages, fragments, history, dice log, statistics and socket renders byte-identical for two purposes and two
dice results at the same step); revealed, or at CG end, both sides read it and the dice verify from the seed; the
archive carries it; a form sent twice rolls once; bad input is a 400 saying what is allowed and nothing is saved."""
from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from campaigns_app import event_pages, services
from campaigns_app.archive.build import build_archive, digest
from campaigns_app.models import Campaign, EventRecord, Seat
from campaigns_app.services.archive import ArchiveRefused, campaign_import
from rules_engine.cli import main
from tests.campaigns_app.conftest import client_for, deterministic_csrf, scrub_random, snapshot, ws_fragments
from tests.campaigns_app.phase.test_chits import pin_clock
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm
from tests.campaigns_app.records.test_dice_pages import whole_and_paged

SHORT = "Quagmire check O7"
LONG = "Marksman: the stone building in O7, then the orchard hexes " * 3
FORM, OTHER_FORM = "a" * 32, "b" * 32
# campaign seeds to roll with: the dice also hang on the campaign's random id, so the other dice are looked for among
# the later seeds (two seeds give the same DR one time in 36; six, practically never)
SEEDS = tuple(str(n) * 64 for n in range(1, 7))
PAGES = ("campaign_detail", "campaign_fragments", "campaign_history", "campaign_notes", "records_dice",
         "records_dice_stats")


def _url(name: str, campaign: Campaign, *args: Any) -> str:
    return reverse(name, args=[campaign.public_id, *args])


def _scrub(html: bytes, campaign: Campaign) -> str:
    text = scrub_random(html.decode(), campaign)
    text = re.sub(r"[0-9a-f]{64}", "<commitment>", text)
    return re.sub(r'name="form_id" value="[0-9a-f]{32}"', "", text)


def _german_rolls(campaign: Campaign) -> list[dict[str, Any]]:
    return [r.payload for r in EventRecord.objects.filter(campaign=campaign, kind="roll", side="german",
                                                          payload__stream="board-german").order_by("seq")]


def _canadian_renders(campaign: Campaign, users: Any, purpose: str, seed: str) -> tuple[tuple[str, ...], list[int]]:
    """What the Canadian receives after the German's secret DR (rolled back after): the renders, and the dice."""
    with transaction.atomic():
        Campaign.objects.filter(pk=campaign.pk).update(dice_seed=seed)
        services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=purpose,
                             form_id=FORM)
        client = client_for(users["cana"])
        seat = Seat.objects.get(campaign=campaign, side="canadian")
        renders = (*(_scrub(client.get(_url(name, campaign)).content, campaign) for name in PAGES),
                   "".join(ws_fragments(seat).values()),
                   _scrub("".join(ws_fragments(seat, notes=True).values()).encode(), campaign))  # its notes socket
        dice = _german_rolls(campaign)[0]["dice"]
        transaction.set_rollback(True)
    return renders, dice


def test_the_opponents_pages_are_byte_identical_for_two_purposes_and_two_dice_results_at_the_same_step(
    rr: Any, users: Any, monkeypatch: Any
) -> None:
    deterministic_csrf(monkeypatch)
    pin_clock(monkeypatch)
    campaign = german_to_buy_at_19pm(users)

    base, dice = _canadian_renders(campaign, users, SHORT, SEEDS[0])
    other_purpose, _ = _canadian_renders(campaign, users, LONG, SEEDS[0])
    for seed in SEEDS[1:]:
        other_dice, changed = _canadian_renders(campaign, users, SHORT, seed)
        if changed != dice:
            break
    assert dice != changed  # the same purpose, other dice: the cheat is really tried with another result
    assert base == other_purpose == other_dice
    seen = "".join(base)
    assert "Quagmire" not in seen and "Marksman" not in seen and "German board" not in seen
    assert "The German side made secret DR #1 at the board (19 PM, 2.518" in base[2]  # the history says that
    assert "Secret DR #1" in base[3] and "Hidden: its purpose and dice stay secret" in base[3]
    assert 'id="secret-rolls-list"' in base[-1] and "Hidden: its purpose and dice stay secret" in base[-1]


def test_the_roller_reads_its_roll_and_the_opponent_reads_it_once_revealed_in_notes_history_and_dice_log(
    rr: Any, users: Any
) -> None:
    campaign = german_to_buy_at_19pm(users)
    number = services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=SHORT,
                                  form_id=FORM)
    german, canadian = client_for(users["gerd"]), client_for(users["cana"])
    [rolled] = _german_rolls(campaign)
    dice = "+".join(str(d) for d in rolled["dice"])

    own = german.get(_url("campaign_notes", campaign)).content.decode()
    assert number == 1 and f"{SHORT}: <strong>{dice}" in own
    assert german.get(_url("campaign_history", campaign)).content.decode().count("secret DR #1 at the board") == 1
    assert SHORT not in canadian.get(_url("campaign_notes", campaign)).content.decode()

    response = german.post(_url("campaign_secret_roll_reveal", campaign, number))
    assert response.status_code == 302

    page = canadian.get(_url("campaign_notes", campaign)).content.decode()
    assert f"{SHORT}: <strong>{dice}" in page and "it agrees with the roll announced" in page
    history = canadian.get(_url("campaign_history", campaign)).content.decode()
    assert "The German side revealed secret DR #1 at the board (19 PM, 2.518" in history and SHORT in history
    log = canadian.get(_url("records_dice", campaign)).content.decode()
    assert "German board #1" in log and SHORT in log and "1 secret roll at the board the German side revealed" in log
    assert german.get(_url("records_dice", campaign)).content.decode().count("German board #1") == 1
    assert german.post(_url("campaign_secret_roll_reveal", campaign, number)).status_code == 302  # again: nothing new
    assert EventRecord.objects.filter(campaign=campaign, kind="board-roll-revealed").count() == 1


@pytest.mark.parametrize("ended", [False, True])
@pytest.mark.parametrize("side", ["german", "canadian"])
def test_the_dice_log_pages_give_the_rows_and_tallies_of_the_whole_log_with_hidden_and_revealed_secret_rolls(
    rr: Any, users: Any, monkeypatch: Any, side: str, ended: bool
) -> None:
    monkeypatch.setattr(event_pages, "PAGE_SIZE", 2)
    campaign = german_to_buy_at_19pm(users)
    for form in (FORM, OTHER_FORM):
        services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=SHORT, form_id=form)
    services.secret_roll_reveal(public_id=campaign.public_id, user=users["gerd"], number=2)
    if ended:
        services.cg_end_concede(user=users["cana"], public_id=campaign.public_id)

    whole, pages = whole_and_paged(Campaign.objects.get(pk=campaign.pk), side)

    assert [row for log, _ in pages for row in log.rows] == list(whole.rows)
    for log, _ in pages:
        assert [log.count(seen) for seen in ("public", "own", "revealed")] == [
            whole.count(seen) for seen in ("public", "own", "revealed")]
    board = [(row.stream_label, row.visibility) for row in whole.rows if "board" in row.stream_label]
    if side == "german":  # the roller: both its rolls, once each, whether revealed or not
        assert board == [("German board #1", "own"), ("German board #2", "own")]
    elif ended:  # at CG end the opponent sees both rolls themselves, the revealed one once
        assert board == [("German board #1", "revealed"), ("German board #2", "revealed")]
    else:  # before, only the revealed one
        assert board == [("German board #2", "revealed")]


def test_at_cg_end_every_secret_roll_is_revealed_and_verifies_from_the_seed(rr: Any, users: Any, tmp_path: Path
                                                                           ) -> None:
    campaign = german_to_buy_at_19pm(users)
    for form, kind in ((FORM, "DR"), (OTHER_FORM, "dr")):
        services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind=kind, purpose=f"{SHORT} {kind}",
                             form_id=form)
    services.cg_end_concede(user=users["cana"], public_id=campaign.public_id)
    canadian = client_for(users["cana"])

    page = canadian.get(_url("campaign_notes", campaign)).content.decode()
    assert f"{SHORT} DR" in page and f"{SHORT} dr" in page and page.count("Revealed at CG end.") == 2
    assert "Roll in secret" not in page
    verify = canadian.get(_url("records_verify", campaign)).content.decode()
    assert "FAILED" not in verify
    export = json.loads(canadian.get(_url("records_dice_export", campaign)).content)
    assert [(r["stream"], r["number"], r["kind"]) for r in export["rolls"] if r["stream"] == "board-german"] == [
        ("board-german", 1, "DR"), ("board-german", 2, "dr")]
    path = tmp_path / "archive.json"
    path.write_text(canadian.get(_url("campaign_archive", campaign)).content.decode())
    out = StringIO()
    assert main(["verify-dice", str(path)], out, StringIO()) == 0 and out.getvalue().endswith("rolls verified\n")


def test_an_archive_carries_board_rolls_round_trips_and_is_refused_when_a_board_rolls_dice_are_altered(
    rr: Any, users: Any, tmp_path: Path
) -> None:
    campaign = german_to_buy_at_19pm(users)
    for form in (FORM, OTHER_FORM):
        services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=SHORT, form_id=form)
    services.secret_roll_reveal(public_id=campaign.public_id, user=users["gerd"], number=1)
    path = tmp_path / "archive.json"
    call_command("export_campaign", campaign.public_id, output=str(path), stdout=StringIO())
    before = json.loads(path.read_text())
    assert [r["number"] for r in before["dice"]["rolls"] if r["stream"] == "board-german"] == [1, 2]
    assert before["dice_counters"]["board-german"] == 3
    campaign.delete()

    call_command("import_campaign", str(path), stdout=StringIO())
    moved = Campaign.objects.get(public_id=before["campaign"]["public_id"])
    without = {k: v for k, v in before.items() if k != "exported_at"}
    assert {k: v for k, v in build_archive(moved, operator=True).items() if k != "exported_at"} == without
    number = services.secret_roll(public_id=moved.public_id, user=users["gerd"], kind="dr", purpose="After the move",
                                  form_id="c" * 32)
    assert number == 3  # the board stream goes on numbering
    moved.delete()

    board = next(r for r in before["dice"]["rolls"] if r["stream"] == "board-german" and r["number"] == 2)
    board["dice"] = [7 - board["dice"][0], board["dice"][1]]
    before["digest"] = digest(before)
    path.write_text(json.dumps(before))
    with pytest.raises(CommandError, match="The archive is refused: dice: roll board-german #2"):
        call_command("import_campaign", str(path), stdout=StringIO())
    assert not Campaign.objects.exists()


def test_a_revealed_roll_that_does_not_show_the_roll_made_is_refused_in_an_archive(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=SHORT, form_id=FORM)
    services.secret_roll_reveal(public_id=campaign.public_id, user=users["gerd"], number=1)
    archive = build_archive(campaign, operator=True)
    shown = next(e for e in archive["events"] if e["kind"] == "board-roll-revealed")
    shown["payload"]["purpose"] = "Something else"
    archive["digest"] = digest(archive)

    with pytest.raises(ArchiveRefused, match="secret roll board-german #1: revealed DR"):
        campaign_import(archive)


def test_a_roll_form_sent_twice_rolls_once(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    german = client_for(users["gerd"])

    for _ in range(2):
        response = german.post(_url("campaign_secret_roll", campaign), {"kind": "DR", "purpose": SHORT,
                                                                         "form_id": FORM})
        assert response.status_code == 302

    assert EventRecord.objects.filter(campaign=campaign, kind="board-roll-sealed").count() == 1
    assert len(_german_rolls(campaign)) == 1
    assert Campaign.objects.get(pk=campaign.pk).dice_counters["board-german"] == 2


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "2d6", "purpose": SHORT, "form_id": FORM},
     "A secret roll is a DR (two dice) or a dr (one die); got &#x27;2d6&#x27;."),
    ({"purpose": SHORT, "form_id": FORM}, "A secret roll is a DR (two dice) or a dr (one die); got &#x27;&#x27;."),
    ({"kind": "DR", "purpose": "   ", "form_id": FORM}, "A roll&#x27;s purpose needs some text."),
    ({"kind": "dr", "purpose": "x" * 201, "form_id": FORM},
     "A roll&#x27;s purpose is at most 200 characters (this one has 201)."),
    ({"kind": "dr", "purpose": "x" * 30000, "form_id": FORM}, "A roll&#x27;s purpose is at most 200 characters."),
    ({"kind": "DR", "purpose": SHORT, "form_id": "forged"},
     "This form has expired: open the notes and secret rolls page again and roll there."),
])
def test_a_secret_roll_that_cannot_be_made_is_a_400_saying_why_and_nothing_is_saved(
    rr: Any, users: Any, data: dict[str, str], message: str
) -> None:
    campaign = german_to_buy_at_19pm(users)
    before = snapshot(campaign)

    response = client_for(users["gerd"]).post(_url("campaign_secret_roll", campaign), data)

    assert response.status_code == 400 and message in response.content.decode()
    assert snapshot(campaign) == before


@pytest.mark.parametrize("number", [1, 2, 10**30])
def test_revealing_a_secret_roll_the_side_does_not_have_is_a_400(rr: Any, users: Any, number: int) -> None:
    campaign = german_to_buy_at_19pm(users)
    services.secret_roll(public_id=campaign.public_id, user=users["gerd"], kind="DR", purpose=SHORT, form_id=FORM)

    response = client_for(users["cana"]).post(_url("campaign_secret_roll_reveal", campaign, number))

    assert response.status_code == 400 and f"Your side has no secret roll #{number}." in response.content.decode()
    assert not EventRecord.objects.filter(campaign=campaign, kind="board-roll-revealed").exists()


def test_a_secret_roll_is_refused_after_cg_end(rr: Any, users: Any) -> None:
    campaign = german_to_buy_at_19pm(users)
    services.cg_end_concede(user=users["cana"], public_id=campaign.public_id)

    response = client_for(users["gerd"]).post(_url("campaign_secret_roll", campaign),
                                              {"kind": "DR", "purpose": SHORT, "form_id": FORM})

    assert response.status_code == 400
    assert "The CG has ended: every secret roll is revealed and no new one can be made." in response.content.decode()


@pytest.mark.parametrize("name", ["campaign_secret_roll", "campaign_secret_roll_reveal"])
def test_secret_rolls_are_404_without_a_seat(rr: Any, users: Any, name: str) -> None:
    campaign = german_to_buy_at_19pm(users)

    response = client_for(None).post(_url(name, campaign, *([1] if name.endswith("reveal") else [])))

    assert response.status_code == 404
