"""What a launch, a deep link, a roster sync and a grade passback write. The id_token is already
checked (``views`` through pylti1p3) when these run; they map the LMS's people and course to ours."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms import services as classroom_services
from classrooms.models import NAME_MAX_LENGTH, Classroom, Enrolment, Membership, Student, User
from games import services as game_services

from .lti import (
    AGS_CLAIM,
    ASSIGNMENT_PARAMETER,
    CLAIM,
    LEARNER_ROLE,
    NRPS_CLAIM,
    ROLE_PREFIX,
    SESSION_PARAMETER,
    STAFF_ROLES,
)
from .models import CourseLink, DeepLinkRequest, PersonLink, Platform, ResourceLink


class LaunchRefused(Exception):
    """A checked launch that still cannot be let in; ``message`` is for the person."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class LinkNeeded(Exception):
    """A staff launch from an LMS user id not linked yet, whose email is an existing account's. The email
    claim is whatever the LMS says (an LMS admin, or a user who may edit their own profile, sets it), so
    only the account's holder, signing in to it once, may link the two."""

    def __init__(self, user: User):
        super().__init__(user.pk)
        self.user = user


def _has_role(roles: list[str], *names: str) -> bool:
    full = {ROLE_PREFIX + name for name in names}
    # Short role names ("Instructor") are deprecated but some platforms still send them.
    short = {name.split("#")[-1] for name in names}
    return any(role in full or role in short for role in roles)


def is_staff_launch(launch: dict) -> bool:
    return _has_role(launch.get(CLAIM + "roles", []), *STAFF_ROLES)


def is_learner_launch(launch: dict) -> bool:
    return _has_role(launch.get(CLAIM + "roles", []), LEARNER_ROLE)


def _trimmed(text: str, length: int = NAME_MAX_LENGTH) -> str:
    return " ".join((text or "").split())[:length]


# --- Launch -------------------------------------------------------------------------------------


@transaction.atomic
def launch_sign_in(*, platform: Platform, launch: dict) -> tuple[CourseLink, User | None, Student | None]:
    """The class this course launches into and the person to sign in (a teacher or a student)."""
    context = launch.get(CLAIM + "context") or {}
    if not context.get("id"):
        raise LaunchRefused(_("Launch Classplay from inside a course."))
    link = PersonLink.objects.filter(platform=platform, lti_user_id=launch["sub"]).first()
    if is_staff_launch(launch):
        if link is not None and link.student_id:
            raise LaunchRefused(
                _("This course account is a student in Classplay, so it cannot open Classplay as a teacher.")
            )
        teacher = _teacher_for(platform, launch, link)
        course = _course_for_teacher(platform, context, teacher)
        _remember_services(course, launch)
        return course, teacher, None
    if is_learner_launch(launch):
        if link is not None and link.user_id:
            raise LaunchRefused(
                _("This course account is a teacher in Classplay, so it cannot join as a student.")
            )
        joined = CourseLink.objects.filter(platform=platform, context_id=context["id"]).first()
        if joined is None:
            raise LaunchRefused(
                _("Your teacher has not opened Classplay in this course yet. Try again after they have.")
            )
        student = learner_student(joined, launch["sub"], launch, link)
        _remember_services(joined, launch)
        return joined, None, student
    raise LaunchRefused(_("Classplay opens for a course's teachers and learners only."))


def _teacher_for(platform: Platform, launch: dict, link: PersonLink | None) -> User:
    if link is not None and link.user is not None:
        teacher = link.user
    else:
        email = (launch.get("email") or "").strip().lower()
        if not email:
            raise LaunchRefused(
                _(
                    "Your course platform did not share your email address, which Classplay needs to "
                    "sign a teacher in. Ask your school admin to share it with the tool."
                )
            )
        known = User.objects.filter(email__iexact=email).first()
        if known is not None:
            _check_same_school(platform, known)
            raise LinkNeeded(known)
        teacher = User.objects.create_user(email=email, display_name=_trimmed(launch.get("name", "")))
        PersonLink.objects.create(platform=platform, lti_user_id=launch["sub"], user=teacher)
    Membership.objects.get_or_create(user=teacher, school_id=platform.school_id)
    return teacher


def _check_same_school(platform: Platform, user: User) -> None:
    # An LMS vouches for its own school's staff, never for an account of another school.
    if not user.memberships.filter(school=platform.school_id).exists():
        raise LaunchRefused(
            _("A Classplay account with your email belongs to another school. Sign in to it directly.")
        )


@transaction.atomic
def person_link_confirm(*, platform: Platform, lti_user_id: str, user: User) -> PersonLink:
    """Link an LMS user id to the account whose holder has just signed in to it (``LinkNeeded``)."""
    _check_same_school(platform, user)
    link, _created = PersonLink.objects.get_or_create(
        platform=platform, lti_user_id=lti_user_id, defaults={"user": user}
    )
    if link.user_id != user.pk:  # linked meanwhile, by another launch
        raise LaunchRefused(_("This course account is already linked to another Classplay account."))
    return link


