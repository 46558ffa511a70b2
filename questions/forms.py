"""Forms of the bank pages that are the same for every kind: the bank's filters, the import, word lists and
vocabulary lists. Each kind's item form is the kind's own (:attr:`questions.kinds.base.BankKind.form`): it
turns its fields into the engine's dict (``to_data()``) and leaves the rules to ``questions.validation``
(through the services), so a form and an import agree."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .kinds.base import BankKind, split_words
from .models import Concept, WordList
from .services import IMPORT_MAX_BYTES, WORD_LIST_NAME_MAX_LENGTH
from .vocabulary import MAX_BYTES as VOCABULARY_MAX_BYTES

SCOPE_CHOICES = [
    ("all", _("Shipped and our own")),
    ("shipped", _("Shipped only")),
    ("own", _("Our own only")),
]


# --- filters -------------------------------------------------------------------------------------------


class BankFilterForm(forms.Form):
    """The bank page's filters (GET). Unknown or bad values are ignored, never an error page."""

    q = forms.CharField(label=_("Search"), max_length=100, required=False)
    scope = forms.ChoiceField(label=_("Whose"), choices=SCOPE_CHOICES, required=False)

    def __init__(self, *args, kind: BankKind, choices: list[str], word_lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(kind.filter_fields(choices, word_lists))

    def filters(self) -> dict[str, Any]:
        if not self.is_bound:
            return {}
        if self.is_valid():
            return self.cleaned_data
        return {name: value for name, value in self.cleaned_data.items() if name not in self.errors}


class WordListForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the list"),
        max_length=WORD_LIST_NAME_MAX_LENGTH,
        help_text=_("For example “7B vocabulary, week 12”."),
    )


class AddWordsForm(forms.Form):
    words = forms.CharField(
        label=_("Words"),
        max_length=10_000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One word (or a few words) per line, or separated by commas. Each must be drawable."),
    )
    difficulty = forms.ChoiceField(label=_("Difficulty"), choices=Concept.Difficulty.choices)
    theme = forms.CharField(label=_("Theme"), max_length=40, required=False)

    def words_list(self) -> list[str]:
        return split_words(self.cleaned_data["words"])


# --- import ----------------------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV or JSON file"))

    def __init__(self, *args, kind: BankKind, word_lists: list[WordList] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if kind.on_word_lists:
            self.fields["word_list"] = forms.TypedChoiceField(
                label=_("Add to the word list"),
                choices=[("", _("A new list (name it below)"))] + [(wl.pk, wl.name) for wl in word_lists],
                coerce=int,
                required=False,
                empty_value=None,
            )
            self.fields["new_list_name"] = forms.CharField(
                label=_("Name of the new list"), max_length=WORD_LIST_NAME_MAX_LENGTH, required=False
            )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = getattr(settings, "QUESTION_IMPORT_MAX_BYTES", IMPORT_MAX_BYTES)
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is too large (the limit is %(kb)d KB).") % {"kb": limit // 1000}
            )
        return upload

    def clean(self):
        data = super().clean()
        if "word_list" in self.fields and not data.get("word_list") and not data.get("new_list_name"):
            self.add_error("new_list_name", _("Choose one of your word lists, or name a new one."))
        return data


class VocabularyImportForm(forms.Form):
    """A Quizlet-style vocabulary list, pasted or uploaded: one word per line, then its definition and,
    if you like, an example sentence."""

    name = forms.CharField(label=_("Name of the list"), max_length=WORD_LIST_NAME_MAX_LENGTH)
    text = forms.CharField(
        label=_("Paste the list"),
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        required=False,
        help_text=_(
            "One word per line: the word, then its definition, then (if you like) an example sentence "
            "holding the word. Quizlet's Export gives exactly this: copy its text and paste it here."
        ),
    )
    file = forms.FileField(label=_("…or upload a file (.txt, .tsv or .csv)"), required=False)
    separator = forms.ChoiceField(
        label=_("Between the word and its definition"),
        choices=[
            ("auto", _("Find out from the text")),
            ("tab", _("Tab (Quizlet's default)")),
            ("comma", _("Comma")),
            ("semicolon", _("Semicolon")),
        ],
        initial="auto",
    )

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload and upload.size > VOCABULARY_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (the limit is %(kb)d KB).") % {"kb": VOCABULARY_MAX_BYTES // 1000}
            )
        return upload

    def clean(self):
        data = super().clean()
        if not data.get("text", "").strip() and not data.get("file"):
            self.add_error("text", _("Paste the list here, or upload its file."))
        return data

    def list_bytes(self) -> bytes:
        upload = self.cleaned_data.get("file")
        return upload.read() if upload else self.cleaned_data["text"].encode("utf-8")
