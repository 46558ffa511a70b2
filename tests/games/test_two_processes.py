"""Scale-out and fault tolerance with the real services: two server processes on loopback share one
session through Redis and PostgreSQL (the teacher on one, students on the other, both see every update),
and a server process killed mid-session loses no accepted action: clients reconnect, resync by sequence
number and play on."""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from importlib import import_module
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from games import services
from games.models import GameTable

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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``uvicorn config.asgi:application`` in its own process, on the test database."""

    def __init__(self, port: int):
        self.port, self.process = port, None

    def start(self) -> "Server":
        db = connection.settings_dict
        env = {
            **os.environ,
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CLASSPLAY_CLOCK_IN_PROCESS": "0",
            "DJANGO_SETTINGS_MODULE": "config.settings",
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
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, self.process.stderr.read().decode()[-2000:]
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                assert time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@pytest.fixture
def servers(real_services):
    started = [Server(_free_port()).start(), Server(_free_port()).start()]
    yield started
    for server in started:
        server.kill()


def _cookie(**values) -> str:
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in values.items():
        store[key] = value
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def _student_cookie(student) -> str:
    from classrooms.middleware import STUDENT_SESSION_KEY

    return _cookie(**{STUDENT_SESSION_KEY: student.pk})


def _teacher_cookie(user) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    return _cookie(
        **{
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )


class Client:
    """A device: one websocket, every message kept, the last sequence number per table."""

    def __init__(self, base: str, session_id: int, cookie: str, role: str):
        self.url = f"{base}/ws/sessions/{session_id}/?as={role}"
        self.cookie, self.messages, self.last_seq = cookie, [], {}

    async def connect(self):
        import websockets

        self.socket = await websockets.connect(
            self.url, additional_headers=[("Cookie", self.cookie), ("Origin", "http://127.0.0.1")]
        )
        await self.socket.send(json.dumps({"type": "hello", "last_seq": self.last_seq}))
        return self

    async def until(self, predicate, timeout=10):
        end = time.monotonic() + timeout
        while True:
            raw = await asyncio.wait_for(self.socket.recv(), timeout=max(0.05, end - time.monotonic()))
            message = json.loads(raw)
            # A bundle carries several messages in one frame (a session change with its tables).
            for inner in message["messages"] if message["type"] == "bundle" else [message]:
                self.messages.append(inner)
                if inner["type"] == "table":
                    self.last_seq[str(inner["table"])] = inner["seq"]
                if predicate(inner):
                    return inner

    async def act(self, table_id, key, action):
        await self.socket.send(
            json.dumps({"type": "action", "table": table_id, "key": key, "action": action})
        )
        return await self.until(lambda m: m.get("key") == key)


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
        "teacher": _teacher_cookie(ms_rivera),
        "ava": _student_cookie(ava),
        "ben": _student_cookie(ben),
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
    cookie = _student_cookie(ava)
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
