"""What the reports know about each game's facts: which rows are answers, how to name categories and
skills, and how to show a wrong answer. Built from the engines' ``facts()`` (see docs/reports.md)."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from classrooms.models import Skill

GAME_LABELS = {
    "lineup": _("Line Up!"),
    "wordup": _("Word Up"),
    "faces": _("Line-Up"),
    "lineit": _("Line-it"),
    "mindlines": _("Mind the Lines"),
}

SKILL_LABELS = {
    Skill.ENGLISH_VOCABULARY: _("English vocabulary"),
    Skill.NUMERACY: _("Numeracy"),
    "general_knowledge": _("General knowledge"),
    "reasoning": _("Reasoning"),
}
#: The skill each game's facts practise (the engines write it on every fact).
GAME_SKILLS = {
    "lineup": "general_knowledge",
    "wordup": Skill.ENGLISH_VOCABULARY.value,
    "faces": "reasoning",
    "lineit": Skill.NUMERACY.value,
    "mindlines": Skill.ENGLISH_VOCABULARY.value,
}
#: Skills with a level a teacher sets (and the reports recommend).
LEVELLED_SKILLS = tuple(Skill.values)

CATEGORY_LABELS = {
    # Word Up's four categories
    "missing_word": _("Missing Word"),
    "crossword": _("Crossword Clues"),
    "multiple_choice": _("Multiple Choice"),
    "spelling": _("Spelling"),
    # Line-Up (Guess Who)
    "question": _("Questions asked"),
    "name": _("Naming the face"),
    "round": _("Rounds won"),
    "match": _("Matches won"),
    # Line-it
    "comparison": _("Comparing numbers"),
    "line": _("Lines banked"),
    "bet": _("Bets"),
    "jackpot": _("Jackpots"),
    "final_score": _("Games won"),
    # Mind the Lines
    "drawing": _("Drawings recognised"),
    "exclusion": _("Decoys found"),
}

#: Which facts are answers (right or wrong) that accuracy counts: ``None`` means every category of the
#: game (Line Up!'s subjects, Word Up's categories); the rest are results (wins, banked lines).
ANSWER_CATEGORIES: dict[str, tuple[str, ...] | None] = {
    "lineup": None,
    "wordup": None,
    "faces": ("question", "name"),
    "lineit": ("comparison",),
    "mindlines": ("drawing", "exclusion"),
}
#: Which answers are evidence for a level recommendation: questions asked at a known level whose mark is
#: the student's alone. (Mind the Lines' marks also depend on the other players' drawings.)
LEVEL_EVIDENCE: dict[str, tuple[str, ...] | None] = {"wordup": None, "lineit": ("comparison",)}
#: Categories whose wrong answers are short enough to list (not Mind the Lines' drawn strokes).
WRONG_ANSWER_CATEGORIES: dict[str, tuple[str, ...] | None] = {
    "lineup": None,
    "wordup": None,
    "faces": ("name",),
    "lineit": ("comparison",),
    "mindlines": ("exclusion",),
}


def _games_q(spec: dict[str, tuple[str, ...] | None]) -> Q:
    query = Q(pk__in=[])
    for game, categories in spec.items():
        query |= Q(game=game) if categories is None else Q(game=game, category__in=categories)
    return query


def answers_q() -> Q:
    """Facts that are answers: a right/wrong mark in an answer category."""
    return _games_q(ANSWER_CATEGORIES) & Q(correct__isnull=False)


def level_evidence_q() -> Q:
    return _games_q(LEVEL_EVIDENCE) & Q(correct__isnull=False, level__isnull=False, skill__in=LEVELLED_SKILLS)


def wrong_answers_q() -> Q:
    return _games_q(WRONG_ANSWER_CATEGORIES) & Q(correct=False, response__isnull=False)


def is_answer(game: str, category: str) -> bool:
    if game not in ANSWER_CATEGORIES:
        return False
    categories = ANSWER_CATEGORIES[game]
    return categories is None or category in categories


def game_label(game: str) -> str:
    return str(GAME_LABELS.get(game, game))


def skill_label(skill: str) -> str:
    return str(SKILL_LABELS.get(skill, skill.replace("_", " ").capitalize()))


def category_label(category: str) -> str:
    """Word Up and the games' own categories by name; Line Up!'s subjects as they are written."""
    if category in CATEGORY_LABELS:
        return str(CATEGORY_LABELS[category])
    return category.replace("_", " ").capitalize() if category else str(_("Other"))


def answer_text(game: str, response: Any) -> str:
    """A wrong answer as a teacher would read it."""
    if isinstance(response, str):
        return response.strip()[:120]
    if game == "lineup" and isinstance(response, list):
        return " ".join(str(card) for card in response)[:120]
    if game == "lineit" and isinstance(response, dict) and "card" in response:
        return f"{response.get('card')} → {response.get('after')}"[:120]
    if game == "faces" and isinstance(response, dict) and "face" in response:
        return str(response["face"])[:120]
    return json.dumps(response, ensure_ascii=False, sort_keys=True)[:120]
