"""/metrics: the figures an operator's Prometheus scrapes, served only to site staff and to a caller on the
server itself (the rule /healthz's details follow). Each named figure is there once what it measures has
happened: requests, game connections, fan-out lag, move acknowledgements, the Celery queue, report builds.
(The test client's address is 127.0.0.1: a caller on the server.)"""

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from config import metrics
from games import metrics as game_metrics
from tests.factories import UserFactory
from tests.games.test_consumer import _running_table, connect, receive_until

OUTSIDE = "203.0.113.9"
ROOT = Path(__file__).resolve().parent.parent


def _scrape(client=None, **extra) -> str:
    response = (client or Client()).get(reverse("metrics"), **extra)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("text/plain; version=")
    return response.content.decode()


def _value(text: str, name: str, **labels) -> float:
    """A sample's value in the exposition text (labels in any order), 0 when absent."""
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        sample, _sep, value = line.rpartition(" ")
        metric, _brace, label_text = sample.partition("{")
        found = dict(re.findall(r'(\w+)="([^"]*)"', label_text))
        if metric == name and all(found.get(key) == str(wanted) for key, wanted in labels.items()):
            return float(value)
    return 0.0


# --- Who may read it ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_caller_from_outside_is_refused():
    response = Client().get(reverse("metrics"), REMOTE_ADDR=OUTSIDE)
    assert response.status_code == 403
    assert b"classplay_" not in response.content


@pytest.mark.django_db
def test_a_caller_through_the_servers_own_proxy_is_refused():
    response = Client().get(reverse("metrics"), REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=OUTSIDE)
    assert response.status_code == 403


@pytest.mark.django_db
def test_a_signed_in_teacher_from_outside_is_refused(ms_rivera):
    client = Client()
    client.force_login(ms_rivera)
    assert client.get(reverse("metrics"), REMOTE_ADDR=OUTSIDE).status_code == 403


@pytest.mark.django_db
def test_site_staff_may_read_it_from_anywhere():
    client = Client()
    client.force_login(UserFactory(is_staff=True))
    assert "classplay_celery_queue_depth" in _scrape(client, REMOTE_ADDR=OUTSIDE)


@pytest.mark.django_db
def test_a_caller_on_the_server_may_read_it():
    text = _scrape()
    for name in (
        "classplay_fanout_lag_seconds",
        "classplay_move_ack_seconds",
        "classplay_report_build_seconds",
    ):
        assert f"# TYPE {name} histogram" in text
    assert "# TYPE classplay_live_connections gauge" in text


# --- Requests -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_requests_are_counted_and_timed_by_view_never_by_path():
    client = Client()
    before = _scrape(client)
    status = client.get(reverse("healthz")).status_code
    client.get("/no/such/page/12345/")
    after = _scrape(client)
    counted = {"view": "healthz", "method": "GET", "status": status}
    assert _value(after, "classplay_http_requests_total", **counted) >= (
        _value(before, "classplay_http_requests_total", **counted) + 1
    )
    assert _value(after, "classplay_http_request_duration_seconds_count", view="healthz", method="GET") >= 1
    assert _value(after, "classplay_http_requests_total", view="unmatched", method="GET", status=404) >= 1
    assert "12345" not in after


@pytest.mark.django_db
def test_a_made_up_method_does_not_make_a_series_of_its_own():
    client = Client()
    client.generic("BREW", reverse("healthz"))
    text = _scrape(client)
    assert "BREW" not in text
    assert _value(text, "classplay_http_requests_total", view="healthz", method="other") >= 1


# --- The live games -----------------------------------------------------------------------------------


