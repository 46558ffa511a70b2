"""Benchmark: a whole school's reports rebuilt from scratch, and the report pages served from them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/classplay_bench .venv/bin/python bench/reports_rebuild.py

Defaults to the issue's size: 2000 students (80 classes of 25), each in 200 sessions of their class
with 6 answers a session (2.4 million learning facts, 16 000 sessions, 400 000 session places). The data
is written with COPY into its own database (created if missing, dropped and remade with --fresh); the
rebuild then runs in this one process, exactly as one Celery worker runs it (``reports.tasks.run_build``).
Prints one JSON line of figures. Needs PostgreSQL; ``--students 200 --sessions 40`` makes a quick run.
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


def populate(students: int, sessions: int, per_session: int, class_size: int, seed: int) -> dict:
    from django.db import connection
    from django.utils import timezone

    from classrooms.models import Classroom, Enrolment, Membership, School, Student, StudentLevel, User
    from games.models import GameSession

    rng = random.Random(seed)
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
    ability = {s.pk: rng.uniform(1, 5) for s in people}
    start = timezone.now() - dt.timedelta(days=sessions + 5)
    game_rows = []
    for classroom in classrooms:
        for index in range(sessions):
            game = rng.choices([g[0] for g in GAMES], weights=[g[1] for g in GAMES])[0]
            when = start + dt.timedelta(days=index, hours=rng.randint(8, 15))
            game_rows.append(
                GameSession(
                    classroom=classroom,
                    created_by=teacher,
                    game=game,
                    scheduled_for=when,
                    started_at=when,
                    ended_at=when + dt.timedelta(minutes=25),
                    status=GameSession.Status.FINISHED,
                )
            )
    game_sessions = GameSession.objects.bulk_create(game_rows, batch_size=5000)
    by_class: dict[int, list] = {}
    for session in game_sessions:
        by_class.setdefault(session.classroom_id, []).append(session)
    members: dict[int, list[int]] = {}
    for i, s in enumerate(people):
        members.setdefault(classrooms[i // class_size].pk, []).append(s.pk)
    info = {g[0]: g for g in GAMES}
    raw = connection.connection
    facts = 0
    with raw.cursor() as cursor:
        with cursor.copy(
            "COPY games_participant (session_id, student_id, status, player_id, joined_at, "
            "last_seen_at, connection) FROM STDIN"
        ) as copy:
            for classroom_id, class_sessions in by_class.items():
                for session in class_sessions:
                    for student_id in members[classroom_id]:
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
        columns = (
            "key, student_id, classroom_id, session_id, game, skill, category, level, correct, score, "
            "time_taken, item_id, response, detail, teacher_marked, created_at"
        )
        with cursor.copy(f"COPY reports_learningfact ({columns}) FROM STDIN") as copy:
            for classroom_id, class_sessions in by_class.items():
                for session in class_sessions:
                    game, _share, skill, categories = info[session.game]
                    for student_id in members[classroom_id]:
                        theta = ability[student_id]
                        for answer in range(per_session):
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
                                detail = json.dumps(
                                    {"card_face": "3/4", "end_face": "0.7", "relation": "greater"}
                                )
                                item = "compare:7/10|3/4"
                            copy.write_row(
                                (
                                    f"b:{session.pk}:{student_id}:{answer}",
                                    student_id,
                                    classroom_id,
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
                            )
                            facts += 1
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


def backend_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend (same machine: /proc)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("select pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_pages(admin, classroom, student, repeats: int) -> dict:
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(admin)
    figures = {}
    for name, url in (
        ("student_page", reverse("reports:student", args=[classroom.pk, student.pk])),
        ("class_page", reverse("reports:class", args=[classroom.pk])),
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
    args = parser.parse_args()

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
    from classrooms.models import School
    from reports.models import ReportBuild, StudentReport
    from reports.tasks import run_build

    began = time.perf_counter()
    if args.reuse and School.objects.filter(name="Bench Academy").exists():
        data = existing()
    else:
        data = populate(args.students, args.sessions, args.answers, args.class_size, args.seed)
    populate_s = time.perf_counter() - began

    build = ReportBuild.objects.create(scope=ReportBuild.Scope.SCHOOL, school=data["school"])
    load_before = os.getloadavg()[0]
    began, cpu, db_cpu = time.perf_counter(), time.process_time(), backend_cpu()
    summary = run_build(build)
    rebuild_s = time.perf_counter() - began
    rebuild_cpu = time.process_time() - cpu
    rebuild_db_cpu = backend_cpu() - db_cpu
    load_after = os.getloadavg()[0]
    began = time.perf_counter()
    run_build(build)  # a rerun (what a redelivered message does): same rows
    rerun_s = time.perf_counter() - began
    assert StudentReport.objects.count() == data["student_count"]

    classroom, student = data["classrooms"][0], data["students"][0]
    figures = {
        "students": data["student_count"],
        "sessions": data["sessions"],
        "facts": data["facts"],
        "populate_s": round(populate_s, 1),
        "full_rebuild_s": round(rebuild_s, 1),
        "full_rebuild_cpu_s": {"worker": round(rebuild_cpu, 1), "postgres_backend": round(rebuild_db_cpu, 1)},
        "load_average": [round(load_before, 1), round(load_after, 1)],
        "cpus": os.cpu_count(),
        "rerun_s": round(rerun_s, 1),
        "built": summary,
        **time_pages(data["admin"], classroom, student, args.repeats),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
