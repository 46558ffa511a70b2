"""Forms of the bank pages. Each item form turns its fields into the engine's dict (``to_data()``) and
leaves the rules to ``questions.validation`` (through the services), so a form and an import agree."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from classrooms.models import Level

from .models import KEY_MAX_LENGTH, Concept, LineupQuestion, WordList, WordUpQuestion
from .services import IMPORT_MAX_BYTES, WORD_LIST_NAME_MAX_LENGTH
from .validation import SPELLING_PROMPT, format_number, parse_number, sorted_answer
from .vocabulary import MAX_BYTES as VOCABULARY_MAX_BYTES

SCOPE_CHOICES = [
    ("all", _("Shipped and our own")),
    ("shipped", _("Shipped only")),
    ("own", _("Our own only")),
]
ANY = [("", _("Any"))]


def _split_words(text: str) -> list[str]:
    """Words typed in one box, separated by commas, semicolons or new lines."""
    for separator in (";", "\n"):
        text = text.replace(separator, ",")
    return [word.strip() for word in text.split(",") if word.strip()]


class IdField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(
            label=_("Id"),
            max_length=KEY_MAX_LENGTH,
            required=False,
            help_text=_("Used to match items when you import a file again. Leave empty for a new one."),
            widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
            **kwargs,
        )


# --- filters -------------------------------------------------------------------------------------------


class BankFilterForm(forms.Form):
    """The bank page's filters (GET). Unknown or bad values are ignored, never an error page."""

    q = forms.CharField(label=_("Search"), max_length=100, required=False)
    scope = forms.ChoiceField(label=_("Whose"), choices=SCOPE_CHOICES, required=False)

    def __init__(self, *args, kind: str, choices: dict[str, list[str]], word_lists=(), **kwargs):
        super().__init__(*args, **kwargs)
        if kind in ("lineup", "wordup"):
            self.fields["level"] = forms.TypedChoiceField(
                label=_("Level"),
                choices=ANY + list(Level.choices),
                coerce=int,
                required=False,
                empty_value=None,
            )
        if kind == "lineup":
            self.fields["subject"] = forms.ChoiceField(
                label=_("Subject"), choices=ANY + [(s, s) for s in choices.get("subject", [])], required=False
            )
            # The shipped questions come in each language's edition (the same ids in every language).
            self.fields["language"] = forms.ChoiceField(
                label=_("Language"), choices=ANY + list(settings.LANGUAGES), required=False
            )
        elif kind == "wordup":
            self.fields["category"] = forms.ChoiceField(
                label=_("Category"), choices=ANY + list(WordUpQuestion.Category.choices), required=False
            )
            self.fields["misplaced"] = forms.BooleanField(
                label=_("Only those that look misplaced"), required=False
            )
        else:
            self.fields["difficulty"] = forms.ChoiceField(
                label=_("Difficulty"), choices=ANY + list(Concept.Difficulty.choices), required=False
            )
            self.fields["theme"] = forms.ChoiceField(
                label=_("Theme"), choices=ANY + [(t, t) for t in choices.get("theme", [])], required=False
            )
            self.fields["word_list"] = forms.TypedChoiceField(
                label=_("Word list"),
                choices=ANY + [(wl.pk, wl.name) for wl in word_lists],
                coerce=int,
                required=False,
                empty_value=None,
            )

    def filters(self) -> dict[str, Any]:
        if not self.is_bound:
            return {}
        if self.is_valid():
            return self.cleaned_data
        return {name: value for name, value in self.cleaned_data.items() if name not in self.errors}


# --- Line Up! --------------------------------------------------------------------------------------------


