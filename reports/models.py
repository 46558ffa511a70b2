"""Learning facts and the reports built from them.

``LearningFact`` is one row per answered question or scored move, written when the rules produce it.
Everything else here is derived by the Celery build (``reports.build``) and can be rebuilt at any time
from the facts: a rebuild writes the same rows (delete and insert per key, inside one transaction).

Per student (personal data: erased with the student's data, purged with old facts):
  ``StudentSessionStat`` one row per student per session (answers, right, time): trend and participation;
  ``StudentReport`` one row per student per class: the report page's figures, ready to render;
  ``SkillSummary`` one row per student per skill: totals and the recommended level with its evidence.
Per class (anonymous: they survive a student's erasure and the retention purge):
  ``ClassSessionStat`` per session (``frozen`` once some of its facts are gone), ``ClassItemStat`` and
  ``ClassWrongAnswer`` per question (``archived`` rows keep the counts of erased facts), ``ClassReport``.
``ReportBuild`` tracks every queued build (its id is the Celery task id) for the progress bar.
"""

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classrooms.models import Classroom, School, Student

#: The foreign keys of the big derived tables (per student and session, per question, per wrong answer)
#: have no constraint in the database. A school build writes about a million of these rows, and the
#: database checked each one at commit by locking its student, class and session rows: about a fifth
#: of the whole build (measured: docs/performance.md). Django still deletes them with their student,
#: class or session (``on_delete``), and the build only writes ids it has just read. A deletion that
#: races a build can leave a row behind: a full build of a class first deletes all of the class's rows
#: (not only its sessions'), so such a row of a deleted student or session goes with the next build,
#: and one of a deleted class is never read (every page starts from an existing class).
DERIVED_FOREIGN_KEY = {"db_constraint": False}


class LearningFact(models.Model):
    # A reveal in a big class inserts thousands of facts inside the move's transaction, so the table keeps
    # only the indexes its reads use: the composite indexes below lead with student and with classroom.
    student = models.ForeignKey(
        Student, null=True, on_delete=models.CASCADE, related_name="facts", db_index=False
    )
    classroom = models.ForeignKey(
        Classroom, null=True, on_delete=models.SET_NULL, related_name="facts", db_index=False
    )
    session = models.ForeignKey(
        "games.GameSession", null=True, on_delete=models.SET_NULL, related_name="facts"
    )
    table = models.ForeignKey("games.GameTable", null=True, on_delete=models.SET_NULL, related_name="facts")
    #: "<table id>:<log seq>:<index>": rewriting the facts of a log entry never duplicates them.
    #: Unique by a constraint, not ``unique=True``, which on PostgreSQL adds a second (LIKE) index.
    key = models.CharField(max_length=64)
    game = models.CharField(_("game"), max_length=16)
    skill = models.CharField(_("skill"), max_length=32)
    category = models.CharField(_("category"), max_length=40, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    correct = models.BooleanField(null=True)
    score = models.FloatField(null=True, blank=True)
    time_taken = models.FloatField(null=True, blank=True)
    item_id = models.CharField(max_length=64, blank=True)
    response = models.JSONField(null=True, blank=True)
    detail = models.JSONField(default=dict, blank=True)
    teacher_marked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["student", "game", "skill"]),
            # The builds read a class's facts (optionally one session's) and a student's latest answers.
            models.Index(fields=["classroom", "session"], name="reports_fact_class_session"),
            models.Index(fields=["student", "skill", "created_at"], name="reports_fact_student_recent"),
        ]
        constraints = [models.UniqueConstraint(fields=["key"], name="reports_fact_key_unique")]

    def __str__(self) -> str:
        return f"{self.student} · {self.game} · {self.category} · {self.correct}"


