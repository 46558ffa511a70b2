"""Writes of learning facts (the rows every report is built from), report builds, applying a
recommended level, and the privacy tools (export, erasure, retention)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Count, Q
from django.db.models.constants import OnConflict
from django.utils import timezone
from django.utils.translation import gettext as _

from classrooms.models import Classroom, LevelChange, Student
from classrooms.selectors import accommodations_of, student_signin_record
from classrooms.services import student_level_set
from games import selectors as game_selectors
from games import services as game_services
from games.models import GameSession

from . import catalog, tasks
from .build import WRONG_FIELDS, bulk_insert, classrooms_build, homework_fact, wrong_answer_rows
from .models import (
    ClassItemStat,
    ClassSessionStat,
    ClassWrongAnswer,
    DataErasure,
    LearningFact,
    ReportBuild,
    SkillSummary,
    StudentReport,
    StudentSessionStat,
)

logger = logging.getLogger(__name__)

FACT_FIELDS = ("category", "level", "correct", "score", "time_taken", "response", "detail", "teacher_marked")


def _student_id(player: str) -> int | None:
    """Engine player ids of students are "s<student id>"; bots and the teacher have none."""
    if player and player.startswith("s") and player[1:].isdigit():
        return int(player[1:])
    return None


def _fact_values(*, table, key: str, fact: dict[str, Any]) -> dict[str, Any] | None:
    """A fact's column values (the model's defaults where the fact has none), or None when the player
    is not a student (a computer player, the teacher)."""
    student_id = _student_id(str(fact.get("player", "")))
    if student_id is None:
        return None
    session = table.session
    values = {
        "key": key,
        "student_id": student_id,
        "classroom_id": session.classroom_id,
        "session_id": session.pk,
        "table_id": table.pk,
        "game": fact.get("game") or session.game,
        "skill": fact.get("skill") or "",
        "item_id": str(fact.get("item_id") or "")[:64],
        "teacher_marked": False,
        "detail": {},
    }
    for name in FACT_FIELDS:
        value = fact.get(name)
        if value is not None:
            values[name] = value
    values["category"] = (values.get("category") or "")[:40]
    return values


def _fact_row(*, table, key: str, fact: dict[str, Any]) -> LearningFact | None:
    values = _fact_values(table=table, key=key, fact=fact)
    return None if values is None else LearningFact(**values)


#: The columns ``facts_record`` writes, in order, with their PostgreSQL types.
_FACT_COLUMNS = {
    "key": "text",
    "student_id": "bigint",
    "classroom_id": "bigint",
    "session_id": "bigint",
    "table_id": "bigint",
    "game": "text",
    "skill": "text",
    "item_id": "text",
    "category": "text",
    "level": "smallint",
    "correct": "boolean",
    "score": "double precision",
    "time_taken": "double precision",
    "response": "jsonb",
    "detail": "jsonb",
    "teacher_marked": "boolean",
}
_JSON_COLUMNS = [column for column, kind in _FACT_COLUMNS.items() if kind == "jsonb"]


def facts_erased_since(at: float) -> dict[int, float]:
    """Students whose learning data was erased after the moment ``at`` (a log entry's time), with the
    time of their latest erasure: facts of theirs from before it must not be recorded again."""
    erased: dict[int, float] = {}
    since = datetime.fromtimestamp(at, tz=UTC)
    for student_id, erased_at in DataErasure.objects.filter(erased_at__gt=since).values_list(
        "student_id", "erased_at"
    ):
        erased[student_id] = max(erased.get(student_id, 0.0), erased_at.timestamp())
    return erased


def facts_record(*, table, entry, facts: list[dict[str, Any]], erased: dict[int, float] | None = None) -> int:
    """Store the facts a log entry produced; keyed by table, entry and position, so never twice.
    ``erased`` (``facts_erased_since``): students whose facts from before that time are left out."""
    return facts_record_many([(table, [(entry, facts)])], erased=erased)


def facts_record_many(batch, *, erased: dict[int, float] | None = None) -> int:
    """``facts_record`` for the entries of several tables (``batch``: ``(table, [(entry, facts), ...])``
    pairs), in one look-up of the students and one statement: a worker records the facts of every
    table a sweep or a trip of moves wrote at once.

    A Line Up! reveal in a class of 2000 records 2000 facts, so they are written from plain values in
    one statement on PostgreSQL: ``bulk_create`` spent 0.55 s building model instances and their SQL,
    and a prepared INSERT per row (``executemany``) still ~0.4 s, mostly one server round of work per
    row."""
    rows = []
    for table, entries in batch:
        for entry, facts in entries:
            for index, fact in enumerate(facts):
                values = _fact_values(table=table, key=f"{table.pk}:{entry.seq}:{index}", fact=fact)
                if values is not None and not (erased and erased.get(values["student_id"], 0.0) >= entry.at):
                    rows.append(values)
    if rows:  # a student deleted since the move (the facts are recorded after it, by a worker)
        known = set(
            Student.objects.filter(pk__in={row["student_id"] for row in rows}).values_list("pk", flat=True)
        )
        rows = [row for row in rows if row["student_id"] in known]
    if not rows:
        return 0
    created_at = timezone.now()
    if connection.vendor == "postgresql":
        _facts_insert_postgresql(connection, rows, created_at)
    else:
        _facts_insert_many(connection, rows, created_at)
    return len(rows)


def _facts_insert_postgresql(connection, rows: list[dict[str, Any]], created_at) -> None:
    """All rows as one JSON document, unpacked by ``jsonb_to_recordset``: one statement, one round trip."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for column in _FACT_COLUMNS)
    record = ", ".join(f"{quote(column)} {kind}" for column, kind in _FACT_COLUMNS.items())
    # Django stores a JSONField's None as SQL NULL, not JSON null; so does this.
    selected = ", ".join(
        f"NULLIF(r.{quote(column)}, 'null'::jsonb)" if column in _JSON_COLUMNS else f"r.{quote(column)}"
        for column in _FACT_COLUMNS
    )
    sql = (
        f"INSERT INTO {quote(LearningFact._meta.db_table)} ({columns}, {quote('created_at')}) "
        f"SELECT {selected}, %s FROM ROWS FROM (jsonb_to_recordset(%s::jsonb) AS ({record})) "
        f"WITH ORDINALITY AS r({columns}, position) ORDER BY r.position "  # ids in the facts' order
        "ON CONFLICT DO NOTHING"
    )
    document = msgspec.json.encode([{column: row.get(column) for column in _FACT_COLUMNS} for row in rows])
    with connection.cursor() as cursor:
        cursor.execute(sql, [created_at, document.decode()])


def _facts_insert_many(connection, rows: list[dict[str, Any]], created_at) -> None:
    """One prepared INSERT for every row (SQLite runs in this process: a round trip costs little). JSON
    columns are encoded with msgspec (Django's JSONField preparation was a third of the time)."""

    meta = LearningFact._meta
    encode = msgspec.json.encode
    created_at = connection.ops.adapt_datetimefield_value(created_at)
    values = []
    for row in rows:
        for name in _JSON_COLUMNS:
            value = row.get(name)
            row[name] = None if value is None else encode(value).decode()
        values.append([*(row.get(column) for column in _FACT_COLUMNS), created_at])
    quote = connection.ops.quote_name
    columns = ", ".join(quote(column) for column in [*_FACT_COLUMNS, "created_at"])
    placeholders = ", ".join(["%s"] * (len(_FACT_COLUMNS) + 1))
    insert = connection.ops.insert_statement(on_conflict=OnConflict.IGNORE)
    suffix = connection.ops.on_conflict_suffix_sql([], OnConflict.IGNORE, [], [])
    sql = f"{insert} {quote(meta.db_table)} ({columns}) VALUES ({placeholders}) {suffix}"
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)


