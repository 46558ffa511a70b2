"""Who a student's device is, for its game sockets, from the cache.

Every game socket of a student's device asks the same: which student does this device's session name
(and did their code change since), which language did the device pick, and the student's own and
school's language. Read from the database, that is the session row and the student for each connection;
when a whole class reconnects at once, thousands of reads. Here both are cached, keyed by the session's
key and the student's id, and forgotten whenever what they hold may change:

* the device's entry when its session is saved or deleted (``classrooms.sessions.SessionStore``): a
  sign-in, a sign-out, a language picked with the switcher, an expired session cleared;
* the student's entry when the student is saved or deleted (signals below: a new code, a language set
  by the teacher, a removal), when their class's code changes (a bulk update, forgotten there) and when
  their school's default language changes.

Whether the student is still in the game's class is not cached: the seat's query checks it each time.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from . import languages
from .middleware import STUDENT_SESSION_KEY, STUDENT_VERSION_KEY
from .models import School, Student

#: How long an entry lives. The invalidations above keep it true meanwhile; the bound covers what they
#: cannot reach: a change made while Redis was down (written to the fallback cache only), or, in embedded
#: mode, by another process (the Celery worker) than the server whose memory holds the cache.
TIMEOUT = 10 * 60


@dataclass(frozen=True)
class CachedSchool:
    pk: int
    default_language: str


@dataclass(frozen=True)
class CachedStudent:
    """What a game socket needs of a student (``languages.resolve`` reads these attributes)."""

    pk: int
    signin_version: int
    language: str
    school: CachedSchool


@dataclass(frozen=True)
class Device:
    """A signed-in student's device: who, and the language it picked for this visit ("" for none)."""

    student: CachedStudent
    chosen_language: str


@dataclass(frozen=True)
class _Session:
    student_id: int | None
    version: int
    chosen_language: str
    expires: float


def _device_key(session_key: str) -> str:
    return f"classplay:device:{session_key}"


def _student_key(student_id: int) -> str:
    return f"classplay:student:{student_id}"


def devices(session_keys: list[str | None]) -> list[Device | None]:
    """The signed-in student of each session key (None: no such session, no student, or their code has
    changed since the device signed in). One cache read for all, and the database only for what the
    cache did not hold."""
    sessions = _sessions({key for key in session_keys if key})
    wanted = {s.student_id for s in sessions.values() if s.student_id is not None}
    students = _students(wanted)
    found: list[Device | None] = []
    for key in session_keys:
        session = sessions.get(key) if key else None
        student = students.get(session.student_id) if session and session.student_id is not None else None
        if session is None or student is None or student.signin_version != session.version:
            found.append(None)
        else:
            found.append(Device(student=student, chosen_language=session.chosen_language))
    return found


def _sessions(keys: set[str]) -> dict[str, _Session]:
    now = time.time()
    cached = cache.get_many([_device_key(key) for key in keys])
    found = {key: cached[_device_key(key)] for key in keys if _device_key(key) in cached}
    found = {key: session for key, session in found.items() if session.expires > now}
    missing = keys - found.keys()
    if missing:
        rows = Session.objects.filter(session_key__in=missing, expire_date__gt=timezone.now())
        fresh = {row.session_key: _read_session(row) for row in rows}
        cache.set_many(
            {_device_key(key): session for key, session in fresh.items()},
            timeout=min(TIMEOUT, max(1, int(min((s.expires for s in fresh.values()), default=now) - now))),
        )
        found.update(fresh)
    return found


def _read_session(row: Session) -> _Session:
    data = row.get_decoded()
    student_id = data.get(STUDENT_SESSION_KEY)
    return _Session(
        student_id=int(student_id) if student_id else None,
        version=data.get(STUDENT_VERSION_KEY, 0),
        chosen_language=data.get(languages.LANGUAGE_CHOICE_KEY) or "",
        expires=row.expire_date.timestamp(),
    )


def _students(ids: set[int]) -> dict[int, CachedStudent]:
    cached = cache.get_many([_student_key(pk) for pk in ids])
    found = {pk: cached[_student_key(pk)] for pk in ids if _student_key(pk) in cached}
    missing = ids - found.keys()
    if missing:
        rows = Student.objects.filter(pk__in=missing).select_related("school")
        fresh = {
            row.pk: CachedStudent(
                pk=row.pk,
                signin_version=row.signin_version,
                language=row.language,
                school=CachedSchool(pk=row.school_id, default_language=row.school.default_language),
            )
            for row in rows
        }
        cache.set_many({_student_key(pk): student for pk, student in fresh.items()}, timeout=TIMEOUT)
        found.update(fresh)
    return found


def forget_device(session_key: str | None) -> None:
    if session_key:
        cache.delete(_device_key(session_key))


def forget_students(student_ids: Iterable[int]) -> None:
    keys = [_student_key(pk) for pk in student_ids]
    if keys:
        cache.delete_many(keys)


@receiver(post_save, sender=Student, dispatch_uid="classrooms.device_cache.student_saved")
@receiver(post_delete, sender=Student, dispatch_uid="classrooms.device_cache.student_deleted")
def _student_changed(sender, instance: Student, **kwargs) -> None:
    forget_students([instance.pk])


@receiver(post_save, sender=School, dispatch_uid="classrooms.device_cache.school_saved")
def _school_changed(sender, instance: School, created: bool, **kwargs) -> None:
    if not created:
        forget_students(Student.objects.filter(school=instance).values_list("pk", flat=True))