@pytest.fixture
def table(class_7b, ms_rivera, ava, ben):
    return _running_table(class_7b, ms_rivera, [ava, ben])


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_connections_moves_and_fanout_are_measured(table, student_client, ms_rivera, ava):
    before = await sync_to_async(_scrape)()
    student, connected = await connect(await sync_to_async(student_client)(ava), table.session_id)
    assert connected
    teacher_client = Client()
    await sync_to_async(teacher_client.force_login)(ms_rivera)
    teacher, connected = await connect(teacher_client, table.session_id, role="teacher")
    assert connected
    await receive_until(teacher, "table")
    during = await sync_to_async(_scrape)()
    assert _value(during, "classplay_live_connections", role="player") == (
        _value(before, "classplay_live_connections", role="player") + 1
    )
    assert _value(during, "classplay_live_connections", role="teacher") == (
        _value(before, "classplay_live_connections", role="teacher") + 1
    )

    move = {
        "type": "action",
        "table": table.pk,
        "key": "k-1",
        "action": {"type": "rack", "order": [2, 1, 3, 4, 5]},
    }
    lag_before = _count(game_metrics.FANOUT_LAG)
    await student.send_to(text_data=json.dumps(move))
    await receive_until(student, "ack")
    await receive_until(teacher, "table")  # the move, fanned out to the console
    await _until(lambda: _count(game_metrics.FANOUT_LAG) > lag_before)
    after_move = await sync_to_async(_scrape)()
    for name in ("classplay_move_ack_seconds_count", "classplay_fanout_lag_seconds_count"):
        assert _value(after_move, name) >= _value(before, name) + 1, name
    assert (
        _value(after_move, "classplay_move_ack_seconds_sum")
        - _value(before, "classplay_move_ack_seconds_sum")
        > 0
    )

    await student.disconnect()
    await teacher.disconnect()
    after = await sync_to_async(_scrape)()
    for role in ("player", "teacher"):
        assert _value(after, "classplay_live_connections", role=role) == _value(
            before, "classplay_live_connections", role=role
        )


def _count(histogram) -> float:
    return next(s.value for s in next(iter(histogram.collect())).samples if s.name.endswith("_count"))


async def _until(condition, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.01)


def test_the_fanout_lag_runs_from_the_commit_stamp_of_the_oldest_change_waiting():
    from games.realtime import fanout

    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}
    hub._table_dirty = lambda session_id, table_id: None

    async def run():
        await hub.dispatch({"type": "table.changed", "session": 7, "table": 3, "seq": 4, "at": 100.0})
        await hub.dispatch({"type": "table.changed", "session": 7, "table": 3, "seq": 5, "at": 100.5})
        await hub.dispatch({"type": "table.changed", "session": 7, "table": 3, "seq": 6})  # (an older sender)

    asyncio.run(run())
    assert hub.changed_at == {3: 100.0}


def _sum(histogram) -> float:
    return next(s.value for s in next(iter(histogram.collect())).samples if s.name.endswith("_sum"))


@pytest.mark.parametrize("sent", [30, 0])
def test_the_lag_is_observed_when_the_table_went_out_and_only_then(sent):
    from games.realtime import fanout

    hub = fanout.SessionHub()
    hub.sessions[7] = {object()}

    async def table_changed(session_id, table_id, consumers):
        return sent  # devices sent (0: every connection had it already, from a session update)

    hub._table_changed = table_changed
    count, total = _count(game_metrics.FANOUT_LAG), _sum(game_metrics.FANOUT_LAG)

    async def run():
        await hub.dispatch(
            {"type": "table.changed", "session": 7, "table": 3, "seq": 4, "at": time.time() - 0.3}
        )
        await _until(lambda: 3 not in hub.table_jobs)

    asyncio.run(run())
    if sent:
        assert _count(game_metrics.FANOUT_LAG) == count + 1
        assert 0.3 <= _sum(game_metrics.FANOUT_LAG) - total < 5
    else:
        assert _count(game_metrics.FANOUT_LAG) == count
    assert hub.changed_at == {}


def test_collected_changes_of_a_table_keep_the_first_commits_stamp():
    from games import broadcast

    collection = broadcast.Collected()
    group, key = "classplay.session.7", ("classplay.session.7", "table.changed", 3)
    collection.add(group, {"type": "table.changed", "table": 3, "seq": 4, "at": 100.0}, key)
    collection.add(group, {"type": "table.changed", "table": 3, "seq": 5, "at": 100.2}, key)
    assert collection.messages[key] == (group, {"type": "table.changed", "table": 3, "seq": 5, "at": 100.0})


@pytest.mark.django_db
def test_a_table_change_is_stamped_at_its_commit(django_capture_on_commit_callbacks, monkeypatch):
    from games import broadcast

    sent = []
    monkeypatch.setattr(broadcast, "_send", lambda group, message, table=None: sent.append(message))
    with django_capture_on_commit_callbacks(execute=True):
        broadcast.table_changed(7, 3, 4)
        committed = time.time()
    assert sent and abs(sent[0]["at"] - committed) < 1.0
    assert {key: sent[0][key] for key in ("type", "session", "table", "seq")} == {
        "type": "table.changed",
        "session": 7,
        "table": 3,
        "seq": 4,
    }


