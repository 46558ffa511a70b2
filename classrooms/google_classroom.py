"""Google Classroom roster import: a teacher who signed in with Google imports one of their courses'
students into a class, and re-imports to follow the course (new students added, renamed ones renamed,
students who left the course taken off the class; no student record or learning data is deleted).

Calls the documented Classroom REST API v1 with the teacher's stored Google token (``courses.list`` with
``teacherId=me``, ``courses.students.list``, both paged), refreshing it at Google's token endpoint when
it has expired. The HTTP transport is passed in (a ``requests.Session`` in production, a fake in tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import requests
from allauth.socialaccount.models import SocialToken
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import selectors, services
from .models import Classroom, Enrolment, Student, User
from .roster import clean_name

API = "https://classroom.googleapis.com/v1"
TOKEN_URL = "https://oauth2.googleapis.com/token"
PAGE_SIZE = 100
#: A course of more students than this is refused (the Classroom limit is well below it).
MAX_STUDENTS = 2000
TIMEOUT = 15


class ClassroomUnavailable(Exception):
    """Google cannot be asked now (no Google sign-in, token revoked, API error); ``message`` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class Course:
    id: str
    name: str
    section: str = ""


@dataclass
class CourseStudent:
    user_id: str
    given_name: str
    family_name: str


@dataclass
class ImportResult:
    created: int = 0
    linked: int = 0
    renamed: int = 0
    unenrolled: int = 0
    conflicts: list[str] = field(default_factory=list)


def is_enabled() -> bool:
    return bool(getattr(settings, "GOOGLE_CLASSROOM_ROSTERS", False))


def google_token(user: User) -> SocialToken | None:
    return (
        SocialToken.objects.filter(account__user=user, account__provider="google")
        .select_related("account")
        .order_by("-id")
        .first()
    )


def new_transport() -> requests.Session:
    return requests.Session()


class ClassroomClient:
    """The teacher's view of Google Classroom, through ``transport`` (``get``/``post`` like requests)."""

    def __init__(self, token: SocialToken, transport=None):
        self.token = token
        self.transport = transport or new_transport()

    def courses(self) -> list[Course]:
        items = self._paged(f"{API}/courses", "courses", {"teacherId": "me", "courseStates": "ACTIVE"})
        return [
            Course(str(item["id"]), str(item.get("name", ""))[:120], str(item.get("section", ""))[:60])
            for item in items
            if item.get("id")
        ]

    def students(self, course_id: str) -> list[CourseStudent]:
        items = self._paged(f"{API}/courses/{course_id}/students", "students", {}, limit=MAX_STUDENTS)
        result = []
        for item in items:
            name = (item.get("profile") or {}).get("name") or {}
            user_id = str(item.get("userId") or (item.get("profile") or {}).get("id") or "")
            if user_id:
                result.append(
                    CourseStudent(
                        user_id[:64], str(name.get("givenName", "")), str(name.get("familyName", ""))
                    )
                )
        return result

    def _paged(self, url: str, key: str, params: dict, *, limit: int = 1000) -> list[dict]:
        items: list[dict] = []
        page_token = ""
        while True:
            query = {**params, "pageSize": PAGE_SIZE, **({"pageToken": page_token} if page_token else {})}
            data = self._get(url, query)
            items += data.get(key) or []
            if len(items) > limit:
                raise ClassroomUnavailable(
                    _(
                        "Google Classroom lists more than %(max)d here: ask your school admin for a "
                        "roster sync."
                    )
                    % {"max": limit}
                )
            page_token = data.get("nextPageToken") or ""
            if not page_token:
                return items

    def _get(self, url: str, params: dict) -> dict:
        self._refresh_if_expired()
        response = self._request(url, params)
        if response.status_code == 401 and self.token.token_secret:  # revoked early: one refresh, one retry
            self._refresh()
            response = self._request(url, params)
        if response.status_code in (401, 403):
            raise ClassroomUnavailable(
                _(
                    "Google did not allow Classplay to read your classes. Sign in with Google again and "
                    "allow access to your Classroom courses and rosters."
                )
            )
        if response.status_code != 200:
            raise ClassroomUnavailable(
                _("Google Classroom did not answer (error %(status)d). Try again in a minute.")
                % {"status": response.status_code}
            )
        return response.json()

    def _request(self, url: str, params: dict):
        try:
            return self.transport.get(
                url, params=params, headers={"Authorization": f"Bearer {self.token.token}"}, timeout=TIMEOUT
            )
        except requests.RequestException:
            raise ClassroomUnavailable(
                _("Google Classroom cannot be reached. Try again in a minute.")
            ) from None

    def _refresh_if_expired(self) -> None:
        if self.token.expires_at and self.token.expires_at <= timezone.now() + timedelta(seconds=30):
            self._refresh()

    def _refresh(self) -> None:
        if not self.token.token_secret:
            raise ClassroomUnavailable(_("Your Google sign-in has expired. Sign in with Google again."))
        app = (settings.SOCIALACCOUNT_PROVIDERS.get("google", {}).get("APPS") or [{}])[0]
        try:
            response = self.transport.post(
                TOKEN_URL,
                data={
                    "client_id": app.get("client_id", ""),
                    "client_secret": app.get("secret", ""),
                    "refresh_token": self.token.token_secret,
                    "grant_type": "refresh_token",
                },
                timeout=TIMEOUT,
            )
        except requests.RequestException:
            raise ClassroomUnavailable(_("Google cannot be reached. Try again in a minute.")) from None
        if response.status_code != 200 or "access_token" not in response.json():
            raise ClassroomUnavailable(_("Your Google sign-in has expired. Sign in with Google again."))
        data = response.json()
        self.token.token = data["access_token"]
        self.token.expires_at = timezone.now() + timedelta(seconds=int(data.get("expires_in", 3600)))
        self.token.save(update_fields=["token", "expires_at"])


