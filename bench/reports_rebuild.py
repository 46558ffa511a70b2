"""Benchmark: a whole school's reports rebuilt from scratch, and the report pages served from them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/classplay_bench .venv/bin/python bench/reports_rebuild.py

Defaults to the issue's size: 2000 students (80 classes of 25), each in 200 sessions of their class
with 6 answers a session (2.4 million learning facts, 16 000 sessions, 400 000 session places). The data
is written with COPY into its own database (dropped and remade unless --reuse), in the order a school
writes it: day by day, every class's session of the day (so a class's facts are spread over the table,
as in production). Then, in this one process, exactly as one Celery worker runs it
(``reports.tasks.run_build``):

* a full rebuild of the school with no report rows yet (with --reuse, the report tables are emptied first);
* a rerun (what the nightly build and a redelivered message do): every row recomputed, the same rows;
* the report pages, served from the result.

For each build: wall clock, the worker's CPU and its PostgreSQL backends' CPU (all of this database's
backends: the build reads and writes on connections of its own threads), and the 1-minute load average
before and after. Prints one JSON line of figures. Needs PostgreSQL; ``--students 200 --sessions 40``
makes a quick run. ``--homework N``: on N% of its days a class has homework instead of a live game: one
assignment, which each student plays as an attempt of their own (a session with only them in it), with as
many answers as a live game, so the facts are as many as without homework and only the sessions more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/classplay_bench"

GAMES = [  # game, share of sessions, skill, categories
    ("wordup", 0.5, "english_vocabulary", ["missing_word", "crossword", "multiple_choice", "spelling"]),
    ("lineit", 0.2, "numeracy", ["comparison"]),
    ("lineup", 0.1, "general_knowledge", ["Science", "History", "Geography"]),
    ("mindlines", 0.1, "english_vocabulary", ["drawing", "exclusion"]),
    ("faces", 0.1, "reasoning", ["question", "name"]),
]
GAME_INFO = {game[0]: game for game in GAMES}


def prepare_database(url: str, fresh: bool) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("select 1 from pg_database where datname = %s", [name]).fetchone()
        if exists and fresh:
            connection.execute(f'drop database "{name}" with (force)')
            exists = None
        if not exists:
            connection.execute(f'create database "{name}"')


def populate(
    students: int, sessions: int, per_session: int, class_size: int, seed: int, homework: int = 0
) -> dict:
    from django.db import connection

    rng = random.Random(seed)
    school, admin, teacher, classrooms, people = _school(students, class_size)
    ability = {s.pk: rng.uniform(1, 5) for s in people}
    members: dict[int, list[int]] = {}
    for i, s in enumerate(people):
        members.setdefault(classrooms[i // class_size].pk, []).append(s.pk)
    game_sessions = _game_sessions(rng, classrooms, teacher, sessions, homework, members)
    raw = connection.connection
    with raw.cursor() as cursor:
        _copy_participants(cursor, game_sessions, members)
        facts = _copy_facts(cursor, rng, game_sessions, members, ability, per_session)
    raw.commit() if not raw.autocommit else None
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return {
        "school": school,
        "admin": admin,
        "classrooms": classrooms,
        "students": people,
        "student_count": len(people),
        "facts": facts,
        "sessions": len(game_sessions),
    }


def _school(students: int, class_size: int) -> tuple:
    """The school, its admin and teacher, its classes and its students (enrolled, at level 3)."""
    from classrooms.models import Classroom, Enrolment, Membership, School, Student, StudentLevel, User

    school = School.objects.create(name="Bench Academy")
    admin = User.objects.create_user(email="admin@bench.example", password="bench-password-1")
    Membership.objects.create(user=admin, school=school, role=Membership.Role.ADMIN)
    teacher = User.objects.create_user(email="teacher@bench.example", password="bench-password-1")
    Membership.objects.create(user=teacher, school=school, role=Membership.Role.TEACHER)
    classes = math.ceil(students / class_size)
    classrooms = Classroom.objects.bulk_create(
        [Classroom(school=school, name=f"Class {n:03d}", join_code=f"B{n:05d}") for n in range(classes)]
    )
    for classroom in classrooms:
        classroom.teachers.add(teacher)
    people = Student.objects.bulk_create(
        [Student(school=school, given_name=f"S{n}", display_name=f"Student {n:04d}") for n in range(students)]
    )
    Enrolment.objects.bulk_create(
        [Enrolment(student=s, classroom=classrooms[i // class_size]) for i, s in enumerate(people)]
    )
    StudentLevel.objects.bulk_create(
        [
            StudentLevel(student=s, skill=k, level=3)
            for s in people
            for k in ("english_vocabulary", "numeracy")
        ]
    )
    return school, admin, teacher, classrooms, people


#: Games a teacher can set as homework (a computer cannot draw: Mind the Lines is live only).
HOMEWORK_GAMES = [game for game in GAMES if game[0] != "mindlines"]


def _game_sessions(
    rng: random.Random, classrooms: list, teacher, sessions: int, homework: int, members: dict
) -> list:
    """Each class's session of each day: a live game, or on ``homework`` % of the days an assignment
    that each student plays alone (an attempt: ``bench_student`` is its one player)."""
    from django.utils import timezone

    from games.models import Assignment, GameSession

    start = timezone.now() - dt.timedelta(days=sessions + 5)
    game_rows, assignments = [], []
    for index in range(sessions):  # day by day, as a school plays them
        for classroom in classrooms:
            set_as_homework = rng.random() * 100 < homework
            choices = HOMEWORK_GAMES if set_as_homework else GAMES
            game = rng.choices([g[0] for g in choices], weights=[g[1] for g in choices])[0]
            when = start + dt.timedelta(days=index, hours=rng.randint(8, 15))
            players = members[classroom.pk] if set_as_homework else [None]
            if set_as_homework:
                assignments.append(
                    Assignment(
                        classroom=classroom,
                        created_by=teacher,
                        game=game,
                        opens_at=when,
                        due_at=when + dt.timedelta(days=2),
                    )
                )
            for student_id in players:
                session = GameSession(
                    classroom=classroom,
                    created_by=teacher,
                    game=game,
                    scheduled_for=when,
                    started_at=when,
                    ended_at=when + dt.timedelta(minutes=25),
                    status=GameSession.Status.FINISHED,
                )
                session.bench_student = student_id
                session.bench_assignment = len(assignments) - 1 if set_as_homework else None
                game_rows.append(session)
    created = Assignment.objects.bulk_create(assignments, batch_size=5000)
    for session in game_rows:
        if session.bench_assignment is not None:
            session.assignment = created[session.bench_assignment]
    saved = GameSession.objects.bulk_create(game_rows, batch_size=5000)
    for session, planned in zip(saved, game_rows, strict=True):
        session.bench_student = planned.bench_student
    return saved


def _players(session, members: dict[int, list[int]]) -> list[int]:
    """The students of a session: the class, or the one student of a homework attempt."""
    student_id = getattr(session, "bench_student", None)
    return [student_id] if student_id is not None else members[session.classroom_id]


def _copy_participants(cursor, game_sessions: list, members: dict[int, list[int]]) -> None:
    with cursor.copy(
        "COPY games_participant (session_id, student_id, status, player_id, joined_at, "
        "last_seen_at, connection) FROM STDIN"
    ) as copy:
        for session in game_sessions:
            for student_id in _players(session, members):
                copy.write_row(
                    (
                        session.pk,
                        student_id,
                        "present",
                        f"s{student_id}",
                        session.started_at,
                        session.ended_at,
                        "",
                    )
                )


def _copy_facts(
    cursor, rng, game_sessions: list, members, ability: dict[int, float], per_session: int
) -> int:
    """Every student's answers in every session of their class, shaped as each game writes them."""
    columns = (
        "key, student_id, classroom_id, session_id, game, skill, category, level, correct, score, "
        "time_taken, item_id, response, detail, teacher_marked, created_at"
    )
    facts = 0
    with cursor.copy(f"COPY reports_learningfact ({columns}) FROM STDIN") as copy:
        for session in game_sessions:
            for student_id in _players(session, members):
                for answer in range(per_session):
                    copy.write_row(_fact_row(rng, session, student_id, ability[student_id], answer))
                    facts += 1
    return facts


