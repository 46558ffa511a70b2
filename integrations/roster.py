"""Names and Role Provisioning Services: the class list follows the LMS course. Learners added are
enrolled (made on first sight), renamed ones renamed, and those gone from the course unenrolled if the
course enrolled them (not a student the teacher added by hand): their student record and learning data
stay."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from pylti1p3.names_roles import NamesRolesProvisioningService

from classrooms import services as classroom_services
from classrooms.models import Enrolment

from . import services
from .lti import service_connector
from .models import CourseLink, PersonLink

logger = logging.getLogger(__name__)


@dataclass
class RosterSyncResult:
    added: int = 0
    renamed: int = 0
    removed: int = 0


def fetch_members(course: CourseLink) -> list[dict]:
    connector = service_connector(course.platform)
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": course.memberships_url})
    return [dict(member) for member in service.get_members()]


def _is_learner(member: dict) -> bool:
    return services.is_learner_launch({services.CLAIM + "roles": member.get("roles", [])}) and not (
        services.is_staff_launch({services.CLAIM + "roles": member.get("roles", [])})
    )


def roster_sync(*, course_id: int) -> RosterSyncResult:
    """Fetch the course's members, then apply them (idempotent: a second run changes nothing)."""
    course = CourseLink.objects.select_related("platform", "classroom").get(pk=course_id)
    members = fetch_members(course)
    return roster_apply(course=course, members=members)


@transaction.atomic
def roster_apply(*, course: CourseLink, members: list[dict]) -> RosterSyncResult:
    result = RosterSyncResult()
    if not members:
        # Not even the teacher: a course platform's privacy setting or a glitch, never a real course.
        # Applying it would take every student off the class.
        logger.warning("LMS course %s sent an empty member list: the class is left as it is", course.pk)
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
    for user_id, member in active.items():
        link = links.get(user_id)
        if link is None or link.student_id not in enrolled:
            services.learner_student(course, user_id, member, link)
            result.added += 1
        elif _rename(link.student, member):
            result.renamed += 1
    gone = [link.student_id for user_id, link in links.items() if user_id not in active]
    if not active and enrolled.intersection(gone):
        # Teachers but no learners: platforms hide learners from tools by a privacy setting, and a course
        # whose learners all left at once is far rarer than that. Taking the whole class off is left to
        # the teacher, by hand.
        logger.warning("LMS course %s sent no learners: the class is left as it is", course.pk)
        return result
    # Only the enrolments this course made: a student the teacher added by hand stays, even one the
    # platform knows from another course.
    result.removed = Enrolment.objects.filter(
        classroom=course.classroom, student_id__in=gone, source=services.enrolment_source(course)
    ).delete()[0]
    course.roster_synced_at = timezone.now()
    course.save(update_fields=["roster_synced_at"])
    return result


def _rename(student, member: dict) -> bool:
    given, family = services.names(member)
    if (student.given_name, student.family_name) == (given, family):
        return False
    classroom_services.student_rename(student=student, given_name=given, family_name=family)
    return True
