"""/healthz tells a proxy or a monitor whether the database, Redis, the game clock and the Celery worker
are alive, without showing anything private."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import clock
from games.models import Heartbeat
from games.tasks import worker_heartbeat

pytestmark = pytest.mark.django_db


def test_healthy_when_the_database_answers_and_the_clock_sweeps(client, settings):
    settings.HEALTH_REQUIRE_WORKER = False
    clock.tick(check_lobbies=True)
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["checks"]["database"]["ok"] and body["checks"]["clock"]["alive"]
    assert response["Cache-Control"].startswith("max-age=0")


def test_a_stopped_clock_fails_the_check(client, settings):
    settings.HEALTH_REQUIRE_WORKER = False
    Heartbeat.objects.create(name="clock", beat_at=timezone.now() - timedelta(minutes=5))
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["checks"]["clock"] == {"ok": False, "alive": False, "seconds_since": 300}


def test_the_worker_is_required_where_beat_runs(client, settings):
    settings.HEALTH_REQUIRE_WORKER = True
    clock.tick(check_lobbies=True)
    assert client.get(reverse("healthz")).status_code == 503  # no worker heartbeat yet
    worker_heartbeat.apply()
    assert client.get(reverse("healthz")).json()["checks"]["worker"]["alive"]
    assert client.get(reverse("healthz")).status_code == 200


def test_redis_down_fails_the_check(client, settings):
    settings.HEALTH_REQUIRE_WORKER = False
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    clock.tick(check_lobbies=True)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == {"ok": False, "error": "ConnectionError"}


def test_running_games_says_whether_an_upgrade_must_wait(class_7b, ms_rivera, ava, capsys):
    from django.core.management import call_command

    from tests.factories import started_session

    call_command("running_games")
    assert "No game is open or under way." in capsys.readouterr().out
    started_session(class_7b, ms_rivera, [ava], "faces")
    with pytest.raises(SystemExit) as exited:
        call_command("running_games")
    assert exited.value.code == 1
    assert "(live, Running)" in capsys.readouterr().out
