"""What the settings pages show: the player's default and each of their campaigns' choice (read only)."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from campaigns_app.models import Notify, Seat
from campaigns_app.notify.deliver import default_of

DEFAULT = "default"


@dataclass(frozen=True)
class CampaignChoice:
    """One campaign's row: its name, public id and the value its select shows (DEFAULT or a Notify value)."""

    public_id: str
    name: str
    value: str


def choices() -> list[tuple[str, str]]:
    """The choices for all campaigns, (value, words)."""
    return [(str(value), str(label)) for value, label in Notify.choices]


def campaign_choices() -> list[tuple[str, str]]:
    """The choices for one campaign: the default first."""
    return [(DEFAULT, "As for all my campaigns"), *choices()]


def settings_context(user: User) -> dict[str, object]:
    """The settings page: the default and one row per campaign the player holds a seat in, newest first."""
    seats = Seat.objects.filter(user=user).select_related("campaign").order_by("-campaign__created", "-id")[:200]
    return {"default": str(default_of(user.pk)), "choices": choices(), "campaign_choices": campaign_choices(),
            "rows": [CampaignChoice(seat.campaign.public_id, seat.campaign.name, seat.notify or DEFAULT)
                     for seat in seats]}


def link_context(seat: Seat) -> dict[str, object]:
    """The one-click page of one seat: its campaign's choice and the player's default (nothing else)."""
    return {"campaign_name": seat.campaign.name, "current": seat.notify or DEFAULT, "default": str(default_of(seat.user_id)),
            "choices": choices(), "campaign_choices": campaign_choices()}
