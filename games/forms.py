"""The scheduling form: game, class, time, length, arrangement and the chosen game's own settings.

Every game's settings are on the page (shown for the game picked, by a few lines of script; without
script they are all visible and only the picked game's are read), named ``<game>__<setting>``."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import catalog
from .models import GameName, GameSession


def setting_field(setting: catalog.Setting, word_lists=()) -> forms.Field:
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
    game = forms.ChoiceField(label=_("Game"), choices=GameName.choices)
    title = forms.CharField(label=_("Title"), max_length=80, required=False)
    scheduled_for = forms.DateTimeField(
        label=_("Start time"),
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

    def __init__(self, *args, classrooms, word_lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["classroom"].queryset = classrooms
        word_lists = list(word_lists)
        for game, spec in catalog.GAMES.items():
            for key, setting in spec.settings.items():
                self.fields[f"{game}__{key}"] = setting_field(setting, word_lists)

    def settings_fields(self, game: str) -> list:
        return [self[f"{game}__{key}"] for key in catalog.spec_for(game).settings]

    def game_fieldsets(self) -> list[tuple[str, str, list]]:
        return [(game, label, self.settings_fields(game)) for game, label in GameName.choices]

    def clean(self):
        cleaned = super().clean()
        game = cleaned.get("game")
        if game:
            raw = {
                key: cleaned.get(f"{game}__{key}")
                for key in catalog.spec_for(game).settings
                if cleaned.get(f"{game}__{key}") not in (None, "")
            }
            try:
                cleaned["settings"] = catalog.spec_for(game).clean_settings(raw)
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
