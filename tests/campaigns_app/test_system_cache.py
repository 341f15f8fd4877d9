"""The system's YAML definition (60 KB) is read from the database only when the parsed System is not cached yet, even
for a campaign loaded without its system row."""
from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns_app import engine
from campaigns_app.models import Campaign


def test_a_campaign_loaded_alone_gets_its_cached_system_without_reading_the_definition(campaign_factory: Any,
                                                                                       users: Any) -> None:
    campaign = campaign_factory(users["gerd"], None)
    expected = engine.system_for(campaign)  # parsed and cached
    plain = Campaign.objects.get(pk=campaign.pk)

    with CaptureQueriesContext(connection) as captured:
        found = engine.system_for(plain)

    assert found is expected
    assert len(captured.captured_queries) == 1
    assert '"definition"' not in captured.captured_queries[0]["sql"]
