"""Mind the Lines concepts (:class:`Concept`): the shipped easy and hard decks
(``questions/data/mindlines/``), and the words on a school's word lists."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django import forms
from django.db.models import F, QuerySet
from django.utils.translation import gettext_lazy as _

from classrooms.models import School

from ..models import Concept, WordList
from ..validation import clean_concept
from .base import ANY, BankKind, IdField, grouped_counts, school_id_of


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
        field = self.fields["word_list"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = WordList.objects.filter(pk__in=[wl.pk for wl in word_lists])

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


class ConceptKind(BankKind):
    name = "concepts"
    title = _("Mind the Lines concepts")
    one = _("concept")
    model = Concept
    form = ConceptForm
    key_prefix = "c"
    data_folder = "mindlines"
    csv_columns = ("id", "text", "alt", "difficulty", "theme")
    optional_csv_columns = frozenset({"alt", "theme"})
    label_field = "text"
    equal_filters = ("difficulty", "theme")
    choice_filter = "theme"
    search_fields = ("text", "alt", "key")
    on_word_lists = True
    own_label = _("%(shipped)s shipped · %(own)s on your school's word lists")
    admin = {
        "list_display": ["key", "text", "difficulty", "theme", "word_list", "school", "shipped"],
        "list_filter": ["difficulty"],
        "search_fields": ["key", "text"],
        "raw_id_fields": ["school", "author", "word_list"],
    }

    def clean(self, raw):
        return clean_concept(raw)

    def model_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "text": data["text"],
            "alt": data.get("alt", ""),
            "difficulty": data["difficulty"],
            "theme": data.get("theme", ""),
        }

    def from_cells(self, cells: dict[str, str]) -> dict[str, Any]:
        raw = {
            "id": cells.get("id", ""),
            "text": cells.get("text", ""),
            "difficulty": cells.get("difficulty", ""),
            "theme": cells.get("theme", ""),
        }
        if cells.get("alt", "").strip():
            raw["alt"] = cells["alt"]
        return raw

    def to_cells(self, item: dict[str, Any]) -> dict[str, str]:
        return {
            "id": item["id"],
            "text": item["text"],
            "alt": item.get("alt", ""),
            "difficulty": item["difficulty"],
            "theme": item["theme"],
        }

    def shipped_entries(
        self, data_dir: Path | None = None, **_language: str
    ) -> list[tuple[dict[str, Any], int]]:
        """The order within each deck (easy.json, hard.json)."""
        folder = self.folder(data_dir)
        paths = sorted(folder.glob("*.json"))
        return [
            (item, position)
            for path in paths
            for position, item in enumerate(json.loads(path.read_text(encoding="utf-8")), start=1)
        ]

    def summary(self, data_dir: Path | None = None) -> list[str]:
        """The English decks in the database, and the other languages' decks (played from their files)."""
        decks = {"en": dict(grouped_counts(self.shipped_items(), "difficulty"))}
        folder = self.folder(data_dir)
        languages = [p for p in folder.iterdir() if p.is_dir()] if folder.is_dir() else []
        for language in sorted(languages):
            decks[language.name] = {
                deck.stem: len(json.loads(deck.read_text(encoding="utf-8")))
                for deck in sorted(language.glob("*.json"))
            }
        return [
            f"Mind the Lines ({language}): {sum(counts.values())} concepts "
            f"({', '.join(f'{name}: {count}' for name, count in counts.items())})"
            for language, counts in decks.items()
        ]

    # The bank pages.

    def filter_fields(self, choices: list[str], word_lists: Any = ()) -> dict[str, forms.Field]:
        return {
            "difficulty": forms.ChoiceField(
                label=_("Difficulty"), choices=ANY + list(Concept.Difficulty.choices), required=False
            ),
            "theme": forms.ChoiceField(
                label=_("Theme"), choices=ANY + [(t, self.choice_name(t)) for t in choices], required=False
            ),
            "word_list": forms.TypedChoiceField(
                label=_("Word list"),
                choices=ANY + [(wl.pk, wl.name) for wl in word_lists],
                coerce=int,
                required=False,
                empty_value=None,
            ),
        }

    def filter_items(self, items: QuerySet, filters: dict[str, Any]) -> QuerySet:
        if filters.get("word_list"):
            items = items.filter(word_list_id=filters["word_list"])
        return super().filter_items(items, filters)

    def order_items(self, items: QuerySet) -> QuerySet:
        return items.select_related("word_list").order_by(
            F("school_id").asc(nulls_first=True), "difficulty", "position", "id"
        )

    # Content for game sessions.

    def concepts_for(
        self, school: School | int, *, difficulty: str | None = None, word_list: WordList | int | None = None
    ) -> list[dict]:
        """Concepts as the engine takes them: a word list's (if given, and it is the school's), else the
        shipped deck of ``difficulty`` (both decks if None)."""
        if word_list is not None:
            list_id = word_list if isinstance(word_list, int) else word_list.pk
            concepts = Concept.objects.filter(word_list_id=list_id, school_id=school_id_of(school))
        else:
            concepts = self.shipped_items()
            if difficulty:
                concepts = concepts.filter(difficulty=difficulty)
        return [concept.to_engine_dict() for concept in concepts.order_by("difficulty", "position", "id")]


CONCEPTS = ConceptKind()
