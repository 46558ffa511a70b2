"""What a kind of question bank is: :class:`BankKind`. Each kind (Line Up! questions, Word Up questions,
Mind the Lines concepts ...) is one subclass in its own module beside this one, registered in
:mod:`questions.kinds`; the bank pages, the import and export, the loader of the shipped banks and the
admin ask the kind, so none of them names one.

A kind's items are rows of an :class:`~questions.models.OwnedItem` model whose ``to_engine_dict()`` is
the dict its game's engine takes (the shape of one entry of the shipped files in ``questions/data``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from django import forms
from django.db.models import Count, Q, QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from classrooms.models import Level, School

from ..models import ENGLISH, KEY_MAX_LENGTH, ItemReview, OwnedItem
from ..validation import Problem, clean_text

#: The shipped banks: one folder per kind (its ``data_folder``). Read when called, so a test may move it.
DATA_DIR = Path(__file__).resolve().parents[1] / "data"
#: Between the entries of a CSV cell that holds a list.
LIST_SEPARATOR = ";"

Label = str | Promise
#: The first choice of a filter that filters nothing.
ANY = [("", _("Any"))]


def level_filter() -> forms.TypedChoiceField:
    """The bank pages' filter by level (1-5), for the kinds whose items have one."""
    return forms.TypedChoiceField(
        label=_("Level"), choices=ANY + list(Level.choices), coerce=int, required=False, empty_value=None
    )


#: ``((key, language), item, position)``: one shipped item as the loader stores it.
ShippedRow = tuple[tuple[str, str], dict[str, Any], int]


# --- helpers the kinds' forms and CSV columns share ------------------------------------------------------


def split_words(text: str) -> list[str]:
    """Words typed in one box, separated by commas, semicolons or new lines."""
    for separator in (";", "\n"):
        text = text.replace(separator, ",")
    return [word.strip() for word in text.split(",") if word.strip()]


def split_cell(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(LIST_SEPARATOR) if part.strip()]


def join_cells(values: list[str]) -> str:
    return f"{LIST_SEPARATOR} ".join(values)


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


def label_text(text: Any) -> str:
    """An item's name in an import preview: its text, trimmed, at most 80 characters."""
    return clean_text(text)[:80] if isinstance(text, str) else ""


def visible_q(school_ids: set[int] | list[int]) -> Q:
    return Q(school__isnull=True) | Q(school_id__in=list(school_ids))


def school_id_of(school: School | int) -> int:
    return school if isinstance(school, int) else school.pk


# --- the kind --------------------------------------------------------------------------------------------


