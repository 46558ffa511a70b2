"""Reads of homework: each student's own due date, their assignments and attempts, and the teacher's view
of who has started, finished or is late."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classrooms.models import Classroom, Student, User
from classrooms.selectors import can_manage_classroom, classrooms_for_user

from .models import Assignment, AssignmentExtension, GameSession, Participant

UNFINISHED = (GameSession.Status.RUNNING, GameSession.Status.PAUSED)


def assignment_for_staff(user: User, assignment_id: int) -> Assignment | None:
    assignment = Assignment.objects.select_related("classroom__school").filter(pk=assignment_id).first()
    if assignment is None or not can_manage_classroom(user, assignment.classroom):
        return None
    return assignment


def assignments_for_staff(user: User, *, classroom: Classroom | None = None) -> dict[str, list[Assignment]]:
    """Open (and not yet opened) homework soonest due first, and the last closed or past ones."""
    classrooms = [classroom] if classroom is not None else classrooms_for_user(user)
    rows = Assignment.objects.filter(classroom__in=classrooms).select_related("classroom")
    now = timezone.now()
    current = rows.filter(closed_at__isnull=True, due_at__gte=now).order_by("due_at")
    past = rows.filter(Q(closed_at__isnull=False) | Q(due_at__lt=now)).order_by("-due_at")
    return {"current": list(current[:30]), "past": list(past[:20])}


def assigned_students(assignment: Assignment) -> list[Student]:
    """The students it is set for: those chosen, or the whole class (still enrolled, either way)."""
    enrolled = Student.objects.filter(enrolments__classroom=assignment.classroom_id)
    chosen = assignment.students.all()
    if chosen.exists():
        enrolled = enrolled.filter(pk__in=chosen)
    return list(enrolled.order_by("display_name"))


def due_dates(assignment: Assignment) -> dict[int, datetime]:
    """Each student's extended due date (the others are due at the assignment's)."""
    return dict(assignment.extensions.values_list("student_id", "due_at"))


def due_for(assignment: Assignment, student_id: int) -> datetime:
    return due_dates(assignment).get(student_id, assignment.due_at)


@dataclass
class AttemptResult:
    session: GameSession
    finished: bool
    ended_at: datetime | None
    late: bool
    won: bool
    score: float | None
    #: The game ended before its end (the teacher closed the homework early).
    cut_short: bool = False

    @property
    def summary(self) -> str:
        if not self.finished:
            return _("In progress")
        won = _("Won") if self.won else _("Did not win")
        text = _("Closed before the end") if self.cut_short else won
        if self.score is not None:
            text = _("%(result)s · score %(score)s") % {"result": text, "score": _number(self.score)}
        return text


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def attempt_result(session: GameSession, participant: Participant, due: datetime) -> AttemptResult:
    finished = session.status == GameSession.Status.FINISHED
    outcome = {}
    table = participant.table
    if table is not None:
        outcome = table.outcome or {}
    player = participant.player_id
    ended_at = session.ended_at if finished else None
    cut_short = finished and table is not None and table.status == table.Status.ENDED
    return AttemptResult(
        session=session,
        finished=finished,
        ended_at=ended_at,
        late=bool(ended_at and ended_at > due),
        won=player in (outcome.get("winners") or []),
        score=(outcome.get("scores") or {}).get(player),
        cut_short=cut_short,
    )


def _attempts_by_student(assignment: Assignment, student_ids=None) -> dict[int, list[Participant]]:
    rows = (
        Participant.objects.filter(session__assignment=assignment)
        .select_related("session", "table")
        .order_by("session__started_at", "session_id")
    )
    if student_ids is not None:
        rows = rows.filter(student_id__in=student_ids)
    grouped: dict[int, list[Participant]] = {}
    for participant in rows:
        grouped.setdefault(participant.student_id, []).append(participant)
    return grouped


@dataclass
class StudentProgress:
    """One student's line in the teacher's view (and their own card on their home page)."""

    student: Student
    due: datetime
    extended: bool
    attempts: list[AttemptResult] = field(default_factory=list)
    playing_now: bool = False

    @property
    def started(self) -> bool:
        return bool(self.attempts)

    @property
    def in_progress(self) -> AttemptResult | None:
        return next((a for a in self.attempts if not a.finished), None)

    @property
    def finished(self) -> list[AttemptResult]:
        return [a for a in self.attempts if a.finished]

    @property
    def done(self) -> bool:
        return bool(self.finished)

    @property
    def late(self) -> bool:
        """Finished after their due date (their first finish counts), or not finished and past it."""
        if self.finished:
            return self.finished[0].late
        return timezone.now() > self.due

    @property
    def best(self) -> AttemptResult | None:
        finished = self.finished
        if not finished:
            return None
        return max(finished, key=lambda a: (not a.cut_short, a.won, a.score or 0))

    @property
    def state(self) -> str:
        if self.playing_now:
            return "playing"
        if self.in_progress:
            return "in_progress"
        if self.done:
            return "late" if self.late else "finished"
        return "overdue" if self.late else "not_started"

    @property
    def state_text(self) -> str:
        return str(STATE_TEXT[self.state])


STATE_TEXT = {
    "playing": gettext_lazy("Playing now"),
    "in_progress": gettext_lazy("Started, not finished"),
    "finished": gettext_lazy("Finished"),
    "late": gettext_lazy("Finished late"),
    "overdue": gettext_lazy("Not finished, past due"),
    "not_started": gettext_lazy("Not started"),
}


def assignment_progress(assignment: Assignment) -> list[StudentProgress]:
    students = assigned_students(assignment)
    dues = due_dates(assignment)
    attempts = _attempts_by_student(assignment)
    rows = []
    for student in students:
        due = dues.get(student.pk, assignment.due_at)
        mine = attempts.get(student.pk, [])
        rows.append(
            StudentProgress(
                student=student,
                due=due,
                extended=student.pk in dues,
                attempts=[attempt_result(p.session, p, due) for p in mine],
                playing_now=any(
                    p.connection and p.session.status == GameSession.Status.RUNNING for p in mine
                ),
            )
        )
    return rows


def progress_counts(rows: list[StudentProgress]) -> dict[str, int]:
    return {
        "students": len(rows),
        "started": sum(row.started for row in rows),
        "finished": sum(row.done for row in rows),
        "late": sum(row.late for row in rows),
        "playing": sum(row.playing_now for row in rows),
    }


def reminder_list(assignment: Assignment) -> list[StudentProgress]:
    """The students who have not finished yet: to print or read out."""
    return [row for row in assignment_progress(assignment) if not row.done]


def _student_assignments(student: Student) -> QuerySet[Assignment]:
    mine = Q(students__isnull=True) | Q(students=student)
    return (
        Assignment.objects.filter(classroom__enrolments__student=student)
        .filter(mine)
        .select_related("classroom")
        .distinct()
    )


def is_set_for(student: Student, assignment_id: int) -> bool:
    """Whether this homework is the student's: set for their class (or for them by name)."""
    return _student_assignments(student).filter(pk=assignment_id).exists()


