"""A member of staff who signs in on a student's device takes the device over: the student's identity
leaves the session (it would otherwise stay beside the teacher's, and a page could act as either)."""

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .middleware import STUDENT_SESSION_KEY, STUDENT_VERSION_KEY


@receiver(user_logged_in, dispatch_uid="classrooms.staff_signin_drops_student")
def staff_signin_drops_student(sender, request, user, **kwargs):
    if request is None:
        return
    for key in (STUDENT_SESSION_KEY, STUDENT_VERSION_KEY):
        request.session.pop(key, None)
