"""Whole-school roster sync from a OneRoster 1.1 CSV export: the school admin's writes.

Classes, students and class-teacher links are matched by sourcedId, so applying the same export twice
changes nothing. Rows marked ``tobedeleted`` archive: a class is archived, a student leaves every class
and is archived, an enrolment ends; no learning data is ever deleted. Teachers are matched by email:
a member of the school gets their classes at once, anyone else gets the school's usual invitation and
their classes when they accept.

The preview runs the very same code inside a transaction that is rolled back, so what the preview counts
is what the confirmation does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import services
from .models import (
    Classroom,
    Enrolment,
    Invitation,
    Membership,
    RosterSync,
    RosterTeacher,
    School,
    Student,
    User,
)
from .oneroster import ClassRecord, OneRosterExport, OneRosterFileError, Problem, read_export

#: What a sync counts, in the order the page lists them.
COUNT_KEYS = (
    "classes_created",
    "classes_updated",
    "classes_archived",
    "students_created",
    "students_updated",
    "students_archived",
    "enrolled",
    "unenrolled",
    "teachers_linked",
    "teachers_invited",
    "teachers_unlinked",
)


class RosterSyncRefused(Exception):
    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(str(problem) for problem in problems[:5]))
        self.problems = problems


class _Rollback(Exception):
    pass


@dataclass
class _Outcome:
    counts: Counter = field(default_factory=Counter)
    problems: list[Problem] = field(default_factory=list)
    invite: dict[str, str] = field(default_factory=dict)  # email → sourcedId of the teacher to invite


def read(sync: RosterSync, *, max_bytes: int, max_rows: int) -> OneRosterExport:
    return read_export(bytes(sync.data), max_bytes=max_bytes, max_rows=max_rows)


def sync_preview(
    *, sync: RosterSync, max_bytes: int, max_rows: int, export: OneRosterExport | None = None
) -> RosterSync:
    """Read the upload (unless ``export`` is it, already read) and work out what applying it would do;
    stores counts and problems on the sync. Raises :class:`OneRosterFileError` when the zip as a whole
    is unusable."""
    if export is None:
        export = read(sync, max_bytes=max_bytes, max_rows=max_rows)
    sync.source_system = export.system
    outcome = _Outcome(problems=list(export.problems))
    if not outcome.problems:
        try:
            with transaction.atomic():
                outcome = _apply(sync, export)
                raise _Rollback
        except _Rollback:
            pass
    sync.counts = {key: outcome.counts[key] for key in COUNT_KEYS}
    sync.problems = [vars(problem) for problem in outcome.problems]
    sync.save(update_fields=["source_system", "org_id", "counts", "problems"])
    return sync


def sync_start(*, sync: RosterSync, export: OneRosterExport, max_bytes: int, max_rows: int) -> RosterSync:
    """Keep a new upload and preview it. An earlier preview of the school that was never applied is
    dropped (with its zip): only the latest upload can be applied."""
    RosterSync.objects.filter(school=sync.school, status=RosterSync.Status.PREVIEWED).delete()
    sync.save()
    return sync_preview(sync=sync, export=export, max_bytes=max_bytes, max_rows=max_rows)


def sync_apply(*, sync: RosterSync, by: User, base_url: str, max_bytes: int, max_rows: int) -> RosterSync:
    """All or nothing: any problem refuses the whole sync (:class:`RosterSyncRefused`). Teachers without an
    account are invited after the roster is saved, so no invitation names a class that was not created."""
    with transaction.atomic():
        sync = RosterSync.objects.select_for_update().get(pk=sync.pk)
        if sync.status == RosterSync.Status.APPLIED:
            raise ValidationError(_("This sync has already been applied."))
        export = read(sync, max_bytes=max_bytes, max_rows=max_rows)
        if export.problems:
            raise RosterSyncRefused(export.problems)
        outcome = _apply(sync, export)
        if outcome.problems:
            transaction.set_rollback(True)
            raise RosterSyncRefused(outcome.problems)
        sync.status, sync.applied_at = RosterSync.Status.APPLIED, timezone.now()
        sync.counts = {key: outcome.counts[key] for key in COUNT_KEYS}
        sync.problems, sync.data = [], b""
        sync.save(update_fields=["status", "applied_at", "counts", "problems", "data"])
        if sync.org_id and not sync.school.roster_org_id:
            School.objects.filter(pk=sync.school_id).update(roster_org_id=sync.org_id)
    for email in sorted(outcome.invite):
        try:
            services.invitation_create(
                school=sync.school,
                email=email,
                role=Membership.Role.TEACHER,
                invited_by=by,
                base_url=base_url,
            )
        except ValidationError:  # became a member meanwhile: their classes were linked on acceptance
            continue
    return sync


def school_org_id(sync: RosterSync, export: OneRosterExport) -> str | None:
    """The school's org in the export: the one chosen or kept, else the only school in orgs.csv."""
    chosen = sync.org_id or sync.school.roster_org_id
    if chosen:
        return chosen if chosen in export.orgs else None
    schools = export.school_orgs()
    return schools[0].sourced_id if len(schools) == 1 else None


