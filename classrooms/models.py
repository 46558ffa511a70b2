"""Schools, staff, classes, students and their levels.

Staff (teachers, school admins) are ``User`` accounts that sign in by email. Students are not users:
they have no email or password and sign in on a shared device with their class code and a short
sign-in code printed on their login card.
"""

from __future__ import annotations

import secrets
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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
#: A language code of settings.LANGUAGES ("pt-br"), with room for regional ones added later.
LANGUAGE_MAX_LENGTH = 15


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
    #: The language of every page for this person ("" = the school's default, else the browser's).
    language = models.CharField(_("language"), max_length=LANGUAGE_MAX_LENGTH, blank=True, default="")

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
    #: The school's clock: start times are typed and shown in it ("" = the server's TIME_ZONE).
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True, default="")
    #: The language of the school's pages for anyone who chose none ("" = each browser's own).
    default_language = models.CharField(
        _("default language"), max_length=LANGUAGE_MAX_LENGTH, blank=True, default=""
    )
    #: The school's ``orgs.csv`` sourcedId in its SIS, kept from the first OneRoster sync.
    roster_org_id = models.CharField(_("roster org id (sourcedId)"), max_length=64, blank=True, default="")
    #: The school's district in Clever and its tenant in ClassLink. A student signing in with either is
    #: looked for only among the schools of their own district: roster ids are unique within a district,
    #: not across them, so an id alone could match a student of another school.
    #: One id belongs to one school (whoever enters it first, in the school settings); schools of one
    #: district share it only when the operator says so (``manage.py share_sso_id``), which marks them
    #: ``..._shared``. Otherwise any school's admin could claim another school's district.
    clever_district_id = models.CharField(_("Clever district id"), max_length=64, blank=True, default="")
    classlink_tenant_id = models.CharField(_("ClassLink tenant id"), max_length=64, blank=True, default="")
    clever_district_shared = models.BooleanField(_("Clever district shared by the operator"), default=False)
    classlink_tenant_shared = models.BooleanField(_("ClassLink tenant shared by the operator"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("school")
        verbose_name_plural = _("schools")
        constraints = [
            models.UniqueConstraint(
                Lower("clever_district_id"),
                condition=~models.Q(clever_district_id="") & models.Q(clever_district_shared=False),
                name="one_school_per_clever_district",
            ),
            models.UniqueConstraint(
                Lower("classlink_tenant_id"),
                condition=~models.Q(classlink_tenant_id="") & models.Q(classlink_tenant_shared=False),
                name="one_school_per_classlink_tenant",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        return school_zone(self.time_zone)


def school_zone(name: str) -> ZoneInfo:
    """A school's time zone by its name; the server's TIME_ZONE where it has none (or an unknown one)."""
    try:
        return ZoneInfo(name or settings.TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


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
    class NameList(models.TextChoices):
        """What the sign-in page's list of names shows to a device that has the class code."""

        INITIALS = "initials", _("First names and initials, on every device")
        OPENED = "opened", _("Names only on devices I open for the class")

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="classrooms")
    name = models.CharField(_("class name"), max_length=NAME_MAX_LENGTH)
    subject = models.CharField(_("subject"), max_length=NAME_MAX_LENGTH, blank=True)
    grade = models.CharField(_("grade or year"), max_length=20, blank=True)
    teachers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="classrooms", blank=True)
    join_code = models.CharField(max_length=CLASS_CODE_LENGTH, unique=True, default=new_class_code)
    archived = models.BooleanField(default=False)
    #: The class's sourcedId in the school's roster (OneRoster ``classes.csv``), when it came from one.
    external_id = models.CharField(_("roster id (sourcedId)"), max_length=64, blank=True, default="")
    #: The Google Classroom course the class's students are imported from (blank: none).
    google_course_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    #: A class code travels (on the board, passed on): what list of names it opens is the teacher's choice.
    name_list = models.CharField(
        _("sign-in list"), max_length=10, choices=NameList.choices, default=NameList.INITIALS
    )
    #: The last time a teacher unlocked every login card of the class, and who (shown on the class page).
    cards_unlocked_at = models.DateTimeField(null=True, blank=True)
    cards_unlocked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("class")
        verbose_name_plural = _("classes")
        constraints = [
            models.UniqueConstraint(Lower("name"), "school", name="unique_class_name_per_school"),
            models.UniqueConstraint(
                fields=["school", "external_id"],
                condition=~models.Q(external_id=""),
                name="unique_class_roster_id_per_school",
            ),
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
    #: Raised when the student's sign-in code or their class's code changes: every device signed in
    #: before (whose session holds the old number) is signed out.
    signin_version = models.PositiveIntegerField(default=0)
    #: The student's language, set by their teacher: every device they sign in on follows it ("" = the
    #: school's default, else the device's browser).
    language = models.CharField(_("language"), max_length=LANGUAGE_MAX_LENGTH, blank=True, default="")
    #: Set when the school's roster marks the student ``tobedeleted``: they leave every class, but their
    #: record and learning history stay (a later roster may bring them back).
    archived_at = models.DateTimeField(null=True, blank=True)
    #: The student's Google user id, when they came from a Google Classroom course (matched on re-import).
    google_user_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["school", "external_id"],
                condition=~models.Q(external_id=""),
                name="unique_roster_id_per_school",
            ),
            models.UniqueConstraint(
                fields=["school", "google_user_id"],
                condition=~models.Q(google_user_id=""),
                name="unique_google_user_per_school",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class Enrolment(models.Model):
    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="enrolments")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="enrolments")
    created_at = models.DateTimeField(auto_now_add=True)
    #: What enrolled the student, when it may also take them off again: "lti:<course link id>" for an LMS
    #: course's roster. Blank: the teacher, an import or a school system (the roster sync leaves it be).
    source = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["student", "classroom"], name="enrolled_once")]

    def __str__(self) -> str:
        return f"{self.student} in {self.classroom}"


