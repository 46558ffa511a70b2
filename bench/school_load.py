"""Benchmark: a whole school at once, on the deployment kit as its systemd units run it.

    .venv/bin/python bench/school_load.py --sessions 60 --students 30 --minutes 10
    .venv/bin/python bench/school_load.py --sessions 5 --students 10 --minutes 2 --kill-web-at 40
    .venv/bin/python bench/school_load.py --sessions 5 --students 10 --minutes 2 --restart-postgres-at 40

A script, not a test. It starts its own services: a private PostgreSQL cluster (initdb in a temporary
directory, its own port) and a private ``redis-server`` (its own port, no persistence, so a restart comes
back empty), then the deployment kit from its files (tests/kit.py, as tests/deploy/test_kit.py starts it):
the two web units' uvicorn processes (one per port, as classplay.target starts them) behind nginx
(least_conn) on loopback HTTP, the clock, the Celery worker and beat. It makes ``--sessions`` classes of
``--students`` students each, one live session per class across the five games in turn (the services seat
them; computer players fill a table where a game needs them), starts them all, and opens one websocket per
student through nginx (the minimal client of bench/live_load.py). Every device plays: every
``--move-every`` seconds (jittered) it picks a move from its own view (a Line Up! rack, a Word Up! action
its view offers, a Line-Up question on its turn, ...), sends it with a unique key, and resends a move
refused as "unavailable" (the database restarting) with the same key. Rules refusals are counted, not errors.
A device whose connection drops connects again (0.5-1.5 s later, ``hello`` with its last sequence
numbers), as the browser client does.

Measures:

1. the time until every device is connected (and the failures), once the server's processes have
   finished starting;
2. delivery of a table change: from the mover's send of an acknowledged move to each other device at that
   table first holding that sequence number (or a later one): p50 / p95 / p99 over every (move, device);
3. lost moves: every acknowledged key must be in its table's log exactly once at the end;
4. the resident memory of each process (each web process, nginx, the Celery worker, beat, the clock,
   Redis, PostgreSQL) sampled every 2 s: first, peak and last (is it flat?);
5. with a failure injected: ``--kill-web-at S`` kills the busiest web process (SIGKILL), and measures the
   time until its devices are connected again, playing again (an acknowledged move) and in their own seats;
   ``--restart-redis-at S`` / ``--restart-postgres-at S`` stop that service for ``--outage`` seconds and
   measure the errors meanwhile and the time from its return until moves are acknowledged and table
   changes delivered again.

Prints a table and one JSON line (``--json-out`` appends it to a file too).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live_load import (  # noqa: E402
    RawSocket,
    RoleCpu,
    per_update,
    percentile,
    pinned_to,
    print_json_line,
    raise_fd_limit,
    raw_baseline,
)

from tests.kit import Kit, unit_port  # noqa: E402
from tests.live import free_port  # noqa: E402

#: The close code of a device the web processes move to balance their load (games/realtime/balance.py;
#: not imported: this script configures Django only later).
REBALANCE_CLOSE_CODE = 4010

GAMES = ("lineup", "wordup", "faces", "lineit", "mindlines")
KEY_PREFIX = "school-"
SECRET_KEY = "school-load-benchmark-" + "x" * 40


# --- private services --------------------------------------------------------------------------------


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not versions:
        raise SystemExit(f"{name} not found (apt-get install postgresql)")
    return str(versions[-1])


class PrivatePostgres:
    """A PostgreSQL cluster of its own: initdb in a temporary directory, its own port, trust on loopback.
    As root it runs as the ``postgres`` user (PostgreSQL refuses to run as root)."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.data = folder / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True)

    def init(self) -> PrivatePostgres:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.folder / "pg.log"),
            "-w",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self, name: str) -> None:
        where = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        subprocess.run([*self.as_user, _pg_bin("createdb"), *where, name], check=True)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def pids(self) -> list[int]:
        pidfile = self.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError):
            return [int(pidfile.read_text().split()[0])]
        return []


class PrivateRedis:
    def __init__(self, folder: Path):
        self.folder, self.port, self.process = folder, free_port(), None

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 (closed with the process)
        command = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.folder),
            "--maxclients",
            "10000",
        ]
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while (
            subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True).stdout
            != b"PONG\n"
        ):
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


# --- the school --------------------------------------------------------------------------------------


@dataclass
class World:
    sessions: list[dict]  # {"id", "game", "cookies": [...], "players": [...]}
    teacher_cookie: str


def populate(sessions: int, students: int, games: tuple[str, ...] = GAMES) -> World:
    """Through the ORM and games.services in this process (before the kit starts); the sessions take the
    ``games`` in turn."""
    from django.db import transaction
    from django.utils import timezone

    from classrooms.models import Classroom, Enrolment, Membership, School, Student, User
    from games import services
    from tests.live import student_cookie, teacher_cookie

    school = School.objects.create(name="Bench School")
    teacher = User.objects.create_user(email="teacher@school.example", password="bench-password-1")
    Membership.objects.create(user=teacher, school=school, role=Membership.Role.TEACHER)
    made = []
    for number in range(sessions):
        game = games[number % len(games)]
        classroom = Classroom.objects.create(school=school, name=f"Class {number + 1}")
        classroom.teachers.add(teacher)
        people = Student.objects.bulk_create(
            [
                Student(school=school, given_name=f"S{number}-{n}", display_name=f"Student {number}-{n}")
                for n in range(students)
            ]
        )
        Enrolment.objects.bulk_create([Enrolment(student=s, classroom=classroom) for s in people])
        session = services.session_schedule(
            classroom=classroom,
            by=teacher,
            game=game,
            scheduled_for=timezone.now(),
            planned_minutes=60,
            title=f"{game} {number + 1}",
        )
        services.session_open_lobby(session=session, by=teacher)
        with transaction.atomic():
            for student in people:
                services.session_join(session=session, student=student)
        services.session_start(session=session, by=teacher)
        with transaction.atomic():
            cookies = [student_cookie(s).split("=", 1)[1] for s in people]
        made.append({"id": session.pk, "game": game, "cookies": cookies})
    return World(sessions=made, teacher_cookie=teacher_cookie(teacher).split("=", 1)[1])


