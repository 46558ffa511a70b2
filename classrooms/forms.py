from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import (
    CLASS_CODE_LENGTH,
    NAME_MAX_LENGTH,
    SIGNIN_CODE_LENGTH,
    Classroom,
    Level,
    Membership,
    Skill,
)


class SchoolForm(forms.Form):
    name = forms.CharField(label=_("School name"), max_length=120)


class ClassroomForm(forms.Form):
    name = forms.CharField(
        label=_("Class name"), max_length=NAME_MAX_LENGTH, help_text=_("For example “7B English”.")
    )
    subject = forms.CharField(label=_("Subject"), max_length=NAME_MAX_LENGTH, required=False)
    grade = forms.CharField(label=_("Grade or year"), max_length=20, required=False)


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
