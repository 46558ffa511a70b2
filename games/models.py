"""Live game sessions: scheduling, the lobby, tables with their engine state, and the append-only log.

The engine state of a table lives in ``GameTable.state``; every accepted action, deadline and clock
control is appended to ``TableLogEntry`` so a table replays from its seed and log to the same state.
``GameTable.deadline`` mirrors the engine's current deadline so the sweeper can find due tables with
one indexed query.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classrooms.models import Classroom, Student

from .definitions import game_choices, game_full_name
from .fields import FastJSONField, StateField


class GameSession(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        LOBBY = "lobby", _("Lobby open")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Arrangement(models.TextChoices):
        BALANCED = "balanced", _("Balanced by level")
        RANDOM = "random", _("Random")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="game_sessions")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.CharField(_("game"), max_length=16, choices=game_choices)
    title = models.CharField(_("title"), max_length=80, blank=True)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    arrangement = models.CharField(max_length=16, choices=Arrangement.choices, default=Arrangement.BALANCED)
    scheduled_for = models.DateTimeField(_("start time"))
    planned_minutes = models.PositiveSmallIntegerField(_("planned length (minutes)"), default=25)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True)
    lobby_locked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: When every learning fact of the ended session was recorded and its report build queued
    #: (``services.session_wrap_up``); the clock re-queues a wrap-up that never happened.
    wrapped_up_at = models.DateTimeField(null=True, blank=True, editable=False)
    #: Set on a homework attempt: one student's own table of the assignment's game, with computer players.
    assignment = models.ForeignKey(
        "Assignment", null=True, blank=True, on_delete=models.CASCADE, related_name="attempts"
    )

    class Meta:
        ordering = ["scheduled_for", "id"]

    def __str__(self) -> str:
        return self.title or f"{self.get_game_display()} · {self.classroom}"

    @property
    def game_full_name(self) -> str:
        return game_full_name(self.game)

    @property
    def is_live(self) -> bool:
        return self.status in (self.Status.LOBBY, self.Status.RUNNING, self.Status.PAUSED)

    @property
    def is_homework(self) -> bool:
        return self.assignment_id is not None


class Participant(models.Model):
    """A student in a session's lobby or at one of its tables."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting to be admitted")
        PRESENT = "present", _("Present")
        REMOVED = "removed", _("Removed")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="participants")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="participations")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PRESENT)
    table = models.ForeignKey(
        "GameTable", null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    player_id = models.CharField(max_length=32, blank=True)
    #: Before the start: the table (or, in a team game, the team: 1 blue, 2 yellow) the teacher put them at.
    planned_table = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)
    #: The device currently holding this seat; a second device replaces the first.
    connection = models.CharField(max_length=120, blank=True)
    #: Once the student's learning data is erased: the name the game's records give them ("Student 2",
    #: ``services.student_pseudonymise``), which every page of the game shows instead of theirs.
    pseudonym = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "student"], name="one_participation")]
        ordering = ["student__display_name"]

    def __str__(self) -> str:
        return f"{self.student} in {self.session}"

    @property
    def name(self) -> str:
        """The student as the game's pages name them: their pseudonym once their data is erased."""
        return self.pseudonym or self.student.display_name


def attempt_participant(session) -> models.Subquery:
    """The seat a homework attempt is for: its first participant, written with the session in one
    transaction (``attempt_start``). ``session``: a session's id or an ``OuterRef`` to one. Only its
    student may open, play, pause or resume the attempt; any other row in it (a classmate's join from
    before joins of attempts were refused) opens nothing."""
    return models.Subquery(Participant.objects.filter(session=session).order_by("pk").values("pk")[:1])


class GameTable(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ENDED = "ended", _("Ended early")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    seed = models.CharField(max_length=64)
    #: The engine's set-up; its question pool is stored once for every table that has the same.
    config = StateField(default=dict, shared=("questions",))
    #: The game's state; its parts that never change are stored once, in SharedStatePart.
    state = StateField(default=dict)
    seq = models.PositiveIntegerField(default=0)
    #: The engine's deadline (server epoch seconds), or None when untimed or paused.
    deadline = models.FloatField(null=True, blank=True, db_index=True)
    #: When a computer player at this table should make its next move (server epoch seconds), or None.
    bot_due = models.FloatField(null=True, blank=True, db_index=True)
    outcome = models.JSONField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="unique_table_number")]

    def __str__(self) -> str:
        return f"Table {self.number} · {self.session}"


