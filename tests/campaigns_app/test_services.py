"""Services: creation, joining, and the sealed-chit round trip under concurrency (PostgreSQL row lock)."""
from __future__ import annotations

import hashlib
import threading
from typing import Any

import pytest
from django.db import connection, connections

from campaigns_app import services
from campaigns_app.models import Campaign, EventRecord, Seat
from tests.campaigns_app.conftest import load_rr, make_user, new_campaign
from tests.campaigns_app.lost_test_values import RR as RR_LOST


def test_creating_a_campaign_seats_the_creator_commits_to_the_seed_and_makes_an_invitation(users: Any, rr: Any) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST)

    assert list(campaign.seats.values_list("user__username", "side")) == [("gerd", "german")]
    assert hashlib.sha256(bytes.fromhex(campaign.dice_seed)).hexdigest() == campaign.seed_commitment
    assert len(campaign.public_id) >= 22 and not campaign.public_id.isdigit()
    assert len(campaign.invitations.get().token) >= 32
    # the full between-scenario phase starts at once: RR †† steps before the Initial Scenario, 2.518 first
    assert (campaign.state["step"], campaign.state["pass_kind"], campaign.state["phase_ref"]) == ("phase", "initial", "2.518")
    assert list(campaign.events.values_list("kind", flat=True)) == ["campaign-created", "campaign-started"]


def test_creating_a_campaign_with_an_unknown_side_names_the_allowed_sides(users: Any, rr: Any) -> None:
    with pytest.raises(services.ServiceError, match="allowed: canadian, german"):
        services.campaign_create(user=users["gerd"], system_id="rr", side="russian", name="Hill 112", lost_values=RR_LOST)
    assert not Campaign.objects.exists()


def test_the_invited_player_takes_the_other_side_and_a_third_is_told_the_campaign_is_full(users: Any, rr: Any) -> None:
    campaign = services.campaign_create(user=users["gerd"], system_id="rr", side="german", name="Hill 112", lost_values=RR_LOST)
    token = campaign.invitations.get().token

    seat = services.campaign_join(user=users["cana"], token=token)
    assert seat.side == "canadian"
    assert services.campaign_join(user=users["cana"], token=token) == seat  # opening the link again is harmless

    with pytest.raises(services.CampaignFull, match="This campaign is full"):
        services.campaign_join(user=users["carol"], token=token)
    assert not Seat.objects.filter(user=users["carol"]).exists()


def test_a_chit_cannot_be_chosen_before_the_opponent_has_joined(users: Any, rr: Any) -> None:
    campaign = new_campaign(users["gerd"], None)
    with pytest.raises(services.ServiceError, match="opponent has not joined"):
        services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")


def test_the_second_chit_reveals_both_and_a_dual_attack_rolls_the_setup_dr_on_the_server(users: Any, rr: Any) -> None:
    campaign = new_campaign(users["gerd"], users["cana"])
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="attack")

    campaign.refresh_from_db()
    assert campaign.state["last_round"]["label"] == "Dual Attack"
    rolls = EventRecord.objects.filter(campaign=campaign, kind="roll", visibility="public")  # 2.516 rolls are secret
    assert rolls.count() == 1
    roll = rolls.get()
    assert roll.payload["kind"] == "dr" and 1 <= roll.payload["total"] <= 6
    assert campaign.dice_counters["public"] == 2


def _submit_together(campaign: Campaign, german: Any, canadian: Any, chits: tuple[str, str]) -> list[BaseException]:
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def submit(user: Any, side: str, chit: str) -> None:
        try:
            barrier.wait(timeout=10)
            services.chit_submit(user=user, public_id=campaign.public_id, side=side, chit=chit)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=submit, args=(german, "german", chits[0])),
        threading.Thread(target=submit, args=(canadian, "canadian", chits[1])),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.slow
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (make test)")
@pytest.mark.django_db(transaction=True)
def test_both_players_submitting_at_the_same_instant_resolve_exactly_once_every_time() -> None:
    load_rr()
    german, canadian = make_user("gerd"), make_user("cana")
    pairs = [("attack", "idle"), ("idle", "attack"), ("attack", "attack"), ("idle", "idle")]
    expected = {("attack", "idle"): "German Assault", ("idle", "attack"): "Canadian Assault",
                ("attack", "attack"): "Dual Attack", ("idle", "idle"): "Idle Date"}
    for round_number in range(200):
        chits = pairs[round_number % 4]
        campaign = new_campaign(german, canadian, name=f"Race {round_number}")

        errors = _submit_together(campaign, german, canadian, chits)

        assert errors == [], f"round {round_number}: {errors!r}"
        campaign.refresh_from_db()
        kinds = list(campaign.events.order_by("seq").values_list("kind", flat=True))
        assert kinds.count("chits-revealed") == 1, f"round {round_number}: {kinds}"
        assert kinds.count("chit-chosen") == 2 and kinds.count("chit-sealed") == 2
        chosen = dict(campaign.events.filter(kind="chit-chosen").values_list("side", "payload__chit"))
        assert chosen == {"german": chits[0], "canadian": chits[1]}
        revealed = campaign.events.get(kind="chits-revealed").payload
        assert revealed["chits"] == {"german": chits[0], "canadian": chits[1]}
        assert revealed["label"] == expected[chits]
        public_rolls = campaign.events.filter(kind="roll", visibility="public").count()
        assert public_rolls == (1 if chits == ("attack", "attack") else 0)
        seqs = list(campaign.events.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))