#: The code a device waiting to be let in shows, which the teacher types to let it in.
WAITING_CODE_LENGTH = 6
#: How long a device waits to be let in, and then has to sign in (a lesson).
WAITING_DEVICE_MINUTES = 30


def new_waiting_code() -> str:
    return "".join(secrets.choice("0123456789") for _position in range(WAITING_CODE_LENGTH))


class WaitingDevice(models.Model):
    """A device that asked to sign in with a login card locked for new devices. It shows its code; the
    class's teacher types that code to let it in (``let_in_at``), and the device then signs in. The
    code, read off the student's own screen, is what tells the student's device from anyone else's: a
    device the teacher never saw can ask as often as it likes and is never let in."""

    class Kind(models.TextChoices):
        CHROMEBOOK = "chromebook", _("Chromebook")
        IPAD = "ipad", _("iPad")
        IPHONE = "iphone", _("iPhone")
        ANDROID = "android", _("Android device")
        WINDOWS = "windows", _("Windows PC")
        MAC = "mac", _("Mac")
        LINUX = "linux", _("Linux PC")
        OTHER = "other", _("Computer or tablet")

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="waiting_devices")
    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="waiting_devices")
    code = models.CharField(max_length=WAITING_CODE_LENGTH, default=new_waiting_code)
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.OTHER)
    created_at = models.DateTimeField(default=timezone.now)
    let_in_at = models.DateTimeField(null=True, blank=True)
    let_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        # One device per code and student: the code a teacher types names exactly one device.
        constraints = [models.UniqueConstraint(fields=["student", "code"], name="waiting_code_once")]
        indexes = [models.Index(fields=["classroom", "created_at"])]

    def __str__(self) -> str:
        return f"{self.student} waiting on {self.kind}"


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


class TimeAllowance(models.TextChoices):
    """How much of each timer a student gets in the games (the server gives their seat its own deadline)."""

    STANDARD = "1", _("Standard time")
    HALF_AGAIN = "1.5", _("Time and a half (×1.5)")
    DOUBLE = "2", _("Double time (×2)")
    UNTIMED = "untimed", _("Untimed where the game allows (×2 elsewhere)")


