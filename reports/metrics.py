"""How long the report builds take, for the site's operators (``/metrics``, config/metrics.py). Observed
in the Celery worker: its figures reach a web process's ``/metrics`` through ``PROMETHEUS_MULTIPROC_DIR``
(docs/deploy.md)."""

from __future__ import annotations

from prometheus_client import Histogram

#: A student's build takes well under a second, a school's about half a minute (docs/performance.md); the
#: task's own limit is 15 minutes.
REPORT_BUILD_SECONDS = Histogram(
    "classplay_report_build_seconds",
    "Time one report build took in the worker, by scope (session, student, classroom, homework, school) "
    "and outcome (done, failed).",
    ["scope", "outcome"],
    buckets=(0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0),
)
