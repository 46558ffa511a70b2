"""Line Up! questions: five items to put in order by an exact value each (:class:`LineupQuestion`).

The shipped bank comes in editions, one per language: ``questions/data/lineup/`` is English, each
``questions/data/lineup/<language>/`` a translation keeping its English question's ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from classrooms.models import Classroom, Level, School

from ..models import ENGLISH, LineupQuestion, QuestionUse
from ..validation import clean_lineup, format_number, parse_number, sorted_answer
from .base import (
    ANY,
    BankKind,
    IdField,
    ShippedRow,
    grouped_counts,
    join_cells,
    level_filter,
    listed,
    numbered,
    split_cell,
    split_words,
)

ITEM_FIELDS = ("text", "value", "display")


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
            "tags": split_words(data["tags"]),
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


class LineupKind(BankKind):
    name = "lineup"
    title = _("Line Up! questions")
    one = _("Line Up! question")
    model = LineupQuestion
    form = LineupQuestionForm
    own_form_layout = True
    more_on_item_page = True
    key_prefix = "lu"
    data_folder = "lineup"
    csv_columns = (
        "id",
        "heading",
        "order_label",
        "direction",
        *(f"item{n}_{part}" for n in range(1, 6) for part in ITEM_FIELDS),
        "answer",
        "explanation",
        "source",
        "level",
        "subject",
        "tags",
    )
    optional_csv_columns = frozenset({"tags"})
    label_field = "heading"
    equal_filters = ("level", "subject", "language")
    choice_filter = "subject"
    search_fields = ("heading", "key", "tags")
    reviewable = True
    rotated = True
    admin = {
        "list_display": ["key", "heading", "level", "subject", "school", "shipped"],
        "list_filter": ["level", "subject"],
        "search_fields": ["key", "heading"],
    }

    def clean(self, raw):
        return clean_lineup(raw)

    def model_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        names = ("heading", "order_label", "direction", "explanation", "source", "level", "subject")
        return {
            **{name: data[name] for name in names},
            "items": [dict(item) for item in data["items"]],
            "answer": list(data["answer"]),
            "tags": list(data.get("tags", [])),
        }

    def from_cells(self, cells: dict[str, str]) -> dict[str, Any]:
        items = []
        for n in range(1, 6):
            value = cells.get(f"item{n}_value", "")
            items.append(
                {
                    "text": cells.get(f"item{n}_text", ""),
                    "value": parse_number(value) if value.strip() else None,
                    "display": cells.get(f"item{n}_display", ""),
                }
            )
        answer_cell = cells.get("answer", "").replace(",", " ").replace(";", " ").replace("-", " ")
        answer: Any = [int(token) if token.isdigit() else token for token in answer_cell.split()]
        level = cells.get("level", "").strip()
        return {
            "id": cells.get("id", ""),
            "heading": cells.get("heading", ""),
            "order_label": cells.get("order_label", ""),
            "direction": cells.get("direction", "").strip().lower(),
            "items": items,
            "answer": answer,
            "explanation": cells.get("explanation", ""),
            "source": cells.get("source", ""),
            "level": int(level) if level.isdigit() else level,
            "subject": cells.get("subject", ""),
            "tags": split_cell(cells.get("tags", "")),
        }

    def to_cells(self, item: dict[str, Any]) -> dict[str, str]:
        cells = {
            "id": item["id"],
            "heading": item["heading"],
            "order_label": item["order_label"],
            "direction": item["direction"],
            "answer": " ".join(str(n) for n in item["answer"]),
            "explanation": item["explanation"],
            "source": item["source"],
            "level": str(item["level"]),
            "subject": item["subject"],
            "tags": join_cells(item["tags"]),
        }
        for n, entry in enumerate(item["items"], start=1):
            cells[f"item{n}_text"] = entry["text"]
            # repr keeps a float a float (8.0 stays 8.0) so the round trip gives the same JSON.
            cells[f"item{n}_value"] = repr(entry["value"])
            cells[f"item{n}_display"] = entry["display"]
        return cells

    # The shipped bank, in each language's edition.

    def editions(self, data_dir: Path | None = None) -> list[str]:
        """English, then each translation's folder (``lineup/<language>/``) in name order."""
        folder = self.folder(data_dir)
        translations = (
            sorted(path.name for path in folder.iterdir() if path.is_dir()) if folder.is_dir() else []
        )
        return [ENGLISH, *translations]

    def shipped_entries(self, data_dir: Path | None = None, *, language: str = ENGLISH):
        """The files of ``language``'s edition by name, then file order."""
        folder = self.folder(data_dir)
        return numbered(folder if language == ENGLISH else folder / language)

    def shipped_rows(self, data_dir: Path | None = None) -> list[ShippedRow]:
        return [
            ((data["id"], language), data, position)
            for language in self.editions(data_dir)
            for data, position in self.shipped_entries(data_dir, language=language)
        ]

    def shipped_fields(self, identity: tuple[str, str], data: dict[str, Any]) -> dict[str, Any]:
        return {**self.model_fields(data), "language": identity[1]}

    def summary(self, data_dir: Path | None = None) -> list[str]:
        shipped = self.shipped_items()
        english = shipped.filter(language=ENGLISH)
        subjects = grouped_counts(english, "subject")
        return [
            f"Line Up!: {english.count()} questions in {len(subjects)} subjects "
            f"({listed(subjects)}); {listed(grouped_counts(english, 'level'), 'level ')}",
            f"Line Up! in each language: {listed(grouped_counts(shipped, 'language'))}",
        ]

    def example_items(self) -> QuerySet:
        return self.shipped_items().filter(language=ENGLISH)  # the English bank's, not a translation's

    # The bank pages.

    def filter_fields(self, choices: list[str], word_lists: Any = ()) -> dict[str, forms.Field]:
        return {
            "level": level_filter(),
            "subject": forms.ChoiceField(
                label=_("Subject"), choices=ANY + [(s, self.choice_name(s)) for s in choices], required=False
            ),
            # The shipped questions come in each language's edition (the same ids in every language).
            "language": forms.ChoiceField(
                label=_("Language"), choices=ANY + list(settings.LANGUAGES), required=False
            ),
        }

    def form_kwargs(self, user, *, editing: bool) -> dict[str, Any]:
        return {"editing": editing}

    def form_context(self, visible: QuerySet) -> dict[str, Any]:
        values = visible.exclude(subject="").values_list("subject", flat=True).distinct()
        return {"subjects": sorted(set(values))}

    # Content for game sessions.

    def questions_for(
        self,
        classroom: Classroom,
        subjects: list[str] | tuple[str, ...] | None = None,
        levels: list[int] | tuple[int, ...] | None = None,
        *,
        limit: int | None = None,
        language: str = ENGLISH,
    ) -> list[LineupQuestion]:
        """The class's Line Up! questions for a session, questions it has not been shown yet first.

        The bank is the shipped questions of ``language``'s edition plus the class's school's own (less
        those it retired), narrowed to ``subjects`` and ``levels`` (None or empty: all). Questions the
        class has never been shown come first (in bank order), then those it has seen, the longest ago
        first: so a class sees no question again until the filtered bank is used up, and then the
        rotation starts again with the oldest. Where the edition has fewer than ``limit`` such questions
        (a subject it has not translated), the English questions it has no translation of follow, in the
        same order. ``limit`` cuts the list (take the questions a game needs, then shuffle those).
        Record what was shown with :func:`questions.services.questions_mark_used` (it marks a question
        in every language)."""
        questions = self.playable_items(classroom.school_id)
        if subjects:
            questions = questions.filter(subject__in=list(subjects))
        if levels:
            questions = questions.filter(level__in=list(levels))
        edition = questions.filter(Q(school__isnull=False) | Q(language=language))
        ordered = _in_rotation_order(
            classroom, edition.order_by(F("school_id").asc(nulls_first=True), "position", "id")
        )
        if language != ENGLISH and (limit is None or len(ordered) < limit):
            translated = {question.key for question in ordered}
            english = questions.filter(school__isnull=True, language=ENGLISH).exclude(key__in=translated)
            ordered += _in_rotation_order(classroom, english.order_by("position", "id"))
        return ordered[:limit] if limit is not None else ordered

    def subjects_for(self, school: School | int) -> list[str]:
        return sorted(set(self.school_items(school).values_list("subject", flat=True)))


def _in_rotation_order(classroom: Classroom, questions: QuerySet[LineupQuestion]) -> list[LineupQuestion]:
    """The questions the class has never been shown (in the given order), then those it has, the
    longest ago first."""
    questions_list = list(questions)
    last_seen = dict(
        QuestionUse.objects.filter(
            classroom=classroom, question__in=[q.pk for q in questions_list]
        ).values_list("question_id", "last_used_at")
    )
    unseen = [q for q in questions_list if q.pk not in last_seen]
    seen = sorted((q for q in questions_list if q.pk in last_seen), key=lambda q: last_seen[q.pk])
    return unseen + seen


LINEUP = LineupKind()
