"""/staff/status/: site staff see how the site is doing (its services, the live games, the queue and the
report builds); teachers and anyone signed out do not."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from config import metrics
from games.models import Heartbeat
from reports.models import ReportBuild
from tests.factories import UserFactory
from tests.games.test_consumer import _running_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(UserFactory(is_staff=True))
    return client


def _figure(html: str, label: str) -> str:
    found = re.search(rf"<dt>{re.escape(label)}</dt>\s*<dd[^>]*>(.*?)</dd>", html, re.DOTALL)
    assert found, f"no {label!r} on the page"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_site_staff_see_the_figures(
    staff_client, class_7b, ms_rivera, ava, ben, riverside, tmp_path, monkeypatch, settings
):
    from config.celery import app

    settings.REDIS_URL = ""  # the embedded broker's folder, whatever the run's services

    _running_table(class_7b, ms_rivera, [ava, ben])
    Heartbeat.objects.create(name="clock", beat_at=timezone.now() - timedelta(seconds=5))
    finished = timezone.now() - timedelta(minutes=3)
    ReportBuild.objects.create(
        scope="classroom",
        school=riverside,
        classroom=class_7b,
        status="done",
        started_at=finished - timedelta(seconds=2.5),
        finished_at=finished,
    )
    ReportBuild.objects.create(scope="student", school=riverside, classroom=class_7b)  # waiting
    monkeypatch.setitem(app.conf.broker_transport_options, "data_folder_in", str(tmp_path))
    for number in range(2):
        (tmp_path / f"{number}_id.celery.msg").write_text("{}")

    held = sum(metrics.live_connections().values())  # this process's: connections other tests left count
    response = staff_client.get(reverse("system_status"))
    assert response.status_code == 200
    html = response.content.decode()
    assert _figure(html, "Games running") == "1"
    assert _figure(html, "Lobbies open") == "0"
    assert _figure(html, "Tasks waiting in the queue") == "2"
    assert _figure(html, "Report builds waiting") == "1"
    last = _figure(html, "Last report build")
    assert "One class" in last and "Ready" in last and "3\xa0minutes ago" in last and "took 2.5 s" in last
    assert "Working" in _figure(html, "Database")
    clock = _figure(html, "Game clock")
    assert "Working" in clock and "last heartbeat" in clock
    assert _figure(html, "Game connections") == str(held)
    assert response["Cache-Control"].startswith("max-age=0")


def test_a_stopped_clock_and_an_unreadable_queue_are_shown_as_failing(staff_client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    html = staff_client.get(reverse("system_status")).content.decode()
    assert "Failing" in _figure(html, "Redis") and "ConnectionError" in _figure(html, "Redis")
    assert "no heartbeat yet" in _figure(html, "Game clock")
    assert "could not be read" in _figure(html, "Tasks waiting in the queue")
    assert _figure(html, "Last report build") == "None yet"


def test_a_teacher_is_refused(client, ms_rivera):
    client.force_login(ms_rivera)
    response = client.get(reverse("system_status"))
    assert response.status_code == 403
    assert "Tasks waiting" not in response.content.decode()


def test_someone_signed_out_is_sent_to_sign_in(client):
    response = client.get(reverse("system_status"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_the_link_is_in_the_navigation_of_site_staff_only(staff_client, client, ms_rivera):
    link = f'href="{reverse("system_status")}"'
    assert link in staff_client.get(reverse("preferences")).content.decode()
    staff_client.logout()
    client.force_login(ms_rivera)
    assert link not in client.get(reverse("preferences")).content.decode()


def test_the_page_is_translated(staff_client):
    html = staff_client.get(reverse("system_status"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Estado del sistema" in html


def test_with_redis_the_connections_of_every_running_web_process_are_shown(
    staff_client, settings, monkeypatch
):
    import time

    from games.realtime import balance

    now = time.time()
    posted = {
        b"web-a": f"12:{now}".encode(),
        b"web-b": f"30:{now}".encode(),
        b"stopped": f"5:{now - 90}".encode(),
    }

    class Posted:
        def hgetall(self, key):
            assert key == balance.KEY
            return posted

        def close(self):
            pass

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(balance.SyncRedis, "from_url", lambda *args, **kwargs: Posted())
    html = staff_client.get(reverse("system_status")).content.decode()
    assert _figure(html, "Game connections") == "42"
    assert "web-a" in html and "web-b" in html and "stopped" not in html
