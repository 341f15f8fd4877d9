"""A message e-mailed to a reader who has no page of the campaign open (the service decides when: not more often than
rules_engine.messages.MAIL_GAP while the messages stay unread)."""
from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns_app import engine
from campaigns_app.models import Seat
from campaigns_app.notify import deliver


def email_message(public_id: str, side: str, writer_side: str, text: str, more: int = 0) -> bool:
    """E-mail the player of ``side`` the message (``more``: the messages written since the last e-mail that were not
    e-mailed); True when sent."""
    seat = Seat.objects.filter(campaign__public_id=public_id, side=side).select_related("user", "campaign").first()
    if seat is None or not seat.user.email:
        return False
    system = engine.system_for(seat.campaign)
    writer = Seat.objects.filter(campaign=seat.campaign, side=writer_side).select_related("user").first()
    context = {"player": seat.user.get_username(), "campaign": seat.campaign.name,
               "writer": writer.user.get_username() if writer else "Your opponent",
               "writer_side": engine.side_name(system, writer_side), "text": text, "more": more,
               "url": settings.SITE_URL + reverse("campaign_detail", args=[public_id]) + "#messages"}
    return deliver.deliver(seat, f"{seat.campaign.name}: a message from {context['writer']}",
                           render_to_string("email/message.txt", context),
                           f"A message from {context['writer']} ({context['writer_side']}): {text}")