# --- moves from a device's own view ------------------------------------------------------------------


def choose_move(game: str, view: dict, me: str, rng: random.Random) -> dict | None:
    """A move this device could make now, from what its screen shows (None: nothing to do). Not always
    legal (a device does not know everything the rules check); the server's refusals are counted."""
    phase = view.get("phase")
    if game == "lineup":
        return {"type": "rack", "order": rng.sample([1, 2, 3, 4, 5], 5)} if phase == "answer" else None
    if game == "wordup":
        actions = view.get("actions") or []
        return rng.choice(actions) if actions else None
    if game == "faces":
        if view.get("your_turn"):
            return _faces_turn(view, rng)
        if phase == "reveal" and me not in (view.get("ready") or []):
            return {"type": "ready"}
        return None
    if game == "lineit":
        market = view.get("market") or []
        if view.get("whose_turn") == me and market:
            return {"type": "take", "card": rng.choice(market)["id"], "to": rng.choice(["line", "hand"])}
        return None
    if game == "mindlines":
        return _mindlines_move(view, phase, me, rng)
    return None


def _faces_turn(view: dict, rng: random.Random) -> dict | None:
    """A question while more than two faces are left and one may be asked, else a name from those left
    (as a player does: a match goes on to its next round instead of waiting out turn after turn)."""
    left = (view.get("your_board") or {}).get("left") or []
    questions = [entry["id"] for entry in view.get("pad") or [] if entry.get("allowed")]
    if questions and len(left) > 2:
        return {"type": "ask", "question": rng.choice(questions)}
    return {"type": "name", "face": rng.choice(left)} if left else None


def _mindlines_move(view: dict, phase: str | None, me: str, rng: random.Random) -> dict | None:
    """Ready to draw, done drawing (the benchmark draws no strokes), the prophesier's exclusion of a card
    that is not its own, on to the next round."""
    if phase == "looking" and me not in (view.get("ready") or []):
        return {"type": "ready"}
    if phase == "scribbling":
        return {"type": "done"}
    if phase == "reveal":
        return {"type": "continue"}
    me_view = view.get("me") or {}
    if phase == "prophesying" and me_view.get("my_turn"):
        mine = set(me_view.get("cards") or [])
        open_cards = [
            card["card"]
            for card in (view.get("prophecy") or {}).get("cards") or []
            if card.get("excluded_by") is None and card["card"] not in mine
        ]
        return {"type": "exclude", "card": rng.choice(open_cards)} if open_cards else None
    return None


# --- devices -----------------------------------------------------------------------------------------


@dataclass
class Device:
    index: int
    session: int
    game: str
    cookie: str
    ws: RawSocket | None = None
    player: str = ""
    table: int | None = None
    views: dict[int, dict] = field(default_factory=dict)  # table id -> latest view message
    seen: dict[int, tuple[list[int], list[float]]] = field(default_factory=dict)  # table -> (seqs, times)
    last_seq: dict[str, int] = field(default_factory=dict)
    moved_at_seq: int = -1
    pending: dict[str, tuple[float, str]] = field(default_factory=dict)  # key -> (sent, raw)
    closes: list[float] = field(default_factory=list)
    #: when the server asked this device to move to a less busy process (close 4010, not a failure)
    moved: list[float] = field(default_factory=list)
    connects: list[float] = field(default_factory=list)
    seats: list[tuple[str, int | None]] = field(default_factory=list)  # (player, table) at each connect
    acks_at: list[float] = field(default_factory=list)
    moves: int = 0
    retries: int = 0  # moves sent again after "unavailable"
    connected: bool = False
    reconnecting: bool = False
    first_try: float = 0.0  # when its first connection attempt began


class NoView(Exception):
    """Devices that still had no seat or table view some seconds after they first tried to connect."""

    def __init__(self, devices: list[Device], limit: float):
        by_game: dict[str, int] = {}
        for device in devices:
            by_game[device.game] = by_game.get(device.game, 0) + 1
        details = [
            f"device {d.index} (session {d.session}, {d.game}): connected={d.connected}, "
            f"seat={d.player or '-'}, table={d.table}, views of {sorted(d.views)}, "
            f"closed {len(d.closes)}x, moved {len(d.moved)}x"
            for d in devices[:10]
        ]
        super().__init__(
            f"{len(devices)} devices had no table view {limit:.0f} s after they first tried to connect "
            f"(by game: {json.dumps(by_game)}):\n  " + "\n  ".join(details)
        )