def facts_record_refusal(*, table, fact: dict[str, Any]) -> None:
    """A refused move that is itself a learning fact (e.g. a Line-it card that breaks the line)."""
    key = f"{table.pk}:r{table.seq}:{LearningFact.objects.filter(table=table, key__contains=':r').count()}"
    row = _fact_row(table=table, key=key, fact=fact)
    if row is not None:
        row.save()


# --- report builds -------------------------------------------------------------------------------------


def build_request(
    *,
    scope: str,
    school,
    classroom=None,
    student=None,
    session=None,
    by=None,
    dedupe: bool = False,
    new_facts: bool = False,
    not_before: datetime | None = None,
) -> ReportBuild:
    """Record a build and queue its task once the current transaction commits.

    ``dedupe``: if the same build is already waiting or running, return it instead of queueing another
    (a double click, a nightly build while yesterday's is still going). ``new_facts``: the build is asked
    for because facts were just stored (a session or an attempt ended), so only a build still waiting
    serves: a running one may have read the facts before them. ``not_before``: the task starts no
    sooner (it waits in the queue until then)."""
    school_id = school if isinstance(school, int) else school.pk
    target = {
        "scope": scope,
        "school_id": school_id,
        "classroom_id": getattr(classroom, "pk", classroom),
        "student_id": getattr(student, "pk", student),
        "session_id": getattr(session, "pk", session),
    }
    if dedupe:
        builds_fail_stale()
        active = ReportBuild.objects.filter(ReportBuild.live(), **target)
        if new_facts:
            active = active.filter(status=ReportBuild.Status.QUEUED)
        active = active.first()
        if active is not None:
            return active
    build = ReportBuild.objects.create(**target, requested_by=by if getattr(by, "pk", None) else None)
    transaction.on_commit(lambda: _send(build.pk, not_before=not_before))
    return build


