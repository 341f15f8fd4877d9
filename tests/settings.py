"""Settings for the test suite: Refit's own settings (campaigns_app.settings, from the environment) as a local
plain-HTTP run that prints e-mails — what `make run` sets too. Production's HTTPS-only settings and the refusal of the
console e-mail backend are tested in subprocesses with a production environment (test_deploy_settings.py)."""
from __future__ import annotations

import os

os.environ.setdefault("REFIT_PLAIN_HTTP", "1")
os.environ.setdefault("REFIT_ALLOW_CONSOLE_EMAIL", "1")

from campaigns_app.settings import *  # noqa: E402,F403
