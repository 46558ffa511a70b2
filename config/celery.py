"""The Celery app. Broker and result store come from settings (embedded filesystem or Redis)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("classplay")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

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
