"""Events are numbered from the campaign's own counter (Campaign.event_seq, moved under the row lock): no gap, no
repeat, whichever service appended them (create, join, the phase's moves)."""
from __future__ import annotations

from typing import Any

from campaigns_app import services
from campaigns_app.models import Campaign, EventRecord
from tests.campaigns_app.conftest import new_campaign


def test_every_service_numbers_its_events_after_the_last_one_and_saves_the_counter(campaign_factory: Any,
                                                                                   users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])  # created, joined, played to the Initiative
    services.chit_submit(user=users["gerd"], public_id=campaign.public_id, side="german", chit="attack")
    services.chit_submit(user=users["cana"], public_id=campaign.public_id, side="canadian", chit="idle")

    seqs = list(EventRecord.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True))
    assert len(seqs) > 10
    assert seqs == list(range(1, len(seqs) + 1))
    assert Campaign.objects.get(pk=campaign.pk).event_seq == len(seqs)


def test_a_join_appends_after_the_creation_events(users: Any, rr: Any) -> None:
    campaign = new_campaign(users["gerd"], None)
    created = Campaign.objects.get(pk=campaign.pk).event_seq
    assert created == EventRecord.objects.filter(campaign=campaign).count() > 0

    services.campaign_join(user=users["cana"], token=campaign.invitations.get().token)

    seqs = list(EventRecord.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) > created
    assert Campaign.objects.get(pk=campaign.pk).event_seq == len(seqs)
