"""A build through a real Celery worker process: the Redis broker when REDIS_URL is set (CI), the
embedded filesystem broker otherwise. The worker gets its own queue, so it never takes other messages."""

import os
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from reports.models import ReportBuild
from reports.tasks import build_reports

from .conftest import fact, finished_session

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def _database_url(tmp_path) -> str:
    """The worker's database: the test database itself on PostgreSQL; on SQLite (in memory) a file copy."""
    if connection.vendor == "postgresql":
        db = connection.settings_dict
        user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    path = tmp_path / "worker.sqlite3"
    connection.ensure_connection()
    target = sqlite3.connect(path)
    connection.connection.backup(target)
    target.close()
    return f"sqlite:///{path}"


@pytest.fixture
def worker(tmp_path):
    """Start ``celery -A config worker --pool=solo`` on a queue of its own; stop it afterwards."""
    processes = []

    def start(database_url: str) -> str:
        queue = f"reports-test-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "DATABASE_URL": database_url, "PYTHONUNBUFFERED": "1"}
        env.pop("PYTEST_XDIST_WORKER", None)
        log = open(tmp_path / "worker.log", "w")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "-Q",
                queue,
                "--loglevel=INFO",
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                "--hostname",
                f"{queue}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        processes.append((process, log))
        return queue

    yield start
    for process, log in processes:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _build_state(database_url: str, build_id) -> tuple[str, int]:
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
            status = db.execute(
                "select status from reports_reportbuild where id = ?", [build_id.hex]
            ).fetchone()
            reports = db.execute("select count(*) from reports_studentreport").fetchone()[0]
        return (status[0] if status else "missing"), reports
    from reports.models import StudentReport

    return ReportBuild.objects.get(pk=build_id).status, StudentReport.objects.count()


def test_a_real_worker_builds_a_class_report(worker, tmp_path, class_7b, riverside, ms_rivera, ava, ben):
    if os.environ.get("REDIS_URL"):
        assert settings.CELERY_BROKER_URL.startswith("redis://")
    else:
        assert settings.CELERY_BROKER_URL.startswith("filesystem://")
    session = finished_session(class_7b, by=ms_rivera, students=[ava, ben])
    fact(ava, session, category="spelling", correct=True, item="q1", response="friend")
    fact(ben, session, category="spelling", correct=False, item="q1", response="freind")
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)

    database_url = _database_url(tmp_path)
    queue = worker(database_url)
    build_reports.apply_async(args=[str(build.pk)], task_id=str(build.pk), queue=queue)

    deadline = time.monotonic() + 90
    state = ("queued", 0)
    while time.monotonic() < deadline:
        state = _build_state(database_url, build.pk)
        if state[0] in ("done", "failed"):
            break
        time.sleep(0.5)
    log = (tmp_path / "worker.log").read_text()
    assert state == ("done", 2), log[-3000:]
    assert "reports.build" in log and "succeeded" in log


def _facts_in(database_url: str) -> int:
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
            return db.execute("select count(*) from reports_learningfact").fetchone()[0]
    from reports.models import LearningFact

    return LearningFact.objects.count()


def test_a_real_worker_records_a_reveals_facts_from_the_log(worker, tmp_path, class_7b, ms_rivera, ava, ben):
    """``games.table_facts`` as the server queues it after a move commits, run by a real worker."""
    from games import services
    from games.tasks import table_facts
    from tests.factories import started_session

    table = started_session(class_7b, ms_rivera, [ava, ben], "lineup", now=1_000_000.0).tables.get()
    for student in (ava, ben):
        for action in ({"type": "rack", "order": [2, 1, 3, 4, 5]}, {"type": "confirm"}):
            services.action_submit(
                table_id=table.pk, player=f"s{student.pk}", action=action, key=action["type"], now=1_000_005.0
            )
    reveal = max(entry.seq for entry in table.log.all() if entry.events)
    database_url = _database_url(tmp_path)
    queue = worker(database_url)
    table_facts.apply_async(args=[table.pk, [reveal]], queue=queue)

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and _facts_in(database_url) < 2:
        time.sleep(0.5)
    log = (tmp_path / "worker.log").read_text()
    assert _facts_in(database_url) == 2, log[-3000:]
    assert "games.table_facts" in log and "succeeded" in log
