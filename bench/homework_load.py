"""Benchmark: N students each playing a homework game at once against a computer player, on the real server.

    .venv/bin/python bench/homework_load.py --students 1000 --minutes 10

A script, not a test. Like ``live_load.py`` (whose set-up, server start and websocket client it uses) it
makes a fresh database, a school, a class, a teacher and N students, sets the class a Word Up homework
through ``games.services`` (generous timers, any number of attempts, one computer player) and starts every
student's attempt (a one-student session, paused until its device connects). Then it starts
``uvicorn config.asgi:application`` with the clock and a Celery worker, opens one websocket per student and
plays: each student answers what their screen offers (a move chosen at random from the view's ``actions``,
after a think time of ``--think`` seconds), the computer player moves by the clock. A student whose game
ends taps Start again (the homework page's form, over HTTP) and plays a new attempt, until the run's
minutes are up (counted from the last device connected). It measures:

1. move → ack: from sending a move to its ``ack`` (or ``error``), every move of the run, split at the
   server's ``server_time`` (to the server / back to the device), and again for the moves sent once
   every device had connected (without the connect storm);
2. the computer's reply: from receiving a table where only the computer may move to receiving its move,
   less the think time the computer takes on purpose (``BOT_THINK_SECONDS``), again also once every
   device had connected;
3. lost moves: sent with no reply by the end; the log in the database is checked against the acks (every
   acknowledged key logged exactly once);
4. the server process's resident memory, sampled every second: the first and last minute's medians and
   the peak.

Prints a table and one JSON line (``--json-out`` appends it to a file).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from live_load import (
    PG_URL,
    CpuMeter,
    RawSocket,
    RssSampler,
    free_port,
    percentile,
    prepare,
    print_json_line,
    start_processes,
    wait_listening,
)

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PLAY_URL = re.compile(r"/play/(\d+)/")
KEY_PREFIX = "hw-"


@dataclass
class Seat:
    """One student: their cookie, their current attempt and what their device saw."""

    cookie: str
    player: str
    session_id: int
    table_id: int
    ws: RawSocket | None = None
    waiting_for_bot_since: float | None = None
    pending: dict[str, float] = field(default_factory=dict)  # key -> sent at
    acted_at_seq: int = -1
    seq: int = 0
    games_finished: int = 0
    restarting: bool = False
    closed: str | None = None


@dataclass
class Figures:
    ack_ms: list[float] = field(default_factory=list)
    # The same moves split at the server's ``server_time`` (set as it sends the ack): the move's way in
    # and its handling, then the ack's way back to the device (the client's own delays included).
    ack_in_ms: list[float] = field(default_factory=list)
    ack_out_ms: list[float] = field(default_factory=list)
    # Moves sent (and computer moves awaited) once every device had connected: the class playing,
    # without the connect storm at the start (1000 devices resuming their attempts in about 20 s).
    ack_playing_ms: list[float] = field(default_factory=list)
    bot_reply_playing_ms: list[float] = field(default_factory=list)
    refused: int = 0
    bot_reply_ms: list[float] = field(default_factory=list)
    sent_keys: dict[str, tuple[int, str]] = field(default_factory=dict)  # key -> (session, player)
    acked: dict[str, int] = field(default_factory=dict)
    connect_failures: list[str] = field(default_factory=list)
    restart_failures: list[str] = field(default_factory=list)
    closed_by_server: int = 0
    games: int = 0


def populate(students: int) -> tuple[int, list[Seat]]:
    """The school, the homework and every student's first attempt, through games.services."""
    from importlib import import_module

    from django.conf import settings
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
    assignment = services.assignment_create(
        classroom=classroom,
        by=teacher,
        game="wordup",
        title="Homework benchmark",
        opens_at=timezone.now() - timezone.timedelta(minutes=5),
        due_at=timezone.now() + timezone.timedelta(days=1),
        settings={"target": 2, "reveal_seconds": 4},
        attempts_allowed=0,
        computer_players=1,
    )
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    seats = []
    with transaction.atomic():
        for student in people:
            session = services.attempt_start(assignment=assignment, student=student)
            store = store_class()
            store[STUDENT_SESSION_KEY] = student.pk
            store.save()
            player = services.student_player_id(student.pk)
            seats.append(Seat(store.session_key, player, session.pk, session.tables.get().pk))
    return assignment.pk, seats


