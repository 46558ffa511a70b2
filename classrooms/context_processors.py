from . import selectors


def roles(request):
    """What the navigation needs: is this a student device, and is the person a school admin."""
    user = getattr(request, "user", None)
    student = getattr(request, "student", None)
    is_admin = bool(user and user.is_authenticated and selectors.admin_school_ids(user))
    return {"current_student": student or None, "is_school_admin": is_admin}
