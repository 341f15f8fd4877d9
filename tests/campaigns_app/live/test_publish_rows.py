"""A publish writes every watched seat's stored view in one UPDATE (campaigns_app.live.pages): each seat's row gets its
own rendering, revision and version — the German row never holds the Canadian fragments — on PostgreSQL and on SQLite
(the embedded default) alike."""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from campaigns_app.live import fragments
from campaigns_app.live.pages import VERSION_MARK
from campaigns_app.models import Campaign, LiveView, Seat
from tests.campaigns_app.conftest import client_for
from tests.campaigns_app.live.test_push import pages_open


def test_after_a_reveal_each_seat_stores_its_own_fragments_at_the_new_revision(campaign_factory: Any,
                                                                             users: Any) -> None:
    campaign = campaign_factory(users["gerd"], users["cana"])
    pages_open(campaign)
    url = reverse("chit_submit", args=[campaign.public_id])
    client_for(users["gerd"]).post(url, {"side": "german", "chit": "attack", "confirmed": "yes"},
                                   headers={"HX-Request": "true"})  # the first publish: both seats' rows made
    client_for(users["cana"]).post(url, {"side": "canadian", "chit": "idle", "confirmed": "yes"},
                                   headers={"HX-Request": "true"})  # the reveal: both rows written in one UPDATE

    revision = Campaign.objects.get(pk=campaign.pk).revision
    stored = {}
    for seat in Seat.objects.filter(campaign=campaign).select_related("user"):
        view = LiveView.objects.get(seat=seat)
        assert view.fragments == fragments.live_fragments(seat, live_version=VERSION_MARK), seat.side
        assert (view.revision, view.version) == (revision, 2), seat.side  # made at the first chit, moved by the reveal
        stored[seat.side] = view.fragments
    assert stored["german"] != stored["canadian"]
    assert 'id="chit-reveal"' in stored["german"]["chit-panel"] and 'id="chit-reveal"' in stored["canadian"]["chit-panel"]