#: After homework, a class's own figures are rebuilt at most this often: an evening of homework ends an
#: attempt every few seconds in a class of 30, several a second in a class of 1000.
CLASS_AFTER_HOMEWORK_EVERY = timedelta(seconds=5)


def build_class_after_homework(
    *, classroom_id: int, school_id: int, now: datetime | None = None
) -> ReportBuild:
    """Queue the rebuild of a class's own figures (its sessions, headline, questions, homework view: not
    its students' reports) once a build of its students has written their new attempts. A build still
    waiting absorbs the request; a new one starts at once, or when ``CLASS_AFTER_HOMEWORK_EVERY`` has
    passed since the class's last one started: attempts ending together give the class one build, and an
    evening of homework at most one every few seconds."""
    now = now or timezone.now()
    last_started = (
        ReportBuild.objects.filter(
            scope=ReportBuild.Scope.HOMEWORK,
            classroom_id=classroom_id,
            started_at__gt=now - CLASS_AFTER_HOMEWORK_EVERY,
        )
        .order_by("-started_at")
        .values_list("started_at", flat=True)
        .first()
    )
    return build_request(
        scope=ReportBuild.Scope.HOMEWORK,
        school=school_id,
        classroom=classroom_id,
        dedupe=True,
        new_facts=True,  # a running build may have read the class before these attempts
        not_before=last_started + CLASS_AFTER_HOMEWORK_EVERY if last_started else None,
    )


def builds_fail_stale(*, now=None) -> int:
    """Mark failed, with the reason the teacher sees, every build that says it is waiting or running but
    never will finish (a worker killed mid-build, a message lost with the broker). Run by beat, and before
    a Rebuild, which then starts a new build instead of returning the stuck one."""
    now = now or timezone.now()
    stale = ReportBuild.objects.filter(status__in=(ReportBuild.Status.QUEUED, ReportBuild.Status.RUNNING))
    count = 0
    for build in stale.exclude(ReportBuild.live(now)):
        reason = build.stale_reason(now)
        if reason:
            count += ReportBuild.objects.filter(pk=build.pk, status=build.status).update(
                status=ReportBuild.Status.FAILED, error=reason[:300], finished_at=now
            )
    return count


def _send(build_id, *, not_before: datetime | None = None) -> None:
    wait = (not_before - timezone.now()).total_seconds() if not_before else 0
    try:
        if wait > 0:
            tasks.build_reports.apply_async(args=[str(build_id)], task_id=str(build_id), countdown=wait)
        else:
            tasks.build_reports.apply_async(args=[str(build_id)], task_id=str(build_id))
    except Exception as error:  # the broker is down: say so on the page; the nightly build catches up
        logger.exception("could not queue report build %s", build_id)
        ReportBuild.objects.filter(pk=build_id).update(
            status=ReportBuild.Status.FAILED, error=f"not queued: {error}"[:300], finished_at=timezone.now()
        )


# --- applying a recommended level ------------------------------------------------------------------------


def recommendation_apply(*, student: Student, skill: str, level: int, by) -> SkillSummary:
    """Set the student's level to the recommended one (logged in the level history, with the evidence)."""
    summary = SkillSummary.objects.filter(student=student, skill=skill).first()
    if summary is None or summary.recommended_level is None:
        raise ValidationError(_("There is no recommended level for this skill yet."))
    if summary.recommended_level != level:
        raise ValidationError(_("The recommendation has changed since the page was shown. Look again."))
    reason = _("Progress report: %(answers)d recent answers, confidence %(confidence)d%%") % {
        "answers": summary.evidence_answers,
        "confidence": round(100 * (summary.confidence or 0)),
    }
    student_level_set(
        student=student, skill=skill, level=level, by=by, reason=reason, source=LevelChange.Source.REPORT
    )
    summary.current_level = level
    summary.save(update_fields=["current_level"])
    return summary