def test_observing_a_figure_costs_microseconds():
    """The live fan-out and every move observe once: it must stay far below a millisecond."""
    rounds = 20_000
    started = time.perf_counter()
    for _ in range(rounds):
        game_metrics.FANOUT_LAG.observe(0.05)
    observe = (time.perf_counter() - started) / rounds
    started = time.perf_counter()
    for _ in range(rounds):
        game_metrics.connection_opened("player")
        game_metrics.connection_closed("player")
    gauge = (time.perf_counter() - started) / rounds / 2
    print(f"observe: {observe * 1e6:.2f} µs, gauge step: {gauge * 1e6:.2f} µs")
    assert observe < 50e-6 and gauge < 50e-6  # measured ~1-2 µs; the bound leaves room for a busy machine


# --- The Celery queue ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_embedded_brokers_waiting_messages_are_the_queue_depth(tmp_path, monkeypatch, settings):
    from config.celery import app

    settings.REDIS_URL = ""  # the embedded broker, whatever the run's services

    monkeypatch.setitem(app.conf.broker_transport_options, "data_folder_in", str(tmp_path))
    for number in range(3):
        (tmp_path / f"{number}_id.celery.msg").write_text("{}")
    (tmp_path / "9_id.celery.msg.part").write_text("")  # still being written: not waiting yet
    text = _scrape()
    assert _value(text, "classplay_celery_queue_depth", queue="celery") == 3
    assert _value(text, "classplay_celery_broker_up") == 1


class FakeRedis:
    lists = {"celery": 4, "celery\x06\x163": 2, "celery\x06\x169": 1, "other": 50}

    def pipeline(self, transaction):
        calls = []

        class Pipe:
            def llen(self, name):
                calls.append(name)

            def execute(self):
                return [FakeRedis.lists.get(name, 0) for name in calls]

        return Pipe()

    def close(self):
        pass


@pytest.mark.django_db
def test_with_redis_the_queue_depth_adds_up_the_queues_priority_lists(settings, monkeypatch):
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    monkeypatch.setattr(metrics.redis.Redis, "from_url", lambda *args, **kwargs: FakeRedis())
    assert metrics.queue_depth() == {"celery": 7}


@pytest.mark.django_db
def test_a_broker_that_cannot_be_read_gives_no_depth_and_says_so(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    text = _scrape()
    assert _value(text, "classplay_celery_broker_up") == 0
    assert "classplay_celery_queue_depth{" not in text


# --- Several processes ----------------------------------------------------------------------------------


def test_with_a_multiprocess_directory_every_process_is_served_and_a_dead_ones_connections_go(
    tmp_path, monkeypatch, db
):
    """Another process (a second web process, the worker) writes its figures to the shared directory;
    this one serves them. Once that process is gone, its connections are no longer counted (a web
    process forgets them as it starts), while what it measured stays."""
    script = (
        "from games import metrics\n"
        "from reports.metrics import REPORT_BUILD_SECONDS\n"
        "metrics.connection_opened('player'); metrics.connection_opened('player')\n"
        "metrics.MOVE_ACK.observe(0.2)\n"
        "REPORT_BUILD_SECONDS.labels(scope='school', outcome='done').observe(31.0)\n"
    )
    environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=environment, check=True, timeout=60)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    text = _scrape()
    assert _value(text, "classplay_live_connections", role="player") == 2
    assert _value(text, "classplay_move_ack_seconds_count") == 1
    assert _value(text, "classplay_report_build_seconds_sum", scope="school", outcome="done") == 31.0
    metrics.forget_dead_processes()
    text = _scrape()
    assert _value(text, "classplay_live_connections", role="player") == 0
    assert _value(text, "classplay_move_ack_seconds_count") == 1


@pytest.mark.django_db
def test_the_clock_and_worker_heartbeats_are_served_as_ages():
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Heartbeat

    assert "classplay_heartbeat_age_seconds{" not in _scrape()  # no beat yet: no age made up
    Heartbeat.objects.create(name="clock", beat_at=timezone.now() - timedelta(seconds=20))
    age = _value(_scrape(), "classplay_heartbeat_age_seconds", process="clock")
    assert 20 <= age < 30
