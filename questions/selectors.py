"""Reads of the question banks, permission checks, and the content a game session takes.

Who sees what: shipped items (``school`` NULL) are visible to every member of staff and changed by no
one; a school's own items are visible to that school's staff only, and editable by their author and the
school's admins. Another school's items are never returned (views answer 404 for them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db.models import Case, Count, F, Max, Model, Q, QuerySet, Value, When

from classrooms.models import Classroom, Membership, School, User
from classrooms.selectors import is_school_admin, primary_school

from .models import (
    ENGLISH,
    Concept,
    ItemReview,
    LineupQuestion,
    QuestionUse,
    VocabularyList,
    WordList,
    WordUpQuestion,
)
from .vocabulary import build_questions, questions_by_category

KIND_MODELS: dict[str, type[Model]] = {
    "lineup": LineupQuestion,
    "wordup": WordUpQuestion,
    "concepts": Concept,
}
WORDUP_CATEGORIES = tuple(WordUpQuestion.Category.values)  # the engine's order
CATEGORY_ORDER = Case(
    *(When(category=category, then=Value(index)) for index, category in enumerate(WORDUP_CATEGORIES)),
    default=Value(len(WORDUP_CATEGORIES)),
)
SCOPES = ("all", "shipped", "own")


# --- who may see and change what -----------------------------------------------------------------------


def staff_school_ids(user: User) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=user).values_list("school_id", flat=True))


def bank_school(user: User) -> School | None:
    """The school whose bank a member of staff writes into (None for someone in no school)."""
    return primary_school(user)


def _visible_q(school_ids: set[int] | list[int]) -> Q:
    return Q(school__isnull=True) | Q(school_id__in=list(school_ids))


def visible_items(kind: str, user: User) -> QuerySet:
    """Shipped items plus those of the user's schools."""
    model = KIND_MODELS[kind]
    if not user.is_authenticated:
        return model.objects.none()
    return model.objects.filter(_visible_q(staff_school_ids(user))).select_related("author")


def school_items(kind: str, school: School | int) -> QuerySet:
    """Shipped items plus ``school``'s own (the school's bank, retired questions included)."""
    school_id = school if isinstance(school, int) else school.pk
    return KIND_MODELS[kind].objects.filter(_visible_q([school_id]))


#: The banks whose questions rotate per class (``QuestionUse``: no repeats until the bank is used up).
ROTATED_KINDS = ("lineup",)


def playable_items(kind: str, school: School | int) -> QuerySet:
    """The school's bank without the questions it retired: what its classes' games ask."""
    school_id = school if isinstance(school, int) else school.pk
    retired = ItemReview.objects.filter(school_id=school_id, kind=kind, status=ItemReview.Status.RETIRED)
    return school_items(kind, school_id).exclude(key__in=retired.values("key"))


def item_reviews(school: School | int) -> dict[tuple[str, str], ItemReview]:
    """``(kind, key) -> review`` for the school's flagged and retired questions."""
    school_id = school if isinstance(school, int) else school.pk
    reviews = ItemReview.objects.filter(school_id=school_id).select_related("by")
    return {(review.kind, review.key): review for review in reviews}