# --- import --------------------------------------------------------------------------------------


def _names(student: CourseStudent) -> tuple[str, str]:
    given = clean_name(student.given_name[:200])[:60] or clean_name(student.family_name[:200])[:60]
    return given, clean_name(student.family_name[:200])[:60]


@transaction.atomic
def import_course(
    *, course: Course, students: list[CourseStudent], classroom: Classroom | None, by: User
) -> tuple[Classroom, ImportResult]:
    """Create or follow ``classroom`` from the course's students. All or nothing: a student of the school
    whom the importer does not teach is a conflict (only a school admin may bring them into a class)."""
    school = selectors.primary_school(by)
    if school is None:
        raise ValidationError(_("You are not a member of a school."))
    if classroom is None:
        name = clean_name(" ".join(filter(None, [course.name, course.section]))[:60]) or _(
            "Google Classroom course"
        )
        classroom = services.classroom_create(school=school, teacher=by, name=name)
    elif not selectors.can_manage_classroom(by, classroom):
        raise ValidationError(_("You do not teach this class."))
    other = Classroom.objects.filter(school=classroom.school, google_course_id=course.id).exclude(
        pk=classroom.pk
    )
    if other.exists():
        raise ValidationError(
            _("This course is already imported into the class “%(name)s”.") % {"name": other.first().name}
        )
    classroom.google_course_id = course.id
    classroom.save(update_fields=["google_course_id"])
    result = ImportResult()
    existing = {
        s.google_user_id: s
        for s in Student.objects.filter(
            school=classroom.school, google_user_id__in=[s.user_id for s in students]
        )
    }
    admin = selectors.is_school_admin(by, classroom.school_id)
    for course_student in students:
        student = existing.get(course_student.user_id)
        if student is not None and not admin and not selectors.can_manage_student(by, student):
            result.conflicts.append(student.display_name)
    if result.conflicts:
        raise ValidationError(
            _(
                "These students are in another class of the school that you do not teach: %(names)s. A "
                "school admin can add them to your class; nothing was imported."
            )
            % {"names": ", ".join(sorted(result.conflicts))}
        )
    in_course = set()
    for course_student in students:
        given, family = _names(course_student)
        if not given:
            continue
        in_course.add(course_student.user_id)
        student = existing.get(course_student.user_id)
        if student is None:
            student = services.student_create(
                classroom=classroom, given_name=given, family_name=family, by=by
            )
            student.google_user_id = course_student.user_id
            student.save(update_fields=["google_user_id"])
            result.created += 1
            continue
        if (student.given_name, student.family_name) != (given, family):
            services.student_rename(student=student, given_name=given, family_name=family)
            result.renamed += 1
        _enrolment, added = Enrolment.objects.get_or_create(student=student, classroom=classroom)
        result.linked += int(added)
    gone = Enrolment.objects.filter(classroom=classroom).exclude(student__google_user_id="")
    gone = gone.exclude(student__google_user_id__in=in_course)
    result.unenrolled = gone.count()
    gone.delete()  # off this class only: the student's record and history stay
    return classroom, result
