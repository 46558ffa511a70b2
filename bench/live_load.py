"""Benchmark: one live Line Up! session with N students, served by a real server process.

    .venv/bin/python bench/live_load.py --students 2000 --mode embedded
    .venv/bin/python bench/live_load.py --students 2000 --mode redis

A script, not a test. It makes a fresh database (embedded: a SQLite file in a temporary directory;
redis: the PostgreSQL database ``--pg-url``, by default ``classplay_live_bench`` on 127.0.0.1:5432,
dropped and remade, and a spare Redis database), creates a school, a class, a teacher and N students,
schedules a Line Up! session through ``games.services`` (Line Up! seats everyone on two teams at one
table), starts it and pauses it. Then it starts ``uvicorn config.asgi:application`` on loopback as a
separate process (plus ``manage.py run_clock`` in redis mode; embedded mode runs the clock inside the
server), opens one websocket per student (with a signed-in Django session cookie) plus the teacher's,
and measures:

1. delivery: from a phase change to the LAST client receiving it, for the teacher's resume and pause
   (posted to the console's control URLs), the teacher's "advance" (the deadline rule, now) and a real
   deadline fired by the clock. The phase change is timestamped by the server itself, from the state
   every client receives (a resume's new deadline minus the remaining time it froze, a pause's old
   deadline minus its remaining time, the ``at`` of the events a deadline logged, the deadline that
   was due), and compared with the client's receive time on the same machine;
2. a burst of answers: every student moves the team's cards in the same second (one action, unique
   key each); the time until every action has an ack or an error, acks, rules refusals, transport
   errors, and "lost" actions (neither); the log in the database is checked against the acks;
3. errors: failed connections, connections closed by the server, updates a client never received;
4. the server process's peak RSS (psutil, sampled every 50 ms).

Prints a table row per figure and one JSON line (``--json-out`` writes it to a file too).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
PG_URL = "postgres://postgres@127.0.0.1:5432/classplay_live_bench"
SEQ = re.compile(r'"seq":(\d+)')
SERVER_TIME = re.compile(r'"server_time":([0-9.e+-]+)')
#: A table message inside a bundle: the server writes its keys in this order (``selectors.table_views``).
TABLE_SEQ = re.compile(r'\{"type":"table","table":\d+,"number":\d+,"seq":(\d+)')
KEY_PREFIX = "bench-"


# --- set-up ------------------------------------------------------------------------------------------


def raise_fd_limit(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def environment(mode: str, var_dir: str, redis_db: int, database_url: str = PG_URL) -> dict[str, str]:
    """The server processes' environment: production settings over plain HTTP on loopback, one web
    process in embedded mode (the channel layer lives in it) and no mail."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        CLASSPLAY_VAR_DIR=var_dir,
        # Production settings (DEBUG off: no query log, no debug tooling), over plain HTTP on loopback.
        DEBUG="false",
        SECRET_KEY="live-load-benchmark-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        BEHIND_TLS_PROXY="false",
        LOG_LEVEL="WARNING",
        EMAIL_CONSOLE_ALLOWED="true",  # no mail is sent; the server refuses to start without it
        PYTHONUNBUFFERED="1",
    )
    env.pop("PYTEST_XDIST_WORKER", None)
    if mode == "embedded":
        env["WEB_CONCURRENCY"] = "1"  # one process holds the embedded channel layer
    if mode == "redis":
        env["DATABASE_URL"] = database_url
        env["REDIS_URL"] = f"redis://127.0.0.1:6379/{redis_db}"
    return env


def prepare(args, prefix: str) -> tuple[str, dict[str, str], int]:
    """Shared by the benchmarks: a temporary directory, the server processes' environment, a fresh
    database (redis mode: ``--pg-url`` dropped and made again, the Redis database flushed), Django set
    up in this process, migrated and its static files collected (the production server serves them).
    Returns the directory, the environment and the file descriptor limit."""
    limit = raise_fd_limit(2 * args.students + 1000)  # the server inherits it: one socket each side
    var_dir = tempfile.mkdtemp(prefix=prefix)
    env = environment(args.mode, var_dir, args.redis_db, args.database_url)
    if args.mode == "redis":
        fresh_postgres(args.database_url)
        flush_redis(env["REDIS_URL"])
    os.environ.update(env)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if name not in env:
            os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    return var_dir, env, limit


class CpuMeter:
    """CPU time (user + system) of the server's processes and their children since it was made: a
    :class:`RoleCpu` of one role."""

    def __init__(self, processes: list):
        self.roles = {"server": [p for p in processes if p is not None]}
        self.meter = RoleCpu()
        self.meter.mark(self.roles)

    def used(self) -> float:
        return self.meter.used(self.roles).get("server", 0.0)


class RoleCpu:
    """CPU seconds (user + system) of the server's processes by role ("web", "clock", "worker" ...), each
    with its children, between ``mark()`` and ``used()``: what the server spends, apart from the clients
    on the same machine. ``read()`` may be called often (a sampler): a process that exits meanwhile (a web
    process killed, a pool's connection closed) keeps what it had used at its last reading."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[str, float]] = {}
        self.base: dict[int, float] = {}

    def read(self, roles: dict[str, list]) -> None:
        """``roles``: each role's processes (anything with a ``pid``); their children are found here."""
        import psutil

        for role, processes in roles.items():
            for process in processes:
                with contextlib.suppress(psutil.Error):
                    top = psutil.Process(process.pid)
                    for one in [top, *top.children(recursive=True)]:
                        with contextlib.suppress(psutil.Error):
                            times = one.cpu_times()
                            self.seen[one.pid] = (role, times.user + times.system)

    def mark(self, roles: dict[str, list]) -> None:
        self.read(roles)
        self.base = {pid: cpu for pid, (_role, cpu) in self.seen.items()}

    def used(self, roles: dict[str, list]) -> dict[str, float]:
        self.read(roles)
        out: dict[str, float] = {}
        for pid, (role, cpu) in self.seen.items():
            out[role] = out.get(role, 0.0) + cpu - self.base.get(pid, 0.0)
        return {role: round(seconds, 3) for role, seconds in sorted(out.items())}


def per_update(cpu: dict[str, float], updates: int, moves: int | None = None) -> dict[str, dict]:
    """Each role's CPU milliseconds per delivered update (and per acknowledged move, when moves were made)."""
    out = {}
    for role, seconds in cpu.items():
        row = {"cpu_s": seconds, "ms_per_update": round(1000 * seconds / updates, 4) if updates else None}
        if moves is not None:
            row["ms_per_move"] = round(1000 * seconds / moves, 3) if moves else None
        out[role] = row
    return out


