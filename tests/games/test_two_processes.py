"""Scale-out and fault tolerance with the real services: two server processes on loopback share one
session through Redis and PostgreSQL (the teacher on one, students on the other, both see every update),
and a server process killed mid-session loses no accepted action: clients reconnect, resync by sequence
number and play on."""

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import services
from games.models import GameTable
from tests.live import Client, free_port, kill, student_cookie, teacher_cookie, until_listening

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("CLASSPLAY_REQUIRE_SERVICES") == "1"


@pytest.fixture
def real_services():
    missing = not settings.REDIS_URL or connection.vendor != "postgresql"
    if missing and REQUIRED:
        pytest.fail("two-process tests need REDIS_URL and a PostgreSQL DATABASE_URL in CI")
    if missing:
        pytest.skip("set DATABASE_URL (PostgreSQL) and REDIS_URL to run the two-process tests")


class Server:
    """``uvicorn config.asgi:application`` in its own process, on the test database."""

    def __init__(self, port: int, **env):
        self.port, self.process, self.env = port, None, env

    def start(self) -> "Server":
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CLASSPLAY_CLOCK_IN_PROCESS": "0",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **self.env,
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--ws-per-message-deflate",
                "false",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            # A file, not a pipe nobody reads: a server logging an outage must never block on a full pipe.
            stderr=tempfile.TemporaryFile(),  # noqa: SIM115 (the process holds it; gone with it)
        )
        until_listening(self.port, self.process, "server", seconds=30)
        return self

    def kill(self) -> None:
        kill(self.process)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@pytest.fixture
def servers(real_services):
    started = [Server(free_port()).start(), Server(free_port()).start()]
    yield started
    for server in started:
        server.kill()


def _session(classroom, teacher, students):
    session = services.session_schedule(
        classroom=classroom, by=teacher, game="lineup", scheduled_for=timezone.now() + timedelta(minutes=1)
    )
    services.session_open_lobby(session=session, by=teacher)
    for student in students:
        services.session_join(session=session, student=student)
    services.session_start(session=session, by=teacher)
    return GameTable.objects.get(session=session)


def test_two_server_processes_share_a_session(servers, class_7b, ms_rivera, ava, ben):
    table = _session(class_7b, ms_rivera, [ava, ben])
    cookies = {
        "teacher": teacher_cookie(ms_rivera),
        "ava": student_cookie(ava),
        "ben": student_cookie(ben),
    }
    session = table.session

    async def scenario():
        teacher = await Client(servers[0].url, table.session_id, cookies["teacher"], "teacher").connect()
        students = [
            await Client(servers[1].url, table.session_id, cookies[name], "student").connect()
            for name in ("ava", "ben")
        ]
        for client in [teacher, *students]:
            await client.until(lambda m: m["type"] == "table")
        ack = await students[0].act(table.pk, "move-1", {"type": "rack", "order": [2, 1, 3, 4, 5]})
        assert ack["type"] == "ack", ack
        # The teacher, on the other process, sees the change; so does the other student.
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] == ack["seq"])
        await students[1].until(lambda m: m["type"] == "table" and m["seq"] == ack["seq"])
        # A change made outside both processes (the teacher's pause) reaches everyone through Redis.
        await asyncio.to_thread(services.session_pause, session=session, by=ms_rivera)
        for client in [teacher, *students]:
            await client.until(lambda m: m["type"] == "session" and m["session"]["status"] == "paused")
        for client in [teacher, *students]:
            await client.socket.close()

    asyncio.run(scenario())


def test_a_killed_server_loses_no_accepted_action_and_the_game_goes_on(
    servers, class_7b, ms_rivera, ava, ben
):
    table = _session(class_7b, ms_rivera, [ava, ben])
    cookie = student_cookie(ava)
    server = servers[1]

    async def scenario():
        device = await Client(server.url, table.session_id, cookie, "student").connect()
        await device.until(lambda m: m["type"] == "table")
        ack = await device.act(table.pk, "before-crash", {"type": "rack", "order": [3, 1, 2, 4, 5]})
        assert ack["type"] == "ack"
        server.kill()  # mid-session, without warning
        await asyncio.to_thread(server.start)
        device = await Client(server.url, table.session_id, cookie, "student").connect()
        device.last_seq = {}
        view = await device.until(lambda m: m["type"] == "table")
        assert view["seq"] == ack["seq"]
        assert view["view"]["my_team"]["rack"] == [3, 1, 2, 4, 5]
        # The same key again after the crash is recognised, not applied twice; a new move goes on.
        again = await device.act(table.pk, "before-crash", {"type": "rack", "order": [3, 1, 2, 4, 5]})
        assert again["duplicate"] is True and again["seq"] == ack["seq"]
        after = await device.act(table.pk, "after-crash", {"type": "rack", "order": [1, 2, 3, 4, 5]})
        assert after["type"] == "ack" and after["seq"] == ack["seq"] + 1
        await device.socket.close()

    asyncio.run(scenario())


