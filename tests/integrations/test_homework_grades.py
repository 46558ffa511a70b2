"""Homework through the LMS: a teacher adds a homework of the class from "Add activity", and each
student's best attempt goes to the course's grades, posted again only when a later attempt beats it."""

from datetime import timedelta

import jwt
import pytest
from celery.exceptions import Retry
from django.urls import reverse
from django.utils import timezone

from classrooms.models import Enrolment, Student
from games import services as game_services
from games import signals
from games.models import GameSession
from integrations import grades, keys, tasks
from integrations.lti import ASSIGNMENT_PARAMETER, CLAIM
from integrations.models import CourseLink, DeepLinkRequest, ResourceLink, ScoreSent
from reports.models import LearningFact

from .platform import ISSUER, LEARNER

pytestmark = pytest.mark.django_db

CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"


def _homework(classroom, **fields):
    return game_services.assignment_create(
        classroom=classroom,
        by=classroom.teachers.get(),
        game="lineup",
        title=fields.pop("title", "Fractions at home"),
        opens_at=timezone.now() - timedelta(hours=1),
        due_at=timezone.now() + timedelta(days=2),
        attempts_allowed=0,
        **fields,
    )


def test_a_teacher_adds_a_homework_of_the_class_from_add_activity(client, lms, moodle):
    lms.launch(client)
    classroom = CourseLink.objects.get().classroom
    assignment = _homework(classroom)
    closed = _homework(classroom, title="Closed one")
    closed.closed_at = timezone.now()
    closed.save(update_fields=["closed_at"])
    lms.launch(client, **lms.deep_link_claims())
    picking = DeepLinkRequest.objects.get()
    url = reverse("integrations:deep_link", args=[picking.pk])
    page = client.get(url).content.decode()
    assert "Homework of the class" in page and "Fractions at home" in page and "Closed one" not in page
    response = client.post(url, {"action": "pick_homework", "assignment": assignment.pk})
    assert response.status_code == 200
    token = response.content.decode().split('name="JWT" value="')[1].split('"')[0]
    body = jwt.decode(token, keys.current_key().public_pem, algorithms=["RS256"], audience=[ISSUER])
    [item] = body[CONTENT_ITEMS]
    assert item["custom"] == {ASSIGNMENT_PARAMETER: str(assignment.pk)}
    assert item["title"] == "Fractions at home"
    assert item["lineItem"]["scoreMaximum"] == grades.SCORE_MAXIMUM
    assert item["lineItem"]["resourceId"] == f"classplay-assignment-{assignment.pk}"


def test_another_classs_homework_cannot_be_picked(client, lms, moodle, class_7c):
    lms.launch(client)
    elsewhere = _homework(class_7c)
    lms.launch(client, **lms.deep_link_claims())
    picking = DeepLinkRequest.objects.get()
    url = reverse("integrations:deep_link", args=[picking.pk])
    response = client.post(url, {"action": "pick_homework", "assignment": elsewhere.pk}, follow=True)
    assert "Choose one of the class&#x27;s open homework assignments." in response.content.decode()
    assert DeepLinkRequest.objects.get().answered_at is None


@pytest.fixture
def linked_homework(client, lms, moodle):
    """A homework added to the course, launched once by the teacher (the LMS's line item is known) and
    once by Ava (the LMS's user id is known)."""
    lms.launch(client)
    assignment = _homework(CourseLink.objects.get().classroom)
    custom = {CLAIM + "custom": {ASSIGNMENT_PARAMETER: str(assignment.pk)}}
    lms.launch(client, **custom)
    ava = {"sub": "lms-ava", CLAIM + "roles": [LEARNER], "email": None, "given_name": "Ava", "name": "Ava"}
    lms.launch(client.__class__(), **(ava | custom))
    link = ResourceLink.objects.get()
    assert link.assignment == assignment and link.lineitem_url == lms.lineitem_url
    return assignment


def _attempt(assignment, student, answers: list[bool], capture):
    """One finished attempt with these answers, wrapped up as the runtime wraps one up."""
    session = game_services.attempt_start(assignment=assignment, student=student)
    GameSession.objects.filter(pk=session.pk).update(
        status=GameSession.Status.FINISHED, ended_at=timezone.now()
    )
    for number, right in enumerate(answers):
        LearningFact.objects.create(
            student=student,
            classroom=assignment.classroom,
            session=session,
            key=f"hw:{session.pk}:{number}",
            game="lineup",
            skill="reading",
            correct=right,
        )
    with capture(execute=True):
        signals.session_wrapped_up.send(sender=GameSession, session_id=session.pk)
    return session


def _posted(lms) -> list[tuple[str, float, float]]:
    return [(score["userId"], score["scoreGiven"], score["scoreMaximum"]) for score in lms.scores]


def test_the_best_attempt_is_posted_and_posted_again_only_when_beaten(
    lms, linked_homework, django_capture_on_commit_callbacks, eager_celery
):
    ava = Student.objects.get(given_name="Ava")
    capture = django_capture_on_commit_callbacks
    _attempt(linked_homework, ava, [True, True, False, False], capture)
    assert _posted(lms) == [("lms-ava", 50.0, 100)]
    assert lms.scores[0]["activityProgress"] == "Completed"

    _attempt(linked_homework, ava, [True, False, False, False], capture)  # worse: nothing sent
    assert len(lms.scores) == 1

    better = _attempt(linked_homework, ava, [True, True, True, False], capture)
    assert _posted(lms)[1:] == [("lms-ava", 75.0, 100)]
    row = ScoreSent.objects.get()
    assert row.score_given == 75.0 and row.sent_at is not None

    # A redelivered wrap-up, the task run again, the nightly re-queue: nothing more is sent.
    with capture(execute=True):
        signals.session_wrapped_up.send(sender=GameSession, session_id=better.pk)
    tasks.post_scores.delay(ResourceLink.objects.get().pk)
    tasks.nightly.delay()
    assert len(lms.scores) == 2


def test_a_refused_post_is_retried_and_a_better_score_meanwhile_replaces_it(
    lms, linked_homework, django_capture_on_commit_callbacks, eager_celery
):
    ava = Student.objects.get(given_name="Ava")
    capture = django_capture_on_commit_callbacks
    lms.refuse_scores = 2
    with pytest.raises(Retry):
        _attempt(linked_homework, ava, [True, False], capture)
    refused = ScoreSent.objects.get()
    assert refused.sent_at is None and "503" in refused.last_error and not lms.scores
    # A better attempt before the retry: the row now holds it, and the platform refuses once more.
    with pytest.raises(Retry):
        _attempt(linked_homework, ava, [True, True], capture)
    tasks.post_scores.delay(ResourceLink.objects.get().pk)  # the retry
    assert _posted(lms) == [("lms-ava", 100.0, 100)]
    assert ScoreSent.objects.get().attempts == 3


def test_a_student_who_never_came_from_the_lms_sends_nothing(
    lms, linked_homework, ben, django_capture_on_commit_callbacks, eager_celery
):
    Enrolment.objects.create(
        student=ben, classroom=linked_homework.classroom
    )  # added by hand, not by the LMS
    _attempt(linked_homework, ben, [True], django_capture_on_commit_callbacks)
    assert not lms.scores and not ScoreSent.objects.exists()