def fresh_postgres(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'drop database if exists "{name}" with (force)')
        connection.execute(f'create database "{name}"')


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


@dataclass
class World:
    session_id: int
    table_id: int
    teacher_cookie: str
    student_cookies: list[str]
    players: list[str]


def populate(students: int, answer_seconds: int) -> World:
    """Everything through the ORM and games.services, in this process (no server is running yet)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.db import transaction
    from django.utils import timezone

    from classrooms.middleware import STUDENT_SESSION_KEY
    from classrooms.models import Classroom, Enrolment, Membership, School, Student, User
    from games import services

    school = School.objects.create(name="Bench Academy")
    teacher = User.objects.create_user(email="teacher@bench.example", password="bench-password-1")
    Membership.objects.create(user=teacher, school=school, role=Membership.Role.TEACHER)
    classroom = Classroom.objects.create(school=school, name="Bench class")
    classroom.teachers.add(teacher)
    people = Student.objects.bulk_create(
        [Student(school=school, given_name=f"S{n}", display_name=f"Student {n:04d}") for n in range(students)]
    )
    Enrolment.objects.bulk_create([Enrolment(student=s, classroom=classroom) for s in people])
    session = services.session_schedule(
        classroom=classroom,
        by=teacher,
        game="lineup",
        scheduled_for=timezone.now(),
        planned_minutes=30,
        settings={"answer_seconds": answer_seconds},
        title="Load benchmark",
    )
    services.session_open_lobby(session=session, by=teacher)
    with transaction.atomic():
        for student in people:
            services.session_join(session=session, student=student)
    session = services.session_start(session=session, by=teacher)
    session = services.session_pause(session=session, by=teacher)
    table = session.tables.get()
    store_class = import_module(settings.SESSION_ENGINE).SessionStore

    def cookie(**values) -> str:
        store = store_class()
        for key, value in values.items():
            store[key] = value
        store.save()
        return store.session_key

    teacher_cookie = cookie(
        **{
            SESSION_KEY: str(teacher.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: teacher.get_session_auth_hash(),
        }
    )
    with transaction.atomic():
        cookies = [cookie(**{STUDENT_SESSION_KEY: s.pk}) for s in people]
    return World(
        session_id=session.pk,
        table_id=table.pk,
        teacher_cookie=teacher_cookie,
        student_cookies=cookies,
        players=[services.student_player_id(s.pk) for s in people],
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(
    env: dict[str, str],
    port: int,
    log_path: Path,
    profile: str | None,
    deflate: bool = False,
    workers: int = 1,
    ws: str = "auto",
    preexec=None,
) -> subprocess.Popen:
    log = open(log_path, "wb")  # noqa: SIM115 (closed with the process)
    profiler = ["-m", "cProfile", "-o", profile] if profile else []
    command = [
        PYTHON,
        *profiler,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "on",
        "--log-level",
        "warning",
        "--no-access-log",
        "--backlog",
        "4096",
        "--limit-concurrency",
        "20000",
        "--ws-per-message-deflate",
        "true" if deflate else "false",
        "--ws",
        ws,
        *(["--workers", str(workers)] if workers > 1 else []),
    ]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec
    )


def pinned_to(cpus: set[int]):
    """For ``Popen(preexec_fn=...)``: the child (and whatever it starts) runs on these CPUs only."""
    return lambda: os.sched_setaffinity(0, cpus)


def wait_listening(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited while starting (see its log)")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError("the server did not start listening")


class RssSampler(threading.Thread):
    """The server's peak resident memory (its children too, should uvicorn fork)."""

    def __init__(self, pid: int, every: float = 0.05):
        super().__init__(daemon=True)
        import psutil

        self.process = psutil.Process(pid)
        self.every = every
        self.peak = 0
        self.stopped = threading.Event()

    def sample(self) -> int:
        import psutil

        total = 0
        with contextlib.suppress(psutil.Error):
            total = self.process.memory_info().rss
            for child in self.process.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    total += child.memory_info().rss
        return total

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            self.peak = max(self.peak, self.sample())


# --- clients -----------------------------------------------------------------------------------------