class School:
    def __init__(self, world: World, port: int, args, web_ports: list[int] | None = None):
        self.world, self.port, self.args = world, port, args
        #: with --route session: each session's devices connect straight to one web process (what
        #: nginx's ``hash`` on the session's address would do), else through nginx (least_conn)
        self.web_ports = web_ports
        self.rng = random.Random(11)
        self.devices = [
            Device(index=0, session=s["id"], game=s["game"], cookie=cookie)
            for s in world.sessions
            for cookie in s["cookies"]
        ]
        for index, device in enumerate(self.devices):
            device.index = index
        self.acks: list[tuple[str, int, int, float]] = []  # key, table, seq, sent
        #: by game: seconds from a move's send to its acknowledgement (the server's trip, without the fan-out)
        self.ack_lags: dict[str, list[float]] = {}
        self.errors: dict[str, int] = {}
        self.error_times: list[tuple[float, str]] = []
        self.connect_failures: list[str] = []
        self.stopping = False
        #: table views received by every device (the updates the server delivered)
        self.table_messages = 0

    # connections

    async def open(self, device: Device) -> bool:
        headers = {"Origin": f"http://127.0.0.1:{self.port}", "Cookie": f"sessionid={device.cookie}"}
        path = f"/ws/sessions/{device.session}/?as=student"
        port = self.web_ports[device.session % len(self.web_ports)] if self.web_ports else self.port

        opened: dict[str, RawSocket] = {}

        def closed(reason: str, device: Device = device) -> None:
            if "ws" not in opened or opened["ws"] is not device.ws:
                # Still in its handshake (open() looks at the socket once connect returns it), a handshake
                # that failed (open() reports it), or a socket already replaced.
                return
            self.dropped(device, reason)

        try:
            device.ws = opened["ws"] = await asyncio.wait_for(
                RawSocket.connect(
                    port, path, headers, lambda text, now: self.receive(device, text, now), closed
                ),
                30,
            )
        except Exception as error:  # counted: the figures say how many failed
            self.connect_failures.append(f"{type(error).__name__}: {error}")
            return False
        if device.ws.closed:  # closed by the server in the read that completed its handshake
            self.dropped(device, device.ws.close_reason or "")
            return False  # (its reconnect loop tries again)
        device.connected = True
        device.connects.append(time.time())
        try:
            if device.last_seq:
                await device.ws.send(json.dumps({"type": "hello", "last_seq": device.last_seq}))
            for _sent, raw in list(device.pending.values()):  # as the browser client: resent, same key
                await device.ws.send(raw)
        except ConnectionError:  # closed by the server at once (its channel layer is out): try again
            device.connected = False
            return False
        return True

    def dropped(self, device: Device, reason: str) -> None:
        device.connected = False
        (device.moved if reason == str(REBALANCE_CLOSE_CODE) else device.closes).append(time.time())
        if not self.stopping and not device.reconnecting:
            asyncio.get_running_loop().create_task(self.reconnect(device))

    async def reconnect(self, device: Device, wait: bool = True) -> None:
        """The device's one loop of attempts until it is connected again (as the browser client retries)."""
        device.reconnecting = True
        try:
            while not self.stopping:
                if wait:
                    await asyncio.sleep(0.5 + self.rng.random())
                wait = True
                if await self.open(device):
                    return
        finally:
            device.reconnecting = False

    async def connect_all(self, concurrency: int) -> float:
        """Seconds until every device holds its seat and its table's view. A device without them
        ``--view-limit`` seconds after its first attempt stops the run (NoView): a school's devices
        waiting for a view that never comes is a failure to report, not a figure to wait for."""
        started = time.time()
        gate = asyncio.Semaphore(concurrency)

        async def one(device: Device) -> None:
            async with gate:
                device.first_try = time.time()
                await self.reconnect(device, wait=False)

        connecting = asyncio.gather(*(one(d) for d in self.devices))
        try:
            while True:
                waiting = [d for d in self.devices if d.table is None or d.table not in d.views]
                if not waiting and connecting.done():
                    return time.time() - started
                now = time.time()
                late = [d for d in waiting if d.first_try and now - d.first_try > self.args.view_limit]
                if late:
                    raise NoView(late, self.args.view_limit)
                await asyncio.sleep(0.05)
        finally:
            if not connecting.done():
                connecting.cancel()

    # receiving

    def receive(self, device: Device, raw: str, now: float) -> None:
        message = json.loads(raw)
        for inner in message["messages"] if message["type"] == "bundle" else [message]:
            kind = inner["type"]
            if kind == "session":
                if inner.get("player"):
                    device.player, device.table = inner["player"], inner.get("table")
                    if not device.seats or len(device.seats) < len(device.connects):
                        device.seats.append((device.player, device.table))
            elif kind == "table":
                self.table_messages += 1
                table, seq = inner["table"], inner["seq"]
                device.views[table] = inner
                device.last_seq[str(table)] = seq
                seqs, times = device.seen.setdefault(table, ([], []))
                if not seqs or seq > seqs[-1]:
                    seqs.append(seq)
                    times.append(now)
            elif kind == "ack":
                sent = device.pending.pop(inner["key"], None)
                if sent is not None:
                    self.acks.append((inner["key"], device.table, inner["seq"], sent[0]))
                    self.ack_lags.setdefault(device.game, []).append(now - sent[0])
                    device.acks_at.append(now)
            elif kind == "error":
                code = inner.get("code", "?")
                self.errors[code] = self.errors.get(code, 0) + 1
                self.error_times.append((now, code))
                key = inner.get("key")
                pending = device.pending.get(key) if key else None
                if pending is not None and code == "unavailable":
                    asyncio.get_running_loop().call_later(1.0, self.resend, device, key)
                elif key:
                    device.pending.pop(key, None)

    def resend(self, device: Device, key: str) -> None:
        pending = device.pending.get(key)
        if pending is None or not device.connected or device.ws is None:
            return
        device.pending[key] = (time.time(), pending[1])  # delivery counts from the attempt that was saved
        device.retries += 1
        with contextlib.suppress(ConnectionError):
            device.ws.write(0x1, pending[1].encode())

    # playing

    async def play(self, device: Device, until: float) -> None:
        rng = random.Random(device.index)
        await asyncio.sleep(rng.random() * self.args.move_every)
        while time.time() < until and not self.stopping:
            await asyncio.sleep(self.args.move_every * (0.5 + rng.random()))
            if not device.connected or device.table is None or device.pending:
                continue
            view_message = device.views.get(device.table)
            if view_message is None:
                continue
            seq = view_message["seq"]
            if device.game != "lineup" and seq <= device.moved_at_seq:
                continue  # turn-based: one try per state seen
            action = choose_move(device.game, view_message["view"], device.player, rng)
            if action is None:
                continue
            device.moves += 1
            device.moved_at_seq = seq
            key = f"{KEY_PREFIX}{device.index}-{device.moves}"
            raw = json.dumps({"type": "action", "table": device.table, "key": key, "action": action})
            device.pending[key] = (time.time(), raw)
            try:
                await device.ws.send(raw)
            except ConnectionError:
                device.pending.pop(key, None)

    # figures

    def delivery(self) -> dict[str, list[float]]:
        """From the mover's send of an acknowledged move to each other device at its table holding it,
        by game."""
        lags: dict[str, list[float]] = {}
        for game, _sent, lag in self._deliveries():
            lags.setdefault(game, []).append(lag)
        return lags

    def delivery_over_time(self, start: float, end: float, slices: int = 10) -> list[dict]:
        """The play cut into ``slices`` equal spans (by when the move was sent): in each, the moves
        acknowledged and the delivery p50 / p95 by game, to show a lesson that slows down as it goes on."""
        span = max(1e-9, (end - start) / slices)
        cut: list[dict[str, list[float]]] = [{} for _ in range(slices)]
        moves = [0] * slices
        for _key, _table, _seq, sent in self.acks:
            moves[min(slices - 1, max(0, int((sent - start) / span)))] += 1
        for game, sent, lag in self._deliveries():
            cut[min(slices - 1, max(0, int((sent - start) / span)))].setdefault(game, []).append(lag)
        return [
            {
                "from_s": round(index * span),
                "moves": moves[index],
                "p50_p95_ms": {
                    game: [_ms(percentile(lags, 50)), _ms(percentile(lags, 95))]
                    for game, lags in by_game.items()
                },
            }
            for index, by_game in enumerate(cut)
        ]

    def _deliveries(self):
        """(game, sent, lag) for each acknowledged move and each other device at its table holding it."""
        by_table: dict[int, list[Device]] = {}
        for device in self.devices:
            if device.table is not None:
                by_table.setdefault(device.table, []).append(device)
        for _key, table, seq, sent in self.acks:
            for device in by_table.get(table, ()):
                seqs, times = device.seen.get(table, ([], []))
                at = bisect.bisect_left(seqs, seq)
                if at < len(seqs):
                    yield device.game, sent, max(0.0, times[at] - sent)


