"""Refit settings: every deployment-specific value comes from the environment.

Embedded default (``make run``): SQLite file + in-memory channel layer, console e-mail, DEBUG off (players never see
Django's debug pages; a developer opts in with ``DEBUG=1``), static files served by WhiteNoise from the source folders,
and a SECRET_KEY generated once into a local, untracked file (``.secret_key``).
Production: set SECRET_KEY, ALLOWED_HOSTS, SITE_URL, DATABASE_URL (PostgreSQL), REDIS_URL, STATIC_MANIFEST=1 (after
``collectstatic``) and the EMAIL_* variables.
"""
from __future__ import annotations

import os
import secrets
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_secret_key(path: Path) -> str:
    """The key kept in ``path`` (never committed: .gitignore), written there at random the first time (mode 600)."""
    try:
        key = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        key = ""
    if not key:
        key = secrets.token_urlsafe(50)
        try:  # O_EXCL: two processes starting at once keep the one key written first
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_text(encoding="utf-8").strip() or key
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(key + "\n")
    return key


DEBUG = env_bool("DEBUG", False)  # players never see a debug page: a developer opts in (`make run DEBUG=1`)
SECRET_KEY = os.environ.get("SECRET_KEY", "") or local_secret_key(
    Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key")))

# The CG Card builder posts one field per cell of a card's grids (calendar, RG charts, tables): a large card has
# more than Django's default 1000 fields. Still bounded (and the body by DATA_UPLOAD_MAX_MEMORY_SIZE).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 6000
# Public base URL used in e-mailed links ("your move" notices); `make run` sets it to the address it serves.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
_site_host = urlsplit(SITE_URL).hostname or ""
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ",".join(dict.fromkeys(["127.0.0.1", "localhost", "testserver", _site_host])))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",  # login throttling and lock-out (issue 10.6); configured under "Accounts" below
    "campaigns_app",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out login with the lock-out page
]

ROOT_URLCONF = "campaigns_app.urls"
ASGI_APPLICATION = "campaigns_app.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DB_POOL_DEFAULT_MAX_SIZE = 4  # per worker: its sync code runs on one thread, a few connections cover bursts
_conn_max_age = int(os.environ.get("DB_CONN_MAX_AGE", "0") or "0")
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=_conn_max_age,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Row locks do not exist in SQLite; IMMEDIATE transactions serialise writers instead.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["OPTIONS"]["timeout"] = 20

# PostgreSQL connection pool (Django's psycopg pool, docs/deploy.md), on by default: no request, and no websocket
# database call (Channels closes the connection after each one: the pool takes it back), opens a connection. At most
# DB_POOL_MAX_SIZE connections per worker process, so N workers × DB_POOL_MAX_SIZE stays below PostgreSQL's
# max_connections; DB_POOL_MAX_SIZE=0 turns the pool off (then DB_CONN_MAX_AGE may keep connections instead).
DB_POOL_MAX_SIZE = int(os.environ.get("DB_POOL_MAX_SIZE") or DB_POOL_DEFAULT_MAX_SIZE)  # unset or empty: the default
if DB_POOL_MAX_SIZE > 0 and DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    if _conn_max_age:  # Django refuses persistent connections with a pool: say which setting to change
        raise RuntimeError("DB_CONN_MAX_AGE cannot be combined with the connection pool: unset DB_CONN_MAX_AGE, or "
                           "turn the pool off with DB_POOL_MAX_SIZE=0 (docs/deploy.md).")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(int(os.environ.get("DB_POOL_MIN_SIZE") or "2"), DB_POOL_MAX_SIZE),
        "max_size": DB_POOL_MAX_SIZE,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT") or "10"),  # seconds a request waits for a free connection
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_PREFIX = os.environ.get("CHANNEL_PREFIX", "refit")  # of Refit's Redis keys: the channel layer's, the presence store's
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py's defaults (100 pooled connections, a read timeout equal to channels_redis's 5 s blocking
                # read) drop live sockets under load; measured with bench/reveal_latency.py at 400 open sockets.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
                        "socket_timeout": 15,
                    }
                ],
                "prefix": REDIS_PREFIX,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Who has a live page open, without Redis: a file beside the SQLite database, so the cron commands (send_reminders)
