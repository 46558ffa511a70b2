"""Reads and permission checks for schools, classes and students.

The rules: a teacher sees and changes only their own classes and the students in them; a school admin
sees everything in their school and nothing in another; a student sees only their own things.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from .middleware import STUDENT_SESSION_KEY, STUDENT_VERSION_KEY
from .models import (
    WAITING_DEVICE_MINUTES,
    Accommodations,
    Classroom,
    Enrolment,
    Membership,
    School,
    Skill,
    Student,
    StudentLevel,
    User,
    WaitingDevice,
)


def admin_school_ids(user: User) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ADMIN).values_list("school_id", flat=True)
    )


def user_schools(user: User) -> QuerySet[School]:
    if not user.is_authenticated:
        return School.objects.none()
    return School.objects.filter(memberships__user=user).distinct()


def primary_school(user: User) -> School | None:
    """The school a member of staff works in (the first, for the rare teacher in two)."""
    return user_schools(user).order_by("id").first()


def is_school_admin(user: User, school: School | int) -> bool:
    school_id = school if isinstance(school, int) else school.pk
    return school_id in admin_school_ids(user)


def classrooms_for_user(user: User) -> QuerySet[Classroom]:
    """Classes a member of staff may see: their own, plus every class of a school they administer."""
    if not user.is_authenticated:
        return Classroom.objects.none()
    return (
        Classroom.objects.filter(Q(teachers=user) | Q(school_id__in=admin_school_ids(user)))
        .distinct()
        .select_related("school")
    )


def teacher_classrooms(user: User) -> QuerySet[Classroom]:
    """The classes this person teaches (the dashboard's list)."""
    return (
        Classroom.objects.filter(teachers=user, archived=False)
        .select_related("school")
        .annotate(student_count=Count("enrolments", distinct=True))
        .order_by("name")
    )


def can_manage_classroom(user: User, classroom: Classroom) -> bool:
    if not user.is_authenticated:
        return False
    if is_school_admin(user, classroom.school_id):
        return True
    return classroom.teachers.filter(pk=user.pk).exists()


def can_manage_student(user: User, student: Student) -> bool:
    """Teachers of any of the student's classes, and the admins of the student's school."""
    if not user.is_authenticated:
        return False
    if is_school_admin(user, student.school_id):
        return True
    return Enrolment.objects.filter(student=student, classroom__teachers=user).exists()


def classroom_roster(classroom: Classroom) -> QuerySet[Student]:
    """The class's students with their levels, in two queries whatever the class size."""
    return (
        Student.objects.filter(enrolments__classroom=classroom)
        .prefetch_related(Prefetch("levels", queryset=StudentLevel.objects.order_by("skill")))
        .order_by("display_name", "id")
    )


def levels_by_skill(student: Student) -> dict[str, int | None]:
    """``{skill: level}`` for every skill (None where no level is set). Uses prefetched levels."""
    found = {level.skill: level.level for level in student.levels.all()}
    return {skill: found.get(skill) for skill in Skill.values}


def accommodations_of(student: Student | int) -> Accommodations | None:
    """The student's accommodations, or None when none were ever set."""
    student_id = student if isinstance(student, int) else student.pk
    return Accommodations.objects.filter(student_id=student_id).first()


def accommodations_by_student(student_ids) -> dict[int, Accommodations]:
    """The accommodations that turn anything on, by student id (students with none are left out)."""
    rows = Accommodations.objects.filter(student_id__in=list(student_ids))
    return {row.student_id: row for row in rows if row.any}


#: The page classes of the accommodations a student's own device applies (static/css/accommodations.css).
DEVICE_CLASSES = {
    "larger_text": "acc-larger-text",
    "reduced_motion": "acc-reduced-motion",
    "colour_safe": "acc-colour-safe",
    "read_aloud": "acc-read-aloud",
}


def device_accommodations(student: Student | None) -> dict:
    """What the student's own device applies: ``classes`` for the page and whether it reads aloud."""
    record = accommodations_of(student) if student is not None else None
    if record is None:
        return {"classes": "", "read_aloud": False}
    classes = [name for flag, name in DEVICE_CLASSES.items() if getattr(record, flag)]
    return {"classes": " ".join(classes), "read_aloud": record.read_aloud}


def classroom_for_join_code(code: str) -> Classroom | None:
    code = (code or "").strip().upper().replace(" ", "").replace("-", "")
    if not code:
        return None
    return Classroom.objects.filter(join_code=code, archived=False).select_related("school").first()


def short_name(display_name: str, letters: int = 1) -> str:
    """ "Ava M." from "Ava Martinez": the first word and the start of the last (``letters`` of it)."""
    words = display_name.split()
    if len(words) < 2:
        return display_name
    return f"{words[0]} {words[-1].rstrip('.')[:letters]}."


def signin_names(students: list[Student]) -> dict[int, str]:
    """Each student's name as a class list shows it to anyone with the class code: first names and
    initials, with as many letters of the last name as it takes to tell two students apart."""
    names: dict[int, str] = {}
    for student in students:
        longest = max(len(word) for word in student.display_name.split()) if student.display_name else 1
        for letters in range(1, longest + 1):
            name = short_name(student.display_name, letters)
            if sum(short_name(other.display_name, letters) == name for other in students) == 1:
                break
        names[student.pk] = name
    return names


def student_classrooms(student: Student) -> QuerySet[Classroom]:
    return Classroom.objects.filter(enrolments__student=student, archived=False).order_by("name")


def school_overview(school: School) -> dict:
    """Everything the school admin's overview shows, in a fixed number of queries."""
    classrooms = (
        Classroom.objects.filter(school=school)
        .annotate(student_count=Count("enrolments", distinct=True))
        .prefetch_related("teachers")
        .order_by("archived", "name")
    )
    memberships = (
        Membership.objects.filter(school=school).select_related("user").order_by("role", "user__email")
    )
    return {
        "classrooms": list(classrooms),
        "memberships": list(memberships),
        "student_count": Student.objects.filter(school=school, archived_at__isnull=True).count(),
        "pending_invitations": list(school.invitations.filter(accepted_at__isnull=True)),
    }


def locked_cards(classrooms) -> list[dict]:
    """The login cards of these classes locked for new devices now: whose, since and until when, and
    how many devices are waiting to be let in with each, and of what kinds (the dashboard's, the class
    page's and the console's notice).
    A lock always lasts ``STUDENT_SIGNIN_LOCK_MINUTES``, so it began that long before it ends."""
    now = timezone.now()
    enrolments = list(
        Enrolment.objects.filter(classroom__in=classrooms, student__locked_until__gt=now)
        .select_related("student", "classroom")
        .order_by("classroom__name", "classroom_id", "student__display_name", "student_id")
    )
    if not enrolments:
        return []
    waiting: defaultdict[tuple[int, int], list[str]] = defaultdict(list)
    for classroom_id, student_id, kind in WaitingDevice.objects.filter(
        classroom__in=classrooms,
        let_in_at__isnull=True,
        created_at__gte=now - timedelta(minutes=WAITING_DEVICE_MINUTES),
    ).values_list("classroom_id", "student_id", "kind"):
        waiting[classroom_id, student_id].append(str(WaitingDevice.Kind(kind).label))
    lock = timedelta(minutes=settings.STUDENT_SIGNIN_LOCK_MINUTES)
    rows = []
    for enrolment in enrolments:
        devices = waiting[enrolment.classroom_id, enrolment.student_id]
        rows.append(
            {
                "classroom": enrolment.classroom,
                "student": enrolment.student,
                "since": enrolment.student.locked_until - lock,
                "until": enrolment.student.locked_until,
                "waiting": len(devices),
                "devices": sorted(set(devices)),
            }
        )
    return rows


def waiting_device(waiting_id: int) -> WaitingDevice | None:
    """A device's wait to be let in, with its student, while it lasts (``WAITING_DEVICE_MINUTES``)."""
    since = timezone.now() - timedelta(minutes=WAITING_DEVICE_MINUTES)
    return (
        WaitingDevice.objects.select_related("student").filter(pk=waiting_id, created_at__gte=since).first()
    )


def student_signin_record(student: Student) -> dict:
    """What the server holds of a student's signing in, for their data export: the devices signed in as
    them now (until when), and the state of their login card. A device they signed in on before keeps
    a signed cookie of its own; the server keeps no list of those devices."""
    devices = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).order_by("expire_date"):
        data = session.get_decoded()
        if data.get(STUDENT_SESSION_KEY) == student.pk:
            devices.append(
                {
                    "signed_in_until": session.expire_date.isoformat(),
                    "current": data.get(STUDENT_VERSION_KEY) == student.signin_version,
                }
            )
    return {
        "devices_signed_in": devices,
        "wrong_codes_counted": student.failed_signins,
        "locked_for_new_devices_until": student.locked_until.isoformat() if student.locked_until else None,
        "devices_waiting_to_be_let_in": [
            {
                "device": waiting.kind,
                "since": waiting.created_at.isoformat(),
                "let_in": bool(waiting.let_in_at),
            }
            for waiting in student.waiting_devices.order_by("created_at", "id")
        ],
        "codes_changed": student.signin_version,
    }
