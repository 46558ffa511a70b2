"""The scheduling form: game, class, time, length, arrangement and the chosen game's own settings.

Every game's settings are on the page (shown for the game picked, by a few lines of script; without
script they are all visible and only the picked game's are read), named ``<game>__<setting>``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import catalog, selectors
from .definitions import DEFINITIONS, definition, game_menu
from .models import Assignment, GameSession


def setting_field(setting: catalog.Setting, word_lists=(), vocabulary_lists=()) -> forms.Field:
    if setting.kind == "vocabulary_list":
        return forms.TypedChoiceField(
            label=setting.label,
            choices=[
                ("", _("The question bank")),
                *((vl.pk, f"{vl.name} ({len(vl.entries)})") for vl in vocabulary_lists),
            ],
            coerce=int,
            empty_value=None,
            required=False,
            help_text=_(
                "Play with this week's words: a vocabulary list imported into the question bank. Every "
                "student gets the list's questions, whatever their level."
            ),
        )
    if setting.kind == "word_list":
        return forms.TypedChoiceField(
            label=setting.label,
            choices=[
                ("", _("The game's own concepts")),
                *((wl.pk, f"{wl.name} ({wl.word_count})") for wl in word_lists),
            ],
            coerce=int,
            empty_value=None,
            required=False,
            help_text=_("Play with this week's vocabulary: your school's word lists from the question bank."),
        )
    if setting.kind == "int":
        return forms.IntegerField(
            label=setting.label,
            initial=setting.default,
            min_value=setting.minimum,
            max_value=setting.maximum,
            required=False,
        )
    return forms.ChoiceField(
        label=setting.label, initial=setting.default, choices=setting.choices, required=False
    )


class SessionForm(forms.Form):
    classroom = forms.ModelChoiceField(label=_("Class"), queryset=None, empty_label=None)
    game = forms.ChoiceField(label=_("Game"), choices=game_menu)
    title = forms.CharField(label=_("Title"), max_length=80, required=False)
    scheduled_for = forms.DateTimeField(
        label=_("Start time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        help_text=_("The lobby opens by itself 10 minutes before, or when you open it."),
    )
    planned_minutes = forms.IntegerField(
        label=_("Planned length (minutes)"),
        min_value=5,
        max_value=90,
        initial=25,
        help_text=_("A game fits well in 15–30 minutes of a lesson."),
    )
    arrangement = forms.ChoiceField(
        label=_("Seating"), choices=GameSession.Arrangement.choices, initial=GameSession.Arrangement.BALANCED
    )

    def __init__(
        self,
        *args,
        classrooms,
        word_lists=(),
        vocabulary_lists=(),
        offers_play_now: bool = False,
        teacher=None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        #: "Play now" schedules the game for this moment and opens its lobby, so no start time is needed.
        self.offers_play_now = offers_play_now
        self.play_now = offers_play_now and bool(self.data.get("play_now"))
        self.fields["classroom"].queryset = classrooms
        self.fields["scheduled_for"].help_text = _(
            "In your school's time zone (%(zone)s). The lobby opens by itself 10 minutes before, or when you "
            "open it."
        ) % {"zone": timezone.get_current_timezone_name().replace("_", " ")}
        word_lists, vocabulary_lists = list(word_lists), list(vocabulary_lists)
        for game, spec in ((name, game.spec) for name, game in DEFINITIONS.items()):
            for key, setting in spec.settings.items():
                self.fields[f"{game}__{key}"] = setting_field(setting, word_lists, vocabulary_lists)
        self.teacher = teacher
        classroom = self.initial.get("classroom") or classrooms.first()
        for game, key, setting in _class_language_settings():
            self.fields[f"{game}__{key}"].initial = self._class_language(classroom, setting)

    def _class_language(self, classroom, setting) -> str:
        choices = [value for value, _label in setting.choices]
        found = selectors.class_language_choice(classroom=classroom, teacher=self.teacher, choices=choices)
        return found or setting.default

    def settings_fields(self, game: str) -> list:
        return [self[f"{game}__{key}"] for key in definition(game).spec.settings]

    def game_fieldsets(self) -> list[tuple[str, str, list]]:
        return [(game.name, game.full_name, self.settings_fields(game.name)) for game in DEFINITIONS.values()]

    def clean(self):
        cleaned = super().clean()
        if self.play_now:
            cleaned["scheduled_for"] = timezone.now()
        elif not cleaned.get("scheduled_for") and "scheduled_for" not in self.errors:
            message = (
                _("Choose a start time, or press Play now.")
                if self.offers_play_now
                else _("Choose a start time.")
            )
            self.add_error("scheduled_for", message)
        game = cleaned.get("game")
        for name, key, setting in _class_language_settings():
            if name == game and not cleaned.get(f"{game}__{key}"):
                # a form posted without the language (an old page, a script): the class's
                cleaned[f"{game}__{key}"] = self._class_language(cleaned.get("classroom"), setting)
        if game:
            raw = {
                key: cleaned.get(f"{game}__{key}")
                for key in definition(game).spec.settings
                if cleaned.get(f"{game}__{key}") not in (None, "")
            }
            try:
                cleaned["settings"] = definition(game).spec.clean_settings(raw)
            except ValueError as error:
                raise forms.ValidationError(str(error)) from None
        return cleaned

    @classmethod
    def initial_for(cls, session: GameSession | None = None, classroom=None) -> dict:
        if session is None:
            start = timezone.localtime() + timezone.timedelta(minutes=15)
            return {"classroom": classroom, "scheduled_for": start.replace(second=0, microsecond=0)}
        initial = {
            "classroom": session.classroom,
            "game": session.game,
            "title": session.title,
            "scheduled_for": timezone.localtime(session.scheduled_for),
            "planned_minutes": session.planned_minutes,
            "arrangement": session.arrangement,
        }
        initial.update({f"{session.game}__{key}": value for key, value in session.settings.items()})
        return initial


def homework_games() -> list[tuple[str, str]]:
    """The games that can be played alone as homework (Mind the Lines says why it cannot)."""
    return [(game.name, game.full_name) for game in DEFINITIONS.values() if not game.homework.unavailable]


DATETIME_INPUT = {
    "widget": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    "input_formats": ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
}
ATTEMPT_CHOICES = [(1, "1"), (2, "2"), (3, "3"), (5, "5"), (0, _("As many as they like"))]


class AssignmentForm(forms.Form):
    """Homework for one class: the game, its dates, how it is timed and played, and for whom."""

    game = forms.ChoiceField(label=_("Game"), choices=homework_games)
    title = forms.CharField(label=_("Title"), max_length=80, required=False)
    opens_at = forms.DateTimeField(label=_("Opens"), **DATETIME_INPUT)
    due_at = forms.DateTimeField(label=_("Due"), **DATETIME_INPUT)
    timers = forms.ChoiceField(
        label=_("Timers"),
        choices=Assignment.Timers.choices,
        initial=Assignment.Timers.GENEROUS,
        help_text=_(
            "The game's timers for each move. The clock also stops whenever a student leaves the game."
        ),
    )
    attempts_allowed = forms.TypedChoiceField(
        label=_("Attempts"), choices=ATTEMPT_CHOICES, coerce=int, initial=1
    )
    computer_players = forms.IntegerField(
        label=_("Computer players"),
        min_value=1,
        max_value=5,
        initial=1,
        help_text=_("Word Up takes 1 to 5 and Line-it 1 to 4; Line-Up and Line Up! play against one."),
    )
    students = forms.ModelMultipleChoiceField(
        label=_("Only these students"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Leave all unticked to set it for the whole class."),
    )

    def __init__(self, *args, students, word_lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["students"].queryset = students
        zone = timezone.get_current_timezone_name().replace("_", " ")
        self.fields["due_at"].help_text = _("In your school's time zone (%(zone)s).") % {"zone": zone}
        word_lists = list(word_lists)
        for name, _label in homework_games():
            game = definition(name)
            for key, setting in game.spec.settings.items():
                field = setting_field(setting, word_lists)
                field.initial = game.homework.defaults.get(key, setting.default)
                self.fields[f"{name}__{key}"] = field

    def game_fieldsets(self) -> list[tuple[str, str, list]]:
        return [
            (name, label, [self[f"{name}__{key}"] for key in definition(name).spec.settings])
            for name, label in homework_games()
        ]

    def clean(self):
        cleaned = super().clean()
        game = cleaned.get("game")
        if game:
            cleaned["settings"] = {
                key: cleaned.get(f"{game}__{key}")
                for key in definition(game).spec.settings
                if cleaned.get(f"{game}__{key}") not in (None, "")
            }
        return cleaned

    @staticmethod
    def initial_for(assignment: Assignment | None = None) -> dict:
        if assignment is None:
            opens = timezone.localtime().replace(second=0, microsecond=0)
            return {"opens_at": opens, "due_at": opens + timezone.timedelta(days=7)}
        initial = {
            "game": assignment.game,
            "title": assignment.title,
            "opens_at": timezone.localtime(assignment.opens_at),
            "due_at": timezone.localtime(assignment.due_at),
            "timers": assignment.timers,
            "attempts_allowed": assignment.attempts_allowed,
            "computer_players": assignment.computer_players,
            "students": list(assignment.students.all()),
        }
        initial.update({f"{assignment.game}__{key}": value for key, value in assignment.settings.items()})
        return initial


class ExtensionForm(forms.Form):
    student = forms.ModelChoiceField(label=_("Student"), queryset=None)
    due_at = forms.DateTimeField(label=_("New due date"), **DATETIME_INPUT)

    def __init__(self, *args, students, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["student"].queryset = students


def _class_language_settings() -> list[tuple[str, str, Any]]:
    """(game, key, setting) of every game's setting whose default follows the class's language."""
    return [
        (name, key, setting)
        for name, game in DEFINITIONS.items()
        for key, setting in game.spec.settings.items()
        if setting.follows_class_language
    ]
