"""`make run` prints e-mails to its console: a player copies the one-click settings link from there, so each e-mail is
printed decoded — the link on one line, whole, and the words as written (no quoted-printable "=E2=80=94")."""
from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.core.mail import EmailMessage

from campaigns_app.notify.console import EmailBackend

ROOT = Path(__file__).resolve().parents[3]
LINK = ("http://127.0.0.1:8123/notifications/link/aoKUd3uMVEqs7nMptXxKsA.canadian:1xWz8m"
        ":vafOR4I9NUr5loxWOhEZP7MQ5cXKNXS-5TDf_dWmA7E/")
BODY = ("Hello can,\n\nger has joined “Hill 112” (RR Campaign Game — Refit Phase) and plays the German side, a line "
        "well over seventy-eight characters.\n\nChoose which e-mails you get with one click:\n" + LINK + "\n")
SEND = (f"from django.core.mail import send_mail; send_mail('Hill 112: your opponent has joined', {BODY!r}, "
        "None, ['can@example.test'])")


def test_the_console_backend_prints_the_subject_the_reader_and_the_text_with_its_link_whole() -> None:
    stream = StringIO()
    sent = EmailBackend(stream=stream).send_messages([EmailMessage(
        "Hill 112: your opponent has joined", BODY, "Refit <refit@localhost>", ["can@example.test"])])
    printed = stream.getvalue()
    assert sent == 1
    assert "Subject: Hill 112: your opponent has joined\n" in printed
    assert "To: can@example.test\n" in printed
    assert "\n" + LINK + "\n" in printed
    assert "(RR Campaign Game — Refit Phase)" in printed
    assert "=E2=80" not in printed and "quoted-printable" not in printed
    assert printed.endswith("\n" + "-" * 79 + "\n")


def test_make_run_prints_an_e_mail_with_its_one_click_link_whole_on_the_console() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("EMAIL_BACKEND", "DJANGO_SETTINGS_MODULE")}
    env |= {"DEBUG": "0", "REFIT_PLAIN_HTTP": "1", "REFIT_ALLOW_CONSOLE_EMAIL": "1",
            "DJANGO_SETTINGS_MODULE": "campaigns_app.settings"}  # the environment `make run` gives (Makefile)
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEND], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "\n" + LINK + "\n" in done.stdout, done.stdout[-3000:]
    assert "Refit Phase)" in done.stdout and "=E2=80" not in done.stdout
