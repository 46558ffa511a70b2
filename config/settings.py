"""Classplay settings: one module, driven by the environment, with embedded defaults.

With no variable set it runs on SQLite, the in-memory channel layer and an embedded Celery broker
(kombu's filesystem transport) - nothing to install. ``DATABASE_URL`` switches to PostgreSQL and
``REDIS_URL`` to the Redis channel layer, cache and Celery broker. ``DEBUG=false`` is production:
then ``SECRET_KEY`` (strong, by Django's rule) and ``ALLOWED_HOSTS`` (not ``*``) must be set, and the
secure cookie/HSTS settings apply.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONCE, NONE, SELF

from .env import env_bool, env_int, env_list, env_required, env_str, production_hosts, production_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("CLASSPLAY_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)
TESTING = "pytest" in sys.modules or env_bool("CLASSPLAY_TESTING", False)

DEBUG = env_bool("DEBUG", True)
#: The demo school's staff share one published password: load_demo runs only where DEBUG is on (kept
#: apart from DEBUG, which the test runner turns off).
DEMO_ALLOWED = DEBUG

if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY") or "classplay-local-development-key-not-for-production"
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
else:
    SECRET_KEY = production_secret_key("SECRET_KEY")
    ALLOWED_HOSTS = production_hosts("ALLOWED_HOSTS")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
#: Browser origins allowed to open the game websocket (besides ALLOWED_HOSTS).
WEBSOCKET_ALLOWED_ORIGINS = env_list("WEBSOCKET_ALLOWED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "classrooms",
    "questions",
    "games",
    "reports",
    "integrations",
]

# Optional single sign-on, turned on by settings alone (the secrets never live in the repo).
SOCIALACCOUNT_PROVIDERS: dict[str, dict] = {}
if env_str("GOOGLE_CLIENT_ID"):
    INSTALLED_APPS.append("allauth.socialaccount.providers.google")
    SOCIALACCOUNT_PROVIDERS["google"] = {
        "APPS": [{"client_id": env_str("GOOGLE_CLIENT_ID"), "secret": env_str("GOOGLE_CLIENT_SECRET", "")}],
        "SCOPE": ["profile", "email"],
    }
#: Google Classroom roster import: Google sign-in also asks to read the teacher's courses and their
#: students (read-only), and the token is kept (offline, so it can be refreshed) for the imports.
GOOGLE_CLASSROOM_ROSTERS = bool(env_str("GOOGLE_CLIENT_ID")) and env_bool("GOOGLE_CLASSROOM_ROSTERS", False)
if GOOGLE_CLASSROOM_ROSTERS:
    SOCIALACCOUNT_PROVIDERS["google"]["SCOPE"] += [
        "https://www.googleapis.com/auth/classroom.courses.readonly",
        "https://www.googleapis.com/auth/classroom.rosters.readonly",
    ]
    SOCIALACCOUNT_PROVIDERS["google"]["AUTH_PARAMS"] = {"access_type": "offline", "prompt": "consent"}
    SOCIALACCOUNT_STORE_TOKENS = True
if env_str("MICROSOFT_CLIENT_ID"):
    INSTALLED_APPS.append("allauth.socialaccount.providers.microsoft")
    SOCIALACCOUNT_PROVIDERS["microsoft"] = {
        "APPS": [
            {
                "client_id": env_str("MICROSOFT_CLIENT_ID"),
                "secret": env_str("MICROSOFT_CLIENT_SECRET", ""),
                "settings": {"tenant": env_str("MICROSOFT_TENANT", "organizations")},
            }
        ],
    }
if env_str("CLEVER_CLIENT_ID"):
    INSTALLED_APPS.append("allauth.socialaccount.providers.clever")
    SOCIALACCOUNT_PROVIDERS["clever"] = {
        "APPS": [{"client_id": env_str("CLEVER_CLIENT_ID"), "secret": env_str("CLEVER_CLIENT_SECRET", "")}],
    }
# ClassLink signs in through OpenID Connect (its LaunchPad is the issuer).
if env_str("CLASSLINK_CLIENT_ID"):
    INSTALLED_APPS.append("allauth.socialaccount.providers.openid_connect")
    SOCIALACCOUNT_PROVIDERS["openid_connect"] = {
        "APPS": [
            {
                "provider_id": "classlink",
                "name": "ClassLink",
                "client_id": env_str("CLASSLINK_CLIENT_ID"),
                "secret": env_str("CLASSLINK_CLIENT_SECRET", ""),
                "settings": {
                    "server_url": env_str("CLASSLINK_SERVER_URL", "https://launchpad.classlink.com"),
                    "token_auth_method": "client_secret_post",
                },
            }
        ],
    }

MIDDLEWARE = [
    # Every request counted and timed (/metrics), and named in its log lines (X-Request-ID).
    "config.metrics.RequestMetricsMiddleware",
    "config.logs.RequestContextMiddleware",
    "config.proxy.TrustedProxyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "classrooms.middleware.StudentSessionMiddleware",
    # Django's LocaleMiddleware, asking the signed-in student, teacher and school too (so after both).
    "classrooms.middleware.PreferredLanguageMiddleware",
    "classrooms.middleware.SchoolTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

#: Proxies whose ``X-Forwarded-For`` names the client (addresses or networks, comma-separated): the
#: address rate limits count by. None by default, not even this machine: a header from anyone else is
#: ignored (any local process or user could write it). The deploy recipe sets the proxy on 127.0.0.1.
TRUSTED_PROXY_IPS = env_list("TRUSTED_PROXY_IPS")

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

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
                "django.template.context_processors.i18n",
                "classrooms.context_processors.roles",
            ],
        },
    }
]

# --- The server process ---------------------------------------------------------------------------
#: Allocations between young garbage collections in the web server (config/asgi.py; CPython's default is 700).
CLASSPLAY_GC_THRESHOLD = env_int("CLASSPLAY_GC_THRESHOLD", 50_000)
#: Seconds between full garbage collections in the web server (config/asgi.py; 0: only CPython's own).
CLASSPLAY_GC_FULL_SECONDS = env_int("CLASSPLAY_GC_FULL_SECONDS", 60)
#: Whether a web process with more than its share of the game connections asks some devices to reconnect
#: (games/realtime/balance.py): "auto" does so only where a proxy picks the process a device reconnects
#: to (one process per port, as the deployment kit runs them), not under uvicorn's --workers.
CLASSPLAY_BALANCE_DEVICES = env_str("CLASSPLAY_BALANCE_DEVICES", "auto").lower()

# --- Database -------------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    # Under ASGI each request runs in a thread of its own, so persistent connections (CONN_MAX_AGE) would
    # leak one per thread; without them every database call opened a new connection. psycopg's pool,
    # shared by the process's threads, lends a connection per call and takes it back on close.
    # Health checks: after a database restart the pool still holds the old, dead connections; Django has
    # the pool check each (one empty query) before lending it, so the first request after does not fail.
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": env_int("DATABASE_POOL_SIZE", 8),
            # A request waiting longer for a free connection is told the server is busy (a device resends
            # its move), rather than holding a student's tap for 20 s.
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 8),
        }
        # The statements every move runs bind their values on the server (games/services/rows.py): one
        # run five times on a connection is prepared, so PostgreSQL plans it once. Django turns this off
        # for transaction-pooling proxies (PgBouncer), which cannot keep a connection's prepared
        # statements: set DATABASE_PREPARED_STATEMENTS=false behind one. (Django's other cursors bind
        # on the client and are never prepared.)
        if env_bool("DATABASE_PREPARED_STATEMENTS", True):
            DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5
else:
    DATABASES = {
        "default": {
            # Django's SQLite, with the process's writers taking turns on a lock of their own.
            "ENGINE": "config.sqlite",
            "NAME": VAR_DIR / "classplay.sqlite3",
            "OPTIONS": {
                # IMMEDIATE transactions take the write lock up front, which gives SQLite the same
                # one-writer-per-table guarantee select_for_update gives PostgreSQL.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests use a file too, not SQLite's shared in-memory database: there a write that meets
            # another thread's read (the live server's, the clock's) fails at once with "database table
            # is locked", where a file database waits for its turn like the real one.
            "TEST": {
                "NAME": str(VAR_DIR / f"test_classplay{os.environ.get('PYTEST_XDIST_WORKER', '')}.sqlite3")
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: cache, channel layer, Celery broker ------------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# Parallel test workers (pytest-xdist) share one Redis: each gets its own cache database (tests flush it)
# and its own channel-layer prefix (their test databases reuse the same session ids).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL:
    CACHE_URL = REDIS_URL
    if XDIST_WORKER:
        worker_db = 1 + int(XDIST_WORKER.removeprefix("gw") or 0)
        CACHE_URL = urlsplit(REDIS_URL)._replace(path=f"/{worker_db}").geturl()
    CACHES = {
        # Redis down: the database's cache table serves instead (sign-in and its rate limits keep working).
        "default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": CACHE_URL},
        "fallback": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "classplay_cache"},
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layers.RedisLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30, "prefix": f"asgi{XDIST_WORKER}"},
        }
    }
else:
    CACHES = {
        # Room for a big session's devices and students (classrooms.device_cache: two entries a device) and
        # the sign-in rate limits; the default 300 entries would be culled again and again by one class.
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "classplay",
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        },
        "fallback": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "classplay_cache"},
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layers.InMemoryLayer"}}

#: /healthz fails when the Celery worker's heartbeat stops (beat queues it): on with real services.
HEALTH_REQUIRE_WORKER = env_bool("HEALTH_REQUIRE_WORKER", bool(REDIS_URL))

# A production site with several web processes shares its sessions' live updates through Redis; without
# it each process would only tell its own connections, and players at one table would drift apart.
if not DEBUG and not REDIS_URL and env_int("WEB_CONCURRENCY", 4) > 1:  # the Procfile's default: 4
    from django.core.exceptions import ImproperlyConfigured

    raise ImproperlyConfigured(
        "REDIS_URL must be set when WEB_CONCURRENCY is more than 1: the web processes share live games "
        "through Redis"
    )

CELERY_DIR = VAR_DIR / "celery"
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    # Embedded broker and result store: plain files under var/, so `make run` needs no server.
    for sub in ("queue", "processed", "results", "control"):
        (CELERY_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://localhost//"  # (a host named, or kombu warns on every connection)
    CELERY_BROKER_TRANSPORT = "config.celery_broker:Transport"  # kombu's, each message written whole
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_DIR / "queue"),
        "data_folder_out": str(CELERY_DIR / "queue"),
        "processed_folder": str(CELERY_DIR / "processed"),
        "store_processed": False,
        "control_folder": str(CELERY_DIR / "control"),
    }
    CELERY_RESULT_BACKEND = f"file://{CELERY_DIR / 'results'}"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# --- Accounts (django-allauth) ---------------------------------------------------------------------
AUTH_USER_MODEL = "classrooms.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_SESSION_REMEMBER = None
ACCOUNT_ADAPTER = "classrooms.adapters.AccountAdapter"
#: The product's name in allauth's emails ("[Classplay] ...", "Hello from Classplay!"). Without the sites
#: framework allauth would take the request's host ("[127.0.0.1:8000] ...").
SITE_NAME = "Classplay"
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
SOCIALACCOUNT_ADAPTER = "classrooms.adapters.SocialAccountAdapter"
# Guessing protection: allauth's rate limits (per IP and per account) on login, failed logins,
# sign-up and password reset, backed by the cache (Redis when REDIS_URL is set).
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
}
SOCIALACCOUNT_EMAIL_AUTHENTICATION = True
SOCIALACCOUNT_EMAIL_AUTHENTICATION_AUTO_CONNECT = True
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "dashboard"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# --- Email -----------------------------------------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif DEBUG or env_bool("EMAIL_CONSOLE_ALLOWED", False):
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    # Password-reset and invitation links would be written to the server's log, where anyone who reads
    # the log could take the account over: production says where mail goes, or says it knows.
    env_required(
        "EMAIL_HOST",
        why="production (DEBUG=false) sends password-reset and invitation links by email; "
        "set EMAIL_CONSOLE_ALLOWED=true only where the server's log is as private as the mail",
    )
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Classplay <no-reply@classplay.invalid>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Sessions and security -------------------------------------------------------------------------
#: Database sessions that tell the game sockets' device cache when they change (classrooms.device_cache).
SESSION_ENGINE = "classrooms.sessions"
SESSION_COOKIE_AGE = 60 * 60 * 12  # a school day; shared devices should not stay signed in for weeks
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Only this server's own scripts, styles, pictures, sounds and connections: no inline script or style
# attribute (a script that slipped into a page through a name or an answer would not run), no framing.
# A page that ever needs an inline <script> gives it ``nonce="{{ request.csp_nonce }}"``.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "media-src": [SELF, "blob:"],  # Word Up's spoken words are fetched, then played from memory
        "connect-src": [SELF],  # fetch and the game's websocket, same host
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The browser features no page uses stay off, even for a script that got in.
PERMISSIONS_POLICY = {
    "camera": [],
    "microphone": [],
    "geolocation": [],
    "payment": [],
    "usb": [],
    "display-capture": [],
}
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # A monitor (or Prometheus) on the server asks a web process itself, over plain HTTP, for /healthz's
    # details and /metrics.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    # Preloading is a per-domain commitment a school makes itself (SECURE_HSTS_PRELOAD=true), not a default.
    SILENCED_SYSTEM_CHECKS = ["security.W021"]
    if env_bool("BEHIND_TLS_PROXY", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Internationalisation --------------------------------------------------------------------------
# How each page picks its language (the switcher, the student's, the teacher's, the school's, the
# browser's): classrooms/languages.py and docs/i18n.md. Names in their own language, as a switcher shows them.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("pt-br", "Português (Brasil)"), ("ar", "العربية")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/London")
USE_TZ = True

# --- Static files ----------------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# The game screens' morph library comes from the npm registry (package-lock.json, `make install` runs npm
# ci) and is served from node_modules/ as /static/vendor/idiomorph/idiomorph.js: never copied into static/.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/idiomorph", BASE_DIR / "node_modules" / "idiomorph" / "dist"),
]
MEDIA_URL = "/media/"
MEDIA_ROOT = VAR_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- Classplay -------------------------------------------------------------------------------------
#: Failed sign-in codes a student may enter before their card is locked for a while.
# Wrong codes for one login card (from any device) before the card is locked for devices it has never
# signed in on, and for how long: a student's own device still signs in, so a lockout is no weapon, and
# a guesser gets few tries (a teacher unlocks the whole class in one click).
STUDENT_SIGNIN_MAX_FAILURES = env_int("STUDENT_SIGNIN_MAX_FAILURES", 10)
STUDENT_SIGNIN_LOCK_MINUTES = env_int("STUDENT_SIGNIN_LOCK_MINUTES", 480)
# One device's wrong codes: these are free, then each further try waits twice as long (at most 5 min).
STUDENT_SIGNIN_FREE_TRIES = env_int("STUDENT_SIGNIN_FREE_TRIES", 3)
ROSTER_IMPORT_MAX_BYTES = env_int("ROSTER_IMPORT_MAX_BYTES", 1_000_000)
ROSTER_IMPORT_MAX_ROWS = env_int("ROSTER_IMPORT_MAX_ROWS", 2000)
#: Whole-school OneRoster zip: its size, and what its files may unpack to (together); rows per file.
ROSTER_SYNC_MAX_BYTES = env_int("ROSTER_SYNC_MAX_BYTES", 20_000_000)
ROSTER_SYNC_MAX_ROWS = env_int("ROSTER_SYNC_MAX_ROWS", 50_000)
#: Seconds to wait on a course platform (LTI: its key set at a launch, service tokens, class lists,
#: scores) before giving up: a slow LMS gets a clear error page, not a web worker held as long as it likes.
LTI_HTTP_TIMEOUT = env_int("LTI_HTTP_TIMEOUT", 5)
#: Embedded mode runs the game clock inside the server process; with Redis it is its own process.
CLASSPLAY_CLOCK_IN_PROCESS = env_bool("CLASSPLAY_CLOCK_IN_PROCESS", not REDIS_URL and not TESTING)
#: Days learning facts are kept before the daily clean-up (``reports.purge``) erases them (0: for ever).
REPORT_RETENTION_DAYS = env_int("REPORT_RETENTION_DAYS", 0)
#: Where ``manage.py backup_database`` writes the database's nightly dumps, and how many it keeps.
BACKUP_DIR = Path(env_str("BACKUP_DIR") or VAR_DIR / "backups")
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)

# --- Operations: logs, error reports (metrics: config/metrics.py, docs/deploy.md) -----------------------
#: "json": one JSON object a line (config/logs.py), for a log shipper; "plain" (the default): for people.
LOG_FORMAT = (env_str("LOG_FORMAT") or "plain").lower()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "config.logs.ContextFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["context"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
if LOG_FORMAT == "json":
    # uvicorn's and Celery's own lines in the same format: through this handler, not their own.
    LOGGING["loggers"].update(
        {name: {"handlers": ["console"], "propagate": False} for name in ("uvicorn", "uvicorn.access")}
    )
    CELERY_WORKER_HIJACK_ROOT_LOGGER = False

#: Error reports go to Sentry only where a DSN is set, with no personal data (config/sentry.py).
SENTRY_DSN = env_str("SENTRY_DSN")
if SENTRY_DSN:
    from .sentry import start as start_sentry

    start_sentry(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT") or ("development" if DEBUG else "production"),
        release=env_str("SENTRY_RELEASE") or None,
        traces_sample_rate=float(env_str("SENTRY_TRACES_SAMPLE_RATE") or 0),
    )

# WhiteNoise serves files through a synchronous iterator; under ASGI Django warns on every static file.
# Harmless for the few static files we serve (a proxy serves them in production).
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")
