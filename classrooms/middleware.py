"""Signed-in students: a device session that names one student (students have no user account)."""

from django.utils.functional import SimpleLazyObject

STUDENT_SESSION_KEY = "classplay_student_id"


def get_session_student(request):
    from .models import Student

    student_id = request.session.get(STUDENT_SESSION_KEY)
    if not student_id:
        return None
    return Student.objects.filter(pk=student_id).select_related("school").first()


class StudentSessionMiddleware:
    """Sets ``request.student`` (a Student or None), loaded only when something reads it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.student = SimpleLazyObject(lambda: get_session_student(request))
        return self.get_response(request)
