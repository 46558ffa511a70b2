"""Google Classroom roster import through a fake transport that answers as the Classroom REST API v1
documents (courses.list with teacherId=me, courses.students.list, both paged; the OAuth token endpoint)."""

from datetime import timedelta

import pytest
from allauth.socialaccount.models import SocialAccount, SocialToken
from django.urls import reverse
from django.utils import timezone

from classrooms import google_classroom
from classrooms.models import Classroom, Enrolment, Student
from tests.factories import enrolled_student
from tests.test_settings import manage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("_feature_on")]

API = "https://classroom.googleapis.com/v1"


class FakeResponse:
    def __init__(self, status: int, data: dict):
        self.status_code, self._data = status, data

    def json(self):
        return self._data


class FakeClassroom:
    """Google Classroom as the documented JSON shows it: ``courses`` and ``students`` in pages."""

    def __init__(self):
        self.courses = [
            {
                "id": "611",
                "name": "7B English",
                "section": "Period 2",
                "courseState": "ACTIVE",
                "ownerId": "t1",
            },
            {"id": "612", "name": "Year 7 Drama", "courseState": "ACTIVE", "ownerId": "t1"},
        ]
        self.students = {
            "611": [
                self.student("101", "Ava", "Moreno"),
                self.student("102", "Ben", "Kim"),
                self.student("103", "Chloé", "Dubois"),
            ]
        }
        self.calls: list[tuple[str, dict]] = []
        self.valid_token = "access-1"
        self.refreshed = 0

    @staticmethod
    def student(user_id, given, family):
        return {
            "courseId": "611",
            "userId": user_id,
            "profile": {
                "id": user_id,
                "name": {"givenName": given, "familyName": family, "fullName": f"{given} {family}"},
                "emailAddress": f"{given.lower()}@students.example",
            },
        }

    def get(self, url, params=None, headers=None, timeout=None):
        self.calls.append((url, dict(params or {})))
        if headers.get("Authorization") != f"Bearer {self.valid_token}":
            return FakeResponse(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
        if url == f"{API}/courses":
            assert params["teacherId"] == "me"
            return FakeResponse(200, self._page(self.courses, "courses", params))
        course_id = url.removeprefix(f"{API}/courses/").removesuffix("/students")
        return FakeResponse(200, self._page(self.students.get(course_id, []), "students", params))

    def post(self, url, data=None, timeout=None):
        assert url == "https://oauth2.googleapis.com/token"
        assert data["grant_type"] == "refresh_token" and data["refresh_token"] == "refresh-1"
        self.refreshed += 1
        self.valid_token = f"access-{self.refreshed + 1}"
        return FakeResponse(
            200, {"access_token": self.valid_token, "expires_in": 3599, "token_type": "Bearer"}
        )

    @staticmethod
    def _page(items, key, params):
        size = 2  # small pages, so paging is exercised
        start = int(params.get("pageToken") or 0)
        page = {key: items[start : start + size]} if items[start : start + size] else {}
        if start + size < len(items):
            page["nextPageToken"] = str(start + size)
        return page


@pytest.fixture
def _feature_on(settings):
    settings.GOOGLE_CLASSROOM_ROSTERS = True


@pytest.fixture
def google(monkeypatch):
    fake = FakeClassroom()
    monkeypatch.setattr(google_classroom, "new_transport", lambda: fake)
    return fake


@pytest.fixture
def token(ms_rivera):
    account = SocialAccount.objects.create(user=ms_rivera, provider="google", uid="t1")
    return SocialToken.objects.create(
        account=account,
        token="access-1",
        token_secret="refresh-1",
        expires_at=timezone.now() + timedelta(hours=1),
    )


def import_course(client, course="611", target="new"):
    return client.post(reverse("google_import"), {"course": course, "target": target})


def test_the_teacher_sees_her_active_courses_across_pages(client_of, ms_rivera, token, google):
    google.courses.append({"id": "613", "name": "Poetry club", "courseState": "ACTIVE"})
    page = client_of(ms_rivera).get(reverse("google_import")).content.decode()
    assert "7B English · Period 2" in page and "Year 7 Drama" in page and "Poetry club" in page
    assert [params.get("pageToken") for url, params in google.calls] == [None, "2"]


def test_importing_a_course_creates_a_class_with_its_students(client_of, ms_rivera, token, google):
    response = import_course(client_of(ms_rivera))
    classroom = Classroom.objects.get(google_course_id="611")
    assert response["Location"] == reverse("classroom_detail", args=[classroom.pk])
    assert classroom.name == "7B English Period 2" and list(classroom.teachers.all()) == [ms_rivera]
    students = Student.objects.filter(enrolments__classroom=classroom).order_by("google_user_id")
    assert [(s.display_name, s.google_user_id) for s in students] == [
        ("Ava M.", "101"),
        ("Ben K.", "102"),
        ("Chloé D.", "103"),
    ]
    assert all(len(s.signin_code) == 4 for s in students)  # login cards as for any new student


def test_a_resync_adds_renames_and_unenrols_without_deleting(client_of, ms_rivera, token, google, class_7b):
    client = client_of(ms_rivera)
    import_course(client, target=str(class_7b.pk))
    by_hand = enrolled_student(class_7b, given_name="Dara", display_name="Dara")  # added by the teacher
    google.students["611"] = [
        FakeClassroom.student("101", "Ava", "Moreno-Ruiz"),
        FakeClassroom.student("103", "Chloé", "Dubois"),
        FakeClassroom.student("104", "Eli", "Park"),
    ]
    client.post(reverse("google_resync", args=[class_7b.pk]))
    names = set(Student.objects.filter(enrolments__classroom=class_7b).values_list("display_name", flat=True))
    assert names == {"Ava M.", "Chloé D.", "Eli P.", "Dara"}
    assert Student.objects.get(google_user_id="101").family_name == "Moreno-Ruiz"
    ben = Student.objects.get(google_user_id="102")  # left the course: off the class, record kept
    assert not ben.enrolments.exists()
    assert by_hand.enrolments.exists()
    client.post(reverse("google_resync", args=[class_7b.pk]))
    assert Enrolment.objects.filter(classroom=class_7b).count() == 4  # a second re-sync changes nothing


def test_an_expired_token_is_refreshed_and_stored(client_of, ms_rivera, token, google):
    token.expires_at = timezone.now() - timedelta(minutes=5)
    token.save()
    assert import_course(client_of(ms_rivera)).status_code == 302
    token.refresh_from_db()
    assert google.refreshed == 1 and token.token == "access-2" and token.expires_at > timezone.now()


def test_a_token_revoked_early_is_refreshed_once(client_of, ms_rivera, token, google):
    google.valid_token = "access-other"  # Google no longer takes access-1
    google.refreshed = 0
    response = client_of(ms_rivera).get(reverse("google_import"))
    assert response.status_code == 200 and google.refreshed == 1


def test_a_refused_token_tells_the_teacher_to_sign_in_again(client_of, ms_rivera, token, google):
    token.token_secret = ""
    token.save()
    google.valid_token = "nothing"
    response = client_of(ms_rivera).get(reverse("google_import"))
    assert response.status_code == 502
    assert "Sign in with Google again" in response.content.decode()


def test_a_student_of_a_colleague_is_a_conflict_and_nothing_is_imported(
    client_of, ms_rivera, token, google, class_7c
):
    cleo = enrolled_student(class_7c, given_name="Cleo", display_name="Cleo N.")
    cleo.google_user_id = "102"
    cleo.save()
    response = import_course(client_of(ms_rivera))
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert any("Cleo N." in m and "nothing was imported" in m for m in messages)
    assert not Classroom.objects.filter(google_course_id="611").exists()
    cleo.refresh_from_db()
    assert cleo.given_name == "Cleo"


def test_without_google_sign_in_the_page_says_how(client_of, ms_rivera, google, monkeypatch):
    monkeypatch.setattr("classrooms.roster_views.reverse", lambda name: "/accounts/google/login/")
    page = client_of(ms_rivera).get(reverse("google_import")).content.decode()
    assert "Sign in with Google" in page and not google.calls


def test_the_feature_off_hides_the_pages(client_of, ms_rivera, token, settings, class_7b):
    settings.GOOGLE_CLASSROOM_ROSTERS = False
    client = client_of(ms_rivera)
    assert client.get(reverse("google_import")).status_code == 404
    assert client.post(reverse("google_resync", args=[class_7b.pk])).status_code == 404


def test_another_teachers_class_cannot_be_the_target(client_of, ms_rivera, token, google, class_7c):
    response = import_course(client_of(ms_rivera), target=str(class_7c.pk))
    assert response.status_code == 400 and not Student.objects.exists()


def test_settings_request_the_classroom_scopes_only_when_the_feature_is_on():
    code = (
        "from django.conf import settings; google = settings.SOCIALACCOUNT_PROVIDERS['google']; "
        "print(google['SCOPE'], google.get('AUTH_PARAMS'), "
        "getattr(settings, 'SOCIALACCOUNT_STORE_TOKENS', False))"
    )
    on = manage("shell", "-c", code, GOOGLE_CLIENT_ID="g-id", GOOGLE_CLASSROOM_ROSTERS="true")
    assert on.returncode == 0, on.stderr
    assert "classroom.rosters.readonly" in on.stdout and "classroom.courses.readonly" in on.stdout
    assert "'access_type': 'offline'" in on.stdout and on.stdout.strip().endswith("True")
    off = manage("shell", "-c", code, GOOGLE_CLIENT_ID="g-id")
    assert "classroom" not in off.stdout and off.stdout.strip().endswith("None False")
