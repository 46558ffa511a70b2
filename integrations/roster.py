"""Names and Role Provisioning Services: the class list follows the LMS course. Learners added are
enrolled (made on first sight), renamed ones renamed, and those gone from the course unenrolled if the
course enrolled them (not a student the teacher added by hand): their student record and learning data
stay.

One member the class cannot take (an LMS id already linked to a Classplay teacher, or a row that would
not save) is left out with its reason, never the whole list; each sync's outcome (its counts, who was
left out and why, or the error that stopped it) is a ``RosterRun`` the class page shows."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from pylti1p3.names_roles import NamesRolesProvisioningService

from classrooms import services as classroom_services
from classrooms.models import Enrolment

from . import services
from .lti import service_connector
from .models import CourseLink, PersonLink, RosterRun

logger = logging.getLogger(__name__)


@dataclass
class RosterSyncResult:
    added: int = 0
    renamed: int = 0
    removed: int = 0
    #: The members left out, each ``{"name": ..., "reason": ...}`` (``RosterRun.skipped``).
    skipped: list[dict] = field(default_factory=list)
    #: False when the list was not applied (no members, or no learners): the class was left as it is.
    applied: bool = True

    def skip(self, member: dict, reason: str) -> None:
        self.skipped.append({"name": " ".join(services.names(member)).strip(), "reason": reason})


def fetch_members(course: CourseLink) -> list[dict]:
    connector = service_connector(course.platform)
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": course.memberships_url})
    return [dict(member) for member in service.get_members()]


def _is_learner(member: dict) -> bool:
    return services.is_learner_launch({services.CLAIM + "roles": member.get("roles", [])}) and not (
        services.is_staff_launch({services.CLAIM + "roles": member.get("roles", [])})
    )


def roster_sync(*, course_id: int) -> RosterSyncResult:
    """Fetch the course's members, then apply them (idempotent: a second run changes nothing), and
    record what came of it, the error included (then raised again, for the task's retries)."""
    course = CourseLink.objects.select_related("platform", "classroom").get(pk=course_id)
    try:
        result = roster_apply(course=course, members=fetch_members(course))
    except Exception as error:
        _record(course, RosterSyncResult(applied=False), error=str(error) or type(error).__name__)
        raise
    _record(course, result)
    return result


def _record(course: CourseLink, result: RosterSyncResult, error: str = "") -> RosterRun:
    if error:
        outcome = RosterRun.Outcome.FAILED
    else:
        outcome = RosterRun.Outcome.APPLIED if result.applied else RosterRun.Outcome.LEFT_AS_IS
    run = RosterRun.objects.create(
        course=course,
        outcome=outcome,
        added=result.added,
        renamed=result.renamed,
        removed=result.removed,
        skipped=result.skipped,
        error=error[:300],
    )
    kept = RosterRun.objects.filter(course=course).values_list("pk", flat=True)[: RosterRun.KEPT]
    RosterRun.objects.filter(course=course).exclude(pk__in=list(kept)).delete()
    return run


@transaction.atomic
def roster_apply(*, course: CourseLink, members: list[dict]) -> RosterSyncResult:
    result = RosterSyncResult()
    if not members:
        # Not even the teacher: a course platform's privacy setting or a glitch, never a real course.
        # Applying it would take every student off the class.
        logger.warning("LMS course %s sent an empty member list: the class is left as it is", course.pk)
        result.applied = False
        return result
    active = {
        member["user_id"]: member
        for member in members
        if _is_learner(member) and member.get("status", "Active") == "Active"
    }
    links = {
        link.lti_user_id: link
        for link in PersonLink.objects.filter(platform=course.platform, student__isnull=False).select_related(
            "student"
        )
    }
    enrolled = set(Enrolment.objects.filter(classroom=course.classroom).values_list("student_id", flat=True))
    teachers = set(
        PersonLink.objects.filter(
            platform=course.platform, user__isnull=False, lti_user_id__in=list(active)
        ).values_list("lti_user_id", flat=True)
    )
    for user_id, member in active.items():
        if user_id in teachers:
            # A student of this LMS id would be a second link for it: one member must not stop the rest.
            result.skip(member, RosterRun.TEACHER_ACCOUNT)
            continue
        _apply_member(course, result, user_id, member, links.get(user_id), enrolled)
    gone = [link.student_id for user_id, link in links.items() if user_id not in active]
    if not active and enrolled.intersection(gone):
        # Teachers but no learners: platforms hide learners from tools by a privacy setting, and a course
        # whose learners all left at once is far rarer than that. Taking the whole class off is left to
        # the teacher, by hand.
        logger.warning("LMS course %s sent no learners: the class is left as it is", course.pk)
        result.applied = False
        return result
    # Only the enrolments this course made: a student the teacher added by hand stays, even one the
    # platform knows from another course.
    result.removed = Enrolment.objects.filter(
        classroom=course.classroom, student_id__in=gone, source=services.enrolment_source(course)
    ).delete()[0]
    course.roster_synced_at = timezone.now()
    course.save(update_fields=["roster_synced_at"])
    return result


def _apply_member(course, result: RosterSyncResult, user_id: str, member: dict, link, enrolled) -> None:
    """Enrol (or rename) one learner, in a savepoint: a row that will not save is left out, with its
    reason, and the rest of the list is still applied."""
    try:
        with transaction.atomic():
            if link is None or link.student_id not in enrolled:
                services.learner_student(course, user_id, member, link)
                result.added += 1
            elif _rename(link.student, member):
                result.renamed += 1
    except (IntegrityError, ValidationError):
        logger.exception("LMS course %s: member %s could not be applied", course.pk, user_id)
        result.skip(member, RosterRun.NOT_SAVED)


def _rename(student, member: dict) -> bool:
    given, family = services.names(member)
    if (student.given_name, student.family_name) == (given, family):
        return False
    classroom_services.student_rename(student=student, given_name=given, family_name=family)
    return True
