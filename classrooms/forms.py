from zoneinfo import available_timezones

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .languages import language_choices
from .models import (
    CLASS_CODE_LENGTH,
    NAME_MAX_LENGTH,
    SIGNIN_CODE_LENGTH,
    Classroom,
    Level,
    Membership,
    Skill,
    TimeAllowance,
)


class SchoolForm(forms.Form):
    name = forms.CharField(label=_("School name"), max_length=120)


def _time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(available_timezones()) if "/" in name]


class SchoolSettingsForm(forms.Form):
    name = forms.CharField(label=_("School name"), max_length=120)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        choices=_time_zone_choices,
        help_text=_("Start times are typed and shown in this time zone, on every page of the school."),
    )
    default_language = forms.ChoiceField(
        label=_("Default language"),
        choices=lambda: language_choices(blank_label=_("Each device's browser language")),
        required=False,
        help_text=_(
            "The language of the school's pages for students and staff who have not chosen their own. "
            "Anyone can still switch at the top of every page."
        ),
    )
    clever_district_id = forms.CharField(
        label=_("Clever district ID"),
        max_length=64,
        required=False,
        help_text=_(
            "The ID Clever gives your district. Students who sign in with Clever are looked for only in "
            "the schools with their own district's ID."
        ),
    )
    classlink_tenant_id = forms.CharField(
        label=_("ClassLink tenant ID"),
        max_length=64,
        required=False,
        help_text=_(
            "The tenant ID ClassLink gives your district. Students who sign in with ClassLink are looked "
            "for only in the schools with their own tenant's ID."
        ),
    )


class LanguageForm(forms.Form):
    """A person's own language: a member of staff's (their preferences) or a student's (set by a teacher)."""

    language = forms.ChoiceField(label=_("Language"), required=False)

    def __init__(self, *args, blank_label: str, help_text: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = language_choices(blank_label=blank_label)
        self.fields["language"].help_text = help_text


class ClassroomForm(forms.Form):
    name = forms.CharField(
        label=_("Class name"), max_length=NAME_MAX_LENGTH, help_text=_("For example “7B English”.")
    )
    subject = forms.CharField(label=_("Subject"), max_length=NAME_MAX_LENGTH, required=False)
    grade = forms.CharField(label=_("Grade or year"), max_length=20, required=False)
    name_list = forms.ChoiceField(
        label=_("The class list on the sign-in page"),
        choices=Classroom.NameList.choices,
        initial=Classroom.NameList.INITIALS,
        required=False,  # a form that leaves it out (an older page) keeps the default
        widget=forms.RadioSelect,
        help_text=_(
            "Anyone who has the class code sees this list. On devices you open for the class (from the "
            "class page), students see their names as you wrote them."
        ),
    )

    def clean_name_list(self) -> str:
        return self.cleaned_data.get("name_list") or Classroom.NameList.INITIALS


class StudentForm(forms.Form):
    given_name = forms.CharField(label=_("First name"), max_length=NAME_MAX_LENGTH)
    family_name = forms.CharField(label=_("Family name"), max_length=NAME_MAX_LENGTH, required=False)
    display_name = forms.CharField(
        label=_("Name shown in games"),
        max_length=NAME_MAX_LENGTH,
        required=False,
        help_text=_("Leave empty for first name and initial, e.g. “Ava M.”."),
    )


class StudentAddForm(StudentForm):
    english_vocabulary = forms.TypedChoiceField(
        label=_("English vocabulary level"), choices=Level.choices, coerce=int, initial=Level.INTERMEDIATE
    )
    numeracy = forms.TypedChoiceField(
        label=_("Numeracy level"), choices=Level.choices, coerce=int, initial=Level.INTERMEDIATE
    )


class StudentMoveForm(forms.Form):
    to_classroom = forms.ModelChoiceField(label=_("Move to class"), queryset=Classroom.objects.none())

    def __init__(self, *args, classrooms, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["to_classroom"].queryset = classrooms


class LevelForm(forms.Form):
    skill = forms.ChoiceField(label=_("Skill"), choices=Skill.choices)
    level = forms.TypedChoiceField(label=_("Level"), choices=Level.choices, coerce=int)
    reason = forms.CharField(label=_("Why (kept in the level history)"), max_length=200, required=False)


class AccommodationsForm(forms.Form):
    """On the student's page beside the level form: its own ids, so the two "Why" fields differ."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "accommodations_%s")
        super().__init__(*args, **kwargs)

    extra_time = forms.ChoiceField(label=_("Time in games"), choices=TimeAllowance.choices)
    read_aloud = forms.BooleanField(
        label=_("Read aloud"),
        required=False,
        help_text=_("A Read aloud button for every prompt, option and result."),
    )
    fewer_options = forms.BooleanField(
        label=_("Fewer options"),
        required=False,
        help_text=_("Where a game allows it: two choices instead of three in Word Up multiple choice."),
    )
    larger_text = forms.BooleanField(label=_("Larger text"), required=False)
    reduced_motion = forms.BooleanField(label=_("Reduced motion"), required=False)
    colour_safe = forms.BooleanField(
        label=_("Colour-safe palette"), required=False, help_text=_("Every colour also carries a symbol.")
    )
    reason = forms.CharField(
        label=_("Why (kept in the accommodations history)"), max_length=200, required=False
    )


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Roster CSV file"),
        help_text=_("Columns: sourcedId, givenName, familyName, grades, class, englishLevel, numeracyLevel."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.ROSTER_IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (the limit is %(kb)d KB).")
                % {"kb": settings.ROSTER_IMPORT_MAX_BYTES // 1000}
            )
        return upload


class RosterSyncUploadForm(forms.Form):
    file = forms.FileField(
        label=_("OneRoster 1.1 CSV zip"),
        help_text=_(
            "The zip your student information system exports: manifest.csv, orgs.csv, users.csv, "
            "classes.csv, enrollments.csv (courses.csv and academicSessions.csv if it has them)."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > settings.ROSTER_SYNC_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (the limit is %(mb)d MB).")
                % {"mb": settings.ROSTER_SYNC_MAX_BYTES // 1_000_000}
            )
        return upload


class RosterOrgForm(forms.Form):
    org = forms.ChoiceField(label=_("Which school in the export is yours?"), widget=forms.RadioSelect)

    def __init__(self, *args, orgs=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["org"].choices = [(org.sourced_id, f"{org.name} ({org.sourced_id})") for org in orgs]


class GoogleCourseImportForm(forms.Form):
    NEW_CLASS = "new"
    course = forms.ChoiceField(label=_("Google Classroom course"), widget=forms.RadioSelect)
    target = forms.ChoiceField(
        label=_("Import its students into"),
        help_text=_("A new class named after the course, or one of your classes."),
    )

    def __init__(self, *args, courses=(), classrooms=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["course"].choices = [
            (course.id, f"{course.name} · {course.section}" if course.section else course.name)
            for course in courses
        ]
        self.fields["target"].choices = [
            (self.NEW_CLASS, _("A new class")),
            *[(str(c.pk), c.name) for c in classrooms],
        ]


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("Email address"))
    role = forms.ChoiceField(
        label=_("Role"), choices=Membership.Role.choices, initial=Membership.Role.TEACHER
    )


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Class code"),
        max_length=CLASS_CODE_LENGTH + 4,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )


class SignInCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Your sign-in code"),
        max_length=SIGNIN_CODE_LENGTH,
        min_length=SIGNIN_CODE_LENGTH,
        widget=forms.TextInput(
            attrs={"inputmode": "numeric", "autocomplete": "off", "pattern": "[0-9]*", "class": "code-input"}
        ),
    )
