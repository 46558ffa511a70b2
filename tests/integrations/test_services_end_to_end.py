"""Login → launch → deep link → roster sync → grade passback, against the test LMS."""

from datetime import timedelta
from urllib.parse import urlsplit

import jwt
import pytest
import requests
from celery.exceptions import Retry
from django.urls import reverse
from django.utils import timezone

from classrooms.models import Enrolment, Student
from games import services as game_services
from games import signals
from games.models import GameSession
from integrations import grades, keys, roster, tasks
from integrations.lti import CLAIM, SESSION_PARAMETER
from integrations.models import CourseLink, DeepLinkRequest, ResourceLink, ScoreSent
from reports.models import LearningFact

from .platform import CLIENT_ID, INSTRUCTOR, ISSUER, learner

pytestmark = pytest.mark.django_db

CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"


def _teacher_deep_link(client, lms):
    claims = lms.deep_link_claims()
    response = lms.launch(client, **claims)
    picking = DeepLinkRequest.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "integrations:deep_link", args=[picking.pk]
    )
    return picking, claims


def _returned_items(response, claims) -> list[dict]:
    page = response.content.decode()
    assert f'action="{ISSUER}/deep-link-return"' in page
    token = page.split('name="JWT" value="')[1].split('"')[0]
    body = jwt.decode(token, keys.current_key().public_pem, algorithms=["RS256"], audience=[ISSUER])
    assert body["iss"] == CLIENT_ID
    assert body[CLAIM + "message_type"] == "LtiDeepLinkingResponse"
    assert (
        body["https://purl.imsglobal.org/spec/lti-dl/claim/data"]
        == claims["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]["data"]
    )
    assert ISSUER in response["Content-Security-Policy"]  # the form may post back to the LMS
    return body[CONTENT_ITEMS]


def test_a_teacher_schedules_a_game_from_add_activity(client, lms, moodle):
    picking, claims = _teacher_deep_link(client, lms)
    page = client.get(reverse("integrations:deep_link", args=[picking.pk]))
    assert page.status_code == 200
    start = (timezone.localtime() + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(
        reverse("integrations:deep_link", args=[picking.pk]),
        {
            "action": "schedule",
            "classroom": picking.course.classroom_id,
            "game": "lineup",
            "title": "Fractions race",
            "scheduled_for": start,
            "planned_minutes": 20,
            "arrangement": "balanced",
        },
    )
    assert response.status_code == 200, response.content.decode()[-2000:]
    session = GameSession.objects.get()
    assert session.title == "Fractions race" and session.classroom == picking.course.classroom
    [item] = _returned_items(response, claims)
    assert item["type"] == "ltiResourceLink" and item["url"].endswith("/lti/launch/")
    assert item["custom"] == {SESSION_PARAMETER: str(session.pk)}
    assert item["lineItem"]["scoreMaximum"] == grades.SCORE_MAXIMUM
    # The request is answered: the page is gone.
    assert client.get(reverse("integrations:deep_link", args=[picking.pk])).status_code == 404


def test_a_teacher_picks_a_game_already_scheduled(client, lms, moodle):
    picking, claims = _teacher_deep_link(client, lms)
    classroom = picking.course.classroom
    session = game_services.session_schedule(
        classroom=classroom,
        by=classroom.teachers.get(),
        game="lineup",
        scheduled_for=timezone.now() + timedelta(days=1),
    )
    response = client.post(
        reverse("integrations:deep_link", args=[picking.pk]), {"action": "pick", "session": session.pk}
    )
    [item] = _returned_items(response, claims)
    assert item["custom"] == {SESSION_PARAMETER: str(session.pk)}


def test_a_learner_cannot_add_activities(client, lms, moodle):
    lms.launch(client)
    claims = (
        lms.deep_link_claims()
        | learner("lms-ava", "Ava", "Okoro")
        | {"sub": "lms-ava", CLAIM + "roles": learner("x", "", "")["roles"]}
    )
    response = lms.launch(client.__class__(), **claims)
    assert response.status_code == 403 and not DeepLinkRequest.objects.exists()


def test_another_teacher_cannot_answer_someone_elses_deep_link(client, lms, moodle, mr_moss):
    picking, _claims = _teacher_deep_link(client, lms)
    other = client.__class__()
    other.force_login(mr_moss)
    assert other.get(reverse("integrations:deep_link", args=[picking.pk])).status_code == 404


def test_the_roster_follows_the_course(client, lms, moodle, django_capture_on_commit_callbacks, eager_celery):
    lms.launch(client)
    course = CourseLink.objects.get()
    classroom = course.classroom
    lms.members = [
        learner("lms-ava", "Ava", "Okoro"),
        learner("lms-ben", "Ben", "Adams"),
        {
            "user_id": "lms-teacher",
            "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
            "status": "Active",
            "name": "Rosa Rivera",
        },
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("integrations:roster_sync", args=[course.pk]))
    assert response.status_code == 302
    assert sorted(
        Student.objects.filter(enrolments__classroom=classroom).values_list("given_name", flat=True)
    ) == ["Ava", "Ben"]
    ben = Student.objects.get(given_name="Ben")
    LearningFact.objects.create(
        student=ben, classroom=classroom, key="t:1:1", game="lineup", skill="reading", correct=True
    )

    # Ava renamed, Ben gone from the course, Cleo added; a second run changes nothing more.
    lms.members = [
        learner("lms-ava", "Ava", "Okoro-Smith"),
        learner("lms-cleo", "Cleo", "Baptiste"),
        learner("lms-ben", "Ben", "Adams", status="Deleted"),
    ]
    for _run in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("integrations:roster_sync", args=[course.pk]))
        names = sorted(
            Student.objects.filter(enrolments__classroom=classroom).values_list("family_name", flat=True)
        )
        assert names == ["Baptiste", "Okoro-Smith"]
    # Unenrolled, never deleted: Ben and his learning data stay.
    assert Student.objects.filter(pk=ben.pk).exists() and ben.facts.count() == 1
    assert not Enrolment.objects.filter(student=ben).exists()
    course.refresh_from_db()
    assert course.roster_synced_at is not None


def test_the_nightly_task_syncs_every_linked_course(client, lms, moodle, eager_celery):
    lms.launch(client)
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    assert tasks.nightly.delay().get() == 1
    assert Student.objects.filter(given_name="Ava").exists()


def test_scores_of_a_launched_session_are_posted_once(
    client, lms, moodle, django_capture_on_commit_callbacks, eager_celery
):
    lms.launch(client)
    course = CourseLink.objects.get()
    classroom = course.classroom
    teacher = classroom.teachers.get()
    session = game_services.session_play_now(classroom=classroom, by=teacher, game="lineup")
    lms.launch(client, **{CLAIM + "custom": {SESSION_PARAMETER: str(session.pk)}})
    lms.members = [learner("lms-ava", "Ava", "Okoro"), learner("lms-ben", "Ben", "Adams")]
    roster.roster_sync(course_id=course.pk)
    ava, ben = Student.objects.get(given_name="Ava"), Student.objects.get(given_name="Ben")
    for number, (student, right) in enumerate(
        [(ava, True), (ava, True), (ava, False), (ava, True), (ben, False)]
    ):
        LearningFact.objects.create(
            student=student,
            classroom=classroom,
            session=session,
            key=f"s:{number}",
            game="lineup",
            skill="reading",
            correct=right,
        )
    assert grades.session_scores(session.pk) == {ava.pk: 75.0, ben.pk: 0.0}

    lms.refuse_scores = 1  # the platform is busy once: the task asks to be retried, the refusal kept
    with pytest.raises(Retry), django_capture_on_commit_callbacks(execute=True):
        signals.session_wrapped_up.send(sender=GameSession, session_id=session.pk)
    refused = ScoreSent.objects.get(attempts=1, sent_at__isnull=True)
    assert "503" in refused.last_error and not lms.scores
    tasks.post_scores.delay(ResourceLink.objects.get().pk)  # the retry
    sent = {score["userId"]: (score["scoreGiven"], score["scoreMaximum"]) for score in lms.scores}
    assert sent == {"lms-ava": (75.0, 100), "lms-ben": (0.0, 100)}
    assert all(
        score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"
        for score in lms.scores
    )
    assert ScoreSent.objects.filter(sent_at__isnull=False).count() == 2

    # A redelivered wrap-up (or the nightly re-queue) sends nothing twice.
    with django_capture_on_commit_callbacks(execute=True):
        signals.session_wrapped_up.send(sender=GameSession, session_id=session.pk)
    tasks.nightly.delay()
    assert len(lms.scores) == 2
    assert ResourceLink.objects.get().session == session


def test_a_platform_too_slow_to_answer_fails_the_sync_in_time_for_a_retry(client, lms, moodle, settings):
    settings.LTI_HTTP_TIMEOUT = 5
    lms.launch(client)
    course = CourseLink.objects.get()
    lms.delays[urlsplit(lms.memberships_url).path] = 120
    with pytest.raises(requests.exceptions.ReadTimeout):  # the task retries on it (RETRY_UNTIL_ACCEPTED)
        roster.roster_sync(course_id=course.pk)


def test_an_empty_member_list_takes_no_one_off_the_class(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    roster.roster_sync(course_id=course.pk)
    lms.members = []  # not even the teacher: a privacy setting or a glitch on the platform
    result = roster.roster_sync(course_id=course.pk)
    assert result.removed == 0
    assert Enrolment.objects.filter(classroom=course.classroom, student__given_name="Ava").exists()


def test_a_member_list_with_no_learners_takes_no_one_off_the_class(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    roster.roster_sync(course_id=course.pk)
    teacher = {**learner("lms-rivera", "Ana", "Rivera"), "roles": [INSTRUCTOR]}
    lms.members = [teacher]  # the learners hidden by the platform's privacy setting
    result = roster.roster_sync(course_id=course.pk)
    assert result.removed == 0
    assert Enrolment.objects.filter(classroom=course.classroom, student__given_name="Ava").exists()


def test_a_student_the_teacher_added_by_hand_stays_when_the_course_leaves_them_out(client, lms, moodle):
    """The platform knows Ben from another course, and his teacher added him to this class by hand: the
    roster of this course takes off only the students it enrolled."""
    from integrations.models import PersonLink

    lms.launch(client)
    course = CourseLink.objects.get()
    lms.members = [learner("lms-ava", "Ava", "Okoro"), learner("lms-ben", "Ben", "Adams")]
    roster.roster_sync(course_id=course.pk)
    ben = Student.objects.get(given_name="Ben")
    assert PersonLink.objects.filter(student=ben).exists()
    # Ben leaves the course; the course takes him off, as it enrolled him.
    lms.members = [learner("lms-ava", "Ava", "Okoro")]
    assert roster.roster_sync(course_id=course.pk).removed == 1
    # His teacher adds him back (a roster import, or by hand: he follows the class outside the LMS), so
    # he is in the class but not this course's doing: the next sync keeps him.
    Enrolment.objects.create(student=ben, classroom=course.classroom)
    assert roster.roster_sync(course_id=course.pk).removed == 0
    assert Enrolment.objects.filter(student=ben, classroom=course.classroom).exists()