class Homework:
    def __init__(
        self, port: int, assignment_id: int, seats: list[Seat], think: tuple[float, float], ends: float
    ):
        self.port, self.assignment_id, self.seats = port, assignment_id, seats
        self.think, self.ends = think, ends
        self.figures = Figures()
        self.rng = random.Random(7)
        self.bot_think = 1.5  # games.services.BOT_THINK_SECONDS, checked in main()
        self.all_connected_at: float | None = None

    async def connect(self, seat: Seat) -> None:
        headers = {"Origin": f"http://127.0.0.1:{self.port}", "Cookie": f"sessionid={seat.cookie}"}
        path = f"/ws/sessions/{seat.session_id}/?as=student"

        def closed(reason: str) -> None:
            seat.closed = reason

        try:
            seat.ws = await asyncio.wait_for(
                RawSocket.connect(
                    self.port, path, headers, lambda text, now: self.receive(seat, text, now), closed
                ),
                60,
            )
        except Exception as error:  # counted, never fatal
            self.figures.connect_failures.append(f"{seat.player}: {type(error).__name__}: {error}")

    def receive(self, seat: Seat, text: str, now: float) -> None:
        message = json.loads(text)
        for inner in message.get("messages", [message]) if message["type"] == "bundle" else [message]:
            kind = inner["type"]
            if kind == "table":
                self.table(seat, inner, now)
            elif kind in ("ack", "error") and inner.get("key") in seat.pending:
                sent = seat.pending.pop(inner["key"])
                self.figures.ack_ms.append((now - sent) * 1000)
                if self.all_connected_at is not None and sent >= self.all_connected_at:
                    self.figures.ack_playing_ms.append((now - sent) * 1000)
                if "server_time" in inner:
                    self.figures.ack_in_ms.append((inner["server_time"] - sent) * 1000)
                    self.figures.ack_out_ms.append((now - inner["server_time"]) * 1000)
                if kind == "ack":
                    self.figures.acked[inner["key"]] = inner["seq"]
                else:
                    self.figures.refused += 1
                    seat.acted_at_seq = -1  # choose again on the next view

    def table(self, seat: Seat, message: dict, now: float) -> None:
        if not seat.table_id:
            seat.table_id = message["table"]
        if message["table"] != seat.table_id or message["seq"] <= seat.seq:
            return
        seat.seq = message["seq"]
        view = message["view"]
        if seat.waiting_for_bot_since is not None:
            late_ms = (now - seat.waiting_for_bot_since - self.bot_think) * 1000
            self.figures.bot_reply_ms.append(late_ms)
            if self.all_connected_at is not None and seat.waiting_for_bot_since >= self.all_connected_at:
                self.figures.bot_reply_playing_ms.append(late_ms)
            seat.waiting_for_bot_since = None
        if view.get("outcome") or message.get("status", "playing") != "playing":
            seat.games_finished += 1
            self.figures.games += 1
            if time.time() < self.ends and not seat.restarting:
                seat.restarting = True
                asyncio.get_running_loop().create_task(self.restart(seat))
            return
        current = view.get("current_players") or []
        if current and all(player.startswith("bot") for player in current):
            seat.waiting_for_bot_since = now
        elif seat.player in current and view.get("actions") and seat.acted_at_seq != seat.seq:
            seat.acted_at_seq = seat.seq
            action = dict(self.rng.choice(view["actions"]))
            if action.get("type") == "answer" and "answer" in action:
                action["answer"] = self.rng.choice(["because", "separate", "friend", "house"])
            delay = self.rng.uniform(*self.think)
            asyncio.get_running_loop().call_later(delay, self.send, seat, seat.table_id, seat.seq, action)

    def send(self, seat: Seat, table_id: int, seq: int, action: dict) -> None:
        if seat.ws is None or seat.closed or (table_id, seq) != (seat.table_id, seat.seq):
            return  # the table moved on meanwhile (a deadline): the next view decides
        key = f"{KEY_PREFIX}{seat.player}-{seat.session_id}-{seq}"
        seat.pending[key] = time.time()
        self.figures.sent_keys[key] = (seat.session_id, seat.player)
        message = {"type": "action", "table": seat.table_id, "key": key, "action": action}
        try:
            seat.ws.write(0x1, json.dumps(message).encode())
        except ConnectionError:
            seat.pending.pop(key, None)

    async def restart(self, seat: Seat) -> None:
        """The student taps Start again on their home page: a new attempt, a new connection."""
        try:
            session_id = await asyncio.to_thread(self.start_over, seat.cookie)
        except Exception as error:  # counted, never fatal
            self.figures.restart_failures.append(f"{seat.player}: {type(error).__name__}: {error}")
            return
        if seat.ws is not None:
            await seat.ws.close()
        seat.session_id, seat.seq, seat.acted_at_seq, seat.closed = session_id, 0, -1, None
        seat.waiting_for_bot_since = None
        seat.table_id = 0  # taken from the new attempt's first table message
        await self.connect(seat)
        seat.restarting = False

    def start_over(self, cookie: str) -> int:
        base = f"http://127.0.0.1:{self.port}"
        opener = urllib.request.build_opener(NoRedirect)
        home = opener.open(urllib.request.Request(f"{base}/me/", headers={"Cookie": f"sessionid={cookie}"}))
        page = home.read().decode()
        token = CSRF_INPUT.search(page).group(1)
        csrf_cookie = re.search(r"csrftoken=([^;]+)", home.headers.get("Set-Cookie", "")).group(1)
        body = f"csrfmiddlewaretoken={token}".encode()
        request = urllib.request.Request(
            f"{base}/homework/{self.assignment_id}/start/",
            data=body,
            headers={
                "Cookie": f"sessionid={cookie}; csrftoken={csrf_cookie}",
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": base,
                "Referer": f"{base}/me/",
            },
        )
        try:
            opener.open(request)
        except urllib.error.HTTPError as redirect:
            location = redirect.headers.get("Location", "")
            if redirect.code == 302 and PLAY_URL.search(location):
                return int(PLAY_URL.search(location).group(1))
            raise
        raise RuntimeError("Start did not lead to the play screen")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class MemoryTrace(threading.Thread):
    """The server's resident memory every second (the peak comes from live_load's 50 ms sampler)."""

    def __init__(self, sampler: RssSampler):
        super().__init__(daemon=True)
        self.sampler = sampler
        self.samples: list[tuple[float, int]] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            self.samples.append((time.monotonic(), self.sampler.sample()))


