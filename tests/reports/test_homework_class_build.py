"""After homework, the class's own figures follow: once an attempt's student build has written it, a build
of the class's figures (its sessions, headline, questions and homework view; not its students' reports)
runs, debounced: one still waiting absorbs the next request, and a class gets at most one such build every
``CLASS_AFTER_HOMEWORK_EVERY``."""

from datetime import timedelta
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from reports import services, tasks
from reports.build import classrooms_build
from reports.models import ClassReport, ClassSessionStat, ReportBuild, StudentReport

from .test_homework_mode import finished_attempt, word_up_homework

pytestmark = pytest.mark.django_db


@pytest.fixture
def built_week(word_up_week, class_7b):
    """Two live games of 7B, its reports built (no homework yet)."""
    classrooms_build([class_7b.pk])
    return word_up_week


def _attempt_ends(attempt):
    """What the attempt's wrap-up does, its queued builds run by the (eager) worker after the commit."""
    services.build_after_session(attempt.pk)


def test_after_a_homework_attempt_the_class_report_shows_it_without_a_rebuild(
    built_week, class_7b, ms_rivera, ava, client_of, eager_celery, django_capture_on_commit_callbacks
):
    before = ClassReport.objects.get(classroom=class_7b).data["totals"]
    attempt = finished_attempt(word_up_homework(class_7b, ms_rivera), ava, day=4, correct=True)
    with django_capture_on_commit_callbacks(execute=True):
        _attempt_ends(attempt)
    builds = dict(ReportBuild.objects.values_list("scope", "status"))
    assert builds == {"student": "done", "homework": "done"}
    # The headline counts the attempt, the sessions list shows it, and so does the homework view.
    data = ClassReport.objects.get(classroom=class_7b).data
    assert (data["totals"]["sessions"], data["totals"]["answered"]) == (
        before["sessions"] + 1,
        before["answered"] + 1,
    )
    assert [entry["attempts"] for entry in data["sessions"] if entry.get("homework")] == [1]
    homework = data["modes"]["homework"]
    assert (homework["totals"]["sessions"], homework["totals"]["answered"]) == (1, 1)
    assert ClassSessionStat.objects.filter(session=attempt).exists()
    client = client_of(ms_rivera)
    page = client.get(reverse("reports:class", args=[class_7b.pk]), {"mode": "homework"}).content.decode()
    assert "1 attempt" in page


def test_two_attempts_finishing_together_queue_one_class_build(
    built_week, class_7b, ms_rivera, ava, ben, django_capture_on_commit_callbacks
):
    homework = word_up_homework(class_7b, ms_rivera)
    attempts = [finished_attempt(homework, student, day=4, correct=True) for student in (ava, ben)]
    with django_capture_on_commit_callbacks(execute=False):
        for attempt in attempts:
            _attempt_ends(attempt)
    avas, bens = (ReportBuild.objects.get(scope="student", student=student) for student in (ava, ben))
    with django_capture_on_commit_callbacks(execute=False) as sent:
        tasks.build_reports.apply(args=[str(avas.pk)]).get()  # takes Ben's along
        tasks.build_reports.apply(args=[str(bens.pk)]).get()  # finds it done
    assert ReportBuild.objects.filter(scope="homework").count() == 1 and len(sent) == 1


def test_a_class_build_still_waiting_absorbs_the_next_request(
    built_week, class_7b, ms_rivera, ava, ben, django_capture_on_commit_callbacks
):
    """Each student's build asks once it is written; the class's build waiting (here, not yet sent) serves
    every request until it starts."""
    homework = word_up_homework(class_7b, ms_rivera)
    for student in (ava, ben):
        attempt = finished_attempt(homework, student, day=4, correct=True)
        with django_capture_on_commit_callbacks(execute=False):
            _attempt_ends(attempt)
        own = ReportBuild.objects.get(scope="student", student=student)
        with django_capture_on_commit_callbacks(execute=False):
            tasks.build_reports.apply(args=[str(own.pk)]).get()
    assert ReportBuild.objects.filter(scope="homework").count() == 1


def test_a_new_class_build_waits_until_a_few_seconds_after_the_last_one_started(
    class_7b, django_capture_on_commit_callbacks
):
    every = services.CLASS_AFTER_HOMEWORK_EVERY.total_seconds()
    school = class_7b.school_id
    with django_capture_on_commit_callbacks(execute=False) as first_sent:
        first = services.build_class_after_homework(classroom_id=class_7b.pk, school_id=school)
    ReportBuild.objects.filter(pk=first.pk).update(
        status="running", started_at=timezone.now() - timedelta(seconds=2)
    )
    with django_capture_on_commit_callbacks(execute=False) as second_sent:
        second = services.build_class_after_homework(classroom_id=class_7b.pk, school_id=school)
        # A third request while the second waits is absorbed by it.
        assert services.build_class_after_homework(classroom_id=class_7b.pk, school_id=school) == second
    assert second != first and len(second_sent) == 1
    with mock.patch.object(tasks.build_reports, "apply_async") as send:
        first_sent[0]()
        second_sent[0]()
    first_kwargs, second_kwargs = (call.kwargs for call in send.call_args_list)
    assert "countdown" not in first_kwargs  # the class had no build lately: it starts at once
    assert every - 2 - 1 < second_kwargs["countdown"] <= every - 2
    # Once the last one started long enough ago, the next starts at once.
    ReportBuild.objects.filter(scope="homework").update(
        status="done", started_at=timezone.now() - timedelta(seconds=every + 1)
    )
    with django_capture_on_commit_callbacks(execute=False) as third_sent:
        services.build_class_after_homework(classroom_id=class_7b.pk, school_id=school)
    with mock.patch.object(tasks.build_reports, "apply_async") as send:
        third_sent[0]()
    assert "countdown" not in send.call_args.kwargs


def test_the_class_build_after_homework_leaves_the_students_reports_to_their_own_builds(
    built_week, class_7b, ms_rivera, ava, riverside
):
    attempt = finished_attempt(word_up_homework(class_7b, ms_rivera), ava, day=4, correct=True)
    reports_before = dict(StudentReport.objects.values_list("student_id", "built_at"))
    build = ReportBuild.objects.create(scope="homework", school=riverside, classroom=class_7b)
    result = tasks.build_reports.apply(args=[str(build.pk)]).get()
    assert (result["status"], result["students"]) == ("done", 0)
    assert dict(StudentReport.objects.values_list("student_id", "built_at")) == reports_before
    assert ClassSessionStat.objects.filter(session=attempt).exists()
    assert ClassReport.objects.get(classroom=class_7b).data["modes"]["homework"]["totals"]["answered"] == 1
