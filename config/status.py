"""``/staff/status/``: how the site is doing, for site staff (``is_staff``) only. The same checks as
``/healthz`` (config/health.py), the live games, the Celery queue and the report builds, read when the
page is asked for; nothing about any student."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from games import selectors as game_selectors
from games.realtime import balance
from reports import selectors as report_selectors

from . import health, metrics


def _queue() -> dict:
    try:
        return {"ok": True, "depths": metrics.queue_depth()}
    except Exception as error:  # the broker cannot be read: say so, the page still shows
        return {"ok": False, "error": type(error).__name__}


def _connections() -> dict:
    """Game connections: per web process as each posts them in Redis, else this process's (or, with
    ``PROMETHEUS_MULTIPROC_DIR``, every process's) by role."""
    by_role = metrics.live_connections()
    processes = sorted(balance.posted_counts().items())
    total = sum(count for _name, count in processes) if processes else sum(by_role.values())
    return {
        "total": total,
        "by_role": by_role,
        "processes": processes,
        "all": bool(metrics.multiprocess_dir()),
    }


@never_cache
@login_required
def system_status(request):
    if not request.user.is_staff:
        raise PermissionDenied
    last = report_selectors.last_finished_build()
    context = {
        "checks": health.checks(),
        "connections": _connections(),
        "sessions": game_selectors.sessions_now(),
        "queue": _queue(),
        "builds_waiting": report_selectors.builds_waiting(),
        "last_build": last,
        "last_build_seconds": (last.finished_at - last.started_at).total_seconds()
        if last is not None and last.started_at
        else None,
    }
    return render(request, "staff/status.html", context)
