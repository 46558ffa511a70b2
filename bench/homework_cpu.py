"""Benchmark: the server's CPU for each homework move, in one process, without the network.

    .venv/bin/python bench/homework_cpu.py --students 200 --seconds 600 [--profile clock.prof]

A script, not a test. ``homework_load.py`` measures what a device sees with the real server, but its
figures swing with whatever else the machine runs; this one replays the same evening's work on a
simulated clock, through ``games.services`` as the server calls them, and reports the CPU each part
takes a move, so two versions of the code can be compared in a minute. Set up as ``homework_load.py``
(a fresh SQLite database, one Word Up homework, one computer player, every student's attempt started and
their device arrived); then, in steps of 50 ms of simulated time:

1. the students' moves due in this step (each after a think time of 2-6 s, a move chosen at random from
   their view's actions) go in one trip (``tables_actions_submit``), as the consumer sends them;
2. the clock sweeps (``clock_sweep``: due deadlines, the computer's moves);
3. every table that moved on is shown to its student (``views`` and the JSON the fan-out sends);
4. a finished game starts the student's next attempt (``attempt_start``, the device arriving).

Broadcasts are collected, not sent; the learning facts' tasks are queued as the clock thread queues them
(held, every half second) but not run (the worker's work is not counted). The tables' seeds come from a
counter and the clock starts on the hour, so every run plays the same games. It prints the CPU
(``time.process_time``) of each part per move and one JSON line; ``--profile`` writes a cProfile of the
clock's sweeps (or, with ``--profile-part``, another part).

``--postgres`` plays on PostgreSQL (a fresh ``classplay_live_bench`` database, and Redis's database 3
flushed for the facts' queue) instead of SQLite, and adds PostgreSQL's CPU for the play (its backends
of that database) per move: how two versions of a move's statements compare there.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import itertools
import json
import os
import random
import sys
import time
import types
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from homework_load import populate
from live_load import measured_in_process

STEP_SECONDS = 0.05
FACTS_EVERY_STEPS = 10  # games.clock.FACTS_HELD_SECONDS
THINK = (2.0, 6.0)
PARTS = ("students", "clock", "views", "starts")


class Meter:
    """CPU seconds by part, with one part optionally under cProfile."""

    def __init__(self, profiled: str | None):
        self.cpu: dict[str, float] = defaultdict(float)
        self.profiler = cProfile.Profile() if profiled else None
        self.profiled = profiled

    def run(self, part: str, work):
        profiling = self.profiler is not None and part == self.profiled
        started = time.process_time()
        if profiling:
            self.profiler.enable()
        try:
            return work()
        finally:
            if profiling:
                self.profiler.disable()
            self.cpu[part] += time.process_time() - started


class Evening:
    """The students' side: what each sees, when each moves, their next attempt."""

    def __init__(self, assignment_id: int, seats, meter: Meter, now: float):
        from classrooms.models import Student
        from games.models import Assignment

        self.assignment = Assignment.objects.get(pk=assignment_id)
        self.students = {s.pk: s for s in Student.objects.filter(school=self.assignment.classroom.school)}
        self.seats = seats
        self.meter = meter
        self.rng = random.Random(7)
        self.now = now
        self.due: dict[int, tuple[float, dict, int]] = {}  # table -> (when, action, seq seen)
        self.seen_seq: dict[int, int] = {}
        self.player_of = {seat.table_id: seat for seat in seats}
        self.moves = {"students": 0, "computer": 0, "deadlines": 0}
        self.games = 0
        self.steps = 0

    def arrive_all(self) -> None:
        from games import services
        from games.models import Participant

        for seat in self.seats:
            participant = Participant.objects.get(session_id=seat.session_id)
            services.attempt_device_arrived(participant_id=participant.pk, now=self.now)

    def look(self, table_ids) -> None:
        """Show each table that moved on to its student (as the fan-out does) and plan their move."""
        from games.definitions import get_engine
        from games.models import GameTable

        tables = list(GameTable.objects.filter(pk__in=table_ids).select_related("session"))

        def show():
            shown = []
            for table in tables:
                seat = self.player_of[table.pk]
                engine = get_engine(table.session.game)
                (view,) = engine.views(table.state, [{"role": "player", "player": seat.player}])
                json.dumps({"type": "table", "table": table.pk, "seq": table.seq, "view": view})
                shown.append((table, seat, view))
            return shown

        for table, seat, view in self.meter.run("views", show):
            self.plan(table, seat, view)

    def plan(self, table, seat, view) -> None:
        if table.status != "playing":
            self.due.pop(table.pk, None)
            self.finished(table, seat)
            return
        if seat.player in (view.get("current_players") or []) and view.get("actions"):
            action = dict(self.rng.choice(view["actions"]))
            if action.get("type") == "answer" and "answer" in action:
                action["answer"] = self.rng.choice(["because", "separate", "friend", "house"])
            self.due[table.pk] = (self.now + self.rng.uniform(*THINK), action, table.seq)
        else:
            self.due.pop(table.pk, None)

    def finished(self, table, seat) -> None:
        from games import services
        from games.models import Participant

        self.games += 1
        del self.player_of[table.pk]

        def start():
            session = services.attempt_start(
                assignment=self.assignment, student=self.students[seat.student_id], now=self.now
            )
            participant = Participant.objects.get(session=session)
            services.attempt_device_arrived(participant_id=participant.pk, now=self.now)
            return session

        session = self.meter.run("starts", start)
        seat.session_id, seat.table_id = session.pk, session.tables.get().pk
        self.player_of[seat.table_id] = seat
        self.look([seat.table_id])

    def step(self) -> None:
        from games import broadcast, services
        from games.services.play import Submission

        self.steps += 1
        ready = {t: (action, seq) for t, (when, action, seq) in self.due.items() if when <= self.now}
        batches = {
            t: [Submission(player=self.player_of[t].player, action=action, key=f"k-{t}-{seq}")]
            for t, (action, seq) in ready.items()
        }
        for t in ready:
            del self.due[t]
        moved: set[int] = set()
        if batches:
            with broadcast.collected():
                self.meter.run("students", lambda: services.tables_actions_submit(batches, now=self.now))
            self.moves["students"] += len(batches)
            moved |= set(batches)
        with broadcast.collected() as collection:
            steps = self.meter.run("clock", lambda: services.clock_sweep(now=self.now))
        self.moves["computer"] += steps
        moved |= set(collection.tables)
        if moved:
            self.look(sorted(moved))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=600, help="simulated seconds of play")
    parser.add_argument("--profile", help="write a cProfile of one part here")
    parser.add_argument("--profile-part", choices=PARTS, default="clock")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL instead of SQLite")
    parser.add_argument("--json-out")
    args = parser.parse_args()
    return measured_in_process(args, "classplay-homework-cpu-", measure, postgres=args.postgres)