async def drive(bench: Homework, concurrency: int, minutes: float) -> float:
    """Connect every device, then play for ``minutes`` (counted from the last connection: connecting 1000
    devices takes a while, and the run's minutes are of everyone playing)."""
    started = time.perf_counter()
    gate = asyncio.Semaphore(concurrency)

    async def one(seat: Seat) -> None:
        async with gate:
            await bench.connect(seat)

    await asyncio.gather(*(one(seat) for seat in bench.seats))
    connect_seconds = time.perf_counter() - started
    bench.all_connected_at = time.time()
    bench.ends = time.time() + minutes * 60
    while time.time() < bench.ends:
        await asyncio.sleep(1)
    # The run is over: no new attempts; wait for every reply still owed, then close.
    deadline = time.time() + 30
    while any(seat.pending for seat in bench.seats) and time.time() < deadline:
        await asyncio.sleep(0.2)
    bench.figures.closed_by_server = sum(1 for seat in bench.seats if seat.closed and seat.ws is not None)
    for seat in bench.seats:
        if seat.ws is not None:
            await seat.ws.close()
    return connect_seconds


def check_log(figures: Figures) -> dict:
    """Every acknowledged move is in its table's log exactly once, under the sequence number acked."""
    from django.db.models import Count

    from games.models import TableLogEntry

    rows = TableLogEntry.objects.filter(idempotency_key__startswith=KEY_PREFIX)
    logged = dict(rows.values_list("idempotency_key", "seq"))
    twice = rows.values("table_id", "idempotency_key").annotate(n=Count("pk")).filter(n__gt=1).count()
    missing = [key for key in figures.acked if key not in logged]
    wrong_seq = [key for key, seq in figures.acked.items() if key in logged and logged[key] != seq]
    return {
        "acked": len(figures.acked),
        "logged": len(logged),
        "logged_twice": twice,
        "acked_not_logged": len(missing),
        "wrong_seq": len(wrong_seq),
    }


