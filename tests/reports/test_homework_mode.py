"""Homework in the reports: its facts count in the same reports, its sessions are marked as homework (a
session with an assignment), the school review shows live games, homework or both, and a classmate's
homework is not a game the others missed."""

import pytest
from django.urls import reverse

from games.models import Assignment
from reports import selectors
from reports.build import classrooms_build
from reports.models import ClassSessionStat, StudentReport, StudentSessionStat

from .conftest import at, fact, finished_session

pytestmark = pytest.mark.django_db


def word_up_homework(classroom, teacher):
    return Assignment.objects.create(
        classroom=classroom, created_by=teacher, game="wordup", opens_at=at(3), due_at=at(6)
    )


def finished_attempt(assignment, student, *, day, correct):
    """A finished homework attempt of one answer."""
    attempt = finished_session(assignment.classroom, day=day, by=assignment.created_by, students=[student])
    attempt.assignment = assignment
    attempt.save()
    fact(student, attempt, category="spelling", correct=correct, time=4, item="q7", response="school")
    return attempt


@pytest.fixture
def live_and_homework(word_up_week, class_7b, ms_rivera, ava):
    attempt = finished_attempt(word_up_homework(class_7b, ms_rivera), ava, day=4, correct=True)
    classrooms_build([class_7b.pk])
    return attempt


def test_in_mode_picks_live_games_homework_or_both(live_and_homework, word_up_week):
    stats = ClassSessionStat.objects.all()
    assert {s.session_id for s in selectors.in_mode(stats, selectors.HOMEWORK)} == {live_and_homework.pk}
    assert {s.session_id for s in selectors.in_mode(stats, selectors.LIVE)} == {s.pk for s in word_up_week}
    assert selectors.in_mode(stats, selectors.BOTH).count() == 3
    with pytest.raises(ValueError):
        selectors.in_mode(stats, "sometimes")


def test_homework_answers_count_in_the_student_report(live_and_homework, class_7b, ava, ben):
    report = StudentReport.objects.get(student=ava, classroom=class_7b)
    assert (report.answered, report.correct) == (7, 5)
    assert StudentSessionStat.objects.filter(student=ava, session=live_and_homework).exists()
    # Ava's homework is not a game Ben missed: he took part in every live game.
    assert StudentReport.objects.get(student=ben, classroom=class_7b).data["totals"]["participation"] == 1.0
    assert report.data["totals"]["participation"] == 1.0


def test_the_school_review_filters_live_and_homework(live_and_homework, client_of, dr_patel, riverside):
    client = client_of(dr_patel)
    window = {"start": "2026-03-01", "end": "2026-03-31"}
    both = client.get(reverse("reports:school"), window).context["review"]["totals"]
    homework = client.get(reverse("reports:school"), {**window, "mode": "homework"}).context["review"][
        "totals"
    ]
    live = client.get(reverse("reports:school"), {**window, "mode": "live"}).context["review"]["totals"]
    assert (both["sessions"], homework["sessions"], live["sessions"]) == (3, 1, 2)
    assert homework["answered"] == 1 and live["answered"] == 9


def test_a_finished_homework_attempt_builds_its_student_report_only(live_and_homework, class_7b, ava):
    from reports import services
    from reports.models import ReportBuild

    services.build_after_session(live_and_homework.pk)
    build = ReportBuild.objects.get()
    assert (build.scope, build.student, build.classroom) == ("student", ava, class_7b)


def test_an_attempt_ending_while_its_students_build_runs_queues_another(live_and_homework, ava):
    """The running build may have read the student's facts already: the new attempt's facts need a build
    of their own. One still waiting serves both (a wrap-up delivered twice queues one build)."""
    from reports import services
    from reports.models import ReportBuild

    services.build_after_session(live_and_homework.pk)
    services.build_after_session(live_and_homework.pk)
    assert ReportBuild.objects.count() == 1
    ReportBuild.objects.update(status=ReportBuild.Status.RUNNING)
    services.build_after_session(live_and_homework.pk)
    assert sorted(ReportBuild.objects.values_list("status", flat=True)) == ["queued", "running"]
    assert {build.student for build in ReportBuild.objects.all()} == {ava}


def test_a_homework_assignment_is_one_line_of_the_class_report_with_its_attempts(
    word_up_week, class_7b, ms_rivera, ava, ben, client_of
):
    """Every attempt is a session of its own; the class's list and chart show the assignment once (its
    students, attempts, answers and days), so a class doing its homework never pushes the live games out."""
    from reports.models import ClassReport

    assignment = word_up_homework(class_7b, ms_rivera)
    for day, student, right in ((4, ava, True), (5, ava, False), (5, ben, True)):
        finished_attempt(assignment, student, day=day, correct=right)
    classrooms_build([class_7b.pk])

    sessions = ClassReport.objects.get(classroom=class_7b).data["sessions"]
    live, homework = (
        [s for s in sessions if not s.get("homework")],
        [s for s in sessions if s.get("homework")],
    )
    assert len(live) == len(word_up_week)
    assert len(homework) == 1
    assert homework[0] | {"accuracy": None, "mean_time": None, "session": None, "title": None} == {
        "day": at(5).date().isoformat(),
        "first_day": at(4).date().isoformat(),
        "game": "wordup",
        "participants": 2,
        "attempts": 3,
        "answered": 3,
        "correct": 2,
        "no_answer": 0,
        "measured": 0,
        "measured_right": 0,
        "homework": True,
        "accuracy": None,
        "mean_time": None,
        "session": None,
        "title": None,
    }
    assert homework[0]["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    page = client_of(ms_rivera).get(reverse("reports:class", args=[class_7b.pk])).content.decode()
    assert "3 attempts" in page