class RawSocket(asyncio.Protocol):
    """A minimal websocket client (RFC 6455) for the students' connections.

    Two thousand clients and the server share this machine's two CPUs. With the ``websockets`` library
    each received message cost the client process about 0.2 ms (its streams, queues and tasks), so the
    last of 2000 clients read an update several hundred ms after the server had sent it: the benchmark
    measured itself. This protocol parses frames straight from ``data_received`` and hands each text
    message to a callback with its receive time. It speaks what the server speaks: text frames, ping
    (answered), close; no extensions (the server offers none; ``--websockets-client`` uses the library,
    with permessage-deflate when the server offers it)."""

    def __init__(self, on_text, on_close):
        self.on_text, self.on_close = on_text, on_close
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.fragments: list[bytes] = []
        self.upgraded = asyncio.get_running_loop().create_future()
        self.closed = False
        #: why it closed (the close code, or the transport's error): a server may close a socket in the same
        #: read that completes its handshake, before ``connect`` has returned it to its caller
        self.close_reason: str | None = None

    @classmethod
    async def connect(cls, port: int, path: str, headers: dict[str, str], on_text, on_close) -> RawSocket:
        loop = asyncio.get_running_loop()
        _transport, protocol = await loop.create_connection(lambda: cls(on_text, on_close), "127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        protocol.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await protocol.upgraded
        return protocol

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(self.buffer[: self.buffer.find(b"\r\n")])
            del self.buffer[: end + 4]
            if b" 101 " not in status:
                self.upgraded.set_exception(ConnectionError(status.decode(errors="replace")))
                self.transport.close()
                return
            self.upgraded.set_result(None)
        now = time.time()
        buffer = self.buffer
        while len(buffer) >= 2:
            fin, opcode, length = buffer[0] & 0x80, buffer[0] & 0x0F, buffer[1] & 0x7F
            start = 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start : start + length])
            del buffer[: start + length]
            self.frame(fin, opcode, payload, now)

    def frame(self, fin: int, opcode: int, payload: bytes, now: float) -> None:
        if opcode in (0x1, 0x0):  # text, or a continuation of one
            self.fragments.append(payload)
            if fin:
                text, self.fragments = b"".join(self.fragments).decode(), []
                self.on_text(text, now)
        elif opcode == 0x9:  # ping: answer it, or the server's keepalive closes the connection
            self.write(0xA, payload)
        elif opcode == 0x8:
            code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else None
            self.closed = True
            self.close_reason = str(code) if code is not None else "no close frame"
            self.on_close(self.close_reason)
            self.write(0x8, payload[:2])
            self.transport.close()

    def write(self, opcode: int, payload: bytes) -> None:
        """A client's frames are masked (RFC 6455 section 5.3)."""
        if self.transport is None or self.transport.is_closing():
            raise ConnectionError("closed")
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = bytes([0x80 | opcode, 0x80 | length])
        elif length < 65536:
            header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + length.to_bytes(8, "big")
        repeated = (mask * (length // 4 + 1))[:length]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(length, "big")
        self.transport.write(header + mask + masked)

    async def send(self, text: str) -> None:
        self.write(0x1, text.encode())

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(ConnectionError):
                self.write(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if not self.upgraded.done():
            self.upgraded.set_exception(ConnectionError("closed during the handshake"))
        if not self.closed:
            self.closed = True
            self.close_reason = f"{type(exc).__name__}: {exc}" if exc else "no close frame"
            self.on_close(self.close_reason)


@dataclass
class Client:
    name: str
    cookie: str
    teacher: bool = False
    ws: object = None
    max_seq: int = 0
    first_seen: dict[int, float] = field(default_factory=dict)  # seq -> receive time (first message)
    latest_view: dict | None = None  # the teacher keeps its latest table message, parsed
    sessions: int = 0
    replies: dict[str, tuple[float, dict]] = field(default_factory=dict)  # action key -> (time, reply)
    transport_errors: list[str] = field(default_factory=list)
    closed: str | None = None
    received: int = 0
    bytes: int = 0
    push_lag: list[float] = field(default_factory=list)  # receive time - server_time, table messages
    #: when this connection received its first table view (the device is playing), else None
    playing_at: float | None = None
    #: times the server asked this device to move to a less busy process (close 4010) and it reconnected
    moved: int = 0


#: The close code of a device the web processes move to balance their load (games/realtime/balance.py;
#: not imported: this script configures Django only later).
REBALANCE_CLOSE_CODE = "4010"


class Bench:
    def __init__(self, world: World, port: int, timeout: float, compression: bool, library_client: bool):
        self.world, self.port, self.timeout = world, port, timeout
        self.library_client = library_client
        self.compression = "deflate" if compression else None
        self.base = f"http://127.0.0.1:{port}"
        self.uri = f"ws://127.0.0.1:{port}/ws/sessions/{world.session_id}/"
        self.teacher = Client("teacher", world.teacher_cookie, teacher=True)
        self.students = [Client(p, c) for p, c in zip(world.players, world.student_cookies, strict=True)]
        self.connect_failures: list[str] = []
        self.changes: list[dict] = []
        self.tasks: list[asyncio.Task] = []
        #: the server's processes by role, whose CPU is measured apart from the clients'
        self.roles: dict[str, list] = {}
        self.cpu = RoleCpu()

    @property
    def clients(self) -> list[Client]:
        return [self.teacher, *self.students]

    # connections

    async def open(self, client: Client) -> None:
        query = "?as=teacher" if client.teacher else "?as=student"
        if not self.library_client:
            headers = {"Origin": f"http://127.0.0.1:{self.port}", "Cookie": f"sessionid={client.cookie}"}
            path = f"/ws/sessions/{self.world.session_id}/{query}"

            opened: dict[str, RawSocket] = {}

            def closed(reason: str, client: Client = client) -> None:
                if reason != REBALANCE_CLOSE_CODE:
                    client.closed = reason
                elif "ws" in opened:  # (one moved in the read that opened it is seen below)
                    self.moved(client, opened["ws"])

            try:
                socket = await asyncio.wait_for(
                    RawSocket.connect(
                        self.port, path, headers, lambda text, now: self.receive(client, text, now), closed
                    ),
                    self.timeout,
                )
            except Exception as error:  # counted, never fatal: the figures say how many failed
                self.connect_failures.append(f"{client.name}: {type(error).__name__}: {error}")
                return
            client.ws = opened["ws"] = socket
            if socket.close_reason == REBALANCE_CLOSE_CODE:  # moved as it opened
                self.moved(client, socket)
            return
        from websockets.asyncio.client import connect

        try:
            client.ws = await connect(
                self.uri + query,
                origin=f"http://127.0.0.1:{self.port}",
                additional_headers={"Cookie": f"sessionid={client.cookie}"},
                compression=self.compression,
                max_size=None,
                max_queue=None,
                open_timeout=self.timeout,
                ping_interval=None,
                proxy=None,
            )
        except Exception as error:  # counted, never fatal: the figures say how many failed
            self.connect_failures.append(f"{client.name}: {type(error).__name__}: {error}")
            return
        self.tasks.append(asyncio.get_running_loop().create_task(self.read(client)))

    def moved(self, client: Client, socket) -> None:
        """The server moved this device to a less busy process (close 4010): as the play screen does, it
        connects again at once (and is sent its seat and table afresh)."""
        if client.ws is not socket:
            return
        client.moved += 1
        client.ws, client.playing_at = None, None
        self.tasks.append(asyncio.get_running_loop().create_task(self.open(client)))

    async def read(self, client: Client) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in client.ws:
                self.receive(client, raw, time.time())
        except ConnectionClosed as closed:
            client.closed = f"{closed.rcvd.code if closed.rcvd else 'no close frame'}"
        except Exception as error:
            client.closed = f"{type(error).__name__}: {error}"
        else:
            client.closed = "closed"

    @staticmethod
    def receive(client: Client, raw: str, now: float) -> None:
        client.received += 1
        if client.playing_at is None and '"type":"table"' in raw:
            client.playing_at = now
        client.bytes += len(raw)
        head = raw[:24]
        if head.startswith('{"type":"bundle"') and not client.teacher:
            Bench._student_bundle(client, raw, now)
        elif head.startswith('{"type":"bundle"'):  # a session message with the tables it moved on
            Bench._bundle(client, json.loads(raw), now)
        elif head.startswith('{"type":"table"'):
            Bench._table(client, raw, now)
        elif head.startswith('{"type":"session"'):
            client.sessions += 1
        elif head.startswith(('{"type":"ack"', '{"type":"error"')):
            Bench._reply(client, json.loads(raw), now)

    @staticmethod
    def _student_bundle(client: Client, raw: str, now: float) -> None:
        """A student's bundle: the tables' sequence numbers and the server's time are all it needs.
        Parsing 2000 whole messages per change took the clients' process ~50 ms of the two CPUs the
        server shares with it."""
        client.sessions += raw.count('{"type":"session"')
        stamp = SERVER_TIME.search(raw, max(0, len(raw) - 60))
        for match in TABLE_SEQ.finditer(raw):
            seq = int(match.group(1))
            client.first_seen.setdefault(seq, now)
            client.max_seq = max(client.max_seq, seq)
            if stamp:
                client.push_lag.append(now - float(stamp.group(1)))

    @staticmethod
    def _bundle(client: Client, bundle: dict, now: float) -> None:
        for inner in bundle["messages"]:
            if inner["type"] == "table":
                client.first_seen.setdefault(inner["seq"], now)
                client.max_seq = max(client.max_seq, inner["seq"])
                client.push_lag.append(now - bundle["server_time"])
                if client.teacher:
                    client.latest_view = inner
            elif inner["type"] == "session":
                client.sessions += 1

    @staticmethod
    def _table(client: Client, raw: str, now: float) -> None:
        seq = int(SEQ.search(raw).group(1))
        client.first_seen.setdefault(seq, now)
        client.max_seq = max(client.max_seq, seq)
        stamp = SERVER_TIME.search(raw, max(0, len(raw) - 60))
        if stamp:
            client.push_lag.append(now - float(stamp.group(1)))
        if client.teacher:
            client.latest_view = json.loads(raw)

    @staticmethod
    def _reply(client: Client, message: dict, now: float) -> None:
        key = message.get("key")
        if key:
            client.replies.setdefault(key, (now, message))
        else:
            client.transport_errors.append(message.get("code", "?"))

    async def connect_all(self, concurrency: int) -> float:
        started = time.perf_counter()
        self.connect_started = time.time()
        await self.open(self.teacher)
        gate = asyncio.Semaphore(concurrency)

        async def one(client: Client) -> None:
            async with gate:
                await self.open(client)

        async def progress() -> None:
            while True:
                await asyncio.sleep(30)
                opened = sum(1 for c in self.students if c.ws is not None)
                print(f"# {opened} connected after {time.perf_counter() - started:.0f} s", flush=True)

        reporter = asyncio.get_running_loop().create_task(progress())
        await asyncio.gather(*(one(c) for c in self.students))
        reporter.cancel()
        return time.perf_counter() - started

    async def all_playing(self, since: float, limit: float) -> float | None:
        """Seconds from ``since`` until every student's current connection has its first table view
        (None if some never did within ``limit``)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if all(c.playing_at is not None for c in self.students):
                return max(c.playing_at for c in self.students) - since
            await asyncio.sleep(0.01)
        return None

    async def storm(self, concurrency: int) -> dict:
        """Every student's device drops (no close frame, as a Wi-Fi access point going down does) and
        reconnects at once; the time until every one is playing again."""
        for client in self.students:
            if client.ws is not None and not self.library_client:
                client.ws.closed = True  # a drop, not a close the server is told about
                client.ws.transport.abort()
            elif client.ws is not None:
                with contextlib.suppress(Exception):
                    client.ws.transport.abort()
            client.ws, client.closed, client.playing_at = None, None, None
        failures_before = len(self.connect_failures)
        started = time.time()
        gate = asyncio.Semaphore(concurrency)

        async def one(client: Client) -> None:
            async with gate:
                await self.open(client)

        await asyncio.gather(*(one(c) for c in self.students))
        handshakes = time.time() - started
        playing = await self.all_playing(started, self.timeout)
        result = {
            "handshakes_seconds": round(handshakes, 2),
            "all_playing_seconds": None if playing is None else round(playing, 2),
            "not_playing": sum(1 for c in self.students if c.playing_at is None),
            "failures": len(self.connect_failures) - failures_before,
            "closed_by_server": sum(1 for c in self.students if c.closed),
            "load": round(os.getloadavg()[0], 2),
        }
        print(f"# storm: {json.dumps(result)}", flush=True)
        return result

    async def close_all(self) -> None:
        async def close(client: Client) -> None:
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(client.ws.close(), 10)

        await asyncio.gather(*(close(c) for c in self.clients))
        for task in self.tasks:
            task.cancel()

    def connected(self) -> list[Client]:
        return [c for c in self.clients if c.ws is not None and c.closed is None]

    # the teacher's controls

    def post(self, path: str) -> int:
        token = secrets.token_hex(16)
        request = urllib.request.Request(
            self.base + path,
            data=b"",
            method="POST",
            headers={
                "Cookie": f"sessionid={self.world.teacher_cookie}; csrftoken={token}",
                "X-CSRFToken": token,
                "Accept": "application/json",
            },
        )
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            return response.status

    async def control(self, kind: str) -> None:
        path = f"/sessions/{self.world.session_id}/control/{kind}/"
        if kind == "advance":
            path = f"/sessions/{self.world.session_id}/tables/{self.world.table_id}/advance/"
        status = await asyncio.to_thread(self.post, path)
        if status != 200:
            raise RuntimeError(f"{kind}: HTTP {status}")

    # waiting

    async def settle(self, quiet: float = 0.5, limit: float = 60.0) -> None:
        """Until no client has received anything for ``quiet`` seconds (throttled session updates)."""
        deadline = time.monotonic() + limit
        last = sum(c.received for c in self.clients)
        calm_since = time.monotonic()
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            now_total = sum(c.received for c in self.clients)
            if now_total != last:
                last, calm_since = now_total, time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                return

    async def wait_teacher(self, predicate, limit: float) -> dict:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            view = self.teacher.latest_view
            if view is not None and predicate(view):
                return view
            await asyncio.sleep(0.005)
        raise TimeoutError("the teacher never saw the change")

    async def wait_all_seq(self, seq: int, limit: float) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if all(c.max_seq >= seq for c in self.connected()):
                return
            await asyncio.sleep(0.01)

    # one phase change

    async def phase_change(self, kind: str) -> dict:
        result = await self._phase_change(kind)
        print(f"# {kind}: last client after {ms(result['last'])} ms", flush=True)
        return result

    async def _phase_change(self, kind: str) -> dict:
        before = self.teacher.latest_view
        seq0 = before["seq"]
        clock0 = before["view"]["clock"]
        posted = time.time()
        if kind == "deadline":
            due = clock0["deadline"]
        else:
            await self.control(kind)
        phase0 = before["view"]["phase"]
        changed = {
            "resume": lambda v: not v["view"]["clock"]["paused"],
            "pause": lambda v: v["view"]["clock"]["paused"],
        }.get(kind, lambda v: v["view"]["phase"] != phase0)
        view = await self.wait_teacher(lambda v: v["seq"] > seq0 and changed(v), self.timeout)
        seq, clock = view["seq"], view["view"]["clock"]
        if kind == "resume":
            origin = clock["deadline"] - clock0["remaining"]
        elif kind == "pause":
            origin = clock0["deadline"] - clock["remaining"]
        elif kind == "advance":
            origin = max(event["at"] for event in view["view"]["last_events"])
        else:
            origin = due
        await self.wait_all_seq(seq, self.timeout)
        arrivals = []
        missing = 0
        for client in self.connected():
            times = [t for s, t in client.first_seen.items() if s >= seq]
            if times:
                arrivals.append(min(times) - origin)
            else:
                missing += 1
        await self.settle()
        result = {
            "kind": kind,
            "seq": seq,
            "clients": len(arrivals),
            "missing": missing,
            "last": max(arrivals) if arrivals else None,
            "p50_client": percentile(arrivals, 50),
            "p95_client": percentile(arrivals, 95),
            "from_post": (max(arrivals) + origin - posted) if arrivals and kind != "deadline" else None,
        }
        self.changes.append(result)
        return result

    # the burst

    async def burst(self) -> dict:
        view = self.teacher.latest_view
        table = self.world.table_id
        rng = random.Random(7)
        sends = []
        for index, client in enumerate(self.students):
            if client.ws is None or client.closed:
                continue
            order = [1, 2, 3, 4, 5]
            rng.shuffle(order)
            key = f"{KEY_PREFIX}{index}-{secrets.token_hex(4)}"
            action = {"type": "rack", "order": order}
            message = {"type": "action", "table": table, "key": key, "action": action}
            sends.append((client, key, json.dumps(message)))
        assert view["view"]["phase"] == "answer", view["view"]["phase"]

        async def send(client: Client, raw: str) -> bool:
            try:
                await client.ws.send(raw)
                return True
            except Exception as error:
                client.transport_errors.append(f"send: {type(error).__name__}")
                return False

        started = time.time()
        sent_ok = await asyncio.gather(*(send(c, raw) for c, _key, raw in sends))
        sent_at = time.time()
        pending = {(c.name, key) for (c, key, _raw), ok in zip(sends, sent_ok, strict=True) if ok}
        by_name = {c.name: c for c in self.students}
        deadline = time.monotonic() + self.timeout * 4
        while pending and time.monotonic() < deadline:
            pending = {(n, k) for n, k in pending if k not in by_name[n].replies}
            await asyncio.sleep(0.02)
        acks = rules = transport = 0
        last_reply = started
        codes: dict[str, int] = {}
        for client, key, _raw in sends:
            reply = client.replies.get(key)
            if reply is None:
                continue
            at, message = reply
            last_reply = max(last_reply, at)
            if message["type"] == "ack":
                acks += 1
            else:
                codes[message["code"]] = codes.get(message["code"], 0) + 1
                if message["code"] in ("rate_limited", "invalid", "too_large"):
                    transport += 1
                else:
                    rules += 1
        last_seq = max(
            (m.get("seq") or 0 for c, key, _raw in sends for _t, m in [c.replies.get(key, (0, {}))]),
            default=0,
        )
        await self.wait_teacher(lambda v: v["seq"] >= last_seq, self.timeout * 4)
        await self.settle(limit=self.timeout * 4)
        return {
            "sent": sum(sent_ok),
            "send_seconds": sent_at - started,
            "acks": acks,
            "rules_errors": rules,
            "transport_errors": transport + (len(sends) - sum(sent_ok)),
            "error_codes": codes,
            "lost": len(pending),
            "seconds": last_reply - started,
            "keys": [key for client, key, _raw in sends if _replied(client, key) == "ack"],
        }


def _replied(client: Client, key: str) -> str | None:
    reply = client.replies.get(key)
    return reply[1].get("type") if reply else None


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


async def drive(bench: Bench, args) -> dict:
    figures: dict = {}
    figures["connect_seconds"] = await bench.connect_all(args.connect_concurrency)
    playing = await bench.all_playing(bench.connect_started, bench.timeout)
    figures["all_playing_seconds"] = None if playing is None else round(playing, 2)
    print(f"# every student playing after {figures['all_playing_seconds']} s", flush=True)
    await bench.wait_teacher(lambda v: True, bench.timeout)
    await bench.settle(limit=bench.timeout)
    figures["storms"] = []
    for _storm in range(args.storms):
        figures["storms"].append(await bench.storm(args.storm_concurrency))
    await bench.settle(limit=bench.timeout)
    figures["connected"] = len(bench.connected()) - 1
    # phase changes with nothing else going on: the server's CPU for each update it delivered
    received = sum(c.received for c in bench.clients)
    bench.cpu.mark(bench.roles)
    for _cycle in range(args.cycles):
        await bench.phase_change("resume")
        await bench.phase_change("pause")
    await bench.phase_change("resume")
    delivered = sum(c.received for c in bench.clients) - received
    figures["server_cpu_per_update"] = per_update(bench.cpu.used(bench.roles), delivered)
    figures["updates_delivered"] = delivered
    received = sum(c.received for c in bench.clients)
    bench.cpu.mark(bench.roles)
    figures["burst"] = await bench.burst()
    figures["server_cpu_burst"] = per_update(
        bench.cpu.used(bench.roles),
        sum(c.received for c in bench.clients) - received,
        figures["burst"]["acks"],
    )
    await bench.phase_change("advance")  # answer -> reveal: the deadline rule, fired by the teacher
    await bench.phase_change("deadline")  # reveal -> next round: fired by the clock
    await bench.phase_change("pause")
    await bench.settle(limit=bench.timeout)
    figures["moved_by_balancer"] = sum(c.moved for c in bench.students)
    figures["playing_at_end"] = sum(
        1 for c in bench.students if c.ws is not None and c.closed is None and c.playing_at is not None
    )
    figures["closed_by_server"] = sum(1 for c in bench.clients if c.ws is not None and c.closed)
    figures["transport_errors_unkeyed"] = sum(len(c.transport_errors) for c in bench.clients)
    figures["messages"] = sum(c.received for c in bench.clients)
    figures["megabytes"] = sum(c.bytes for c in bench.clients) / 1e6
    lag = [x for c in bench.students for x in c.push_lag]
    figures["push_to_receive_p95"] = percentile(lag, 95)
    await bench.close_all()
    return figures


RAW_SERVER = """
import asyncio, json, sys, time
from websockets.asyncio.server import broadcast, serve

CONNECTED = set()
PAD = "x" * 1400  # a table update's size (about 1.5 KB)

async def handler(ws):
    CONNECTED.add(ws)
    try:
        message = {"type": "table", "table": 1, "number": 1, "seq": 1, "server_time": time.time()}
        await ws.send(json.dumps(message, separators=(",", ":")))
        async for text in ws:
            if text.startswith("broadcast"):  # one change, sent to every connection
                seq = int(text.split()[1])
                body = {"type": "table", "table": 1, "seq": seq, "pad": PAD, "server_time": time.time()}
                broadcast(CONNECTED, json.dumps(body, separators=(",", ":")))
    finally:
        CONNECTED.discard(ws)

async def main():
    port = int(sys.argv[1])
    async with serve(handler, "127.0.0.1", port, compression=None, backlog=4096, ping_interval=None):
        await asyncio.Future()

try:
    import uvloop
    uvloop.run(main())
except ImportError:
    asyncio.run(main())
"""


def raw_baseline(args, preexec) -> dict:
    """The same minimal clients against a bare websockets server that sends each connection one small
    message and nothing else: what the handshakes alone cost on this machine, in the same run."""
    port = free_port()
    server = subprocess.Popen(
        [PYTHON, "-c", RAW_SERVER, str(port)], cwd=ROOT, preexec_fn=preexec, stderr=subprocess.DEVNULL
    )
    try:
        wait_listening(port, server)
        result = asyncio.run(_raw_run(args, port, server))
        result["load"] = round(os.getloadavg()[0], 2)
        print(f"# raw websockets baseline: {json.dumps(result)}", flush=True)
        return result
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


async def _raw_run(args, port: int, server) -> dict:
    clients = [Client(f"raw{n}", "") for n in range(args.students)]
    first = await _raw_open_all(clients, port, args.connect_concurrency, args.timeout)
    cpu = RoleCpu()
    cpu.mark({"raw": [server]})
    deliveries = await _raw_deliveries(clients, RAW_BROADCASTS, args.timeout)
    # The bare fan-out's own cost: the server's CPU over the messages it delivered (it encodes each
    # change once and writes the same bytes to every connection).
    raw_seconds = cpu.used({"raw": [server]})["raw"]
    delivered = sum(len(c.first_seen) for c in clients)
    storms = []
    for _storm in range(args.storms):
        for client in clients:
            if client.ws is not None:
                client.ws.closed = True
                client.ws.transport.abort()
            client.ws, client.playing_at = None, None
        storms.append(round(await _raw_open_all(clients, port, args.storm_concurrency, args.timeout), 2))
    for client in clients:
        if client.ws is not None:
            await client.ws.close()
    failed = sum(1 for c in clients if c.transport_errors or c.playing_at is None)
    return {
        "connect_all_seconds": round(first, 2),
        "delivery_to_last_p50_ms": _ms(percentile(deliveries, 50)),
        "delivery_to_last_p95_ms": _ms(percentile(deliveries, 95)),
        "deliveries": len(deliveries),
        "cpu_ms_per_message": round(1000 * raw_seconds / delivered, 4) if delivered else None,
        "storms_seconds": storms,
        "failed": failed,
    }


#: Changes the raw server sends every client, for its delivery figure (Classplay's run has 14 or so).
RAW_BROADCASTS = 15


async def _raw_deliveries(clients: list[Client], rounds: int, timeout: float) -> list[float]:
    """For each of ``rounds`` changes (a 1.5 KB message to every client): from the server's send to the
    last client's receipt, the measure Classplay's phase changes get."""
    delays = []
    for seq in range(2, rounds + 2):
        await clients[0].ws.send(f"broadcast {seq}")
        deadline = time.monotonic() + timeout
        while any(seq not in c.first_seen for c in clients) and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        lags = [c.first_seen[seq] for c in clients if seq in c.first_seen]  # (raw clients keep lags there)
        if len(lags) == len(clients):
            delays.append(max(lags))
        await asyncio.sleep(0.3)
    return delays


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


async def _raw_open_all(clients: list[Client], port: int, concurrency: int, timeout: float) -> float:
    """Seconds until every client has its first message."""
    started = time.time()
    gate = asyncio.Semaphore(concurrency)

    async def one(client: Client) -> None:
        def on_text(text: str, now: float) -> None:
            if client.playing_at is None:
                client.playing_at = now
            seq = int(SEQ.search(text).group(1))
            if seq > 1 and seq not in client.first_seen:  # a broadcast: from the server's send to now
                client.first_seen[seq] = now - float(SERVER_TIME.search(text).group(1))

        async with gate:
            try:
                client.ws = await RawSocket.connect(port, "/", {}, on_text, lambda reason: None)
            except Exception as error:
                client.transport_errors.append(str(error))

    await asyncio.gather(*(one(c) for c in clients))
    deadline = time.monotonic() + timeout
    while any(c.playing_at is None for c in clients) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    return max((c.playing_at or time.time()) for c in clients) - started


def check_log(table_id: int, keys: list[str]) -> dict:
    """Every acknowledged action is in the table's log, exactly once."""
    from games.models import TableLogEntry

    logged = list(
        TableLogEntry.objects.filter(table_id=table_id, idempotency_key__startswith=KEY_PREFIX).values_list(
            "idempotency_key", flat=True
        )
    )
    return {
        "logged": len(logged),
        "acked_not_logged": len(set(keys) - set(logged)),
        "logged_twice": len(logged) - len(set(logged)),
    }


def check_facts(table_id: int, timeout: float) -> dict:
    """The worker has recorded every reveal's learning facts: one per student and reveal (waits for it)."""
    from classrooms.models import Student
    from games.models import TableLogEntry
    from reports.models import LearningFact

    reveals = sum(
        1
        for events in TableLogEntry.objects.filter(table_id=table_id).values_list("events", flat=True)
        if any(isinstance(event, dict) and event.get("type") == "question_revealed" for event in events)
    )
    expected = reveals * Student.objects.count()
    deadline = time.monotonic() + timeout
    while (recorded := LearningFact.objects.filter(table_id=table_id).count()) < expected:
        if time.monotonic() > deadline:
            break
        time.sleep(0.5)
    return {"reveals": reveals, "expected": expected, "recorded": recorded}


def summarise(args, figures: dict, changes: list[dict], rss: int, load: tuple, log_check: dict) -> dict:
    lasts = [c["last"] for c in changes if c["last"] is not None]
    by_kind: dict[str, list[float]] = {}
    for change in changes:
        if change["last"] is not None:
            by_kind.setdefault(change["kind"], []).append(change["last"])
    burst = figures["burst"]
    burst.pop("keys")
    return {
        "students": args.students,
        "mode": args.mode,
        "server_deflate": args.server_deflate,
        "client": "websockets" if args.websockets_client or args.server_deflate else "raw",
        "workers": args.workers,
        "pinned": args.pin,
        "ws": args.ws,
        "connected": figures["connected"],
        "connect_seconds": round(figures["connect_seconds"], 2),
        "all_playing_seconds": figures["all_playing_seconds"],
        "storms": figures["storms"],
        "connect_failures": figures["connect_failures"],
        "phase_changes": len(changes),
        "delivery_last_p50_ms": ms(percentile(lasts, 50)),
        "delivery_last_p95_ms": ms(percentile(lasts, 95)),
        "delivery_last_p99_ms": ms(percentile(lasts, 99)),
        "delivery_last_by_kind_ms": {k: [ms(v) for v in vs] for k, vs in by_kind.items()},
        "delivery_client_p95_ms_median": ms(
            statistics.median([c["p95_client"] for c in changes if c["last"] is not None] or [0])
        ),
        "updates_missed": sum(c["missing"] for c in changes),
        "burst": {k: (round(v, 2) if isinstance(v, float) else v) for k, v in burst.items()},
        "updates_delivered": figures["updates_delivered"],
        "moved_by_balancer": figures["moved_by_balancer"],
        "playing_at_end": figures["playing_at_end"],
        "server_cpu_per_update": figures["server_cpu_per_update"],
        "server_cpu_burst": figures["server_cpu_burst"],
        "log_check": log_check,
        "closed_by_server": figures["closed_by_server"],
        "unkeyed_errors": figures["transport_errors_unkeyed"],
        "messages": figures["messages"],
        "megabytes_received": round(figures["megabytes"], 1),
        "push_to_receive_p95_ms": ms(figures["push_to_receive_p95"]),
        "server_peak_rss_mb": round(rss / 2**20, 1),
        "load_average": load,
    }


def ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def main() -> int:
    parser = argument_parser()
    args = parser.parse_args()
    var_dir, env, world = set_up(args)
    port = free_port()
    if args.workers > 1 and args.mode != "redis":
        parser.error("--workers needs --mode redis (the embedded channel layer lives in one process)")
    if args.storms and (args.websockets_client or args.server_deflate):
        parser.error("--storms drops the minimal client's connections (not the websockets library's)")
    preexec = pinned_to({0}) if args.pin else None
    if args.pin:
        os.sched_setaffinity(0, {1})  # the clients (this process)
    baseline = raw_baseline(args, preexec) if args.raw_baseline else None
    processes = start_processes(args, env, port, Path(var_dir), preexec)
    try:
        clock, worker, server = processes
        roles = {"web": [server], "worker": [worker], **({"clock": [clock]} if clock is not None else {})}
        result = measure(args, world, port, server=server, roles=roles)
        result["raw_baseline"] = baseline
    finally:
        for process in processes:
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
        if args.keep:
            print(f"# kept {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    print_table(result)
    print_json_line(result, args.json_out)
    return 0


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=2000)
    parser.add_argument("--mode", choices=["embedded", "redis"], default="embedded")
    parser.add_argument("--cycles", type=int, default=5, help="pause/resume pairs measured before the burst")
    parser.add_argument("--redis-db", type=int, default=13, help="a spare Redis database number (redis mode)")
    parser.add_argument(
        "--database-url",
        "--pg-url",
        dest="database_url",
        default=PG_URL,
        help="the PostgreSQL database (redis mode), dropped and remade",
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for any one step")
    parser.add_argument("--connect-concurrency", type=int, default=100, help="websocket handshakes at once")
    parser.add_argument("--answer-seconds", type=int, default=300, help="the session's answer timer")
    parser.add_argument("--no-deflate", action="store_true", help="clients refuse permessage-deflate")
    parser.add_argument(
        "--websockets-client",
        action="store_true",
        help="clients use the websockets library (slower per message) instead of the minimal client",
    )
    parser.add_argument(
        "--server-deflate",
        action="store_true",
        help="the server offers permessage-deflate (the Procfile turns it off)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (redis mode, like the Procfile's WEB_CONCURRENCY)",
    )
    parser.add_argument(
        "--ws",
        default="auto",
        choices=["auto", "websockets", "websockets-sansio", "wsproto"],
        help="uvicorn's websocket implementation (the Procfile's is auto: the websockets library's)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="run the server's processes (web, worker, clock) on CPU 0 and the clients on CPU 1, so that "
        "they do not take each other's time (PostgreSQL and Redis are not pinned)",
    )
    parser.add_argument(
        "--storms",
        type=int,
        default=0,
        help="drop every student's connection and reconnect them all at once this many times (after the "
        "first connect), measuring until every student is playing again",
    )
    parser.add_argument(
        "--storm-concurrency", type=int, default=2000, help="reconnecting handshakes at once in a storm"
    )
    parser.add_argument(
        "--raw-baseline",
        action="store_true",
        help="first connect the same clients (and storms) to a bare websockets server, as a floor",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (server log)")
    parser.add_argument("--profile", help="run the server under cProfile and write its profile here")
    parser.add_argument("--json-out", help="also append the JSON line to this file")
    return parser


def set_up(args) -> tuple[str, dict[str, str], World]:
    """A temporary directory, the environment of the server's processes, and a migrated database with
    the session's world in it."""
    started = time.perf_counter()
    var_dir, env, limit = prepare(args, "classplay-live-bench-")
    world = populate(args.students, args.answer_seconds)
    setup_seconds = time.perf_counter() - started
    print(f"# {args.students} students, {args.mode}: set up in {setup_seconds:.1f} s, fd limit {limit}")
    from django.db import connections

    connections.close_all()
    return var_dir, env, world


def start_processes(args, env: dict[str, str], port: int, var_dir: Path, preexec) -> list:
    """The clock (redis mode), the Celery worker and the server, in the order they are stopped."""
    log_path = var_dir / "server.log"
    server = start_server(
        env,
        port,
        log_path,
        args.profile,
        deflate=args.server_deflate,
        workers=args.workers,
        ws=args.ws,
        preexec=preexec,
    )
    # The Celery worker, as `make run` (embedded broker, one solo worker) and the Procfile (two) start it:
    # it records the reveals' learning facts after each move commits, on the same two CPUs.
    worker_log = open(var_dir / "worker.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(
        [PYTHON, "-m", "celery", "-A", "config", "worker", "--loglevel", "WARNING"]
        + (["--pool", "solo", "--concurrency", "1"] if args.mode == "embedded" else ["--concurrency", "2"]),
        cwd=ROOT,
        env=env,
        stdout=worker_log,
        stderr=subprocess.STDOUT,
        preexec_fn=preexec,
    )
    clock = None
    if args.mode == "redis":
        clock_log = open(var_dir / "clock.log", "wb")  # noqa: SIM115
        clock = subprocess.Popen(
            [PYTHON, "manage.py", "run_clock"],
            cwd=ROOT,
            env=env,
            stdout=clock_log,
            stderr=subprocess.STDOUT,
            preexec_fn=preexec,
        )
    return [clock, worker, server]


def measure(args, world: World, port: int, server, roles: dict[str, list] | None = None) -> dict:
    """Drive the clients against the running server and summarise what they saw. ``roles``: the server's
    processes by role, whose CPU is measured apart (the server alone by default)."""
    wait_listening(port, server)
    sampler = RssSampler(server.pid)
    sampler.start()
    cpu = CpuMeter([server])
    try:
        load_before = os.getloadavg()
        bench = Bench(
            world,
            port,
            args.timeout,
            compression=not args.no_deflate,
            library_client=args.websockets_client or args.server_deflate,
        )
        bench.roles = roles or {"web": [server]}
        try:
            import uvloop

            runner = uvloop.run
        except ImportError:
            runner = asyncio.run
        figures = runner(drive(bench, args))
        figures["connect_failures"] = len(bench.connect_failures)
        load_after = os.getloadavg()
        sampler.stopped.set()
        sampler.join()
        log_check = check_log(world.table_id, figures["burst"]["keys"])
        log_check["facts"] = check_facts(world.table_id, args.timeout)
        load = (round(load_before[0], 1), round(load_after[0], 1))
        result = summarise(args, figures, bench.changes, sampler.peak, load, log_check)
        result["server_cpu_seconds"] = round(cpu.used(), 1)
        if bench.connect_failures:
            print("# connect failures (first 5):", *bench.connect_failures[:5], sep="\n#   ")
        return result
    finally:
        sampler.stopped.set()


def measured_in_process(args, prefix: str, measure, *, postgres: bool = False) -> int:
    """For the benchmarks that measure in their own process (embedded mode, or ``postgres``: a fresh
    PostgreSQL database, Redis's database 3): a fresh database and settings as :func:`prepare` makes
    them, ``measure(args)``'s figures printed a line each and as one JSON line, the temporary directory
    removed."""
    args.mode, args.redis_db = ("redis", 3) if postgres else ("embedded", 0)
    args.database_url = PG_URL
    var_dir, _env, _limit = prepare(args, prefix)
    try:
        result = measure(args)
    finally:
        shutil.rmtree(var_dir, ignore_errors=True)
    for key, value in result.items():
        print(f"{key:>24}  {value}")
    print_json_line(result, args.json_out)
    return 0


def print_json_line(result: dict, json_out: str | None) -> None:
    """The run's figures as one JSON line, printed and, with ``--json-out``, appended to that file."""
    line = json.dumps(result)
    print(line)
    if json_out:
        with open(json_out, "a") as out:
            out.write(line + "\n")


def _roles_ms(by_role: dict[str, dict], figure: str) -> str:
    return ", ".join(f"{role} {row[figure]}" for role, row in by_role.items())


def print_table(r: dict) -> None:
    b = r["burst"]
    rows = [
        ("students connected", f"{r['connected']} of {r['students']} ({r['connect_failures']} failed)"),
        ("connect all", f"{r['connect_seconds']} s"),
        ("every student playing", f"{r['all_playing_seconds']} s after the first connect"),
        (
            "storms: every student playing again",
            ", ".join(f"{s['all_playing_seconds']} s (load {s['load']})" for s in r["storms"]) or "-",
        ),
        ("raw websockets baseline", json.dumps(r.get("raw_baseline"))),
        (
            "delivery to last client p50/p95/p99",
            f"{r['delivery_last_p50_ms']} / {r['delivery_last_p95_ms']} / {r['delivery_last_p99_ms']} ms"
            f" over {r['phase_changes']} phase changes",
        ),
        ("delivery by kind (ms)", json.dumps(r["delivery_last_by_kind_ms"])),
        ("updates never received", r["updates_missed"]),
        (
            "answer burst",
            f"{b['sent']} sent, {b['acks']} acks, {b['rules_errors']} refused by rules, "
            f"{b['transport_errors']} transport errors, {b['lost']} lost, all replied in {b['seconds']} s",
        ),
        ("log check", json.dumps(r["log_check"])),
        (
            "server CPU ms per delivered update",
            f"{_roles_ms(r['server_cpu_per_update'], 'ms_per_update')} over {r['updates_delivered']} updates"
            f" (bare fan-out: {(r.get('raw_baseline') or {}).get('cpu_ms_per_message')})",
        ),
        ("server CPU ms per burst move", _roles_ms(r["server_cpu_burst"], "ms_per_move")),
        (
            "playing at the end",
            f"{r['playing_at_end']} of {r['students']} ({r['moved_by_balancer']} moved by the balancer)",
        ),
        ("closed by server / unkeyed errors", f"{r['closed_by_server']} / {r['unkeyed_errors']}"),
        ("server peak RSS", f"{r['server_peak_rss_mb']} MB"),
        ("load average (1 min) before/after", r["load_average"]),
    ]
    for name, value in rows:
        print(f"{name:38} {value}")


if __name__ == "__main__":
    sys.exit(main())
