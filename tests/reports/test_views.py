"""Report pages: one test per permission rule, fixed query counts, and the page contents."""

import pytest
from django.urls import reverse

from classrooms.models import LevelChange, StudentLevel
from reports.build import classrooms_build
from reports.models import ReportBuild, SkillSummary
from tests.factories import enrolled_student

from .conftest import fact, finished_session

pytestmark = pytest.mark.django_db


def class_url(classroom, name="reports:class"):
    return reverse(name, args=[classroom.pk])


def student_url(classroom, student, name="reports:student"):
    return reverse(name, args=[classroom.pk, student.pk])


# --- who sees what ---------------------------------------------------------------------------------


def test_the_class_teacher_sees_the_class_report(built, client_of, ms_rivera):
    response = client_of(ms_rivera).get(class_url(built))
    assert response.status_code == 200
    assert "Ava M." in response.content.decode()


def test_the_school_admin_sees_every_class_report(built, client_of, dr_patel):
    assert client_of(dr_patel).get(class_url(built)).status_code == 200


def test_another_teacher_of_the_same_school_does_not(built, client_of, mr_moss):
    assert client_of(mr_moss).get(class_url(built)).status_code == 404


def test_staff_of_another_school_do_not(built, client_of, mr_okafor, mrs_lindqvist):
    assert client_of(mr_okafor).get(class_url(built)).status_code == 404
    assert client_of(mrs_lindqvist).get(class_url(built)).status_code == 404


def test_anonymous_visitors_are_sent_to_sign_in(built, client):
    response = client.get(class_url(built))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_student_report_is_only_shown_in_the_students_class(built, client_of, ms_rivera, ava, cleo):
    client = client_of(ms_rivera)
    assert client.get(student_url(built, ava)).status_code == 200
    assert client.get(student_url(built, cleo)).status_code == 404


def test_a_student_device_cannot_open_staff_reports(built, student_client, ava):
    response = student_client(ava).get(student_url(built, ava))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_exports_follow_the_class_rule(built, client_of, ms_rivera, mr_moss, ava):
    urls = [
        class_url(built, "reports:class_pdf"),
        class_url(built, "reports:class_skills_csv"),
        class_url(built, "reports:class_answers_csv"),
        class_url(built, "reports:class_sessions_csv"),
        class_url(built, "reports:class_items_csv"),
        class_url(built, "reports:class_xlsx"),
        class_url(built, "reports:class_items"),
        student_url(built, ava, "reports:student_pdf"),
        student_url(built, ava, "reports:student_answers_csv"),
    ]
    teacher, other = client_of(ms_rivera), None
    for url in urls:
        assert teacher.get(url).status_code == 200, url
    other = client_of(mr_moss)
    for url in urls:
        assert other.get(url).status_code == 404, url


def test_only_school_admins_review_the_school(built, client_of, dr_patel, ms_rivera):
    assert client_of(dr_patel).get(reverse("reports:school")).status_code == 200
    assert client_of(ms_rivera).get(reverse("reports:school")).status_code == 404


def test_an_admin_reviews_only_their_own_school(built, client_of, mrs_lindqvist):
    response = client_of(mrs_lindqvist).get(reverse("reports:school"))
    assert response.status_code == 200
    assert "7B English" not in response.content.decode()


def test_only_the_schools_admin_exports_or_erases_a_students_data(
    built, client_of, dr_patel, ms_rivera, mrs_lindqvist, ava
):
    for name in ("reports:student_data", "reports:student_data_export"):
        url = reverse(name, args=[ava.pk])
        assert client_of(ms_rivera).get(url).status_code == 404
        assert client_of(mrs_lindqvist).get(url).status_code == 404
        assert client_of(dr_patel).get(url).status_code == 200


def test_the_build_progress_follows_the_class_rule(built, client_of, ms_rivera, mr_moss, riverside):
    build = ReportBuild.objects.create(scope="classroom", school=riverside, classroom=built, done=1, total=3)
    url = reverse("reports:build_status", args=[build.pk])
    response = client_of(ms_rivera).get(url)
    assert response.json() == {
        "status": "queued",
        "label": "Waiting to start",
        "percent": 33,
        "done": 1,
        "total": 3,
        "error": "",
    }
    assert client_of(mr_moss).get(url).status_code == 404


