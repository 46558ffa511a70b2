"""Reads of the question banks, permission checks, and the content a game session takes.

Who sees what: shipped items (``school`` NULL) are visible to every member of staff and changed by no
one; a school's own items are visible to that school's staff only, and editable by their author and the
school's admins. Another school's items are never returned (views answer 404 for them).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from django.db.models import Count, F, Model, QuerySet

from classrooms.models import Membership, School, User
from classrooms.selectors import is_school_admin, primary_school

from .kinds import KINDS, kind_of
from .kinds import kind as bank_kind
from .kinds.concepts import CONCEPTS
from .kinds.lineup import LINEUP
from .kinds.wordup import WORDUP
from .models import ItemReview, VocabularyList, WordList
from .vocabulary import build_questions, questions_by_category


class _KindModels(Mapping[str, type[Model]]):
    """Each registered kind's model, by the kind's name (kinds registered later included)."""

    def __getitem__(self, name: str) -> type[Model]:
        return KINDS[name].model

    def __iter__(self) -> Iterator[str]:
        return iter(KINDS)

    def __len__(self) -> int:
        return len(KINDS)


KIND_MODELS: Mapping[str, type[Model]] = _KindModels()
SCOPES = ("all", "shipped", "own")


# --- who may see and change what -----------------------------------------------------------------------


def staff_school_ids(user: User) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=user).values_list("school_id", flat=True))


def bank_school(user: User) -> School | None:
    """The school whose bank a member of staff writes into (None for someone in no school)."""
    return primary_school(user)


def visible_items(kind: str, user: User) -> QuerySet:
    """Shipped items plus those of the user's schools."""
    bank = bank_kind(kind)
    if not user.is_authenticated:
        return bank.model.objects.none()
    return bank.visible_items(staff_school_ids(user)).select_related("author")


def school_items(kind: str, school: School | int) -> QuerySet:
    """Shipped items plus ``school``'s own (the school's bank, retired questions included)."""
    return bank_kind(kind).school_items(school)


def playable_items(kind: str, school: School | int) -> QuerySet:
    """The school's bank without the questions it retired: what its classes' games ask."""
    return bank_kind(kind).playable_items(school)


def item_reviews(school: School | int) -> dict[tuple[str, str], ItemReview]:
    """``(kind, key) -> review`` for the school's flagged and retired questions."""
    school_id = school if isinstance(school, int) else school.pk
    reviews = ItemReview.objects.filter(school_id=school_id).select_related("by")
    return {(review.kind, review.key): review for review in reviews}


def can_edit_item(user: User, item: Any) -> bool:
    """A school's own item: its author or the school's admins (a word's author is its list's author)."""
    if not user.is_authenticated or item.school_id is None:
        return False
    if kind_of(item).on_word_lists:
        return can_edit_word_list(user, item.word_list)
    if item.school_id not in staff_school_ids(user):
        return False
    return item.author_id == user.pk or is_school_admin(user, item.school_id)


def can_edit_word_list(user: User, word_list: WordList | None) -> bool:
    if word_list is None or not user.is_authenticated:
        return False
    if word_list.school_id not in staff_school_ids(user):
        return False
    return word_list.author_id == user.pk or is_school_admin(user, word_list.school_id)


def visible_word_lists(user: User) -> QuerySet[WordList]:
    return (
        WordList.objects.filter(school_id__in=list(staff_school_ids(user)))
        .select_related("author")
        .annotate(word_count=Count("concepts"))
        .order_by(F("updated_at").desc(), "id")
    )


def editable_word_lists(user: User) -> list[WordList]:
    return [word_list for word_list in visible_word_lists(user) if can_edit_word_list(user, word_list)]


def visible_vocabulary_lists(user: User) -> QuerySet[VocabularyList]:
    return (
        VocabularyList.objects.filter(school_id__in=list(staff_school_ids(user)))
        .select_related("author")
        .order_by(F("updated_at").desc(), "id")
    )


def can_edit_vocabulary_list(user: User, vocabulary: VocabularyList | None) -> bool:
    if vocabulary is None or not user.is_authenticated:
        return False
    if vocabulary.school_id not in staff_school_ids(user):
        return False
    return vocabulary.author_id == user.pk or is_school_admin(user, vocabulary.school_id)


def vocabulary_questions(vocabulary: VocabularyList) -> dict[str, list[dict]]:
    """The Word Up questions the list makes, by category."""
    built = build_questions(vocabulary.entries, id_prefix=vocabulary.id_prefix)
    return questions_by_category(built)


def vocabulary_questions_for(school: School | int, vocabulary_id: int) -> dict[str, list[dict]] | None:
    """The Word Up questions of one of the school's vocabulary lists by category, or None if the school
    has no such list (deleted since the session was scheduled)."""
    school_id = school.pk if isinstance(school, School) else school
    vocabulary = VocabularyList.objects.filter(pk=vocabulary_id, school_id=school_id).first()
    return vocabulary_questions(vocabulary) if vocabulary is not None else None


# --- the bank pages ------------------------------------------------------------------------------------


def bank_items(kind: str, user: User, filters: dict[str, Any]) -> QuerySet:
    """Visible items of ``kind`` narrowed by the bank page's filters (empty values filter nothing):
    ``scope`` (all, shipped, own), ``q`` (text search) and the kind's own
    (:meth:`~questions.kinds.base.BankKind.filter_items`)."""
    items = visible_items(kind, user)
    scope = filters.get("scope") or "all"
    if scope == "shipped":
        items = items.filter(school__isnull=True)
    elif scope == "own":
        items = items.filter(school__isnull=False)
    return bank_kind(kind).filter_items(items, filters)


def distinct_values(kind: str, user: User, field: str) -> list[str]:
    """The values of ``field`` among the visible items (the subjects, the themes), for a filter."""
    values = visible_items(kind, user).exclude(**{field: ""}).values_list(field, flat=True).distinct()
    return sorted(set(values))


def item_for_user(kind: str, user: User, pk: int) -> Any | None:
    """The item if the user may see it, else None (the view answers 404)."""
    return visible_items(kind, user).filter(pk=pk).first()


def bank_counts(user: User) -> dict[str, dict[str, int]]:
    counts = {}
    for kind in KINDS:
        items = visible_items(kind, user)
        counts[kind] = {
            "shipped": items.filter(school__isnull=True).count(),
            "own": items.filter(school__isnull=False).count(),
        }
    return counts


def shipped_bank_summary(data_dir: Path) -> list[str]:
    """What the shipped banks hold, for ``load_question_banks`` to print: each kind's own summary."""
    return [line for bank in KINDS.values() for line in bank.summary(data_dir)]


# --- content for game sessions: each kind's own reads, by the names the games know them by -------------

lineup_editions = LINEUP.editions
lineup_questions_for = LINEUP.questions_for
lineup_subjects_for = LINEUP.subjects_for
wordup_bank_for = WORDUP.bank_for
wordup_bank_version = WORDUP.bank_version
concepts_for = CONCEPTS.concepts_for
