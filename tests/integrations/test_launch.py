"""OIDC login and resource-link launch: who is signed in as whom, in which class; and every refusal
shows a clear page and changes nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classrooms.middleware import STUDENT_SESSION_KEY
from classrooms.models import Classroom, Enrolment, Membership, Student
from games import services as game_services
from integrations import tasks
from integrations.lti import CLAIM
from integrations.models import CourseLink, LaunchValue, PersonLink, ResourceLink
from tests.factories import enrolled_student

from .platform import CLIENT_ID, FORGER_PEM, INSTRUCTOR, LEARNER

pytestmark = pytest.mark.django_db
User = get_user_model()


def _counts():
    return (
        User.objects.count(),
        Membership.objects.count(),
        Classroom.objects.count(),
        Student.objects.count(),
        Enrolment.objects.count(),
        CourseLink.objects.count(),
        PersonLink.objects.count(),
        ResourceLink.objects.count(),
    )


def _learner_claims(sub="lms-ava", given="Ava", family="Okoro"):
    return {
        "sub": sub,
        CLAIM + "roles": [LEARNER],
        "email": None,
        "name": f"{given} {family}",
        "given_name": given,
        "family_name": family,
    }


def test_a_teachers_first_launch_makes_their_account_and_the_class(client, lms, moodle, riverside):
    response = lms.launch(client)
    course = CourseLink.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse(
        "classroom_detail", args=[course.classroom_id]
    )
    teacher = User.objects.get(email="teacher@riverside.example")
    assert teacher.memberships.get().school == riverside
    assert course.classroom.name == "Year 7 English" and course.classroom.school == riverside
    assert list(course.classroom.teachers.all()) == [teacher]
    assert course.memberships_url == lms.memberships_url
    assert int(client.session["_auth_user_id"]) == teacher.pk
    # The next launch finds the same class and the same account.
    client.logout()
    lms.launch(client)
    assert (
        Classroom.objects.count() == 1 and User.objects.filter(email="teacher@riverside.example").count() == 1
    )


def test_an_existing_teacher_of_the_school_is_asked_to_link_not_signed_in(client, lms, moodle, ms_rivera):
    """The email alone never signs into an account (tests/security/test_lti_account_linking.py)."""
    response = lms.launch(client, email=ms_rivera.email.upper())
    assert response["Location"] == reverse("integrations:link")
    assert "_auth_user_id" not in client.session and not PersonLink.objects.exists()


def test_an_account_of_another_school_is_never_taken_over(client, lms, moodle, mr_okafor):
    before = _counts()
    response = lms.launch(client, email=mr_okafor.email)
    assert response.status_code == 403
    assert "belongs to another school" in response.content.decode()
    assert _counts() == before and "_auth_user_id" not in client.session


def test_a_learner_lands_on_the_open_game_signed_in_with_no_code(client, lms, moodle):
    lms.launch(client)  # the teacher opens the course first
    course = CourseLink.objects.get()
    teacher = course.classroom.teachers.get()
    session = game_services.session_play_now(classroom=course.classroom, by=teacher, game="lineup")
    student_client = client.__class__()
    response = lms.launch(student_client, **_learner_claims())
    assert response.status_code == 302 and response["Location"] == reverse("student_home")
    student = Student.objects.get(given_name="Ava")
    assert student.family_name == "Okoro" and student.enrolments.get().classroom == course.classroom
    assert student_client.session[STUDENT_SESSION_KEY] == student.pk
    home = student_client.get(reverse("student_home")).content.decode()
    assert str(session) in home or session.game_full_name in home
    # Found again by the LMS user id, not by name.
    lms.launch(client.__class__(), **_learner_claims(given="Ava-Marie"))
    assert Student.objects.count() == 1


def test_a_learner_before_their_teacher_is_told_to_wait(client, lms, moodle):
    response = lms.launch(client, **_learner_claims())
    assert response.status_code == 403 and "has not opened Classplay" in response.content.decode()
    assert not Student.objects.exists()


def test_a_deep_linked_resource_launches_the_teacher_into_its_session(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    session = game_services.session_play_now(
        classroom=course.classroom, by=course.classroom.teachers.get(), game="lineup"
    )
    response = lms.launch(client, **{CLAIM + "custom": {"classplay_session": str(session.pk)}})
    assert response["Location"] == reverse("games:console", args=[session.pk])
    link = ResourceLink.objects.get()
    assert link.session == session and link.lineitem_url == lms.lineitem_url


# --- Refusals -------------------------------------------------------------------------------------


@pytest.fixture
def set_up(client, lms, moodle):
    lms.launch(client)  # a class and a teacher exist, so "nothing changed" means something
    client.logout()
    return _counts()


def _refused(response, words):
    assert response.status_code == 403
    page = response.content.decode()
    assert "Classplay could not open" in page and words in page and "Nothing was changed" in page


def test_a_forged_signature_is_refused(client, lms, set_up):
    state, nonce = lms.login(client)
    _refused(lms.launch(client, state=state, id_token=lms.id_token(nonce, sign_with=FORGER_PEM)), "signature")
    assert _counts() == set_up and "_auth_user_id" not in client.session


def test_a_token_for_another_tool_is_refused(client, lms, set_up):
    _refused(lms.launch(client, aud="another-tool"), "audience")
    assert _counts() == set_up


def test_an_expired_token_is_refused(client, lms, set_up):
    _refused(lms.launch(client, exp=1_600_000_000, iat=1_599_999_000), "expired")
    assert _counts() == set_up


def test_a_replayed_token_is_refused(client, lms, set_up):
    state, nonce = lms.login(client)
    token = lms.id_token(nonce)
    assert lms.launch(client, state=state, id_token=token).status_code == 302
    # The same browser posts the same token again (its state cookie is still there).
    _refused(lms.launch(client, state=state, id_token=token), "already used")
    assert _counts() == set_up


def test_a_made_up_nonce_is_refused_as_invalid_not_as_used(client, lms, set_up):
    state, _nonce = lms.login(client)
    response = lms.launch(client, state=state, nonce="never-issued-by-classplay")
    _refused(response, "This launch is not valid or has expired")
    assert "already used" not in response.content.decode()
    assert _counts() == set_up and "_auth_user_id" not in client.session


def test_a_launch_after_its_login_was_forgotten_is_refused_as_expired(client, lms, set_up):
    state, nonce = lms.login(client)
    LaunchValue.objects.update(expires_at=timezone.now() - timedelta(seconds=1))  # ten minutes went by
    _refused(lms.launch(client, state=state, nonce=nonce), "This launch is not valid or has expired")
    assert _counts() == set_up


def test_a_launch_from_an_lms_too_slow_to_send_its_keys_is_refused_in_time(client, lms, set_up, settings):
    settings.LTI_HTTP_TIMEOUT = 5
    lms.delays["/jwks"] = 120  # a real LMS this slow held the web worker two minutes
    _refused(lms.launch(client), "did not send its keys in time")
    assert _counts() == set_up and "_auth_user_id" not in client.session
    lms.delays.clear()
    assert lms.launch(client).status_code == 302


def test_an_unknown_deployment_is_refused(client, lms, set_up):
    _refused(lms.launch(client, **{CLAIM + "deployment_id": "somewhere-else"}), "deployment")
    assert _counts() == set_up


def test_a_launch_without_the_login_state_is_refused(client, lms, set_up):
    state, nonce = lms.login(client)
    client.cookies.clear()
    _refused(lms.launch(client, state=state, nonce=nonce), "did not start here")
    assert _counts() == set_up


def test_a_student_claiming_a_teacher_role_in_another_course_is_refused(client, lms, set_up):
    lms.launch(client.__class__(), **_learner_claims())
    before = _counts()
    claims = _learner_claims() | {
        CLAIM + "roles": [INSTRUCTOR],
        CLAIM + "context": {"id": "course-202", "title": "Other"},
        "email": "ava@x.example",
    }
    _refused(lms.launch(client, **claims), "is a student in Classplay")
    assert _counts() == before and "_auth_user_id" not in client.session


def test_an_unregistered_platform_is_refused_at_login(client, lms, moodle):
    response = client.post(
        "/lti/login/",
        {"iss": "https://unknown.example", "login_hint": "x", "client_id": CLIENT_ID},
        secure=True,
    )
    assert response.status_code == 403 and "not registered" in response.content.decode()
    assert not LaunchValue.objects.exists()


def test_the_lms_posts_need_no_csrf_token_and_the_state_cookie_survives_a_cross_site_post(lms, moodle):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(
        "/lti/login/",
        {"iss": lms.registration["issuer"], "login_hint": "x", "client_id": CLIENT_ID},
        secure=True,
    )
    assert response.status_code == 302
    state_cookies = [cookie for name, cookie in response.cookies.items() if name.startswith("lti1p3-")]
    assert state_cookies and all(
        cookie["samesite"] == "None" and cookie["secure"] and cookie["httponly"] for cookie in state_cookies
    )
    assert lms.launch(browser).status_code == 302
    # Every other form still needs its token.
    assert browser.post(reverse("student_signout")).status_code == 403


def test_a_teacher_account_cannot_join_as_a_student(client, lms, set_up):
    claims = _learner_claims(sub="lms-user-teacher")
    _refused(lms.launch(client, **claims), "is a teacher in Classplay")
    assert _counts() == set_up


def test_a_teacher_launch_without_an_email_is_refused(client, lms, moodle):
    _refused(lms.launch(client, email=None, sub="lms-new-teacher"), "email")
    assert not CourseLink.objects.exists()


def test_the_logins_values_are_kept_ten_minutes_at_most(client, lms, moodle, eager_celery):
    lms.launch(client)
    assert LaunchValue.objects.exists()
    assert all(
        value.expires_at <= timezone.now() + timedelta(minutes=10) for value in LaunchValue.objects.all()
    )
    LaunchValue.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    tasks.nightly.delay()
    assert not LaunchValue.objects.exists()


def test_one_device_changing_hands_signs_the_last_person_in_only(client, lms, moodle):
    lms.launch(client)
    lms.launch(client, **_learner_claims())
    assert STUDENT_SESSION_KEY in client.session and "_auth_user_id" not in client.session
    lms.launch(client)
    assert STUDENT_SESSION_KEY not in client.session and "_auth_user_id" in client.session


# --- Where a link lands -----------------------------------------------------------------------------


def _homework(classroom, *, opens_at=None, students=None):
    return game_services.assignment_create(
        classroom=classroom,
        by=classroom.teachers.get(),
        game="lineup",
        title="Fractions at home",
        opens_at=opens_at or timezone.now() - timedelta(hours=1),
        due_at=timezone.now() + timedelta(days=2),
        students=students,
    )


def test_a_learner_from_a_games_link_lands_in_the_game_already_joined(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    session = game_services.session_play_now(
        classroom=course.classroom, by=course.classroom.teachers.get(), game="lineup"
    )
    custom = {CLAIM + "custom": {"classplay_session": str(session.pk)}}
    response = lms.launch(client.__class__(), **(_learner_claims() | custom))
    assert response.status_code == 302 and response["Location"] == reverse("games:play", args=[session.pk])
    assert session.participants.get().student.given_name == "Ava"


def test_a_learner_from_a_finished_games_link_lands_on_their_page(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    session = game_services.session_play_now(
        classroom=course.classroom, by=course.classroom.teachers.get(), game="lineup"
    )
    session.status = session.Status.FINISHED
    session.save(update_fields=["status"])
    custom = {CLAIM + "custom": {"classplay_session": str(session.pk)}}
    response = lms.launch(client.__class__(), **(_learner_claims() | custom))
    assert response["Location"] == reverse("student_home") and not session.participants.exists()


def test_a_homework_link_lands_the_learner_on_it_and_the_teacher_on_its_page(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    assignment = _homework(course.classroom)
    custom = {CLAIM + "custom": {"classplay_assignment": str(assignment.pk)}}
    response = lms.launch(client, **custom)
    assert response["Location"] == reverse("games:homework", args=[assignment.pk])
    assert ResourceLink.objects.get().assignment == assignment
    student_client = client.__class__()
    response = lms.launch(student_client, **(_learner_claims() | custom))
    assert response["Location"] == reverse("student_home") + f"#homework-{assignment.pk}"
    page = student_client.get(reverse("student_home")).content.decode()
    assert (
        f'id="homework-{assignment.pk}"' in page
        and reverse("games:homework_start", args=[assignment.pk]) in page
    )


def test_a_learner_the_homework_is_not_set_for_is_told_so(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    someone_else = enrolled_student(course.classroom, given_name="Zoe")
    assignment = _homework(course.classroom, students=[someone_else])
    custom = {CLAIM + "custom": {"classplay_assignment": str(assignment.pk)}}
    lms.launch(client, **custom)
    student_client = client.__class__()
    response = lms.launch(student_client, **(_learner_claims() | custom))
    page = student_client.get(response["Location"]).content.decode()
    assert "This homework is not set for you." in page and f'id="homework-{assignment.pk}"' not in page


def test_a_learner_launched_before_the_homework_opens_is_told_when(client, lms, moodle):
    lms.launch(client)
    course = CourseLink.objects.get()
    assignment = _homework(course.classroom, opens_at=timezone.now() + timedelta(days=1))
    custom = {CLAIM + "custom": {"classplay_assignment": str(assignment.pk)}}
    lms.launch(client, **custom)
    student_client = client.__class__()
    response = lms.launch(student_client, **(_learner_claims() | custom))
    page = student_client.get(response["Location"]).content.decode()
    assert "This homework opens on" in page


def test_a_link_naming_another_classs_homework_is_not_tied_to_it(client, lms, moodle, class_7c):
    lms.launch(client)
    elsewhere = _homework(class_7c)
    lms.launch(client, **{CLAIM + "custom": {"classplay_assignment": str(elsewhere.pk)}})
    assert ResourceLink.objects.get().assignment is None
