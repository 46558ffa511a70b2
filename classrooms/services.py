"""Every write to schools, classes, students and levels goes through here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from . import device_cache, languages, selectors
from .models import (
    ACCOMMODATION_FLAGS,
    WAITING_DEVICE_MINUTES,
    AccommodationChange,
    Accommodations,
    Classroom,
    Enrolment,
    Invitation,
    LevelChange,
    Membership,
    RosterTeacher,
    School,
    Skill,
    Student,
    StudentLevel,
    TimeAllowance,
    User,
    WaitingDevice,
    new_class_code,
    new_signin_code,
    new_waiting_code,
)
from .roster import RosterRow, clean_grade, clean_name

INVITATION_DAYS = 14


# --- Schools and staff -----------------------------------------------------------------------------


@transaction.atomic
def school_create(*, name: str, creator: User) -> School:
    """A new school; its creator becomes its first admin (and can teach classes in it)."""
    school = School.objects.create(name=clean_name(name, max_length=120))
    Membership.objects.create(user=creator, school=school, role=Membership.Role.ADMIN)
    return school


def school_update(
    *,
    school: School,
    name: str,
    time_zone: str,
    default_language: str | None = None,
    clever_district_id: str | None = None,
    classlink_tenant_id: str | None = None,
) -> School:
    """The school's name, clock, default language and sign-in districts (None keeps one). An unknown time
    zone or language is refused, never stored."""
    if time_zone and time_zone not in available_timezones():
        raise ValidationError({"time_zone": _("Choose a time zone from the list.")})
    school.name = clean_name(name, max_length=120)
    school.time_zone = time_zone
    fields = ["name", "time_zone"]
    if default_language is not None:
        school.default_language = _shipped_language(default_language, field="default_language")
        fields.append("default_language")
    ids = {"clever_district_id": clever_district_id, "classlink_tenant_id": classlink_tenant_id}
    fields += _sign_in_ids_set(
        school, {field: value.strip() for field, value in ids.items() if value is not None}
    )
    try:
        with transaction.atomic():
            school.save(update_fields=fields)
    except IntegrityError:
        # Another school's admin claimed the same id a moment before: say which.
        _refuse_taken(school, {field: getattr(school, field) for field in SIGN_IN_IDS})
        raise
    return school


#: A school's sign-in ids, each with the flag that says the operator let several schools hold it.
SIGN_IN_IDS = {
    "clever_district_id": "clever_district_shared",
    "classlink_tenant_id": "classlink_tenant_shared",
}


def _sign_in_ids_set(school: School, ids: dict[str, str]) -> list[str]:
    """A school admin's Clever district and ClassLink tenant ids: ones no other school holds (whatever
    their case), else refused. Whose district it is cannot be checked here, so the first school keeps
    it and only the operator shares it (``sign_in_id_share``)."""
    changed = {field: value for field, value in ids.items() if value != getattr(school, field)}
    _refuse_taken(school, changed)
    for field, value in changed.items():
        setattr(school, field, value)
        setattr(school, SIGN_IN_IDS[field], False)  # the operator's grant was for the id it named
    return [name for field in changed for name in (field, SIGN_IN_IDS[field])]


def _refuse_taken(school: School, ids: dict[str, str]) -> None:
    messages = {
        "clever_district_id": _(
            "Another school already uses this Clever district ID. A district ID belongs to one school: "
            "if your schools truly share it, ask your Classplay operator to share it between them."
        ),
        "classlink_tenant_id": _(
            "Another school already uses this ClassLink tenant ID. A tenant ID belongs to one school: "
            "if your schools truly share it, ask your Classplay operator to share it between them."
        ),
    }
    others = School.objects.exclude(pk=school.pk)
    taken = {
        field: messages[field]
        for field, value in ids.items()
        if value and others.filter(**{f"{field}__iexact": value}).exists()
    }
    if taken:
        raise ValidationError(taken)


@transaction.atomic
def sign_in_id_share(*, field: str, value: str, schools: list[School]) -> list[School]:
    """The operator's word (``manage.py share_sso_id``): these schools, and only these, sign in with this
    Clever district or ClassLink tenant id. The first holds it as its own, the others share it; any other
    school that held it loses it (returned). One school alone: the id is assigned, or moved, to it."""
    value = value.strip()
    if field not in SIGN_IN_IDS or not value or not schools:
        raise ValueError("A sign-in id field, an id and at least one school are needed.")
    flag = SIGN_IN_IDS[field]
    schools = list({school.pk: school for school in schools}.values())
    others = School.objects.select_for_update().filter(**{f"{field}__iexact": value})
    others = others.exclude(pk__in=[school.pk for school in schools])
    taken_from = list(others)
    others.update(**{field: "", flag: False})
    # The sharers first, then the owner: the database never sees two schools holding it as their own.
    for school in [*schools[1:], schools[0]]:
        School.objects.filter(pk=school.pk).update(**{field: value, flag: school is not schools[0]})
    return taken_from


def _shipped_language(code: str, *, field: str = "language") -> str:
    """``code`` as settings.LANGUAGES spells it, or "" for none; any other value is refused."""
    if not code:
        return ""
    found = languages.supported(code)
    if found is None or found != code.lower():
        raise ValidationError({field: _("Choose a language from the list.")})
    return found


def user_language_set(*, user: User, language: str) -> User:
    """A member of staff's own language for every page ("" = their school's default)."""
    user.language = _shipped_language(language)
    user.save(update_fields=["language"])
    return user


def student_language_set(*, student: Student, language: str) -> Student:
    """The language every device the student signs in on speaks ("" = the school's default)."""
    student.language = _shipped_language(language)
    student.save(update_fields=["language"])
    return student


def invitation_create(
    *, school: School, email: str, role: str, invited_by: User, base_url: str
) -> Invitation:
    email = email.strip().lower()
    if Membership.objects.filter(school=school, user__email__iexact=email).exists():
        raise ValidationError(_("%(email)s is already a member of this school.") % {"email": email})
    invitation = Invitation.objects.create(
        school=school,
        email=email,
        role=role,
        invited_by=invited_by,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    link = base_url.rstrip("/") + reverse("invitation_accept", args=[invitation.token])
    context = {"invitation": invitation, "link": link, "days": INVITATION_DAYS}
    # The invitee has no language of their own yet: the school's, else the inviter's (the page's).
    with translation.override(languages.supported(school.default_language) or translation.get_language()):
        subject = _("You are invited to %(school)s on Classplay") % {"school": school.name}
        message = render_to_string("classrooms/email/invitation.txt", context)
    send_mail(
        subject=subject, message=message, from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=[email]
    )
    return invitation


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_usable:
        raise ValidationError(_("This invitation has expired or was already used."))
    if user.email.lower() != invitation.email.lower():
        raise ValidationError(
            _("This invitation is for %(email)s. Sign in with that address to accept it.")
            % {"email": invitation.email}
        )
    membership, created = Membership.objects.get_or_create(
        user=user, school=invitation.school, defaults={"role": invitation.role}
    )
    if not created and invitation.role == Membership.Role.ADMIN and membership.role != Membership.Role.ADMIN:
        membership.role = Membership.Role.ADMIN
        membership.save(update_fields=["role"])
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_at"])
    link_rostered_classes(user=user, school=invitation.school)
    return membership


def link_rostered_classes(*, user: User, school: School) -> int:
    """Give a teacher who joined the school the classes its roster names them for (matched by email)."""
    count = 0
    for teacher in RosterTeacher.objects.filter(school=school, email__iexact=user.email):
        teacher.user = user
        teacher.save(update_fields=["user"])
        for classroom in teacher.classrooms.all():
            classroom.teachers.add(user)
            count += 1
    return count


# --- Classes -------------------------------------------------------------------------------------


def classroom_create(
    *,
    school: School,
    teacher: User,
    name: str,
    subject: str = "",
    grade: str = "",
    name_list: str = Classroom.NameList.INITIALS,
) -> Classroom:
    name = clean_name(name)
    if Classroom.objects.filter(school=school, name__iexact=name).exists():
        raise ValidationError(
            {"name": _("Your school already has a class called “%(name)s”.") % {"name": name}}
        )
    classroom = Classroom.objects.create(
        school=school,
        name=name,
        subject=clean_name(subject),
        grade=clean_name(grade, max_length=20),
        name_list=_name_list(name_list),
    )
    classroom.teachers.add(teacher)
    return classroom


def _name_list(value: str) -> str:
    if value not in Classroom.NameList.values:
        raise ValidationError({"name_list": _("Choose how the class list shows.")})
    return value


def classroom_update(
    *, classroom: Classroom, name: str, subject: str, grade: str, name_list: str | None = None
) -> Classroom:
    name = clean_name(name)
    clash = Classroom.objects.filter(school=classroom.school_id, name__iexact=name).exclude(pk=classroom.pk)
    if clash.exists():
        raise ValidationError(
            {"name": _("Your school already has a class called “%(name)s”.") % {"name": name}}
        )
    classroom.name, classroom.subject, classroom.grade = (
        name,
        clean_name(subject),
        clean_name(grade, max_length=20),
    )
    if name_list is not None:
        classroom.name_list = _name_list(name_list)
    classroom.save(update_fields=["name", "subject", "grade", "name_list"])
    return classroom


def classroom_new_join_code(*, classroom: Classroom) -> str:
    """A fresh class code (the old one stops working at once, and the class's students' devices are
    signed out: the code was shared where it should not be)."""
    for _attempt in range(10):
        classroom.join_code = new_class_code()
        try:
            with transaction.atomic():
                classroom.save(update_fields=["join_code"])
                students = Student.objects.filter(enrolments__classroom=classroom)
                signed_out = list(students.values_list("pk", flat=True))
                students.update(signin_version=F("signin_version") + 1)
                # a bulk update sends no signal: the game sockets' cache of these students is told here
                transaction.on_commit(partial(device_cache.forget_students, signed_out))
            return classroom.join_code
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free class code")


# --- Students ------------------------------------------------------------------------------------


def display_name_for(given_name: str, family_name: str) -> str:
    """“Ava M.”: enough to pick yourself from a class list without showing a full name on a projector."""
    initial = family_name[:1].upper()
    return f"{given_name} {initial}." if initial else given_name


@transaction.atomic
def student_create(
    *,
    classroom: Classroom,
    given_name: str,
    family_name: str = "",
    external_id: str = "",
    grade: str = "",
    levels: dict[str, int] | None = None,
    by: User | None = None,
    source: str = LevelChange.Source.INITIAL,
) -> Student:
    given_name, family_name = clean_name(given_name), clean_name(family_name)
    if not given_name:
        raise ValidationError({"given_name": _("Enter the student's first name.")})
    student = Student.objects.create(
        school_id=classroom.school_id,
        given_name=given_name,
        family_name=family_name,
        display_name=display_name_for(given_name, family_name),
        external_id=external_id.strip(),
        grade=clean_grade(grade),
    )
    Enrolment.objects.create(student=student, classroom=classroom)
    for skill in Skill.values:
        level = (levels or {}).get(skill)
        if level is not None:
            student_level_set(student=student, skill=skill, level=level, by=by, source=source, reason="")
    return student


def student_rename(*, student: Student, given_name: str, family_name: str, display_name: str = "") -> Student:
    given_name, family_name = clean_name(given_name), clean_name(family_name)
    if not given_name:
        raise ValidationError({"given_name": _("Enter the student's first name.")})
    student.given_name, student.family_name = given_name, family_name
    student.display_name = clean_name(display_name) or display_name_for(given_name, family_name)
    student.save(update_fields=["given_name", "family_name", "display_name"])
    return student


@transaction.atomic
def student_move(*, student: Student, from_classroom: Classroom, to_classroom: Classroom) -> None:
    if from_classroom.school_id != to_classroom.school_id:
        raise ValidationError(_("Students can only move between classes of the same school."))
    Enrolment.objects.filter(student=student, classroom=from_classroom).delete()
    Enrolment.objects.get_or_create(student=student, classroom=to_classroom)


@transaction.atomic
def student_remove(*, student: Student, classroom: Classroom) -> None:
    """Take the student off this class. A student left in no class is deleted with their sign-in card;
    one still in another class keeps their record there."""
    Enrolment.objects.filter(student=student, classroom=classroom).delete()
    if not student.enrolments.exists():
        student.delete()


def student_new_signin_code(*, student: Student) -> str:
    """A new code: the old one stops working, and every device signed in with it is signed out."""
    student.signin_code = new_signin_code()
    student.failed_signins = 0
    student.locked_until = None
    student.signin_version += 1
    student.save(update_fields=["signin_code", "failed_signins", "locked_until", "signin_version"])
    return student.signin_code


@transaction.atomic
def student_level_set(
    *,
    student: Student,
    skill: str,
    level: int,
    by: User | None,
    reason: str = "",
    source: str = LevelChange.Source.TEACHER,
) -> StudentLevel:
    if skill not in Skill.values:
        raise ValidationError(_("Unknown skill."))
    if level not in range(1, 6):
        raise ValidationError(_("Levels run from 1 to 5."))
    current, created = StudentLevel.objects.select_for_update().get_or_create(
        student=student, skill=skill, defaults={"level": level}
    )
    old_level = None if created else current.level
    if not created and old_level == level:
        return current
    if not created:
        current.level = level
        current.save(update_fields=["level", "updated_at"])
    LevelChange.objects.create(
        student=student,
        skill=skill,
        old_level=old_level,
        new_level=level,
        changed_by=by,
        source=source,
        reason=clean_name(reason, max_length=200) if reason else "",
    )
    return current


@transaction.atomic
def student_accommodations_set(
    *,
    student: Student,
    by: User | None,
    reason: str = "",
    extra_time: str = TimeAllowance.STANDARD,
    **flags: bool,
) -> Accommodations:
    """Set a student's accommodations; a change is kept in their history (who, when, before, after, why)."""
    if extra_time not in TimeAllowance.values:
        raise ValidationError(_("Unknown time allowance."))
    unknown = set(flags) - set(ACCOMMODATION_FLAGS)
    if unknown:
        raise ValidationError(_("Unknown accommodation."))
    current, _created = Accommodations.objects.select_for_update().get_or_create(student=student)
    before = current.as_dict()
    current.extra_time = extra_time
    for flag in ACCOMMODATION_FLAGS:
        setattr(current, flag, bool(flags.get(flag, False)))
    after = current.as_dict()
    if after == before:
        return current
    current.save()
    AccommodationChange.objects.create(
        student=student,
        before=before,
        after=after,
        changed_by=by,
        reason=clean_name(reason, max_length=200) if reason else "",
    )
    return current


class SignInRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class CardLocked(SignInRefused):
    """The card is locked for this (new) device: its teacher may let the device in."""


def student_check_signin(*, student: Student, code: str, known_device: bool = False) -> None:
    """Check a student's sign-in code. Wrong codes count against the card: past the limit the card is
    locked for devices it has never signed in on (``known_device`` is false), until the lock runs out or
    a teacher unlocks it. A device the student signed in on before is never locked out."""
    now = timezone.now()
    with transaction.atomic():
        student = Student.objects.select_for_update().get(pk=student.pk)
        if not known_device and student.locked_until and student.locked_until > now:
            raise CardLocked(_("Too many wrong codes for this card on a new device."))
        if constant_time_compare((code or "").strip(), student.signin_code):
            if student.failed_signins or student.locked_until:
                student.failed_signins, student.locked_until = 0, None
                student.save(update_fields=["failed_signins", "locked_until"])
            return
        student.failed_signins += 1
        if student.failed_signins >= settings.STUDENT_SIGNIN_MAX_FAILURES:
            student.failed_signins = 0
            student.locked_until = now + timedelta(minutes=settings.STUDENT_SIGNIN_LOCK_MINUTES)
        student.save(update_fields=["failed_signins", "locked_until"])
    raise SignInRefused(_("That code is not right. Check your login card and try again."))


def classroom_unlock_cards(*, classroom: Classroom, by: User) -> int:
    """Unlock every login card of the class (after a lockout, or a guessing attempt): returns how many
    were locked. The class page says who did it and when."""
    now = timezone.now()
    students = Student.objects.filter(enrolments__classroom=classroom)
    locked = students.filter(locked_until__gt=now).count()
    Student.objects.filter(pk__in=students.values("pk")).update(failed_signins=0, locked_until=None)
    WaitingDevice.objects.filter(classroom=classroom, let_in_at__isnull=True).delete()  # they may sign in now
    classroom.cards_unlocked_at, classroom.cards_unlocked_by = now, by
    classroom.save(update_fields=["cards_unlocked_at", "cards_unlocked_by"])
    return locked


# --- Letting a device in while its card is locked -----------------------------------------------------


class LetInRefused(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _waiting_since() -> datetime:
    return timezone.now() - timedelta(minutes=WAITING_DEVICE_MINUTES)


def device_wait(
    *, student: Student, classroom: Classroom, kind: str, waiting_id: int | None = None
) -> WaitingDevice:
    """This device waits for the class's teacher to let it in with ``student``'s locked card: the same
    wait again if it is already waiting for them (``waiting_id``, from its session), else a new one with
    a code no other device waiting for this student shows."""
    WaitingDevice.objects.filter(classroom=classroom, created_at__lt=_waiting_since()).delete()  # over
    same = WaitingDevice.objects.filter(pk=waiting_id, student=student, classroom=classroom).first()
    if same is not None:
        return same
    kind = kind if kind in WaitingDevice.Kind.values else WaitingDevice.Kind.OTHER
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return WaitingDevice.objects.create(
                    student=student, classroom=classroom, kind=kind, code=new_waiting_code()
                )
        except IntegrityError:  # that code is already on another device waiting for this student
            continue
    raise LetInRefused(_("Too many devices are waiting for this card. Ask your teacher to unlock it."))


def device_let_in(*, classroom: Classroom, student: Student, code: str, by: User) -> WaitingDevice:
    """The teacher lets in the device of ``student`` (of ``classroom``) that shows ``code``. The caller
    checks that ``by`` may manage the class; a code of another class or student lets nothing in."""
    code = "".join((code or "").split())
    with transaction.atomic():
        waiting = (
            WaitingDevice.objects.select_for_update()
            .filter(
                classroom=classroom,
                student=student,
                student__enrolments__classroom=classroom,
                code=code,
                let_in_at__isnull=True,
                created_at__gte=_waiting_since(),
            )
            .first()
        )
        if waiting is None:
            raise LetInRefused(
                _("No device is waiting for %(name)s with that code. Check the code on the student’s screen.")
                % {"name": student.display_name}
            )
        waiting.let_in_at, waiting.let_in_by = timezone.now(), by
        waiting.save(update_fields=["let_in_at", "let_in_by"])
    return waiting


def device_collect_let_in(*, waiting_id: int) -> Student | None:
    """The student a waiting device was let in for (the wait is then over), or None while it waits. A
    student who has left the class since is not signed in."""
    with transaction.atomic():
        waiting = (
            WaitingDevice.objects.select_for_update()
            .select_related("student")
            .filter(pk=waiting_id, let_in_at__isnull=False, created_at__gte=_waiting_since())
            .filter(student__enrolments__classroom=F("classroom"))
            .first()
        )
        if waiting is None:
            return None
        student = waiting.student
        waiting.delete()
    return student


# --- Roster import --------------------------------------------------------------------------------


@dataclass
class RosterImportResult:
    created: int = 0
    updated: int = 0
    enrolled: int = 0
    unchanged: int = 0


def roster_conflicts(*, classroom: Classroom, rows: list[RosterRow], by: User) -> list[RosterRow]:
    """The rows as the preview shows them, with a conflict added to every row whose roster id is a
    student of the school whom the importer does not teach: a teacher's import may create students and
    update their own, never rename, re-level or take over a colleague's (a school admin may)."""
    if selectors.is_school_admin(by, classroom.school_id):
        return rows
    ids = [row.external_id for row in rows if row.external_id]
    taught = set(Classroom.objects.filter(teachers=by).values_list("pk", flat=True))
    others: dict[str, list[str]] = {}
    students = Student.objects.filter(school_id=classroom.school_id, external_id__in=ids).prefetch_related(
        "enrolments__classroom"
    )
    for student in students:
        classes = [enrolment.classroom for enrolment in student.enrolments.all()]
        if not any(c.pk in taught for c in classes):
            others[student.external_id.lower()] = [c.name for c in classes]
    for row in rows:
        classes = others.get(row.external_id.lower())
        if classes is None:
            continue
        if classes:
            message = _(
                "This roster id belongs to a student of another class (%(classes)s). A school admin can "
                "add them to this class."
            ) % {"classes": ", ".join(sorted(classes))}
        else:
            message = _(
                "This roster id belongs to a student of the school in no class of yours. A school admin "
                "can add them to this class."
            )
        if message not in row.errors:
            row.errors.append(message)
    return rows


@transaction.atomic
def roster_import(*, classroom: Classroom, rows: list[RosterRow], by: User) -> RosterImportResult:
    """All or nothing: any row with an error refuses the whole import. Re-importing the same file
    changes nothing (students are matched by their roster id within the school). A row matching a
    student the importer does not teach is a conflict (see :func:`roster_conflicts`)."""
    rows = roster_conflicts(classroom=classroom, rows=rows, by=by)
    if any(row.errors for row in rows):
        raise ValidationError(_("Fix the rows with errors before importing."))
    result = RosterImportResult()
    existing = {
        student.external_id.lower(): student
        for student in Student.objects.select_for_update().filter(
            school_id=classroom.school_id, external_id__in=[row.external_id for row in rows]
        )
    }
    for row in rows:
        student = existing.get(row.external_id.lower())
        if student is None:
            student_create(
                classroom=classroom,
                given_name=row.given_name,
                family_name=row.family_name,
                external_id=row.external_id,
                grade=row.grade,
                levels=row.levels,
                by=by,
                source=LevelChange.Source.IMPORT,
            )
            result.created += 1
            continue
        changed = _roster_update_student(student, row, by)
        _enrolment, enrolled = Enrolment.objects.get_or_create(student=student, classroom=classroom)
        if student.archived_at is not None:  # archived by the school's roster, back in a class now
            student.archived_at = None
            student.save(update_fields=["archived_at"])
        result.enrolled += int(enrolled)
        if changed:
            result.updated += 1
        elif not enrolled:
            result.unchanged += 1
    return result


def _roster_update_student(student: Student, row: RosterRow, by: User) -> bool:
    changed = False
    if (student.given_name, student.family_name, student.grade) != (
        row.given_name,
        row.family_name,
        row.grade,
    ):
        student.given_name, student.family_name, student.grade = row.given_name, row.family_name, row.grade
        student.display_name = display_name_for(row.given_name, row.family_name)
        student.save(update_fields=["given_name", "family_name", "grade", "display_name"])
        changed = True
    current = dict(student.levels.values_list("skill", "level"))
    for skill, level in row.levels.items():
        if current.get(skill) != level:
            student_level_set(
                student=student, skill=skill, level=level, by=by, source=LevelChange.Source.IMPORT
            )
            changed = True
    return changed