def can_edit_item(user: User, item: Any) -> bool:
    """A school's own item: its author or the school's admins (a word's author is its list's author)."""
    if not user.is_authenticated or item.school_id is None:
        return False
    if isinstance(item, Concept):
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
    """Visible items of ``kind`` narrowed by the bank page's filters (empty values filter nothing).

    Filters: ``scope`` (all, shipped, own), ``level``, ``subject`` and ``language`` (Line Up!),
    ``category`` and ``misplaced`` (Word Up), ``difficulty``, ``theme`` and ``word_list`` (concepts),
    ``q`` (text search).
    """
    items = visible_items(kind, user)
    scope = filters.get("scope") or "all"
    if scope == "shipped":
        items = items.filter(school__isnull=True)
    elif scope == "own":
        items = items.filter(school__isnull=False)
    query = (filters.get("q") or "").strip()
    if kind == "lineup":
        items = _filter_eq(items, filters, "level", "subject", "language")
        if query:
            items = items.filter(
                Q(heading__icontains=query) | Q(key__icontains=query) | Q(tags__icontains=query)
            )
    elif kind == "wordup":
        items = _filter_eq(items, filters, "level", "category")
        if filters.get("misplaced"):
            items = items.filter(
                Q(estimated_level__gte=F("level") + 2) | Q(estimated_level__lte=F("level") - 2)
            )
        if query:
            items = items.filter(
                Q(prompt__icontains=query)
                | Q(sentence__icontains=query)
                | Q(answers__icontains=query)
                | Q(key__icontains=query)
            )
        items = items.annotate(category_order=CATEGORY_ORDER).order_by(
            F("school_id").asc(nulls_first=True), "level", "category_order", "position", "id"
        )
    else:
        items = _filter_eq(items, filters, "difficulty", "theme")
        if filters.get("word_list"):
            items = items.filter(word_list_id=filters["word_list"])
        if query:
            items = items.filter(Q(text__icontains=query) | Q(alt__icontains=query) | Q(key__icontains=query))
        items = items.select_related("word_list").order_by(
            F("school_id").asc(nulls_first=True), "difficulty", "position", "id"
        )
    return items


def _filter_eq(items: QuerySet, filters: dict[str, Any], *names: str) -> QuerySet:
    for name in names:
        value = filters.get(name)
        if value not in (None, ""):
            items = items.filter(**{name: value})
    return items


def distinct_values(kind: str, user: User, field: str) -> list[str]:
    """The subjects (or themes) of the visible items, for the bank page's filter."""
    values = visible_items(kind, user).exclude(**{field: ""}).values_list(field, flat=True).distinct()
    return sorted(set(values))


def item_for_user(kind: str, user: User, pk: int) -> Any | None:
    """The item if the user may see it, else None (the view answers 404)."""
    return visible_items(kind, user).filter(pk=pk).first()


def bank_counts(user: User) -> dict[str, dict[str, int]]:
    counts = {}
    for kind in KIND_MODELS:
        items = visible_items(kind, user)
        counts[kind] = {
            "shipped": items.filter(school__isnull=True).count(),
            "own": items.filter(school__isnull=False).count(),
        }
    return counts


def shipped_bank_summary(data_dir: Path) -> dict[str, Any]:
    """What the shipped banks hold, for ``load_question_banks`` to print: Line Up! by subject and level
    (the English bank) and by language (its editions), Word Up by level and category, Mind the Lines
    concepts by difficulty in each language's deck."""
    shipped = {kind: school_items(kind, 0) for kind in KIND_MODELS}  # school 0 has none: shipped only
    lineup = shipped["lineup"].filter(language=ENGLISH)
    wordup = shipped["wordup"]
    decks = {"en": dict(_grouped_counts(shipped["concepts"], "difficulty"))}
    for folder in sorted(p for p in (data_dir / "mindlines").iterdir() if p.is_dir()):
        decks[folder.name] = {
            deck.stem: len(json.loads(deck.read_text(encoding="utf-8")))
            for deck in sorted(folder.glob("*.json"))
        }
    return {
        "lineup": {
            "total": lineup.count(),
            "subjects": _grouped_counts(lineup, "subject"),
            "levels": _grouped_counts(lineup, "level"),
            "editions": _grouped_counts(shipped["lineup"], "language"),
        },
        "wordup": {
            "total": wordup.count(),
            "levels": _grouped_counts(wordup, "level"),
            "categories": _grouped_counts(wordup, "category"),
        },
        "concepts": decks,
    }


def _grouped_counts(items: QuerySet, field: str) -> list[tuple[Any, int]]:
    return [(row[field], row["n"]) for row in items.values(field).annotate(n=Count("id")).order_by(field)]