# --- privacy: export, erasure, retention ------------------------------------------------------------------


def student_data_export(*, student: Student) -> dict[str, Any]:
    """Everything held about one student, as one JSON-ready document: their record and classes, levels
    and level history, the games they joined with every move they made (their typed answers included),
    their learning facts, skills, reports and session statistics, and their signing in."""
    facts = list(
        LearningFact.objects.filter(student=student)
        .order_by("created_at", "id")
        .values(
            "created_at",
            "classroom_id",
            "session_id",
            "game",
            "skill",
            "category",
            "level",
            "correct",
            "score",
            "time_taken",
            "item_id",
            "response",
            "detail",
            "teacher_marked",
        )
    )
    for fact in facts:
        fact["created_at"] = fact["created_at"].isoformat()
    return {
        "student": {
            "id": student.pk,
            "given_name": student.given_name,
            "family_name": student.family_name,
            "display_name": student.display_name,
            "roster_id": student.external_id,
            "grade": student.grade,
            "school": student.school.name,
            "added_at": student.created_at.isoformat(),
        },
        "sign_in": student_signin_record(student),
        "games": game_selectors.student_game_records(student),
        "classes": list(student.enrolments.values_list("classroom__name", flat=True)),
        "levels": dict(student.levels.values_list("skill", "level")),
        "level_history": [
            {
                "when": change.created_at.isoformat(),
                "skill": change.skill,
                "from": change.old_level,
                "to": change.new_level,
                "source": change.source,
                "reason": change.reason,
            }
            for change in student.level_changes.all()
        ],
        "accommodations": _accommodations_export(student),
        "accommodation_history": [
            {
                "when": change.created_at.isoformat(),
                "from": change.before,
                "to": change.after,
                "reason": change.reason,
            }
            for change in student.accommodation_changes.all()
        ],
        "skills": list(
            SkillSummary.objects.filter(student=student).values(
                "skill",
                "answered",
                "correct",
                "mean_time",
                "current_level",
                "recommended_level",
                "confidence",
                "evidence",
            )
        ),
        "reports": [
            {"class": report.classroom.name, "built_at": report.built_at.isoformat(), "data": report.data}
            for report in StudentReport.objects.filter(student=student).select_related("classroom")
        ],
        "sessions": [
            {
                "session": stat.session_id,
                "day": stat.day.isoformat(),
                "game": stat.game,
                "answered": stat.answered,
                "correct": stat.correct,
            }
            for stat in StudentSessionStat.objects.filter(student=student).order_by("day", "session_id")
        ],
        "answers": facts,
        "erasures": [
            {"when": erasure.erased_at.isoformat(), "answers_erased": erasure.facts_removed}
            for erasure in student.data_erasures.all()
        ],
        "exported_at": timezone.now().isoformat(),
    }


def _accommodations_export(student: Student) -> dict[str, Any] | None:
    record = accommodations_of(student)
    return record.as_dict() if record else None


def _keep_anonymous_counts(facts, *, keep_wrong_answers: bool = True) -> None:
    """Before facts go: freeze the class statistics of their sessions (built first if they never were)
    and add their answers, without names, to the class's archived question counts (and, unless
    ``keep_wrong_answers`` is false, their wrong answers' words to its archived common mistakes)."""

    session_ids = set(facts.exclude(session_id=None).values_list("session_id", flat=True).distinct())
    built = set(
        ClassSessionStat.objects.filter(session_id__in=session_ids).values_list("session_id", flat=True)
    )
    missing: dict[int, list[int]] = {}
    for session_id, classroom_id in GameSession.objects.filter(pk__in=session_ids - built).values_list(
        "pk", "classroom_id"
    ):
        missing.setdefault(classroom_id, []).append(session_id)
    for classroom_id, sessions in missing.items():
        classrooms_build([classroom_id], session_ids=sessions)
    ClassSessionStat.objects.filter(session_id__in=session_ids).update(frozen=True)
    items = (
        facts.filter(catalog.answers_q(), classroom_id__isnull=False)
        .exclude(item_id="")
        .annotate(homework=homework_fact())
        .values("classroom_id", "game", "category", "level", "item_id", "homework")
        .annotate(answered=Count("id"), right=Count("id", filter=Q(correct=True)))
        .order_by()
    )
    bulk_insert(
        ClassItemStat,
        [
            ClassItemStat(
                classroom_id=row["classroom_id"],
                game=row["game"],
                category=row["category"],
                level=row["level"],
                item_id=row["item_id"],
                answered=row["answered"],
                correct=row["right"],
                archived=True,
                homework=row["homework"],
            )
            for row in items
        ],
    )
    if keep_wrong_answers:
        bulk_insert(
            ClassWrongAnswer,
            wrong_answer_rows(facts.filter(classroom_id__isnull=False), archived=True),
            WRONG_FIELDS,
        )


