"""The digest run's cost: a fixed number of SQL statements per player, whatever the number of lines and campaigns."""
from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns_app.models import Seat
from campaigns_app.notify import deliver, digest
from tests.campaigns_app.notify.helpers import DAY_ONE, created

# the players with a digest due; per player: its savepoint, its row locked with its user, its seats with their
# campaigns (one query for every campaign of the digest), the queue emptied, the savepoint released
STATEMENTS = 6


@pytest.mark.parametrize(("campaigns", "lines"), [(1, 1), (5, 20)])
def test_a_digest_costs_the_same_statements_for_one_line_or_many_in_many_campaigns(
    rr: Any, users: Any, campaigns: int, lines: int
) -> None:
    for number in range(campaigns):
        campaign = created(users, f"Campaign {number}")
        seat = Seat.objects.select_related("campaign").get(campaign=campaign, user=users["gerd"])
        for line in range(lines):
            deliver.enqueue(seat, f"Line {line}.")

    with CaptureQueriesContext(connection) as captured:
        assert digest.send_digests(DAY_ONE) == 1

    assert len(captured.captured_queries) == STATEMENTS, "\n".join(q["sql"][:160] for q in captured.captured_queries)