# --- memory ------------------------------------------------------------------------------------------


class Memory(threading.Thread):
    """Every process's resident memory every ``every`` seconds, by name (a worker killed and replaced keeps
    its name: ``web worker 1``)."""

    def __init__(
        self,
        kit: Kit,
        redis: PrivateRedis,
        postgres: PrivatePostgres,
        every: float = 2.0,
        pin: set[int] | None = None,
    ):
        super().__init__(daemon=True)
        self.kit, self.redis, self.postgres, self.every = kit, redis, postgres, every
        self.series: dict[str, list[tuple[float, float]]] = {}
        self.restarts: dict[str, int] = {}
        self.stopped = threading.Event()
        #: with --pin, the CPUs every server process (and child) is kept on, new ones included
        self.pin = pin
        self.cpu = RoleCpu()
        self.cpu_lock = threading.Lock()

    def roles(self) -> dict[str, list]:
        """The server's processes by role, for their CPU (each web unit's process counts as "web")."""
        roles: dict[str, list] = {}
        for name, processes in self.processes().items():
            roles.setdefault("web" if name.startswith("web ") else name, []).extend(processes)
        return roles

    def cpu_mark(self) -> None:
        with self.cpu_lock:
            self.cpu.mark(self.roles())

    def cpu_used(self) -> dict[str, float]:
        with self.cpu_lock:
            return self.cpu.used(self.roles())

    def processes(self) -> dict[str, list]:
        import psutil

        named: dict[str, list] = {}

        def add(name, pid):
            with contextlib.suppress(psutil.Error):
                process = psutil.Process(pid)
                named[name] = [process, *process.children(recursive=True)]

        for unit, process in web_processes(self.kit).items():
            named[f"web {unit_port(unit)}"] = [process]
        for unit, name in (
            ("classplay-worker.service", "celery worker"),
            ("classplay-beat.service", "beat"),
            ("classplay-clock.service", "clock"),
        ):
            process = self.kit.units.get(unit)
            if process is not None:
                add(name, process.pid)
        add("nginx", self.kit.proxy.pid)
        if self.redis.process is not None:
            add("redis", self.redis.process.pid)
        for pid in self.postgres.pids():
            add("postgres", pid)
        return named

    def run(self) -> None:
        while not self.stopped.wait(self.every):
            self.restart_exited()
            now = time.time()
            named = self.processes()
            if self.pin:
                pin_all([p for processes in named.values() for p in processes], self.pin)
            with self.cpu_lock:  # a process that exits keeps the CPU it had used at its last reading
                self.cpu.read(self.roles())
            for name, processes in named.items():
                total = 0
                for process in processes:
                    with contextlib.suppress(Exception):
                        total += process.memory_info().rss
                self.series.setdefault(name, []).append((now, total / 2**20))

    def restart_exited(self) -> None:
        """systemd's Restart=always: a unit's process that exited is started again (after its RestartSec,
        about the sampling interval here)."""
        for unit, process in list(self.kit.units.items()):
            if process.poll() is not None and not self.stopped.is_set():
                self.restarts[unit] = self.restarts.get(unit, 0) + 1
                if unit in self.kit.web_ports:
                    self.kit.start_web(unit)
                else:
                    self.kit.start_unit(unit)

    def summary(self) -> dict[str, dict]:
        out = {}
        for name, points in self.series.items():
            values = [mb for _t, mb in points]
            quarter = values[len(values) // 4] if values else 0
            out[name] = {
                "first_mb": round(values[0], 1),
                "after_warmup_mb": round(quarter, 1),
                "peak_mb": round(max(values), 1),
                "last_mb": round(values[-1], 1),
                "samples": len(values),
            }
        return out


def pin_all(processes: list, cpus: set[int]) -> None:
    """Keep these processes (and their children: PostgreSQL's backends, uvicorn's and Celery's workers) on
    ``cpus``; a process started later by one of them inherits it."""
    import psutil

    for process in processes:
        with contextlib.suppress(psutil.Error):
            for one in [process, *process.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    if set(one.cpu_affinity()) != cpus:
                        one.cpu_affinity(sorted(cpus))


# --- failures ----------------------------------------------------------------------------------------


def web_processes(kit: Kit) -> dict:
    """Each web unit whose process is running, as a psutil process."""
    import psutil

    running = {}
    for unit, process in kit.webs.items():
        if process.poll() is None:
            with contextlib.suppress(psutil.Error):
                running[unit] = psutil.Process(process.pid)
    return running


def connections_per_web(kit: Kit) -> dict[int, int]:
    """Established TCP connections from the proxy held by each web unit's process, by its port here."""
    counts = {}
    for unit, process in web_processes(kit).items():
        port = kit.web_ports[unit]
        with contextlib.suppress(Exception):
            counts[port] = sum(
                1
                for c in process.net_connections(kind="tcp")
                if c.status == "ESTABLISHED" and c.laddr and c.laddr.port == port
            )
    return counts


async def inject(
    school: School, kit: Kit, redis: PrivateRedis, postgres: PrivatePostgres, args, start: float
):
    """The failure the options ask for, at its time; returns what happened, with times from ``start``."""
    report: dict = {}
    if args.kill_web_at is not None:
        await asyncio.sleep(max(0.0, start + args.kill_web_at - time.time()))
        before = connections_per_web(kit)
        victim = max(kit.webs, key=lambda unit: before.get(kit.web_ports[unit], 0))  # the busiest
        killed_at = time.time()
        os.kill(kit.webs[victim].pid, signal.SIGKILL)
        report.update(
            kind="kill_web", killed=victim, at=round(killed_at - start, 1), connections_before=before
        )
        await asyncio.sleep(min(args.outage, 5) + 20)
        hit = [d for d in school.devices if any(t >= killed_at for t in d.closes)]
        back = [
            min(t for t in d.connects if t >= killed_at) - killed_at
            for d in hit
            if d.connects[-1] >= killed_at
        ]
        playing = [
            min(t for t in d.acks_at if t >= killed_at) - killed_at
            for d in hit
            if any(t >= killed_at for t in d.acks_at)
        ]
        same_seat = sum(1 for d in hit if len(d.seats) >= 2 and d.seats[-1] == d.seats[0])
        updated = [
            min(t for t in d.seen.get(d.table, ([], []))[1] if t >= reconnected) - killed_at
            for d in hit
            for reconnected in [max(d.connects)]
            if any(t >= reconnected for t in d.seen.get(d.table, ([], []))[1])
        ]
        report.update(
            devices_dropped=len(hit),
            back_p50_s=_round(percentile(back, 50)),
            all_back_s=_round(max(back) if back else None),
            back=len(back),
            table_update_again_p50_s=_round(percentile(updated, 50)),
            table_update_again_max_s=_round(max(updated) if updated else None),
            table_update_again=len(updated),
            playing_again_p50_s=_round(percentile(playing, 50)),
            playing_again_max_s=_round(max(playing) if playing else None),
            playing_again=len(playing),
            same_seat=same_seat,
            restarted=victim in web_processes(kit),
            moved_by_balancer=sum(1 for d in school.devices if any(t >= killed_at for t in d.moved)),
            connections_after=connections_per_web(kit),
        )
    for service in ("redis", "postgres"):
        at = getattr(args, f"restart_{service}_at")
        if at is None:
            continue
        await asyncio.sleep(max(0.0, start + at - time.time()))
        stopped_at = time.time()
        if service == "redis":
            redis.stop()
        else:
            postgres.stop()
        await asyncio.sleep(args.outage)
        back_at = time.time()
        if service == "redis":
            redis.start()
        else:
            postgres.start()
        await asyncio.sleep(30)
        acks_after = sorted(sent for _k, _t, _s, sent in school.acks if sent >= back_at)
        dropped = [d for d in school.devices if any(stopped_at <= t for t in d.closes)]
        back = [min((t for t in d.connects if t >= back_at), default=None) for d in dropped]
        report.update(
            kind=f"restart_{service}",
            at=round(stopped_at - start, 1),
            outage_s=round(back_at - stopped_at, 1),
            errors_during=_count(e for t, e in school.error_times if stopped_at <= t < back_at + 5),
            closed_during=sum(1 for d in school.devices for t in d.closes if stopped_at <= t < back_at + 5),
            devices_dropped=len(dropped),
            all_back_after_return_s=_round(
                max(t - back_at for t in back) if back and None not in back else None
            ),
            same_seat=sum(1 for d in dropped if len(d.seats) >= 2 and d.seats[-1] == d.seats[0]),
            first_acked_move_after_return_s=_round(acks_after[0] - back_at if acks_after else None),
            acked_moves_first_30s_after=len(acks_after),
        )
    return report


def _round(value):
    return None if value is None else round(value, 2)


def _count(codes) -> dict[str, int]:
    out: dict[str, int] = {}
    for code in codes:
        out[code] = out.get(code, 0) + 1
    return out


# --- the run -----------------------------------------------------------------------------------------


#: The idle time is measured in this many windows, the quietest of each process's kept.
IDLE_WINDOWS = 3
#: The server has started once its processes together use less than this CPU a second (idle, with
#: nobody connected, they use about 0.07), and the devices connect only then.
STARTED_CPU_PER_SECOND = 0.15
#: A server still busier after this long is connected to anyway (the figures say how long it took).
STARTED_LIMIT_SECONDS = 120


async def cpu_per_second(memory: Memory, seconds: float) -> dict[str, float]:
    """Each role's CPU a second over the next ``seconds``."""
    memory.cpu_mark()
    began = time.time()
    await asyncio.sleep(seconds)
    elapsed = time.time() - began
    return {role: used / elapsed for role, used in memory.cpu_used().items()}


async def wait_until_started(memory: Memory) -> float:
    """Seconds until the server's processes are quiet: the kit starts the clock, the Celery worker and
    beat without waiting for them, and their start-up (Django, the modules the runtime preloads, the
    clock's first sweeps: ~4 CPU seconds) ran during the devices' connect, on the same pinned CPU. A
    school's server is up before the bell: its connect figure is that of a started server."""
    began = time.time()
    while time.time() - began < STARTED_LIMIT_SECONDS:
        if sum((await cpu_per_second(memory, 1.0)).values()) < STARTED_CPU_PER_SECOND:
            break
    return round(time.time() - began, 1)


async def idle_cpu_per_second(memory: Memory, seconds: float) -> dict[str, float]:
    """Each role's CPU a second with nobody moving: the lowest of ``IDLE_WINDOWS`` equal windows. Work
    left over from the start-up can still be running when the devices are all connected: measured over
    the whole idle time, the worker's, beat's and the clock's idle CPU came to more than they used over
    ten minutes of play."""
    rates: dict[str, float] = {}
    for _ in range(IDLE_WINDOWS):
        for role, rate in (await cpu_per_second(memory, seconds / IDLE_WINDOWS)).items():
            rates[role] = min(rates.get(role, rate), rate)
    return {role: round(rate, 4) for role, rate in rates.items()}


async def drive(school: School, kit: Kit, redis, postgres, memory: Memory, args) -> dict:
    started = await wait_until_started(memory)
    print(f"# the server's processes were quiet {started} s after they started", flush=True)
    figures: dict = {"server_started_seconds": started}
    figures["connect_seconds"] = round(await school.connect_all(args.connect_concurrency), 2)
    figures["connected"] = sum(1 for d in school.devices if d.connected)
    print(f"# {figures['connected']} devices connected in {figures['connect_seconds']} s", flush=True)
    figures["connections_per_web_start"] = connections_per_web(kit)
    # What the server spends with every device connected and nobody moving (keepalive pings, the
    # balancer's and the hub's checks, the clock's sweeps, Celery's heartbeats): at a low rate of moves it
    # is much of the CPU per update, so the figures are given with it and without it.
    figures["idle_cpu_per_second"] = await idle_cpu_per_second(memory, args.idle_seconds)
    start = time.time()
    until = start + args.minutes * 60
    memory.cpu_mark()
    updates_before, acks_before = school.table_messages, len(school.acks)
    players = [asyncio.get_running_loop().create_task(school.play(d, until)) for d in school.devices]
    failure = asyncio.get_running_loop().create_task(inject(school, kit, redis, postgres, args, start))
    await asyncio.gather(*players)
    figures["failure"] = await failure
    # The last moves' replies and updates.
    deadline = time.time() + 30
    while any(d.pending for d in school.devices) and time.time() < deadline:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)
    # The server's CPU for the play (moves, fan-out, clock, facts), apart from the clients'.
    figures["updates_delivered"] = school.table_messages - updates_before
    used, played = memory.cpu_used(), time.time() - start
    moves = len(school.acks) - acks_before
    figures["server_cpu"] = per_update(used, figures["updates_delivered"], moves)
    net = {
        role: max(0.0, cpu - figures["idle_cpu_per_second"].get(role, 0.0) * played)
        for role, cpu in used.items()
    }
    figures["server_cpu_less_idle"] = per_update(net, figures["updates_delivered"], moves)
    figures["connections_per_web_end"] = connections_per_web(kit)
    school.stopping = True
    for device in school.devices:
        if device.ws is not None:
            with contextlib.suppress(Exception):
                await device.ws.close()
    figures["play_seconds"] = round(time.time() - start, 1)
    figures["delivery_over_time"] = school.delivery_over_time(start, until)
    return figures


def check_log(acks: list[tuple[str, int, int, float]]) -> dict:
    """Every acknowledged move is in its table's log, exactly once."""
    from django.db import OperationalError, connections

    from games.models import TableLogEntry

    for _attempt in range(10):  # this process's pooled connections died with a restarted PostgreSQL
        try:
            logged = list(
                TableLogEntry.objects.filter(idempotency_key__startswith=KEY_PREFIX).values_list(
                    "table_id", "idempotency_key"
                )
            )
            break
        except OperationalError:
            connections.close_all()
    counted: dict[str, int] = {}
    for _table, key in logged:  # keys are unique across the school: a device's number and its move's
        counted[key] = counted.get(key, 0) + 1
    acked = {key for key, _table, _seq, _sent in acks}
    return {
        "acked": len(acked),
        "logged": len(logged),
        "acked_not_logged": sum(1 for entry in acked if entry not in counted),
        "logged_twice": sum(1 for n in counted.values() if n > 1),
    }


def environment(kit: Kit, database_url: str, redis_url: str, folder: Path) -> dict[str, str]:
    return dict(
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CSRF_TRUSTED_ORIGINS=kit.base,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CLASSPLAY_CLOCK_IN_PROCESS="0",
        CLASSPLAY_VAR_DIR=str(folder / "var"),
        STATIC_ROOT=str(folder / "static"),
        DJANGO_SETTINGS_MODULE="config.settings",
        # Plain HTTP on loopback: the production settings but for the TLS ones.
        SECURE_SSL_REDIRECT="false",
        SESSION_COOKIE_SECURE="false",
        CSRF_COOKIE_SECURE="false",
        BEHIND_TLS_PROXY="false",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )


def main() -> int:
    parser = argument_parser()
    args = parser.parse_args()
    games = tuple(args.games.split(",")) if args.games else GAMES
    if not set(games) <= set(GAMES):
        parser.error(f"--games takes some of {','.join(GAMES)}")
    devices = args.sessions * args.students
    raise_fd_limit(4 * devices + 2000)
    if args.pin:
        os.sched_setaffinity(0, {1})  # the clients (this process); the server's processes on CPU 0
    folder = Path(tempfile.mkdtemp(prefix="classplay-school-bench-"))
    os.chmod(folder, 0o755)
    postgres, redis = PrivatePostgres(folder / "pg").init(), PrivateRedis(folder)
    kit = Kit(folder, tls=False, worker_connections=2 * devices + 1024)
    try:
        postgres.start()
        redis.start()
        postgres.create_database("classplay")
        env = environment(kit, postgres.url("classplay"), redis.url, folder)
        kit.configure(**env)
        os.environ.update(kit.env)
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        started = time.time()
        call_command("migrate", verbosity=0, interactive=False)
        world = populate(args.sessions, args.students, games)
        connections.close_all()
        print(
            f"# {args.sessions} sessions x {args.students} students set up in {time.time() - started:.0f} s"
        )
        result = run_school(args, world, kit, redis, postgres)
    except NoView as failure:
        print(f"# FAILED: {failure}", flush=True)
        return 1
    finally:
        kit.stop()
        redis.stop()
        postgres.stop()
        if args.keep:
            print(f"# kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    print_table(result)
    print_json_line(result, args.json_out)
    return 0


def run_school(args, world: World, kit: Kit, redis: PrivateRedis, postgres: PrivatePostgres) -> dict:
    """The bare server's figures, then the kit started and the school played; the run's figures."""
    server_cpus = {0} if args.pin else None
    # The floor, in the same run: a bare websockets server fanning out to as many clients, its CPU per
    # delivered message (on the server's CPU with --pin, as the kit's processes).
    devices = args.sessions * args.students
    baseline = None if args.no_raw_baseline else bare_fanout(devices, args, server_cpus)
    kit.start(collectstatic=False)
    memory = Memory(kit, redis, postgres, pin=server_cpus)
    if server_cpus:
        pin_all([p for processes in memory.processes().values() for p in processes], server_cpus)
    memory.start()
    try:
        load_before = os.getloadavg()
        web_ports = sorted(kit.web_ports.values()) if args.route == "session" else None
        school = School(world, kit.proxy_port, args, web_ports)
        figures = asyncio.run(drive(school, kit, redis, postgres, memory, args))
        load_after = os.getloadavg()
    finally:
        memory.stopped.set()
    result = summarise(args, world, school, figures, memory, (*load_before, *load_after))
    result["raw_baseline"] = baseline
    return result


def bare_fanout(devices: int, args, cpus: set[int] | None) -> dict:
    """bench/live_load.py's bare websockets server with ``devices`` clients: its handshakes, its delivery
    to the last client and its CPU per delivered message."""
    options = argparse.Namespace(
        students=devices,
        connect_concurrency=args.connect_concurrency,
        timeout=60.0,
        storms=0,
        storm_concurrency=devices,
    )
    return raw_baseline(options, pinned_to(cpus) if cpus else None)


def summarise(args, world: World, school: School, figures: dict, memory: Memory, load: tuple) -> dict:
    log_check = check_log(school.acks)
    by_game = school.delivery()
    lags = [lag for game_lags in by_game.values() for lag in game_lags]
    return {
        "sessions": args.sessions,
        "students": args.students,
        "devices": len(school.devices),
        "games": {g: sum(1 for s in world.sessions if s["game"] == g) for g in GAMES},
        "minutes": args.minutes,
        "move_every_s": args.move_every,
        "pinned": args.pin,
        "route": args.route,
        **figures,
        "connect_failures": len(school.connect_failures),
        "moves_sent": sum(d.moves for d in school.devices),
        "moves_resent_after_unavailable": sum(d.retries for d in school.devices),
        "acks": len(school.acks),
        "errors": school.errors,
        "delivery_p50_ms": _ms(percentile(lags, 50)),
        "delivery_p95_ms": _ms(percentile(lags, 95)),
        "delivery_p99_ms": _ms(percentile(lags, 99)),
        "deliveries": len(lags),
        "delivery_by_game_p50_p95_ms": {
            game: [_ms(percentile(values, 50)), _ms(percentile(values, 95))]
            for game, values in by_game.items()
        },
        "ack_by_game_p50_p95_ms": {
            game: [_ms(percentile(values, 50)), _ms(percentile(values, 95))]
            for game, values in school.ack_lags.items()
        },
        "log_check": log_check,
        "lost_moves": log_check["acked_not_logged"] + log_check["logged_twice"],
        "rss": memory.summary(),
        "units_restarted": memory.restarts,
        "load_average": [round(x, 2) for x in load],
    }


def _ms(seconds):
    return None if seconds is None else round(seconds * 1000, 1)


def print_table(r: dict) -> None:
    rows = [
        (
            "devices connected",
            f"{r['connected']} of {r['devices']} in {r['connect_seconds']} s "
            f"({r['connect_failures']} failed attempts)",
        ),
        (
            "moves sent / acked",
            f"{r['moves_sent']} / {r['acks']} over {r['play_seconds']} s "
            f"({r['moves_resent_after_unavailable']} resent after 'unavailable')",
        ),
        ("refusals and errors", json.dumps(r["errors"])),
        (
            "delivery p50/p95/p99",
            f"{r['delivery_p50_ms']} / {r['delivery_p95_ms']} / {r['delivery_p99_ms']} ms "
            f"({r['deliveries']} deliveries)",
        ),
        ("delivery by game p50/p95 (ms)", json.dumps(r["delivery_by_game_p50_p95_ms"])),
        ("move to its ack by game p50/p95 (ms)", json.dumps(r["ack_by_game_p50_p95_ms"])),
        *(
            (f"  from {row['from_s']} s", f"{row['moves']} moves, {json.dumps(row['p50_p95_ms'])}")
            for row in r.get("delivery_over_time") or []
        ),
        ("lost moves", f"{r['lost_moves']}  {json.dumps(r['log_check'])}"),
        (
            "server CPU ms per update",
            ", ".join(f"{role} {row['ms_per_update']}" for role, row in r["server_cpu"].items())
            + f" (over {r['updates_delivered']} updates; bare fan-out "
            f"{(r.get('raw_baseline') or {}).get('cpu_ms_per_message')} per message)",
        ),
        (
            "  less what it spends idle",
            ", ".join(f"{role} {row['ms_per_update']}" for role, row in r["server_cpu_less_idle"].items()),
        ),
        (
            "server CPU ms per acked move",
            ", ".join(f"{role} {row['ms_per_move']}" for role, row in r["server_cpu"].items()),
        ),
        ("bare websockets server", json.dumps(r.get("raw_baseline"))),
        (
            "connections per web process (by port)",
            f"{r['connections_per_web_start']} -> {r['connections_per_web_end']}",
        ),
        ("failure", json.dumps(r["failure"]) if r["failure"] else "none"),
        ("units restarted (exited)", json.dumps(r["units_restarted"])),
        ("load average before / after", r["load_average"]),
    ]
    for name, value in rows:
        print(f"{name:30} {value}")
    print(f"{'RSS (MB)':30} first / after warm-up / peak / last")
    for name, m in sorted(r["rss"].items()):
        print(f"  {name:28} {m['first_mb']} / {m['after_warmup_mb']} / {m['peak_mb']} / {m['last_mb']}")


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--students", type=int, default=30, help="students per session")
    parser.add_argument("--minutes", type=float, default=10, help="minutes of play after every device is in")
    parser.add_argument("--move-every", type=float, default=3.0, help="seconds between a device's moves")
    parser.add_argument("--connect-concurrency", type=int, default=100, help="websocket handshakes at once")
    parser.add_argument("--kill-web-at", type=float, help="SIGKILL one uvicorn worker this many seconds in")
    parser.add_argument("--restart-redis-at", type=float, help="stop Redis this many seconds in")
    parser.add_argument("--restart-postgres-at", type=float, help="stop PostgreSQL this many seconds in")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds a restarted service stays down")
    parser.add_argument("--games", help=f"comma-separated, some of {','.join(GAMES)} (default: all, in turn)")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server's processes (web, clock, worker, beat, nginx, PostgreSQL, Redis) on CPU 0, the "
        "clients on CPU 1, so that neither takes the other's time",
    )
    parser.add_argument(
        "--view-limit",
        type=float,
        default=10.0,
        help="seconds a device may wait for its table's view after its first connection attempt before "
        "the run stops as failed",
    )
    parser.add_argument(
        "--route",
        choices=("nginx", "session"),
        default="nginx",
        help="session: each session's devices straight to one web process (as a hash on the session would "
        "route them), to measure what sharing a session between processes costs",
    )
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=15.0,
        help="seconds every device stays connected without moving before play (the server's idle CPU)",
    )
    parser.add_argument(
        "--no-raw-baseline", action="store_true", help="skip the bare websockets server's figures"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (the logs)")
    parser.add_argument("--json-out", help="also append the JSON line to this file")
    return parser


if __name__ == "__main__":
    sys.exit(main())
