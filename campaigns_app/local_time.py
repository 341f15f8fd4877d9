"""A moment as players read it: a <time> that static/refit.js shows in the reader's own time zone, UTC without it."""
from __future__ import annotations

from datetime import datetime

from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString


def local_time(moment: datetime, short: bool = False) -> SafeString:
    """``<time datetime="…" data-local>5 Dec 2026, 14:00 UTC</time>`` (deadlines, pauses, overdue lines, notes, secret
    rolls); ``short``: day and minute, ``<time … data-local="short" class="muted small">5 Dec, 14:00 UTC</time>`` (a
    message's time)."""
    shown = timezone.localtime(moment)
    if short:
        return format_html('<time datetime="{}" data-local="short" class="muted small">{} UTC</time>',
                           shown.isoformat(), dateformat.format(shown, "j M, H:i"))
    return format_html('<time datetime="{}" data-local>{} UTC</time>', shown.isoformat(),
                       dateformat.format(shown, "j M Y, H:i"))
