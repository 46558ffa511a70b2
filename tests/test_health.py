"""/healthz tells a proxy or a monitor whether the database, Redis, the game clock and the Celery worker
are alive, without showing anything private. Which part failed, and how, is for a caller on the server
itself and for site staff: the public, even through the server's own proxy, gets ok or failing only.
(The test client's address is 127.0.0.1: a caller on the server.)"""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import clock
from games.models import Heartbeat
from games.tasks import worker_heartbeat
from tests.factories import UserFactory

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


OUTSIDE = "203.0.113.9"


def _redis_down(settings):
    settings.HEALTH_REQUIRE_WORKER = False
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    clock.tick(check_lobbies=True)


def test_a_caller_from_outside_learns_only_ok_or_failing(client, settings):
    settings.HEALTH_REQUIRE_WORKER = False
    clock.tick(check_lobbies=True)
    healthy = client.get(reverse("healthz"), REMOTE_ADDR=OUTSIDE)
    assert (healthy.status_code, healthy.json()) == (200, {"status": "ok"})
    _redis_down(settings)
    failing = client.get(reverse("healthz"), REMOTE_ADDR=OUTSIDE)
    assert (failing.status_code, failing.json()) == (503, {"status": "failing"})
    assert b"redis" not in failing.content.lower() and b"ConnectionError" not in failing.content


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded_for"),
    [
        ([], "127.0.0.1", OUTSIDE),  # the proxy on this machine, TRUSTED_PROXY_IPS unset
        (["127.0.0.1"], "127.0.0.1", OUTSIDE),  # the proxy trusted: the client is the outside address
        (["127.0.0.1"], "127.0.0.1", f"127.0.0.1, {OUTSIDE}"),  # the client wrote a loopback address itself
        (["127.0.0.1"], "127.0.0.1", "127.0.0.1"),  # through the proxy, even from this machine
    ],
    ids=["proxy-not-trusted", "proxy-trusted", "client-wrote-loopback", "forwarded-from-loopback"],
)
def test_a_request_the_proxy_forwarded_gets_no_details(settings, trusted, peer, forwarded_for):
    settings.TRUSTED_PROXY_IPS = trusted
    _redis_down(settings)
    response = Client().get(reverse("healthz"), REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded_for)
    assert (response.status_code, response.json()) == (503, {"status": "failing"})


def test_a_caller_on_the_server_itself_sees_which_part_failed(client, settings):
    _redis_down(settings)
    for address in ("127.0.0.1", "::1"):
        response = client.get(reverse("healthz"), REMOTE_ADDR=address)
        assert response.status_code == 503
        assert response.json()["checks"]["redis"] == {"ok": False, "error": "ConnectionError"}


def test_site_staff_see_the_details_from_anywhere_and_teachers_do_not(client, settings, ms_rivera):
    _redis_down(settings)
    client.force_login(ms_rivera)
    assert client.get(reverse("healthz"), REMOTE_ADDR=OUTSIDE).json() == {"status": "failing"}
    client.force_login(UserFactory(is_staff=True))
    response = client.get(reverse("healthz"), REMOTE_ADDR=OUTSIDE)
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
