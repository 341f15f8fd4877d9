"""The reminder e-mails: before a deadline, and once when it has passed."""
from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns_app import door, engine
from campaigns_app.models import Seat
from campaigns_app.notify import deliver

SUBJECTS = {"soon": "{campaign}: your move is due soon", "overdue": "{campaign}: your move is overdue"}


def email_reminder(public_id: str, side: str, reminder: str, deadline: datetime) -> bool:
    """E-mail the player of ``side`` a reminder; True when sent."""
    seat = Seat.objects.filter(campaign__public_id=public_id, side=side).select_related("user", "campaign").first()
    if seat is None or not seat.user.email:
        return False
    campaign = seat.campaign
    system = door.system_of(campaign)
    context = {"player": seat.user.get_username(), "campaign": campaign.name, "reminder": reminder,
               "side": engine.side_name(system, side), "owes": door.side_view(campaign, side).owes,
               "deadline": deadline.strftime("%A %d %B %Y, %H:%M UTC"),
               "url": settings.SITE_URL + reverse("campaign_detail", args=[public_id])}
    subject = SUBJECTS[reminder]
    return deliver.deliver(seat, subject.format(campaign=campaign.name), render_to_string("email/reminder.txt", context),
                           f"{deliver.sentence(subject)} (by {context['deadline']}).")
