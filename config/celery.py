"""The Celery app. Broker and result store come from settings (embedded filesystem or Redis)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("classplay")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