def test_a_student_sees_only_their_own_progress(built, student_client, ava):
    page = student_client(ava).get(reverse("reports:me")).content.decode()
    assert "Well done, <bdi>Ava</bdi>!" in page
    assert "Ben" not in page


def test_the_progress_page_needs_a_signed_in_student(client_of, ms_rivera, db):
    assert client_of(ms_rivera).get(reverse("reports:me"))["Location"] == reverse("join")


# --- applying a recommendation --------------------------------------------------------------------


def test_a_teacher_applies_the_recommended_level_in_one_click(built, client_of, ms_rivera, ava):
    SkillSummary.objects.filter(student=ava, skill="english_vocabulary").update(
        recommended_level=4, confidence=0.81, evidence_answers=24
    )
    response = client_of(ms_rivera).post(
        student_url(built, ava, "reports:apply_level"), {"skill": "english_vocabulary", "level": 4}
    )
    assert response.status_code == 302
    assert StudentLevel.objects.get(student=ava, skill="english_vocabulary").level == 4
    change = LevelChange.objects.get(student=ava)
    assert (change.new_level, change.source, change.changed_by) == (4, "report", ms_rivera)
    assert "24 recent answers, confidence 81%" in change.reason


def test_a_stale_recommendation_is_not_applied(built, client_of, ms_rivera, ava):
    SkillSummary.objects.filter(student=ava, skill="english_vocabulary").update(recommended_level=4)
    url = student_url(built, ava, "reports:apply_level")
    client_of(ms_rivera).post(url, {"skill": "english_vocabulary", "level": 2})
    assert not StudentLevel.objects.filter(student=ava).exists()


def test_another_teacher_cannot_apply_a_level(built, client_of, mr_moss, ava):
    SkillSummary.objects.filter(student=ava, skill="english_vocabulary").update(recommended_level=4)
    response = client_of(mr_moss).post(
        student_url(built, ava, "reports:apply_level"), {"skill": "english_vocabulary", "level": 4}
    )
    assert response.status_code == 404
    assert not StudentLevel.objects.filter(student=ava).exists()


# --- a fixed number of queries whatever the size ------------------------------------------------------


def _grow(classroom, teacher, extra):
    students = [enrolled_student(classroom, given_name=f"Extra{n}") for n in range(extra)]
    session = finished_session(classroom, day=5, by=teacher, students=students)
    for student in students:
        fact(student, session, category="spelling", correct=True, item="q9", response="yes")
    classrooms_build([classroom.pk])


@pytest.mark.parametrize("page", ["class", "student", "school", "items"])
def test_report_pages_run_a_fixed_number_of_queries(
    page, built, client_of, dr_patel, ava, django_assert_num_queries
):
    client = client_of(dr_patel)
    url = {
        "class": class_url(built),
        "student": student_url(built, ava),
        "school": reverse("reports:school"),
        "items": class_url(built, "reports:class_items"),
    }[page]
    client.get(url)  # warm the session
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    _grow(built, dr_patel, 7)
    with django_assert_num_queries(len(small.captured_queries)):
        assert client.get(url).status_code == 200


def test_the_class_page_shows_the_tables(built, client_of, ms_rivera):
    page = client_of(ms_rivera).get(class_url(built)).content.decode()
    for text in ("Hardest questions", "Most common wrong answers", "Level distribution", "Each session"):
        assert text in page
    assert 'role="img"' in page  # charts have a text alternative


def test_rebuild_queues_a_build_and_the_page_shows_its_progress(
    built, client_of, ms_rivera, django_capture_on_commit_callbacks
):
    client = client_of(ms_rivera)
    assert client.get(class_url(built, "reports:class_build")).status_code == 405  # never built on a GET
    with django_capture_on_commit_callbacks(execute=False) as queued:
        client.post(class_url(built, "reports:class_build"))
        client.post(class_url(built, "reports:class_build"))
    assert len(queued) == 1
    build = ReportBuild.objects.get()
    page = client.get(class_url(built)).content.decode()
    assert f'data-build-status="/reports/builds/{build.pk}.json"' in page
    assert '<progress id="build-progress" max="100" value="0">' in page


def test_another_teacher_cannot_rebuild(built, client_of, mr_moss):
    assert client_of(mr_moss).post(class_url(built, "reports:class_build")).status_code == 404
    assert not ReportBuild.objects.exists()