class PrivateRedis:
    """A redis-server of this test's own on a free port (the suite's Redis is shared: never stop it)."""

    def __init__(self):
        self.port, self.process = free_port(), None

    def start(self) -> "PrivateRedis":
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        until_listening(self.port, self.process, "redis-server", seconds=10)
        return self

    def stop(self) -> None:
        kill(self.process)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.fixture
def private_redis(real_services):
    redis = PrivateRedis().start()
    yield redis
    redis.stop()


def test_a_redis_restart_mid_session_loses_no_move_and_the_game_goes_on(
    private_redis, class_7b, ms_rivera, ava, ben
):
    """Redis stops under a live session and comes back empty (no persistence). The server's sockets
    drop with it (Channels reads each connection's channel from Redis); devices reconnect once it is
    back, as live.js does, resend their unacknowledged move with its key, and every screen sees it."""
    table = _session(class_7b, ms_rivera, [ava, ben])
    cookies = {"teacher": teacher_cookie(ms_rivera), "ava": student_cookie(ava)}
    server = Server(free_port(), REDIS_URL=private_redis.url).start()

    async def connect(cookie, role, last_seq):
        """Reconnect with a short backoff until the server takes the device again (Redis is back)."""
        for _attempt in range(60):
            client = Client(server.url, table.session_id, cookie, role)
            client.last_seq = dict(last_seq)
            try:
                return await client.connect()
            except Exception:
                await asyncio.sleep(0.5)
        raise AssertionError("the server never took the device back")

    async def scenario():
        teacher = await connect(cookies["teacher"], "teacher", {})
        device = await connect(cookies["ava"], "student", {})
        for client in (teacher, device):
            await client.until(lambda m: m["type"] == "table")
        before = await device.act(table.pk, "before", {"type": "rack", "order": [3, 1, 2, 4, 5]})
        assert before["type"] == "ack"
        private_redis.stop()
        move = {
            "type": "table",
            "table": table.pk,
            "key": "during",
            "action": {"type": "rack", "order": [2, 1, 3, 4, 5]},
        }
        try:  # the device's move during the outage: acknowledged, or its socket drops first
            await device.socket.send(json.dumps({**move, "type": "action"}))
            reply = await device.until(lambda m: m.get("key") == "during", timeout=5)
        except Exception:
            reply = None
        await asyncio.to_thread(private_redis.start)
        device = await connect(cookies["ava"], "student", device.last_seq)
        teacher = await connect(cookies["teacher"], "teacher", teacher.last_seq)
        again = await device.act(table.pk, "during", move["action"])  # live.js resends what was unacked
        assert again["type"] == "ack", again
        if reply is not None and reply["type"] == "ack":
            assert again["duplicate"] and again["seq"] == reply["seq"]
        assert again["seq"] == before["seq"] + 1, "applied exactly once"
        view = await teacher.until(lambda m: m["type"] == "table" and m["seq"] >= again["seq"], timeout=10)
        assert view["seq"] == again["seq"]
        # Later moves reach the teacher through the new Redis as before.
        after = await device.act(table.pk, "after", {"type": "rack", "order": [1, 2, 3, 4, 5]})
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] == after["seq"], timeout=10)
        for client in (teacher, device):
            await client.socket.close()

    try:
        asyncio.run(scenario())
    finally:
        server.kill()


def test_the_devices_stay_connected_through_a_redis_restart(private_redis, class_7b, ms_rivera, ava, ben):
    """The connections wait Redis out instead of closing (config.channel_layers.RedisLayer): a move made
    while it is down is acknowledged (the game is in the database), and once Redis is back, empty, the
    teacher's screen gets it and every later move over the same sockets (the hub joins its groups again)."""
    table = _session(class_7b, ms_rivera, [ava, ben])
    cookies = {"teacher": teacher_cookie(ms_rivera), "ava": student_cookie(ava)}
    server = Server(free_port(), REDIS_URL=private_redis.url).start()

    async def scenario():
        teacher = await Client(server.url, table.session_id, cookies["teacher"], "teacher").connect()
        device = await Client(server.url, table.session_id, cookies["ava"], "student").connect()
        for client in (teacher, device):
            await client.until(lambda m: m["type"] == "table")
        before = await device.act(table.pk, "before", {"type": "rack", "order": [3, 1, 2, 4, 5]})
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] == before["seq"], timeout=10)
        private_redis.stop()
        during = await device.act(table.pk, "during", {"type": "rack", "order": [2, 1, 3, 4, 5]})
        assert during["type"] == "ack" and during["seq"] == before["seq"] + 1
        await asyncio.to_thread(private_redis.start)
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] >= during["seq"], timeout=15)
        after = await device.act(table.pk, "after", {"type": "rack", "order": [1, 2, 3, 4, 5]})
        await teacher.until(lambda m: m["type"] == "table" and m["seq"] == after["seq"], timeout=10)
        assert teacher.socket.close_code is None and device.socket.close_code is None  # never dropped
        for client in (teacher, device):
            await client.socket.close()

    try:
        asyncio.run(scenario())
    finally:
        server.kill()
