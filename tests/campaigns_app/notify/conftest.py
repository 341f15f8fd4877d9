"""The notification tests' fixture: `manage.py send_digests` run at a fixed moment."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command


@pytest.fixture
def digests(django_capture_on_commit_callbacks: Any) -> Callable[[datetime], str]:
    """Run `manage.py send_digests --now` as the scheduler would."""
    def run(moment: datetime) -> str:
        out = StringIO()
        with django_capture_on_commit_callbacks(execute=True):
            call_command("send_digests", now=moment.isoformat(), stdout=out)
        return out.getvalue().strip()
    return run
