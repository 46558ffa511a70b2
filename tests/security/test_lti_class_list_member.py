"""One course member the class cannot take never stops a course's class-list sync: that member is left
out with a reason the teacher reads on the class page, the rest is applied, and every sync's outcome
(its counts, who was left out and why, or its error) is recorded and shown there."""

import pytest
from django.db import IntegrityError
from django.urls import reverse
from pylti1p3.exception import LtiException

from classrooms.models import Student
from integrations import roster, services, tasks
from integrations.models import CourseLink, PersonLink, RosterRun
from tests.integrations.platform import learner

pytestmark = pytest.mark.django_db


@pytest.fixture
def course(client, lms, moodle):
    """The teacher opened Classplay in the course: their LMS id ("lms-user-teacher") is linked to them."""
    lms.launch(client)
    return CourseLink.objects.get()


def _class_page(client, course) -> str:
    return client.get(reverse("classroom_detail", args=[course.classroom_id])).content.decode()


def _enrolled(course) -> list[str]:
    students = Student.objects.filter(enrolments__classroom=course.classroom)
    return sorted(students.values_list("given_name", flat=True))


def test_a_learner_with_a_teachers_lms_id_is_left_out_and_the_rest_applied(
    client, lms, course, django_capture_on_commit_callbacks, eager_celery
):
    lms.members = [
        learner("lms-ava", "Ava", "Okoro"),
        learner("lms-user-teacher", "Rosa", "Rivera"),  # the teacher's own LMS id, listed as a Learner
        learner("lms-ben", "Ben", "Adams"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("integrations:roster_sync", args=[course.pk]))
    assert response.status_code == 302
    assert _enrolled(course) == ["Ava", "Ben"]
    assert PersonLink.objects.get(lti_user_id="lms-user-teacher").user == course.classroom.teachers.get()
    run = RosterRun.objects.get()
    assert (run.outcome, run.added, run.renamed, run.removed) == ("applied", 2, 0, 0)
    assert run.skipped == [{"name": "Rosa Rivera", "reason": RosterRun.TEACHER_ACCOUNT}]
    page = _class_page(client, course)
    assert "Updated from <bdi>Year 7 English</bdi> on" in page
    assert "2 added, 0 renamed, 0 taken off the class." in page
    assert "1 member of the course was left out:" in page
    assert "<strong><bdi>Rosa Rivera</bdi></strong>: This course account is a teacher in Classplay" in page
    # And every night alike: the list is applied, the same member left out.
    tasks.nightly.delay()
    latest = RosterRun.objects.first()
    assert RosterRun.objects.count() == 2 and latest.outcome == "applied" and latest.skipped == run.skipped
    assert _enrolled(course) == ["Ava", "Ben"]


def test_a_member_that_will_not_save_is_left_out_and_the_rest_applied(client, lms, course, monkeypatch):
    made = services.learner_student

    def refuses_ben(course, user_id, member, link):
        if user_id == "lms-ben":
            raise IntegrityError("duplicate key")
        return made(course, user_id, member, link)

    monkeypatch.setattr(services, "learner_student", refuses_ben)
    lms.members = [learner("lms-ava", "Ava", "Okoro"), learner("lms-ben", "Ben", "Adams")]
    result = roster.roster_sync(course_id=course.pk)
    assert result.added == 1 and _enrolled(course) == ["Ava"]
    assert RosterRun.objects.get().skipped == [{"name": "Ben Adams", "reason": RosterRun.NOT_SAVED}]
    assert "Classplay could not add this member." in _class_page(client, course)


def test_a_sync_that_fails_is_shown_with_its_error(client, lms, course):
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    roster.roster_sync(course_id=course.pk)
    lms.members_status = 503
    with pytest.raises(LtiException):
        roster.roster_sync(course_id=course.pk)
    run = RosterRun.objects.first()
    assert run.outcome == "failed" and "503" in run.error
    page = _class_page(client, course)
    assert "failed, and the class list was left as it was" in page and _enrolled(course) == ["Ava"]


def test_a_list_with_no_learners_is_shown_as_left_as_it_was(client, lms, course):
    lms.members = []
    roster.roster_sync(course_id=course.pk)
    assert RosterRun.objects.get().outcome == "left_as_is"
    assert "sent no learners" in _class_page(client, course)


def test_only_the_latest_outcomes_are_kept(lms, course):
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    for _run in range(RosterRun.KEPT + 3):
        roster.roster_sync(course_id=course.pk)
    assert RosterRun.objects.filter(course=course).count() == RosterRun.KEPT