#: The on/off accommodations, in the order the student's page and the console list them.
ACCOMMODATION_FLAGS = ("read_aloud", "fewer_options", "larger_text", "reduced_motion", "colour_safe")


class Accommodations(models.Model):
    """What a student needs to play on equal terms. Set by their teachers or a school admin; every
    change is kept in :class:`AccommodationChange`. Only the student's own device and the staff see it."""

    student = models.OneToOneField(Student, on_delete=models.CASCADE, related_name="accommodations")
    extra_time = models.CharField(
        _("time"), max_length=8, choices=TimeAllowance.choices, default=TimeAllowance.STANDARD
    )
    read_aloud = models.BooleanField(_("read aloud"), default=False)
    fewer_options = models.BooleanField(_("fewer options"), default=False)
    larger_text = models.BooleanField(_("larger text"), default=False)
    reduced_motion = models.BooleanField(_("reduced motion"), default=False)
    colour_safe = models.BooleanField(_("colour-safe palette"), default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("accommodations")
        verbose_name_plural = _("accommodations")

    def __str__(self) -> str:
        return f"{self.student}: {', '.join(str(label) for label in self.labels()) or '—'}"

    def as_dict(self) -> dict[str, str | bool]:
        return {"extra_time": self.extra_time, **{flag: getattr(self, flag) for flag in ACCOMMODATION_FLAGS}}

    @property
    def time_factor(self) -> float | None:
        """The factor every timer of this student's seat is multiplied by; None: untimed."""
        return time_factor(self.extra_time)

    @property
    def any(self) -> bool:
        return self.extra_time != TimeAllowance.STANDARD or any(
            getattr(self, flag) for flag in ACCOMMODATION_FLAGS
        )

    def labels(self) -> list[str]:
        return accommodation_labels(self.as_dict())


def time_factor(extra_time: str) -> float | None:
    return None if extra_time == TimeAllowance.UNTIMED else float(extra_time or 1)


def accommodation_labels(values: dict) -> list[str]:
    """Short names of what ``values`` (an :meth:`Accommodations.as_dict`) turns on, for pages and reports."""
    labels = []
    extra_time = values.get("extra_time") or TimeAllowance.STANDARD
    if extra_time != TimeAllowance.STANDARD:
        labels.append(str(TimeAllowance(extra_time).label))
    fields = {field.name: field for field in Accommodations._meta.get_fields()}
    labels += [
        str(fields[name].verbose_name).capitalize() for name in ACCOMMODATION_FLAGS if values.get(name)
    ]
    return labels


class AccommodationChange(models.Model):
    """History of a student's accommodations: who changed them, when, from what to what and why."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="accommodation_changes")
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.student}: accommodations changed"

    def before_labels(self) -> list[str]:
        return accommodation_labels(self.before)

    def after_labels(self) -> list[str]:
        return accommodation_labels(self.after)


class RosterTeacher(models.Model):
    """A teacher named by the school's roster, and the classes the roster gives them. A teacher who has
    no account yet is invited; their classes are theirs when they accept."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="roster_teachers")
    external_id = models.CharField(max_length=64)
    email = models.EmailField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    classrooms = models.ManyToManyField(Classroom, related_name="roster_teachers", blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["school", "external_id"], name="one_roster_teacher_per_id")
        ]

    def __str__(self) -> str:
        return self.email


class RosterSync(models.Model):
    """One whole-school OneRoster upload: previewed, then applied (or not). The zip is kept until it is
    applied, so the confirmation applies exactly what was previewed."""

    class Status(models.TextChoices):
        PREVIEWED = "previewed", _("Previewed")
        APPLIED = "applied", _("Applied")

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="roster_syncs")
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    file_name = models.CharField(max_length=200, blank=True)
    data = models.BinaryField(blank=True, default=b"")
    source_system = models.CharField(max_length=120, blank=True)
    org_id = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PREVIEWED)
    counts = models.JSONField(default=dict, blank=True)
    problems = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.school} · {self.created_at:%Y-%m-%d %H:%M} · {self.status}"
