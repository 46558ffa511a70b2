"""The Celery task: queued after commit, progress, retries with a bound, idempotent reruns, the beat tasks."""

from unittest import mock

import pytest
from django.db import OperationalError

from reports import services, tasks
from reports.models import ClassReport, ReportBuild, StudentReport

pytestmark = pytest.mark.django_db


def test_a_build_is_queued_only_after_the_commit(
    word_up_week, class_7b, ms_rivera, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        build = services.build_request(
            scope="classroom", school=class_7b.school, classroom=class_7b, by=ms_rivera
        )
        assert not ClassReport.objects.exists()
    assert len(callbacks) == 1
    callbacks[0]()
    build.refresh_from_db()
    assert (build.status, build.done, build.total, build.attempts) == ("done", 3, 3, 1)
    assert build.percent == 100
    assert StudentReport.objects.filter(classroom=class_7b).count() == 2


def test_a_double_click_queues_one_build(class_7b, ms_rivera, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        first = services.build_request(
            scope="classroom", school=class_7b.school, classroom=class_7b, by=ms_rivera, dedupe=True
        )
        second = services.build_request(
            scope="classroom", school=class_7b.school, classroom=class_7b, by=ms_rivera, dedupe=True
        )
    assert first == second and len(callbacks) == 1


def test_progress_is_reported_in_the_task_state(word_up_week, class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    states = []
    with mock.patch.object(tasks.build_reports, "update_state", side_effect=lambda **kw: states.append(kw)):
        tasks.build_reports.apply(args=[str(build.pk)], task_id=str(build.pk))
    assert states[-1] == {"state": "PROGRESS", "meta": {"done": 3, "total": 3, "step": "done"}}


def test_a_database_hiccup_is_retried_then_succeeds(word_up_week, class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    real = tasks.run_build
    calls = []

    def flaky(build, task=None):
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return real(build, task)

    with mock.patch.object(tasks, "run_build", side_effect=flaky):
        result = tasks.build_reports.apply(args=[str(build.pk)], task_id=str(build.pk))
    assert result.successful() and len(calls) == 3
    build.refresh_from_db()
    assert (build.status, build.attempts) == ("done", 3)


def test_retries_are_bounded(class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    with mock.patch.object(tasks, "run_build", side_effect=OperationalError("down")) as run:
        result = tasks.build_reports.apply(args=[str(build.pk)], task_id=str(build.pk))
    assert result.failed()
    assert run.call_count == tasks.MAX_RETRIES + 1
    build.refresh_from_db()
    assert build.status == "failed" and "down" in build.error


def test_a_bug_is_not_retried_and_marks_the_build_failed(class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    with mock.patch.object(tasks, "run_build", side_effect=ValueError("bad data")) as run:
        result = tasks.build_reports.apply(args=[str(build.pk)], task_id=str(build.pk))
    assert result.failed() and run.call_count == 1
    build.refresh_from_db()
    assert (build.status, build.error) == ("failed", "bad data")


def test_the_task_options_make_it_safe_to_redeliver():
    task = tasks.build_reports
    assert task.acks_late and task.reject_on_worker_lost
    assert task.time_limit and task.soft_time_limit and task.soft_time_limit < task.time_limit
    assert task.max_retries == tasks.MAX_RETRIES and task.retry_backoff


def test_a_redelivered_message_after_a_finished_build_does_nothing(word_up_week, class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    tasks.build_reports.apply(args=[str(build.pk)])
    with mock.patch.object(tasks, "run_build") as run:
        assert tasks.build_reports.apply(args=[str(build.pk)]).get() == {"status": "done", "again": False}
    run.assert_not_called()


def test_a_task_for_a_deleted_build_ends_quietly():
    assert tasks.build_reports.apply(args=["00000000-0000-0000-0000-000000000000"]).get() == {
        "status": "missing"
    }


def test_a_school_build_walks_every_class(word_up_week, class_7b, class_7c, riverside, cleo):
    build = ReportBuild.objects.create(scope="school", school=riverside)
    result = tasks.build_reports.apply(args=[str(build.pk)]).get()
    assert result["classrooms"] == 2 and result["students"] == 3
    assert ClassReport.objects.count() == 2


def test_a_finished_session_queues_its_build(word_up_week, class_7b, eager_celery):
    services.build_after_session(word_up_week[0].pk)
    build = ReportBuild.objects.get(scope="session")
    assert build.session == word_up_week[0] and build.classroom == class_7b
    # (in a test transaction the on-commit send does not run: the build waits, queued)
    assert build.status == "queued"


def test_an_unreachable_broker_marks_the_build_failed_instead_of_crashing(class_7b, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    with mock.patch.object(tasks.build_reports, "apply_async", side_effect=ConnectionError("no broker")):
        services._send(build.pk)
    build.refresh_from_db()
    assert build.status == "failed" and "no broker" in build.error


def test_the_nightly_task_queues_one_build_per_school(class_7b, class_9a, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        assert tasks.nightly_builds.apply().get() == 2
        assert tasks.nightly_builds.apply().get() == 2  # the waiting ones are reused
    assert ReportBuild.objects.filter(scope="school").count() == 2


def test_the_beat_schedule_names_the_tasks():
    from config.celery import app

    names = {entry["task"] for entry in app.conf.beat_schedule.values()}
    assert {"reports.nightly", "reports.purge"} <= names


@pytest.mark.parametrize(
    "name", ["games.worker_heartbeat", "reports.expire_stale", "reports.nightly", "reports.purge"]
)
def test_every_task_beat_queues_can_be_queued(name, monkeypatch):
    """A task whose soft time limit (its own, or the settings' 540 s) is above its hard limit cannot be
    sent at all: beat logged a SchedulingError every minute, and the worker heartbeat, the stale-build
    sweep and the nightly builds never ran with real services."""
    from config.celery import app

    app.loader.import_default_modules()  # every app's tasks, as the worker and beat load them
    sent = []
    monkeypatch.setattr(app, "send_task", lambda *args, **kwargs: sent.append(kwargs))
    task = app.tasks[name]
    task.apply_async()
    assert len(sent) == 1
    soft = task.soft_time_limit or app.conf.task_soft_time_limit
    hard = task.time_limit or app.conf.task_time_limit
    assert soft <= hard


def test_every_task_has_a_soft_limit_below_its_hard_one():
    from config.celery import app

    app.loader.import_default_modules()
    for name, task in app.tasks.items():
        if name.startswith(("games.", "reports.")):
            soft = task.soft_time_limit or app.conf.task_soft_time_limit
            hard = task.time_limit or app.conf.task_time_limit
            assert soft <= hard, name


def test_the_command_builds_a_class_here(word_up_week, class_7b):
    from django.core.management import call_command

    call_command("build_reports", "--class", str(class_7b.pk), "--now")
    assert StudentReport.objects.filter(classroom=class_7b).count() == 2
    assert ReportBuild.objects.get().status == "done"


def test_ending_a_session_builds_its_report(
    class_7b, ms_rivera, ava, ben, eager_celery, django_capture_on_commit_callbacks
):
    """Through the games' own services: the session ends, the build is queued after the commit and runs."""
    from django.utils import timezone

    from games import services as games

    session = games.session_schedule(
        classroom=class_7b, by=ms_rivera, game="lineup", scheduled_for=timezone.now()
    )
    games.session_open_lobby(session=session, by=ms_rivera)
    games.session_join(session=session, student=ava)
    games.session_join(session=session, student=ben)
    games.session_start(session=session, by=ms_rivera, now=1_000_000.0)
    with django_capture_on_commit_callbacks(execute=True):
        games.session_end(session=session, by=ms_rivera)
    build = ReportBuild.objects.get(scope="session", session=session)
    assert build.status == "done"
    assert StudentReport.objects.filter(classroom=class_7b).count() == 2


def _student_build(school, classroom, student):
    return ReportBuild.objects.create(scope="student", school=school, classroom=classroom, student=student)


def test_a_student_build_takes_along_the_classs_waiting_student_builds(
    word_up_week, class_7b, class_7c, riverside, ava, ben, cleo
):
    """A worker behind on an evening of homework reads the class once for every student waiting."""
    first, bens = _student_build(riverside, class_7b, ava), _student_build(riverside, class_7b, ben)
    other_class = _student_build(riverside, class_7c, cleo)
    whole_class = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=class_7b)
    result = tasks.build_reports.apply(args=[str(first.pk)]).get()
    assert result["students"] == 2
    assert set(StudentReport.objects.values_list("student_id", flat=True)) == {ava.pk, ben.pk}
    for build in (first, bens, other_class, whole_class):
        build.refresh_from_db()
    assert (first.status, bens.status, bens.finished_at is not None) == ("done", "done", True)
    assert (other_class.status, whole_class.status) == ("queued", "queued")
    with mock.patch.object(tasks, "run_build") as run:  # Ben's own task finds it done
        assert tasks.build_reports.apply(args=[str(bens.pk)]).get() == {"status": "done", "again": False}
    run.assert_not_called()


def test_a_failed_student_build_leaves_the_builds_it_took_along_waiting(
    word_up_week, class_7b, riverside, ava, ben
):
    first, bens = _student_build(riverside, class_7b, ava), _student_build(riverside, class_7b, ben)
    with mock.patch.object(tasks, "classrooms_build", side_effect=ValueError("bad data")):
        assert tasks.build_reports.apply(args=[str(first.pk)]).failed()
    first.refresh_from_db()
    bens.refresh_from_db()
    assert (first.status, bens.status) == ("failed", "queued")
    tasks.build_reports.apply(args=[str(bens.pk)]).get()
    bens.refresh_from_db()
    assert bens.status == "done" and StudentReport.objects.filter(student=ben).exists()


def test_a_student_build_already_running_elsewhere_is_not_taken_along(
    word_up_week, class_7b, riverside, ava, ben
):
    first, bens = _student_build(riverside, class_7b, ava), _student_build(riverside, class_7b, ben)
    ReportBuild.objects.filter(pk=bens.pk).update(status="running")
    assert tasks.build_reports.apply(args=[str(first.pk)]).get()["students"] == 1
    bens.refresh_from_db()
    assert bens.status == "running"