# see the pages the server holds (campaigns_app/live/presence_store.py). Empty: this process's memory only.
_sqlite_name = str(DATABASES["default"]["NAME"]) if DATABASES["default"]["ENGINE"].endswith("sqlite3") else ""
PRESENCE_FILE = os.environ.get("PRESENCE_FILE", "" if REDIS_URL or not _sqlite_name or _sqlite_name == ":memory:"
                               else _sqlite_name + ".presence.json")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaign_list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# STATIC_MANIFEST=1 (production, after `collectstatic`): hashed, compressed files from STATIC_ROOT. Otherwise (the
# embedded default, tests) WhiteNoise serves the files straight from the source folders, DEBUG on or off.
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", False)
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
if not STATIC_MANIFEST:  # no STATIC_ROOT is expected then: WhiteNoise need not say it found none
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Outgoing mail (Django 6.1 MAILERS). The environment names stay the familiar EMAIL_* ones.
# The default prints each e-mail decoded, its links whole (campaigns_app/notify/console.py): `make run` players copy them.
_email_backend = os.environ.get("EMAIL_BACKEND", "campaigns_app.notify.console.EmailBackend")
_email_options: dict[str, object] = {}
if _email_backend.endswith("smtp.EmailBackend"):
    _email_options = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "25")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", False),
        "use_ssl": env_bool("EMAIL_USE_SSL", False),
        "timeout": int(os.environ.get("EMAIL_TIMEOUT", "10")),
    }
elif _email_backend.endswith("filebased.EmailBackend"):
    _email_options = {"file_path": os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))}
MAILERS = {"default": {"BACKEND": _email_backend, "OPTIONS": _email_options}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Refit <refit@localhost>")

# Directory holding the CG system definitions (one YAML file per system).
REFIT_FIXTURES_DIR = Path(os.environ.get("REFIT_FIXTURES_DIR", BASE_DIR / "fixtures"))
REFIT_BENCH_ECHO = env_bool("REFIT_BENCH_ECHO", False)  # routes the benchmark's bare echo websocket (campaigns_app/echo.py)

# ----------------------------------------------------------------------------------------------------- accounts
# Log-in throttling (django-axes): after AXES_FAILURE_LIMIT failed log-ins for one account, or from one address, that
# account / address is locked out for AXES_COOLOFF_MINUTES; the page says when to try again (docs/deploy.md).
SESSION_ENGINE = "campaigns_app.sessions"  # Django's database sessions, read by a prepared query
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "campaigns_app.auth_backend.PreparedModelBackend",  # ModelBackend, the signed-in user read by a prepared query
    "django.contrib.auth.backends.ModelBackend",  # sessions signed in before it (their backend's path) stay signed in
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # each on its own: per account, and per address
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
# Behind a reverse proxy the client's address is the last one the proxy appends to X-Forwarded-For.
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0")) or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if AXES_IPWARE_PROXY_COUNT
                                     else ["REMOTE_ADDR"])

# ----------------------------------------------------------------------------------------------------- production
# With DEBUG off (docs/deploy.md): HTTPS only — cookies marked Secure, plain HTTP redirected, HSTS — unless
# REFIT_PLAIN_HTTP=1 (a local run over plain HTTP, `make run`). PROXY_SSL_HEADER names the header the reverse proxy
# sets to "https" (e.g. X-Forwarded-Proto); set it only behind a proxy that always sets or strips that header.
REFIT_PLAIN_HTTP = env_bool("REFIT_PLAIN_HTTP", False)
if not DEBUG:
    _https = not REFIT_PLAIN_HTTP or SITE_URL.startswith("https://")  # a site served over HTTPS is HTTPS-only
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _https)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _https)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _https)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if _https else "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _https)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", _https)
    _proxy_header = os.environ.get("PROXY_SSL_HEADER", "").strip()
    if _proxy_header:
        SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
    if _email_backend.endswith("console.EmailBackend") and not env_bool("REFIT_ALLOW_CONSOLE_EMAIL", False):
        raise RuntimeError(
            "DEBUG is off but e-mail goes to the console: set EMAIL_BACKEND (and EMAIL_HOST …, docs/deploy.md), or "
            "REFIT_ALLOW_CONSOLE_EMAIL=1 to print e-mails on purpose (a local run)."
        )

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
