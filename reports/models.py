"""Learning facts: one row per answered question or scored move, written when the rules produce them.
Reports are built from these rows (issue: per-student progress reports)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from classrooms.models import Classroom, Student


class LearningFact(models.Model):
    student = models.ForeignKey(Student, null=True, on_delete=models.CASCADE, related_name="facts")
    classroom = models.ForeignKey(Classroom, null=True, on_delete=models.SET_NULL, related_name="facts")
    session = models.ForeignKey(
        "games.GameSession", null=True, on_delete=models.SET_NULL, related_name="facts"
    )
    table = models.ForeignKey("games.GameTable", null=True, on_delete=models.SET_NULL, related_name="facts")
    #: "<table id>:<log seq>:<index>": rewriting the facts of a log entry never duplicates them.
    key = models.CharField(max_length=64, unique=True)
    game = models.CharField(_("game"), max_length=16, db_index=True)
    skill = models.CharField(_("skill"), max_length=32, db_index=True)
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
        indexes = [models.Index(fields=["student", "game", "skill"])]

    def __str__(self) -> str:
        return f"{self.student} · {self.game} · {self.category} · {self.correct}"
