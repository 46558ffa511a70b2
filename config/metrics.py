"""``/metrics``: Prometheus figures for the site's operators (docs/deploy.md, "Metrics and alerts").

Served only to a caller on the server itself and to signed-in site staff, by the rule ``/healthz`` uses for
its details (``config.health.shows_details``); anyone else gets 403. What it serves:

* ``classplay_http_requests_total`` and ``classplay_http_request_duration_seconds``: every page and API
  request, by the view's name (never the raw path: one series per view, not per student or session),
  method and status (:class:`RequestMetricsMiddleware`);
* the live games' figures (games/metrics.py) and the report builds' (reports/metrics.py);
* read when scraped (:class:`ScrapeCollector`): ``classplay_celery_queue_depth``, the tasks waiting in the
  broker, and ``classplay_heartbeat_age_seconds``, how long ago the game clock and the worker last beat.

With ``PROMETHEUS_MULTIPROC_DIR`` set (an empty directory, shared by every Classplay process of the
machine), each process writes its figures there and any web process serves them all together: the other
web processes' requests and connections, the clock's, the worker's report builds. Without it each process
serves only its own (one web process and ``make run``'s worker in a process of its own: the report builds
are then not seen).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import redis
from django.conf import settings
from django.db import DatabaseError
from django.http import HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily

from games import metrics as game_metrics
from games.models import Heartbeat
from reports import metrics as report_metrics  # noqa: F401  (described here even before a build)

from .celery import app as celery_app
from .health import shows_details

disable_created_metrics()  # (a "_created" series beside every one doubles what is stored, for nothing)
REQUESTS = Counter(
    "classplay_http_requests_total",
    "HTTP requests answered, by view name, method and status code.",
    ["view", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "classplay_http_request_duration_seconds",
    "Time to answer an HTTP request (the middleware chain and the view), by view name and method.",
    ["view", "method"],
)
#: Any other method is counted as "other": a client cannot make new series by inventing methods.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: The broker's queues (Celery's default; the project routes no task elsewhere).
QUEUES = ("celery",)
#: kombu's Redis transport keeps a queue's messages of priority 3, 6 and 9 in lists of their own.
REDIS_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def view_name(request) -> str:
    """The label a request is counted under: its URL pattern's name, ``static`` for a file WhiteNoise
    served, ``unmatched`` for a path no pattern matched (a 404: never the path itself)."""
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name or match.route or "unnamed"
    if request.path.startswith(settings.STATIC_URL):
        return "static"
    return "unmatched"


class RequestMetricsMiddleware:
    """Counts and times every request. First in the chain: its time is the whole of Django's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        method = request.method if request.method in METHODS else "other"
        view = view_name(request)
        REQUESTS.labels(view=view, method=method, status=str(response.status_code)).inc()
        REQUEST_SECONDS.labels(view=view, method=method).observe(time.perf_counter() - started)
        return response


# --- The Celery queue, read when scraped --------------------------------------------------------------


def queue_depth() -> dict[str, int]:
    """Tasks waiting in each queue. With Redis: the length of the queue's lists. With the embedded broker
    (kombu's filesystem transport): the message files waiting in its folder, which is the same figure
    (a message's file is removed when a worker takes it). Raises if the broker cannot be read."""
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        try:
            pipe = client.pipeline(transaction=False)
            for queue in QUEUES:
                for suffix in REDIS_PRIORITY_SUFFIXES:
                    pipe.llen(queue + suffix)
            lengths = pipe.execute()
        finally:
            client.close()
        per_queue = len(REDIS_PRIORITY_SUFFIXES)
        return {queue: sum(lengths[i * per_queue : (i + 1) * per_queue]) for i, queue in enumerate(QUEUES)}
    folder = Path(celery_app.conf.broker_transport_options["data_folder_in"])  # (as the worker reads it)
    names = [entry.name for entry in os.scandir(folder)]
    return {queue: sum(name.endswith(f".{queue}.msg") for name in names) for queue in QUEUES}


class ScrapeCollector:
    """What is read when scraped, not counted as it happens: ``classplay_celery_queue_depth`` per queue
    and ``classplay_celery_broker_up`` (0 when the broker could not be read: then no depth is given,
    rather than a made-up 0); ``classplay_heartbeat_age_seconds`` of the game clock and the worker (their
    last beat in the database, as /healthz reads it; none before the first)."""

    def collect(self):
        yield from self._queue()
        yield from self._heartbeats()

    def _queue(self):
        up = GaugeMetricFamily("classplay_celery_broker_up", "Whether the Celery broker could be read.")
        try:
            depths = queue_depth()
        except Exception:  # Redis out, the folder gone: the scrape still answers
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        depth = GaugeMetricFamily(
            "classplay_celery_queue_depth", "Celery tasks waiting in the broker, by queue.", labels=["queue"]
        )
        for queue, waiting in depths.items():
            depth.add_metric([queue], waiting)
        yield depth

    def _heartbeats(self):
        age = GaugeMetricFamily(
            "classplay_heartbeat_age_seconds",
            "Seconds since the game clock's (every 15 s) or the Celery worker's (every 60 s) last heartbeat.",
            labels=["process"],
        )
        try:
            beats = dict(
                Heartbeat.objects.filter(name__in=("clock", "worker")).values_list("name", "beat_at")
            )
        except DatabaseError:  # the database is out: /healthz says so; no age is made up
            beats = {}
        now = timezone.now()
        for name, beat_at in sorted(beats.items()):
            age.add_metric([name], max(0.0, (now - beat_at).total_seconds()))
        yield age


# --- Reading the figures --------------------------------------------------------------------------------


class _Sources:
    """What one scrape collects (``generate_latest`` needs only ``collect``)."""

    def __init__(self, *sources):
        self.sources = sources

    def collect(self):
        for source in self.sources:
            yield from source.collect()


def process_figures():
    """Every process's figures (with ``PROMETHEUS_MULTIPROC_DIR``), else this process's."""
    directory = multiprocess_dir()
    if directory is None:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)
    return registry


def live_connections() -> dict[str, int]:
    """Game connections by role: every web process's with ``PROMETHEUS_MULTIPROC_DIR``, else this one's."""
    counts = dict.fromkeys(game_metrics.ROLES, 0)
    for family in process_figures().collect():
        if family.name == "classplay_live_connections":
            for sample in family.samples:
                role = sample.labels.get("role")
                if role in counts:
                    counts[role] += int(sample.value)
    return counts


def forget_dead_processes() -> None:
    """The live gauges (``classplay_live_connections``) of processes that are gone, whose files stay in
    ``PROMETHEUS_MULTIPROC_DIR`` after a crash: a web process removes them as it starts."""
    directory = multiprocess_dir()
    if directory is None:
        return
    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = int(path.stem.rpartition("_")[2])
        if not _alive(pid):
            multiprocess.mark_process_dead(pid, directory)


def forget_this_process() -> None:
    """At a web process's shutdown: its connections are no longer counted."""
    directory = multiprocess_dir()
    if directory is not None:
        multiprocess.mark_process_dead(os.getpid(), directory)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


# --- The page -------------------------------------------------------------------------------------------


@never_cache
def metrics_view(request):
    if not shows_details(request):
        return HttpResponse(
            "Metrics are shown to site staff and to callers on the server itself.\n",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    body = generate_latest(_Sources(process_figures(), ScrapeCollector()))
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
