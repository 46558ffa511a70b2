from django.conf import settings

from . import selectors


def roles(request):
    """What the navigation needs: is this a student device, is the person a school admin, and which roster
    imports are on. A student's device also gets the page classes of their accommodations (larger text,
    reduced motion, colour-safe)."""
    user = getattr(request, "user", None)
    student = getattr(request, "student", None)
    is_admin = bool(user and user.is_authenticated and selectors.admin_school_ids(user))
    device = selectors.device_accommodations(student) if student else {"classes": "", "read_aloud": False}
    return {
        "current_student": student or None,
        "is_school_admin": is_admin,
        "device_accommodations": device,
        "google_classroom_rosters": getattr(settings, "GOOGLE_CLASSROOM_ROSTERS", False),
    }