class ReportBuild(models.Model):
    """One queued build. Its id is also the Celery task id; the page polls it for the progress bar."""

    class Scope(models.TextChoices):
        SESSION = "session", _("After a session")
        STUDENT = "student", _("One student")
        CLASSROOM = "classroom", _("One class")
        #: A class's own figures after homework (its sessions, questions and report; not its students').
        HOMEWORK = "homework", _("A class after homework")
        SCHOOL = "school", _("The whole school")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        RUNNING = "running", _("Building")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    scope = models.CharField(max_length=16, choices=Scope.choices)
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="report_builds")
    classroom = models.ForeignKey(
        Classroom, null=True, blank=True, on_delete=models.CASCADE, related_name="report_builds"
    )
    student = models.ForeignKey(
        Student, null=True, blank=True, on_delete=models.CASCADE, related_name="report_builds"
    )
    session = models.ForeignKey(
        "games.GameSession", null=True, blank=True, on_delete=models.CASCADE, related_name="report_builds"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    step = models.CharField(max_length=120, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    #: Written with every progress step: a running build whose heartbeat stopped lost its worker.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["classroom", "status"]), models.Index(fields=["school", "status"])]

    def __str__(self) -> str:
        return f"{self.get_scope_display()} {self.id} {self.status}"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING) and not self.stale_reason()

    def stale_reason(self, now=None) -> str:
        """Why a build that says it is waiting or running never will finish ("" while it may): its worker
        stopped writing progress, or its message never reached a worker."""
        now = now or timezone.now()
        if self.status == self.Status.RUNNING:
            beat = self.heartbeat_at or self.started_at or self.created_at
            if beat < now - STALE_RUNNING:
                return str(
                    _("The build stopped: the worker running it was lost. Press Rebuild now to try again.")
                )
        elif self.status == self.Status.QUEUED and self.created_at < now - STALE_QUEUED:
            return str(_("The build never started: its request was lost. Press Rebuild now to try again."))
        return ""

    @classmethod
    def live(cls, now=None) -> models.Q:
        """Builds still waiting or running, and not stale (see :meth:`stale_reason`)."""
        now = now or timezone.now()
        running = models.Q(status=cls.Status.RUNNING) & (
            models.Q(heartbeat_at__gte=now - STALE_RUNNING)
            | models.Q(heartbeat_at__isnull=True, started_at__gte=now - STALE_RUNNING)
        )
        return running | models.Q(status=cls.Status.QUEUED, created_at__gte=now - STALE_QUEUED)


#: A running build writes its progress every few seconds; this long without any, its worker is gone
#: (the benchmark's largest build takes under a minute in all).
STALE_RUNNING = timedelta(minutes=3)
#: A build waits in the queue behind others (a night of school builds) but not this long.
STALE_QUEUED = timedelta(hours=1)


class StudentSessionStat(models.Model):
    """A student's answers in one session (a row with no answers: they joined but answered nothing)."""

    # A school build rewrites hundreds of thousands of these rows, so every index and check costs on
    # each: no single-column indexes on student and class (the unique constraint and the class index
    # start with them), and no database foreign-key constraints (see DERIVED_FOREIGN_KEY below).
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, related_name="session_stats", **DERIVED_FOREIGN_KEY, db_index=False
    )
    classroom = models.ForeignKey(
        Classroom,
        on_delete=models.CASCADE,
        related_name="student_session_stats",
        **DERIVED_FOREIGN_KEY,
        db_index=False,
    )
    session = models.ForeignKey(
        "games.GameSession", on_delete=models.CASCADE, related_name="student_stats", **DERIVED_FOREIGN_KEY
    )
    game = models.CharField(max_length=16)
    skill = models.CharField(max_length=32, blank=True)
    day = models.DateField()
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    time_total = models.FloatField(default=0)
    time_count = models.PositiveIntegerField(default=0)
    #: Questions the student let run out of time: no answer, never counted as wrong.
    no_answer = models.PositiveIntegerField(default=0)
    #: The game's own marks (``share_categories``: Mind the Lines' drawings and decoy hunts), and right.
    measured = models.PositiveIntegerField(default=0)
    measured_right = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "session"], name="one_stat_per_session")]
        # A student's rows are found through the unique constraint's index (student, session).
        indexes = [models.Index(fields=["classroom", "day"], name="reports_sss_class_day")]

    def __str__(self) -> str:
        return f"{self.student} · {self.session_id}: {self.correct}/{self.answered}"


