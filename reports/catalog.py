"""What the reports know about the games' facts, asked of each game's report measures
(``games.definitions.reporting``): which rows are answers, how to name categories and skills, and how to
show a wrong answer. Built from the engines' ``facts()`` (see docs/reports.md)."""

from __future__ import annotations

import json
from typing import Any, Literal

from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from classrooms.models import Skill
from games.definitions import DEFINITIONS, all_measures, game_full_name
from games.definitions.reporting import Categories, ReportMeasures

#: "Line-Up — Guess Who": translated when shown.
GAME_LABELS = {game: lazy(game_full_name, str)(game) for game in DEFINITIONS}

SKILL_LABELS = {
    Skill.ENGLISH_VOCABULARY: _("English vocabulary"),
    Skill.NUMERACY: _("Numeracy"),
    "general_knowledge": _("General knowledge"),
    "reasoning": _("Reasoning"),
}
#: Skills with a level a teacher sets (and the reports recommend).
LEVELLED_SKILLS = tuple(Skill.values)
#: Longest wrong answer shown.
ANSWER_SHOWN = 120


def reported_skills() -> list[str]:
    """Every skill a report shows: the levelled ones and the games' others (General knowledge,
    Reasoning), in the pages' order."""
    skills = [*SKILL_LABELS, *(measures.skill for measures in all_measures().values())]
    return list(dict.fromkeys(skill for skill in skills if skill))


def game_skill(game: str) -> str:
    """The skill a game's facts practise ("" for a game the reports do not know)."""
    measures = _measures(game)
    return measures.skill if measures else ""


def games_spec(
    categories_of: Literal[
        "answer_categories", "level_evidence", "wrong_answer_categories", "no_answer_categories"
    ],
) -> dict[str, Categories]:
    """``{game: categories}`` of one of :class:`ReportMeasures`' category fields, leaving out the games it
    holds for no category."""
    spec: dict[str, Categories] = {}
    for game, measures in all_measures().items():
        categories = getattr(measures, categories_of)
        if categories is None or categories:
            spec[game] = categories
    return spec


def _games_q(spec: dict[str, Categories]) -> Q:
    query = Q(pk__in=[])
    for game, categories in spec.items():
        query |= Q(game=game) if categories is None else Q(game=game, category__in=categories)
    return query


def no_answer_q() -> Q:
    """Facts that are no answer: a question the student let run out of time (no response, not right,
    in a game's ``no_answer_categories``). Counted apart, never as a wrong answer."""
    return _games_q(games_spec("no_answer_categories")) & Q(response__isnull=True) & ~Q(correct=True)


def answers_q() -> Q:
    """Facts that are answers: a right/wrong mark in an answer category (not a timed-out question)."""
    return _games_q(games_spec("answer_categories")) & Q(correct__isnull=False) & ~no_answer_q()


def quality_q() -> Q:
    """Facts measured by a quality score (a game's ``quality_categories``)."""
    spec = {
        game: measures.quality_categories
        for game, measures in all_measures().items()
        if measures.quality_categories
    }
    return _games_q(spec) & Q(score__isnull=False)


def share_q() -> Q:
    """Facts of a game's own share measures (a game's ``share_categories``)."""
    spec = {
        game: measures.share_categories
        for game, measures in all_measures().items()
        if measures.share_categories
    }
    return _games_q(spec) & Q(correct__isnull=False)


def level_evidence_q() -> Q:
    return (
        _games_q(games_spec("level_evidence"))
        & Q(correct__isnull=False, level__isnull=False, skill__in=LEVELLED_SKILLS)
        & ~no_answer_q()
    )


def wrong_answers_q() -> Q:
    return _games_q(games_spec("wrong_answer_categories")) & Q(correct=False, response__isnull=False)


def _measures(game: str) -> ReportMeasures | None:
    """A game's measures, looked up without building every game's (a build asks per category row)."""
    found = DEFINITIONS.get(game)
    return found.reports if found is not None else None


def is_answer(game: str, category: str) -> bool:
    measures = _measures(game)
    if measures is None:
        return False
    return measures.answer_categories is None or category in measures.answer_categories


def is_no_answer(game: str, category: str) -> bool:
    """Whether a fact of this category with no response is a question left to run out of time."""
    measures = _measures(game)
    if measures is None:
        return False
    return measures.no_answer_categories is None or category in measures.no_answer_categories


def is_quality(game: str, category: str) -> bool:
    """Whether the category is measured by a quality score (its mean), not right or wrong."""
    measures = _measures(game)
    return measures is not None and category in measures.quality_categories


def measure_of(game: str, category: str) -> str:
    """How a category that is not counted in accuracy is shown: "quality" (a mean score), "share" (its
    own right of made) or "wins" (a result)."""
    measures = _measures(game)
    if measures is not None and category in measures.quality_categories:
        return "quality"
    if measures is not None and category in measures.share_categories:
        return "share"
    return "wins"


def game_label(game: str) -> str:
    return game_full_name(game)


def skill_label(skill: str) -> str:
    return str(SKILL_LABELS.get(skill, skill.replace("_", " ").capitalize()))


def category_label(category: str) -> str:
    """A category by its game's name for it; one the game does not name (a subject) as written."""
    for measures in all_measures().values():
        if category in measures.category_labels:
            return str(measures.category_labels[category])
    return category.replace("_", " ").capitalize() if category else str(_("Other"))


def item_text(game: str, label: str) -> str:
    """A question's name as the reader reads it: a game's standard wording (Word Up's spelling
    instruction) in their language, a bank's text as written."""
    measures = _measures(game)
    return measures.item_text(label) if measures is not None and label else label


def shorten(text: str, limit: int) -> str:
    """``text`` in ``limit`` characters at most: if it is longer, cut after its last whole word that fits
    (a single long word is cut where it must) and ended with "…", so a reader sees it goes on."""
    text = text.strip()
    if len(text) <= limit:
        return text
    kept = text[: limit - 1]
    if not text[limit - 1].isspace() and " " in kept:
        kept = kept[: kept.rindex(" ")]
    return kept.rstrip(" ,;:·-–—") + "…"


def answer_text(game: str, response: Any) -> str:
    """A wrong answer as a teacher would read it."""
    if isinstance(response, str):
        return shorten(response, ANSWER_SHOWN)
    measures = _measures(game)
    worded = measures.word_answer(response) if measures else None
    if worded is not None:
        return shorten(worded, ANSWER_SHOWN)
    return shorten(json.dumps(response, ensure_ascii=False, sort_keys=True), ANSWER_SHOWN)
