"""With CLASSPLAY_REQUIRE_SERVICES=1 (CI), the suite must really run on PostgreSQL and Redis: a missing
service fails here instead of the suite quietly falling back to the embedded defaults."""

import os

import pytest
from django.conf import settings
from django.db import connection

REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"
pytestmark = pytest.mark.skipif(not REQUIRED, reason="embedded mode: services are not required")


@pytest.mark.django_db
def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_redis_answers_for_cache_channels_and_celery():
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    assert client.ping()
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.channel_layers.RedisLayer"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert "redis" in settings.CACHES["default"]["BACKEND"].lower()


def test_chromium_is_installed_for_the_browser_tests():
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    assert os.access(path, os.X_OK), f"no chromium at {path}"
