"""A player's choice of campaign e-mails (issue 13): a default for all campaigns (one row per user, with the daily
digest's queue) and, on the seat, an optional override for one campaign (``Seat.notify``, "" = the default)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Notify(models.TextChoices):
    """What a player receives about a campaign."""

    EACH = "each", "Every e-mail"
    DIGEST = "digest", "One daily digest"
    NONE = "none", "No e-mail"


DIGEST_MAX_LINES = 100  # lines kept per player until the next digest; older ones are dropped and counted


class NotificationSetting(models.Model):
    """A player's default for all campaigns and the lines waiting for the next daily digest (never shown to anyone
    else; every line holds only words an e-mail to that player would hold)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_setting")
    default = models.CharField(max_length=10, choices=Notify.choices, default=Notify.EACH)
    # [{"campaign": public id, "name": campaign name, "line": words}, …] oldest first, at most DIGEST_MAX_LINES
    queue = models.JSONField(default=list, blank=True)
    dropped = models.PositiveIntegerField(default=0, help_text="Lines dropped from a full queue since the last digest.")
    digest_sent_on = models.DateField(null=True, blank=True, help_text="The UTC day the last digest went out.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(default__in=["each", "digest", "none"]), name="notify_default_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.default}"
