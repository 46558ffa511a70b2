"""Schools, staff, classes, students and their levels.

Staff (teachers, school admins) are ``User`` accounts that sign in by email. Students are not users:
they have no email or password and sign in on a shared device with their class code and a short
sign-in code printed on their login card.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, BaseUserManager
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Class codes avoid look-alike characters (0/O, 1/I/L) so they can be read off a projector.
CLASS_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLASS_CODE_LENGTH = 6
SIGNIN_CODE_LENGTH = 4
NAME_MAX_LENGTH = 60


def new_class_code() -> str:
    return "".join(secrets.choice(CLASS_CODE_ALPHABET) for _position in range(CLASS_CODE_LENGTH))


def new_signin_code() -> str:
    return "".join(secrets.choice("0123456789") for _position in range(SIGNIN_CODE_LENGTH))


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("An email address is required")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.update(is_staff=True, is_superuser=True)
        return self._create_user(email, password, **extra)


class User(AbstractUser):
    """A member of staff (teacher or school admin) or a platform superuser. Signs in by email."""

    username = None
    email = models.EmailField(_("email address"), unique=True)
    display_name = models.CharField(_("display name"), max_length=NAME_MAX_LENGTH, blank=True)

    USERNAME_FIELD = "email"
    REQUIRED_FIELDS: list[str] = []

    objects = UserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.email

    @property
    def name(self) -> str:
        return self.display_name or self.get_full_name() or self.email.split("@")[0]


class School(models.Model):
    name = models.CharField(_("name"), max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("school")
        verbose_name_plural = _("schools")

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's role in a school. A school admin sees and manages everything in that school."""

    class Role(models.TextChoices):
        TEACHER = "teacher", _("Teacher")
        ADMIN = "admin", _("School admin")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.TEACHER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "school"], name="one_membership_per_school")]

    def __str__(self) -> str:
        return f"{self.user} · {self.school} · {self.get_role_display()}"


class Invitation(models.Model):
    """An emailed link that makes its holder a teacher or admin of a school."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField(_("email address"))
    role = models.CharField(_("role"), max_length=16, choices=Membership.Role.choices)
    token = models.CharField(max_length=64, unique=True, default=secrets.token_urlsafe)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.school}"

    @property
    def is_usable(self) -> bool:
        return self.accepted_at is None and self.expires_at > timezone.now()


class Classroom(models.Model):
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="classrooms")
    name = models.CharField(_("class name"), max_length=NAME_MAX_LENGTH)
    subject = models.CharField(_("subject"), max_length=NAME_MAX_LENGTH, blank=True)
    grade = models.CharField(_("grade or year"), max_length=20, blank=True)
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="classrooms", blank=True)
    join_code = models.CharField(max_length=CLASS_CODE_LENGTH, unique=True, default=new_class_code)
    archived = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        constraints = [
            models.UniqueConstraint(Lower("name"), "school", name="unique_class_name_per_school"),
        ]

    def __str__(self) -> str:
        return self.name


class Skill(models.TextChoices):
    ENGLISH_VOCABULARY = "english_vocabulary", _("English vocabulary")
    NUMERACY = "numeracy", _("Numeracy")


class Level(models.IntegerChoices):
    ELEMENTARY = 1, _("1 Elementary")
    LOWER_INTERMEDIATE = 2, _("2 Lower Intermediate")
    INTERMEDIATE = 3, _("3 Intermediate")
    UPPER_INTERMEDIATE = 4, _("4 Upper Intermediate")
    ADVANCED = 5, _("5 Advanced")


DEFAULT_LEVEL = Level.INTERMEDIATE


class Student(models.Model):
    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="students")
    given_name = models.CharField(_("given name"), max_length=NAME_MAX_LENGTH)
    family_name = models.CharField(_("family name"), max_length=NAME_MAX_LENGTH, blank=True)
    display_name = models.CharField(_("display name"), max_length=NAME_MAX_LENGTH)
    external_id = models.CharField(_("roster id (sourcedId)"), max_length=64, blank=True)
    grade = models.CharField(_("grade"), max_length=20, blank=True)
    signin_code = models.CharField(max_length=SIGNIN_CODE_LENGTH, default=new_signin_code)
    failed_signins = models.PositiveSmallIntegerField(default=0)
    locked_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["school", "external_id"],
                condition=~models.Q(external_id=""),
                name="unique_roster_id_per_school",
            )
        ]

    def __str__(self) -> str:
        return self.display_name


class Enrolment(models.Model):
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="enrolments")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="enrolments")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "classroom"], name="enrolled_once")]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"


class StudentLevel(models.Model):
    """The student's current difficulty level in one skill (games read it; reports recommend it)."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="levels")
    skill = models.CharField(max_length=32, choices=Skill.choices)
    level = models.PositiveSmallIntegerField(choices=Level.choices, default=DEFAULT_LEVEL)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "skill"], name="one_level_per_skill")]

    def __str__(self) -> str:
        return f"{self.student}: {self.skill} {self.level}"


class LevelChange(models.Model):
    """History of level changes: who set which level, when and why."""

    class Source(models.TextChoices):
        TEACHER = "teacher", _("Set by a teacher")
        IMPORT = "import", _("Roster import")
        REPORT = "report", _("Recommendation applied")
        INITIAL = "initial", _("Starting level")

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="level_changes")
    skill = models.CharField(max_length=32, choices=Skill.choices)
    old_level = models.PositiveSmallIntegerField(null=True, choices=Level.choices)
    new_level = models.PositiveSmallIntegerField(choices=Level.choices)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.CharField(max_length=16, choices=Source.choices, default=Source.TEACHER)
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.student}: {self.skill} {self.old_level} → {self.new_level}"
