"""Line Up!'s part of the progress reports: its subjects are its categories (the shipped banks' named in the
reader's language, a school's own as written), and its insight compares a student's own ordering with
their team's (a fact's score is the cards of the student's ordering in place, ``detail.team_right`` the
team's)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.definitions.reporting import (
    Counted,
    DetailColumn,
    InsightQuery,
    ItemLabels,
    ReportMeasures,
    Summed,
)

#: The shipped banks' subjects (a fact's category is its question's subject), as the game's settings and
#: the reports name them.
SUBJECT_LABELS = {
    "science": gettext_lazy("Science"),
    "geography": gettext_lazy("Geography"),
    "history": gettext_lazy("History"),
    "language": pgettext_lazy("school subject", "Language"),
    "maths": gettext_lazy("Maths"),
    "body": gettext_lazy("The human body"),
    "technology": gettext_lazy("Technology and inventions"),
    "sport": gettext_lazy("Sport"),
    "arts": gettext_lazy("Art and music"),
}


def _gather(rows: list[tuple]) -> dict[str, Any]:
    ((questions, own_total, team_total, better, worse),) = rows
    return {
        "questions": questions,
        "own_total": own_total or 0.0,
        "team_total": team_total or 0.0,
        "better": better,
        "worse": worse,
    }


def _summarise(raw: dict[str, Any] | None, categories: dict[str, dict]) -> dict[str, Any] | None:
    if raw is None:
        return None
    count = raw["questions"]
    return {
        "questions": count,
        "own_mean": round(raw["own_total"] / count, 2) if count else None,
        "team_mean": round(raw["team_total"] / count, 2) if count else None,
        "better": raw["better"],
        "worse": raw["worse"],
    }


def _insight_lines(insight: dict[str, Any]) -> list[str]:
    if not insight["questions"]:
        return []
    return [
        _("On average %(own)s of 5 cards in the right place in their own ordering, %(team)s in the team's.")
        % {"own": insight["own_mean"], "team": insight["team_mean"]},
        ngettext(
            "Their own order beat the team's in %(better)d of %(n)d question.",
            "Their own order beat the team's in %(better)d of %(n)d questions.",
            insight["questions"],
        )
        % {"better": insight["better"], "n": insight["questions"]},
        ngettext(
            "The team's order was better in %(worse)d of %(n)d question.",
            "The team's order was better in %(worse)d of %(n)d questions.",
            insight["questions"],
        )
        % {"worse": insight["worse"], "n": insight["questions"]},
    ]


def _word_answer(response: Any) -> str | None:
    """An ordering as the student saw it: the cards' texts in the order given (facts recorded before the
    texts were kept give the cards' numbers)."""
    if isinstance(response, dict) and isinstance(response.get("cards"), list):
        return ", ".join(str(card) for card in response["cards"])
    return " ".join(str(card) for card in response) if isinstance(response, list) else None


MEASURES = ReportMeasures(
    skill="general_knowledge",
    category_labels=SUBJECT_LABELS,
    answer_categories=None,
    level_evidence=(),
    wrong_answer_categories=None,
    summarise=_summarise,
    insight_lines=_insight_lines,
    word_answer=_word_answer,
    detail_columns=(DetailColumn("team", "team_right", when="score IS NOT NULL", number=True),),
    insight_query=InsightQuery(
        where="score IS NOT NULL",
        figures=(
            Counted(),
            Summed("score"),
            Summed("team"),
            Counted("score > team"),
            Counted("score < team"),
        ),
        gather=_gather,
    ),
    # The shipped questions are named in English (the bank the editions translate).
    item_labels=ItemLabels(
        bank="questions.LineupQuestion", text_field="heading", shipped_filter=(("language", "en"),)
    ),
)
