"""Reads and permission checks for schools, classes and students.

The rules: a teacher sees and changes only their own classes and the students in them; a school admin
sees everything in their school and nothing in another; a student sees only their own things.
"""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from .models import Classroom, Enrolment, Membership, School, Skill, Student, StudentLevel, User


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


def student_level(student: Student, skill: str) -> int | None:
    return StudentLevel.objects.filter(student=student, skill=skill).values_list("level", flat=True).first()


def classroom_for_join_code(code: str) -> Classroom | None:
    code = (code or "").strip().upper().replace(" ", "").replace("-", "")
    if not code:
        return None
    return Classroom.objects.filter(join_code=code, archived=False).select_related("school").first()


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
        "student_count": Student.objects.filter(school=school).count(),
        "pending_invitations": list(school.invitations.filter(accepted_at__isnull=True)),
    }