# --- applying ------------------------------------------------------------------------------------


def _apply(sync: RosterSync, export: OneRosterExport) -> _Outcome:
    outcome = _Outcome()
    org_id = school_org_id(sync, export)
    if org_id is None:
        outcome.problems.append(_org_problem(sync, export))
        return outcome
    if sync.org_id != org_id:
        sync.org_id = org_id
        RosterSync.objects.filter(pk=sync.pk).update(org_id=org_id)
    school = sync.school
    classes = {record.sourced_id: record for record in export.classes.values() if record.school_id == org_id}
    enrollments = [record for record in export.enrollments if record.class_id in classes]
    in_scope = {record.user_id for record in enrollments} | {
        user.sourced_id for user in export.users.values() if org_id in user.org_ids
    }
    users = [export.users[sourced_id] for sourced_id in sorted(in_scope)]
    classrooms = _sync_classes(school, classes, outcome)
    students = _sync_students(school, [user for user in users if user.role == "student"], outcome)
    teachers = _sync_teachers(school, [user for user in users if user.role == "teacher"], outcome)
    if not outcome.problems:
        _sync_enrollments(enrollments, classrooms, students, teachers, outcome)
    return outcome


def _org_problem(sync: RosterSync, export: OneRosterExport) -> Problem:
    chosen = sync.org_id or sync.school.roster_org_id
    if chosen:
        reason = _(
            "This school's roster org %(id)s is not in orgs.csv: is this export from another school?"
        ) % {"id": chosen}
    elif export.school_orgs():
        reason = _("The export holds several schools: choose which one is %(school)s.") % {
            "school": sync.school.name
        }
    else:
        reason = _("orgs.csv has no org of type school.")
    return Problem("orgs.csv", 0, reason)


def _class_names(classes: dict[str, ClassRecord]) -> dict[str, str]:
    """A name per class: the title, with the class code (or id) added where titles repeat."""
    titles = Counter(record.title.lower() for record in classes.values() if not record.deleted)
    names = {}
    for record in classes.values():
        name = record.title
        if titles[record.title.lower()] > 1:
            name = f"{record.title[:40]} ({record.class_code or record.sourced_id[:16]})"
        names[record.sourced_id] = name
    return names


def _sync_classes(school: School, classes: dict[str, ClassRecord], outcome: _Outcome) -> dict[str, Classroom]:
    existing = {c.external_id: c for c in Classroom.objects.filter(school=school).exclude(external_id="")}
    by_name = {c.name.lower(): c for c in Classroom.objects.filter(school=school)}
    names = _class_names(classes)
    result: dict[str, Classroom] = {}
    for sourced_id, record in classes.items():
        classroom = existing.get(sourced_id)
        if record.deleted:
            if classroom is not None and not classroom.archived:
                classroom.archived = True
                classroom.save(update_fields=["archived"])
                outcome.counts["classes_archived"] += 1
            if classroom is not None:
                result[sourced_id] = classroom
            continue
        name = names[sourced_id]
        clash = by_name.get(name.lower())
        if classroom is None and clash is not None and not clash.external_id:
            classroom = clash  # a class the teachers made by hand before the first sync: linked, not doubled
            classroom.external_id = sourced_id
            classroom.save(update_fields=["external_id"])
        elif clash is not None and (classroom is None or clash.pk != classroom.pk):
            outcome.problems.append(
                Problem(
                    "classes.csv",
                    record.line,
                    _("Classplay already has a class called “%(name)s” from another roster id (%(id)s)")
                    % {"name": name, "id": clash.external_id},
                )
            )
            continue
        if classroom is None:
            classroom = Classroom.objects.create(
                school=school, name=name, subject=record.subject, grade=record.grade, external_id=sourced_id
            )
            outcome.counts["classes_created"] += 1
        elif (classroom.name, classroom.subject, classroom.grade, classroom.archived) != (
            name,
            record.subject,
            record.grade,
            False,
        ):
            by_name.pop(classroom.name.lower(), None)
            classroom.name, classroom.subject, classroom.grade, classroom.archived = (
                name,
                record.subject,
                record.grade,
                False,
            )
            classroom.save(update_fields=["name", "subject", "grade", "archived"])
            outcome.counts["classes_updated"] += 1
        by_name[name.lower()] = classroom
        result[sourced_id] = classroom
    return result