class ClassSessionStat(models.Model):
    """One session of a class, anonymous. ``frozen``: some of its facts were erased or purged, so the
    row is kept as it is (a rebuild no longer recomputes it from the remaining facts)."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="session_stats")
    session = models.OneToOneField("games.GameSession", on_delete=models.CASCADE, related_name="class_stat")
    game = models.CharField(max_length=16)
    skill = models.CharField(max_length=32, blank=True)
    day = models.DateField()
    participants = models.PositiveIntegerField(default=0)
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    time_total = models.FloatField(default=0)
    time_count = models.PositiveIntegerField(default=0)
    no_answer = models.PositiveIntegerField(default=0)
    measured = models.PositiveIntegerField(default=0)
    measured_right = models.PositiveIntegerField(default=0)
    frozen = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["classroom", "day"], name="reports_css_class_day")]

    def __str__(self) -> str:
        return f"{self.classroom_id} · {self.session_id}: {self.correct}/{self.answered}"


class ClassItemStat(models.Model):
    """How a class did on one question (item), anonymous. ``archived`` rows hold the answers of facts
    that were erased or purged: a rebuild replaces the other rows and keeps these."""

    classroom = models.ForeignKey(
        Classroom, on_delete=models.CASCADE, related_name="item_stats", **DERIVED_FOREIGN_KEY, db_index=False
    )
    game = models.CharField(max_length=16)
    category = models.CharField(max_length=40, blank=True)
    level = models.PositiveSmallIntegerField(null=True, blank=True)
    item_id = models.CharField(max_length=64)
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    archived = models.BooleanField(default=False)
    #: Answers given in homework attempts (a question's live and homework answers are two rows, so a
    #: report of either reads its own; rows archived before the split count as live).
    homework = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["classroom", "archived"], name="reports_cis_class")]

    def __str__(self) -> str:
        return f"{self.item_id}: {self.correct}/{self.answered}"


class ClassWrongAnswer(models.Model):
    """A wrong answer given to one question in a class, and how many times (no names). ``archived``: as
    for :class:`ClassItemStat`."""

    classroom = models.ForeignKey(
        Classroom,
        on_delete=models.CASCADE,
        related_name="wrong_answers",
        **DERIVED_FOREIGN_KEY,
        db_index=False,
    )
    game = models.CharField(max_length=16)
    category = models.CharField(max_length=40, blank=True)
    item_id = models.CharField(max_length=64)
    answer = models.CharField(max_length=120)
    count = models.PositiveIntegerField(default=0)
    archived = models.BooleanField(default=False)
    #: Given in homework attempts (as for :class:`ClassItemStat`).
    homework = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["classroom", "archived"], name="reports_cwa_class")]

    def __str__(self) -> str:
        return f"{self.item_id}: {self.answer} ×{self.count}"


class StudentReport(models.Model):
    """A student's report in one class, ready to render. The columns are what lists filter and sort on;
    ``data`` holds the rest (by game, category and level, times, trend, insights, plain-word notes).
    Columns and data count live games and homework together; ``data["modes"]`` holds the same report of
    live games only and of homework only (``{"live": {"row": {column: value}, **data}, "homework": ...}``;
    a report built before the split has none: ``reports.selectors.report_in_mode``)."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="reports")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="student_reports")
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    accuracy = models.FloatField(null=True, blank=True)
    sessions_played = models.PositiveIntegerField(default=0)
    sessions_held = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)
    recent_accuracy = models.FloatField(null=True, blank=True)
    previous_accuracy = models.FloatField(null=True, blank=True)
    needs_attention = models.BooleanField(default=False)
    data = models.JSONField(default=dict)
    built_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["student", "classroom"], name="one_report_per_student_class")
        ]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"


class SkillSummary(models.Model):
    """A student's totals in one skill and the level recommended from their latest answers."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="skill_summaries")
    skill = models.CharField(max_length=32)
    answered = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    mean_time = models.FloatField(null=True, blank=True)
    sessions = models.PositiveIntegerField(default=0)
    current_level = models.PositiveSmallIntegerField(null=True, blank=True)
    recommended_level = models.PositiveSmallIntegerField(null=True, blank=True)
    confidence = models.FloatField(null=True, blank=True)
    ability = models.FloatField(null=True, blank=True)
    #: ``{"<level>": [right, answered]}`` over the answers the recommendation used.
    evidence = models.JSONField(default=dict)
    evidence_answers = models.PositiveIntegerField(default=0)
    built_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "skill"], name="one_summary_per_skill")]

    def __str__(self) -> str:
        return f"{self.student}: {self.skill} → {self.recommended_level}"


class ClassReport(models.Model):
    """A class's report; ``data["modes"]`` holds its live-only and homework-only figures (as for
    :class:`StudentReport`)."""

    classroom = models.OneToOneField(Classroom, on_delete=models.CASCADE, related_name="report")
    data = models.JSONField(default=dict)
    built_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"Report of {self.classroom}"


class DataErasure(models.Model):
    """A school admin erased a student's learning data: what happened before ``erased_at`` is not
    rebuilt into their reports (their session places stay in the games' records)."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="data_erasures")
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    erased_at = models.DateTimeField()
    facts_removed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-erased_at"]

    def __str__(self) -> str:
        return f"{self.student_id} erased {self.erased_at:%Y-%m-%d}"