def _course_for_teacher(platform: Platform, context: dict, teacher: User) -> CourseLink:
    course = (
        CourseLink.objects.filter(platform=platform, context_id=context["id"])
        .select_related("classroom")
        .first()
    )
    title = _trimmed(context.get("title") or context.get("label") or _("Course"), 255)
    if course is None:
        classroom = _new_classroom(platform, title, teacher)
        return CourseLink.objects.create(
            platform=platform, context_id=context["id"], title=title, classroom=classroom
        )
    course.classroom.teachers.add(teacher)
    if course.title != title:
        course.title = title
        course.save(update_fields=["title"])
    return course


def _new_classroom(platform: Platform, title: str, teacher: User) -> Classroom:
    name = _trimmed(title)
    for number in range(1, 100):
        candidate = name if number == 1 else f"{name[: NAME_MAX_LENGTH - 5]} ({number})"
        try:
            with transaction.atomic():
                return classroom_services.classroom_create(
                    school=platform.school, teacher=teacher, name=candidate
                )
        except ValidationError:
            continue  # the school already has a class of that name
    raise LaunchRefused(_("Classplay could not name a class for this course. Ask your school admin."))


def learner_student(course: CourseLink, lti_user_id: str, person: dict, link: PersonLink | None) -> Student:
    """The LMS learner's student (found by their LMS user id, else made with their LMS name), enrolled
    in the course's class."""
    if link is not None and link.student is not None:
        student = link.student
        # Enrolled by this course unless the class had them already (then the course never removes them).
        Enrolment.objects.get_or_create(
            student=student, classroom=course.classroom, defaults={"source": enrolment_source(course)}
        )
        return student
    given, family = names(person)
    student = classroom_services.student_create(
        classroom=course.classroom, given_name=given, family_name=family
    )
    enrolment = Enrolment.objects.filter(student=student, classroom=course.classroom)
    enrolment.update(source=enrolment_source(course))
    PersonLink.objects.create(platform=course.platform, lti_user_id=lti_user_id, student=student)
    return student


def enrolment_source(course: CourseLink) -> str:
    """How an enrolment made by this LMS course's roster is marked (``Enrolment.source``)."""
    return f"lti:{course.pk}"


def names(person: dict) -> tuple[str, str]:
    given, family = _trimmed(person.get("given_name", "")), _trimmed(person.get("family_name", ""))
    if not given:
        full = _trimmed(person.get("name", "")).split(" ")
        given, family = full[0], family or " ".join(full[1:])
    return (given or _("Learner")), _trimmed(family)


def _remember_services(course: CourseLink, launch: dict) -> None:
    url = (launch.get(NRPS_CLAIM) or {}).get("context_memberships_url", "")
    if url and url != course.memberships_url:
        course.memberships_url = url
        course.save(update_fields=["memberships_url"])


def resource_link_record(*, course: CourseLink, launch: dict) -> ResourceLink | None:
    """The resource link this launch came through, its game session or homework (from the deep link's
    custom parameter, if it names one of this class's) and its grade endpoints."""
    resource = launch.get(CLAIM + "resource_link") or {}
    if not resource.get("id"):
        return None
    link, _created = ResourceLink.objects.get_or_create(course=course, resource_link_id=resource["id"])
    custom = launch.get(CLAIM + "custom") or {}
    session_id = str(custom.get(SESSION_PARAMETER, ""))
    if session_id.isdigit() and link.session_id is None:
        link.session = course.classroom.game_sessions.filter(pk=int(session_id)).first()
    assignment_id = str(custom.get(ASSIGNMENT_PARAMETER, ""))
    if assignment_id.isdigit() and link.assignment_id is None:
        link.assignment = course.classroom.assignments.filter(pk=int(assignment_id)).first()
    ags = launch.get(AGS_CLAIM) or {}
    link.lineitems_url = ags.get("lineitems", link.lineitems_url)
    link.lineitem_url = ags.get("lineitem", link.lineitem_url)
    link.ags_scopes = ags.get("scope", link.ags_scopes)
    link.save()
    return link


def learner_landing(*, link: ResourceLink | None, student: Student) -> str:
    """Where a learner's launch lands: the linked live game, joined (no code, no tap); the linked homework
    on their page, where Start waits; else their page, which lists the class's open games."""
    home = reverse("student_home")
    if link is None:
        return home
    if link.assignment_id is not None:
        return f"{home}#homework-{link.assignment_id}"
    if link.session is not None and link.session.is_live:
        try:
            game_services.session_join(session=link.session, student=student)
        except (PermissionDenied, ValidationError):
            return (
                home  # taken out of it by the teacher, or it closed meanwhile: their page says what is open
            )
        return reverse("games:play", args=[link.session_id])
    return home


# --- Deep linking --------------------------------------------------------------------------------


def deep_link_request_create(*, course: CourseLink, user: User, deployment_id: str, settings: dict):
    return DeepLinkRequest.objects.create(
        course=course, user=user, deployment_id=deployment_id, settings=settings
    )


def deep_link_request_answer(*, request: DeepLinkRequest) -> None:
    request.answered_at = timezone.now()
    request.save(update_fields=["answered_at"])
