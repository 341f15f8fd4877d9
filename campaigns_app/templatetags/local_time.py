"""``{{ moment|local_time }}``: campaigns_app.local_time in templates."""
from __future__ import annotations

from datetime import datetime

from django import template
from django.utils.safestring import SafeString

from campaigns_app import local_time as moments

register = template.Library()


@register.filter
def local_time(moment: datetime, form: str = "") -> SafeString:
    """The moment as a <time> shown in the reader's own time zone (UTC without JavaScript); ``"short"``: a message's
    day and minute."""
    return moments.local_time(moment, short=form == "short")
