"""The Celery app. Broker and result store come from settings (embedded filesystem or Redis)."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.db import close_old_connections

from games.realtime.db import keep_sqlite_connections  # no models: safe before the apps load

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("classplay")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# --- Database connections of a prefork worker --------------------------------------------------------
# Celery's Django fix-up closes every connection, and with a prefork pool the whole psycopg pool too,
# before and after every task unless CELERY_DB_REUSE_MAX is set (read under that literal name): each
# learning-facts task then opened a pool (its threads) and a new PostgreSQL connection (a new server
# process), a third of the worker's CPU with a thousand homework games. The fix-up still closes them in
# each new child (inherited ones must not be shared) and every DB_REUSE_MAX * 2 tasks; between tasks the
# connection goes back to the process's pool as after a web request (below), which checks it before
# lending it again, so one broken by a database restart is not used.
app.conf["CELERY_DB_REUSE_MAX"] = 5000


def _connections_back_to_pool(sender=None, **kwargs) -> None:
    """What Django does around a request: a connection past its age (with a pool: every one) or broken
    goes back. Not for an eager task, which runs inside its caller's transaction. A SQLite connection
    (the embedded worker's) is kept unless a call on it failed: with ``CONN_MAX_AGE`` at 0 every task
    opened a new one (a tenth of the worker's time at 1000 homework games)."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    keep_sqlite_connections()
    close_old_connections()


task_prerun.connect(_connections_back_to_pool, weak=False, dispatch_uid="classplay.db_prerun")
task_postrun.connect(_connections_back_to_pool, weak=False, dispatch_uid="classplay.db_postrun")

# --- Beat: nightly report builds, the daily purge of expired facts, and the worker's heartbeat ------
from celery.schedules import crontab  # noqa: E402

app.conf.beat_schedule = {
    **(app.conf.beat_schedule or {}),
    "reports-nightly-build": {"task": "reports.nightly", "schedule": crontab(hour=2, minute=15)},
    "reports-purge-expired-facts": {"task": "reports.purge", "schedule": crontab(hour=3, minute=30)},
    "reports-expire-stale-builds": {"task": "reports.expire_stale", "schedule": 120.0},
    "lti-nightly-roster-sync": {"task": "integrations.nightly", "schedule": crontab(hour=1, minute=45)},
    "worker-heartbeat": {"task": "games.worker_heartbeat", "schedule": 60.0},
}
# --- end beat --------------------------------------------------------------------------------------------
