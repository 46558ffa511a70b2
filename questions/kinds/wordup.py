"""Word Up questions: the four categories at the five levels (:class:`WordUpQuestion`), shipped as
``questions/data/wordup/level<n>.json``, each numbered within its level and category (the sheet order)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from django import forms
from django.db.models import Case, Count, F, Max, Q, QuerySet, Value, When
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classrooms.models import Level, School

from ..estimate import estimate_word_level
from ..models import ItemReview, OwnedItem, VocabularyList, WordUpQuestion
from ..validation import SPELLING, SPELLING_PROMPT, clean_wordup
from .base import (
    ANY,
    BankKind,
    IdField,
    grouped_counts,
    join_cells,
    label_text,
    level_filter,
    listed,
    load_items,
    school_id_of,
    split_cell,
    split_words,
)

CATEGORIES = tuple(WordUpQuestion.Category.values)  # the engine's order
CATEGORY_ORDER = Case(
    *(When(category=category, then=Value(index)) for index, category in enumerate(CATEGORIES)),
    default=Value(len(CATEGORIES)),
)


def _question_help_now() -> str:
    return gettext(
        "Missing Word: a sentence with one gap written ____. Crossword Clues: the clue. "
        "Multiple Choice: the question. Spelling: leave empty for “%(prompt)s”."
    ) % {"prompt": gettext(SPELLING_PROMPT)}


#: Filled in when a page shows it, in that page's language (``%`` on a lazy text is done at once: at import).
_question_help = lazy(_question_help_now, str)


class WordUpQuestionForm(forms.Form):
    id = IdField()
    level = forms.TypedChoiceField(label=_("Level"), choices=Level.choices, coerce=int, initial=3)
    category = forms.ChoiceField(label=_("Category"), choices=WordUpQuestion.Category.choices)
    prompt = forms.CharField(
        label=_("Question"),
        max_length=200,
        required=False,
        help_text=_question_help(),
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
            "answers": split_words(data["answers"]),
            "alternatives": split_words(data["alternatives"]),
        }
        # Fields of another category are ignored rather than refused: the form shows them all.
        if category == WordUpQuestion.Category.CROSSWORD:
            raw["first_letter"] = data["first_letter"]
        elif category == WordUpQuestion.Category.MULTIPLE_CHOICE:
            raw["choices"] = split_words(data["choices"])
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


class WordUpKind(BankKind):
    name = "wordup"
    title = _("Word Up questions")
    one = _("Word Up question")
    model = WordUpQuestion
    form = WordUpQuestionForm
    key_prefix = "wu"
    data_folder = "wordup"
    csv_columns = (
        "id",
        "level",
        "category",
        "prompt",
        "answers",
        "alternatives",
        "letters",
        "first_letter",
        "choices",
        "sentence",
    )
    optional_csv_columns = frozenset({"alternatives", "letters", "first_letter", "choices", "sentence"})
    equal_filters = ("level", "category")
    search_fields = ("prompt", "sentence", "answers", "key")
    position_group = ("level", "category")
    reviewable = True
    bank_note = _("“Estimated” is the level of the answer word's CEFR grade (A1 = 1 … C1/C2 = 5).")
    admin = {
        "list_display": ["key", "level", "category", "prompt", "estimated_level", "school", "shipped"],
        "list_filter": ["level", "category"],
        "search_fields": ["key", "prompt", "sentence"],
        "readonly_fields": ["estimated_level"],
    }

    def clean(self, raw):
        return clean_wordup(raw)

    def model_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "level": data["level"],
            "category": data["category"],
            "prompt": data["prompt"],
            "answers": list(data["answers"]),
            "alternatives": list(data.get("alternatives", [])),
            "letters": data["letters"],
            "first_letter": data.get("first_letter", ""),
            "choices": list(data.get("choices", [])),
            "sentence": data.get("sentence", ""),
        }

    def label(self, raw: Any) -> str:
        if not isinstance(raw, dict):
            return ""
        return label_text(raw.get("sentence" if raw.get("category") == SPELLING else "prompt"))

    def from_cells(self, cells: dict[str, str]) -> dict[str, Any]:
        level = cells.get("level", "").strip()
        letters = cells.get("letters", "").strip()
        raw: dict[str, Any] = {
            "id": cells.get("id", ""),
            "level": int(level) if level.isdigit() else level,
            "category": cells.get("category", "").strip().lower().replace(" ", "_"),
            "prompt": cells.get("prompt", ""),
            "answers": split_cell(cells.get("answers", "")),
            "alternatives": split_cell(cells.get("alternatives", "")),
            "letters": int(letters) if letters.isdigit() else (letters or None),
        }
        for name in ("first_letter", "sentence"):
            if cells.get(name, "").strip():
                raw[name] = cells[name]
        if cells.get("choices", "").strip():
            raw["choices"] = split_cell(cells["choices"])
        return raw

    def to_cells(self, item: dict[str, Any]) -> dict[str, str]:
        return {
            "id": item["id"],
            "level": str(item["level"]),
            "category": item["category"],
            "prompt": item["prompt"],
            "answers": join_cells(item["answers"]),
            "alternatives": join_cells(item["alternatives"]),
            "letters": str(item["letters"]),
            "first_letter": item.get("first_letter", ""),
            "choices": join_cells(item.get("choices", [])),
            "sentence": item.get("sentence", ""),
        }

    # The shipped bank: a sheet per level and category.

    def shipped_entries(
        self, data_dir: Path | None = None, **_language: str
    ) -> list[tuple[dict[str, Any], int]]:
        """Sheet order within each level and category (1, 2, ...)."""
        entries: list[tuple[dict[str, Any], int]] = []
        folder = self.folder(data_dir)
        for path in sorted(folder.glob("level*.json")):
            counters: dict[tuple, int] = defaultdict(int)
            for item in load_items(path):
                group = (item["level"], item["category"])
                counters[group] += 1
                entries.append((item, counters[group]))
        return entries

    def shipped_changed(self, item: OwnedItem, data: dict[str, Any], position: int) -> bool:
        # A newer cefrpy may grade a word differently: the stored estimate follows it.
        assert isinstance(item, WordUpQuestion)
        regraded = item.estimated_level != estimate_word_level(item.target_word)
        return regraded or super().shipped_changed(item, data, position)

    def prepare(self, item: OwnedItem) -> None:
        assert isinstance(item, WordUpQuestion)
        item.refresh_estimate()

    def summary(self, data_dir: Path | None = None) -> list[str]:
        shipped = self.shipped_items()
        return [
            f"Word Up: {shipped.count()} questions; {listed(grouped_counts(shipped, 'level'), 'level ')}; "
            f"{listed(grouped_counts(shipped, 'category'))}"
        ]

    # The bank pages.

    def filter_fields(self, choices: list[str], word_lists: Any = ()) -> dict[str, forms.Field]:
        return {
            "level": level_filter(),
            "category": forms.ChoiceField(
                label=_("Category"), choices=ANY + list(WordUpQuestion.Category.choices), required=False
            ),
            "misplaced": forms.BooleanField(label=_("Only those that look misplaced"), required=False),
        }

    def filter_items(self, items: QuerySet, filters: dict[str, Any]) -> QuerySet:
        if filters.get("misplaced"):
            items = items.filter(
                Q(estimated_level__gte=F("level") + 2) | Q(estimated_level__lte=F("level") - 2)
            )
        return super().filter_items(items, filters)

    def order_items(self, items: QuerySet) -> QuerySet:
        return items.annotate(category_order=CATEGORY_ORDER).order_by(
            F("school_id").asc(nulls_first=True), "level", "category_order", "position", "id"
        )

    # Content for game sessions.

    def bank_for(self, school: School | int, *, own_only: bool = False) -> dict[str, dict[str, list[dict]]]:
        """``{"1": {"missing_word": [question, ...], ...}, ...}`` as the Word Up engine takes it: shipped
        questions first, then the school's own, each in sheet order (``own_only``: the school's alone),
        without the questions the school retired."""
        questions = self.playable_items(school)
        if own_only:
            questions = questions.filter(school__isnull=False)
        questions = questions.order_by(
            F("school_id").asc(nulls_first=True), "level", "category", "position", "id"
        )
        bank: dict[str, dict[str, list[dict]]] = {
            str(level): {category: [] for category in CATEGORIES} for level in range(1, 6)
        }
        for question in questions:
            bank[str(question.level)][question.category].append(question.to_engine_dict())
        return bank

    def bank_version(self, school: School | int, vocabulary_id: int | None = None) -> tuple:
        """What differs whenever the school's Word Up bank (and the vocabulary list, if given) would read
        differently: how many questions and reviews there are and when the latest of each changed (an
        edit stamps ``updated_at``, a deletion lowers the count). Three small queries, not the whole
        bank."""
        school_id = school_id_of(school)
        items = self.school_items(school_id).aggregate(count=Count("pk"), latest=Max("updated_at"))
        reviews = ItemReview.objects.filter(school_id=school_id, kind=self.name).aggregate(
            count=Count("pk"), latest=Max("at")
        )
        vocabulary = None
        if vocabulary_id is not None:
            found = VocabularyList.objects.filter(pk=vocabulary_id, school_id=school_id).values_list(
                "updated_at"
            )
            vocabulary = found.first()
        return items["count"], items["latest"], reviews["count"], reviews["latest"], vocabulary


WORDUP = WordUpKind()