def _fact_row(rng: random.Random, session, student_id: int, theta: float, answer: int) -> tuple:
    game, _share, skill, categories = GAME_INFO[session.game]
    level = min(5, max(1, round(theta + rng.choice((-1, 0, 0, 1)))))
    correct = rng.random() < 1 / (1 + math.exp(-1.7 * (theta - level)))
    category = rng.choice(categories)
    item = f"{game}-{level}-{rng.randint(1, 60)}"
    detail, response = (
        "{}",
        json.dumps("ok" if correct else rng.choice(["cat", "dog"])),
    )
    score = None
    if game == "lineup":
        own = 5 if correct else rng.choice((0, 1, 2, 3))
        score, response = own, json.dumps([1, 2, 3, 4, 5])
        detail = json.dumps({"team_right": rng.choice((2, 3, 5))})
    elif game == "lineit":
        detail = json.dumps({"card_face": "3/4", "end_face": "0.7", "relation": "greater"})
        item = "compare:0.7|3/4"
    elif game == "faces" and category == "question":
        # A question has a quality score (share of the best split), not a mark: as the engine writes it.
        correct, score = None, rng.choice((0.25, 0.5, 0.75, 1.0))
    return (
        f"b:{session.pk}:{student_id}:{answer}",
        student_id,
        session.classroom_id,
        session.pk,
        game,
        skill,
        category,
        level,
        correct,
        score,
        round(rng.uniform(2, 20), 2),
        item,
        response,
        detail,
        False,
        session.ended_at - dt.timedelta(minutes=20 - answer),
    )


def existing() -> dict:
    from classrooms.models import Classroom, School, Student, User
    from games.models import GameSession
    from reports.models import LearningFact

    school = School.objects.get(name="Bench Academy")
    classrooms = list(Classroom.objects.filter(school=school).order_by("pk"))
    students = list(Student.objects.filter(school=school, enrolments__classroom=classrooms[0]).order_by("pk"))
    return {
        "school": school,
        "admin": User.objects.get(email="admin@bench.example"),
        "classrooms": classrooms,
        "students": students,
        "student_count": Student.objects.filter(school=school).count(),
        "facts": LearningFact.objects.count(),
        "sessions": GameSession.objects.filter(classroom__school=school).count(),
    }


