"""LTI 1.3: the LMS platforms a school connects, the tool's own signing keys, and the links between what
an LMS names (a course, a person, a resource link) and Classplay's classes, students and games."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from classrooms.models import Classroom, School, Student
from games.models import Assignment, GameSession


class ToolKey(models.Model):
    """The RSA key pair the tool signs with (deep-linking responses, service tokens). The newest is used;
    retired keys stay published in the key set for a while, so platforms that cached it keep working."""

    kid = models.CharField(max_length=64, unique=True)
    private_pem = models.TextField()
    public_pem = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.kid


class Platform(models.Model):
    """One LMS registration of the tool (one issuer + client id), belonging to one school."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="lti_platforms")
    name = models.CharField(_("name"), max_length=80, help_text=_("For you: for example “Our Moodle”."))
    issuer = models.URLField(_("issuer (platform ID)"), max_length=255)
    client_id = models.CharField(_("client ID"), max_length=255)
    deployment_ids = models.JSONField(_("deployment IDs"), default=list)
    key_set_url = models.URLField(_("public keyset URL"), max_length=500)
    auth_login_url = models.URLField(_("authentication request URL"), max_length=500)
    access_token_url = models.URLField(_("access token URL"), max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["issuer", "client_id"], name="one_platform_per_issuer_client")
        ]

    def __str__(self) -> str:
        return self.name


class LaunchValue(models.Model):
    """The OIDC flow's short-lived values (nonce, state, launch data), kept in the database so they survive
    the LMS's cross-site POST and any number of web processes."""

    key = models.CharField(max_length=255, unique=True)
    value = models.JSONField()
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.key


class CourseLink(models.Model):
    """An LMS course (its context id on one platform) and the Classplay class it launches into."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="courses")
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="lti_courses")
    #: The Names and Role Provisioning Service's membership URL, from the last launch that carried it.
    memberships_url = models.URLField(max_length=500, blank=True)
    roster_synced_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["platform", "context_id"], name="one_class_per_lms_course")
        ]

    def __str__(self) -> str:
        return f"{self.platform} · {self.title or self.context_id}"

    @property
    def last_roster_run(self) -> RosterRun | None:
        return self.roster_runs.first()


class RosterRun(models.Model):
    """One class-list sync of an LMS course and what came of it, shown on the class page: the counts,
    the members left out and why, or the error that stopped it."""

    class Outcome(models.TextChoices):
        APPLIED = "applied", pgettext_lazy("class list update", "applied")
        LEFT_AS_IS = "left_as_is", pgettext_lazy("class list update", "left as it is")
        FAILED = "failed", pgettext_lazy("class list update", "failed")

    #: Why a member was left out (``skipped``'s ``reason``): the text is translated where it is read.
    TEACHER_ACCOUNT = "teacher_account"
    NOT_SAVED = "not_saved"
    #: How many runs of a course are kept (the newest).
    KEPT = 20

    course = models.ForeignKey(CourseLink, on_delete=models.CASCADE, related_name="roster_runs")
    finished_at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    added = models.PositiveIntegerField(default=0)
    renamed = models.PositiveIntegerField(default=0)
    removed = models.PositiveIntegerField(default=0)
    #: The members left out: ``{"name": their LMS name, "reason": TEACHER_ACCOUNT or NOT_SAVED}``.
    skipped = models.JSONField(default=list, blank=True)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-finished_at", "-id"]

    def __str__(self) -> str:
        return f"{self.course} · {self.finished_at:%Y-%m-%d %H:%M} · {self.outcome}"

    def skipped_members(self) -> list[tuple[str, str]]:
        """Each member left out, with the reason in the reader's language."""
        reasons = {
            self.TEACHER_ACCOUNT: _(
                "This course account is a teacher in Classplay, so it cannot join as a student."
            ),
            self.NOT_SAVED: _("Classplay could not add this member. Try again, or add them by hand."),
        }
        return [(member["name"], str(reasons.get(member["reason"], ""))) for member in self.skipped]


class PersonLink(models.Model):
    """An LMS user (``sub`` on one platform) and who they are here: a member of staff or a student."""

    platform = models.ForeignKey(Platform, on_delete=models.CASCADE, related_name="people")
    lti_user_id = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(Student, null=True, on_delete=models.CASCADE, related_name="lti_links")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["platform", "lti_user_id"], name="one_link_per_lms_user"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=True) ^ models.Q(student__isnull=True),
                name="person_link_is_staff_or_student",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.platform} · {self.lti_user_id}"


class ResourceLink(models.Model):
    """A link placed in an LMS course (by deep linking) that launches into one game session or one
    homework assignment, and where that link's grades go (Assignment and Grade Services)."""

    course = models.ForeignKey(CourseLink, on_delete=models.CASCADE, related_name="resource_links")
    resource_link_id = models.CharField(max_length=255)
    session = models.ForeignKey(
        GameSession, null=True, blank=True, on_delete=models.SET_NULL, related_name="lti_links"
    )
    #: A link to homework: each student's best attempt is the grade (``grades.assignment_scores``).
    assignment = models.ForeignKey(
        Assignment, null=True, blank=True, on_delete=models.SET_NULL, related_name="lti_links"
    )
    lineitems_url = models.URLField(max_length=500, blank=True)
    lineitem_url = models.URLField(max_length=500, blank=True)
    ags_scopes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["course", "resource_link_id"], name="one_row_per_resource_link")
        ]

    def __str__(self) -> str:
        return f"{self.course} · {self.resource_link_id}"


class DeepLinkRequest(models.Model):
    """A teacher's "add activity" from the LMS, waiting for them to pick or schedule a game."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    course = models.ForeignKey(CourseLink, on_delete=models.CASCADE, related_name="deep_link_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    deployment_id = models.CharField(max_length=255)
    settings = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.course} · {self.created_at:%Y-%m-%d %H:%M}"


class ScoreSent(models.Model):
    """A score for one student on one resource link's line item: recorded before it is posted, marked
    once the platform accepted it, so a retried task never posts it twice."""

    resource_link = models.ForeignKey(ResourceLink, on_delete=models.CASCADE, related_name="scores")
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="+")
    lti_user_id = models.CharField(max_length=255)
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["resource_link", "student"], name="one_score_per_student_link")
        ]

    def __str__(self) -> str:
        return f"{self.resource_link} · {self.student_id}: {self.score_given}/{self.score_maximum}"
