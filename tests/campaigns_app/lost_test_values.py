"""TEST DATA — not the printed values. What a player would type on the create page for the values the rule text lost
(issue 9 item 2: every one is settled before a campaign starts), so that scripted campaigns can be created. Each value
stands for "as printed on your chart"; none is a value of the rule text."""
from __future__ import annotations

from typing import Any

# RR (seed 001): 2.5061 Escape Results row dr 3-4 (lost), 2.5193 Company Leader Allotment Table final DR 12 (no row).
RR: dict[str, Any] = {
    "escape-equipment|1|result": "Captured (TEST DATA)",
    "company-leader|11|leaders": "9-1, 8-0",
}

# PHD with tests/campaigns_app/cards/phd-test.yaml: what that card leaves lost. C5.29 row 10, US is 27 (the figure the
# scripted PHD campaign was worked by hand with).
PHD_TEST_CARD: dict[str, Any] = {
    "redeployment|1|@label": "10",
    "leader-evacuation|1|result": "Retained Unwounded",
    "leader-evacuation|2|result": "Retained Unwounded",
    "battlefield-promotion|0|@label": "≤2",
    "leader-promotion|0|@label": "≤2",
    "leader-promotion|0|leader": "9-2",
    "leader-promotion|4|@label": "7-9",
    "leader-promotion|4|leader": "8-0",
    "leader-promotion|6|@label": "≥12",
    "leader-promotion|6|leader": "7-0",
    "tp-replenishment|6|@label": "8",
    "tp-replenishment|6|german": 19,
    "tp-replenishment|6|us": 29,
    "tp-replenishment|8|german": 17,
    "tp-replenishment|8|us": 27,
    "tp-replenishment|10|@label": "≥12",
    "tp-replenishment|10|german": 15,
    "tp-replenishment|10|us": 25,
    "german-oba|0|@label": "≤3",
    "german-oba|0|strength": "Weak",
    "german-oba|2|@label": "≥10",
    "german-oba|2|strength": "Strong",
    "us-oba|1|@label": "7-11",
}

# PHD without a card: what tests/campaigns_app/cards/phd-test.yaml supplies (its `supply:`), and its whole leader table
# row, typed on the create page instead.
PHD_NO_CARD: dict[str, Any] = {
    **PHD_TEST_CARD,
    "battlefield-promotion|2|@label": "5-6",
    "battlefield-promotion|2|mmc": 1,
    "tp-replenishment|2|german": 23,
    "tp-replenishment|2|us": 33,
    "tp-replenishment|4|german": 21,
    "tp-replenishment|4|us": 31,
    "leader|0|@label": "2-12",
    "leader|0|german": "8-0",
    "leader|0|us": "8-0",
    "leader|0|armour": "8-0",
}

BY_SYSTEM: dict[str, dict[str, Any]] = {"rr": RR, "phd": PHD_TEST_CARD}


def post_fields(values: dict[str, Any]) -> dict[str, str]:
    """The create-page fields of typed lost values ("lost:<key>")."""
    return {f"lost:{key}": ", ".join(value) if isinstance(value, (list, tuple)) else str(value)
            for key, value in values.items()}
