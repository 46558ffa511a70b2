"""While Redis is down, students and staff still sign in: the cache falls back to the database's
cache table (rate limits keep counting, across processes), and goes back to Redis when it answers."""

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse

from classrooms.middleware import STUDENT_SESSION_KEY
from config.cache import FailSoftRedisCache
from tests.classrooms.test_student_signin import signin
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1
CACHES_WITH_REDIS_DOWN = {
    "default": {"BACKEND": "config.cache.FailSoftRedisCache", "LOCATION": DEAD_REDIS},
    "fallback": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "classplay_cache"},
}


def test_the_cache_serves_from_the_database_while_redis_is_down():
    cache = FailSoftRedisCache(DEAD_REDIS, {"OPTIONS": {"FALLBACK": "fallback"}})
    cache.set("limit:device", 3, 60)
    assert cache.incr("limit:device") == 4
    assert caches["fallback"].get("limit:device") == 4


@override_settings(CACHES=CACHES_WITH_REDIS_DOWN)
def test_a_student_and_a_teacher_sign_in_while_redis_is_down(client, class_7b, ava, ms_rivera):
    caches._settings = None
    try:
        assert client.post(reverse("join"), {"code": class_7b.join_code}).status_code == 302
        assert signin(client, class_7b, ava, "4821").status_code == 302
        assert client.session[STUDENT_SESSION_KEY] == ava.pk
        client.post(reverse("student_signout"))
        response = client.post(reverse("account_login"), {"login": ms_rivera.email, "password": PASSWORD})
        assert response.status_code == 302
    finally:
        caches._settings = None
