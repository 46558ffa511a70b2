from django import forms
from django.utils.translation import gettext_lazy as _

from classrooms.models import Level

from . import catalog
from .build.read import MODES
from .present import MODE_LABELS

#: The label of the live games / homework filter, on every page that has it.
MODE_FIELD_LABEL = _("Live games or homework")


def mode_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=MODE_FIELD_LABEL,
        required=False,
        choices=[(mode, MODE_LABELS[mode]) for mode in MODES],
    )


class ModeForm(forms.Form):
    """Which games a report counts: a plain GET parameter (``?mode=live``), "both" when absent."""

    mode = mode_field()


class ReviewFilterForm(forms.Form):
    """The school review's filters (all optional; no dates means the last term, about 13 weeks)."""

    classroom = forms.TypedChoiceField(label=_("Class"), required=False, coerce=int, empty_value=None)
    teacher = forms.TypedChoiceField(label=_("Teacher"), required=False, coerce=int, empty_value=None)
    game = forms.ChoiceField(label=_("Game"), required=False)
    mode = mode_field()
    start = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, classes=(), teachers=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["classroom"].choices = [("", _("All classes")), *classes]
        self.fields["teacher"].choices = [("", _("All teachers")), *[(t.pk, t.name) for t in teachers]]
        self.fields["game"].choices = [
            ("", _("All games")),
            *[(k, v) for k, v in catalog.GAME_LABELS.items()],
        ]

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            self.add_error("end", _("The end date is before the start date."))
        return data


class ApplyLevelForm(forms.Form):
    skill = forms.ChoiceField(choices=[(skill, skill) for skill in catalog.LEVELLED_SKILLS])
    level = forms.TypedChoiceField(choices=Level.choices, coerce=int)


class EraseForm(forms.Form):
    confirm = forms.CharField(
        label=_("Type the student's name to confirm"),
        max_length=60,
        help_text=_("This cannot be undone."),
    )

    def __init__(self, *args, student, **kwargs):
        super().__init__(*args, **kwargs)
        self.student = student

    def clean_confirm(self):
        value = self.cleaned_data["confirm"].strip()
        if value.casefold() != self.student.display_name.casefold():
            raise forms.ValidationError(_("That is not the student's name as shown above."))
        return value
