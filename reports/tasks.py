"""Celery tasks that build the reports. They take ids, are queued after the commit that asks for them
(``reports.services.build_request``), report progress, and are safe to run twice.

* ``reports.build`` builds one :class:`~reports.models.ReportBuild` (a session, a student, a class, a
  class's own figures after homework, or a whole school). Late acknowledgement with rejection on a lost
  worker: a worker killed mid-build leaves the message to be delivered again, and the build (delete and
  insert per key) is idempotent. Database hiccups are retried with exponential backoff, a bounded
  number of times; time limits stop a runaway.
* ``reports.nightly`` queues a school build for every school (Celery beat, see config/celery.py).
* ``reports.purge`` erases learning facts older than ``REPORT_RETENTION_DAYS`` (beat, daily).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from classrooms.models import Classroom, School

from . import services
from .build import SCHOOL_CHUNK, classrooms_build, school_build
from .metrics import REPORT_BUILD_SECONDS
from .models import ReportBuild

logger = logging.getLogger(__name__)

RETRYABLE = (OperationalError, InterfaceError)
MAX_RETRIES = 4
#: The progress row is written at most this often (a school build has thousands of steps).
PROGRESS_EVERY = 0.5
#: The most waiting student builds of its class one student build takes along (see ``_companions``).
COMPANIONS_MAX = 100


class _Progress:
    def __init__(self, task, build: ReportBuild, companions: Sequence[ReportBuild] = ()):
        self.task, self.build, self.last = task, build, 0.0
        self.build_ids = [build.pk, *(companion.pk for companion in companions)]

    def __call__(self, done: int, total: int, step: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last < PROGRESS_EVERY and done < total:
            return
        self.last = now
        ReportBuild.objects.filter(pk__in=self.build_ids).update(
            done=done, total=total, step=step[:120], heartbeat_at=timezone.now()
        )
        if self.task is not None and self.task.request.id:
            self.task.update_state(state="PROGRESS", meta={"done": done, "total": total, "step": step})


def _mark(*build_ids, **fields) -> None:
    try:
        ReportBuild.objects.filter(pk__in=build_ids).update(**fields)
    except RETRYABLE:  # the database is what failed; the message will be redelivered or retried
        logger.warning("could not record the state of report builds %s", build_ids)


def run_build(build: ReportBuild, task=None) -> dict:
    """Do the work of one build (the task's body; tests and ``manage.py build_reports --now`` call it)."""
    if build.scope == ReportBuild.Scope.STUDENT:
        return _students_build(build, task)
    progress = _Progress(task, build)
    if build.scope == ReportBuild.Scope.SCHOOL:
        classroom_ids = list(
            Classroom.objects.filter(school_id=build.school_id).order_by("pk").values_list("pk", flat=True)
        )
        result = school_build(classroom_ids, progress=progress, chunk=SCHOOL_CHUNK)
        steps = 3 * -(-len(classroom_ids) // SCHOOL_CHUNK)  # three steps a chunk
        progress(steps, steps, "done", force=True)
        return {"classrooms": len(classroom_ids), "students": result.students}
    if build.scope == ReportBuild.Scope.SESSION:
        result = classrooms_build([build.classroom_id], session_ids=[build.session_id], progress=progress)
    elif build.scope == ReportBuild.Scope.HOMEWORK:
        result = classrooms_build([build.classroom_id], students=False, progress=progress)
    else:
        result = classrooms_build([build.classroom_id], progress=progress)
    progress(3, 3, "done", force=True)
    return {"classrooms": result.classrooms, "students": result.students}


def _timed_build(build: ReportBuild, task) -> dict:
    """:func:`run_build`, its time observed (``classplay_report_build_seconds``) whether it ends or fails."""
    started, outcome = time.perf_counter(), "failed"
    try:
        summary = run_build(build, task=task)
        outcome = "done"
        return summary
    finally:
        REPORT_BUILD_SECONDS.labels(scope=build.scope, outcome=outcome).observe(time.perf_counter() - started)


def _students_build(build: ReportBuild, task=None) -> dict:
    """A student's build, and with it the other students' builds of the class still waiting: most of a
    student's build is reading the class (its sessions, each homework attempt one), so a worker behind
    on an evening of homework (a build after every attempt) catches up in one pass for many students
    instead of reading the class again for each. The companions are marked done with it; their own
    tasks then find them done. If it fails, they wait again for their own tasks. Once written, the
    class's own figures are rebuilt too (its sessions, headline and homework view: the students' new
    attempts), by a build that absorbs the requests of other students' builds while it waits."""
    companions = _companions(build)
    progress = _Progress(task, build, companions)
    students = [build.student_id, *(companion.student_id for companion in companions)]
    try:
        result = classrooms_build([build.classroom_id], student_ids=students, progress=progress)
    except BaseException:
        ReportBuild.objects.filter(
            pk__in=[companion.pk for companion in companions], status=ReportBuild.Status.RUNNING
        ).update(status=ReportBuild.Status.QUEUED)
        raise
    progress(3, 3, "done", force=True)
    _mark(
        *(companion.pk for companion in companions),
        status=ReportBuild.Status.DONE,
        finished_at=timezone.now(),
        step="done",
    )
    services.build_class_after_homework(classroom_id=build.classroom_id, school_id=build.school_id)
    return {"classrooms": result.classrooms, "students": result.students}


def _companions(build: ReportBuild) -> list[ReportBuild]:
    """The class's other student builds still waiting, each claimed (marked running) by this one only if
    still waiting as it claims it (another worker may be taking them too). A build asked for after new
    facts serves only while waiting (``services.build_request``), and these are read after the claim."""
    waiting = (
        ReportBuild.objects.filter(
            scope=ReportBuild.Scope.STUDENT, classroom_id=build.classroom_id, status=ReportBuild.Status.QUEUED
        )
        .exclude(pk=build.pk)
        .order_by("created_at")[:COMPANIONS_MAX]
    )
    claimed = []
    for candidate in waiting:
        now = timezone.now()
        taken = ReportBuild.objects.filter(pk=candidate.pk, status=ReportBuild.Status.QUEUED).update(
            status=ReportBuild.Status.RUNNING, started_at=now, heartbeat_at=now
        )
        if taken:
            claimed.append(candidate)
    return claimed


@shared_task(
    bind=True,
    name="reports.build",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=RETRYABLE,
    max_retries=MAX_RETRIES,
    retry_backoff=5,
    retry_backoff_max=300,
    retry_jitter=True,
    soft_time_limit=900,
    time_limit=960,
)
def build_reports(self, build_id: str) -> dict:
    build = ReportBuild.objects.filter(pk=build_id).first()
    if build is None:
        logger.info("report build %s no longer exists", build_id)
        return {"status": "missing"}
    if build.status == ReportBuild.Status.DONE:
        return {"status": "done", "again": False}
    attempts = build.attempts + 1
    started = timezone.now()
    _mark(
        build_id,
        status=ReportBuild.Status.RUNNING,
        started_at=started,
        heartbeat_at=started,
        attempts=attempts,
        error="",
    )
    try:
        summary = _timed_build(build, task=self)
    except SoftTimeLimitExceeded:
        _mark(build_id, status=ReportBuild.Status.FAILED, error="took too long", finished_at=timezone.now())
        raise
    except RETRYABLE as error:
        if self.request.retries >= MAX_RETRIES:
            _mark(
                build_id, status=ReportBuild.Status.FAILED, error=str(error)[:300], finished_at=timezone.now()
            )
        else:
            _mark(build_id, status=ReportBuild.Status.QUEUED, step="retrying", error=str(error)[:300])
        raise
    except Exception as error:
        _mark(build_id, status=ReportBuild.Status.FAILED, error=str(error)[:300], finished_at=timezone.now())
        raise
    _mark(build_id, status=ReportBuild.Status.DONE, finished_at=timezone.now(), step="done")
    return {"status": "done", **summary}


@shared_task(name="reports.expire_stale", acks_late=True, soft_time_limit=110, time_limit=120)
def expire_stale_builds() -> int:
    """Builds that will never finish (their worker or message was lost) are marked failed for the page."""
    return services.builds_fail_stale()


@shared_task(
    name="reports.nightly", acks_late=True, reject_on_worker_lost=True, soft_time_limit=280, time_limit=300
)
def nightly_builds() -> int:
    """Queue a full build of every school with classes (each its own task)."""
    count = 0
    for school in School.objects.filter(classrooms__isnull=False).distinct():
        services.build_request(scope=ReportBuild.Scope.SCHOOL, school=school, dedupe=True)
        count += 1
    return count


@shared_task(
    name="reports.purge",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=RETRYABLE,
    max_retries=MAX_RETRIES,
    retry_backoff=5,
    time_limit=1800,
    soft_time_limit=1700,
)
def purge_expired() -> int:
    return services.facts_purge_expired()