@dataclass
class HomeworkCard:
    assignment: Assignment
    progress: StudentProgress
    #: Attempts left (None: as many as they like).
    attempts_left: int | None
    is_open: bool

    @property
    def can_start(self) -> bool:
        if not self.is_open:
            return False
        return self.progress.in_progress is not None or self.attempts_left is None or self.attempts_left > 0

    @property
    def finishing_last_attempt(self) -> bool:
        """An attempt under way is the last one allowed: it can be carried on, though none is left."""
        return self.progress.in_progress is not None and self.attempts_left == 0

    @property
    def due_soon(self) -> bool:
        left = self.progress.due - timezone.now()
        return timezone.timedelta(0) <= left <= timezone.timedelta(days=1)


def homework_for_student(student: Student) -> dict[str, list[HomeworkCard]]:
    """The student's homework: to do (open, not finished, their own due date soonest first) and done
    (what they finished, and homework that has closed), each with their attempts and results."""
    now = timezone.now()
    assignments = list(_student_assignments(student).filter(opens_at__lte=now))
    attempts = {}
    for assignment in assignments:
        attempts[assignment.pk] = _attempts_by_student(assignment, [student.pk]).get(student.pk, [])
    extensions = dict(
        AssignmentExtension.objects.filter(student=student, assignment__in=assignments).values_list(
            "assignment_id", "due_at"
        )
    )
    to_do, done = [], []
    for assignment in assignments:
        due = extensions.get(assignment.pk, assignment.due_at)
        mine = attempts[assignment.pk]
        progress = StudentProgress(
            student=student,
            due=due,
            extended=assignment.pk in extensions,
            attempts=[attempt_result(p.session, p, due) for p in mine],
        )
        left = None
        if assignment.attempts_allowed:
            left = max(0, assignment.attempts_allowed - len(mine))
        card = HomeworkCard(assignment, progress, left, is_open=assignment.closed_at is None)
        (done if progress.done or not card.is_open else to_do).append(card)
    to_do.sort(key=lambda card: card.progress.due)
    done.sort(key=lambda card: card.progress.due, reverse=True)
    return {"to_do": to_do, "done": done[:20]}
