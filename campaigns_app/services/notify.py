"""A player's choice of campaign e-mails: the default for all their campaigns and one campaign's own choice, from the
settings page (logged in) or the one-click link (signed). Bad input is refused whole: nothing is saved."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from campaigns_app.models import NotificationSetting, Notify, Seat
from campaigns_app.services.errors import ServiceError

DEFAULT = "default"  # a campaign's choice "as my default for all campaigns" (stored as "")
CHOICES_TEXT = "each (every e-mail), digest (one daily digest) or none"


def clean_default(value: str) -> Notify:
    """The default for all campaigns from a form value, or ServiceError naming the allowed values."""
    if value not in Notify.values:
        raise ServiceError(f"{value[:20]!r} is not a choice for all campaigns: choose {CHOICES_TEXT}.")
    return Notify(value)


def clean_campaign(value: str) -> str:
    """One campaign's choice from a form value ("" for the default), or ServiceError naming the allowed values."""
    if value == DEFAULT:
        return ""
    if value not in Notify.values:
        raise ServiceError(f"{value[:20]!r} is not a choice for a campaign: choose {DEFAULT} (as for all "
                           f"campaigns), {CHOICES_TEXT}.")
    return value


@transaction.atomic
def choose(*, user: User, default: str, campaigns: dict[str, str]) -> None:
    """Save the player's default and the choices of their campaigns ({public id: form value}); every value is checked
    before anything is saved, and a campaign without the player's seat is refused."""
    chosen = clean_default(default)
    cleaned = {public_id: clean_campaign(value) for public_id, value in campaigns.items()}
    seats = {seat.campaign.public_id: seat for seat in Seat.objects.select_for_update(of=("self",))
             .filter(user=user, campaign__public_id__in=list(cleaned)).select_related("campaign")}
    if set(seats) != set(cleaned):
        raise ServiceError("One of these campaigns is not yours: reload the settings page and choose again.")
    NotificationSetting.objects.update_or_create(user=user, defaults={"default": chosen})
    for public_id, value in cleaned.items():
        seat = seats[public_id]
        if seat.notify != value:
            seat.notify = value
            seat.save(update_fields=["notify"])