class BankKind:
    """One kind of bank item. A subclass sets the class attributes and writes :meth:`clean`,
    :meth:`model_fields`, :meth:`from_cells` and :meth:`to_cells`; the other methods have defaults that
    suit a plain bank (shipped JSON lists in ``questions/data/<data_folder>/``, filters by equal values)."""

    #: The id in URLs and in the registry ("lineup"); also the folder of its templates.
    name: ClassVar[str]
    #: What the bank pages call the bank ("Line Up! questions") and one item ("Line Up! question").
    title: ClassVar[Label]
    one: ClassVar[Label]
    #: The model of its items (an OwnedItem) and the item form of the bank pages.
    model: ClassVar[type[OwnedItem]]
    form: ClassVar[type[forms.Form]]
    #: New ids of a school's own items: "<key_prefix>-1a2b3c4d".
    key_prefix: ClassVar[str]
    #: Its folder in questions/data (None: its ``name``); a kind with nothing shipped has no folder.
    data_folder: ClassVar[str | None] = None
    #: The CSV file's columns, and those a file may leave out.
    csv_columns: ClassVar[tuple[str, ...]]
    optional_csv_columns: ClassVar[frozenset[str]] = frozenset()
    #: The item's field that names it in an import preview ("heading").
    label_field: ClassVar[str] = "id"
    #: The bank page's filters: fields matched as they are, the field whose values the page offers as
    #: a list (its ``choice_filter``), and the fields the search box looks in.
    equal_filters: ClassVar[tuple[str, ...]] = ()
    choice_filter: ClassVar[str | None] = None
    search_fields: ClassVar[tuple[str, ...]] = ("key",)
    #: Fields whose values form a group numbered on its own (Word Up's level and category).
    position_group: ClassVar[tuple[str, ...]] = ()
    #: A school's own items belong to one of its word lists (and are changed by the list's author).
    on_word_lists: ClassVar[bool] = False
    #: How a value of its ``choice_filter`` reads in the reader's language (a shipped theme's or subject's
    #: name): set by the game whose content it is (``games.apps``), since the names are the game's own.
    choice_label: Callable[[str], str] | None = None
    #: A school may flag or retire its questions from the item analysis.
    reviewable: ClassVar[bool] = False
    #: Its questions rotate per class (QuestionUse: no repeats until the bank is used up). One kind only:
    #: QuestionUse points at Line Up!'s questions.
    rotated: ClassVar[bool] = False
    #: The item form's page lays the fields out with the kind's own ``form.html`` template.
    own_form_layout: ClassVar[bool] = False
    #: The item page has a part after the facts (``more.html``: Line Up!'s five cards and answer).
    more_on_item_page: ClassVar[bool] = False
    #: The admin's list for platform staff (ModelAdmin options).
    admin: ClassVar[dict[str, Any]] = {}
    #: What the index page says of the bank's size ("%(shipped)s shipped · %(own)s of your school's").
    own_label: ClassVar[Label] = _("%(shipped)s shipped · %(own)s of your school's")
    #: A note the bank page shows beside the number of items ("" for none).
    bank_note: ClassVar[Label] = ""

    def __str__(self) -> str:
        return self.name

    # --- rules, rows and files ---------------------------------------------------------------------

    def clean(self, raw: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
        """``(cleaned, problems)`` for one item dict (see questions.validation)."""
        raise NotImplementedError

    def model_fields(self, data: dict[str, Any]) -> dict[str, Any]:
        """The model's field values for a cleaned item dict, its id left out."""
        raise NotImplementedError

    def from_cells(self, cells: dict[str, str]) -> dict[str, Any]:
        """One CSV row (column -> text) as a raw item dict, to be cleaned."""
        raise NotImplementedError

    def to_cells(self, item: dict[str, Any]) -> dict[str, str]:
        """One item dict as CSV cells (column -> text)."""
        raise NotImplementedError

    def required_columns(self) -> tuple[str, ...]:
        return tuple(name for name in self.csv_columns if name not in self.optional_csv_columns)

    def label(self, raw: Any) -> str:
        """How an import preview names an item."""
        return label_text(raw.get(self.label_field)) if isinstance(raw, dict) else ""

    # --- the shipped bank --------------------------------------------------------------------------

    def folder(self, data_dir: Path | None = None) -> Path:
        """The kind's folder of shipped files: its ``data_folder`` in ``data_dir`` (questions/data)."""
        return (data_dir or DATA_DIR) / (self.data_folder or self.name)

    def shipped_entries(
        self, data_dir: Path | None = None, *, language: str = ENGLISH
    ) -> list[tuple[dict[str, Any], int]]:
        """``(item, position)`` for every shipped item, in bank order (see :func:`numbered`)."""
        return numbered(self.folder(data_dir))

    def shipped_rows(self, data_dir: Path | None = None) -> list[ShippedRow]:
        """``((key, language), item, position)`` for every shipped item; "" for a bank with no language."""
        return [((data["id"], ""), data, position) for data, position in self.shipped_entries(data_dir)]

    def shipped_fields(self, identity: tuple[str, str], data: dict[str, Any]) -> dict[str, Any]:
        """The model fields of a shipped item (its language too, for a bank kept in several)."""
        return self.model_fields(data)

    def shipped_changed(self, item: OwnedItem, data: dict[str, Any], position: int) -> bool:
        """Whether a stored shipped item differs from its file's version."""
        return item.to_engine_dict() != data or item.position != position

    def prepare(self, item: OwnedItem) -> None:
        """Fill in what is derived before a new shipped item is stored in bulk (``save`` is not called)."""

    def summary(self, data_dir: Path | None = None) -> list[str]:
        """Lines for ``load_question_banks`` to print about what the shipped bank now holds."""
        return [f"{self.name}: {self.shipped_items().count()} items"]

    # --- reads -------------------------------------------------------------------------------------

    def visible_items(self, school_ids: set[int] | list[int]) -> QuerySet:
        """Shipped items plus those of these schools."""
        return self.model._default_manager.filter(visible_q(school_ids))

    def shipped_items(self) -> QuerySet:
        return self.model._default_manager.filter(school__isnull=True)

    def school_items(self, school: School | int) -> QuerySet:
        """Shipped items plus ``school``'s own (the school's bank, retired questions included)."""
        return self.visible_items([school_id_of(school)])

    def playable_items(self, school: School | int) -> QuerySet:
        """The school's bank without the questions it retired: what its classes' games ask."""
        school_id = school_id_of(school)
        retired = ItemReview.objects.filter(
            school_id=school_id, kind=self.name, status=ItemReview.Status.RETIRED
        )
        return self.school_items(school_id).exclude(key__in=retired.values("key"))

    def example_items(self) -> QuerySet:
        """The shipped items an import template copies its example row from (the first one)."""
        return self.shipped_items()

    # --- the bank pages ----------------------------------------------------------------------------

    def choice_name(self, value: str) -> str:
        """A value of the ``choice_filter`` as the bank page's filter lists it."""
        return str(self.choice_label(value)) if self.choice_label is not None else value

    def filter_fields(self, choices: list[str], word_lists: Any = ()) -> dict[str, forms.Field]:
        """The bank page's filter fields besides the search box and whose items (``choices``: the
        distinct values of :attr:`choice_filter` among the visible items)."""
        return {}

    def filter_items(self, items: QuerySet, filters: dict[str, Any]) -> QuerySet:
        """``items`` narrowed by the bank page's filters (empty values filter nothing)."""
        for name in self.equal_filters:
            value = filters.get(name)
            if value not in (None, ""):
                items = items.filter(**{name: value})
        query = (filters.get("q") or "").strip()
        if query:
            found = Q()
            for field in self.search_fields:
                found |= Q(**{f"{field}__icontains": query})
            items = items.filter(found)
        return self.order_items(items)

    def order_items(self, items: QuerySet) -> QuerySet:
        return items

    def form_kwargs(self, user: Any, *, editing: bool) -> dict[str, Any]:
        """Extra arguments of the item form (the word lists it offers, say)."""
        return {}

    def form_context(self, visible: QuerySet) -> dict[str, Any]:
        """Extra context of the item form's page, from the items the teacher sees (the subjects it
        suggests, say)."""
        return {}

    @property
    def templates(self) -> dict[str, str]:
        """The kind's parts of the bank pages, in ``templates/questions/kinds/<name>/``: the bank
        table's column heads (``columns``) and a row's cells (``row``), the item page's heading
        (``heading``), its facts (``facts``, inside a ``<dl>``) and what follows them (``more``, where
        :attr:`more_on_item_page`). The item form's fields are laid out as the form lists them unless
        the kind has a ``form`` part of its own (:attr:`own_form_layout`)."""
        folder = f"questions/kinds/{self.name}"
        parts = {part: f"{folder}/{part}.html" for part in ("columns", "row", "heading", "facts")}
        return parts | {
            "more": f"{folder}/more.html" if self.more_on_item_page else "questions/kinds/_nothing.html",
            "form": f"{folder}/form.html" if self.own_form_layout else "includes_form.html",
        }


def numbered(folder: Path) -> list[tuple[dict[str, Any], int]]:
    """``(item, position)`` for the items of the folder's JSON files (each a list of items), the files
    by name, numbered on from one file to the next."""
    items = [item for path in sorted(folder.glob("*.json")) for item in load_items(path)]
    return [(item, position) for position, item in enumerate(items, start=1)]


def load_items(path: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return items


def grouped_counts(items: QuerySet, field: str) -> list[tuple[Any, int]]:
    """``(value, count)`` of the items by ``field``, in value order."""
    return [(row[field], row["n"]) for row in items.values(field).annotate(n=Count("id")).order_by(field)]


def listed(counts: Any, prefix: str = "") -> str:
    return ", ".join(f"{prefix}{name}: {count}" for name, count in counts)