class PostgresCpu:
    """CPU seconds (user + system) of PostgreSQL's backends of this database since it was made (a
    backend that ends meanwhile keeps what it had used when last read)."""

    def __init__(self) -> None:
        self.start = self._read()
        self.last = dict(self.start)

    @staticmethod
    def _read() -> dict[int, float]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
            pids = [pid for (pid,) in cursor.fetchall()]
        ticks = os.sysconf("SC_CLK_TCK")
        used = {}
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended, or PostgreSQL on another machine
                continue
            used[pid] = (int(fields[11]) + int(fields[12])) / ticks
        return used

    def used(self) -> float:
        self.last.update(self._read())
        return sum(cpu - self.start.get(pid, 0.0) for pid, cpu in self.last.items())


def fixed_seeds() -> None:
    from games.services import lobby

    count = itertools.count()

    def token_hex(nbytes: int = 32) -> str:
        return hashlib.sha256(f"homework-cpu:{next(count)}".encode()).hexdigest()[: 2 * nbytes]

    lobby.secrets = types.SimpleNamespace(token_hex=token_hex)


def measure(args) -> dict:
    from classrooms.models import Student
    from games.services.log import facts_held

    fixed_seeds()
    assignment_id, seats = populate(args.students)
    students = dict(
        Student.objects.filter(display_name__startswith="Student ").values_list("display_name", "pk")
    )
    for number, seat in enumerate(seats):
        seat.student_id = students[f"Student {number:04d}"]
    meter = Meter(args.profile_part if args.profile else None)
    # The same evening in every run: the clock starts on the hour, and the tables' seeds (secret and
    # random in the product) are made from a counter, so two versions of the code play the same games
    # (the same counts of moves and games unless the rules' outcomes changed).
    evening = Evening(assignment_id, seats, meter, now=float(int(time.time()) // 3600 * 3600))
    evening.arrive_all()
    evening.look([seat.table_id for seat in seats])
    postgres = PostgresCpu() if args.postgres else None
    started, ends = time.perf_counter(), evening.now + args.seconds
    # As the clock's thread does (games.clock.run): its facts' tasks held, queued every half second.
    with facts_held() as facts:
        while evening.now < ends:
            evening.now += STEP_SECONDS
            evening.step()
            if evening.steps % FACTS_EVERY_STEPS == 0:
                meter.run("clock", facts.flush)
    wall = time.perf_counter() - started
    if meter.profiler is not None:
        meter.profiler.dump_stats(args.profile)
    moves = evening.moves["students"] + evening.moves["computer"]
    result = {
        "benchmark": "homework_cpu",
        "students": args.students,
        "simulated_s": args.seconds,
        "wall_s": round(wall, 1),
        "student_moves": evening.moves["students"],
        "clock_steps": evening.moves["computer"],
        "games_finished": evening.games,
    }
    for part in PARTS:
        result[f"{part}_cpu_s"] = round(meter.cpu[part], 2)
    result["cpu_ms_per_move"] = round(sum(meter.cpu.values()) * 1000 / max(1, moves), 3)
    if postgres is not None:
        result["postgres_cpu_s"] = round(postgres.used(), 2)
        result["postgres_ms_per_move"] = round(result["postgres_cpu_s"] * 1000 / max(1, moves), 3)
    result["student_move_ms"] = round(meter.cpu["students"] * 1000 / max(1, evening.moves["students"]), 3)
    result["clock_step_ms"] = round(meter.cpu["clock"] * 1000 / max(1, evening.moves["computer"]), 3)
    return result


if __name__ == "__main__":
    sys.exit(main())