class SharedStatePart(models.Model):
    """A part of game states that never changes after set-up (Word Up's question bank), stored once for
    every table whose state has it (see games.fields.StateField). It holds game content only, never a
    student's data."""

    digest = models.CharField(max_length=64, primary_key=True)
    data = FastJSONField()

    def __str__(self) -> str:
        return self.digest


class TableLogEntry(models.Model):
    """Append-only: one row per accepted action, deadline firing or clock control, in ``seq`` order."""

    class Kind(models.TextChoices):
        SETUP = "setup", _("Setup")
        ACTION = "action", _("Action")
        DEADLINE = "deadline", _("Deadline")
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        EXTEND = "extend", _("Extend")
        JOIN = "join", _("A latecomer sat down")

    table = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="log")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    player = models.CharField(max_length=32, blank=True)
    action = FastJSONField(null=True, blank=True)
    at = models.FloatField()
    seconds = models.FloatField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True)
    events = FastJSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="log_seq_unique"),
            models.UniqueConstraint(
                fields=["table", "player", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="log_idempotency_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seq} {self.kind}"

    def as_log_entry(self) -> dict:
        """The engine's replay format (see games.engine.core.replay)."""
        entry = {"kind": self.kind, "at": self.at}
        if self.kind == self.Kind.ACTION:
            entry.update(player=self.player, action=self.action)
        if self.kind == self.Kind.EXTEND:
            entry["seconds"] = self.seconds
        if self.kind == self.Kind.JOIN:
            entry["info"] = self.action
        return entry


class SessionControl(models.Model):
    """Every teacher control (start, pause, remove a student ...) with who and when."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="controls")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=32)
    detail = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.session}: {self.kind}"


class Assignment(models.Model):
    """Homework: a game a class (or some of its students) plays at their own pace between two dates. Each
    student's attempt is a session of its own (``GameSession.assignment``) with computer players."""

    class Timers(models.TextChoices):
        GENEROUS = "generous", _("Generous (three times the usual time)")
        RELAXED = "relaxed", _("Relaxed (twice the usual time)")
        OFF = "off", _("Off (no time limit)")

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="assignments")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.CharField(_("game"), max_length=16, choices=game_choices)
    title = models.CharField(_("title"), max_length=80, blank=True)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    timers = models.CharField(_("timers"), max_length=16, choices=Timers.choices, default=Timers.GENEROUS)
    #: How many times each student may play it (0: as often as they like).
    attempts_allowed = models.PositiveSmallIntegerField(_("attempts"), default=1)
    #: How many computer players sit with the student (games with a choice; otherwise the game's own).
    computer_players = models.PositiveSmallIntegerField(_("computer players"), default=1)
    opens_at = models.DateTimeField(_("opens"))
    due_at = models.DateTimeField(_("due"))
    #: Closed early by the teacher: no new attempts and no more moves.
    closed_at = models.DateTimeField(null=True, blank=True)
    #: Only these students (empty: the whole class).
    students = models.ManyToManyField(Student, blank=True, related_name="assignments")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_at", "id"]

    def __str__(self) -> str:
        return self.title or f"{self.get_game_display()} · {self.classroom}"

    @property
    def game_full_name(self) -> str:
        return game_full_name(self.game)


class AssignmentExtension(models.Model):
    """One student's own due date (later than the assignment's, usually)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="extensions")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="+")
    due_at = models.DateTimeField(_("due"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["assignment", "student"], name="one_extension")]

    def __str__(self) -> str:
        return f"{self.student}: {self.assignment} due {self.due_at:%Y-%m-%d %H:%M}"


class Heartbeat(models.Model):
    """When a background process last showed it was alive (the clock, the Celery worker): the health
    endpoint reads these, so a proxy or a monitor learns that a process died, not only the web server."""

    name = models.CharField(max_length=32, primary_key=True)
    beat_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at:%H:%M:%S}"

    @classmethod
    def beat(cls, name: str) -> None:
        cls.objects.update_or_create(name=name, defaults={"beat_at": timezone.now()})
