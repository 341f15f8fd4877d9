"""The campaign's archive: players download it after CG end only; operators move a live campaign with
export_campaign / import_campaign — nothing lost on a round trip, an altered archive refused with nothing written."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from campaigns_app import models, services
from campaigns_app.archive.build import build_archive, digest
from campaigns_app.models import Campaign, EventRecord, PurchaseRecordLine, RosterLine
from rules_engine.cli import main
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.phase.test_phase_flow import german_to_buy_at_19pm
from tests.campaigns_app.records.test_records_support import create_rr, play

NOTE = "HIP: 2 squads and the 9-1 in K5"


def _without_moment(archive: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in archive.items() if k != "exported_at"}


@pytest.fixture
def live_campaign(rr: Any, users: Any) -> Campaign:
    campaign = german_to_buy_at_19pm(users)
    services.order_submit(user=users["gerd"], public_id=campaign.public_id,
                          orders=[{"type": "rg", "rg_id": "I4", "setup_mode": "on-map"}])
    services.note_seal(public_id=campaign.public_id, user=users["gerd"], text=NOTE, form_id="b" * 32)
    services.message_send(public_id=campaign.public_id, user=users["cana"], text="Good luck", form_id="c" * 32)
    return Campaign.objects.get(pk=campaign.pk)


def test_a_live_campaign_moves_between_servers_without_losing_anything(live_campaign: Campaign, tmp_path: Path
                                                                       ) -> None:
    path = tmp_path / "archive.json"
    call_command("export_campaign", live_campaign.public_id, output=str(path), stdout=StringIO())
    before = json.loads(path.read_text())
    roster = sorted(RosterLine.objects.filter(campaign=live_campaign).values_list("side", "date_id", "left"))
    purchases = PurchaseRecordLine.objects.filter(campaign=live_campaign).count()
    live_campaign.delete()

    out = StringIO()
    call_command("import_campaign", str(path), stdout=out)

    assert [(m["side"], m["text"]) for m in before["messages"]] == [("canadian", "Good luck")]
    assert [(n["side"], n["text"]) for n in before["notes"]] == [("german", NOTE)]
    moved = Campaign.objects.get(public_id=before["campaign"]["public_id"])
    assert _without_moment(build_archive(moved, operator=True)) == _without_moment(before)
    assert sorted(RosterLine.objects.filter(campaign=moved).values_list("side", "date_id", "left")) == roster
    assert PurchaseRecordLine.objects.filter(campaign=moved).count() == purchases > 0
    assert f"Campaign {moved.public_id} (Hill 112) imported with" in out.getvalue()
    last = EventRecord.objects.filter(campaign=moved).order_by("-seq").values_list("seq", flat=True)[0]
    services.message_send(public_id=moved.public_id, user=moved.seats.get(side="german").user, text="Moved",
                          form_id="d" * 32)  # the moved campaign goes on: its events keep numbering
    assert EventRecord.objects.filter(campaign=moved, kind="message").order_by("-seq")[0].seq == last + 1


def test_an_altered_archive_is_refused_and_nothing_is_written(live_campaign: Campaign, tmp_path: Path) -> None:
    archive = build_archive(live_campaign, operator=True)
    archive["dice"]["rolls"][0]["dice"] = [6, 6] if archive["dice"]["rolls"][0]["dice"] != [6, 6] else [1, 1]
    archive["digest"] = digest(archive)  # even with a digest made again, the dice no longer verify
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(archive))
    live_campaign.delete()

    with pytest.raises(CommandError, match="The archive is refused: dice: "):
        call_command("import_campaign", str(path), stdout=StringIO())
    assert not Campaign.objects.exists() and not EventRecord.objects.exists()


def test_an_archive_edited_by_hand_fails_its_digest(live_campaign: Campaign, tmp_path: Path) -> None:
    archive = build_archive(live_campaign, operator=True)
    archive["campaign"]["name"] = "Hill 113"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(archive))
    live_campaign.delete()

    with pytest.raises(CommandError, match="digest: the archive was altered after it was made"):
        call_command("import_campaign", str(path), stdout=StringIO())


def test_an_archive_of_a_campaign_already_here_is_refused(live_campaign: Campaign, tmp_path: Path) -> None:
    path = tmp_path / "archive.json"
    call_command("export_campaign", live_campaign.public_id, output=str(path), stdout=StringIO())

    with pytest.raises(CommandError, match=f"A campaign with public id {live_campaign.public_id} already exists"):
        call_command("import_campaign", str(path), stdout=StringIO())


def test_players_get_the_archive_only_after_cg_end_and_it_verifies_offline(rr: Any, users: Any, tmp_path: Path
                                                                           ) -> None:
    campaign = create_rr(users["gerd"], users["cana"])
    url = reverse("campaign_archive", args=[campaign.public_id])
    assert client_for(users["cana"]).get(url).status_code == 404

    played = play(campaign, until_date=12, buy_on={1}, to_end=True)
    response = client_for(users["cana"]).get(url)

    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"
    archive = json.loads(response.content)
    assert archive["format"] == "refit-archive/1" and archive["campaign"]["ended"] is True
    assert all("email" not in seat for seat in archive["seats"])  # only the operators' archive carries addresses
    assert played.bought["german"][0] in json.dumps(archive["state"])
    path = tmp_path / "archive.json"
    path.write_text(response.content.decode())
    out = StringIO()
    assert main(["verify-dice", str(path)], out, StringIO()) == 0
    assert out.getvalue().startswith(f"all {len(archive['dice']['rolls'])} rolls verified")
    assert main(["verify-notes", str(path)], StringIO(), StringIO()) == 0


def test_an_unknown_campaign_or_a_file_that_is_not_an_archive_is_a_clear_error(rr: Any, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No campaign with public id nope"):
        call_command("export_campaign", "nope", stdout=StringIO())
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    with pytest.raises(CommandError, match="expected a JSON object"):
        call_command("import_campaign", str(path), stdout=StringIO())
    path.write_text('{"format": "refit-dice/1"}')
    with pytest.raises(CommandError, match="format: expected 'refit-archive/1'"):
        call_command("import_campaign", str(path), stdout=StringIO())


def test_a_new_public_id_never_starts_with_a_dash_a_command_line_would_read_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = iter(["-Ab3dE5fG7hI9jK1lM3nO5p", "_Qr2sT4uV6wX8yZ0aB2cD4e"])
    monkeypatch.setattr(models.campaigns.secrets, "token_urlsafe", lambda size: next(drawn))

    assert models.new_public_id() == "_Qr2sT4uV6wX8yZ0aB2cD4e"


def test_an_older_public_id_starting_with_a_dash_is_exported_after_a_double_dash(live_campaign: Campaign,
                                                                                 tmp_path: Path) -> None:
    Campaign.objects.filter(pk=live_campaign.pk).update(public_id="-Ab3dE5fG7hI9jK1lM3nO5p")
    path = tmp_path / "archive.json"

    with pytest.raises(CommandError, match="the following arguments are required: public_id"):
        call_command("export_campaign", "-Ab3dE5fG7hI9jK1lM3nO5p", output=str(path), stdout=StringIO())
    call_command("export_campaign", "--", "-Ab3dE5fG7hI9jK1lM3nO5p", output=str(path), stdout=StringIO())

    assert json.loads(path.read_text(encoding="utf-8"))["campaign"]["public_id"] == "-Ab3dE5fG7hI9jK1lM3nO5p"