def memory_summary(samples: list[tuple[float, int]]) -> dict:
    if not samples:
        return {}
    start = samples[0][0]
    first = [rss for at, rss in samples if at - start < 60]
    last = [rss for at, rss in samples if samples[-1][0] - at < 60]
    mb = 1024 * 1024
    by_minute: dict[int, list[int]] = {}
    for at, rss in samples:
        by_minute.setdefault(int((at - start) // 60), []).append(rss)
    return {
        "rss_first_minute_mb": round(statistics.median(first) / mb, 1),
        "rss_last_minute_mb": round(statistics.median(last) / mb, 1),
        "rss_by_minute_mb": [
            round(
                statistics.median([rss for at, rss in samples if m * 60 <= at - start < (m + 1) * 60]) / mb, 1
            )
            for m in range(int((samples[-1][0] - start) // 60) + 1)
            if any(m * 60 <= at - start < (m + 1) * 60 for at, _rss in samples)
        ],
    }


class CpuShares:
    """CPU seconds of each part of the run (web, clock, worker, PostgreSQL, Redis, these clients), so a
    run shows which one the machine's cores went to."""

    def __init__(self, processes: list):
        import psutil

        clock, worker, server = processes
        self.parts = {"web": server, "clock": clock, "worker": worker}
        self.parts = {name: psutil.Process(p.pid) for name, p in self.parts.items() if p is not None}
        self.started = self.readings()

    def readings(self) -> dict[str, float]:
        import psutil

        def total(processes) -> float:
            seconds = 0.0
            for one in processes:
                with contextlib.suppress(psutil.Error):
                    times = one.cpu_times()
                    seconds += times.user + times.system
            return seconds

        found = {name: total([p, *p.children(recursive=True)]) for name, p in self.parts.items()}
        by_name = {"postgres": [], "redis": []}
        for one in psutil.process_iter(["name"]):
            name = one.info["name"] or ""
            if name.startswith("postgres"):
                by_name["postgres"].append(one)
            elif name.startswith("redis-server"):
                by_name["redis"].append(one)
        found.update({name: total(processes) for name, processes in by_name.items()})
        found["clients"] = total([psutil.Process()])
        return found

    def used(self) -> dict[str, float]:
        now = self.readings()
        return {name: round(now[name] - self.started.get(name, 0.0), 1) for name in now}


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--mode", choices=["embedded", "redis"], default="embedded")
    parser.add_argument("--redis-db", type=int, default=13)
    parser.add_argument(
        "--pg-url",
        "--database-url",
        dest="database_url",
        default=PG_URL,
        help="the PostgreSQL database (redis mode), dropped and remade",
    )
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 6.0), help="a student's think time, s")
    parser.add_argument("--connect-concurrency", type=int, default=100)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="web processes (uvicorn --workers; redis mode only): the attempts spread over them",
    )
    parser.add_argument("--pin", action="store_true", help="server on CPU 0, clients on CPU 1")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--profile", help="run the server under cProfile and write its profile here")
    parser.add_argument("--json-out")
    return parser


def set_up(args) -> tuple[str, dict[str, str], int, list[Seat]]:
    started = time.perf_counter()
    var_dir, env, limit = prepare(args, "classplay-homework-bench-")
    from django.db import connections

    assignment_id, seats = populate(args.students)
    connections.close_all()
    took = time.perf_counter() - started
    print(f"# {args.students} students, {args.mode}: set up in {took:.1f} s, fd limit {limit}")
    return var_dir, env, assignment_id, seats


def stop(processes: list) -> None:
    for process in processes:
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()


def run(args, env, var_dir: str, assignment_id: int, seats: list[Seat]) -> dict:
    from games import services

    port = free_port()
    preexec = (lambda: os.sched_setaffinity(0, {0})) if args.pin else None
    args.server_deflate, args.ws = False, "auto"
    processes = start_processes(args, env, port, Path(var_dir), preexec)
    if args.pin:
        os.sched_setaffinity(0, {1})
    try:
        wait_listening(port, processes[-1])
        sampler = RssSampler(processes[-1].pid)
        sampler.start()
        trace = MemoryTrace(sampler)
        trace.start()
        load_before = os.getloadavg()
        server_cpu, all_cpu = CpuMeter(processes[-1:]), CpuMeter(processes)
        shares = CpuShares(processes)
        # The run ends --minutes after every device is connected (drive sets it).
        bench = Homework(port, assignment_id, seats, tuple(args.think), ends=float("inf"))
        bench.bot_think = services.BOT_THINK_SECONDS
        connect_seconds = asyncio.run(drive(bench, args.connect_concurrency, args.minutes))
        load_after = os.getloadavg()
        cpu_seconds = {"server": server_cpu.used(), "all": all_cpu.used(), "by_process": shares.used()}
        sampler.stopped.set()
        trace.stopped.set()
        log = check_log(bench.figures)
    finally:
        stop(processes)
    return summarise(
        args, bench, connect_seconds, log, sampler.peak, trace.samples, (load_before, load_after), cpu_seconds
    )


def summarise(
    args, bench: Homework, connect_seconds: float, log: dict, peak: int, samples, loads, cpu_seconds: dict
) -> dict:
    figures = bench.figures
    # Every move the server applied: the students' and the computer's (each computer move is one table
    # message its student saw). Connecting and starting attempts are in the CPU time too.
    moves = len(figures.sent_keys) + len(figures.bot_reply_ms)

    def pct(values: list[float], p: float) -> float:
        return round(percentile(values, p) or 0, 1)

    for label, failures in (("connect", figures.connect_failures), ("restart", figures.restart_failures)):
        if failures:
            print(f"# {label} failures (first 5):", *failures[:5], sep="\n#   ")
    return {
        "students": args.students,
        "mode": args.mode,
        "workers": args.workers,
        "minutes": args.minutes,
        "connect_seconds": round(connect_seconds, 1),
        "moves": len(figures.sent_keys),
        "moves_per_second": round(len(figures.sent_keys) / (args.minutes * 60), 1),
        "ack_p50_ms": pct(figures.ack_ms, 50),
        "ack_p95_ms": pct(figures.ack_ms, 95),
        "ack_p99_ms": pct(figures.ack_ms, 99),
        "ack_to_server_p50_p95_p99_ms": [pct(figures.ack_in_ms, q) for q in (50, 95, 99)],
        "ack_back_p50_p95_p99_ms": [pct(figures.ack_out_ms, q) for q in (50, 95, 99)],
        "ack_once_all_connected_p50_p95_p99_ms": [pct(figures.ack_playing_ms, q) for q in (50, 95, 99)],
        "refused": figures.refused,
        "computer_moves": len(figures.bot_reply_ms),
        "computer_late_p50_ms": pct(figures.bot_reply_ms, 50),
        "computer_late_p95_ms": pct(figures.bot_reply_ms, 95),
        "computer_late_p99_ms": pct(figures.bot_reply_ms, 99),
        "computer_late_once_all_connected_p50_p95_p99_ms": [
            pct(figures.bot_reply_playing_ms, q) for q in (50, 95, 99)
        ],
        "games_finished": figures.games,
        "lost": sum(len(seat.pending) for seat in bench.seats),
        "log": log,
        "connect_failures": len(figures.connect_failures),
        "restart_failures": len(figures.restart_failures),
        "closed_by_server": figures.closed_by_server,
        "server_cpu_seconds": round(cpu_seconds["server"], 1),
        "cpu_seconds_all_processes": round(cpu_seconds["all"], 1),
        "server_cpu_ms_per_move": round(1000 * cpu_seconds["server"] / moves, 1) if moves else None,
        "cpu_seconds_by_process": cpu_seconds["by_process"],
        "rss_peak_mb": round(peak / 1024 / 1024, 1),
        **memory_summary(samples),
        "load": [round(loads[0][0], 1), round(loads[1][0], 1)],
    }


def main() -> int:
    parser = argument_parser()
    args = parser.parse_args()
    if args.workers > 1 and args.mode != "redis":
        parser.error("--workers needs --mode redis (the embedded server is one process with its clock)")
    var_dir, env, assignment_id, seats = set_up(args)
    try:
        result = run(args, env, var_dir, assignment_id, seats)
    finally:
        if not args.keep:
            shutil.rmtree(var_dir, ignore_errors=True)
    for key, value in result.items():
        print(f"{key:>24}  {value}")
    print_json_line(result, args.json_out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
