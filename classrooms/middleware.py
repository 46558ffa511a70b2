"""Signed-in students: a device session that names one student (students have no user account); every
page in the time zone of the school of whoever is signed in, and in the language they read."""

from django.conf import settings
from django.contrib.auth import logout
from django.middleware.locale import LocaleMiddleware
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject

from . import languages
from .models import Membership, Student, school_zone

STUDENT_SESSION_KEY = "classplay_student_id"
#: The student's ``signin_version`` when this device signed in: a new code signs the device out.
STUDENT_VERSION_KEY = "classplay_student_version"


def student_for_session(session) -> Student | None:
    """The student a device session names, unless their code (or their class's) changed since it signed in."""
    student_id = (session or {}).get(STUDENT_SESSION_KEY)
    if not student_id:
        return None
    student = Student.objects.filter(pk=student_id).select_related("school").first()
    if student is None or student.signin_version != (session or {}).get(STUDENT_VERSION_KEY, 0):
        return None
    return student


def sign_in_student(request, student: Student) -> None:
    """Start a fresh session for this student only: anyone signed in on this device is signed out. A
    language picked on the way in (nobody signed in) is theirs; an earlier student's is not."""
    nobody_signed_in = not request.user.is_authenticated and not request.session.get(STUDENT_SESSION_KEY)
    picked = request.session.get(languages.LANGUAGE_CHOICE_KEY) if nobody_signed_in else None
    logout(request)
    if picked:
        request.session[languages.LANGUAGE_CHOICE_KEY] = picked
    request.session[STUDENT_SESSION_KEY] = student.pk
    request.session[STUDENT_VERSION_KEY] = student.signin_version


def get_session_student(request):
    return student_for_session(request.session)


class StudentSessionMiddleware:
    """Sets ``request.student`` (a Student or None), loaded only when something reads it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.student = SimpleLazyObject(lambda: get_session_student(request))
        return self.get_response(request)


class SchoolTimeZoneMiddleware:
    """Times are typed and shown in the signed-in person's school's time zone (a school on another
    continent from the server schedules in its own time). Costs one small query for a teacher's pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = self._zone_name(request)
        if name is None:
            return self.get_response(request)
        with timezone.override(school_zone(name)):
            return self.get_response(request)

    @staticmethod
    def _zone_name(request) -> str | None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            rows = Membership.objects.filter(user=user).order_by("school_id")
            return rows.values_list("school__time_zone", flat=True).first()
        student = getattr(request, "student", None)  # loaded with its school (for the language) already
        return student.school.time_zone if student else None


class PreferredLanguageMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (``Vary`` and ``Content-Language`` on the response), choosing the
    language as ``classrooms.languages.resolve`` does: the switcher, the student's, the teacher's,
    the school's, then the browser's."""

    def process_request(self, request):
        translation.activate(request_language(request))
        request.LANGUAGE_CODE = translation.get_language()


def request_language(request) -> str:
    session = getattr(request, "session", None)
    student = getattr(request, "student", None)
    return languages.resolve(
        chosen=session.get(languages.LANGUAGE_CHOICE_KEY) if session is not None else None,
        student=student if student else None,
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
        user=getattr(request, "user", None),
        accept_language=request.headers.get("Accept-Language", ""),
    )
