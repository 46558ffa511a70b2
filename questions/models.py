"""Question banks and content for the games: Line Up! ordering questions, Word Up questions, Mind the
Lines concepts and teachers' own word lists.

Every item has an owner scope: *shipped* (``school`` is NULL: loaded from ``questions/data`` by
``manage.py load_question_banks``, read-only, visible to everyone) or a *school's own* (written or
imported by a teacher, visible to that school's staff, editable by its author and the school's admins).

Each item keeps the fields of the shipped JSON files, and ``to_engine_dict()`` returns exactly the dict
the game engines take (the same shape as one entry of those files). ``key`` is that dict's ``id``; it is
unique among the shipped items and within each school (a school's id may not reuse a shipped id).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from classrooms.models import LANGUAGE_MAX_LENGTH, Classroom, Level, School

from .estimate import estimate_word_level

KEY_MAX_LENGTH = 64
#: The language of the English bank, and of a school's own Line Up! questions unless marked otherwise.
ENGLISH = "en"
MISPLACED_DISTANCE = 2


class OwnedItem(models.Model):
    """Fields every bank item shares: its id in the engine's dict, its owner and its place in the bank."""

    key = models.CharField(_("id"), max_length=KEY_MAX_LENGTH)
    school = models.ForeignKey(
        School, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("school")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Order in the bank: the file order for shipped items (Word Up's sheet order within a level and
    #: category), the order of writing or importing for a school's own.
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.key

    @property
    def is_shipped(self) -> bool:
        return self.school_id is None

    def to_engine_dict(self) -> dict[str, Any]:
        """The dict the game engines take: the shape of one entry of the shipped files."""
        raise NotImplementedError


def _owner_constraints(prefix: str) -> list[models.BaseConstraint]:
    return [
        models.UniqueConstraint(
            fields=["key"], condition=models.Q(school__isnull=True), name=f"{prefix}_shipped_key_unique"
        ),
        models.UniqueConstraint(
            fields=["school", "key"],
            condition=models.Q(school__isnull=False),
            name=f"{prefix}_school_key_unique",
        ),
    ]


class LineupQuestion(OwnedItem):
    """A Line Up! ordering question: five items to put in order by an exact datum each.

    The shipped bank comes in editions, one per language (``questions/data/lineup/`` is English, each
    ``questions/data/lineup/<language>/`` a translation): a translated question keeps its English
    question's id, so ``(key, language)`` is unique among the shipped questions, and the id names the
    same question (its values, answer, level and subject) in every language. A school's own questions
    are written in English unless marked otherwise, and are asked as written whatever the session's
    language.
    """

    class Direction(models.TextChoices):
        ASC = "asc", _("Smallest value first")
        DESC = "desc", _("Largest value first")

    heading = models.CharField(_("heading"), max_length=200)
    order_label = models.CharField(_("order asked for"), max_length=100)
    direction = models.CharField(_("direction"), max_length=4, choices=Direction.choices)
    #: Five ``{"text", "value", "display"}`` dicts, numbered 1-5 in this order.
    items = models.JSONField(_("items"))
    #: The card numbers (1-5) in the right order.
    answer = models.JSONField(_("answer"))
    explanation = models.TextField(_("explanation"), max_length=1000)
    source = models.CharField(_("source"), max_length=300)
    level = models.PositiveSmallIntegerField(_("level"), choices=Level.choices)
    subject = models.CharField(_("subject"), max_length=40)
    tags = models.JSONField(_("tags"), default=list, blank=True)
    #: The language it is written in: a code of settings.LANGUAGES.
    language = models.CharField(_("language"), max_length=LANGUAGE_MAX_LENGTH, default=ENGLISH)

    class Meta:
        ordering = ["position", "id"]
        verbose_name = _("Line Up! question")
        verbose_name_plural = _("Line Up! questions")
        constraints = [
            # One shipped question per id in each language edition.
            models.UniqueConstraint(
                fields=["key", "language"],
                condition=models.Q(school__isnull=True),
                name="lineup_shipped_key_language_unique",
            ),
            models.UniqueConstraint(
                fields=["school", "key"],
                condition=models.Q(school__isnull=False),
                name="lineup_school_key_unique",
            ),
        ]
        indexes = [models.Index(fields=["school", "subject", "level"], name="lineup_bank_filter")]

    def to_engine_dict(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "heading": self.heading,
            "order_label": self.order_label,
            "direction": self.direction,
            "items": [dict(item) for item in self.items],
            "answer": list(self.answer),
            "explanation": self.explanation,
            "source": self.source,
            "level": self.level,
            "subject": self.subject,
            "tags": list(self.tags),
        }

    @property
    def language_name(self) -> str:
        """The language's name in itself ("Español"), as the language switcher names it."""
        return dict(settings.LANGUAGES).get(self.language, self.language)

    def items_in_answer_order(self) -> list[dict[str, Any]]:
        return [self.items[number - 1] | {"number": number} for number in self.answer]


class WordUpQuestion(OwnedItem):
    """A Word Up question of one of the four categories, at one of the five levels."""

    class Category(models.TextChoices):
        MISSING_WORD = "missing_word", _("Missing Word")
        CROSSWORD = "crossword", _("Crossword Clues")
        MULTIPLE_CHOICE = "multiple_choice", _("Multiple Choice")
        SPELLING = "spelling", _("Spelling")

    level = models.PositiveSmallIntegerField(_("level"), choices=Level.choices)
    category = models.CharField(_("category"), max_length=20, choices=Category.choices)
    prompt = models.CharField(_("question"), max_length=300)
    answers = models.JSONField(_("accepted answers"))
    alternatives = models.JSONField(_("alternative spellings"), default=list, blank=True)
    letters = models.PositiveSmallIntegerField(_("letters"))
    first_letter = models.CharField(_("first letter"), max_length=1, blank=True)
    choices = models.JSONField(_("choices"), default=list, blank=True)
    sentence = models.CharField(_("spoken sentence"), max_length=300, blank=True)
    #: The target word's level estimated from its CEFR grade (cefrpy), None for a word cefrpy lacks.
    estimated_level = models.PositiveSmallIntegerField(
        _("estimated level"), null=True, blank=True, choices=Level.choices
    )

    class Meta:
        ordering = ["level", "category", "position", "id"]
        verbose_name = _("Word Up question")
        verbose_name_plural = _("Word Up questions")
        constraints = _owner_constraints("wordup")
        indexes = [models.Index(fields=["school", "level", "category"], name="wordup_bank_filter")]

    def save(self, *args, **kwargs):
        self.refresh_estimate()
        super().save(*args, **kwargs)

    def refresh_estimate(self) -> None:
        self.estimated_level = estimate_word_level(self.target_word)

    @property
    def target_word(self) -> str:
        return self.answers[0] if self.answers else ""

    @property
    def looks_misplaced(self) -> bool:
        return (
            self.estimated_level is not None and abs(self.estimated_level - self.level) >= MISPLACED_DISTANCE
        )

    def to_engine_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.key,
            "level": self.level,
            "category": self.category,
            "prompt": self.prompt,
        }
        if self.category == self.Category.SPELLING:
            data["sentence"] = self.sentence
        data |= {
            "answers": list(self.answers),
            "alternatives": list(self.alternatives),
            "letters": self.letters,
        }
        if self.category == self.Category.CROSSWORD:
            data["first_letter"] = self.first_letter
        elif self.category == self.Category.MULTIPLE_CHOICE:
            data["choices"] = list(self.choices)
        return data


class WordList(models.Model):
    """A teacher's own list of concepts for Mind the Lines ("this week's vocabulary")."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(_("name"), max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("word list")
        verbose_name_plural = _("word lists")
        constraints = [
            models.UniqueConstraint(Lower("name"), "school", name="unique_word_list_name_per_school"),
        ]

    def __str__(self) -> str:
        return self.name

    def to_engine_list(self) -> list[dict[str, Any]]:
        """The list's concepts as the Mind the Lines engine takes them (``config["concepts"]``)."""
        return [concept.to_engine_dict() for concept in self.concepts.order_by("position", "id")]


class VocabularyList(models.Model):
    """A teacher's vocabulary for Word Up (a Quizlet-style list: word, definition, example sentence), from
    which the game builds its question kinds (``questions.vocabulary``)."""

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(_("name"), max_length=60)
    #: ``{"term", "definition", "example"}`` dicts in the list's order.
    entries = models.JSONField(_("words"), default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("vocabulary list")
        verbose_name_plural = _("vocabulary lists")
        constraints = [
            models.UniqueConstraint(Lower("name"), "school", name="unique_vocabulary_list_name_per_school"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def id_prefix(self) -> str:
        return f"vocab{self.pk}"


class Concept(OwnedItem):
    """A Mind the Lines concept: shipped in the easy and hard decks, or a word on a school's word list."""

    class Difficulty(models.TextChoices):
        EASY = "easy", _("Easy")
        HARD = "hard", _("Hard")

    word_list = models.ForeignKey(
        WordList,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="concepts",
        verbose_name=_("word list"),
    )
    text = models.CharField(_("concept"), max_length=60)
    alt = models.CharField(_("other name"), max_length=60, blank=True)
    difficulty = models.CharField(_("difficulty"), max_length=4, choices=Difficulty.choices)
    theme = models.CharField(_("theme"), max_length=40, blank=True)

    class Meta:
        ordering = ["difficulty", "position", "id"]
        verbose_name = _("concept")
        verbose_name_plural = _("concepts")
        constraints = [
            *_owner_constraints("concept"),
            # Shipped concepts belong to no list; a school's own always belong to one of its lists.
            models.CheckConstraint(
                condition=models.Q(school__isnull=True, word_list__isnull=True)
                | models.Q(school__isnull=False, word_list__isnull=False),
                name="concept_own_ones_on_a_list",
            ),
        ]

    def to_engine_dict(self) -> dict[str, Any]:
        data = {"id": self.key, "text": self.text, "difficulty": self.difficulty, "theme": self.theme}
        if self.alt:
            data["alt"] = self.alt
        return data


class QuestionUse(models.Model):
    """A Line Up! question a class has been shown (so it is not shown again until the bank is used up)."""

    classroom = models.ForeignKey(Classroom, on_delete=models.CASCADE, related_name="+")
    question = models.ForeignKey(LineupQuestion, on_delete=models.CASCADE, related_name="uses")
    first_used_at = models.DateTimeField()
    last_used_at = models.DateTimeField()
    times_used = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["classroom", "question"], name="one_use_row_per_class_question")
        ]

    def __str__(self) -> str:
        return f"{self.question} shown to {self.classroom}"


class ItemReview(models.Model):
    """A school's word on one bank question after seeing how its classes answered it (the item analysis):
    flagged for a closer look, or retired (the school's games no longer ask it). Shipped questions are
    shared by every school, so the review belongs to the school, not to the question."""

    class Status(models.TextChoices):
        FLAGGED = "flagged", _("Flagged for a look")
        RETIRED = "retired", _("Retired")

    school = models.ForeignKey(School, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)  # a reviewable bank kind's name (questions.kinds)
    key = models.CharField(max_length=KEY_MAX_LENGTH)
    status = models.CharField(max_length=8, choices=Status.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["school", "kind", "key"], name="one_review_per_school_item"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.key} {self.status}"
