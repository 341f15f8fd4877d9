"""Production settings (issue 10.7): with DEBUG off, `manage.py check --deploy` reports nothing; HTTPS settings come from
the environment and are off for a plain-HTTP local run; DEBUG off refuses the console e-mail backend unless allowed."""
from __future__ import annotations

import os
import re
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


CADDYFILE = ROOT / "docs" / "Caddyfile"
HEALTH_CHECK = """
from django.test import Client
status = Client().get({uri!r}, headers={headers!r}).status_code
print("STATUS", status)
"""


def caddy_health_check() -> tuple[str, dict[str, str]]:
    """The health check's URI and the headers docs/Caddyfile configures for it."""
    text = CADDYFILE.read_text(encoding="utf-8")
    uri = re.search(r"^\s*health_uri\s+(\S+)\s*$", text, re.M)
    block = re.search(r"^\s*health_headers\s*\{\n(.*?)^\s*\}", text, re.M | re.S)
    assert uri and block, "docs/Caddyfile configures health_uri and health_headers"
    headers = dict(line.strip().split(None, 1) for line in block.group(1).splitlines() if line.strip())
    return uri.group(1), headers


def health_status(uri: str, headers: dict[str, str]) -> int:
    result = run(["shell", "-c", HEALTH_CHECK.format(uri=uri, headers=headers)], **PRODUCTION)
    status = [line for line in result.stdout.splitlines() if line.startswith("STATUS ")]
    assert status, result.stdout + result.stderr
    return int(status[-1].split()[1])


def test_caddys_health_check_as_configured_gets_200_from_a_worker_under_production_settings() -> None:
    uri, headers = caddy_health_check()
    assert headers.get("Host") == PRODUCTION["ALLOWED_HOSTS"], "the health check names the site (docs/Caddyfile)"
    assert health_status(uri, headers) == 200
    # without those headers (Caddy's default: the upstream's address, no X-Forwarded-Proto) every worker fails it
    assert health_status(uri, {"Host": "127.0.0.1:8001"}) == 400
    assert health_status(uri, {"Host": headers["Host"]}) == 301  # no X-Forwarded-Proto: redirected to HTTPS


POOL = "from django.conf import settings as s; d = s.DATABASES['default']; print('POOL', d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'])"
POSTGRES = "postgres://refit@127.0.0.1:5432/refit"


def pool_line(**env: str) -> str:
    result = run(["shell", "-c", POOL], **PRODUCTION, DATABASE_URL=POSTGRES, **env)
    lines = [line for line in result.stdout.splitlines() if line.startswith("POOL ")]
    assert lines, result.stdout + result.stderr
    return lines[-1]


def test_the_connection_pool_is_on_by_default_with_postgresql_and_off_with_a_max_size_of_zero() -> None:
    clean = {"DB_POOL_MAX_SIZE": "", "DB_POOL_MIN_SIZE": "", "DB_CONN_MAX_AGE": ""}
    assert pool_line(**clean) == "POOL {'min_size': 2, 'max_size': 4, 'timeout': 10.0} 0"
    assert pool_line(**{**clean, "DB_POOL_MAX_SIZE": "1"}) == "POOL {'min_size': 1, 'max_size': 1, 'timeout': 10.0} 0"
    assert pool_line(**{**clean, "DB_POOL_MAX_SIZE": "0", "DB_CONN_MAX_AGE": "60"}) == "POOL None 60"


def test_persistent_connections_are_refused_together_with_the_pool() -> None:
    refused = run(["check"], **PRODUCTION, DATABASE_URL=POSTGRES, DB_POOL_MAX_SIZE="", DB_CONN_MAX_AGE="60")
    assert refused.returncode != 0
    assert "DB_CONN_MAX_AGE cannot be combined with the connection pool" in refused.stderr