class LineupQuestionForm(forms.Form):
    id = IdField()
    heading = forms.CharField(
        label=_("Heading"), max_length=200, help_text=_("What the five items are, e.g. “How many legs?”")
    )
    order_label = forms.CharField(
        label=_("Order asked for"), max_length=100, help_text=_("Shown to the students, e.g. “Fewest first”.")
    )
    direction = forms.ChoiceField(label=_("Sort the values"), choices=LineupQuestion.Direction.choices)
    explanation = forms.CharField(
        label=_("Explanation"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown with the answer."),
    )
    source = forms.CharField(label=_("Source"), max_length=300, help_text=_("Where the data comes from."))
    level = forms.TypedChoiceField(label=_("Level"), choices=Level.choices, coerce=int, initial=3)
    subject = forms.CharField(
        label=_("Subject"),
        max_length=40,
        widget=forms.TextInput(attrs={"list": "subject-list"}),
        help_text=_("For example science, geography, history, language or maths."),
    )
    tags = forms.CharField(
        label=_("Tags"), max_length=300, required=False, help_text=_("Separated by commas.")
    )

    HEAD_FIELDS = ("id", "heading", "order_label", "direction")
    TAIL_FIELDS = ("explanation", "source", "level", "subject", "tags")

    def __init__(self, *args, editing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, 6):
            self.fields[f"item{n}_text"] = forms.CharField(label=_("Item %(n)d") % {"n": n}, max_length=100)
            # Help under the first card only: the other four repeat it.
            self.fields[f"item{n}_value"] = forms.CharField(
                label=_("Value"),
                max_length=40,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
                help_text=_("A number (a year, a length ...): it decides the order.") if n == 1 else "",
            )
            self.fields[f"item{n}_display"] = forms.CharField(
                label=_("As shown after the answer"),
                max_length=100,
                required=False,
                help_text=_("With its unit, e.g. “8 legs”. Empty: the value.") if n == 1 else "",
            )
        if editing:
            self.fields["id"].help_text = _("Changing it makes a re-imported file create a new item.")

    def items(self) -> list[list[forms.BoundField]]:
        return [[self[f"item{n}_{part}"] for part in ("text", "value", "display")] for n in range(1, 6)]

    def clean(self):
        data = super().clean()
        for n in range(1, 6):
            name = f"item{n}_value"
            if name in data:
                value = parse_number(data[name])
                if isinstance(value, str):
                    self.add_error(name, _("Write a number, such as 42, -3.5 or 1969."))
                else:
                    data[name] = value
        return data

    def to_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        items = [
            {
                "text": data[f"item{n}_text"],
                "value": data[f"item{n}_value"],
                "display": data[f"item{n}_display"] or format_number(data[f"item{n}_value"]),
            }
            for n in range(1, 6)
        ]
        return {
            "id": data["id"],
            "heading": data["heading"],
            "order_label": data["order_label"],
            "direction": data["direction"],
            "items": items,
            # The answer follows from the values: the form cannot state a wrong one.
            "answer": sorted_answer(items, data["direction"]),
            "explanation": data["explanation"],
            "source": data["source"],
            "level": data["level"],
            "subject": data["subject"],
            "tags": _split_words(data["tags"]),
        }

    @staticmethod
    def initial_from(question: LineupQuestion) -> dict[str, Any]:
        initial = {
            "id": question.key,
            "heading": question.heading,
            "order_label": question.order_label,
            "direction": question.direction,
            "explanation": question.explanation,
            "source": question.source,
            "level": question.level,
            "subject": question.subject,
            "tags": ", ".join(question.tags),
        }
        for n, item in enumerate(question.items, start=1):
            initial[f"item{n}_text"] = item["text"]
            initial[f"item{n}_value"] = format_number(item["value"])
            initial[f"item{n}_display"] = item["display"]
        return initial


# --- Word Up ---------------------------------------------------------------------------------------------


class WordUpQuestionForm(forms.Form):
    id = IdField()
    level = forms.TypedChoiceField(label=_("Level"), choices=Level.choices, coerce=int, initial=3)
    category = forms.ChoiceField(label=_("Category"), choices=WordUpQuestion.Category.choices)
    prompt = forms.CharField(
        label=_("Question"),
        max_length=200,
        required=False,
        help_text=_(
            "Missing Word: a sentence with one gap written ____. Crossword Clues: the clue. "
            "Multiple Choice: the question. Spelling: leave empty for “%(prompt)s”."
        )
        % {"prompt": SPELLING_PROMPT},
    )
    sentence = forms.CharField(
        label=_("Spoken sentence (Spelling only)"),
        max_length=200,
        required=False,
        help_text=_(
            "Read aloud to the student; it must contain the word once. Letters and punctuation only."
        ),
    )
    answers = forms.CharField(
        label=_("Accepted answers"),
        max_length=300,
        help_text=_("The word first, then any other right words (Spelling: one word). Separated by commas."),
    )
    alternatives = forms.CharField(
        label=_("Alternative spellings"),
        max_length=300,
        required=False,
        help_text=_("Also accepted, e.g. color for colour. Separated by commas."),
    )
    first_letter = forms.CharField(
        label=_("First letter (Crossword Clues only)"),
        max_length=1,
        required=False,
        help_text=_("Empty: the answer's first letter."),
    )
    choices = forms.CharField(
        label=_("Three choices (Multiple Choice only)"),
        max_length=200,
        required=False,
        help_text=_("The answer and two wrong ones, in the order shown. Separated by commas."),
    )

    def to_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        category = data["category"]
        raw: dict[str, Any] = {
            "id": data["id"],
            "level": data["level"],
            "category": category,
            "prompt": data["prompt"],
            "answers": _split_words(data["answers"]),
            "alternatives": _split_words(data["alternatives"]),
        }
        # Fields of another category are ignored rather than refused: the form shows them all.
        if category == WordUpQuestion.Category.CROSSWORD:
            raw["first_letter"] = data["first_letter"]
        elif category == WordUpQuestion.Category.MULTIPLE_CHOICE:
            raw["choices"] = _split_words(data["choices"])
        elif category == WordUpQuestion.Category.SPELLING:
            raw["sentence"] = data["sentence"]
        return raw

    @staticmethod
    def initial_from(question: WordUpQuestion) -> dict[str, Any]:
        return {
            "id": question.key,
            "level": question.level,
            "category": question.category,
            "prompt": question.prompt,
            "sentence": question.sentence,
            "answers": ", ".join(question.answers),
            "alternatives": ", ".join(question.alternatives),
            "first_letter": question.first_letter,
            "choices": ", ".join(question.choices),
        }


# --- Mind the Lines --------------------------------------------------------------------------------------


class ConceptForm(forms.Form):
    id = IdField()
    text = forms.CharField(
        label=_("Concept"), max_length=60, help_text=_("A word or a few that can be drawn, e.g. “volcano”.")
    )
    alt = forms.CharField(
        label=_("Other name"), max_length=60, required=False, help_text=_("e.g. airplane for aeroplane.")
    )
    difficulty = forms.ChoiceField(label=_("Difficulty"), choices=Concept.Difficulty.choices)
    theme = forms.CharField(label=_("Theme"), max_length=40, required=False)
    word_list = forms.ModelChoiceField(label=_("Word list"), queryset=WordList.objects.none())

    def __init__(self, *args, word_lists: list[WordList], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["word_list"].queryset = WordList.objects.filter(pk__in=[wl.pk for wl in word_lists])

    def to_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        raw = {
            "id": data["id"],
            "text": data["text"],
            "difficulty": data["difficulty"],
            "theme": data["theme"],
        }
        if data["alt"]:
            raw["alt"] = data["alt"]
        return raw

    @staticmethod
    def initial_from(concept: Concept) -> dict[str, Any]:
        return {
            "id": concept.key,
            "text": concept.text,
            "alt": concept.alt,
            "difficulty": concept.difficulty,
            "theme": concept.theme,
            "word_list": concept.word_list_id,
        }


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
        return _split_words(self.cleaned_data["words"])


# --- import ----------------------------------------------------------------------------------------------


class ImportForm(forms.Form):
    file = forms.FileField(label=_("CSV or JSON file"))

    def __init__(self, *args, kind: str, word_lists: list[WordList] = (), **kwargs):
        super().__init__(*args, **kwargs)
        if kind == "concepts":
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