def _sync_students(school: School, users, outcome: _Outcome) -> dict[str, Student]:
    existing = {
        s.external_id: s
        for s in Student.objects.filter(school=school, external_id__in=[user.sourced_id for user in users])
    }
    now = timezone.now()
    new = []
    for user in users:
        student = existing.get(user.sourced_id)
        if user.deleted:
            if student is not None and student.archived_at is None:
                Enrolment.objects.filter(student=student).delete()
                student.archived_at = now
                student.save(update_fields=["archived_at"])
                outcome.counts["students_archived"] += 1
            continue
        if student is None:
            new.append(
                Student(
                    school=school,
                    given_name=user.given_name,
                    family_name=user.family_name,
                    display_name=services.display_name_for(user.given_name, user.family_name),
                    external_id=user.sourced_id,
                    grade=user.grade,
                )
            )
            continue
        wanted = (user.given_name, user.family_name, user.grade, None)
        if (student.given_name, student.family_name, student.grade, student.archived_at) != wanted:
            renamed = (student.given_name, student.family_name) != wanted[:2]
            student.given_name, student.family_name, student.grade, student.archived_at = wanted
            if renamed:
                student.display_name = services.display_name_for(user.given_name, user.family_name)
            student.save(update_fields=["given_name", "family_name", "grade", "archived_at", "display_name"])
            outcome.counts["students_updated"] += 1
    for student in Student.objects.bulk_create(new, batch_size=500):
        existing[student.external_id] = student
    outcome.counts["students_created"] += len(new)
    if new and not all(student.pk for student in new):  # databases that do not return ids from bulk inserts
        existing.update(
            {
                s.external_id: s
                for s in Student.objects.filter(school=school, external_id__in=[s.external_id for s in new])
            }
        )
    return existing


def _sync_teachers(school: School, users, outcome: _Outcome) -> dict[str, RosterTeacher]:
    rostered = {t.external_id: t for t in RosterTeacher.objects.filter(school=school)}
    emails = [user.email for user in users if user.email]
    accounts = {u.email.lower(): u for u in User.objects.filter(email__in=emails)}
    members = set(
        Membership.objects.filter(school=school, user__in=accounts.values()).values_list("user_id", flat=True)
    )
    waiting = {
        invitation.email.lower()
        for invitation in Invitation.objects.filter(
            school=school, accepted_at__isnull=True, expires_at__gt=timezone.now()
        )
    }
    result = {}
    for user in users:
        teacher = rostered.get(user.sourced_id)
        if user.deleted:
            if teacher is not None:
                result[user.sourced_id] = teacher
            continue
        account = accounts.get(user.email)
        linked = account if account is not None and account.pk in members else None
        if teacher is None:
            teacher = RosterTeacher.objects.create(
                school=school, external_id=user.sourced_id, email=user.email, user=linked
            )
        elif (teacher.email, teacher.user_id) != (user.email, getattr(linked, "pk", teacher.user_id)):
            teacher.email, teacher.user = user.email, linked or teacher.user
            teacher.save(update_fields=["email", "user"])
        if teacher.user_id is None and user.email not in waiting and user.email not in outcome.invite:
            outcome.invite[user.email] = user.sourced_id
            outcome.counts["teachers_invited"] += 1
        result[user.sourced_id] = teacher
    return result


def _sync_enrollments(enrollments, classrooms, students, teachers, outcome: _Outcome) -> None:
    enrolled = set(
        Enrolment.objects.filter(classroom__in=classrooms.values()).values_list("student_id", "classroom_id")
    )
    new = []
    for record in enrollments:
        classroom = classrooms.get(record.class_id)
        if classroom is None:
            continue  # a class that is tobedeleted and was never synced
        if record.role == "student" and record.user_id in students:
            student = students[record.user_id]
            key = (student.pk, classroom.pk)
            if record.deleted and key in enrolled:
                Enrolment.objects.filter(student=student, classroom=classroom).delete()
                enrolled.discard(key)
                outcome.counts["unenrolled"] += 1
            elif not record.deleted and key not in enrolled and student.archived_at is None:
                new.append(Enrolment(student=student, classroom=classroom))
                enrolled.add(key)
        elif record.role == "teacher" and record.user_id in teachers:
            _link_teacher(teachers[record.user_id], classroom, record.deleted, outcome)
    Enrolment.objects.bulk_create(new, batch_size=500)
    outcome.counts["enrolled"] += len(new)


def _link_teacher(teacher: RosterTeacher, classroom: Classroom, deleted: bool, outcome: _Outcome) -> None:
    has_class = teacher.classrooms.filter(pk=classroom.pk).exists()
    teaches = teacher.user_id is not None and classroom.teachers.filter(pk=teacher.user_id).exists()
    if deleted:
        if has_class:
            teacher.classrooms.remove(classroom)
        if teaches and teacher.user_id is not None:
            classroom.teachers.remove(teacher.user_id)
            outcome.counts["teachers_unlinked"] += 1
        return
    if not has_class:
        teacher.classrooms.add(classroom)
    if teacher.user_id is not None and not teaches:
        classroom.teachers.add(teacher.user_id)
        outcome.counts["teachers_linked"] += 1


__all__ = ["OneRosterFileError", "RosterSyncRefused", "sync_apply", "sync_preview", "sync_start"]