# --- content for game sessions -------------------------------------------------------------------------


def lineup_questions_for(
    classroom: Classroom,
    subjects: list[str] | tuple[str, ...] | None = None,
    levels: list[int] | tuple[int, ...] | None = None,
    *,
    limit: int | None = None,
    language: str = ENGLISH,
) -> list[LineupQuestion]:
    """The class's Line Up! questions for a session, questions it has not been shown yet first.

    The bank is the shipped questions of ``language``'s edition plus the class's school's own (less those
    it retired), narrowed to ``subjects`` and ``levels`` (None or empty: all). Questions the class has
    never been shown come first (in bank order), then those it has seen, the longest ago first: so a
    class sees no question again until the filtered bank is used up, and then the rotation starts again
    with the oldest. Where the edition has fewer than ``limit`` such questions (a subject it has not
    translated), the English questions it has no translation of follow, in the same order.
    ``limit`` cuts the list (take the questions a game needs, then shuffle those). Record what was
    shown with :func:`questions.services.questions_mark_used` (it marks a question in every language).
    """
    questions = playable_items("lineup", classroom.school_id)
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


def lineup_subjects_for(school: School | int) -> list[str]:
    return sorted(set(school_items("lineup", school).values_list("subject", flat=True)))


def wordup_bank_for(school: School | int, *, own_only: bool = False) -> dict[str, dict[str, list[dict]]]:
    """``{"1": {"missing_word": [question, ...], ...}, ...}`` as the Word Up engine takes it: shipped
    questions first, then the school's own, each in sheet order (``own_only``: the school's alone),
    without the questions the school retired."""
    questions = playable_items("wordup", school)
    if own_only:
        questions = questions.filter(school__isnull=False)
    questions = questions.order_by(
        F("school_id").asc(nulls_first=True), "level", "category", "position", "id"
    )
    bank: dict[str, dict[str, list[dict]]] = {
        str(level): {category: [] for category in WORDUP_CATEGORIES} for level in range(1, 6)
    }
    for question in questions:
        bank[str(question.level)][question.category].append(question.to_engine_dict())
    return bank


def wordup_bank_version(school: School | int, vocabulary_id: int | None = None) -> tuple:
    """What differs whenever the school's Word Up bank (and the vocabulary list, if given) would read
    differently: how many questions and reviews there are and when the latest of each changed (an edit
    stamps ``updated_at``, a deletion lowers the count). Three small queries, not the whole bank."""
    school_id = school if isinstance(school, int) else school.pk
    items = school_items("wordup", school_id).aggregate(count=Count("pk"), latest=Max("updated_at"))
    reviews = ItemReview.objects.filter(school_id=school_id, kind="wordup").aggregate(
        count=Count("pk"), latest=Max("at")
    )
    vocabulary = None
    if vocabulary_id is not None:
        found = VocabularyList.objects.filter(pk=vocabulary_id, school_id=school_id).values_list("updated_at")
        vocabulary = found.first()
    return items["count"], items["latest"], reviews["count"], reviews["latest"], vocabulary


def concepts_for(
    school: School | int, *, difficulty: str | None = None, word_list: WordList | int | None = None
) -> list[dict]:
    """Mind the Lines concepts as the engine takes them: a word list's (if given, and it is the
    school's), else the shipped deck of ``difficulty`` (both decks if None)."""
    school_id = school if isinstance(school, int) else school.pk
    if word_list is not None:
        list_id = word_list if isinstance(word_list, int) else word_list.pk
        concepts = Concept.objects.filter(word_list_id=list_id, school_id=school_id)
    else:
        concepts = Concept.objects.filter(school__isnull=True)
        if difficulty:
            concepts = concepts.filter(difficulty=difficulty)
    return [concept.to_engine_dict() for concept in concepts.order_by("difficulty", "position", "id")]