class BackendCPU:
    """CPU seconds used by this database's PostgreSQL backends (same machine: /proc), sampled every 50 ms
    on a thread: a build opens connections of its own (its reading and writing threads), which end before
    it does, so each backend's last sample counts (at most 50 ms of one backend's work can be missed)."""

    def __init__(self, database: str):
        self.tag = f" {database} ".encode()
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.running = False

    def _sample(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if self.tag not in (entry / "cmdline").read_bytes().replace(b"\0", b" ") + b" ":
                    continue
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            self.last[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick

    def __enter__(self):
        import threading

        self._sample()
        self.first = dict(self.last)  # the backends that exist now count from here, new ones from 0
        self.running = True

        def loop():
            while self.running:
                time.sleep(0.05)
                self._sample()

        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()
        self._sample()
        self.seconds = sum(used - self.first.get(pid, 0.0) for pid, used in self.last.items())


def timed_build(build, database: str) -> dict:
    """One school build as a worker runs it: wall clock, worker CPU, PostgreSQL CPU, load average."""
    from reports.tasks import run_build

    load_before = os.getloadavg()[0]
    began, cpu = time.perf_counter(), time.process_time()
    with BackendCPU(database) as postgres:
        summary = run_build(build)
    return {
        "wall_s": round(time.perf_counter() - began, 1),
        "cpu_s": {"worker": round(time.process_time() - cpu, 1), "postgres": round(postgres.seconds, 1)},
        "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)],
        "built": summary,
    }


def time_pages(admin, classroom, student, repeats: int) -> dict:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(admin)
    figures = {}
    for name, url in (
        ("student_page", reverse("reports:student", args=[classroom.pk, student.pk])),
        ("class_page", reverse("reports:class", args=[classroom.pk])),
        ("class_questions", reverse("reports:class_items", args=[classroom.pk])),
        ("school_review", reverse("reports:school")),
    ):
        client.get(url)
        samples = []
        for _repeat in range(repeats):
            began = time.perf_counter()
            response = client.get(url)
            samples.append(time.perf_counter() - began)
            assert response.status_code == 200, (url, response.status_code)
        samples.sort()
        figures[f"{name}_median_ms"] = round(1000 * statistics.median(samples), 1)
        figures[f"{name}_p95_ms"] = round(1000 * samples[int(0.95 * (len(samples) - 1))], 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=2000)
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--answers", type=int, default=6, help="answers per student per session")
    parser.add_argument("--class-size", type=int, default=25)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument(
        "--reuse", action="store_true", help="keep the school of the last run (skip writing the facts)"
    )
    parser.add_argument(
        "--homework", type=int, default=0, metavar="N", help="N%% of the days are homework, not a live game"
    )
    args = parser.parse_args()

    load_at_start = os.getloadavg()[0]  # before this script adds its own (writing the facts)
    url = os.environ.get("DATABASE_URL") or DEFAULT_URL
    if not url.startswith("postgres"):
        sys.exit("bench/reports_rebuild.py needs PostgreSQL: set DATABASE_URL")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
    prepare_database(url, fresh=not args.reuse)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.apps import apps
    from django.db import connection

    from classrooms.models import School
    from reports.models import ReportBuild, StudentReport

    began = time.perf_counter()
    if args.reuse and School.objects.filter(name="Bench Academy").exists():
        data = existing()
    else:
        data = populate(args.students, args.sessions, args.answers, args.class_size, args.seed, args.homework)
    populate_s = time.perf_counter() - began

    database = url.rsplit("/", 1)[1]
    # The first build starts from no report rows at all (a school's first build; with --reuse the last
    # run's rows are deleted first), the rerun from the rows it wrote.
    with connection.cursor() as cursor:
        tables = [model._meta.db_table for model in apps.get_app_config("reports").get_models()]
        cursor.execute(f"TRUNCATE {', '.join(t for t in tables if t != 'reports_learningfact')}")
        cursor.execute("VACUUM ANALYZE")
    build = ReportBuild.objects.create(scope=ReportBuild.Scope.SCHOOL, school=data["school"])
    first = timed_build(build, database)
    rerun = timed_build(build, database)  # what the nightly build (or a redelivered message) does
    assert StudentReport.objects.count() == data["student_count"]

    classroom, student = data["classrooms"][0], data["students"][0]
    figures = {
        "students": data["student_count"],
        "sessions": data["sessions"],
        "homework_percent": args.homework,
        "facts": data["facts"],
        "populate_s": round(populate_s, 1),
        "cpus": os.cpu_count(),
        "load_average_at_start": round(load_at_start, 1),
        "full_rebuild": first,
        "rerun": rerun,
        "load_average_before_pages": round(os.getloadavg()[0], 1),
        **time_pages(data["admin"], classroom, student, args.repeats),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