@transaction.atomic
def student_data_erase(*, student: Student, by) -> DataErasure:
    """Erase a student's learning data: their facts, reports, session statistics and recommendations,
    and, in the game records (results, replays), their name and every answer they typed (a pseudonym
    and answers judged the same take their place: ``games.services.student_pseudonymise``). The class
    aggregates they contributed to stay, as anonymous counts without their words, frozen. Their name
    stays on the roster (remove them from their classes for that) and their level history stays with
    the levels."""
    facts = LearningFact.objects.filter(student=student)
    _keep_anonymous_counts(facts, keep_wrong_answers=False)
    game_services.student_pseudonymise(student=student)
    removed, _by_model = facts.delete()
    StudentSessionStat.objects.filter(student=student).delete()
    StudentReport.objects.filter(student=student).delete()
    SkillSummary.objects.filter(student=student).delete()
    ReportBuild.objects.filter(student=student).delete()
    erasure = DataErasure.objects.create(
        student=student, erased_by=by, erased_at=timezone.now(), facts_removed=removed
    )
    for classroom in student.enrolments.select_related("classroom__school"):
        build_request(
            scope=ReportBuild.Scope.CLASSROOM,
            school=classroom.classroom.school_id,
            classroom=classroom.classroom_id,
            by=by,
            dedupe=True,
        )
    return erasure


def facts_purge_expired(*, now=None, days: int | None = None, batch: int = 5000) -> int:
    """Erase learning facts (and per-student session statistics) older than the retention period
    (``REPORT_RETENTION_DAYS``; 0 keeps them for ever). Class aggregates stay, frozen. The classes
    concerned are rebuilt so the students' reports no longer show what was erased."""
    days = settings.REPORT_RETENTION_DAYS if days is None else days
    if not days:
        return 0
    cutoff = (now or timezone.now()) - timedelta(days=days)
    old = LearningFact.objects.filter(created_at__lt=cutoff)
    classrooms = set(old.exclude(classroom_id=None).values_list("classroom_id", flat=True).distinct())
    removed = 0
    while True:
        ids = list(old.order_by("pk").values_list("pk", flat=True)[:batch])
        if not ids:
            break
        with transaction.atomic():
            chunk = LearningFact.objects.filter(pk__in=ids)
            _keep_anonymous_counts(chunk)
            removed += chunk.delete()[0]
    StudentSessionStat.objects.filter(day__lt=timezone.localdate(cutoff)).delete()

    for classroom in Classroom.objects.filter(pk__in=classrooms):
        build_request(
            scope=ReportBuild.Scope.CLASSROOM, school=classroom.school_id, classroom=classroom, dedupe=True
        )
    return removed


def build_after_session(session_id: int) -> None:
    """Queue the report build of a session that just wrapped up (its facts are all stored)."""
    session = GameSession.objects.filter(pk=session_id).select_related("classroom").first()
    if session is None:
        return
    if session.assignment_id is not None:
        # A homework attempt is one student's: rebuilding the whole class after each of them would
        # rebuild every report of the class once per student. Their own report is built now, and once
        # it is written the class's own figures (``build_class_after_homework``, from reports.tasks).
        for student_id in session.participants.values_list("student_id", flat=True):
            build_request(
                scope=ReportBuild.Scope.STUDENT,
                school=session.classroom.school_id,
                classroom=session.classroom,
                student=student_id,
                dedupe=True,
                new_facts=True,  # the student's next attempt may end while this one's build runs
            )
        return
    build_request(
        scope=ReportBuild.Scope.SESSION,
        school=session.classroom.school_id,
        classroom=session.classroom,
        session=session,
        dedupe=True,  # a wrap-up run twice (redelivered) queues one build
        new_facts=True,
    )
