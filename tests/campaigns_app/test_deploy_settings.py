"""Production settings (issue 10.7): with DEBUG off, `manage.py check --deploy` reports nothing; HTTPS settings come from
the environment and are off for a plain-HTTP local run; DEBUG off refuses the console e-mail backend unless allowed."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k9$Xq2!vLr8#Zt5@Wm1^Bn7&Jc4*Hd6(Pf3)Gs0-Ey9_Ua2+Io8=Te5"
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "refit.example.org",
              "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "PROXY_SSL_HEADER": "X-Forwarded-Proto"}
SHOW = ("from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, "
        "s.SESSION_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER)")


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "EMAIL_BACKEND", "REFIT_PLAIN_HTTP",
                                                              "REFIT_ALLOW_CONSOLE_EMAIL", "PROXY_SSL_HEADER")}
    clean["DJANGO_SETTINGS_MODULE"] = "campaigns_app.settings"  # production's settings, not the suite's tests.settings
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env={**clean, **env}, capture_output=True,
                          text=True, timeout=120)


def test_check_deploy_reports_no_warning_with_debug_off() -> None:
    result = run(["check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_is_https_only_with_the_proxy_header_from_the_environment() -> None:
    result = run(["shell", "-c", SHOW], **PRODUCTION)
    assert result.stdout.split("\n")[-2] == "True 31536000 True ('HTTP_X_FORWARDED_PROTO', 'https')", result.stderr


def test_a_plain_http_local_run_turns_the_https_settings_off() -> None:
    env = {**PRODUCTION, "REFIT_PLAIN_HTTP": "1"}
    del env["PROXY_SSL_HEADER"]
    result = run(["shell", "-c", SHOW], **env)
    assert result.stdout.split("\n")[-2] == "False 0 False None", result.stderr


def test_debug_off_refuses_to_start_with_the_console_email_backend_unless_allowed() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_BACKEND"}
    refused = run(["check"], **env)
    assert refused.returncode != 0
    assert "DEBUG is off but e-mail goes to the console" in refused.stderr
    allowed = run(["check"], **env, REFIT_ALLOW_CONSOLE_EMAIL="1")
    assert allowed.returncode == 0, allowed.stderr
