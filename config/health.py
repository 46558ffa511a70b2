"""``/healthz``: is every part of Classplay working? For the reverse proxy and the school's monitors.

200 with ``{"status": "ok", "checks": {...}}`` when the database (and Redis, where it is configured)
answers and the game clock has swept lately; 503 otherwise. The Celery worker's heartbeat (queued by beat
every minute) is reported too; it fails the check only where beat runs (``HEALTH_REQUIRE_WORKER``, on
with real services), since ``make run`` has a worker but no beat. No secret or personal data is shown.

Which part failed, and how, is shown only to a caller on the server itself (not through the proxy) and to
signed-in site staff (``is_staff``); anyone else gets ``{"status": "ok"}`` or ``{"status": "failing"}``
with the same status code, so the public address names none of the services behind it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from games.models import Heartbeat

from .proxy import is_local_caller

#: The clock beats every 15 s, the worker every 60 s: this long without one, it is not running.
CLOCK_STALE = timedelta(seconds=60)
WORKER_STALE = timedelta(seconds=180)


def _database() -> dict:
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"ok": True, "ms": round(1000 * (time.perf_counter() - started), 1)}


def _redis() -> dict:
    if not settings.REDIS_URL:
        return {"ok": True, "used": False}
    started = time.perf_counter()
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    finally:
        client.close()
    return {"ok": True, "used": True, "ms": round(1000 * (time.perf_counter() - started), 1)}


def _heartbeat(name: str, stale: timedelta, required: bool) -> dict:
    beat = Heartbeat.objects.filter(name=name).values_list("beat_at", flat=True).first()
    age = None if beat is None else (timezone.now() - beat).total_seconds()
    alive = age is not None and age <= stale.total_seconds()
    return {"ok": alive or not required, "alive": alive, "seconds_since": None if age is None else round(age)}


def _check(function, *args) -> dict:
    try:
        return function(*args)
    except Exception as error:  # a check that cannot run has failed; say which kind of failure
        return {"ok": False, "error": type(error).__name__}


def checks() -> dict[str, dict]:
    """Each part's check (the database, Redis, the clock's and the worker's heartbeats); each says ``ok``.
    Also read by the staff's status page (config/status.py)."""
    results = {"database": _check(_database), "redis": _check(_redis)}
    database_up = results["database"]["ok"]
    results["clock"] = _check(_heartbeat, "clock", CLOCK_STALE, True) if database_up else {"ok": False}
    required = settings.HEALTH_REQUIRE_WORKER
    results["worker"] = _check(_heartbeat, "worker", WORKER_STALE, required) if database_up else {"ok": False}
    return results


@never_cache
def healthz(request):
    results = checks()
    healthy = all(check["ok"] for check in results.values())
    report = {"status": "ok" if healthy else "failing"}
    if shows_details(request):
        report["checks"] = results
    return JsonResponse(report, status=200 if healthy else 503)


def shows_details(request) -> bool:
    """Whether this caller may see how each part is doing: a caller on the server itself (not through the
    proxy) or signed-in site staff. ``/metrics`` serves its figures by the same rule."""
    if is_local_caller(request):
        return True
    try:
        return request.user.is_staff
    except DatabaseError:  # the session cannot be read (the database is down): the status is all they get
        return False
