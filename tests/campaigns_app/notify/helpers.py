"""Shared set-up of the notification tests: choosing, a fixed digest clock, the queued lines of a player."""
from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User

from campaigns_app import services
from campaigns_app.models import Campaign, NotificationSetting, Seat
from tests.campaigns_app.lost_test_values import RR as RR_LOST

DAY_ONE = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)


def choose_default(user: User, choice: str) -> None:
    NotificationSetting.objects.update_or_create(user=user, defaults={"default": choice})


def choose_for(user: User, campaign: Campaign, choice: str) -> None:
    Seat.objects.filter(user=user, campaign=campaign).update(notify=choice)


def queued(user: User) -> list[str]:
    row = NotificationSetting.objects.filter(user=user).first()
    return [entry["line"] for entry in row.queue] if row else []


def created(users: Any, name: str = "Hill 112", pace_hours: int | None = None) -> Campaign:
    """A new RR campaign of gerd (German) that cana has not joined yet."""
    return services.campaign_create(user=users["gerd"], system_id="rr", side="german", name=name,
                                    lost_values=RR_LOST, pace_hours=pace_hours)
