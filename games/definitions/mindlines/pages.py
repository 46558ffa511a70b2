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
from django.utils.translation import pgettext_lazy

from games import shipped
from games.engine.mindlines import MindTheLines, rules
from questions import selectors as question_selectors
from questions.models import Concept
from questions.views import staff_with_school

GROUP_SIZES = range(MindTheLines.min_players, MindTheLines.max_players + 1)

#: The shipped decks' themes (their files hold these English keys); static/js/games/mindlines.js names
#: them alike on the student's concept card. A word list's own theme is shown as its teacher wrote it.
THEME_NAMES = {
    "actions": pgettext_lazy("Mind the Lines theme", "actions"),
    "animals": pgettext_lazy("Mind the Lines theme", "animals"),
    "body": pgettext_lazy("Mind the Lines theme", "body"),
    "clothes": pgettext_lazy("Mind the Lines theme", "clothes"),
    "food": pgettext_lazy("Mind the Lines theme", "food"),
    "home": pgettext_lazy("Mind the Lines theme", "home"),
    "jobs": pgettext_lazy("Mind the Lines theme", "jobs"),
    "music": pgettext_lazy("Mind the Lines theme", "music"),
    "nature": pgettext_lazy("Mind the Lines theme", "nature"),
    "places": pgettext_lazy("Mind the Lines theme", "places"),
    "school": pgettext_lazy("Mind the Lines theme", "school"),
    "science": pgettext_lazy("Mind the Lines theme", "science"),
    "sport": pgettext_lazy("Mind the Lines theme", "sport"),
    "transport": pgettext_lazy("Mind the Lines theme", "transport"),
    "weather": pgettext_lazy("Mind the Lines theme", "weather"),
}


def theme_name(theme: str) -> str:
    """A shipped theme in the page's language; any other as written."""
    return str(THEME_NAMES.get(theme, theme))


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
        "themes": sorted((theme_name(theme), n) for theme, n in themes.items() if theme),
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
        shown = [{**word, "theme": theme_name(word.get("theme") or "")} for word in words]
        rows.append({"list": word_list, "words": shown, **summary(words)})
    decks = [
        {"difficulty": difficulty, **summary(shipped.mindlines_concepts(difficulty))}
        for difficulty in shipped.MINDLINES_DIFFICULTIES
    ]
    context = {"lists": rows, "decks": decks, "sizes": list(GROUP_SIZES)}
    return render(request, "games/mindlines/lists.html", context)


urlpatterns: list = [path("lists/", word_lists, name="mindlines-lists")]
