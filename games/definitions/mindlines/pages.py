"""Pages of their own for Mind the Lines (mounted at /games/mindlines/), beyond the shared live screens.

``lists/``: "Play with your own words". For each of the school's word lists (written on the question
bank's word-list pages), how many concepts it holds of each difficulty, its themes, and for every group
size whether it fills a whole game without repeats, a game with repeats, or too little even for one
round (then the shipped deck fills in). The shipped decks are summarised the same way.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.shortcuts import render
from django.urls import path

from games import shipped
from games.engine.mindlines import MindTheLines, rules
from questions import selectors as question_selectors
from questions.models import Concept
from questions.views import staff_with_school

GROUP_SIZES = range(MindTheLines.min_players, MindTheLines.max_players + 1)


def coverage(count: int) -> list[dict[str, Any]]:
    """For each group size: ``full`` (a whole game without repeats), ``repeats`` (at least one round,
    concepts come back in later rounds) or ``short`` (not even one round)."""
    rows = []
    for size in GROUP_SIZES:
        game, one_round = rules.concepts_needed(size), rules.concepts_needed(size, rounds=1)
        status = "full" if count >= game else "repeats" if count >= one_round else "short"
        rows.append({"size": size, "status": status, "game": game, "round": one_round})
    return rows


def summary(concepts: list[dict[str, Any]]) -> dict[str, Any]:
    difficulties = Counter(concept.get("difficulty") or "" for concept in concepts)
    themes = Counter(concept.get("theme") or "" for concept in concepts)
    return {
        "count": len(concepts),
        "easy": difficulties.get("easy", 0),
        "hard": difficulties.get("hard", 0),
        "themes": sorted((theme, n) for theme, n in themes.items() if theme),
        "coverage": coverage(len(concepts)),
    }


@staff_with_school
def word_lists(request):
    lists = list(question_selectors.visible_word_lists(request.user))
    concepts_by_list: dict[int, list[dict[str, Any]]] = {word_list.pk: [] for word_list in lists}
    for concept in Concept.objects.filter(word_list__in=lists).order_by("position", "id"):
        concepts_by_list[concept.word_list_id].append(concept.to_engine_dict())
    rows = []
    for word_list in lists:
        words = concepts_by_list[word_list.pk]
        rows.append({"list": word_list, "words": words, **summary(words)})
    decks = [
        {"difficulty": difficulty, **summary(shipped.mindlines_concepts(difficulty))}
        for difficulty in shipped.MINDLINES_DIFFICULTIES
    ]
    context = {"lists": rows, "decks": decks, "sizes": list(GROUP_SIZES)}
    return render(request, "games/mindlines/lists.html", context)


urlpatterns: list = [path("lists/", word_lists, name="mindlines-lists")]
